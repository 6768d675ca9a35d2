//! Why a model is not planar: every variant names the element and the value.

use thiserror::Error;

/// A model the planar front-end cannot represent exactly.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum PlanarError {
    /// A quantity that must lie in (or be normal to) the x–y plane does not.
    #[error("{element}: not planar: {reason}, got {value:?}")]
    NotPlanar {
        /// The element, e.g. "joint `hinge` marker i z axis".
        element: String,
        /// What the planar mode needs.
        reason: String,
        /// The offending numbers.
        value: Vec<f64>,
    },
    /// An element kind the planar mode has no in-plane equations for.
    #[error("{element}: {reason}")]
    Unsupported {
        /// The element.
        element: String,
        /// Why.
        reason: String,
    },
}

impl PlanarError {
    pub(crate) fn not_planar(element: impl Into<String>, reason: &str, value: &[f64]) -> Self {
        Self::NotPlanar {
            element: element.into(),
            reason: reason.to_string(),
            value: value.to_vec(),
        }
    }
}
