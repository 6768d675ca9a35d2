//! Errors of constraint evaluation. Every variant names the offending element (body,
//! joint, custom constraint, buffer) and the offending value; no function of this crate
//! panics on bad input.

use mbs_model::Layout;
use thiserror::Error;

/// Why a constraint, mass or force evaluation could not be carried out.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ConstraintError {
    /// A position, orientation or velocity of a body is NaN or infinite.
    #[error("body `{body}`: non-finite {quantity} component {component} = {value}")]
    NonFiniteState {
        /// Body name.
        body: String,
        /// "position", "Euler parameters", "velocity" or "angular velocity".
        quantity: &'static str,
        /// Component index within the quantity.
        component: usize,
        /// The value found.
        value: f64,
    },
    /// Euler parameters of (nearly) zero length: the orientation is undefined.
    #[error("body `{body}`: Euler parameters have length {norm:e}, the orientation is undefined")]
    DegenerateEulerParams {
        /// Body name.
        body: String,
        /// ‖p‖.
        norm: f64,
    },
    /// A joint whose equations are undefined at the state (a rolling disc lying flat
    /// on its plane).
    #[error("joint `{joint}`: {reason} ({quantity} = {value:e})")]
    DegenerateJoint {
        /// Joint name.
        joint: String,
        /// Why the equations are undefined.
        reason: &'static str,
        /// The quantity that is out of range.
        quantity: &'static str,
        /// Its value.
        value: f64,
    },
    /// The state's time is NaN or infinite.
    #[error("state time is not finite: {t}")]
    NonFiniteTime {
        /// The time.
        t: f64,
    },
    /// The state has another layout than the assembly it is evaluated with.
    #[error("state layout {got:?} does not match the assembly layout {expected:?}")]
    LayoutMismatch {
        /// Layout of the assembly.
        expected: Layout,
        /// Layout of the state.
        got: Layout,
    },
    /// A vector, slice or matrix of the wrong size.
    #[error("{what}: expected size {expected}, got {got}")]
    DimensionMismatch {
        /// Which buffer.
        what: &'static str,
        /// Required size.
        expected: usize,
        /// Size given.
        got: usize,
    },
    /// A custom constraint that declares an unsupported shape.
    #[error("custom constraint #{index} `{name}`: {reason}")]
    InvalidCustom {
        /// Index in the list of custom constraints.
        index: usize,
        /// Its name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// A custom constraint returned non-finite values.
    #[error("custom constraint #{index} `{name}`: non-finite {what} in row {row}")]
    NonFiniteCustom {
        /// Index in the list of custom constraints.
        index: usize,
        /// Its name.
        name: String,
        /// "phi", "Jacobian", "phi_t" or "gamma".
        what: &'static str,
        /// Row within the constraint.
        row: usize,
    },
    /// An analysis would hold more entries than allowed (the caller's memory limit).
    #[error(
        "{what} ({rows} rows × {columns} columns): its storage passed {entries} entries of 8 bytes, the limit is {limit}"
    )]
    StorageLimit {
        /// The computation.
        what: &'static str,
        /// Rows of the matrix.
        rows: usize,
        /// Columns of the matrix.
        columns: usize,
        /// Entries held when the limit was passed.
        entries: usize,
        /// The limit.
        limit: usize,
    },
}
