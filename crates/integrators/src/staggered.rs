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

use crate::common::{OutCursor, all_finite, check_dim, projection_due, validate_span};
use crate::error::{AtTime, Error};
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

/// Shared state of the partitioned integrators.
#[derive(Debug, Clone)]
struct Buffers {
    nx: usize,
    nv: usize,
    x: Vec<f64>,
    v: Vec<f64>,
    a: Vec<f64>,
    x_prev: Vec<f64>,
    v_prev: Vec<f64>,
    tmp_x: Vec<f64>,
    tmp_v: Vec<f64>,
    /// `[x, v]` for the observer.
    out: Vec<f64>,
    t: f64,
}

impl Buffers {
    fn new(nx: usize, nv: usize) -> Self {
        Self {
            nx,
            nv,
            x: vec![0.0; nx],
            v: vec![0.0; nv],
            a: vec![0.0; nv],
            x_prev: vec![0.0; nx],
            v_prev: vec![0.0; nv],
            tmp_x: vec![0.0; nx],
            tmp_v: vec![0.0; nv],
            out: vec![0.0; nx + nv],
            t: 0.0,
        }
    }

    fn check<S: PartitionedSystem + ?Sized>(
        &self,
        sys: &S,
        x0: &[f64],
        v0: &[f64],
    ) -> Result<(), Error> {
        check_dim("x0", x0.len(), self.nx)?;
        check_dim("v0", v0.len(), self.nv)?;
        check_dim("system positions", sys.dim_positions(), self.nx)?;
        check_dim("system velocities", sys.dim_velocities(), self.nv)
    }

    /// `[x, v]` into `out`.
    fn pack(&mut self) {
        self.out[..self.nx].copy_from_slice(&self.x);
        self.out[self.nx..].copy_from_slice(&self.v);
    }

    /// Linear interpolation between `(x_prev, v_prev)` and `(x, v)` at `θ`.
    fn pack_interp(&mut self, theta: f64) {
        let nx = self.nx;
        for i in 0..nx {
            self.out[i] = self.x_prev[i] + theta * (self.x[i] - self.x_prev[i]);
        }
        for i in 0..self.nv {
            self.out[nx + i] = self.v_prev[i] + theta * (self.v[i] - self.v_prev[i]);
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
    params: Params,
    b: Buffers,
    /// `v^{n−½}`.
    v_half: Vec<f64>,
    info: Info,
}

impl CentralDifference {
    /// An integrator for `nx` positions and `nv` velocities.
    pub fn new(nx: usize, nv: usize, params: Params) -> Self {
        Self {
            params,
            b: Buffers::new(nx, nv),
            v_half: vec![0.0; nv],
            info: Info::default(),
        }
    }
    /// Time of the last accepted state.
    pub fn t(&self) -> f64 {
        self.b.t
    }
    /// Last positions.
    pub fn x(&self) -> &[f64] {
        &self.b.x
    }
    /// Last (full-station) velocities.
    pub fn v(&self) -> &[f64] {
        &self.b.v
    }
    /// Statistics.
    pub fn info(&self) -> Info {
        self.info
    }

    /// Integrate from `(t0, x0, v0)` to `t_end`. The observer receives `[x, v]`.
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
        self.b.check(sys, x0, v0)?;
        validate_span(t0, t_end, t_out)?;
        self.info = Info::default();
        let b = &mut self.b;
        b.t = t0;
        b.x.copy_from_slice(x0);
        b.v.copy_from_slice(v0);
        b.pack();
        let mut cursor = OutCursor::default();
        while let Some(t) = cursor.next_at(t_out, t0) {
            obs.sample(t, &b.out);
        }
        if t_end == t0 {
            return Ok(self.info);
        }
        let (steps, h) = uniform_steps(t0, t_end, self.params.h, self.params.max_steps)?;
        let dir = h.signum();
        sys.accelerations(t0, &b.x, &b.v, &mut b.a).at(t0)?;
        self.info.rhs_evals += 1;
        // v^{−½} := v⁰ with a zero previous step makes the first update
        // v^{½} = v⁰ + h/2 a⁰.
        self.v_half.copy_from_slice(v0);
        let mut h_prev = 0.0;
        for step in 1..=steps {
            let t = b.t;
            let t_new = if step == steps {
                t_end
            } else {
                t0 + step as f64 * h
            };
            b.x_prev.copy_from_slice(&b.x);
            b.v_prev.copy_from_slice(&b.v);
            // On error the state is rolled back to the last accepted station.
            let r = (|| -> Result<(), Error> {
                // v^{n+½} = v^{n−½} + (h_prev + h)/2 aⁿ   (= h aⁿ for equal steps)
                let c = 0.5 * (h_prev + h);
                for i in 0..b.nv {
                    self.v_half[i] += c * b.a[i];
                }
                // x^{n+1} = xⁿ + h N v^{n+½}
                sys.advance_positions(&b.x, &self.v_half, h, &mut b.tmp_x)
                    .at(t)?;
                std::mem::swap(&mut b.x, &mut b.tmp_x);
                // a^{n+1} at the lagged velocity v^{n+½}; report v^{n+1} ≈ v^{n+½} + h/2 a^{n+1}.
                sys.accelerations(t_new, &b.x, &self.v_half, &mut b.a)
                    .at(t_new)?;
                self.info.rhs_evals += 1;
                for i in 0..b.nv {
                    b.v[i] = self.v_half[i] + 0.5 * h * b.a[i];
                }
                if !all_finite(&b.x) || !all_finite(&b.v) {
                    return Err(Error::NonFinite { t: t_new });
                }
                Ok(())
            })();
            if let Err(e) = r {
                b.x.copy_from_slice(&b.x_prev);
                b.v.copy_from_slice(&b.v_prev);
                return Err(e);
            }
            h_prev = h;
            b.t = t_new;
            self.info.accepted_steps += 1;
            while let Some(ts) = cursor.next_before(t_out, dir, t_new) {
                b.pack_interp((ts - t) / h);
                obs.sample(ts, &b.out);
            }
            if projection_due(self.params.project_every, self.info.accepted_steps) {
                self.info.projections += 1;
                if sys.project(t_new, &mut b.x, &mut b.v).at(t_new)? {
                    self.info.projections_applied += 1;
                    // Restart the half-station velocity from the projected state.
                    sys.accelerations(t_new, &b.x, &b.v, &mut b.a).at(t_new)?;
                    self.info.rhs_evals += 1;
                    self.v_half.copy_from_slice(&b.v);
                    h_prev = 0.0;
                }
            }
            b.pack();
            while let Some(ts) = cursor.next_at(t_out, t_new) {
                obs.sample(ts, &b.out);
            }
            if obs.step(t_new, &b.out).is_break() {
                self.info.stopped = true;
                break;
            }
        }
        Ok(self.info)
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
    params: Params,
    b: Buffers,
    /// Half-station positions, velocities, accelerations.
    xh: Vec<f64>,
    vh: Vec<f64>,
    ah: Vec<f64>,
    info: Info,
}

impl TwoStageStaggered {
    /// An integrator for `nx` positions and `nv` velocities.
    pub fn new(nx: usize, nv: usize, params: Params) -> Self {
        Self {
            params,
            b: Buffers::new(nx, nv),
            xh: vec![0.0; nx],
            vh: vec![0.0; nv],
            ah: vec![0.0; nv],
            info: Info::default(),
        }
    }
    /// Time of the last accepted (integer) station.
    pub fn t(&self) -> f64 {
        self.b.t
    }
    /// Last positions.
    pub fn x(&self) -> &[f64] {
        &self.b.x
    }
    /// Last velocities.
    pub fn v(&self) -> &[f64] {
        &self.b.v
    }
    /// Statistics.
    pub fn info(&self) -> Info {
        self.info
    }

    /// Heun half step from the integer station to the next half station:
    /// `x* = x + h/2 N v`, `v* = v + h/2 a`, `a* = a(t + h/2, x*, v*)`,
    /// `v^{½} = v + h/4 (a + a*)`, `x^{½} = x + h/2 N (v + v*)/2`.
    fn start_half_station<S: PartitionedSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        h: f64,
    ) -> Result<(), Error> {
        let b = &mut self.b;
        let t_half = b.t + 0.5 * h;
        sys.advance_positions(&b.x, &b.v, 0.5 * h, &mut b.tmp_x)
            .at(b.t)?;
        for i in 0..b.nv {
            b.tmp_v[i] = b.v[i] + 0.5 * h * b.a[i];
        }
        sys.accelerations(t_half, &b.tmp_x, &b.tmp_v, &mut self.ah)
            .at(t_half)?;
        self.info.rhs_evals += 1;
        for i in 0..b.nv {
            self.vh[i] = b.v[i] + 0.25 * h * (b.a[i] + self.ah[i]);
            b.tmp_v[i] = 0.5 * (b.v[i] + b.tmp_v[i]);
        }
        sys.advance_positions(&b.x, &b.tmp_v, 0.5 * h, &mut self.xh)
            .at(b.t)?;
        Ok(())
    }

    /// Integrate from `(t0, x0, v0)` to `t_end`. The observer receives `[x, v]`.
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
        self.b.check(sys, x0, v0)?;
        validate_span(t0, t_end, t_out)?;
        self.info = Info::default();
        self.b.t = t0;
        self.b.x.copy_from_slice(x0);
        self.b.v.copy_from_slice(v0);
        self.b.pack();
        let mut cursor = OutCursor::default();
        while let Some(t) = cursor.next_at(t_out, t0) {
            obs.sample(t, &self.b.out);
        }
        if t_end == t0 {
            return Ok(self.info);
        }
        let (steps, h) = uniform_steps(t0, t_end, self.params.h, self.params.max_steps)?;
        let dir = h.signum();
        // Initial implicit stage and a⁰ (steps [2]–[4] of sec 5.5.6).
        {
            let b = &mut self.b;
            sys.implicit_stage(t0, &b.x, &b.v, 0.5 * h).at(t0)?;
            sys.accelerations(t0, &b.x, &b.v, &mut b.a).at(t0)?;
            self.info.rhs_evals += 1;
        }
        let mut need_start = true;
        for step in 1..=steps {
            let t = self.b.t;
            let t_half = t + 0.5 * h;
            let t_new = if step == steps {
                t_end
            } else {
                t0 + step as f64 * h
            };
            self.b.x_prev.copy_from_slice(&self.b.x);
            self.b.v_prev.copy_from_slice(&self.b.v);
            // On error the state is rolled back to the last accepted station.
            let r = (|| -> Result<(), Error> {
                if need_start {
                    // First half station x^{½}, v^{½} by a Heun half step.
                    self.start_half_station(sys, h)?;
                    need_start = false;
                } else {
                    let b = &mut self.b;
                    // (1) v^{n+½} = v^{n−½} + h aⁿ
                    for i in 0..b.nv {
                        self.vh[i] += h * b.a[i];
                    }
                    // (2) x^{n+½} = x^{n−½} + h N vⁿ
                    sys.advance_positions(&self.xh, &b.v, h, &mut b.tmp_x)
                        .at(t)?;
                    std::mem::swap(&mut self.xh, &mut b.tmp_x);
                }
                let b = &mut self.b;
                // (3) implicit stage and accelerations at the half station.
                sys.implicit_stage(t_half, &self.xh, &b.v, 0.5 * h)
                    .at(t_half)?;
                sys.accelerations(t_half, &self.xh, &self.vh, &mut self.ah)
                    .at(t_half)?;
                self.info.rhs_evals += 1;
                // (4) v^{n+1} = vⁿ + h a^{n+½}
                for i in 0..b.nv {
                    b.v[i] += h * self.ah[i];
                }
                // (5) x^{n+1} = xⁿ + h N v^{n+½}
                sys.advance_positions(&b.x, &self.vh, h, &mut b.tmp_x)
                    .at(t)?;
                std::mem::swap(&mut b.x, &mut b.tmp_x);
                // (6) implicit stage and accelerations at the integer station.
                sys.implicit_stage(t_new, &b.x, &self.vh, 0.5 * h)
                    .at(t_new)?;
                sys.accelerations(t_new, &b.x, &b.v, &mut b.a).at(t_new)?;
                self.info.rhs_evals += 1;
                if !all_finite(&b.x) || !all_finite(&b.v) || !all_finite(&b.a) {
                    return Err(Error::NonFinite { t: t_new });
                }
                Ok(())
            })();
            if let Err(e) = r {
                self.b.x.copy_from_slice(&self.b.x_prev);
                self.b.v.copy_from_slice(&self.b.v_prev);
                return Err(e);
            }
            let b = &mut self.b;
            b.t = t_new;
            self.info.accepted_steps += 1;
            while let Some(ts) = cursor.next_before(t_out, dir, t_new) {
                b.pack_interp((ts - t) / h);
                obs.sample(ts, &b.out);
            }
            if projection_due(self.params.project_every, self.info.accepted_steps) {
                self.info.projections += 1;
                if sys.project(t_new, &mut b.x, &mut b.v).at(t_new)? {
                    self.info.projections_applied += 1;
                    // The half-station sequence is restarted from the
                    // projected integer station.
                    sys.implicit_stage(t_new, &b.x, &b.v, 0.5 * h).at(t_new)?;
                    sys.accelerations(t_new, &b.x, &b.v, &mut b.a).at(t_new)?;
                    self.info.rhs_evals += 1;
                    need_start = true;
                }
            }
            let b = &mut self.b;
            b.pack();
            while let Some(ts) = cursor.next_at(t_out, t_new) {
                obs.sample(ts, &b.out);
            }
            if obs.step(t_new, &b.out).is_break() {
                self.info.stopped = true;
                break;
            }
        }
        Ok(self.info)
    }
}
