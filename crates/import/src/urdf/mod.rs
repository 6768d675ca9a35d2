//! URDF parsing into a [`LinkGraph`].

use std::path::Path;

use crate::{ImportError, ImportOptions, LinkGraph};

/// Parses the URDF file at `path` into a link graph.
pub fn parse(path: &Path, options: &ImportOptions) -> Result<LinkGraph, ImportError> {
    let _ = options;
    Err(ImportError::Unsupported {
        element: path.display().to_string(),
        reason: "URDF import is not implemented yet".into(),
    })
}
