//! Errors of the complement front-ends. Every variant carries the time and names
//! the body, joint or method involved.

use mbs_constraints::ConstraintError;
use mbs_kinematics::EulerSequence;
use mbs_linalg::LinalgError;

/// Why a complement or natural-partitioning evaluation failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ComplementError {
    /// Invalid parameters (caught at construction).
    #[error("invalid parameters: {0}")]
    InvalidParams(String),
    /// The constraint or force evaluation of `mbs-constraints` failed.
    #[error("t = {t}: evaluation failed: {source}")]
    Evaluation {
        /// Time.
        t: f64,
        /// The underlying error (it names the body or joint).
        source: ConstraintError,
    },
    /// A null-space method of `mbs-linalg` failed.
    #[error("t = {t}: null space by {method} failed: {source}")]
    NullSpace {
        /// Time.
        t: f64,
        /// Method name.
        method: &'static str,
        /// The underlying error.
        source: LinalgError,
    },
    /// The reduced mass matrix PᵀMP (or M for Wang–Huston) is not positive
    /// definite: the mass matrix is singular on the admissible motions.
    #[error(
        "t = {t}: {what} of {method} is not positive definite (rank of Φ_q {rank}); the mass matrix is singular on the admissible motions"
    )]
    SingularMass {
        /// Time.
        t: f64,
        /// Which matrix ("PᵀMP", "M").
        what: &'static str,
        /// Method name.
        method: &'static str,
        /// Numerical rank of Φ_q at that time.
        rank: usize,
    },
    /// Euler angles at (or too close to) their singular orientation.
    #[error(
        "t = {t}: body `{body}`: gimbal lock of the {sequence} Euler angles (singular factor {factor:e} below {tol:e})"
    )]
    GimbalLock {
        /// Time.
        t: f64,
        /// Body name.
        body: String,
        /// The sequence.
        sequence: EulerSequence,
        /// |sin β| or |cos β|.
        factor: f64,
        /// The tolerance.
        tol: f64,
    },
    /// Euler angles: between two accepted steps the singular factor (sin β or
    /// cos β) of a body changed sign, i.e. the motion passed through gimbal lock.
    #[error(
        "t = {t}: body `{body}`: the {sequence} Euler angles passed through gimbal lock between two steps (singular factor {before:e} → {after:e})"
    )]
    GimbalLockCrossed {
        /// Time of the step that crossed.
        t: f64,
        /// Body name.
        body: String,
        /// The sequence.
        sequence: EulerSequence,
        /// Factor at the previous step.
        before: f64,
        /// Factor at this step.
        after: f64,
    },
    /// Natural partitioning: a tree joint lost rank on its child body, so its
    /// dependent velocities cannot be chosen (eq 5.4.1.5 needs |B^d| ≠ 0).
    #[error(
        "t = {t}: joint `{joint}`: rank loss on body `{body}` (rank {rank} of {rows} rows, pivot {pivot:e}); natural partitioning cannot handle it"
    )]
    RankLoss {
        /// Time.
        t: f64,
        /// Joint name.
        joint: String,
        /// Child body name.
        body: String,
        /// Rank found.
        rank: usize,
        /// Rows of the joint.
        rows: usize,
        /// Smallest pivot relative to the block's largest entry.
        pivot: f64,
    },
    /// Natural partitioning: no row of the cut joints is independent of the open
    /// tree's rows at the initial state (e.g. a joint given twice): their Jacobian
    /// on the tree's motions `K = B_c A` is zero.
    #[error(
        "t = {t}: natural partitioning: no constraint row of {joints} (cut from the spanning tree) is independent of the open tree's joints at the initial state (a joint that repeats another, e.g. the same joint given twice; `mbs check` lists the redundant rows): remove the duplicate, or use a method that accepts redundant constraints (alf, complement-svd)"
    )]
    RedundantCutJoints {
        /// Time (the initial state).
        t: f64,
        /// The cut joints, comma separated.
        joints: String,
    },
    /// The motion reached or passed through a configuration where `Φ_q` loses rank
    /// (Pękal–Frączek eq 3.3 needs `X = [Φ_q; B]` non-singular): the null-space
    /// basis is discontinuous there and the motion may continue on another branch.
    #[error(
        "t = {t}: {method}: the null-space basis is discontinuous at a singular configuration: rank of Φ_q dropped from {rank} to {rank_after} {when} (rows of joints {joints}); the orthogonal-complement reduction cannot follow the motion through it"
    )]
    SingularConfiguration {
        /// Time of the accepted step that detected it.
        t: f64,
        /// Method name.
        method: &'static str,
        /// Rank of `Φ_q` on the regular motion.
        rank: usize,
        /// Rank at (or through) the singular configuration.
        rank_after: usize,
        /// "between t = … and t = …" or "at t = …".
        when: String,
        /// The constraints (joints) whose rows became dependent.
        joints: String,
    },
    /// The computed accelerations violate `Φ_q q̈ = Γ̄` (eq 2.2) far beyond
    /// round-off: the method's null space or particular solution is unreliable,
    /// because `Φ_q` is (nearly) singular here.
    #[error(
        "t = {t}: {method}: the accelerations violate Φ_q q̈ = Γ by {residual:e} (relative): Φ_q is nearly singular here, at a singular configuration (rows of joints {joints}) and the null-space basis is unreliable; the orthogonal-complement reduction cannot follow the motion through it"
    )]
    InaccurateAccelerations {
        /// Time.
        t: f64,
        /// Method name.
        method: &'static str,
        /// max|Φ_q q̈ − Γ̄| / (max|Γ̄| + max|Φ_q| max|q̈|).
        residual: f64,
        /// The constraints whose rows became (nearly) dependent.
        joints: String,
    },
    /// Newton–Raphson position correction did not reach its tolerance.
    #[error(
        "t = {t}: Newton–Raphson correction did not converge: ‖Φ‖ = {residual:e} > {tol:e} after {iterations} iterations (largest residual at {location})"
    )]
    NewtonNotConverged {
        /// Time.
        t: f64,
        /// Final ‖Φ‖₂.
        residual: f64,
        /// Tolerance.
        tol: f64,
        /// Iterations done.
        iterations: usize,
        /// Constraint with the largest residual.
        location: String,
    },
    /// A computed quantity is NaN or infinite.
    #[error("t = {t}: non-finite {quantity} at {location}")]
    NonFinite {
        /// Time.
        t: f64,
        /// What was computed.
        quantity: &'static str,
        /// Body/coordinate.
        location: String,
    },
    /// A buffer of the wrong length.
    #[error("{what}: expected length {expected}, got {got}")]
    Dimension {
        /// Which buffer.
        what: &'static str,
        /// Expected length.
        expected: usize,
        /// Given length.
        got: usize,
    },
}

impl ComplementError {
    /// Time of the failure, where there is one.
    pub fn time(&self) -> Option<f64> {
        match self {
            ComplementError::Evaluation { t, .. }
            | ComplementError::NullSpace { t, .. }
            | ComplementError::SingularMass { t, .. }
            | ComplementError::GimbalLock { t, .. }
            | ComplementError::GimbalLockCrossed { t, .. }
            | ComplementError::RankLoss { t, .. }
            | ComplementError::SingularConfiguration { t, .. }
            | ComplementError::RedundantCutJoints { t, .. }
            | ComplementError::InaccurateAccelerations { t, .. }
            | ComplementError::NewtonNotConverged { t, .. }
            | ComplementError::NonFinite { t, .. } => Some(*t),
            _ => None,
        }
    }
}

pub(crate) fn check_len(
    what: &'static str,
    expected: usize,
    got: usize,
) -> Result<(), ComplementError> {
    if expected == got {
        Ok(())
    } else {
        Err(ComplementError::Dimension {
            what,
            expected,
            got,
        })
    }
}
