//! `mbs._mbs`: the Rust half of the `mbs` Python package (PyO3).
//!
//! It binds the facade's public API only — [`mbs::load_model`], [`mbs::Model`]'s JSON
//! form (`crates/model/SCHEMA.md`), `"…".parse::<mbs::Method>()`,
//! [`mbs::IntegratorChoice`], [`mbs::Simulation`] and [`mbs::Trajectory`] — and leaves
//! everything a Python user touches (the `Model` editor, the `Trajectory` with NumPy
//! arrays, the exceptions, `sweep`) to the pure-Python package in `python/mbs`.
//!
//! Models cross the boundary as JSON text (exact: numbers are written in the shortest
//! form that reads back to the same `f64`), trajectories as a dict of raw native-endian
//! `f64` buffers that NumPy wraps without conversion ([`raw`]), so a trajectory in
//! Python holds the very bits the CLI writes. Simulations run with the GIL released
//! ([`run`]).

mod errors;
mod import;
mod joint_space;
mod raw;
mod run;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _mbs(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run::simulate, m)?)?;
    m.add_function(wrap_pyfunction!(run::load_model, m)?)?;
    m.add_function(wrap_pyfunction!(import::load_model_with, m)?)?;
    m.add_function(wrap_pyfunction!(run::validate_model, m)?)?;
    m.add_function(wrap_pyfunction!(run::check_model, m)?)?;
    m.add_function(wrap_pyfunction!(run::parse_method, m)?)?;
    m.add_function(wrap_pyfunction!(run::parse_integrator, m)?)?;
    m.add_function(wrap_pyfunction!(run::builtins, m)?)?;
    m.add_function(wrap_pyfunction!(run::methods, m)?)?;
    m.add_function(wrap_pyfunction!(run::integrators, m)?)?;
    m.add_function(wrap_pyfunction!(joint_space::joint_space_dynamics, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
