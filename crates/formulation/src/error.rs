//! The error of a formulation: what kind, when, where, what, and the statistics up to
//! it.

use std::fmt;

use crate::sample::RunStats;

/// What kind of failure a [`FormulationError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormulationErrorKind {
    /// The formulation or the requested feature does not exist (CLI exit code 2).
    NotImplemented,
    /// The settings or the model are invalid for this formulation (CLI exit code 2).
    InvalidInput,
    /// The simulation failed while running (CLI exit code 1).
    Failed,
}

/// A formulation failure: when (`t`), where (a joint or body name) and what. The
/// samples delivered before the error remain valid.
#[derive(Clone, Debug, PartialEq)]
pub struct FormulationError {
    /// Kind.
    pub kind: FormulationErrorKind,
    /// Simulation time of the failure, if it happened while running.
    pub t: Option<f64>,
    /// The joint, body or constraint involved, if known (e.g. "joint `j3`").
    pub location: Option<String>,
    /// What happened.
    pub message: String,
    /// Statistics up to the failure (boxed to keep the error small).
    pub stats: Box<RunStats>,
}

impl FormulationError {
    fn new(kind: FormulationErrorKind, t: Option<f64>, message: String) -> Self {
        Self {
            kind,
            t,
            location: None,
            message,
            stats: Box::default(),
        }
    }
    /// A failure while running, at time `t`. A message that starts with the same
    /// time (`"t = {t}: …"`, as the layer crates' errors do) loses that prefix, which
    /// the error shows already (`at t = …: …`).
    pub fn failed(t: f64, message: impl Into<String>) -> Self {
        let mut message = message.into();
        let prefix = format!("t = {t}: ");
        if message.starts_with(&prefix) {
            message.drain(..prefix.len());
        }
        Self::new(FormulationErrorKind::Failed, Some(t), message)
    }
    /// Settings or a model the formulation cannot run with.
    pub fn invalid_input(message: impl Into<String>) -> Self {
        Self::new(FormulationErrorKind::InvalidInput, None, message.into())
    }
    /// A feature the formulation does not have.
    pub fn not_implemented(message: impl Into<String>) -> Self {
        Self::new(FormulationErrorKind::NotImplemented, None, message.into())
    }
    /// The same error, naming the element involved.
    pub fn at(mut self, location: impl Into<String>) -> Self {
        self.location = Some(location.into());
        self
    }
    /// The same error with statistics.
    pub fn with_stats(mut self, stats: RunStats) -> Self {
        self.stats = Box::new(stats);
        self
    }
}

impl fmt::Display for FormulationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(t) = self.t {
            // exponent form for extreme magnitudes (1e-300 s would print 300 digits)
            if t == 0.0 || (1e-4..1e16).contains(&t.abs()) {
                write!(f, "at t = {t}")?;
            } else {
                write!(f, "at t = {t:e}")?;
            }
            if self.location.is_none() {
                f.write_str(": ")?;
            } else {
                f.write_str(", ")?;
            }
        }
        if let Some(l) = &self.location {
            write!(f, "{l}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for FormulationError {}

#[cfg(test)]
mod tests {
    use super::FormulationError;

    #[test]
    fn a_message_that_repeats_the_time_shows_it_once() {
        let e = FormulationError::failed(4.5, "t = 4.5: singular configuration");
        assert_eq!(e.to_string(), "at t = 4.5: singular configuration");
        // another time in the message is not the failure's and stays
        let e = FormulationError::failed(4.5, "t = 4.25: earlier");
        assert_eq!(e.to_string(), "at t = 4.5: t = 4.25: earlier");
    }
}
