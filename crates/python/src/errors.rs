//! The facade's [`mbs::Error`] as a Python exception of `mbs._errors` (defined in
//! Python, so that `SimulationError` can carry its time and partial trajectory). The
//! message is the error's `Display`, the text the CLI prints after `error: `.

use mbs::Error;
use pyo3::prelude::*;

pyo3::import_exception!(mbs._errors, MbsError);
pyo3::import_exception!(mbs._errors, ModelError);
pyo3::import_exception!(mbs._errors, MethodError);
pyo3::import_exception!(mbs._errors, SimulationError);

/// The Python exception for `e`:
/// - `ModelError`: an invalid or unreadable model, an unknown mechanism, an initial
///   state with no consistent state nearby (CLI exit code 2);
/// - `MethodError`: an unknown method or integrator, a parameter out of range (of the
///   method, the integrator or the run), a method that cannot run the model (exit 2);
/// - `SimulationError(message, t, location, reason, partial)`: a run that started and
///   failed, with the samples before the failure (exit code 1);
/// - `MbsError` otherwise (an output file that could not be written).
pub fn to_py(py: Python<'_>, e: Error) -> PyErr {
    let message = e.to_string();
    match e {
        Error::Model(_)
        | Error::Import(_)
        | Error::UnknownMechanism { .. }
        | Error::InconsistentInitialState(_) => {
            ModelError::new_err(message)
        }
        Error::UnknownMethod { .. }
        | Error::UnknownIntegrator { .. }
        | Error::InvalidParameter { .. }
        | Error::NotImplemented { .. }
        | Error::Unsupported { .. } => MethodError::new_err(message),
        Error::SimulationFailed(f) => {
            let partial = match crate::raw::trajectory(py, &f.trajectory) {
                Ok(d) => d.into_any().unbind(),
                Err(e) => return e,
            };
            SimulationError::new_err((
                message,
                f.error.t,
                f.error.location.clone(),
                f.error.message.clone(),
                partial,
            ))
        }
        _ => MbsError::new_err(message),
    }
}
