//! Error types: [`SystemError`] (raised by a system's callbacks) and [`Error`]
//! (raised by an integrator, always with the time at which it happened).

use std::fmt;

/// An error raised by a system callback (right-hand side, Jacobian, projection,
/// accelerations, position update).
///
/// It carries a human-readable message (a front-end says which joint or body
/// failed) and optionally the underlying error.
#[derive(Debug)]
pub struct SystemError {
    message: String,
    source: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
}

impl SystemError {
    /// An error with a message only.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            source: None,
        }
    }

    /// An error with a message and the error that caused it.
    pub fn with_source(
        message: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        Self {
            message: message.into(),
            source: Some(Box::new(source)),
        }
    }

    /// The message given at construction.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for SystemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SystemError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// Why an integration stopped early.
///
/// Every variant carries the time `t` of the last accepted state (or, for
/// [`Error::System`], the time at which the system was being evaluated). The
/// last accepted state itself stays available from the integrator
/// (`t()`/`y()` accessors) and its statistics from `info()`, so that a caller
/// can write the partial trajectory.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The step size fell below `16 ε |t|` (MATLAB's `hmin`).
    #[error("step size underflow at t = {t}: |h| = {h:e} is below the minimum {h_min:e}")]
    StepSizeUnderflow {
        /// time of the last accepted state
        t: f64,
        /// step size that was rejected
        h: f64,
        /// smallest admissible step size at `t`
        h_min: f64,
    },
    /// The maximum number of steps (`Params::max_steps`) was reached.
    #[error("too many steps: {max_steps} steps taken, stopped at t = {t}")]
    TooManySteps {
        /// time of the last accepted state
        t: f64,
        /// the limit that was reached
        max_steps: usize,
    },
    /// The state or its derivative contains NaN or an infinity.
    #[error("non-finite state or derivative at t = {t}")]
    NonFinite {
        /// time at which the non-finite value appeared
        t: f64,
    },
    /// Newton's method did not converge for an implicit step (after the
    /// allowed Jacobian refreshes).
    #[error(
        "Newton iteration failed at t = {t} with h = {h:e}: {iterations} iterations, last correction {correction:e}"
    )]
    NewtonFailure {
        /// start time of the step
        t: f64,
        /// step size
        h: f64,
        /// iterations done in the last attempt
        iterations: usize,
        /// scaled norm of the last Newton correction
        correction: f64,
    },
    /// The iteration matrix `I − (h/2) J` is singular.
    #[error("singular Newton iteration matrix at t = {t} (h = {h:e})")]
    SingularMatrix {
        /// start time of the step
        t: f64,
        /// step size
        h: f64,
    },
    /// A system callback failed.
    #[error("system error at t = {t}: {source}")]
    System {
        /// time passed to the failing callback
        t: f64,
        /// what the system reported
        #[source]
        source: SystemError,
    },
    /// Invalid input (dimension mismatch, non-positive tolerance, zero step …).
    #[error("invalid input: {0}")]
    InvalidInput(String),
}

impl Error {
    /// Wrap a [`SystemError`] raised at time `t`.
    pub fn system(t: f64, source: SystemError) -> Self {
        Error::System { t, source }
    }
}

/// Shorthand used inside the crate: map a system result to an integrator error.
pub(crate) trait AtTime<T> {
    fn at(self, t: f64) -> Result<T, Error>;
}

impl<T> AtTime<T> for Result<T, SystemError> {
    #[inline]
    fn at(self, t: f64) -> Result<T, Error> {
        self.map_err(|e| Error::system(t, e))
    }
}
