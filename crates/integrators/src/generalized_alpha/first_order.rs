//! The first-order generalized-α method of Jansen, Whiting & Hulbert (2000, sec 2–3)
//! for any [`OdeSystem`] `y' = f(t, y)`, with the rate `ẏ` carried as a variable:
//!
//! ```text
//! y_{n+1}          = y_n + h ẏ_n + hγ (ẏ_{n+1} − ẏ_n)
//! ẏ_{n+α_m}        = f(t_n + α_f h, y_{n+α_f}),   u_{n+α} = u_n + α (u_{n+1} − u_n)
//! ```
//!
//! The unknown is `ẏ_{n+1}`; Newton's iteration matrix is `M = I − c h J`,
//! `c = α_f γ/α_m` ([`FirstOrder::newton_coefficient`]), `J = ∂f/∂y` from
//! [`OdeSystem::jacobian`] or forward differences (`n + 1` evaluations) at the start
//! of a step, kept across steps (see [`control`](super::control) for the convergence
//! and rejection policy). One evaluation per Newton iteration, none at the step's
//! end.
//!
//! **Error estimate.** The rate is `ẏ_n = ẏ(t_n + δh) + O(h²)`, `δ = α_f − α_m`, and
//! the local error of the principal root is `C h³ y⃛`, `C = 1/12 + δ²`
//! ([`FirstOrder::error_constant`]). With `h² y⃛ ≈ h J (ẏ_{n+1} − ẏ_n)` (the stored
//! Jacobian; for `y = [q, v]`, `f = [v, g]` the position part is the estimate
//! `C h² (v̇_{n+1} − v̇_n)` of the second-order form) and `M⁻¹` applied on both
//! sides of `hJ` as RADAU5 filters its estimate (Hairer–Wanner II, sec IV.8,
//! eq 8.20), so that a damped stiff mode is estimated at its own amplitude:
//!
//! ```text
//! e = C M⁻¹ (hJ) M⁻¹ h (ẏ_{n+1} − ẏ_n)
//! ```
//!
//! **Step-size change.** A step of a new size `h'` starts from
//! `ẏ_n ← ẏ_n + δ (h' − h)(ẏ_n − ẏ_{n−1})/h`, which moves the shift `δh` of the
//! rate with the step. The run starts from `ẏ_0 = f₀ + δ h₀ M⁻¹ ÿ₀` with `ÿ₀` a forward
//! difference of `f` along the solution (one evaluation; `ẏ_0 = f₀` would be `O(h)`
//! off, an `O(h²)` error in the first step and a transient of the spurious root
//! `1 − 1/α_m`, seen as a jump of the energy of a mechanism). After a
//! projection by `Δy` the rate moves with `f`: `ẏ ← ẏ + J Δy`.
//!
//! **Dense output.** Cubic Hermite on `y` with the derivatives `ẏ − δ(ẏ_{n+1} − ẏ_n)`
//! at both ends (`O(h²)`, like the rates), on the step as taken.

use nalgebra::DMatrix;

use super::Params;
use super::coefficients::FirstOrder;
use super::control::{Control, Monitor, Verdict, Weights, weighted_max};
use crate::common::{EPS, all_finite, check_dim, hermite, no_mass_matrix};
use crate::driver::drive;
use crate::error::{AtTime, Error};
use crate::lu;
use crate::stepper::{Schedule, Step, Stepper};
use crate::system::{Info, Observer, OdeSystem};

/// The first-order generalized-α integrator ([module documentation](self)) for an
/// [`OdeSystem`]. All work vectors are allocated by [`new`](Self::new).
#[derive(Debug, Clone)]
pub struct GeneralizedAlphaOde {
    params: Params,
    coef: FirstOrder,
    n: usize,
    t: f64,
    /// The state, its rate, the rate's change over the last step and that step.
    y: Vec<f64>,
    w: Vec<f64>,
    dw: Vec<f64>,
    h_w: f64,
    /// The attempt: `ẏ_n` for its step, `ẏ_{n+1}`, `y_{n+1}`, the evaluation point,
    /// `f` there and the Newton correction.
    w0: Vec<f64>,
    w1: Vec<f64>,
    y1: Vec<f64>,
    ya: Vec<f64>,
    f: Vec<f64>,
    delta: Vec<f64>,
    /// `J`, the LU factors of `M` and the step they belong to.
    jac: DMatrix<f64>,
    lu: Vec<f64>,
    piv: Vec<usize>,
    lu_h: Option<f64>,
    jac_valid: bool,
    jac_fresh: bool,
    /// Scratch.
    yp: Vec<f64>,
    fy: Vec<f64>,
    /// The last step as taken, for dense output.
    y_prev: Vec<f64>,
    y_end: Vec<f64>,
    d_prev: Vec<f64>,
    d_end: Vec<f64>,
    t_prev: f64,
    h_last: f64,
    dense: Vec<f64>,
    weights: Weights,
    ctl: Control,
    mon: Monitor,
    projected: bool,
    err_component: Option<usize>,
    info: Info,
}

impl GeneralizedAlphaOde {
    /// An integrator for systems of dimension `n`.
    pub fn new(n: usize, params: Params) -> Self {
        let v = || vec![0.0; n];
        let coef = FirstOrder::new(params.rho_inf.clamp(0.0, 1.0))
            .unwrap_or(FirstOrder::new(super::DEFAULT_RHO_INF).expect("valid default"));
        Self {
            params,
            coef,
            n,
            t: 0.0,
            y: v(),
            w: v(),
            dw: v(),
            h_w: 0.0,
            w0: v(),
            w1: v(),
            y1: v(),
            ya: v(),
            f: v(),
            delta: v(),
            jac: DMatrix::zeros(n, n),
            lu: vec![0.0; n * n],
            piv: vec![0; n],
            lu_h: None,
            jac_valid: false,
            jac_fresh: false,
            yp: v(),
            fy: v(),
            y_prev: v(),
            y_end: v(),
            d_prev: v(),
            d_end: v(),
            t_prev: 0.0,
            h_last: 0.0,
            dense: v(),
            weights: Weights::new(n),
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
    /// Last accepted state.
    pub fn y(&self) -> &[f64] {
        &self.y
    }
    /// The rate `ẏ` of the last accepted state.
    pub fn rate(&self) -> &[f64] {
        &self.w
    }
    /// Statistics.
    pub fn info(&self) -> Info {
        self.info
    }
    /// The coefficients of the run.
    pub fn coefficients(&self) -> FirstOrder {
        self.coef
    }

    /// Integrate from `(t0, y0)` to `t_end` by [`crate::drive`].
    pub fn integrate<S: OdeSystem + ?Sized, O: Observer + ?Sized>(
        &mut self,
        sys: &mut S,
        t0: f64,
        y0: &[f64],
        t_end: f64,
        t_out: &[f64],
        obs: &mut O,
    ) -> Result<Info, Error> {
        drive(self, sys, t0, y0, t_end, t_out, obs)
    }

    fn rtol(&self) -> f64 {
        self.params.rtol.max(100.0 * EPS)
    }

    /// The first step as `ode45.m` chooses it, with the exponent of a second-order
    /// method: `0.8 rtol^{1/3} / ‖f₀ / max(|y₀|, atol/rtol)‖∞`.
    fn initial_step(&self) -> f64 {
        let rtol = self.rtol();
        let mut rh: f64 = 0.0;
        for i in 0..self.n {
            let wt = self.y[i].abs().max(self.params.atol.get(i) / rtol);
            rh = rh.max(self.w[i].abs() / wt);
        }
        rh /= 0.8 * rtol.cbrt();
        let h = if rh * self.ctl.h_max > 1.0 {
            1.0 / rh
        } else {
            self.ctl.h_max
        };
        h.max(crate::common::h_min(self.t))
    }

    /// `J` at the current state: analytic, or forward differences
    /// (`δ_j = δ max(|y_j|, 1)` with δ = [`OdeSystem::difference_step`], √ε by
    /// default; `n + 1` evaluations).
    fn jacobian<S: OdeSystem + ?Sized>(&mut self, sys: &mut S) -> Result<(), Error> {
        let (n, t) = (self.n, self.t);
        self.info.jacobian_evals += 1;
        if !sys.jacobian(t, &self.y, &mut self.jac).at(t)? {
            sys.rhs(t, &self.y, &mut self.fy).at(t)?;
            self.info.rhs_evals += 1;
            self.yp.copy_from_slice(&self.y);
            let delta = sys.difference_step().unwrap_or(EPS.sqrt());
            for j in 0..n {
                let yj = self.y[j];
                self.yp[j] = yj + delta * yj.abs().max(1.0);
                let d = self.yp[j] - yj;
                sys.rhs(t, &self.yp, &mut self.f).at(t)?;
                self.info.rhs_evals += 1;
                self.yp[j] = yj;
                for i in 0..n {
                    self.jac[(i, j)] = (self.f[i] - self.fy[i]) / d;
                }
            }
        }
        if !self.jac.iter().all(|v| v.is_finite()) {
            return Err(Error::NonFinite { t });
        }
        (self.jac_valid, self.jac_fresh, self.lu_h) = (true, true, None);
        Ok(())
    }

    /// Factor `M = I − c h J`; `false` if singular.
    fn factor(&mut self, h: f64) -> bool {
        let n = self.n;
        let ch = self.coef.newton_coefficient() * h;
        for j in 0..n {
            for i in 0..n {
                self.lu[j * n + i] = -ch * self.jac[(i, j)] + if i == j { 1.0 } else { 0.0 };
            }
        }
        self.info.lu_decompositions += 1;
        let ok = lu::factor(&mut self.lu, n, &mut self.piv);
        self.lu_h = ok.then_some(h);
        ok
    }

    /// Newton iterations of one attempt of step `h`: whether they converged (`ẏ_{n+1}`
    /// in `w1`, `y_{n+1}` in `y1`).
    fn newton<S: OdeSystem + ?Sized>(&mut self, sys: &mut S, h: f64) -> Result<bool, Error> {
        let (n, c) = (self.n, self.coef);
        let shift = if self.h_w == 0.0 {
            0.0
        } else {
            c.shift() * (h - self.h_w) / self.h_w
        };
        for i in 0..n {
            self.w0[i] = self.w[i] + shift * self.dw[i];
            self.w1[i] = self.w0[i];
        }
        let ta = self.t + c.alpha_f * h;
        self.mon.begin();
        loop {
            for i in 0..n {
                let dy = h * ((1.0 - c.gamma) * self.w0[i] + c.gamma * self.w1[i]);
                self.ya[i] = self.y[i] + c.alpha_f * dy;
            }
            sys.rhs(ta, &self.ya, &mut self.f).at(ta)?;
            self.info.rhs_evals += 1;
            self.info.newton_iterations += 1;
            if !all_finite(&self.f) {
                return Ok(false);
            }
            // Δ = −M⁻¹ R / α_m, R = (1 − α_m) ẏ_n + α_m ẏ_{n+1} − f
            for i in 0..n {
                self.delta[i] =
                    (self.f[i] - (1.0 - c.alpha_m) * self.w0[i] - c.alpha_m * self.w1[i])
                        / c.alpha_m;
            }
            lu::solve(&self.lu, n, &self.piv, &mut self.delta);
            for i in 0..n {
                self.w1[i] += self.delta[i];
                self.delta[i] *= h * c.gamma;
            }
            let (mut e, mut m) = ((0.0, 0), (0.0, 0));
            weighted_max(&self.delta, &self.weights.error, 0, &mut e);
            weighted_max(&self.delta, &self.weights.newton, 0, &mut m);
            match self.mon.check(e.0, m.0) {
                Verdict::Converged => break,
                Verdict::Failed => return Ok(false),
                Verdict::Continue => {}
            }
        }
        for i in 0..n {
            self.y1[i] = self.y[i] + h * ((1.0 - c.gamma) * self.w0[i] + c.gamma * self.w1[i]);
        }
        Ok(all_finite(&self.y1))
    }

    /// The weighted local error estimate (module docs), with weights
    /// `max(rtol max(|y_n|, |y_{n+1}|), atol)`.
    fn error_estimate(&mut self, h: f64) -> f64 {
        let n = self.n;
        for i in 0..n {
            self.delta[i] = h * (self.w1[i] - self.w0[i]);
        }
        lu::solve(&self.lu, n, &self.piv, &mut self.delta);
        let ch = self.coef.error_constant() * h;
        for i in 0..n {
            let mut s = 0.0;
            for j in 0..n {
                s += self.jac[(i, j)] * self.delta[j];
            }
            self.fy[i] = ch * s;
        }
        lu::solve(&self.lu, n, &self.piv, &mut self.fy);
        let rtol = self.rtol();
        let (mut err, mut worst) = (0.0f64, 0);
        for i in 0..n {
            let sc = (rtol * self.y[i].abs().max(self.y1[i].abs()))
                .max(self.params.atol.get(i))
                .max(f64::MIN_POSITIVE);
            let r = (self.fy[i] / sc).abs();
            if r > err || r.is_nan() {
                (err, worst) = (if r.is_nan() { f64::INFINITY } else { r }, i);
            }
        }
        self.err_component = Some(worst);
        err
    }

    /// The starting rate for the first step `h₀`: `ẏ_0 = f₀ + δ h₀ M⁻¹ ÿ₀`, `ÿ₀` the
    /// forward difference of `f` along the solution, `(f(t₀ + τ, y₀ + τ f₀) − f₀)/τ`,
    /// `τ = √ε h₀` (one evaluation), filtered by the Newton matrix of the first step
    /// (whose Jacobian is evaluated here): `ẏ_0 = f₀` alone is `O(h)` off the rate's
    /// `ẏ(t₀ + δh)` and costs an `O(h²)` error in the first step, while an unfiltered
    /// extrapolation would kick an excited stiff mode by `δ h λ²`.
    fn consistent_rate<S: OdeSystem + ?Sized>(&mut self, sys: &mut S) -> Result<(), Error> {
        let (t, h0) = (self.t, self.ctl.dir * self.ctl.absh);
        self.dw.fill(0.0);
        self.h_w = 0.0;
        let delta = self.coef.shift();
        if delta == 0.0 {
            return Ok(());
        }
        let tau = (t + EPS.sqrt() * h0) - t;
        for i in 0..self.n {
            self.yp[i] = self.y[i] + tau * self.w[i];
        }
        sys.rhs(t + tau, &self.yp, &mut self.f).at(t)?;
        self.info.rhs_evals += 1;
        if !all_finite(&self.f) {
            return Err(Error::NonFinite { t });
        }
        for i in 0..self.n {
            self.dw[i] = h0 * (self.f[i] - self.w[i]) / tau;
        }
        // filtered by M⁻¹ (the Jacobian the first step uses anyway)
        self.jacobian(sys)?;
        if self.factor(h0) {
            lu::solve(&self.lu, self.n, &self.piv, &mut self.dw);
        }
        for i in 0..self.n {
            self.w[i] += delta * self.dw[i];
        }
        self.h_w = h0;
        Ok(())
    }

    /// Accept the attempt of step `h` ending at `t_new`.
    fn accept(&mut self, h: f64, t_new: f64, err: f64) -> Step {
        let delta = self.coef.shift();
        std::mem::swap(&mut self.y_prev, &mut self.y);
        self.y.copy_from_slice(&self.y1);
        self.y_end.copy_from_slice(&self.y1);
        for i in 0..self.n {
            let d = self.w1[i] - self.w0[i];
            self.d_prev[i] = self.w0[i] - delta * d;
            self.d_end[i] = self.w1[i] - delta * d;
            self.dw[i] = d;
        }
        self.w.copy_from_slice(&self.w1);
        (self.h_w, self.t_prev, self.h_last, self.t) = (h, self.t, h, t_new);
        self.jac_fresh = false;
        self.info.accepted_steps += 1;
        let last = self.ctl.last;
        self.ctl.accept(err);
        Step::Accepted { last }
    }
}

impl<S: OdeSystem + ?Sized> Stepper<S> for GeneralizedAlphaOde {
    fn init(&mut self, sys: &S, t0: f64, y0: &[f64]) -> Result<(), Error> {
        check_dim("y0", y0.len(), self.n)?;
        check_dim("system dimension", sys.dim(), self.n)?;
        no_mass_matrix("generalized-alpha", sys)?;
        self.params.validate(self.n)?;
        self.coef = FirstOrder::new(self.params.rho_inf)?;
        self.y.copy_from_slice(y0);
        (self.t, self.info, self.projected, self.err_component) =
            (t0, Info::default(), false, None);
        self.ctl = Control {
            fixed: self.params.fixed_step,
            ..Control::default()
        };
        Ok(())
    }

    fn start(&mut self, sys: &mut S, t_end: f64) -> Result<(), Error> {
        let t = self.t;
        sys.rhs(t, &self.y, &mut self.w).at(t)?;
        self.info.rhs_evals += 1;
        if !all_finite(&self.w) || !all_finite(&self.y) {
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
        self.consistent_rate(sys)
    }

    fn step(&mut self, sys: &mut S, t_end: f64) -> Result<Step, Error> {
        let t = self.t;
        let (h, t_new) = self.ctl.begin(t, t_end);
        let newton = (self.params.newton.rtol, self.params.newton.atol);
        let rtol = self.rtol();
        self.weights
            .set(rtol, &self.params.atol, newton, [&self.y, &[]]);
        if !self.jac_valid {
            self.jacobian(sys)?;
        }
        loop {
            let factored = self.lu_h == Some(h) || self.factor(h);
            if factored && self.newton(sys, h)? {
                break;
            }
            if !self.jac_fresh {
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
        let err = self.error_estimate(h);
        if err <= 1.0 {
            Ok(self.accept(h, t_new, err))
        } else {
            self.info.rejected_steps += 1;
            self.ctl.reject(t, Some(err))?;
            Ok(Step::Rejected)
        }
    }

    fn project(&mut self, sys: &mut S) -> Result<bool, Error> {
        self.yp.copy_from_slice(&self.y);
        self.projected = sys.project(self.t, &mut self.y).at(self.t)?;
        Ok(self.projected)
    }

    fn complete(&mut self, _sys: &mut S) -> Result<(), Error> {
        if std::mem::take(&mut self.projected) && self.jac_valid {
            // ẏ ← ẏ + J Δy
            let n = self.n;
            for i in 0..n {
                let mut s = 0.0;
                for j in 0..n {
                    s += self.jac[(i, j)] * (self.y[j] - self.yp[j]);
                }
                self.w[i] += s;
            }
        }
        Ok(())
    }

    fn interpolate(&mut self, ts: f64) -> &[f64] {
        let theta = (ts - self.t_prev) / self.h_last;
        let start = (&self.y_prev[..], &self.d_prev[..]);
        let end = (&self.y_end[..], &self.d_end[..]);
        hermite(theta, self.h_last, start, end, &mut self.dense);
        &self.dense
    }

    fn t(&self) -> f64 {
        self.t
    }
    fn y(&self) -> &[f64] {
        &self.y
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
