//! Errors of ALF-DCA: each names the time, the body or joint concerned and what failed.

use mbs_constraints::ConstraintError;

/// An error of an ALF-DCA evaluation or projection.
#[derive(Debug, thiserror::Error)]
pub enum DcaError {
    /// Evaluating the constraint blocks or forces failed.
    #[error("t = {t}: evaluating the constraints failed: {source}")]
    Constraints {
        /// Time.
        t: f64,
        /// The underlying error.
        source: ConstraintError,
    },
    /// A condensed matrix of a sub-assembly is not positive definite (a body without
    /// mass, or non-finite data).
    #[error("t = {t}: {what} of the sub-assembly of bodies {bodies} is not positive definite")]
    NotPositiveDefinite {
        /// Time.
        t: f64,
        /// The bodies of the node (names).
        bodies: String,
        /// Which matrix.
        what: &'static str,
    },
    /// A computed quantity is not finite.
    #[error("t = {t}: {quantity} of body `{body}` is not finite")]
    NonFinite {
        /// Time.
        t: f64,
        /// What.
        quantity: &'static str,
        /// The body name.
        body: String,
    },
    /// A vector has the wrong length.
    #[error("{what}: expected length {expected}, got {got}")]
    Dimension {
        /// What.
        what: &'static str,
        /// Expected length.
        expected: usize,
        /// Actual length.
        got: usize,
    },
}
