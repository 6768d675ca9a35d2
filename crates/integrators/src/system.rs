//! The system traits integrated by this crate and the observer used for output.

use std::ops::ControlFlow;

use nalgebra::DMatrix;

use crate::error::SystemError;

/// A first-order system `y' = f(t, y)`.
///
/// Methods take `&mut self` so that a system can own its preallocated
/// workspace and evaluate without allocating.
pub trait OdeSystem {
    /// Dimension of `y`.
    fn dim(&self) -> usize;

    /// Evaluate `dydt = f(t, y)`.
    fn rhs(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError>;

    /// Optional projection onto an invariant manifold, called after accepted
    /// steps (every `project_every` steps, see the integrators' `Params`).
    /// Return `Ok(true)` if `y` was changed (the integrator then re-evaluates
    /// the derivative where it needs it), `Ok(false)` otherwise.
    fn project(&mut self, _t: f64, _y: &mut [f64]) -> Result<bool, SystemError> {
        Ok(false)
    }

    /// Optional analytic Jacobian `∂f/∂y` (n×n, written into `jac`). Return
    /// `Ok(false)` (the default) to let the integrator use forward finite
    /// differences instead.
    fn jacobian(
        &mut self,
        _t: f64,
        _y: &[f64],
        _jac: &mut DMatrix<f64>,
    ) -> Result<bool, SystemError> {
        Ok(false)
    }

    /// Optional sparsity of `∂f/∂y`: where entries may be nonzero. The implicit
    /// adaptive integrators colour its columns for finite differences (one
    /// right-hand side per colour) and factor sparse when it pays
    /// ([`crate::LinearSolver`]). `None` (the default): dense.
    fn jacobian_sparsity(&self) -> Option<crate::JacobianPattern> {
        None
    }

    /// Relative step `δ` of the finite-difference Jacobian: column `j` is
    /// perturbed by `δ · max(|y_j|, atol_j/rtol)`. `None` (the default): `√ε`,
    /// right for a right-hand side accurate to round-off. A right-hand side
    /// computed by an iteration or a factorization that leaves a relative error
    /// `η ≫ ε` (an augmented-Lagrangian solve) needs `δ ≈ √η`, or the differences
    /// are noise (Dennis & Schnabel, *Numerical Methods for Unconstrained
    /// Optimization*, sec 5.4: the forward-difference error is `O(δ + η/δ)`).
    fn difference_step(&self) -> Option<f64> {
        None
    }

    /// Optional constant mass matrix: the system is `M y' = f(t, y)`, `M`
    /// possibly singular (a DAE), with the index of its components
    /// ([`crate::MassMatrix`]). `None` (the default): `M = I`. Only
    /// [`crate::Radau5`] integrates such systems; the other integrators return
    /// an error.
    fn mass_matrix(&self) -> Option<&crate::MassMatrix> {
        None
    }
}

impl<S: OdeSystem + ?Sized> OdeSystem for &mut S {
    fn dim(&self) -> usize {
        (**self).dim()
    }
    fn rhs(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError> {
        (**self).rhs(t, y, dydt)
    }
    fn project(&mut self, t: f64, y: &mut [f64]) -> Result<bool, SystemError> {
        (**self).project(t, y)
    }
    fn jacobian(&mut self, t: f64, y: &[f64], jac: &mut DMatrix<f64>) -> Result<bool, SystemError> {
        (**self).jacobian(t, y, jac)
    }
    fn jacobian_sparsity(&self) -> Option<crate::JacobianPattern> {
        (**self).jacobian_sparsity()
    }
    fn difference_step(&self) -> Option<f64> {
        (**self).difference_step()
    }
    fn mass_matrix(&self) -> Option<&crate::MassMatrix> {
        (**self).mass_matrix()
    }
}

/// A second-order system partitioned into positions `x` and velocities `v`
/// (Chiou, sec 5.5.1, eq 5.5.1.3: translations and rotations are integrated
/// separately). Used by [`crate::CentralDifference`] and
/// [`crate::TwoStageStaggered`].
///
/// `x` and `v` may have different lengths: with Euler parameters a body has 7
/// position coordinates `[r, p]` and 6 velocity coordinates `[ṙ, ω']`; the
/// system then advances the Euler parameters itself in
/// [`advance_positions`](Self::advance_positions) by the closed-form implicit
/// rule (Chiou eqs 5.5.4.4–5.5.4.6).
pub trait PartitionedSystem {
    /// Length of the position vector `x`.
    fn dim_positions(&self) -> usize;
    /// Length of the velocity vector `v` (and of the accelerations).
    fn dim_velocities(&self) -> usize;

    /// Accelerations `a = v̇(t, x, v)` (Chiou eq 5.5.1.3 solved for `[r̈, ω̇]`).
    fn accelerations(
        &mut self,
        t: f64,
        x: &[f64],
        v: &[f64],
        a: &mut [f64],
    ) -> Result<(), SystemError>;

    /// Position update over a (half-station) velocity:
    /// `x_out = x + h · N(x) v_half` (Chiou eqs 5.5.2.1, 5.5.3.2, 5.5.4.1).
    ///
    /// The default, valid only when `dim_positions == dim_velocities`, is
    /// `x_out = x + h v_half`. A system with Euler parameters overrides it with
    /// `(I − h/2 A(ω)) p⁺ = (I + h/2 A(ω)) p` solved in closed form
    /// (eq 5.5.4.5). `h` may be negative (backward half steps are not used by
    /// this crate, but a caller may integrate backward in time).
    fn advance_positions(
        &mut self,
        x: &[f64],
        v_half: &[f64],
        h: f64,
        x_out: &mut [f64],
    ) -> Result<(), SystemError> {
        if x.len() != v_half.len() {
            return Err(SystemError::new(
                "default advance_positions needs dim_positions == dim_velocities; override it",
            ));
        }
        for i in 0..x.len() {
            x_out[i] = x[i] + h * v_half[i];
        }
        Ok(())
    }

    /// The implicit stage of the two-stage staggered procedure (Chiou sec
    /// 5.5.5): called at every station `t` before the accelerations are
    /// evaluated there, with the positions at that station, the velocities at
    /// the previous station (`u̇ⁿ` in eq 5.5.5.1) and `ϱ = h/2`. A penalty
    /// formulation solves eq 5.5.5.2,
    /// `(εI + ϱ² B M⁻¹ Bᵀ) λ^{n+½} = ε λⁿ + ϱ B u̇ⁿ + ϱ² B M⁻¹ F + ϱ Φ_t`,
    /// for its constraint forces and keeps them for
    /// [`accelerations`](Self::accelerations). At integer stations a system may
    /// instead extrapolate λ from the half stations (step \[11\] of sec 5.5.6).
    /// The default does nothing.
    fn implicit_stage(
        &mut self,
        _t: f64,
        _x: &[f64],
        _v_prev: &[f64],
        _rho: f64,
    ) -> Result<(), SystemError> {
        Ok(())
    }

    /// Optional projection of positions and velocities, called after accepted
    /// steps every `project_every` steps. Return `Ok(true)` if anything changed.
    fn project(&mut self, _t: f64, _x: &mut [f64], _v: &mut [f64]) -> Result<bool, SystemError> {
        Ok(false)
    }
}

/// Receives the solution while an integrator runs.
///
/// * [`step`](Self::step) is called after every accepted step (after the
///   projection, if one was due) with the new state; it can stop the
///   integration by returning `ControlFlow::Break(())` (the integrator then
///   returns `Ok` with [`Info::stopped`] set).
/// * [`sample`](Self::sample) is called once for each requested output time
///   (the `t_out` argument of the integrators), in order, with the
///   dense-output (or interpolated) state.
///
/// For partitioned systems `y` is the concatenation `[x, v]`.
///
/// `()` is an observer that ignores everything.
pub trait Observer {
    /// Called after every accepted step.
    fn step(&mut self, _t: f64, _y: &[f64]) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// Called at each requested output time.
    fn sample(&mut self, _t: f64, _y: &[f64]) {}
    /// Whether the driver should measure the time its output samples take (dense
    /// output and [`Observer::sample`]) and report it to [`Observer::sampling_time`].
    fn times_sampling(&self) -> bool {
        false
    }
    /// Seconds the driver spent on the samples of one step (asked for by
    /// [`Observer::times_sampling`]).
    fn sampling_time(&mut self, _seconds: f64) {}
}

impl Observer for () {}

impl<O: Observer + ?Sized> Observer for &mut O {
    fn step(&mut self, t: f64, y: &[f64]) -> ControlFlow<()> {
        (**self).step(t, y)
    }
    fn sample(&mut self, t: f64, y: &[f64]) {
        (**self).sample(t, y)
    }
    fn times_sampling(&self) -> bool {
        (**self).times_sampling()
    }
    fn sampling_time(&mut self, seconds: f64) {
        (**self).sampling_time(seconds)
    }
}

/// An observer that records the samples at the requested output times (and,
/// if `record_steps` is set, every accepted step) into flat vectors.
#[derive(Debug, Clone, Default)]
pub struct Recorder {
    /// Sample times.
    pub t: Vec<f64>,
    /// Samples, row after row (`y.len() / t.len()` values per sample).
    pub y: Vec<f64>,
    /// Also record every accepted step (default: only requested times).
    pub record_steps: bool,
}

impl Recorder {
    /// A recorder of requested output times only.
    pub fn new() -> Self {
        Self::default()
    }
    /// The `i`-th recorded state.
    pub fn state(&self, i: usize) -> &[f64] {
        let n = self.y.len() / self.t.len().max(1);
        &self.y[i * n..(i + 1) * n]
    }
}

impl Observer for Recorder {
    fn step(&mut self, t: f64, y: &[f64]) -> ControlFlow<()> {
        if self.record_steps {
            self.t.push(t);
            self.y.extend_from_slice(y);
        }
        ControlFlow::Continue(())
    }
    fn sample(&mut self, t: f64, y: &[f64]) {
        if !self.record_steps {
            self.t.push(t);
            self.y.extend_from_slice(y);
        }
    }
}

/// Integration statistics.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Info {
    /// Accepted steps.
    pub accepted_steps: usize,
    /// Rejected steps (error test or Newton failures).
    pub rejected_steps: usize,
    /// Right-hand-side (or acceleration) evaluations, including those spent
    /// on finite-difference Jacobians.
    pub rhs_evals: usize,
    /// Jacobian evaluations (analytic or finite-difference).
    pub jacobian_evals: usize,
    /// LU factorizations of the Newton iteration matrix.
    pub lu_decompositions: usize,
    /// Newton iterations (implicit rules).
    pub newton_iterations: usize,
    /// Calls of the projection hook.
    pub projections: usize,
    /// Calls of the projection hook that changed the state.
    pub projections_applied: usize,
    /// The observer stopped the integration before `t_end`.
    pub stopped: bool,
    /// The explicit Dormand–Prince pairs (RK45, DOP853): Hairer's stiffness test
    /// fired — the step was held by stability ([`crate::stiffness`]). `None` when it
    /// did not, and always for the integrators without the test.
    pub stiffness: Option<crate::StiffnessReport>,
}

/// Absolute tolerance: one value for all components or one per component.
#[derive(Debug, Clone, PartialEq)]
pub enum AbsTol {
    /// Same absolute tolerance for every component.
    Scalar(f64),
    /// One absolute tolerance per component.
    PerComponent(Vec<f64>),
}

impl AbsTol {
    #[inline]
    pub(crate) fn get(&self, i: usize) -> f64 {
        match self {
            AbsTol::Scalar(a) => *a,
            AbsTol::PerComponent(v) => v[i],
        }
    }
    pub(crate) fn validate(&self, n: usize) -> Result<(), crate::Error> {
        match self {
            AbsTol::Scalar(a) if *a >= 0.0 && a.is_finite() => Ok(()),
            AbsTol::PerComponent(v)
                if v.len() == n && v.iter().all(|a| *a >= 0.0 && a.is_finite()) =>
            {
                Ok(())
            }
            _ => Err(crate::Error::InvalidInput(format!(
                "absolute tolerance must be finite, non-negative, scalar or of length {n}"
            ))),
        }
    }
}

impl From<f64> for AbsTol {
    fn from(a: f64) -> Self {
        AbsTol::Scalar(a)
    }
}

impl From<Vec<f64>> for AbsTol {
    fn from(a: Vec<f64>) -> Self {
        AbsTol::PerComponent(a)
    }
}
