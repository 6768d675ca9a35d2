//! The facade's error type. Every message names the element and the value; the CLI maps
//! each variant to an exit code with [`Error::exit_code`] (2: bad input, 1: a failed
//! simulation or output).

use thiserror::Error;

use crate::frontend::FrontEndError;
use crate::trajectory::Trajectory;

/// Why a facade operation failed.
#[derive(Debug, Error)]
pub enum Error {
    /// The model (built-in or file) is invalid or could not be read.
    #[error("model: {0}")]
    Model(#[from] mbs_model::ModelError),
    /// A URDF or MJCF file that could not be imported (names the element and value).
    #[error("import: {0}")]
    Import(Box<mbs_import::ImportError>),
    /// A model name that is neither a built-in mechanism nor an existing file.
    #[error("unknown mechanism `{name}` (and no such file); built-in mechanisms: {valid}")]
    UnknownMechanism {
        /// The name given.
        name: String,
        /// The built-in names, comma separated.
        valid: String,
    },
    /// A method name that does not exist.
    #[error("unknown method `{name}`; valid methods: {valid}")]
    UnknownMethod {
        /// The name given.
        name: String,
        /// The valid names, comma separated.
        valid: String,
    },
    /// An integrator name that does not exist.
    #[error("unknown integrator `{name}`; valid integrators: {valid}")]
    UnknownIntegrator {
        /// The name given.
        name: String,
        /// The valid names, comma separated.
        valid: String,
    },
    /// A parameter of a method, an integrator or the run that is out of range or
    /// cannot be parsed.
    #[error("{element}: parameter `{parameter}` {requirement}, got `{value}`")]
    InvalidParameter {
        /// The method, integrator or setting the parameter belongs to.
        element: String,
        /// Parameter name.
        parameter: String,
        /// What is allowed, in words.
        requirement: String,
        /// The value given.
        value: String,
    },
    /// The method's front-end does not exist yet.
    #[error("method `{method}` is not implemented yet ({reason})")]
    NotImplemented {
        /// The method name.
        method: String,
        /// Which crate or feature is missing.
        reason: String,
    },
    /// The front-end rejected the settings before running (e.g. an integrator it does
    /// not support).
    #[error("method `{method}`: {message}")]
    Unsupported {
        /// The method name.
        method: String,
        /// Why.
        message: String,
    },
    /// The initial state violates the constraints and no consistent state was found
    /// near it (the message names the worst joint and its violation).
    #[error("{0}")]
    InconsistentInitialState(String),
    /// The simulation started but failed; the samples computed before the failure are
    /// in the failure's trajectory and can still be written.
    #[error("simulation failed: {}", .0.error)]
    SimulationFailed(Box<SimulationFailure>),
    /// The run was stopped from outside (a signal or [`crate::StopHandle::request`]);
    /// the trajectory holds every sample up to the time it reached.
    #[error("simulation interrupted by {reason} at t = {}", crate::sci(trajectory.t_reached().unwrap_or(f64::NAN)))]
    Interrupted {
        /// What stopped it.
        reason: crate::stop::StopReason,
        /// The samples recorded before it stopped (status `interrupted`).
        trajectory: Box<Trajectory>,
    },
    /// The output directory cannot be used; found before any work is done.
    #[error("output directory `{path}`: {message}")]
    OutputDir {
        /// The directory given.
        path: String,
        /// Why it cannot be used, and what to do.
        message: String,
    },
    /// Writing an output file failed.
    #[error("cannot write `{path}`: {message}")]
    Output {
        /// The file.
        path: String,
        /// The OS or encoder error.
        message: String,
    },
}

/// A failed simulation: what went wrong and the trajectory up to that point.
#[derive(Debug)]
pub struct SimulationFailure {
    /// When, where and what.
    pub error: FrontEndError,
    /// The samples recorded before the failure (with derived quantities).
    pub trajectory: Trajectory,
}

impl From<mbs_import::ImportError> for Error {
    fn from(e: mbs_import::ImportError) -> Self {
        Error::Import(Box::new(e))
    }
}

impl Error {
    /// The CLI exit code for this error: 1 for a simulation that failed or output that
    /// could not be written, 2 for bad input (model, method, integrator, parameters,
    /// a method that is not implemented, an unusable output directory), 128 + the
    /// signal number for an interrupted run (130 SIGINT, 143 SIGTERM).
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::SimulationFailed(_) | Error::Output { .. } => 1,
            Error::Interrupted { reason, .. } => reason.exit_code(),
            _ => 2,
        }
    }

    /// The partial trajectory of a failed simulation.
    pub fn partial_trajectory(&self) -> Option<&Trajectory> {
        match self {
            Error::SimulationFailed(f) => Some(&f.trajectory),
            Error::Interrupted { trajectory, .. } => Some(trajectory),
            _ => None,
        }
    }

    pub(crate) fn output(path: &std::path::Path, message: impl std::fmt::Display) -> Self {
        Error::Output {
            path: path.display().to_string(),
            message: message.to_string(),
        }
    }

    pub(crate) fn output_dir(path: &std::path::Path, message: impl std::fmt::Display) -> Self {
        Error::OutputDir {
            path: path.display().to_string(),
            message: message.to_string(),
        }
    }

    pub(crate) fn param(
        element: impl Into<String>,
        parameter: impl Into<String>,
        requirement: impl Into<String>,
        value: impl std::fmt::Display,
    ) -> Self {
        Error::InvalidParameter {
            element: element.into(),
            parameter: parameter.into(),
            requirement: requirement.into(),
            value: value.to_string(),
        }
    }
}
