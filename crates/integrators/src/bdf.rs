//! Variable-order BDF/NDF, orders 1–5, in the quasi-constant step-size form of
//! Shampine & Reichelt, *The MATLAB ODE Suite*, SIAM J. Sci. Comput. 18 (1997)
//! 1–22, sec 2.1–2.3 (MATLAB `ode15s`), as implemented by SciPy's
//! `scipy.integrate.BDF`.
//!
//! The history is the array of backward differences `D` (`D₀ = y_n`,
//! `D_j = ∇ʲ y_n` on the current equidistant grid). A step of order `k`:
//!
//! * predicts `y⁽⁰⁾ = Σ_{j≤k} D_j` and solves
//!   `(1 − κ_k) γ_k (y − y⁽⁰⁾) = h f(t_{n+1}, y) − Σ_{j=1..k} γ_j D_j`
//!   (`γ_j = Σ_{i≤j} 1/i`; Shampine–Reichelt eq 2) with simplified Newton on
//!   `d = y − y⁽⁰⁾`, iteration matrix `I − h/α_k J`, `α_k = (1 − κ_k) γ_k`, at most
//!   four iterations, stopping when the predicted remaining correction
//!   `ρ/(1−ρ) ‖Δ‖` is below `max(10 ε/rtol, min(0.03, √rtol))` and giving up when
//!   the rate `ρ ≥ 1` or the predicted final correction is too large;
//! * estimates the local error as `(κ_k γ_k + 1/(k+1)) d` (the next difference),
//!   in the root-mean-square norm with `sc = atol + rtol |y|`;
//! * on a step change by `ρ` rescales the differences to the new grid,
//!   `D ← (R U)ᵀ D` (Shampine–Reichelt sec 2.3; `R` from `ρ`, `U` from 1), and
//!   invalidates the LU factors;
//! * after `k + 1` steps at constant size, compares the error estimates of orders
//!   `k − 1`, `k`, `k + 1` (from `D_k`, `d` and the difference of `d`) and changes
//!   the order and step by the largest admissible factor (at most 10×).
//!
//! Jacobian reuse (SciPy): the Jacobian is kept across steps and refactored only
//! when the step changes; when Newton fails with an old Jacobian, a new one is
//! evaluated at the prediction; when it fails with a fresh one, the step halves.
//! After an error-test failure the factors are kept (the step shrinks by
//! `max(0.2, 0.9 · safety · err^{−1/(k+1)})`).
//!
//! **NDF or BDF.** The default are the numerical differentiation formulas of
//! `ode15s` and SciPy (`κ = (0, −0.185, −1/9, −0.0823, −0.0415)`, more stable and
//! more accurate at orders 1–4); [`Params::ndf`] `= false` gives the classical
//! BDFs (`κ = 0`).
//!
//! **Dense output** is the interpolating polynomial of the difference array:
//! `y(t_n + s) = D₀ + Σ_{j=1..k} D_j Π_{m<j} (s + m h)/((m+1) h)`.
//!
//! **Projection.** A projection replaces `D₀` by the projected state and keeps the
//! higher differences: the predictor of the next step moves with the state, and
//! the dense output interpolates the updated history (as Adams does).

use crate::common::{
    EPS, all_finite, check_dim, direction, h_min, initial_step, no_mass_matrix, positive, rms,
};
use crate::driver::drive;
use crate::error::{AtTime, Error};
use crate::newton_matrix::{LinearSolver, Matrices};
use crate::stepper::{Schedule, Step, Stepper};
use crate::system::{AbsTol, Info, Observer, OdeSystem};

/// Highest order.
pub const BDF_MAX_ORDER: usize = 5;
/// Rows of the difference array: orders up to 5, the new difference and the one
/// after.
const ROWS: usize = BDF_MAX_ORDER + 3;
/// Bounds of the step change after an error-test failure and after a step.
const MIN_FACTOR: f64 = 0.2;
const MAX_FACTOR: f64 = 10.0;
/// The NDF coefficients `κ_k` of `ode15s` (Shampine–Reichelt Table 1).
const KAPPA_NDF: [f64; BDF_MAX_ORDER + 1] = [0.0, -0.1850, -1.0 / 9.0, -0.0823, -0.0415, 0.0];

/// Parameters of [`Bdf`]. Defaults are SciPy's.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Relative tolerance (default `1e-6`).
    pub rtol: f64,
    /// Absolute tolerance (default `1e-6`).
    pub atol: AbsTol,
    /// Initial step; `None`: estimated (one extra right-hand side).
    pub h0: Option<f64>,
    /// Largest step; `None`: the span.
    pub h_max: Option<f64>,
    /// Maximum number of attempted steps.
    pub max_steps: usize,
    /// Call the projection hook every `project_every` accepted steps (`0`: never).
    pub project_every: usize,
    /// Numerical differentiation formulas (`true`, default) or classical BDF.
    pub ndf: bool,
    /// Newton iterations per attempt (default 4).
    pub max_newton: usize,
    /// Dense or sparse factorization.
    pub linear_solver: LinearSolver,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            rtol: 1e-6,
            atol: AbsTol::Scalar(1e-6),
            h0: None,
            h_max: None,
            max_steps: 100_000,
            project_every: 1,
            ndf: true,
            max_newton: 4,
            linear_solver: LinearSolver::Auto,
        }
    }
}

impl Params {
    /// Defaults with `rtol` and a scalar `atol`.
    pub fn with_tol(rtol: f64, atol: f64) -> Self {
        Self {
            rtol,
            atol: AbsTol::Scalar(atol),
            ..Self::default()
        }
    }
}

/// Step and order control between attempts.
#[derive(Debug, Clone, Copy, Default)]
struct Control {
    dir: f64,
    h_abs: f64,
    h_max: f64,
    order: usize,
    n_equal_steps: usize,
    /// Order change and step factor decided after the last step, applied at the
    /// start of the next (so that the dense output sees the step as taken).
    pending: Option<(isize, f64)>,
    /// The LU factors are valid for `c` below.
    lu_valid: bool,
    /// The Jacobian was evaluated in the current step.
    jac_current: bool,
    newton_tol: f64,
    rtol: f64,
    /// Step of the last accepted step (dense output).
    h_last: f64,
    order_last: usize,
    /// The last rejection was a Newton failure (iterations, last correction).
    newton_failure: Option<(usize, f64)>,
}

/// Variable-order BDF/NDF (module documentation).
///
/// All work space is allocated by [`new`](Self::new) (and, when a system declares
/// another Jacobian pattern than the last one, at [`Stepper::init`]); a step
/// allocates nothing (with the dense factorization).
#[derive(Debug)]
pub struct Bdf {
    params: Params,
    n: usize,
    mats: Matrices,
    gamma: [f64; BDF_MAX_ORDER + 1],
    alpha: [f64; BDF_MAX_ORDER + 1],
    error_const: [f64; BDF_MAX_ORDER + 2],
    d: Vec<Vec<f64>>,
    d_tmp: Vec<Vec<f64>>,
    t: f64,
    y: Vec<f64>,
    y_predict: Vec<f64>,
    y_new: Vec<f64>,
    psi: Vec<f64>,
    corr: Vec<f64>,
    dy: Vec<f64>,
    f: Vec<f64>,
    scale: Vec<f64>,
    y_out: Vec<f64>,
    info: Info,
    err_component: Option<usize>,
    ctl: Control,
}

impl Bdf {
    /// An integrator for systems of dimension `n`.
    pub fn new(n: usize, params: Params) -> Self {
        let v = || vec![0.0; n];
        let mats = Matrices::new(n, params.linear_solver, false)
            .expect("dense matrices without a pattern cannot fail");
        let mut gamma = [0.0; BDF_MAX_ORDER + 1];
        for k in 1..=BDF_MAX_ORDER {
            gamma[k] = gamma[k - 1] + 1.0 / k as f64;
        }
        let kappa = if params.ndf {
            KAPPA_NDF
        } else {
            [0.0; BDF_MAX_ORDER + 1]
        };
        let mut alpha = [0.0; BDF_MAX_ORDER + 1];
        let mut error_const = [0.0; BDF_MAX_ORDER + 2];
        for k in 0..=BDF_MAX_ORDER {
            alpha[k] = (1.0 - kappa[k]) * gamma[k];
            error_const[k] = kappa[k] * gamma[k] + 1.0 / (k + 1) as f64;
        }
        error_const[BDF_MAX_ORDER + 1] = 1.0 / (BDF_MAX_ORDER + 2) as f64;
        Self {
            params,
            n,
            mats,
            gamma,
            alpha,
            error_const,
            d: vec![v(); ROWS],
            d_tmp: vec![v(); BDF_MAX_ORDER + 1],
            t: 0.0,
            y: v(),
            y_predict: v(),
            y_new: v(),
            psi: v(),
            corr: v(),
            dy: v(),
            f: v(),
            scale: v(),
            y_out: v(),
            info: Info::default(),
            err_component: None,
            ctl: Control::default(),
        }
    }

    /// Parameters (may be changed between integrations; `ndf` is read by `new`).
    pub fn params_mut(&mut self) -> &mut Params {
        &mut self.params
    }
    /// Time of the last accepted state.
    pub fn t(&self) -> f64 {
        self.t
    }
    /// Last accepted state (also after an error).
    pub fn y(&self) -> &[f64] {
        &self.y
    }
    /// Statistics of the last (or current) integration.
    pub fn info(&self) -> Info {
        self.info
    }
    /// Order of the last accepted step.
    pub fn last_order(&self) -> usize {
        self.ctl.order_last
    }
    /// Whether the Newton matrices are factored sparse (after `init`).
    pub fn is_sparse(&self) -> bool {
        self.mats.jac.is_sparse()
    }

    /// Integrate `y' = f(t, y)` from `(t0, y0)` to `t_end` with [`crate::drive`].
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

    /// Rescale the differences `D₀ … D_k` to a step `factor` times the current
    /// one: `D ← (R(factor) U)ᵀ D` (Shampine–Reichelt sec 2.3, SciPy `change_D`).
    fn change_d(&mut self, factor: f64) {
        let k = self.ctl.order;
        let r = compute_r(k, factor);
        let u = compute_r(k, 1.0);
        let mut ru = [[0.0; BDF_MAX_ORDER + 1]; BDF_MAX_ORDER + 1];
        for i in 0..=k {
            for j in 0..=k {
                ru[i][j] = (0..=k).map(|m| r[i][m] * u[m][j]).sum();
            }
        }
        for j in 0..=k {
            let out = &mut self.d_tmp[j];
            out.fill(0.0);
            for (m, row) in ru.iter().enumerate().take(k + 1) {
                let c = row[j];
                if c != 0.0 {
                    for (o, dm) in out.iter_mut().zip(&self.d[m]) {
                        *o += c * dm;
                    }
                }
            }
        }
        for j in 0..=k {
            std::mem::swap(&mut self.d[j], &mut self.d_tmp[j]);
        }
        self.ctl.n_equal_steps = 0;
        self.ctl.lu_valid = false;
    }

    /// The error for a step that can no longer shrink.
    fn collapse(&self) -> Error {
        let (t, h) = (self.t, self.ctl.h_abs);
        match self.ctl.newton_failure {
            Some((iterations, correction)) => Error::NewtonFailure {
                t,
                h,
                iterations,
                correction,
            },
            None => Error::StepSizeUnderflow {
                t,
                h,
                h_min: h_min(t),
            },
        }
    }

    /// Simplified Newton on `d` (SciPy `solve_bdf_system`): whether it converged,
    /// the iterations, the last scaled correction.
    fn newton<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        t_new: f64,
        c: f64,
    ) -> Result<(bool, usize, f64), Error> {
        let maxit = self.params.max_newton;
        let tol = self.ctl.newton_tol;
        self.corr.fill(0.0);
        self.y_new.copy_from_slice(&self.y_predict);
        let mut dy_norm_old: Option<f64> = None;
        let mut last = f64::NAN;
        for k in 0..maxit {
            sys.rhs(t_new, &self.y_new, &mut self.f).at(t_new)?;
            self.info.rhs_evals += 1;
            if !all_finite(&self.f) {
                return Ok((false, k + 1, f64::INFINITY));
            }
            for i in 0..self.n {
                self.dy[i] = c * self.f[i] - self.psi[i] - self.corr[i];
            }
            self.mats.real.solve(&mut self.dy);
            self.info.newton_iterations += 1;
            let dy_norm = rms(&self.dy, &self.scale);
            last = dy_norm;
            if !dy_norm.is_finite() {
                return Ok((false, k + 1, dy_norm));
            }
            let rate = dy_norm_old.map(|o| dy_norm / o);
            if let Some(rate) = rate
                && (rate >= 1.0 || rate.powi((maxit - k) as i32) / (1.0 - rate) * dy_norm > tol)
            {
                return Ok((false, k + 1, dy_norm));
            }
            for i in 0..self.n {
                self.y_new[i] += self.dy[i];
                self.corr[i] += self.dy[i];
            }
            if dy_norm == 0.0 || rate.is_some_and(|r| r / (1.0 - r) * dy_norm < tol) {
                return Ok((true, k + 1, dy_norm));
            }
            dy_norm_old = Some(dy_norm);
        }
        Ok((false, maxit, last))
    }

    /// Update the differences after an accepted step and decide the next order
    /// and step (SciPy `_step_impl` after "step_accepted").
    fn accept(&mut self, error_norm: f64, safety: f64) {
        let k = self.ctl.order;
        let n = self.n;
        {
            let (lo, hi) = self.d.split_at_mut(k + 2);
            for i in 0..n {
                hi[0][i] = self.corr[i] - lo[k + 1][i];
                lo[k + 1][i] = self.corr[i];
            }
        }
        for j in (0..=k).rev() {
            let (lo, hi) = self.d.split_at_mut(j + 1);
            for (a, b) in lo[j].iter_mut().zip(&hi[0]) {
                *a += b;
            }
        }
        self.ctl.n_equal_steps += 1;
        if self.ctl.n_equal_steps < k + 1 {
            return;
        }
        let norm_of = |c: f64, v: &[f64], sc: &[f64]| {
            let s: f64 = v.iter().zip(sc).map(|(v, s)| (c * v / s).powi(2)).sum();
            (s / n.max(1) as f64).sqrt()
        };
        let em = if k > 1 {
            norm_of(self.error_const[k - 1], &self.d[k], &self.scale)
        } else {
            f64::INFINITY
        };
        let ep = if k < BDF_MAX_ORDER {
            norm_of(self.error_const[k + 1], &self.d[k + 2], &self.scale)
        } else {
            f64::INFINITY
        };
        let factors = [
            em.powf(-1.0 / k as f64),
            error_norm.powf(-1.0 / (k + 1) as f64),
            ep.powf(-1.0 / (k + 2) as f64),
        ];
        let mut best = 0;
        for i in 1..3 {
            if factors[i] > factors[best] {
                best = i;
            }
        }
        let factor = MAX_FACTOR.min(safety * factors[best]);
        self.ctl.pending = Some((best as isize - 1, factor));
    }
}

/// SciPy's `compute_R`: `M₀ⱼ = 1`, `Mᵢⱼ = (i − 1 − factor·j)/i` for `i, j ≥ 1`,
/// `R` the cumulative product of `M` down the columns (Shampine–Reichelt sec
/// 2.3).
fn compute_r(order: usize, factor: f64) -> [[f64; BDF_MAX_ORDER + 1]; BDF_MAX_ORDER + 1] {
    let mut m = [[0.0; BDF_MAX_ORDER + 1]; BDF_MAX_ORDER + 1];
    for j in 0..=order {
        m[0][j] = 1.0;
    }
    for i in 1..=order {
        for j in 1..=order {
            m[i][j] = (i as f64 - 1.0 - factor * j as f64) / i as f64;
        }
    }
    for i in 1..=order {
        for j in 0..=order {
            m[i][j] *= m[i - 1][j];
        }
    }
    m
}

impl<S: OdeSystem + ?Sized> Stepper<S> for Bdf {
    fn init(&mut self, sys: &S, t0: f64, y0: &[f64]) -> Result<(), Error> {
        let n = self.n;
        check_dim("y0", y0.len(), n)?;
        check_dim("system dimension", sys.dim(), n)?;
        no_mass_matrix("bdf", sys)?;
        let p = &self.params;
        p.atol.validate(n)?;
        if !positive(p.rtol) {
            return Err(Error::InvalidInput(format!(
                "bdf: rtol must be positive and finite, got {}",
                p.rtol
            )));
        }
        if !all_finite(y0) {
            let i = y0.iter().position(|v| !v.is_finite()).unwrap_or(0);
            return Err(Error::InvalidInput(format!(
                "bdf: y0[{i}] = {} is not finite",
                y0[i]
            )));
        }
        if p.max_newton < 1 {
            return Err(Error::InvalidInput(
                "bdf: max_newton must be at least 1".into(),
            ));
        }
        for (what, v) in [("h0", p.h0), ("h_max", p.h_max)] {
            if let Some(v) = v
                && !positive(v)
            {
                return Err(Error::InvalidInput(format!(
                    "bdf: {what} must be positive and finite, got {v}"
                )));
            }
        }
        let rtol = p.rtol.max(100.0 * EPS);
        let atol = p.atol.clone();
        self.mats.adapt(sys)?;
        self.mats.jac.set_threshold(|j| atol.get(j) / rtol);
        self.ctl = Control {
            rtol,
            newton_tol: (10.0 * EPS / rtol).max(0.03f64.min(rtol.sqrt())),
            order: 1,
            order_last: 1,
            ..Control::default()
        };
        self.info = Info::default();
        self.err_component = None;
        self.t = t0;
        self.y.copy_from_slice(y0);
        Ok(())
    }

    fn start(&mut self, sys: &mut S, t_end: f64) -> Result<(), Error> {
        let t0 = self.t;
        let span = (t_end - t0).abs();
        let dir = direction(t0, t_end);
        self.ctl.dir = dir;
        self.ctl.h_max = self.params.h_max.unwrap_or(span).min(span);
        sys.rhs(t0, &self.y, &mut self.f).at(t0)?;
        self.info.rhs_evals += 1;
        if !all_finite(&self.f) {
            return Err(Error::NonFinite { t: t0 });
        }
        for i in 0..self.n {
            self.scale[i] = self.params.atol.get(i) + self.ctl.rtol * self.y[i].abs();
        }
        let h_abs = match self.params.h0 {
            Some(h) => h.min(self.ctl.h_max),
            None => {
                self.info.rhs_evals += 1;
                initial_step(
                    sys,
                    (t0, &self.y, &self.f),
                    dir,
                    self.ctl.h_max,
                    1,
                    &self.scale,
                    (&mut self.y_new, &mut self.dy),
                )?
            }
        };
        self.ctl.h_abs = h_abs.max(h_min(t0));
        self.mats
            .jac
            .evaluate(sys, t0, &self.y, &self.f, &mut self.info)?;
        for row in self.d.iter_mut() {
            row.fill(0.0);
        }
        self.d[0].copy_from_slice(&self.y);
        for i in 0..self.n {
            self.d[1][i] = self.f[i] * self.ctl.h_abs * dir;
        }
        Ok(())
    }

    fn step(&mut self, sys: &mut S, t_end: f64) -> Result<Step, Error> {
        if let Some((delta, factor)) = self.ctl.pending.take() {
            self.ctl.order = (self.ctl.order as isize + delta) as usize;
            self.ctl.h_abs *= factor;
            self.change_d(factor);
        }
        if self.ctl.h_abs > self.ctl.h_max {
            let factor = self.ctl.h_max / self.ctl.h_abs;
            self.ctl.h_abs = self.ctl.h_max;
            self.change_d(factor);
        }
        let hmin = h_min(self.t);
        if self.ctl.h_abs < hmin || !self.ctl.h_abs.is_finite() {
            return Err(self.collapse());
        }
        let dir = self.ctl.dir;
        let mut t_new = self.t + dir * self.ctl.h_abs;
        let mut last = false;
        // a step ending within round-off of `t_end` ends there (else a step of a
        // few ε would follow)
        if dir * (t_new - t_end) >= -1e-8 * self.ctl.h_abs {
            t_new = t_end;
            last = true;
            let factor = (t_new - self.t).abs() / self.ctl.h_abs;
            if factor != 1.0 {
                self.change_d(factor);
            }
        }
        let h = t_new - self.t;
        self.ctl.h_abs = h.abs();
        let k = self.ctl.order;
        let n = self.n;
        let rtol = self.ctl.rtol;
        for i in 0..n {
            let atol = &self.params.atol;
            let p: f64 = (0..=k).map(|j| self.d[j][i]).sum();
            self.y_predict[i] = p;
            self.scale[i] = atol.get(i) + rtol * p.abs();
            let s: f64 = (1..=k).map(|j| self.gamma[j] * self.d[j][i]).sum();
            self.psi[i] = s / self.alpha[k];
        }
        let c = h / self.alpha[k];
        let (converged, n_iter, correction) = loop {
            let mut singular = false;
            if !self.ctl.lu_valid {
                self.info.lu_decompositions += 1;
                singular = !self.mats.real.factor(&self.mats.jac, 1.0, c);
                self.ctl.lu_valid = !singular;
            }
            let (converged, it, corr) = if singular {
                (false, 0, f64::INFINITY)
            } else {
                self.newton(sys, t_new, c)?
            };
            if converged || self.ctl.jac_current {
                break (converged, it, corr);
            }
            sys.rhs(t_new, &self.y_predict, &mut self.f).at(t_new)?;
            self.info.rhs_evals += 1;
            self.mats
                .jac
                .evaluate(sys, t_new, &self.y_predict, &self.f, &mut self.info)?;
            self.ctl.jac_current = true;
            self.ctl.lu_valid = false;
        };
        if !converged {
            self.info.rejected_steps += 1;
            // a Jacobian evaluated where f is not finite is useless: a new one next
            if !correction.is_finite() || !self.ctl.lu_valid {
                self.ctl.jac_current = false;
            }
            self.ctl.newton_failure = Some((n_iter, correction));
            self.ctl.h_abs *= 0.5;
            self.change_d(0.5);
            return Ok(Step::Rejected);
        }
        let maxit = self.params.max_newton as f64;
        let safety = 0.9 * (2.0 * maxit + 1.0) / (2.0 * maxit + n_iter as f64);
        let ec = self.error_const[k];
        let (mut err, mut worst) = (0.0, 0);
        let mut sum = 0.0;
        for i in 0..n {
            self.scale[i] = self.params.atol.get(i) + rtol * self.y_new[i].abs();
            let e = (ec * self.corr[i] / self.scale[i]).abs();
            sum += e * e;
            if e > err {
                (err, worst) = (e, i);
            }
        }
        self.err_component = Some(worst);
        let error_norm = (sum / n.max(1) as f64).sqrt();
        if error_norm.is_nan() || error_norm > 1.0 {
            self.info.rejected_steps += 1;
            self.ctl.newton_failure = None;
            let factor = if error_norm.is_finite() {
                MIN_FACTOR.max(safety * error_norm.powf(-1.0 / (k + 1) as f64))
            } else {
                MIN_FACTOR
            };
            self.ctl.h_abs *= factor;
            // keeps the factors (SciPy): the step is retried with the old matrix
            let lu = self.ctl.lu_valid;
            self.change_d(factor);
            self.ctl.lu_valid = lu;
            return Ok(Step::Rejected);
        }
        self.info.accepted_steps += 1;
        self.ctl.newton_failure = None;
        self.ctl.jac_current = false;
        self.ctl.h_last = h;
        self.ctl.order_last = k;
        self.t = if last { t_end } else { t_new };
        self.y.copy_from_slice(&self.y_new);
        self.accept(error_norm, safety);
        Ok(Step::Accepted { last })
    }

    fn project(&mut self, sys: &mut S) -> Result<bool, Error> {
        let changed = sys.project(self.t, &mut self.y).at(self.t)?;
        if changed {
            self.d[0].copy_from_slice(&self.y);
        }
        Ok(changed)
    }

    fn complete(&mut self, _sys: &mut S) -> Result<(), Error> {
        Ok(())
    }

    /// The interpolating polynomial of the difference array (SciPy
    /// `BdfDenseOutput`).
    fn interpolate(&mut self, t: f64) -> &[f64] {
        let (h, k) = (self.ctl.h_last, self.ctl.order_last);
        self.y_out.copy_from_slice(&self.d[0]);
        let mut p = 1.0;
        for j in 0..k {
            let shift = self.t - h * j as f64;
            p *= (t - shift) / (h * (j + 1) as f64);
            for (o, dj) in self.y_out.iter_mut().zip(&self.d[j + 1]) {
                *o += p * dj;
            }
        }
        &self.y_out
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `R(1) U = I`-like consistency: rescaling by 1 leaves the differences alone
    /// (`U² = I`, Shampine–Reichelt sec 2.3).
    #[test]
    fn unit_rescaling_is_identity() {
        for k in 1..=BDF_MAX_ORDER {
            let u = compute_r(k, 1.0);
            for i in 0..=k {
                for j in 0..=k {
                    let s: f64 = (0..=k).map(|m| u[i][m] * u[m][j]).sum();
                    let want = if i == j { 1.0 } else { 0.0 };
                    assert!((s - want).abs() < 1e-12, "order {k}: U²[{i}][{j}] = {s}");
                }
            }
        }
    }
}
