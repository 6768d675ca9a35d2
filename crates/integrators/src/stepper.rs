//! The interface every integrator implements, so that one loop, [`crate::drive`],
//! serves them all.
//!
//! A [`Stepper`] knows its method: how to take a step (with its own error test and
//! step-size control), where its projection goes in the step cycle and what it has
//! to re-evaluate afterwards, and its dense output. The driver knows the rest of a
//! run: output times, the observer, the projection schedule, the step limit and
//! the final time.
//!
//! `S` is the system type: the first-order integrators step any
//! [`OdeSystem`](crate::OdeSystem), the partitioned ones any
//! [`PartitionedSystem`](crate::PartitionedSystem), whose state the stepper shows
//! as `y = [x, v]`.

use crate::error::Error;
use crate::system::Info;

/// The outcome of one attempted step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The step was accepted; `last` when it ended at the final time.
    Accepted {
        /// The step reached the final time.
        last: bool,
    },
    /// An accepted step of a starting procedure (fixed-order Adams builds its
    /// history with Runge–Kutta steps): it is output and observed, never projected.
    Starter {
        /// The step reached the final time.
        last: bool,
    },
    /// The step failed its error test; the stepper keeps its last accepted state
    /// and has chosen a smaller step for the next attempt.
    Rejected,
}

/// How often the driver projects, and how many steps it may attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    /// Call the projection hook every `project_every` accepted steps (`0`: never).
    pub project_every: usize,
    /// Attempted steps (accepted and rejected) before [`Error::TooManySteps`].
    pub max_steps: usize,
}

/// One integrator, stepped by [`crate::drive`].
///
/// The driver calls, in this order: [`init`](Self::init) at `(t0, y0)`;
/// [`start`](Self::start) once (unless `t_end = t0`); then for every attempt
/// [`step`](Self::step), and after an accepted step [`project`](Self::project) when
/// the schedule says so, [`complete`](Self::complete), and, when output times fall
/// inside the step, [`prepare_interpolation`](Self::prepare_interpolation) once and
/// [`interpolate`](Self::interpolate) for each of them.
///
/// After an error, [`t`](Self::t) and [`y`](Self::y) are the last accepted state and
/// [`info`](Self::info) the statistics so far.
pub trait Stepper<S: ?Sized> {
    /// Check `y0` and the parameters against `sys`, clear the statistics and set the
    /// state to `(t0, y0)`. Evaluates nothing.
    fn init(&mut self, sys: &S, t0: f64, y0: &[f64]) -> Result<(), Error>;

    /// The first evaluations at `t0` and the first step size toward `t_end`.
    fn start(&mut self, sys: &mut S, t_end: f64) -> Result<(), Error>;

    /// Attempt one step toward `t_end` from the last accepted state. An accepted
    /// step moves [`t`](Self::t) and [`y`](Self::y) and counts itself in
    /// [`Info::accepted_steps`]; a rejected one counts itself in
    /// [`Info::rejected_steps`].
    fn step(&mut self, sys: &mut S, t_end: f64) -> Result<Step, Error>;

    /// Apply the system's projection hook to the state after an accepted step;
    /// `true` if it changed the state.
    fn project(&mut self, sys: &mut S) -> Result<bool, Error>;

    /// Finish the accepted step after the (possible) projection: re-evaluate what a
    /// projection changed, or (Adams) evaluate at the new state and update the
    /// history.
    fn complete(&mut self, sys: &mut S) -> Result<(), Error>;

    /// Evaluations the dense output of the last accepted step needs before
    /// [`interpolate`](Self::interpolate) (DOP853's three extra stages). The driver
    /// calls it once per step, after [`complete`](Self::complete) and only when an
    /// output time falls inside the step; nothing by default.
    fn prepare_interpolation(&mut self, sys: &mut S) -> Result<(), Error> {
        let _ = sys;
        Ok(())
    }

    /// The dense output (continuous extension or interpolant) of the last accepted
    /// step at `t` inside it. Runge–Kutta, the implicit rules and the partitioned
    /// schemes interpolate the step as taken, before a projection at its end;
    /// Adams interpolates its updated history, which includes the projection.
    fn interpolate(&mut self, t: f64) -> &[f64];

    /// Time of the last accepted state.
    fn t(&self) -> f64;

    /// The last accepted state (`[x, v]` for a partitioned system).
    fn y(&self) -> &[f64];

    /// Statistics of the current (or last) run.
    fn info(&self) -> Info;

    /// The statistics, for the driver's counts (projections, stop).
    fn info_mut(&mut self) -> &mut Info;

    /// Projection schedule and step limit of this stepper's parameters.
    fn schedule(&self) -> Schedule;

    /// The state component whose weighted error was largest in the last error test
    /// (after [`Error::StepSizeUnderflow`]: the one that made the step collapse);
    /// `None` for the integrators without an error estimate.
    fn error_component(&self) -> Option<usize> {
        None
    }
}
