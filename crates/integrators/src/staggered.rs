//! Explicit central difference (Chiou eq 5.5.2.1) and the two-stage staggered
//! explicit–implicit procedure (Chiou sec 5.5.2 steps 1–6, sec 5.5.3–5.5.5)
//! over a [`PartitionedSystem`].
//!
//! Both are fixed-step. The step is rounded down so that an integer number of
//! equal steps reaches `t_end`: `N = ⌈|t_end − t0| / h⌉`, `h ← |t_end − t0| / N`
//! (a smaller step never violates a stability bound).
//!
//! # Stability on the torque-free top (eq 5.5.2.2)
//! With `ω̇ⁿ` evaluated at `ωⁿ ≈ ω^{n−½}` (approximation (1) of the thesis),
//! the half-station central difference is forward Euler on `ω` and is
//! unstable for every `h` (eq 5.5.2.37). The two-stage scheme is the two-step
//! (leap-frog) midpoint rule with step `h/2` on the interleaved stations; its
//! characteristic equation (5.5.2.42), `(s² − 1)(s² + i h|ω| s − 1) = 0` per
//! eigen-direction, has `|s| = 1` exactly when `h |ω| ≤ 2`. The thesis states
//! the bound `h ≤ 2√2/|ω|` (eq 5.5.2.44), which is the Routh–Hurwitz
//! *coefficient* condition on eq 5.5.2.43 (`8 − h²Δω > 0`) only; the roots of
//! 5.5.2.43 as a quadratic in `z²` are complex (one of each pair with a
//! positive real part) as soon as `h² Δω > 4`. The tests in
//! `tests/staggered_top.rs` confirm both: bounded at `h = 0.95 · 2/|ω|`,
//! growing at `h = 1.05 · 2/|ω|` and at `h = 0.95 · 2√2/|ω|`.

use crate::common::{all_finite, check_dim};
use crate::driver::drive_with_init;
use crate::error::{AtTime, Error};
use crate::stepper::{Schedule, Step, Stepper};
use crate::system::{Info, Observer, PartitionedSystem};

/// Parameters of [`CentralDifference`] and [`TwoStageStaggered`].
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Step size (default `1e-3`), rounded down to divide the interval.
    pub h: f64,
    /// Maximum number of steps.
    pub max_steps: usize,
    /// Call [`PartitionedSystem::project`] every `project_every` steps (`0`: never).
    pub project_every: usize,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            h: 1e-3,
            max_steps: 100_000_000,
            project_every: 1,
        }
    }
}

impl Params {
    /// Defaults with step `h`.
    pub fn new(h: f64) -> Self {
        Self {
            h,
            ..Self::default()
        }
    }
}

/// Number of equal steps and their (signed) size.
fn uniform_steps(t0: f64, t_end: f64, h: f64, max_steps: usize) -> Result<(usize, f64), Error> {
    if !crate::common::positive(h) {
        return Err(Error::InvalidInput("step h must be positive".into()));
    }
    let span = t_end - t0;
    let steps = ((span.abs() / h) * (1.0 - 1e-12)).ceil().max(1.0);
    if steps > max_steps as f64 {
        return Err(Error::TooManySteps { t: t0, max_steps });
    }
    let steps = steps as usize;
    Ok((steps, span / steps as f64))
}

/// What the partitioned integrators share: the state, the uniform steps, the
/// rollback of a failed step and the dense output.
#[derive(Debug, Clone)]
struct Uniform {
    params: Params,
    nx: usize,
    nv: usize,
    x: Vec<f64>,
    v: Vec<f64>,
    /// Accelerations at the current station.
    a: Vec<f64>,
    /// Start and end (before any projection) of the last step.
    x_prev: Vec<f64>,
    v_prev: Vec<f64>,
    x_end: Vec<f64>,
    v_end: Vec<f64>,
    tmp_x: Vec<f64>,
    tmp_v: Vec<f64>,
    /// `[x, v]` for the observer, and the dense output.
    out: Vec<f64>,
    dense: Vec<f64>,
    t: f64,
    t0: f64,
    /// Start time of the last step.
    t_prev: f64,
    /// Steps of the run, steps taken, and their (signed) size.
    steps: usize,
    taken: usize,
    h: f64,
    /// The projection changed the state after the last step.
    projected: bool,
    info: Info,
}

impl Uniform {
    fn new(nx: usize, nv: usize, params: Params) -> Self {
        Self {
            params,
            nx,
            nv,
            x: vec![0.0; nx],
            v: vec![0.0; nv],
            a: vec![0.0; nv],
            x_prev: vec![0.0; nx],
            v_prev: vec![0.0; nv],
            x_end: vec![0.0; nx],
            v_end: vec![0.0; nv],
            tmp_x: vec![0.0; nx],
            tmp_v: vec![0.0; nv],
            out: vec![0.0; nx + nv],
            dense: vec![0.0; nx + nv],
            t: 0.0,
            t0: 0.0,
            t_prev: 0.0,
            steps: 0,
            taken: 0,
            h: 0.0,
            projected: false,
            info: Info::default(),
        }
    }

    /// Check the dimensions, clear the statistics, set the state to `(t0, x0, v0)`.
    fn set_state<S: PartitionedSystem + ?Sized>(
        &mut self,
        sys: &S,
        t0: f64,
        x0: &[f64],
        v0: &[f64],
    ) -> Result<(), Error> {
        check_dim("x0", x0.len(), self.nx)?;
        check_dim("v0", v0.len(), self.nv)?;
        check_dim("system positions", sys.dim_positions(), self.nx)?;
        check_dim("system velocities", sys.dim_velocities(), self.nv)?;
        (self.info, self.t, self.t0, self.projected) = (Info::default(), t0, t0, false);
        self.x.copy_from_slice(x0);
        self.v.copy_from_slice(v0);
        self.pack();
        Ok(())
    }

    /// [`Stepper::init`] with `y0 = [x0, v0]`.
    fn init<S: PartitionedSystem + ?Sized>(
        &mut self,
        sys: &S,
        t0: f64,
        y0: &[f64],
    ) -> Result<(), Error> {
        check_dim("y0", y0.len(), self.nx + self.nv)?;
        self.set_state(sys, t0, &y0[..self.nx], &y0[self.nx..])
    }

    /// The equal steps to `t_end`.
    fn plan(&mut self, t_end: f64) -> Result<(), Error> {
        (self.steps, self.h) = uniform_steps(self.t0, t_end, self.params.h, self.params.max_steps)?;
        self.taken = 0;
        Ok(())
    }

    /// Start the next step: its start and end times (`t0 + k h`, the last one
    /// `t_end`); the state is kept for a rollback.
    fn begin_step(&mut self, t_end: f64) -> (f64, f64) {
        self.taken += 1;
        let t_new = if self.taken == self.steps {
            t_end
        } else {
            self.t0 + self.taken as f64 * self.h
        };
        self.x_prev.copy_from_slice(&self.x);
        self.v_prev.copy_from_slice(&self.v);
        (self.t, t_new)
    }

    /// Accept the step to `t_new`, or on error roll the state back to the last
    /// accepted station.
    fn end_step(&mut self, r: Result<(), Error>, t_new: f64) -> Result<Step, Error> {
        if let Err(e) = r {
            self.x.copy_from_slice(&self.x_prev);
            self.v.copy_from_slice(&self.v_prev);
            return Err(e);
        }
        (self.t_prev, self.t) = (self.t, t_new);
        self.info.accepted_steps += 1;
        self.x_end.copy_from_slice(&self.x);
        self.v_end.copy_from_slice(&self.v);
        Ok(Step::Accepted {
            last: self.taken == self.steps,
        })
    }

    fn project<S: PartitionedSystem + ?Sized>(&mut self, sys: &mut S) -> Result<bool, Error> {
        self.projected = sys.project(self.t, &mut self.x, &mut self.v).at(self.t)?;
        Ok(self.projected)
    }

    /// `[x, v]` into `out`.
    fn pack(&mut self) {
        self.out[..self.nx].copy_from_slice(&self.x);
        self.out[self.nx..].copy_from_slice(&self.v);
    }

    /// Linear interpolation on the last step at `ts`.
    fn interpolate(&mut self, ts: f64) -> &[f64] {
        let (nx, theta) = (self.nx, (ts - self.t_prev) / self.h);
        for i in 0..nx {
            self.dense[i] = self.x_prev[i] + theta * (self.x_end[i] - self.x_prev[i]);
        }
        for i in 0..self.nv {
            self.dense[nx + i] = self.v_prev[i] + theta * (self.v_end[i] - self.v_prev[i]);
        }
        &self.dense
    }

    fn schedule(&self) -> Schedule {
        Schedule {
            project_every: self.params.project_every,
            max_steps: self.params.max_steps,
        }
    }
}

/// Explicit central difference in half-station form (Chiou eq 5.5.2.1):
///
/// ```text
/// aⁿ       = a(tₙ, xⁿ, vⁿ),   vⁿ ≈ v^{n−½}          (approximation (1))
/// v^{n+½}  = v^{n−½} + h aⁿ
/// x^{n+1}  = xⁿ + h N(xⁿ) v^{n+½}                   (PartitionedSystem::advance_positions)
/// ```
///
/// started with `v^{½} = v⁰ + h/2 a(t₀, x⁰, v⁰)`. One acceleration per step.
/// Second order when `a` does not depend on `v`; first order (and, on the
/// torque-free top, unconditionally unstable — eq 5.5.2.37) when it does.
/// The velocity reported at station `n` is `v^{n−½} + h/2 aⁿ`.
#[derive(Debug, Clone)]
pub struct CentralDifference {
    u: Uniform,
    /// `v^{n−½}`.
    v_half: Vec<f64>,
    /// The previous step (`0` at the start and after a projection).
    h_prev: f64,
}

impl CentralDifference {
    /// An integrator for `nx` positions and `nv` velocities.
    pub fn new(nx: usize, nv: usize, params: Params) -> Self {
        Self {
            u: Uniform::new(nx, nv, params),
            v_half: vec![0.0; nv],
            h_prev: 0.0,
        }
    }
    /// Time of the last accepted state.
    pub fn t(&self) -> f64 {
        self.u.t
    }
    /// Last positions.
    pub fn x(&self) -> &[f64] {
        &self.u.x
    }
    /// Last (full-station) velocities.
    pub fn v(&self) -> &[f64] {
        &self.u.v
    }
    /// Statistics.
    pub fn info(&self) -> Info {
        self.u.info
    }

    /// Integrate from `(t0, x0, v0)` to `t_end` by [`crate::drive`]. The observer
    /// receives `[x, v]`.
    pub fn integrate<S: PartitionedSystem + ?Sized, O: Observer + ?Sized>(
        &mut self,
        sys: &mut S,
        t0: f64,
        x0: &[f64],
        v0: &[f64],
        t_end: f64,
        t_out: &[f64],
        obs: &mut O,
    ) -> Result<Info, Error> {
        drive_with_init(self, sys, t0, t_end, t_out, obs, |st, sys| {
            st.u.set_state(sys, t0, x0, v0)
        })
    }

    /// One step from station `n` at `t` to `n + 1` at `t_new`.
    fn advance<S: PartitionedSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        t: f64,
        t_new: f64,
    ) -> Result<(), Error> {
        let h = self.u.h;
        let u = &mut self.u;
        // v^{n+½} = v^{n−½} + (h_prev + h)/2 aⁿ   (= h aⁿ for equal steps)
        let c = 0.5 * (self.h_prev + h);
        for i in 0..u.nv {
            self.v_half[i] += c * u.a[i];
        }
        // x^{n+1} = xⁿ + h N v^{n+½}
        sys.advance_positions(&u.x, &self.v_half, h, &mut u.tmp_x)
            .at(t)?;
        std::mem::swap(&mut u.x, &mut u.tmp_x);
        // a^{n+1} at the lagged velocity v^{n+½}; report v^{n+1} ≈ v^{n+½} + h/2 a^{n+1}.
        sys.accelerations(t_new, &u.x, &self.v_half, &mut u.a)
            .at(t_new)?;
        u.info.rhs_evals += 1;
        for i in 0..u.nv {
            u.v[i] = self.v_half[i] + 0.5 * h * u.a[i];
        }
        if !all_finite(&u.x) || !all_finite(&u.v) {
            return Err(Error::NonFinite { t: t_new });
        }
        self.h_prev = h;
        Ok(())
    }
}

impl<S: PartitionedSystem + ?Sized> Stepper<S> for CentralDifference {
    fn init(&mut self, sys: &S, t0: f64, y0: &[f64]) -> Result<(), Error> {
        self.u.init(sys, t0, y0)
    }

    fn start(&mut self, sys: &mut S, t_end: f64) -> Result<(), Error> {
        let u = &mut self.u;
        u.plan(t_end)?;
        sys.accelerations(u.t, &u.x, &u.v, &mut u.a).at(u.t)?;
        u.info.rhs_evals += 1;
        // v^{−½} := v⁰ with a zero previous step makes the first update
        // v^{½} = v⁰ + h/2 a⁰.
        self.v_half.copy_from_slice(&u.v);
        self.h_prev = 0.0;
        Ok(())
    }

    fn step(&mut self, sys: &mut S, t_end: f64) -> Result<Step, Error> {
        let (t, t_new) = self.u.begin_step(t_end);
        let r = self.advance(sys, t, t_new);
        self.u.end_step(r, t_new)
    }

    fn project(&mut self, sys: &mut S) -> Result<bool, Error> {
        self.u.project(sys)
    }

    fn complete(&mut self, sys: &mut S) -> Result<(), Error> {
        let u = &mut self.u;
        if std::mem::take(&mut u.projected) {
            // Restart the half-station velocity from the projected state.
            sys.accelerations(u.t, &u.x, &u.v, &mut u.a).at(u.t)?;
            u.info.rhs_evals += 1;
            self.v_half.copy_from_slice(&u.v);
            self.h_prev = 0.0;
        }
        u.pack();
        Ok(())
    }

    fn interpolate(&mut self, t: f64) -> &[f64] {
        self.u.interpolate(t)
    }
    fn t(&self) -> f64 {
        self.u.t
    }
    fn y(&self) -> &[f64] {
        &self.u.out
    }
    fn info(&self) -> Info {
        self.u.info
    }
    fn info_mut(&mut self) -> &mut Info {
        &mut self.u.info
    }
    fn schedule(&self) -> Schedule {
        self.u.schedule()
    }
}

/// Two-stage staggered explicit–implicit procedure (Chiou sec 5.5.2,
/// steps (1)–(6) and eq 5.5.2.41; velocities by eq 5.5.3.1, positions by
/// eq 5.5.3.2 and, for Euler parameters, the system's closed-form implicit
/// rule eq 5.5.4.6/5.5.4.7; constraint forces by the system's implicit stage
/// eq 5.5.5.2).
///
/// Integer stations `n` and half stations `n + ½` are two interleaved
/// central-difference sequences, each using the accelerations of the other:
///
/// ```text
/// (1) v^{n+½} = v^{n−½} + h aⁿ
/// (2) x^{n+½} = x^{n−½} + h N vⁿ                     (advance_positions)
/// (3) implicit_stage(t^{n+½}, x^{n+½}, vⁿ, h/2);  a^{n+½} = a(t^{n+½}, x^{n+½}, v^{n+½})
/// (4) v^{n+1} = vⁿ + h a^{n+½}
/// (5) x^{n+1} = xⁿ + h N v^{n+½}                     (advance_positions)
/// (6) implicit_stage(t^{n+1}, x^{n+1}, v^{n+½}, h/2); a^{n+1} = a(t^{n+1}, x^{n+1}, v^{n+1})
/// ```
///
/// Accelerations are thus always evaluated with the velocity of their own
/// station (no lag): two evaluations per step, second order. The first half
/// station is started by one Heun half step from `(x⁰, v⁰)` (one extra
/// evaluation). Stable on the torque-free top for `h |ω| ≤ 2` (see the
/// module docs on the thesis's bound 5.5.2.44).
#[derive(Debug, Clone)]
pub struct TwoStageStaggered {
    u: Uniform,
    /// Half-station positions, velocities, accelerations.
    xh: Vec<f64>,
    vh: Vec<f64>,
    ah: Vec<f64>,
    /// The next step starts the half-station sequence (at the start and after a
    /// projection).
    need_start: bool,
}

impl TwoStageStaggered {
    /// An integrator for `nx` positions and `nv` velocities.
    pub fn new(nx: usize, nv: usize, params: Params) -> Self {
        Self {
            u: Uniform::new(nx, nv, params),
            xh: vec![0.0; nx],
            vh: vec![0.0; nv],
            ah: vec![0.0; nv],
            need_start: true,
        }
    }
    /// Time of the last accepted (integer) station.
    pub fn t(&self) -> f64 {
        self.u.t
    }
    /// Last positions.
    pub fn x(&self) -> &[f64] {
        &self.u.x
    }
    /// Last velocities.
    pub fn v(&self) -> &[f64] {
        &self.u.v
    }
    /// Statistics.
    pub fn info(&self) -> Info {
        self.u.info
    }

    /// Integrate from `(t0, x0, v0)` to `t_end` by [`crate::drive`]. The observer
    /// receives `[x, v]`.
    pub fn integrate<S: PartitionedSystem + ?Sized, O: Observer + ?Sized>(
        &mut self,
        sys: &mut S,
        t0: f64,
        x0: &[f64],
        v0: &[f64],
        t_end: f64,
        t_out: &[f64],
        obs: &mut O,
    ) -> Result<Info, Error> {
        drive_with_init(self, sys, t0, t_end, t_out, obs, |st, sys| {
            st.u.set_state(sys, t0, x0, v0)
        })
    }

    /// Heun half step from the integer station to the next half station:
    /// `x* = x + h/2 N v`, `v* = v + h/2 a`, `a* = a(t + h/2, x*, v*)`,
    /// `v^{½} = v + h/4 (a + a*)`, `x^{½} = x + h/2 N (v + v*)/2`.
    fn start_half_station<S: PartitionedSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        h: f64,
    ) -> Result<(), Error> {
        let u = &mut self.u;
        let t_half = u.t + 0.5 * h;
        sys.advance_positions(&u.x, &u.v, 0.5 * h, &mut u.tmp_x)
            .at(u.t)?;
        for i in 0..u.nv {
            u.tmp_v[i] = u.v[i] + 0.5 * h * u.a[i];
        }
        sys.accelerations(t_half, &u.tmp_x, &u.tmp_v, &mut self.ah)
            .at(t_half)?;
        u.info.rhs_evals += 1;
        for i in 0..u.nv {
            self.vh[i] = u.v[i] + 0.25 * h * (u.a[i] + self.ah[i]);
            u.tmp_v[i] = 0.5 * (u.v[i] + u.tmp_v[i]);
        }
        sys.advance_positions(&u.x, &u.tmp_v, 0.5 * h, &mut self.xh)
            .at(u.t)?;
        Ok(())
    }

    /// Steps (1)–(6) from the integer station at `t` to the next at `t_new`.
    fn advance<S: PartitionedSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        t: f64,
        t_new: f64,
    ) -> Result<(), Error> {
        let h = self.u.h;
        let t_half = t + 0.5 * h;
        if self.need_start {
            // First half station x^{½}, v^{½} by a Heun half step.
            self.start_half_station(sys, h)?;
            self.need_start = false;
        } else {
            let u = &mut self.u;
            // (1) v^{n+½} = v^{n−½} + h aⁿ
            for i in 0..u.nv {
                self.vh[i] += h * u.a[i];
            }
            // (2) x^{n+½} = x^{n−½} + h N vⁿ
            sys.advance_positions(&self.xh, &u.v, h, &mut u.tmp_x)
                .at(t)?;
            std::mem::swap(&mut self.xh, &mut u.tmp_x);
        }
        let u = &mut self.u;
        // (3) implicit stage and accelerations at the half station.
        sys.implicit_stage(t_half, &self.xh, &u.v, 0.5 * h)
            .at(t_half)?;
        sys.accelerations(t_half, &self.xh, &self.vh, &mut self.ah)
            .at(t_half)?;
        u.info.rhs_evals += 1;
        // (4) v^{n+1} = vⁿ + h a^{n+½}
        for i in 0..u.nv {
            u.v[i] += h * self.ah[i];
        }
        // (5) x^{n+1} = xⁿ + h N v^{n+½}
        sys.advance_positions(&u.x, &self.vh, h, &mut u.tmp_x)
            .at(t)?;
        std::mem::swap(&mut u.x, &mut u.tmp_x);
        // (6) implicit stage and accelerations at the integer station.
        sys.implicit_stage(t_new, &u.x, &self.vh, 0.5 * h)
            .at(t_new)?;
        sys.accelerations(t_new, &u.x, &u.v, &mut u.a).at(t_new)?;
        u.info.rhs_evals += 1;
        if !all_finite(&u.x) || !all_finite(&u.v) || !all_finite(&u.a) {
            return Err(Error::NonFinite { t: t_new });
        }
        Ok(())
    }
}

impl<S: PartitionedSystem + ?Sized> Stepper<S> for TwoStageStaggered {
    fn init(&mut self, sys: &S, t0: f64, y0: &[f64]) -> Result<(), Error> {
        self.u.init(sys, t0, y0)
    }

    /// Initial implicit stage and a⁰ (steps \[2\]–\[4\] of sec 5.5.6).
    fn start(&mut self, sys: &mut S, t_end: f64) -> Result<(), Error> {
        let u = &mut self.u;
        u.plan(t_end)?;
        sys.implicit_stage(u.t, &u.x, &u.v, 0.5 * u.h).at(u.t)?;
        sys.accelerations(u.t, &u.x, &u.v, &mut u.a).at(u.t)?;
        u.info.rhs_evals += 1;
        self.need_start = true;
        Ok(())
    }

    fn step(&mut self, sys: &mut S, t_end: f64) -> Result<Step, Error> {
        let (t, t_new) = self.u.begin_step(t_end);
        let r = self.advance(sys, t, t_new);
        self.u.end_step(r, t_new)
    }

    fn project(&mut self, sys: &mut S) -> Result<bool, Error> {
        self.u.project(sys)
    }

    fn complete(&mut self, sys: &mut S) -> Result<(), Error> {
        let u = &mut self.u;
        if std::mem::take(&mut u.projected) {
            // The half-station sequence is restarted from the projected
            // integer station.
            sys.implicit_stage(u.t, &u.x, &u.v, 0.5 * u.h).at(u.t)?;
            sys.accelerations(u.t, &u.x, &u.v, &mut u.a).at(u.t)?;
            u.info.rhs_evals += 1;
            self.need_start = true;
        }
        u.pack();
        Ok(())
    }

    fn interpolate(&mut self, t: f64) -> &[f64] {
        self.u.interpolate(t)
    }
    fn t(&self) -> f64 {
        self.u.t
    }
    fn y(&self) -> &[f64] {
        &self.u.out
    }
    fn info(&self) -> Info {
        self.u.info
    }
    fn info_mut(&mut self) -> &mut Info {
        &mut self.u.info
    }
    fn schedule(&self) -> Schedule {
        self.u.schedule()
    }
}
