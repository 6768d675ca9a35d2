//! Errors of the HDCA front-end, naming time, joint or body and what went wrong.

use thiserror::Error;

/// What can go wrong when building or evaluating an [`crate::Hdca`].
#[derive(Debug, Error, Clone, PartialEq)]
pub enum HdcaError {
    /// A joint kind this front-end does not implement.
    #[error("joint '{joint}': kind '{kind}' is not supported by HDCA ({why})")]
    UnsupportedJoint {
        /// Joint name.
        joint: String,
        /// Joint kind label.
        kind: &'static str,
        /// Why (tree or cut position, or kind).
        why: &'static str,
    },
    /// Drivers (rheonomic constraints) are not supported.
    #[error("driver '{driver}' is not supported by HDCA: {why}")]
    UnsupportedDriver {
        /// Driver name.
        driver: String,
        /// Why (the formulation's reason).
        why: &'static str,
    },
    /// An absolute state that the joint coordinates and momenta cannot represent:
    /// it violates a joint (HDCA keeps tree joints by construction and cut joints at
    /// the velocity level only, so it cannot start off the constraint manifold).
    #[error(
        "t = {t}: the state violates {place}: {what} {value:.3e} (tolerance {tol:.1e}); HDCA integrates joint coordinates and momenta and cannot start from a state off the constraints (assemble it first)"
    )]
    InconsistentState {
        /// Time of the state.
        t: f64,
        /// The joint (or body) and its kind, e.g. "joint `pivot` (revolute)".
        place: String,
        /// Which residual: position, velocity, or the pose rebuilt from the joint
        /// coordinates.
        what: &'static str,
        /// Its magnitude.
        value: f64,
        /// The tolerance it exceeds.
        tol: f64,
    },
    /// A state vector of the wrong length.
    #[error("state vector has length {got}, expected {expected}")]
    Dimension {
        /// Expected length.
        expected: usize,
        /// Actual length.
        got: usize,
    },
    /// A non-finite value during an evaluation.
    #[error("t = {t}: non-finite {what} at {place}")]
    NonFinite {
        /// Time.
        t: f64,
        /// Where: the body, and the joint whose coordinates or momenta went
        /// non-finite when known (e.g. "body `link2` (joint `j2`)").
        place: String,
        /// Quantity.
        what: &'static str,
    },
    /// Evaluation of the applied loads failed.
    #[error("t = {t}: applied loads: {message}")]
    Loads {
        /// Time.
        t: f64,
        /// Message of the constraints crate.
        message: String,
    },
    /// A singular body inertia.
    #[error("body '{body}': spatial inertia is not positive definite")]
    SingularInertia {
        /// Body name.
        body: String,
    },
    /// Integration failure while producing a report.
    #[error("integration failed: {0}")]
    Integration(String),
}
