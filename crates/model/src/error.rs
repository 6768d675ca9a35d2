//! Errors of model construction, validation and loading. Every variant names the
//! offending element and the offending value.

use thiserror::Error;

/// Why a model is invalid or could not be read.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ModelError {
    /// Mass ≤ 0 or not finite.
    #[error("body `{body}`: mass must be positive and finite, got {mass}")]
    NonPositiveMass {
        /// Body name.
        body: String,
        /// The mass given.
        mass: f64,
    },
    /// Inertia tensor not symmetric positive definite.
    #[error(
        "body `{body}`: inertia must be symmetric positive definite ({reason}), got {inertia:?}"
    )]
    InertiaNotSpd {
        /// Body name.
        body: String,
        /// What failed (asymmetry or the offending eigenvalue).
        reason: String,
        /// The tensor, row by row.
        inertia: [[f64; 3]; 3],
    },
    /// Principal moments of inertia that no rigid body has: every body's principal
    /// moments satisfy the triangle inequality J₁ + J₂ ≥ J₃ (sum of two mass integrals
    /// of squared distances bounds the third).
    #[error(
        "body `{body}`: principal moments of inertia {moments:?} violate the triangle inequality J₁ + J₂ ≥ J₃ (no rigid body has them)"
    )]
    InertiaNotPhysical {
        /// Body name.
        body: String,
        /// Principal moments, ascending.
        moments: [f64; 3],
    },
    /// Two elements of one kind share a name.
    #[error("duplicate {kind} name `{name}`")]
    DuplicateName {
        /// "body", "marker", "joint", "force" or "driver".
        kind: &'static str,
        /// The repeated name.
        name: String,
    },
    /// A reference to an element that does not exist.
    #[error("{element}: refers to unknown {kind} `{name}`")]
    UnknownReference {
        /// The referring element, e.g. "joint `j1`".
        element: String,
        /// "body", "marker" or "joint".
        kind: &'static str,
        /// The name or index that was not found.
        name: String,
    },
    /// An axis or orientation that is zero, non-finite or not a rotation.
    #[error("{element}: invalid axis or orientation ({reason}): {value:?}")]
    InvalidAxis {
        /// The element.
        element: String,
        /// What is wrong.
        reason: String,
        /// The offending numbers.
        value: Vec<f64>,
    },
    /// A joint whose two markers are on the same body.
    #[error("joint `{joint}` connects body `{body}` to itself")]
    SelfJoint {
        /// Joint name.
        joint: String,
        /// The body (or "ground").
        body: String,
    },
    /// A parameter out of its range (negative stiffness, zero radius, axis index > 2…).
    #[error("{element}: {parameter} must be {requirement}, got {value}")]
    InvalidParameter {
        /// The element.
        element: String,
        /// Parameter name.
        parameter: &'static str,
        /// The allowed range in words.
        requirement: &'static str,
        /// The value given.
        value: f64,
    },
    /// A joint kind used where it does not apply (e.g. an angle driver on a spherical
    /// joint, a rolling sphere on a moving plane).
    #[error("{element}: {reason}")]
    Unsupported {
        /// The element.
        element: String,
        /// Why.
        reason: String,
    },
    /// An element that would make the rotation of a point mass matter (a joint axis,
    /// a torque, a marker off its centre, …): a point mass has no rotation.
    #[error("body `{body}` is a point mass and has no rotation: {element} {reason}")]
    PointMassRotation {
        /// The point mass.
        body: String,
        /// The offending element, e.g. "joint `hinge` (revolute)".
        element: String,
        /// What would use the rotation.
        reason: String,
    },
    /// A model file could not be parsed (malformed syntax, a missing or unknown field,
    /// a value of the wrong type).
    #[error("{format} model file{}: {message}", position(*line, *column))]
    Parse {
        /// "JSON" or "TOML".
        format: &'static str,
        /// The parser's message.
        message: String,
        /// 1-based line of the error, where the parser knows it.
        line: Option<usize>,
        /// 1-based column (in characters) of the error, where the parser knows it.
        column: Option<usize>,
    },
    /// A model file could not be read or written.
    #[error("model file `{path}`: {message}")]
    Io {
        /// The path.
        path: String,
        /// What failed ("cannot read: …" or "cannot write: …", with the OS error).
        message: String,
    },
}

/// ", line L, column C" for [`ModelError::Parse`] messages ("" when unknown).
fn position(line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!(", line {l}, column {c}"),
        (Some(l), None) => format!(", line {l}"),
        _ => String::new(),
    }
}
