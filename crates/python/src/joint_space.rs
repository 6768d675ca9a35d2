//! `joint_space_dynamics`: H and C of a tree at its initial state
//! ([`mbs::joint_space_dynamics`], Pinocchio's `crba` and `nle` convention), for
//! comparisons with joint-coordinate codes.

use mbs::{Error, Model};
use pyo3::prelude::*;

use crate::errors::{ModelError, to_py};

/// (one name per quasi-velocity, u, H as rows, C) of model JSON at its initial state;
/// `ModelError` for an invalid model or one that is not a tree with joint coordinates.
#[pyfunction]
pub fn joint_space_dynamics(
    py: Python<'_>,
    model_json: &str,
) -> PyResult<(Vec<String>, Vec<f64>, Vec<Vec<f64>>, Vec<f64>)> {
    let model = Model::from_json_str(model_json).map_err(|e| to_py(py, Error::from(e)))?;
    let js = py
        .detach(|| mbs::joint_space_dynamics(&model))
        .map_err(|e| ModelError::new_err(e.to_string()))?;
    let h = &js.mass_matrix;
    let rows = (0..h.nrows())
        .map(|i| h.row(i).iter().copied().collect())
        .collect();
    Ok((
        js.dof_names,
        js.u.as_slice().to_vec(),
        rows,
        js.bias.as_slice().to_vec(),
    ))
}
