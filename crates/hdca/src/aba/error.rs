//! Errors of the ABA front-end, naming the joint, driver or body and what went wrong.

use thiserror::Error;

use crate::error::HdcaError;

/// What can go wrong when building or evaluating an [`crate::Aba`].
#[derive(Debug, Error, Clone, PartialEq)]
pub enum AbaError {
    /// The model has a closed loop: the spanning tree cut this joint.
    #[error(
        "joint '{joint}' ({kind}) closes a loop (it is a cut joint of the spanning tree): the articulated-body algorithm handles open trees only; use `alf-joint` (small loops), `hdca` or `alf-dca-proj` for closed loops"
    )]
    ClosedLoop {
        /// The cut joint's name.
        joint: String,
        /// Its kind label.
        kind: &'static str,
    },
    /// A joint without joint coordinates in the catalogue (rolling, curved paths).
    #[error(
        "joint '{joint}' ({kind}): {why}; the joint-coordinate methods (`aba`, `alf-joint`) need joint coordinates for every joint (use an absolute-coordinate method such as `alf-index1`)"
    )]
    NoJointCoordinates {
        /// The joint's name.
        joint: String,
        /// Its kind label.
        kind: &'static str,
        /// Why the catalogue has no joint coordinates for it.
        why: &'static str,
    },
    /// Drivers (rheonomic rows) are not supported.
    #[error(
        "driver '{driver}' is not supported by the joint-coordinate methods (`aba`, `alf-joint`): a driver prescribes a coordinate as a function of time, which removes a freedom from the tree; model the motion with a joint and an applied torque or force, or use an absolute-coordinate front-end (`alf-index1`, `alf-dca-proj`, Lagrange)"
    )]
    Driver {
        /// Driver name.
        driver: String,
    },
    /// The joint-space inertia D = Hᵀ Iᴬ H of a joint is not positive definite.
    #[error(
        "t = {t}: joint '{joint}': articulated joint-space inertia Hᵀ Iᴬ H is not positive definite"
    )]
    SingularJointInertia {
        /// Time.
        t: f64,
        /// The joint (or "free joint of body `x`" for a free-floating root).
        joint: String,
    },
    /// A non-finite value during an evaluation.
    #[error("t = {t}: non-finite {what} at {place}")]
    NonFinite {
        /// Time.
        t: f64,
        /// The body and joint owning the state component.
        place: String,
        /// Quantity.
        what: &'static str,
    },
    /// An error of the joint-coordinate machinery shared with HDCA (unsupported
    /// joint kind, inconsistent initial state, loads, dimensions).
    #[error("{0}")]
    Joints(#[from] HdcaError),
}
