//! Errors of an import. Every message names the file element and the value.

use std::path::PathBuf;

/// Why a URDF or MJCF file could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file could not be read.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The file is not well-formed XML or not the expected format.
    #[error("{path}: {message}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// Parser message with line and column where known.
        message: String,
    },
    /// An attribute or element value is out of range or malformed.
    #[error("{element}: {attribute} = {value} {requirement}")]
    InvalidValue {
        /// The element, e.g. "link `forearm`".
        element: String,
        /// The attribute, e.g. "inertial mass".
        attribute: String,
        /// The value as written.
        value: String,
        /// What it must satisfy, e.g. "must be ≥ 0".
        requirement: String,
    },
    /// A reference to an element that does not exist.
    #[error("{element} refers to {target}, which does not exist")]
    Missing {
        /// The referring element.
        element: String,
        /// The missing target, e.g. "parent link `base`".
        target: String,
    },
    /// Something mbs cannot represent (named, with the reason and what to do).
    #[error("{element}: {reason}")]
    Unsupported {
        /// The element.
        element: String,
        /// Why, and what would work.
        reason: String,
    },
    /// The model built from the file is not valid (names the element).
    #[error(transparent)]
    Model(#[from] mbs_model::ModelError),
}
