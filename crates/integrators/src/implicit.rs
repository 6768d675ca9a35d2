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

use crate::common::{EPS, all_finite, check_dim, direction, hermite, no_mass_matrix, positive};
use crate::driver::drive;
use crate::error::{AtTime, Error};
use crate::lu;
use crate::stepper::{Schedule, Step, Stepper};
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
            let delta = sys.difference_step().unwrap_or(EPS.sqrt());
            for j in 0..n {
                let yj = self.arg[j];
                let d = delta * yj.abs().max(1.0);
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
        let h = req.h;
        // A stale factorisation may be tried first; a fresh one is always
        // tried before giving up.
        // (An h that differs by round-off keeps the factorisation: it only
        // serves as the simplified-Newton matrix; the residual is exact.)
        let same_h = self
            .lu_h
            .is_some_and(|hl| (hl - h).abs() <= 1e-10 * h.abs());
        let mut fresh = !(self.params.reuse_jacobian && same_h);
        loop {
            let (converged, iterations, correction) =
                self.iterate(sys, req, y_next, info, fresh)?;
            if converged {
                return Ok(());
            }
            if fresh {
                return Err(Error::NewtonFailure {
                    t: req.t,
                    h,
                    iterations,
                    correction,
                });
            }
            info.rejected_steps += 1;
            fresh = true;
        }
    }
}

impl Newton {
    /// Newton iterations from the predictor `Y₀ = y_n + h f`, with a fresh
    /// factorisation at the first one if `fresh`: whether they converged, how
    /// many were done, and the last scaled correction.
    fn iterate<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        req: &StepRequest<'_>,
        y_next: &mut [f64],
        info: &mut Info,
        fresh: bool,
    ) -> Result<(bool, usize, f64), Error> {
        let (n, h, y) = (self.n, req.h, req.y);
        let t_eval = match req.rule {
            ImplicitRule::Midpoint => req.t + 0.5 * h,
            ImplicitRule::Trapezoidal => req.t + h,
        };
        for i in 0..n {
            y_next[i] = y[i] + h * req.f[i];
        }
        let mut prev = f64::INFINITY;
        let mut iterations = 0;
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
            self.correction(req, y_next);
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
                return Ok((true, iterations, last));
            }
            if iterations >= 2 && norm >= prev {
                // No contraction. Below the round-off floor of G (what a
                // forward-difference Jacobian resolves, √ε relative) the
                // corrections are noise: the step is solved as well as G can
                // be evaluated.
                if prev * self.params.rtol.max(self.params.atol) <= EPS.sqrt() {
                    return Ok((true, iterations, last));
                }
                if norm > 2.0 * prev {
                    break; // diverging
                }
            }
            contraction = norm / prev;
            prev = norm;
        }
        Ok((false, iterations, last))
    }

    /// The Newton correction `ΔY = −(I − h/2 J)⁻¹ G(Y)` into `delta`, with
    /// `f(t_eval, arg)` in `fy`.
    fn correction(&mut self, req: &StepRequest<'_>, y_next: &[f64]) {
        let (y, h) = (req.y, req.h);
        match req.rule {
            ImplicitRule::Midpoint => {
                for i in 0..self.n {
                    self.delta[i] = -(y_next[i] - y[i] - h * self.fy[i]);
                }
            }
            ImplicitRule::Trapezoidal => {
                for i in 0..self.n {
                    self.delta[i] = -(y_next[i] - y[i] - 0.5 * h * (req.f[i] + self.fy[i]));
                }
            }
        }
        lu::solve(&self.lu, self.n, &self.piv, &mut self.delta);
    }
}

impl<S, Sol> ImplicitStepSolver<S> for &mut Sol
where
    S: OdeSystem + ?Sized,
    Sol: ImplicitStepSolver<S> + ?Sized,
{
    fn solve(
        &mut self,
        sys: &mut S,
        req: &StepRequest<'_>,
        y_next: &mut [f64],
        info: &mut Info,
    ) -> Result<(), Error> {
        (**self).solve(sys, req, y_next, info)
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

/// Fixed-step implicit midpoint / trapezoidal integrator whose steps are solved
/// by `Sol` ([`Newton`] by default; see [`ImplicitStepSolver`]).
///
/// Output at requested times uses linear interpolation for the midpoint rule
/// and cubic Hermite interpolation on `(y_n, f_n, y_{n+1}, f_{n+1})` for the
/// trapezoidal rule (both at least second order, like the rules).
#[derive(Debug, Clone)]
pub struct ImplicitIntegrator<Sol = Newton> {
    params: Params,
    n: usize,
    solver: Sol,
    s: State,
}

/// The state of an [`ImplicitIntegrator`] and its run.
#[derive(Debug, Clone, Default)]
struct State {
    /// The state and, with it, `f(t, y)` (trapezoidal) or the slope of the last
    /// step (midpoint: the predictor of the next).
    y: Vec<f64>,
    f: Vec<f64>,
    /// Start and end (before any projection) of the last step, with their `f`,
    /// for dense output.
    y_prev: Vec<f64>,
    f_prev: Vec<f64>,
    y_end: Vec<f64>,
    f_end: Vec<f64>,
    y_out: Vec<f64>,
    t: f64,
    t0: f64,
    dir: f64,
    /// Steps taken in this run (the step ends at `t0 + steps h`).
    steps: usize,
    /// Start time and (signed) size of the last step.
    t_prev: f64,
    h: f64,
    /// The projection changed the state after the last step.
    projected: bool,
    info: Info,
}

impl ImplicitIntegrator {
    /// An integrator for systems of dimension `n`, with the [`Newton`] solver.
    pub fn new(n: usize, params: Params) -> Self {
        let newton = Newton::new(n, params.newton.clone());
        Self::with_solver(n, params, newton)
    }

    /// Integrate with the [`Newton`] solver (its factorisation is forgotten
    /// first) by [`crate::drive`].
    pub fn integrate<S: OdeSystem + ?Sized, O: Observer + ?Sized>(
        &mut self,
        sys: &mut S,
        t0: f64,
        y0: &[f64],
        t_end: f64,
        t_out: &[f64],
        obs: &mut O,
    ) -> Result<Info, Error> {
        self.solver.reset();
        drive(self, sys, t0, y0, t_end, t_out, obs)
    }
}

impl<Sol> ImplicitIntegrator<Sol> {
    /// An integrator for systems of dimension `n` whose steps `solver` solves.
    pub fn with_solver(n: usize, params: Params, solver: Sol) -> Self {
        let v = || vec![0.0; n];
        Self {
            params,
            n,
            solver,
            s: State {
                y: v(),
                f: v(),
                y_prev: v(),
                f_prev: v(),
                y_end: v(),
                f_end: v(),
                y_out: v(),
                ..State::default()
            },
        }
    }
    /// Time of the last accepted state.
    pub fn t(&self) -> f64 {
        self.s.t
    }
    /// Last accepted state (also after an error).
    pub fn y(&self) -> &[f64] {
        &self.s.y
    }
    /// Statistics.
    pub fn info(&self) -> Info {
        self.s.info
    }

    /// Integrate, solving each step's nonlinear equations with `solver` instead
    /// of this integrator's own.
    pub fn integrate_with<S, Sol2, O>(
        &mut self,
        solver: &mut Sol2,
        sys: &mut S,
        t0: f64,
        y0: &[f64],
        t_end: f64,
        t_out: &[f64],
        obs: &mut O,
    ) -> Result<Info, Error>
    where
        S: OdeSystem + ?Sized,
        Sol2: ImplicitStepSolver<S> + ?Sized,
        O: Observer + ?Sized,
    {
        // The same state, stepped with the borrowed solver (moving the vectors
        // allocates nothing).
        let mut run = ImplicitIntegrator {
            params: self.params.clone(),
            n: self.n,
            solver,
            s: std::mem::take(&mut self.s),
        };
        let r = drive(&mut run, sys, t0, y0, t_end, t_out, obs);
        self.s = run.s;
        r
    }
}

impl<S, Sol> Stepper<S> for ImplicitIntegrator<Sol>
where
    S: OdeSystem + ?Sized,
    Sol: ImplicitStepSolver<S>,
{
    fn init(&mut self, sys: &S, t0: f64, y0: &[f64]) -> Result<(), Error> {
        check_dim("y0", y0.len(), self.n)?;
        check_dim("system dimension", sys.dim(), self.n)?;
        no_mass_matrix("implicit", sys)?;
        if !positive(self.params.h) {
            return Err(Error::InvalidInput("step h must be positive".into()));
        }
        let s = &mut self.s;
        (s.info, s.t, s.t0, s.steps, s.projected) = (Info::default(), t0, t0, 0, false);
        s.y.copy_from_slice(y0);
        Ok(())
    }

    fn start(&mut self, sys: &mut S, t_end: f64) -> Result<(), Error> {
        let s = &mut self.s;
        s.dir = direction(s.t, t_end);
        sys.rhs(s.t, &s.y, &mut s.f).at(s.t)?;
        s.info.rhs_evals += 1;
        if !all_finite(&s.f) {
            return Err(Error::NonFinite { t: s.t });
        }
        Ok(())
    }

    fn step(&mut self, sys: &mut S, t_end: f64) -> Result<Step, Error> {
        let (rule, h_abs, s) = (self.params.rule, self.params.h, &mut self.s);
        let t = s.t;
        s.steps += 1;
        let last = (t_end - t).abs() <= h_abs * (1.0 + 1e-10);
        // t0 + k h rather than accumulated sums.
        let t_new = if last {
            t_end
        } else {
            s.t0 + s.dir * h_abs * s.steps as f64
        };
        let h = t_new - t;
        let req = StepRequest {
            rule,
            t,
            h,
            y: &s.y,
            f: &s.f,
        };
        self.solver.solve(sys, &req, &mut s.y_end, &mut s.info)?;
        if !all_finite(&s.y_end) {
            return Err(Error::NonFinite { t });
        }
        s.info.accepted_steps += 1;
        match rule {
            ImplicitRule::Trapezoidal => {
                sys.rhs(t_new, &s.y_end, &mut s.f_end).at(t_new)?;
                s.info.rhs_evals += 1;
            }
            ImplicitRule::Midpoint => {
                // Slope of the step = f at the midpoint (predictor only).
                for i in 0..self.n {
                    s.f_end[i] = (s.y_end[i] - s.y[i]) / h;
                }
            }
        }
        std::mem::swap(&mut s.y_prev, &mut s.y);
        std::mem::swap(&mut s.f_prev, &mut s.f);
        s.y.copy_from_slice(&s.y_end);
        s.f.copy_from_slice(&s.f_end);
        (s.t_prev, s.h, s.t) = (t, h, t_new);
        Ok(Step::Accepted { last })
    }

    fn project(&mut self, sys: &mut S) -> Result<bool, Error> {
        let s = &mut self.s;
        s.projected = sys.project(s.t, &mut s.y).at(s.t)?;
        Ok(s.projected)
    }

    fn complete(&mut self, sys: &mut S) -> Result<(), Error> {
        let s = &mut self.s;
        if std::mem::take(&mut s.projected) && self.params.rule == ImplicitRule::Trapezoidal {
            sys.rhs(s.t, &s.y, &mut s.f).at(s.t)?;
            s.info.rhs_evals += 1;
        }
        Ok(())
    }

    fn interpolate(&mut self, ts: f64) -> &[f64] {
        let s = &mut self.s;
        let th = (ts - s.t_prev) / s.h;
        match self.params.rule {
            ImplicitRule::Midpoint => {
                for i in 0..self.n {
                    s.y_out[i] = s.y_prev[i] + th * (s.y_end[i] - s.y_prev[i]);
                }
            }
            ImplicitRule::Trapezoidal => {
                let (start, end) = ((&s.y_prev[..], &s.f_prev[..]), (&s.y_end[..], &s.f_end[..]));
                hermite(th, s.h, start, end, &mut s.y_out);
            }
        }
        &s.y_out
    }

    fn t(&self) -> f64 {
        self.s.t
    }
    fn y(&self) -> &[f64] {
        &self.s.y
    }
    fn info(&self) -> Info {
        self.s.info
    }
    fn info_mut(&mut self) -> &mut Info {
        &mut self.s.info
    }
    fn schedule(&self) -> Schedule {
        Schedule {
            project_every: self.params.project_every,
            max_steps: self.params.max_steps,
        }
    }
}
