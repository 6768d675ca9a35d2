//! Errors of the descriptor-form front-ends: each says when (t), where (the
//! constraint row's joint or the body) and what.

use thiserror::Error;

/// Why a front-end evaluation, projection or step failed.
#[derive(Debug, Error)]
pub enum AlfError {
    /// The mechanics could not be evaluated at this state.
    #[error("t = {t}: evaluation failed: {message}")]
    Evaluation {
        /// Time.
        t: f64,
        /// What failed and where (names the joint or body).
        message: String,
    },
    /// A linear solve failed (singular KKT matrix with redundant constraints, …).
    #[error("t = {t}: {context}: {source}")]
    Linalg {
        /// Time.
        t: f64,
        /// Which system was being solved.
        context: &'static str,
        /// The backend's error.
        #[source]
        source: mbs_linalg::LinalgError,
    },
    /// An iteration (multipliers, projection, Newton) did not converge.
    #[error(
        "t = {t}: {what} did not converge in {iterations} iterations (last change {change:.3e}, largest violation {violation:.3e} in {location})"
    )]
    NotConverged {
        /// Time.
        t: f64,
        /// Which iteration.
        what: &'static str,
        /// Iterations done.
        iterations: usize,
        /// Norm of the last correction.
        change: f64,
        /// Largest constraint violation.
        violation: f64,
        /// The constraint with the largest violation.
        location: String,
    },
    /// A non-finite number appeared.
    #[error("t = {t}: non-finite {quantity} at {location}")]
    NonFinite {
        /// Time.
        t: f64,
        /// What quantity.
        quantity: &'static str,
        /// Which coordinate or constraint.
        location: String,
    },
    /// A non-finite generalized applied force (a force element or load that
    /// overflowed or produced NaN).
    #[error("t = {t}: non-finite applied force: generalized force on {location} is {value}")]
    NonFiniteForce {
        /// Time.
        t: f64,
        /// Which coordinate (body and component).
        location: String,
        /// The value (NaN or ±∞).
        value: f64,
    },
    /// The KKT matrix of the Lagrange formulation is singular because constraint rows
    /// are linearly dependent (redundant constraints or a singular configuration);
    /// the augmented-Lagrangian formulations handle this.
    #[error(
        "t = {t}: the constraint Jacobian has rank {rank} < {rows} rows (redundant constraints or a singular configuration); dependent rows in: {dependent}. Use an augmented-Lagrangian method (alf, alf-index3) or the min-norm Lagrange variant"
    )]
    DependentConstraints {
        /// Time.
        t: f64,
        /// Numerical rank of Φ_q.
        rank: usize,
        /// Number of rows.
        rows: usize,
        /// The constraints whose rows depend on earlier rows.
        dependent: String,
    },
    /// The constraint Jacobian lost rank beyond the model's redundancy (a singular
    /// configuration, where the motion can bifurcate) in a method without
    /// projections, which cannot hold its branch there (see `crate::branch`).
    #[error(
        "t = {t}: singular configuration: the constraint Jacobian has rank {rank} < {rank0} (its rank at the initial state), dependent rows in: {dependent}. `{method}` has no projection to hold the branch of the motion through it; use lagrange-projection or alf-index1"
    )]
    SingularConfiguration {
        /// Time.
        t: f64,
        /// Numerical rank of Φ_q.
        rank: usize,
        /// Rank of Φ_q at the initial state.
        rank0: usize,
        /// The joints whose rows became dependent.
        dependent: String,
        /// The method.
        method: &'static str,
    },
    /// The rank of Φ_q fell because the state left the constraints (‖Φ‖ beyond
    /// [`crate::DRIFT_TOL`] or not finite), not at a singular configuration:
    /// the integration blew up, e.g. an explicit scheme beyond its stability limit.
    #[error(
        "t = {t}: the integration diverged: the state left the constraints, |Φ| = {violation:.3e} at {location} (the rank of Φ_q fell from {rank0} to {rank} with it, which is not a singular configuration). An explicit or fixed-step scheme unstable at this step size grows the error every step: reduce h, or use an implicit or adaptive integrator (trapezoidal, rk45)"
    )]
    Diverged {
        /// Time.
        t: f64,
        /// Largest |Φᵢ| (NaN when not finite).
        violation: f64,
        /// The constraint row of that |Φᵢ|.
        location: String,
        /// Numerical rank of Φ_q.
        rank: usize,
        /// Rank of Φ_q at the initial state.
        rank0: usize,
    },
    /// Chiou's penalty motion left the accuracy asked of it: the penalty motion
    /// differs from the constrained one by Φ = ε (λ − λ⁰) (eq 5.3.1 with the initial
    /// multipliers λ⁰), an O(ε) regularization error that no integrator tolerance
    /// reduces (see [`crate::penalty::PenaltyOde::with_tolerance`]).
    #[error(
        "t = {t}: penalty regularization error: |Φ| = {violation:.3e} at {location} exceeds the accuracy asked, rtol × size = {budget:.3e}. Chiou's penalty forces λ = Φ/ε (eq 5.3.1, ε = {epsilon:.3e}) let the constraints deflect by O(ε) under the changing constraint forces, whatever the integrator's tolerance; use a looser tolerance, the staggered rule, a method with exact constraints (lagrange-projection), or a smaller ε (`epsilon=`; the penalty oscillation √(B M⁻¹ Bᵀ/ε) then needs more, shorter steps)"
    )]
    PenaltyRegularization {
        /// Time.
        t: f64,
        /// Largest |Φᵢ| of the holonomic rows.
        violation: f64,
        /// The joint of that row.
        location: String,
        /// The largest |Φᵢ| allowed.
        budget: f64,
        /// The penalty coefficient ε.
        epsilon: f64,
    },
    /// No consistent initial state near the given one (see `crate::assembly`).
    #[error(
        "t = {t}: inconsistent initial state: {reason}; largest violation {violation:.3e} in {location}. Fix the initial poses or velocities of the bodies at that joint"
    )]
    InconsistentInitialState {
        /// Time.
        t: f64,
        /// Largest violation ‖Φ‖∞ at the state reported.
        violation: f64,
        /// The constraint with the largest violation.
        location: String,
        /// Why no consistent state was accepted.
        reason: String,
    },
    /// Bad parameters.
    #[error("invalid parameter {name} = {value}: {requirement}")]
    InvalidParameter {
        /// Name.
        name: &'static str,
        /// Value.
        value: f64,
        /// Requirement.
        requirement: &'static str,
    },
}

impl AlfError {
    /// The time at which the error occurred, if any.
    pub fn time(&self) -> Option<f64> {
        match self {
            AlfError::Evaluation { t, .. }
            | AlfError::Linalg { t, .. }
            | AlfError::NotConverged { t, .. }
            | AlfError::NonFinite { t, .. }
            | AlfError::NonFiniteForce { t, .. }
            | AlfError::InconsistentInitialState { t, .. }
            | AlfError::DependentConstraints { t, .. }
            | AlfError::SingularConfiguration { t, .. }
            | AlfError::Diverged { t, .. }
            | AlfError::PenaltyRegularization { t, .. } => Some(*t),
            AlfError::InvalidParameter { .. } => None,
        }
    }
}
