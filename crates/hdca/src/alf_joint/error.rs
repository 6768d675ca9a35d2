//! Errors of `alf-joint`, naming the joint and the value.

use thiserror::Error;

use crate::aba::AbaError;
use crate::error::HdcaError;

/// What can go wrong when building or evaluating a [`crate::JointAlf`].
#[derive(Debug, Error, Clone, PartialEq)]
pub enum JointAlfError {
    /// The spanning tree cannot be built or evaluated (joints without joint
    /// coordinates, drivers, loads, an inconsistent state).
    #[error("{0}")]
    Tree(#[from] AbaError),
    /// The leading matrix H + αΦ_qᵀΦ_q is not positive definite (a body without
    /// mass or inertia in some direction the tree moves).
    #[error(
        "t = {t}: the joint-space matrix H + αΦ_qᵀΦ_q is not positive definite at column {column} ({place}): a tree direction without mass or inertia"
    )]
    NotPositiveDefinite {
        /// Time.
        t: f64,
        /// The column (quasi-velocity index).
        column: usize,
        /// The joint owning it.
        place: String,
    },
    /// The mass-orthogonal position projection did not close the loops.
    #[error(
        "t = {t}: the position projection left the loop-closure residual {residual:e} at joint '{joint}' after {iterations} iterations (tolerance {tol:e}): the loops cannot be closed near this configuration"
    )]
    ProjectionFailed {
        /// Time.
        t: f64,
        /// The cut joint with the largest residual.
        joint: String,
        /// Its residual ‖Φ‖∞.
        residual: f64,
        /// Iterations taken.
        iterations: usize,
        /// The tolerance.
        tol: f64,
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
    /// A cut joint's equations are undefined at the state.
    #[error("t = {t}: cut joint '{joint}': {message}")]
    Closure {
        /// Time.
        t: f64,
        /// The cut joint.
        joint: String,
        /// What the constraint library said.
        message: String,
    },
    /// An invalid parameter.
    #[error("parameter {name} = {value}: {requirement}")]
    InvalidParameter {
        /// Its name.
        name: &'static str,
        /// Its value.
        value: f64,
        /// What it must be.
        requirement: &'static str,
    },
}

impl From<HdcaError> for JointAlfError {
    fn from(e: HdcaError) -> Self {
        Self::Tree(AbaError::Joints(e))
    }
}
