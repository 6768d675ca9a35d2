//! Stopping a running simulation from outside: a [`StopHandle`] shared between the
//! run and whoever wants it to end (a signal handler, a GUI button, another thread).
//!
//! The run checks the handle after every accepted step; once a stop is requested it
//! ends the integration there and returns [`crate::Error::Interrupted`] with every
//! sample up to that time, so nothing computed is lost.
//!
//! ```
//! use mbs::{Simulation, StopHandle};
//! let stop = StopHandle::new();
//! stop.request(); // stopped before the first step
//! let err = Simulation::builtin("five-bar")?.t_end(1.0).stop_handle(stop).run().unwrap_err();
//! let partial = err.partial_trajectory().unwrap();
//! assert_eq!(partial.status, mbs::RunStatus::Interrupted);
//! # Ok::<(), mbs::Error>(())
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The slot's value for a stop requested by [`StopHandle::request`] (signals store
/// their number, which is small and positive).
const REQUESTED: usize = usize::MAX;

/// Why a run was asked to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// A Unix signal (its number: 2 for SIGINT, 15 for SIGTERM).
    Signal(i32),
    /// [`StopHandle::request`] was called.
    Requested,
}

impl StopReason {
    /// The exit code a command-line program conventionally returns for it: 128 + the
    /// signal number (130 for SIGINT, 143 for SIGTERM), 130 for a plain request.
    pub fn exit_code(self) -> u8 {
        match self {
            StopReason::Signal(s) if (1..=127).contains(&s) => 128 + s as u8,
            _ => 130,
        }
    }
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::Signal(2) => write!(f, "SIGINT"),
            StopReason::Signal(15) => write!(f, "SIGTERM"),
            StopReason::Signal(s) => write!(f, "signal {s}"),
            StopReason::Requested => write!(f, "a stop request"),
        }
    }
}

/// A shared request to stop a running simulation at its next step (cheap to clone:
/// clones share one flag).
#[derive(Clone, Debug, Default)]
pub struct StopHandle {
    slot: Arc<AtomicUsize>,
}

impl StopHandle {
    /// A handle with no stop requested.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every run holding this handle to stop at its next step.
    pub fn request(&self) {
        self.slot.store(REQUESTED, Ordering::SeqCst);
    }

    /// The request, if one was made.
    pub fn requested(&self) -> Option<StopReason> {
        match self.slot.load(Ordering::Relaxed) {
            0 => None,
            REQUESTED => Some(StopReason::Requested),
            s => Some(StopReason::Signal(i32::try_from(s).unwrap_or(i32::MAX))),
        }
    }

    /// The flag itself, for a signal handler that stores the signal's number in it
    /// (e.g. `signal_hook::flag::register_usize(SIGINT, handle.slot(), 2)`).
    pub fn slot(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.slot)
    }
}
