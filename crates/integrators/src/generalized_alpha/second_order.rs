//! The second-order generalized-α method in the form of Arnold & Brüls (2007, sec 2)
//! with an acceleration-like variable `a`, for a [`PartitionedSystem`] `v̇ = g(t, x, v)`,
//! `ẋ = N(x) v`:
//!
//! ```text
//! v_eff    = v_n + h(½ − β) a_n + hβ a_{n+1}
//! x_{n+1}  = advance_positions(x_n, v_eff, h)        (x_n + h N v_eff)
//! v_{n+1}  = v_n + h(1 − γ) a_n + hγ a_{n+1}
//! (1 − α_m) a_{n+1} + α_m a_n = (1 − α_f) v̇_{n+1} + α_f v̇_n
//! v̇_{n+1}  = g(t_{n+1}, x_{n+1}, v_{n+1})
//! ```
//!
//! The unknown is `v̇_{n+1}`; with `c_a = (1 − α_f)/(1 − α_m)`, `γ' = γ c_a`,
//! `β' = β c_a`, Newton's iteration matrix is `S = I − hγ' ∂g/∂v − h²β' ∂g/∂x N`,
//! from forward differences of the accelerations at the start of a step (`2 n_v`
//! evaluations; the position columns perturb `x` through
//! [`PartitionedSystem::advance_positions`]) and kept across steps (see
//! [`control`](super::control) for the convergence and rejection policy).
//!
//! **Error estimate.** `a_n = v̇(t_n + Δα h) + O(h²)`, `Δα = α_m − α_f` (Arnold &
//! Brüls 2007, sec 3), and the local error of the principal root is `C h³ x⃛`,
//! `C = 1/12 + (3/8)Δα²` ([`SecondOrder::error_constant`]). As in the estimate of
//! Géradin & Cardona (2001, ch. 6, the one used for HHT by Negrut et al. 2007),
//! `h x⃛ ≈ v̇_{n+1} − v̇_n`; for the velocities `h v⃛ ≈ ∂g/∂x N Δv + ∂g/∂v Δv̇`
//! (the stored Jacobian). Both are filtered by `S⁻¹` as RADAU5 filters its estimate
//! (Hairer–Wanner II, sec IV.8, eq 8.20): unchanged on the resolved modes, bounded
//! by the mode's own amplitude on a stiff one (without the filter a damped stiff
//! spring mode of amplitude δ would be estimated at `(ωh)² δ`):
//!
//! ```text
//! e_x = N S⁻¹ C h² (v̇_{n+1} − v̇_n),   e_v = S⁻¹ C h² (∂g/∂x N (v_{n+1} − v_n) + ∂g/∂v (v̇_{n+1} − v̇_n))
//! ```
//!
//! **Step-size change.** A step of a new size `h'` starts from
//! `a_n ← v̇_n + (h'/h)(a_n − v̇_n)`, which moves the shift `Δα h` of `a` with the
//! step (`a_n − v̇_n = Δα h v̈ + O(h²)`). The run starts with `a_0 = v̇₀ + Δα h₀ S⁻¹ v̈₀`,
//! `v̈₀` a forward difference of the accelerations along the solution (one
//! evaluation; Arnold & Brüls' `a_0 = v̇₀` is `O(h)` off: an `O(h²)` velocity error in
//! the first step and a transient decaying by `−α_m/(1 − α_m)` per step). After a
//! projection `a` moves with `v̇`: `a ← a + v̇(projected) − v̇`.
//!
//! **Dense output.** Cubic Hermite on `x` with `ẋ = N v` (a central difference of
//! `advance_positions` over `±h/2`, exact for `ẋ = v`) and on `v` with `v̇`, on the step
//! as taken (before a projection).

use super::Params;
use super::coefficients::SecondOrder;
use super::control::{Control, Monitor, Verdict, Weights, weighted_max};
use crate::common::{EPS, all_finite, check_dim, hermite};
use crate::driver::drive_with_init;
use crate::error::{AtTime, Error};
use crate::lu;
use crate::stepper::{Schedule, Step, Stepper};
use crate::system::{Info, Observer, PartitionedSystem};

/// The second-order generalized-α integrator ([module documentation](self)) for a
/// [`PartitionedSystem`]. All work vectors are allocated by [`new`](Self::new).
#[derive(Debug, Clone)]
pub struct GeneralizedAlpha {
    params: Params,
    coef: SecondOrder,
    nx: usize,
    nv: usize,
    t: f64,
    /// The state at `t`: positions, velocities, accelerations `g(t, x, v)`, and `a`.
    x: Vec<f64>,
    v: Vec<f64>,
    vd: Vec<f64>,
    a: Vec<f64>,
    /// The step size `a`'s shift belongs to (`0`: none, `a = v̇`).
    h_a: f64,
    /// The attempt: `a_n` for its step, `a_{n+1}`, `v̇_{n+1}`, `x_{n+1}`, `v_{n+1}`,
    /// `v_eff`, the accelerations at the iterate and the Newton correction.
    a0: Vec<f64>,
    a1: Vec<f64>,
    vd1: Vec<f64>,
    x1: Vec<f64>,
    v1: Vec<f64>,
    veff: Vec<f64>,
    g: Vec<f64>,
    delta: Vec<f64>,
    /// Jacobian blocks `∂g/∂x N` and `∂g/∂v` (column-major `n_v × n_v`), the LU
    /// factors of `S` and the step they belong to.
    jx: Vec<f64>,
    jv: Vec<f64>,
    lu: Vec<f64>,
    piv: Vec<usize>,
    lu_h: Option<f64>,
    jac_valid: bool,
    /// The Jacobian was evaluated at the start of the current step.
    jac_fresh: bool,
    /// Scratch: positions and velocity-sized vectors.
    xp: Vec<f64>,
    xq: Vec<f64>,
    vp: Vec<f64>,
    /// The last step as taken, for dense output: start and end states, `ẋ` at both.
    x_prev: Vec<f64>,
    v_prev: Vec<f64>,
    vd_prev: Vec<f64>,
    x_end: Vec<f64>,
    v_end: Vec<f64>,
    vd_end: Vec<f64>,
    dx_prev: Vec<f64>,
    dx_end: Vec<f64>,
    t_prev: f64,
    h_last: f64,
    /// `[x, v]` and the dense output.
    out: Vec<f64>,
    dense: Vec<f64>,
    weights: Weights,
    ctl: Control,
    mon: Monitor,
    projected: bool,
    err_component: Option<usize>,
    info: Info,
}

impl GeneralizedAlpha {
    /// An integrator for `nx` positions and `nv` velocities.
    pub fn new(nx: usize, nv: usize, params: Params) -> Self {
        let (x, v, m) = (|| vec![0.0; nx], || vec![0.0; nv], || vec![0.0; nv * nv]);
        let coef = SecondOrder::new(params.rho_inf.clamp(0.0, 1.0))
            .unwrap_or(SecondOrder::new(super::DEFAULT_RHO_INF).expect("valid default"));
        Self {
            params,
            coef,
            nx,
            nv,
            t: 0.0,
            x: x(),
            v: v(),
            vd: v(),
            a: v(),
            h_a: 0.0,
            a0: v(),
            a1: v(),
            vd1: v(),
            x1: x(),
            v1: v(),
            veff: v(),
            g: v(),
            delta: v(),
            jx: m(),
            jv: m(),
            lu: m(),
            piv: vec![0; nv],
            lu_h: None,
            jac_valid: false,
            jac_fresh: false,
            xp: x(),
            xq: x(),
            vp: v(),
            x_prev: x(),
            v_prev: v(),
            vd_prev: v(),
            x_end: x(),
            v_end: v(),
            vd_end: v(),
            dx_prev: x(),
            dx_end: x(),
            t_prev: 0.0,
            h_last: 0.0,
            out: vec![0.0; nx + nv],
            dense: vec![0.0; nx + nv],
            weights: Weights::new(nx + nv),
            ctl: Control::default(),
            mon: Monitor::default(),
            projected: false,
            err_component: None,
            info: Info::default(),
        }
    }

    /// Time of the last accepted state.
    pub fn t(&self) -> f64 {
        self.t
    }
    /// Last positions.
    pub fn x(&self) -> &[f64] {
        &self.x
    }
    /// Last velocities.
    pub fn v(&self) -> &[f64] {
        &self.v
    }
    /// The acceleration-like variable `a` of the last accepted state.
    pub fn a(&self) -> &[f64] {
        &self.a
    }
    /// Statistics.
    pub fn info(&self) -> Info {
        self.info
    }
    /// The coefficients of the run.
    pub fn coefficients(&self) -> SecondOrder {
        self.coef
    }

    /// Integrate from `(t0, x0, v0)` to `t_end` by [`crate::drive`]. The observer
    /// receives `[x, v]`.
    #[allow(clippy::too_many_arguments)]
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
            st.set_state(sys, t0, x0, v0)
        })
    }

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
        self.params.validate(self.nx + self.nv)?;
        self.coef = SecondOrder::new(self.params.rho_inf)?;
        self.x.copy_from_slice(x0);
        self.v.copy_from_slice(v0);
        self.pack();
        (self.t, self.info, self.projected, self.err_component) =
            (t0, Info::default(), false, None);
        self.ctl = Control {
            fixed: self.params.fixed_step,
            ..Control::default()
        };
        Ok(())
    }

    fn pack(&mut self) {
        self.out[..self.nx].copy_from_slice(&self.x);
        self.out[self.nx..].copy_from_slice(&self.v);
    }

    /// `rtol` raised to `100 ε`.
    fn rtol(&self) -> f64 {
        self.params.rtol.max(100.0 * EPS)
    }

    /// The first step (`ode45.m` with the exponent of a second-order method):
    /// `0.8 rtol^{1/3} / ‖[ẋ, v̇] / max(|[x, v]|, atol/rtol)‖∞` over the velocities
    /// and, when positions and velocities have the same length, the positions.
    fn initial_step(&self) -> f64 {
        let rtol = self.rtol();
        let mut rh: f64 = 0.0;
        let wt = |i: usize, y: f64| y.abs().max(self.params.atol.get(i) / rtol);
        for i in 0..self.nv {
            rh = rh.max(self.vd[i].abs() / wt(self.nx + i, self.v[i]));
            if self.nx == self.nv {
                rh = rh.max(self.v[i].abs() / wt(i, self.x[i]));
            }
        }
        rh /= 0.8 * rtol.cbrt();
        let h = if rh * self.ctl.h_max > 1.0 {
            1.0 / rh
        } else {
            self.ctl.h_max
        };
        h.max(crate::common::h_min(self.t))
    }

    /// Forward-difference Jacobian blocks at the current state (`v̇ = g(t, x, v)`
    /// known): `∂g/∂x N` by perturbing `x` along `N e_j` (`advance_positions(x, δ e_j,
    /// 1)`), `∂g/∂v` by perturbing `v_j`.
    fn jacobian<S: PartitionedSystem + ?Sized>(&mut self, sys: &mut S) -> Result<(), Error> {
        let (nv, t) = (self.nv, self.t);
        self.info.jacobian_evals += 1;
        let xmax = self.x.iter().fold(1.0f64, |m, x| m.max(x.abs()));
        let dx = EPS.sqrt() * xmax;
        for j in 0..nv {
            self.vp.fill(0.0);
            self.vp[j] = dx;
            sys.advance_positions(&self.x, &self.vp, 1.0, &mut self.xp)
                .at(t)?;
            sys.accelerations(t, &self.xp, &self.v, &mut self.g).at(t)?;
            self.info.rhs_evals += 1;
            for i in 0..nv {
                self.jx[j * nv + i] = (self.g[i] - self.vd[i]) / dx;
            }
        }
        self.vp.copy_from_slice(&self.v);
        for j in 0..nv {
            let vj = self.v[j];
            self.vp[j] = vj + EPS.sqrt() * vj.abs().max(1.0);
            let d = self.vp[j] - vj;
            sys.accelerations(t, &self.x, &self.vp, &mut self.g).at(t)?;
            self.info.rhs_evals += 1;
            self.vp[j] = vj;
            for i in 0..nv {
                self.jv[j * nv + i] = (self.g[i] - self.vd[i]) / d;
            }
        }
        if !all_finite(&self.jx) || !all_finite(&self.jv) {
            return Err(Error::NonFinite { t });
        }
        (self.jac_valid, self.jac_fresh, self.lu_h) = (true, true, None);
        Ok(())
    }

    /// Factor `S = I − hγ' ∂g/∂v − h²β' ∂g/∂x N`; `false` if singular.
    fn factor(&mut self, h: f64) -> bool {
        let nv = self.nv;
        let ca = self.coef.a_per_acceleration();
        let (cv, cx) = (h * self.coef.gamma * ca, h * h * self.coef.beta * ca);
        for k in 0..nv * nv {
            self.lu[k] = -cv * self.jv[k] - cx * self.jx[k];
        }
        for i in 0..nv {
            self.lu[i * nv + i] += 1.0;
        }
        self.info.lu_decompositions += 1;
        let ok = lu::factor(&mut self.lu, nv, &mut self.piv);
        self.lu_h = ok.then_some(h);
        ok
    }

    /// Newton iterations of one attempt of step `h` ending at `t_new`: whether they
    /// converged (the iterate in `vd1`, `a1`, `x1`, `v1`).
    fn newton<S: PartitionedSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        h: f64,
        t_new: f64,
    ) -> Result<bool, Error> {
        let (nx, nv, c) = (self.nx, self.nv, self.coef);
        let ca = c.a_per_acceleration();
        let ratio = if self.h_a == 0.0 { 1.0 } else { h / self.h_a };
        for i in 0..nv {
            self.a0[i] = self.vd[i] + ratio * (self.a[i] - self.vd[i]);
            // predictor v̇_{n+1} = v̇_n
            self.vd1[i] = self.vd[i];
            self.a1[i] = (c.alpha_f * self.vd[i] - c.alpha_m * self.a0[i]) / (1.0 - c.alpha_m)
                + ca * self.vd1[i];
            self.veff[i] = self.v[i] + h * ((0.5 - c.beta) * self.a0[i] + c.beta * self.a1[i]);
            self.v1[i] = self.v[i] + h * ((1.0 - c.gamma) * self.a0[i] + c.gamma * self.a1[i]);
        }
        sys.advance_positions(&self.x, &self.veff, h, &mut self.x1)
            .at(self.t)?;
        self.mon.begin();
        loop {
            sys.accelerations(t_new, &self.x1, &self.v1, &mut self.g)
                .at(t_new)?;
            self.info.rhs_evals += 1;
            self.info.newton_iterations += 1;
            if !all_finite(&self.g) || !all_finite(&self.x1) {
                return Ok(false);
            }
            for i in 0..nv {
                self.delta[i] = self.g[i] - self.vd1[i];
            }
            lu::solve(&self.lu, nv, &self.piv, &mut self.delta);
            let (dv, dq) = (h * c.gamma * ca, h * c.beta * ca);
            for i in 0..nv {
                let d = self.delta[i];
                self.vd1[i] += d;
                self.a1[i] += ca * d;
                self.veff[i] += dq * d;
                self.v1[i] += dv * d;
                // the velocity correction, scaled into `delta`
                self.delta[i] = dv * d;
            }
            sys.advance_positions(&self.x, &self.veff, h, &mut self.xp)
                .at(self.t)?;
            let (mut e, mut n) = ((0.0, 0), (0.0, 0));
            for i in 0..nx {
                self.xq[i] = self.xp[i] - self.x1[i];
            }
            weighted_max(&self.xq, &self.weights.error, 0, &mut e);
            weighted_max(&self.delta, &self.weights.error, nx, &mut e);
            weighted_max(&self.xq, &self.weights.newton, 0, &mut n);
            weighted_max(&self.delta, &self.weights.newton, nx, &mut n);
            std::mem::swap(&mut self.x1, &mut self.xp);
            match self.mon.check(e.0, n.0) {
                Verdict::Converged => return Ok(true),
                Verdict::Failed => return Ok(false),
                Verdict::Continue => {}
            }
        }
    }

    /// The weighted local error estimate of the converged attempt (module docs),
    /// with weights `max(rtol max(|y_n|, |y_{n+1}|), atol)`.
    fn error_estimate<S: PartitionedSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        h: f64,
    ) -> Result<f64, Error> {
        let (nx, nv) = (self.nx, self.nv);
        let ch2 = self.coef.error_constant() * h * h;
        // e_q = S⁻¹ C h² Δv̇ (in velocity coordinates), e_x = N e_q
        for i in 0..nv {
            self.delta[i] = ch2 * (self.vd1[i] - self.vd[i]);
        }
        lu::solve(&self.lu, nv, &self.piv, &mut self.delta);
        sys.advance_positions(&self.x1, &self.delta, 1.0, &mut self.xp)
            .at(self.t)?;
        for i in 0..nx {
            self.xp[i] -= self.x1[i];
        }
        // e_v = S⁻¹ C h² (∂g/∂x N Δv + ∂g/∂v Δv̇)
        self.vp.fill(0.0);
        for j in 0..nv {
            let (dvj, dadj) = (self.v1[j] - self.v[j], self.vd1[j] - self.vd[j]);
            for i in 0..nv {
                self.vp[i] += self.jx[j * nv + i] * dvj + self.jv[j * nv + i] * dadj;
            }
        }
        for e in self.vp.iter_mut() {
            *e *= ch2;
        }
        lu::solve(&self.lu, nv, &self.piv, &mut self.vp);
        let rtol = self.rtol();
        let (mut err, mut worst) = (0.0f64, 0);
        let parts = [
            (&self.xp, &self.x, &self.x1, 0),
            (&self.vp, &self.v, &self.v1, nx),
        ];
        for (e, y0, y1, off) in parts {
            for i in 0..e.len() {
                let sc = (rtol * y0[i].abs().max(y1[i].abs()))
                    .max(self.params.atol.get(off + i))
                    .max(f64::MIN_POSITIVE);
                let r = (e[i] / sc).abs();
                if r > err || r.is_nan() {
                    (err, worst) = (if r.is_nan() { f64::INFINITY } else { r }, off + i);
                }
            }
        }
        self.err_component = Some(worst);
        Ok(err)
    }

    /// The starting `a` for the first step `h₀`: `a_0 = v̇₀ + Δα h₀ S⁻¹ v̈₀`, `v̈₀` the
    /// forward difference of the accelerations along the solution,
    /// `(g(t₀ + τ, x₀ + τ N v₀, v₀ + τ v̇₀) − v̇₀)/τ`, `τ = √ε h₀` (one evaluation),
    /// filtered by the Newton matrix of the first step (whose Jacobian is evaluated
    /// here). Arnold & Brüls' `a_0 = v̇₀` is `O(h)` off and costs an `O(h²)` velocity
    /// error in the first step; an unfiltered extrapolation would kick an excited
    /// stiff mode by `Δα h ω² v`.
    fn consistent_a<S: PartitionedSystem + ?Sized>(&mut self, sys: &mut S) -> Result<(), Error> {
        let (t, h0) = (self.t, self.ctl.dir * self.ctl.absh);
        self.a.copy_from_slice(&self.vd);
        self.h_a = 0.0;
        let shift = self.coef.shift();
        if shift == 0.0 {
            return Ok(());
        }
        let tau = (t + EPS.sqrt() * h0) - t;
        sys.advance_positions(&self.x, &self.v, tau, &mut self.xp)
            .at(t)?;
        for i in 0..self.nv {
            self.vp[i] = self.v[i] + tau * self.vd[i];
        }
        sys.accelerations(t + tau, &self.xp, &self.vp, &mut self.g)
            .at(t)?;
        self.info.rhs_evals += 1;
        if !all_finite(&self.g) {
            return Err(Error::NonFinite { t });
        }
        for i in 0..self.nv {
            self.delta[i] = shift * h0 * (self.g[i] - self.vd[i]) / tau;
        }
        // filtered by S⁻¹ (the Jacobian the first step uses anyway)
        self.jacobian(sys)?;
        if self.factor(h0) {
            lu::solve(&self.lu, self.nv, &self.piv, &mut self.delta);
        }
        for i in 0..self.nv {
            self.a[i] += self.delta[i];
        }
        self.h_a = h0;
        Ok(())
    }

    /// Accept the attempt of step `h` ending at `t_new`.
    fn accept(&mut self, h: f64, t_new: f64, err: f64) -> Step {
        std::mem::swap(&mut self.x_prev, &mut self.x);
        std::mem::swap(&mut self.v_prev, &mut self.v);
        std::mem::swap(&mut self.vd_prev, &mut self.vd);
        self.x.copy_from_slice(&self.x1);
        self.v.copy_from_slice(&self.v1);
        self.vd.copy_from_slice(&self.vd1);
        self.a.copy_from_slice(&self.a1);
        self.x_end.copy_from_slice(&self.x1);
        self.v_end.copy_from_slice(&self.v1);
        self.vd_end.copy_from_slice(&self.vd1);
        (self.h_a, self.t_prev, self.h_last, self.t) = (h, self.t, h, t_new);
        self.jac_fresh = false;
        self.info.accepted_steps += 1;
        let last = self.ctl.last;
        self.ctl.accept(err);
        Step::Accepted { last }
    }

    /// `ẋ = N v` at `(x, v)` into `dx`: the central difference of
    /// `advance_positions` over `±τ`.
    fn position_rate<S: PartitionedSystem + ?Sized>(
        sys: &mut S,
        (x, v, tau): (&[f64], &[f64], f64),
        xq: &mut [f64],
        dx: &mut [f64],
    ) -> Result<(), crate::SystemError> {
        sys.advance_positions(x, v, tau, dx)?;
        sys.advance_positions(x, v, -tau, xq)?;
        for i in 0..dx.len() {
            dx[i] = (dx[i] - xq[i]) / (2.0 * tau);
        }
        Ok(())
    }
}

impl<S: PartitionedSystem + ?Sized> Stepper<S> for GeneralizedAlpha {
    fn init(&mut self, sys: &S, t0: f64, y0: &[f64]) -> Result<(), Error> {
        check_dim("y0", y0.len(), self.nx + self.nv)?;
        let (x0, v0) = y0.split_at(self.nx);
        // the slices are borrowed from the caller, not from self
        self.set_state(sys, t0, x0, v0)
    }

    fn start(&mut self, sys: &mut S, t_end: f64) -> Result<(), Error> {
        let t = self.t;
        sys.accelerations(t, &self.x, &self.v, &mut self.vd).at(t)?;
        self.info.rhs_evals += 1;
        if !all_finite(&self.vd) || !all_finite(&self.x) || !all_finite(&self.v) {
            return Err(Error::NonFinite { t });
        }
        (self.jac_valid, self.jac_fresh, self.lu_h) = (false, false, None);
        let adaptive = self.params.fixed_step.is_none().then(|| self.rtol());
        let newton = (self.params.newton.rtol, self.params.newton.atol);
        self.mon = Monitor::new(adaptive, self.params.newton.max_iterations, newton);
        self.ctl.start(t, t_end, 0.0, self.params.h_max);
        if self.params.fixed_step.is_none() {
            self.ctl.absh = match self.params.h0 {
                Some(h) => h.min(self.ctl.h_max),
                None => self.initial_step(),
            };
        }
        self.consistent_a(sys)
    }

    fn step(&mut self, sys: &mut S, t_end: f64) -> Result<Step, Error> {
        let t = self.t;
        let (h, t_new) = self.ctl.begin(t, t_end);
        let rtol = self.rtol();
        let newton = (self.params.newton.rtol, self.params.newton.atol);
        self.weights
            .set(rtol, &self.params.atol, newton, [&self.x, &self.v]);
        if !self.jac_valid {
            self.jacobian(sys)?;
        }
        loop {
            let factored = self.lu_h == Some(h) || self.factor(h);
            if factored && self.newton(sys, h, t_new)? {
                break;
            }
            if !self.jac_fresh {
                // a Jacobian from an earlier step: refresh it and retry
                self.jacobian(sys)?;
                continue;
            }
            self.info.rejected_steps += 1;
            if self.ctl.fixed.is_some() {
                return Err(if factored {
                    Error::NewtonFailure {
                        t,
                        h,
                        iterations: self.mon.iterations,
                        correction: self.mon.last,
                    }
                } else {
                    Error::SingularMatrix { t, h }
                });
            }
            self.ctl.reject(t, None)?;
            return Ok(Step::Rejected);
        }
        if self.ctl.fixed.is_some() {
            return Ok(self.accept(h, t_new, 0.0));
        }
        let err = self.error_estimate(sys, h)?;
        if err <= 1.0 {
            Ok(self.accept(h, t_new, err))
        } else {
            self.info.rejected_steps += 1;
            self.ctl.reject(t, Some(err))?;
            Ok(Step::Rejected)
        }
    }

    fn project(&mut self, sys: &mut S) -> Result<bool, Error> {
        self.projected = sys.project(self.t, &mut self.x, &mut self.v).at(self.t)?;
        Ok(self.projected)
    }

    fn complete(&mut self, sys: &mut S) -> Result<(), Error> {
        if std::mem::take(&mut self.projected) {
            let t = self.t;
            // a moves with v̇
            self.g.copy_from_slice(&self.vd);
            sys.accelerations(t, &self.x, &self.v, &mut self.vd).at(t)?;
            self.info.rhs_evals += 1;
            if !all_finite(&self.vd) {
                return Err(Error::NonFinite { t });
            }
            for i in 0..self.nv {
                self.a[i] += self.vd[i] - self.g[i];
            }
        }
        self.pack();
        Ok(())
    }

    fn prepare_interpolation(&mut self, sys: &mut S) -> Result<(), Error> {
        let tau = 0.5 * self.h_last;
        let at = |e| Error::system(self.t, e);
        Self::position_rate(
            sys,
            (&self.x_prev, &self.v_prev, tau),
            &mut self.xq,
            &mut self.dx_prev,
        )
        .map_err(at)?;
        Self::position_rate(
            sys,
            (&self.x_end, &self.v_end, tau),
            &mut self.xq,
            &mut self.dx_end,
        )
        .map_err(at)
    }

    fn interpolate(&mut self, ts: f64) -> &[f64] {
        let (h, nx) = (self.h_last, self.nx);
        let theta = (ts - self.t_prev) / h;
        let (dx, dv) = self.dense.split_at_mut(nx);
        let xs = (
            (&self.x_prev[..], &self.dx_prev[..]),
            (&self.x_end[..], &self.dx_end[..]),
        );
        hermite(theta, h, xs.0, xs.1, dx);
        let vs = (
            (&self.v_prev[..], &self.vd_prev[..]),
            (&self.v_end[..], &self.vd_end[..]),
        );
        hermite(theta, h, vs.0, vs.1, dv);
        &self.dense
    }

    fn t(&self) -> f64 {
        self.t
    }
    fn y(&self) -> &[f64] {
        &self.out
    }
    fn info(&self) -> Info {
        self.info
    }
    fn info_mut(&mut self) -> &mut Info {
        &mut self.info
    }
    fn schedule(&self) -> Schedule {
        Schedule {
            project_every: self.params.project_every,
            max_steps: self.params.max_steps,
        }
    }
    fn error_component(&self) -> Option<usize> {
        self.err_component
    }
}
