//! URDF and MJCF import from Python: `mbs.load("robot.urdf", q0=…, v0=…)`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use mbs::ImportOptions;
use pyo3::prelude::*;

use crate::errors::to_py;

/// A URDF/MJCF file (or any model spec) with initial joint values, as
/// `(model JSON, import report JSON or None)`.
#[pyfunction]
#[pyo3(signature = (spec, q0=None, v0=None, package_path=None, floating_base=false))]
pub fn load_model_with(
    py: Python<'_>,
    spec: &str,
    q0: Option<BTreeMap<String, Vec<f64>>>,
    v0: Option<BTreeMap<String, Vec<f64>>>,
    package_path: Option<Vec<PathBuf>>,
    floating_base: bool,
) -> PyResult<(String, Option<String>)> {
    let options = ImportOptions {
        q0: q0.unwrap_or_default(),
        v0: v0.unwrap_or_default(),
        package_path: package_path.unwrap_or_default(),
        floating_base,
    };
    let loaded = mbs::load_model_with(spec, &options).map_err(|e| to_py(py, e))?;
    // a report of strings and numbers always serializes
    let report = loaded
        .import
        .as_ref()
        .map(|r| serde_json::to_string(r).unwrap_or_default());
    Ok((loaded.model.to_json_string(), report))
}
