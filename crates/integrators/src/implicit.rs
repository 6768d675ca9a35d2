//! Implicit midpoint and trapezoidal rules (fixed step) with Newton iteration,
//! and the [`ImplicitStepSolver`] seam through which a front-end can solve a
//! step's nonlinear equations itself (ALF-INDEX3 of Bayo & Ledesma 1996,
//! eqs 35–40, iterates on the positions with its own tangent matrix).
//!
//! With `y_n` known and `h` the step, the rules are
//!
//! ```text
//! midpoint:     y_{n+1} = y_n + h f(t_n + h/2, (y_n + y_{n+1})/2)
//! trapezoidal:  y_{n+1} = y_n + h/2 (f(t_n, y_n) + f(t_{n+1}, y_{n+1}))
//! ```
//!
//! Both are second order, A-stable and symmetric; both conserve quadratic
//! invariants of linear systems (the midpoint rule those of every system).
//! The default [`Newton`] solver iterates on `G(Y) = 0` with the iteration
//! matrix `I − (h/2) J` (`J = ∂f/∂y`, from [`OdeSystem::jacobian`] or forward
//! differences), factorised once per step (or reused across steps).

use crate::common::{
    EPS, OutCursor, all_finite, check_dim, direction, positive, projection_due, validate_span,
};
use crate::error::{AtTime, Error};
use crate::lu;
use crate::system::{Info, Observer, OdeSystem};
use nalgebra::DMatrix;

/// Which implicit rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImplicitRule {
    /// `y_{n+1} = y_n + h f(t_n + h/2, (y_n + y_{n+1})/2)`.
    Midpoint,
    /// `y_{n+1} = y_n + h/2 (f_n + f_{n+1})`.
    Trapezoidal,
}

/// The data of one implicit step handed to an [`ImplicitStepSolver`].
#[derive(Debug, Clone, Copy)]
pub struct StepRequest<'a> {
    /// The rule.
    pub rule: ImplicitRule,
    /// Start time `t_n`.
    pub t: f64,
    /// Step `h` (negative when integrating backward).
    pub h: f64,
    /// State `y_n`.
    pub y: &'a [f64],
    /// For [`ImplicitRule::Trapezoidal`]: `f(t_n, y_n)` exactly. For
    /// [`ImplicitRule::Midpoint`]: the slope of the previous step
    /// `(y_n − y_{n−1})/h` (a predictor only; `f(t_0, y_0)` at the first step).
    pub f: &'a [f64],
}

/// Solves the nonlinear equations of one implicit step: given `t_n`, `y_n`,
/// `h` and the rule, write `y_{n+1}` into `y_next`.
///
/// [`Newton`] is the default. A front-end implements this trait to use its
/// own unknowns and tangent matrix: ALF-INDEX3 (Bayo–Ledesma eqs 36–40)
/// writes the trapezoidal rule in second-order form with
/// [`trapezoidal_second_order`], iterates on the positions with
/// `b M + Φ_qᵀ α Φ_q − Q_q`, then fills `y_next = [q, q̇]`. Counters in `info`
/// (`rhs_evals`, `newton_iterations`, `jacobian_evals`, `lu_decompositions`)
/// should be incremented by the solver.
pub trait ImplicitStepSolver<S: OdeSystem + ?Sized> {
    /// Solve one step.
    fn solve(
        &mut self,
        sys: &mut S,
        req: &StepRequest<'_>,
        y_next: &mut [f64],
        info: &mut Info,
    ) -> Result<(), Error>;
}

/// Coefficients of the trapezoidal rule written for a second-order system
/// `q̈ = a`, in the form of Bayo–Ledesma eq 36:
/// `q̇_{n+1} = α q_{n+1} + q̂̇`, `q̈_{n+1} = β q_{n+1} + q̂̈`, with
/// `α = 2/h`, `β = 4/h²`, `q̂̇ = −(2/h q_n + q̇_n)` and
/// `q̂̈ = −(4/h² q_n + 4/h q̇_n + q̈_n)`. Writes the hat quantities and
/// returns `(α, β)`.
pub fn trapezoidal_second_order(
    h: f64,
    q: &[f64],
    v: &[f64],
    a: &[f64],
    v_hat: &mut [f64],
    a_hat: &mut [f64],
) -> (f64, f64) {
    let alpha = 2.0 / h;
    let beta = 4.0 / (h * h);
    for i in 0..q.len() {
        v_hat[i] = -(alpha * q[i] + v[i]);
        a_hat[i] = -(beta * q[i] + 2.0 * alpha * v[i] + a[i]);
    }
    (alpha, beta)
}

/// Factor on [`NewtonParams::max_iterations`] allowed to a fresh Newton matrix whose
/// corrections still shrink at least twofold per iteration.
const CONTRACTING_EXTENSION: usize = 3;

/// Parameters of the [`Newton`] solver.
#[derive(Debug, Clone, PartialEq)]
pub struct NewtonParams {
    /// Convergence when `max_i |Δ_i| / (atol + rtol |Y_i|) ≤ 1`, or when the
    /// corrections stop decreasing after one below `√ε / max(rtol, atol)` in that
    /// norm: the round-off floor of `G`.
    /// Right-hand sides that solve ill-conditioned systems (a KKT matrix of bodies
    /// weighing grams, Andrew's squeezer) carry round-off far above 1e-12 relative
    /// while their forward-difference Jacobian is still accurate to √ε; without the
    /// floor such a step "fails" with corrections of a few units of the tolerance.
    pub rtol: f64,
    /// See `rtol`.
    pub atol: f64,
    /// Iterations per attempt.
    pub max_iterations: usize,
    /// Keep the LU factors from the previous step while Newton converges
    /// (simplified Newton across steps); refresh on failure. Default `false`:
    /// a fresh Jacobian at every step.
    pub reuse_jacobian: bool,
}

impl Default for NewtonParams {
    fn default() -> Self {
        Self {
            rtol: 1e-12,
            atol: 1e-12,
            max_iterations: 10,
            reuse_jacobian: false,
        }
    }
}

/// Simplified Newton iteration on the step equations `G(Y) = 0`,
///
/// ```text
/// midpoint:     G(Y) = Y − y_n − h f(t_n + h/2, (y_n + Y)/2)
/// trapezoidal:  G(Y) = Y − y_n − h/2 (f_n + f(t_n + h, Y))
/// (I − h/2 J) ΔY = −G(Y),   Y ← Y + ΔY
/// ```
///
/// `J` comes from [`OdeSystem::jacobian`] or forward differences
/// (`δ_j = √ε max(|y_j|, 1)`). Predictor: `Y₀ = y_n + h f` (see
/// [`StepRequest::f`]). Workspace is allocated once.
#[derive(Debug, Clone)]
pub struct Newton {
    params: NewtonParams,
    n: usize,
    jac: DMatrix<f64>,
    lu: Vec<f64>,
    piv: Vec<usize>,
    /// `h` of the current factorisation, `None` if none is valid.
    lu_h: Option<f64>,
    arg: Vec<f64>,
    fy: Vec<f64>,
    fpert: Vec<f64>,
    delta: Vec<f64>,
}

impl Newton {
    /// A solver for systems of dimension `n`.
    pub fn new(n: usize, params: NewtonParams) -> Self {
        Self {
            params,
            n,
            jac: DMatrix::zeros(n, n),
            lu: vec![0.0; n * n],
            piv: vec![0; n],
            lu_h: None,
            arg: vec![0.0; n],
            fy: vec![0.0; n],
            fpert: vec![0.0; n],
            delta: vec![0.0; n],
        }
    }

    /// Forget the stored factorisation.
    pub fn reset(&mut self) {
        self.lu_h = None;
    }

    /// Evaluate `J` at `(t, arg)` (with `f(t, arg)` already in `fy`) and
    /// factor `I − (h/2) J`.
    fn refresh<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        t: f64,
        h: f64,
        info: &mut Info,
    ) -> Result<(), Error> {
        let n = self.n;
        info.jacobian_evals += 1;
        if !sys.jacobian(t, &self.arg, &mut self.jac).at(t)? {
            // Forward differences, column by column.
            for j in 0..n {
                let yj = self.arg[j];
                let d = EPS.sqrt() * yj.abs().max(1.0);
                self.arg[j] = yj + d;
                let d = self.arg[j] - yj; // exactly representable increment
                sys.rhs(t, &self.arg, &mut self.fpert).at(t)?;
                info.rhs_evals += 1;
                self.arg[j] = yj;
                for i in 0..n {
                    self.jac[(i, j)] = (self.fpert[i] - self.fy[i]) / d;
                }
            }
        }
        let c = 0.5 * h;
        for j in 0..n {
            for i in 0..n {
                self.lu[j * n + i] = -c * self.jac[(i, j)] + if i == j { 1.0 } else { 0.0 };
            }
        }
        info.lu_decompositions += 1;
        if !lu::factor(&mut self.lu, n, &mut self.piv) {
            self.lu_h = None;
            return Err(Error::SingularMatrix { t, h });
        }
        self.lu_h = Some(h);
        Ok(())
    }
}

impl<S: OdeSystem + ?Sized> ImplicitStepSolver<S> for Newton {
    fn solve(
        &mut self,
        sys: &mut S,
        req: &StepRequest<'_>,
        y_next: &mut [f64],
        info: &mut Info,
    ) -> Result<(), Error> {
        let n = self.n;
        let (t, h, y) = (req.t, req.h, req.y);
        let t_eval = match req.rule {
            ImplicitRule::Midpoint => t + 0.5 * h,
            ImplicitRule::Trapezoidal => t + h,
        };
        // A stale factorisation may be tried first; a fresh one is always
        // tried before giving up.
        // (An h that differs by round-off keeps the factorisation: it only
        // serves as the simplified-Newton matrix; the residual is exact.)
        let same_h = self
            .lu_h
            .is_some_and(|hl| (hl - h).abs() <= 1e-10 * h.abs());
        let mut fresh = !(self.params.reuse_jacobian && same_h);
        loop {
            for i in 0..n {
                y_next[i] = y[i] + h * req.f[i];
            }
            let mut prev = f64::INFINITY;
            let mut iterations = 0;
            let mut converged = false;
            let mut last = f64::NAN;
            // ‖Δ_k‖ / ‖Δ_{k−1}‖ of the last iteration
            let mut contraction = f64::INFINITY;
            // A fresh Newton matrix that still contracts at least twofold per
            // iteration gets up to `CONTRACTING_EXTENSION` × the iteration limit: a
            // fixed-step rule cannot shorten the step instead (near a singular
            // configuration the forward-difference Jacobian is poor and the
            // convergence linear).
            while iterations < self.params.max_iterations
                || (fresh
                    && iterations < CONTRACTING_EXTENSION * self.params.max_iterations
                    && contraction <= 0.5)
            {
                // Residual G(Y) at the current iterate.
                match req.rule {
                    ImplicitRule::Midpoint => {
                        for i in 0..n {
                            self.arg[i] = 0.5 * (y[i] + y_next[i]);
                        }
                    }
                    ImplicitRule::Trapezoidal => self.arg.copy_from_slice(y_next),
                }
                sys.rhs(t_eval, &self.arg, &mut self.fy).at(t_eval)?;
                info.rhs_evals += 1;
                if !all_finite(&self.fy) {
                    break;
                }
                if fresh && iterations == 0 {
                    self.refresh(sys, t_eval, h, info)?;
                }
                match req.rule {
                    ImplicitRule::Midpoint => {
                        for i in 0..n {
                            self.delta[i] = -(y_next[i] - y[i] - h * self.fy[i]);
                        }
                    }
                    ImplicitRule::Trapezoidal => {
                        for i in 0..n {
                            self.delta[i] = -(y_next[i] - y[i] - 0.5 * h * (req.f[i] + self.fy[i]));
                        }
                    }
                }
                lu::solve(&self.lu, n, &self.piv, &mut self.delta);
                iterations += 1;
                info.newton_iterations += 1;
                let mut norm: f64 = 0.0;
                for i in 0..n {
                    y_next[i] += self.delta[i];
                    let sc = self.params.atol + self.params.rtol * y_next[i].abs();
                    norm = norm.max(self.delta[i].abs() / sc);
                }
                last = norm;
                if !norm.is_finite() {
                    break;
                }
                if norm <= 1.0 {
                    converged = true;
                    break;
                }
                if iterations >= 2 && norm >= prev {
                    // No contraction. Below the round-off floor of G (what a
                    // forward-difference Jacobian resolves, √ε relative) the
                    // corrections are noise: the step is solved as well as G can
                    // be evaluated.
                    if prev * self.params.rtol.max(self.params.atol) <= EPS.sqrt() {
                        converged = true;
                        break;
                    }
                    if norm > 2.0 * prev {
                        break; // diverging
                    }
                }
                contraction = norm / prev;
                prev = norm;
            }
            if converged {
                return Ok(());
            }
            if fresh {
                return Err(Error::NewtonFailure {
                    t,
                    h,
                    iterations,
                    correction: last,
                });
            }
            info.rejected_steps += 1;
            fresh = true;
        }
    }
}

/// Parameters of [`ImplicitIntegrator`].
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// The rule (default: midpoint).
    pub rule: ImplicitRule,
    /// Fixed step size (default `1e-3`); the last step ends at `t_end`.
    pub h: f64,
    /// Newton parameters of the default solver.
    pub newton: NewtonParams,
    /// Maximum number of steps.
    pub max_steps: usize,
    /// Call the projection hook every `project_every` steps (`0`: never).
    pub project_every: usize,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            rule: ImplicitRule::Midpoint,
            h: 1e-3,
            newton: NewtonParams::default(),
            max_steps: 100_000_000,
            project_every: 1,
        }
    }
}

impl Params {
    /// Defaults with the given rule and step.
    pub fn new(rule: ImplicitRule, h: f64) -> Self {
        Self {
            rule,
            h,
            ..Self::default()
        }
    }
}

/// Fixed-step implicit midpoint / trapezoidal integrator.
///
/// Output at requested times uses linear interpolation for the midpoint rule
/// and cubic Hermite interpolation on `(y_n, f_n, y_{n+1}, f_{n+1})` for the
/// trapezoidal rule (both at least second order, like the rules).
#[derive(Debug, Clone)]
pub struct ImplicitIntegrator {
    params: Params,
    n: usize,
    newton: Newton,
    y: Vec<f64>,
    y_new: Vec<f64>,
    f: Vec<f64>,
    f_new: Vec<f64>,
    y_out: Vec<f64>,
    t: f64,
    info: Info,
}

impl ImplicitIntegrator {
    /// An integrator for systems of dimension `n`.
    pub fn new(n: usize, params: Params) -> Self {
        Self {
            newton: Newton::new(n, params.newton.clone()),
            params,
            n,
            y: vec![0.0; n],
            y_new: vec![0.0; n],
            f: vec![0.0; n],
            f_new: vec![0.0; n],
            y_out: vec![0.0; n],
            t: 0.0,
            info: Info::default(),
        }
    }
    /// Time of the last accepted state.
    pub fn t(&self) -> f64 {
        self.t
    }
    /// Last accepted state (also after an error).
    pub fn y(&self) -> &[f64] {
        &self.y
    }
    /// Statistics.
    pub fn info(&self) -> Info {
        self.info
    }

    /// Integrate with the default [`Newton`] solver.
    pub fn integrate<S: OdeSystem + ?Sized, O: Observer + ?Sized>(
        &mut self,
        sys: &mut S,
        t0: f64,
        y0: &[f64],
        t_end: f64,
        t_out: &[f64],
        obs: &mut O,
    ) -> Result<Info, Error> {
        let mut newton =
            std::mem::replace(&mut self.newton, Newton::new(0, NewtonParams::default()));
        newton.reset();
        let r = self.integrate_with(&mut newton, sys, t0, y0, t_end, t_out, obs);
        self.newton = newton;
        r
    }

    /// Integrate, solving each step's nonlinear equations with `solver`.
    pub fn integrate_with<S, Sol, O>(
        &mut self,
        solver: &mut Sol,
        sys: &mut S,
        t0: f64,
        y0: &[f64],
        t_end: f64,
        t_out: &[f64],
        obs: &mut O,
    ) -> Result<Info, Error>
    where
        S: OdeSystem + ?Sized,
        Sol: ImplicitStepSolver<S> + ?Sized,
        O: Observer + ?Sized,
    {
        let n = self.n;
        check_dim("y0", y0.len(), n)?;
        check_dim("system dimension", sys.dim(), n)?;
        validate_span(t0, t_end, t_out)?;
        let h_abs = self.params.h;
        if !positive(h_abs) {
            return Err(Error::InvalidInput("step h must be positive".into()));
        }
        let rule = self.params.rule;
        self.info = Info::default();
        self.t = t0;
        self.y.copy_from_slice(y0);
        let mut cursor = OutCursor::default();
        while let Some(t) = cursor.next_at(t_out, t0) {
            obs.sample(t, y0);
        }
        if t_end == t0 {
            return Ok(self.info);
        }
        let dir = direction(t0, t_end);
        sys.rhs(t0, &self.y, &mut self.f).at(t0)?;
        self.info.rhs_evals += 1;
        if !all_finite(&self.f) {
            return Err(Error::NonFinite { t: t0 });
        }
        let mut step = 0usize;
        loop {
            let t = self.t;
            step += 1;
            if self.info.accepted_steps >= self.params.max_steps {
                return Err(Error::TooManySteps {
                    t,
                    max_steps: self.params.max_steps,
                });
            }
            let remaining = (t_end - t).abs();
            let done = remaining <= h_abs * (1.0 + 1e-10);
            // t0 + k h rather than accumulated sums.
            let t_new = if done {
                t_end
            } else {
                t0 + dir * h_abs * step as f64
            };
            let h = t_new - t;
            let req = StepRequest {
                rule,
                t,
                h,
                y: &self.y,
                f: &self.f,
            };
            solver.solve(sys, &req, &mut self.y_new, &mut self.info)?;
            if !all_finite(&self.y_new) {
                return Err(Error::NonFinite { t });
            }
            self.info.accepted_steps += 1;
            match rule {
                ImplicitRule::Trapezoidal => {
                    sys.rhs(t_new, &self.y_new, &mut self.f_new).at(t_new)?;
                    self.info.rhs_evals += 1;
                }
                ImplicitRule::Midpoint => {
                    // Slope of the step = f at the midpoint (predictor only).
                    for i in 0..n {
                        self.f_new[i] = (self.y_new[i] - self.y[i]) / h;
                    }
                }
            }
            while let Some(ts) = cursor.next_before(t_out, dir, t_new) {
                let th = (ts - t) / h;
                for i in 0..n {
                    self.y_out[i] = match rule {
                        ImplicitRule::Midpoint => self.y[i] + th * (self.y_new[i] - self.y[i]),
                        ImplicitRule::Trapezoidal => {
                            // Cubic Hermite basis on [0, 1].
                            let h00 = (1.0 + 2.0 * th) * (1.0 - th) * (1.0 - th);
                            let h10 = th * (1.0 - th) * (1.0 - th);
                            let h01 = th * th * (3.0 - 2.0 * th);
                            let h11 = th * th * (th - 1.0);
                            h00 * self.y[i]
                                + h10 * h * self.f[i]
                                + h01 * self.y_new[i]
                                + h11 * h * self.f_new[i]
                        }
                    };
                }
                obs.sample(ts, &self.y_out);
            }
            std::mem::swap(&mut self.y, &mut self.y_new);
            std::mem::swap(&mut self.f, &mut self.f_new);
            self.t = t_new;
            if projection_due(self.params.project_every, self.info.accepted_steps) {
                self.info.projections += 1;
                if sys.project(t_new, &mut self.y).at(t_new)? {
                    self.info.projections_applied += 1;
                    if rule == ImplicitRule::Trapezoidal {
                        sys.rhs(t_new, &self.y, &mut self.f).at(t_new)?;
                        self.info.rhs_evals += 1;
                    }
                }
            }
            while let Some(ts) = cursor.next_at(t_out, t_new) {
                obs.sample(ts, &self.y);
            }
            if obs.step(t_new, &self.y).is_break() {
                self.info.stopped = true;
                return Ok(self.info);
            }
            if done {
                return Ok(self.info);
            }
        }
    }
}
