//! The one stepping loop of the crate: output times, observer, projection
//! schedule, step limit and final time, for any [`Stepper`].

use std::time::Instant;

use crate::common::{OutCursor, direction, projection_due, validate_span};
use crate::error::Error;
use crate::stepper::{Schedule, Step, Stepper};
use crate::system::{Info, Observer};

/// Integrate from `(t0, y0)` to `t_end` with `stepper`.
///
/// `t_out` lists requested output times (monotone, inside `[t0, t_end]`), delivered
/// to [`Observer::sample`] from the stepper's dense output (at `t0` and at step ends
/// the state itself); every accepted step is delivered to [`Observer::step`], which
/// may stop the run (`Ok` with [`Info::stopped`]). The projection hook runs every
/// [`Schedule::project_every`] accepted steps (not on a starting procedure's steps)
/// and is counted in [`Info::projections`]; more than [`Schedule::max_steps`]
/// attempted steps fail with [`Error::TooManySteps`]. On error the last accepted
/// state stays in [`Stepper::t`]/[`Stepper::y`].
///
/// For a partitioned system `y0` (and every `y` the observer sees) is `[x, v]`.
pub fn drive<S, St, O>(
    stepper: &mut St,
    sys: &mut S,
    t0: f64,
    y0: &[f64],
    t_end: f64,
    t_out: &[f64],
    obs: &mut O,
) -> Result<Info, Error>
where
    S: ?Sized,
    St: Stepper<S> + ?Sized,
    O: Observer + ?Sized,
{
    drive_with_init(stepper, sys, t0, t_end, t_out, obs, |st, sys| {
        st.init(sys, t0, y0)
    })
}

/// [`drive`] with the stepper initialised at `t0` by `init` ([`Stepper::init`]
/// or an equivalent of the integrator's own) once the span is checked.
pub(crate) fn drive_with_init<S, St, O>(
    stepper: &mut St,
    sys: &mut S,
    t0: f64,
    t_end: f64,
    t_out: &[f64],
    obs: &mut O,
    init: impl FnOnce(&mut St, &S) -> Result<(), Error>,
) -> Result<Info, Error>
where
    S: ?Sized,
    St: Stepper<S> + ?Sized,
    O: Observer + ?Sized,
{
    validate_span(t0, t_end, t_out)?;
    init(stepper, sys)?;
    let timed = obs.times_sampling();
    let mut cursor = OutCursor::default();
    let clock = timed.then(Instant::now);
    while let Some(t) = cursor.next_at(t_out, t0) {
        obs.sample(t, stepper.y());
    }
    if let Some(c) = clock {
        obs.sampling_time(c.elapsed().as_secs_f64());
    }
    if t_end == t0 {
        return Ok(stepper.info());
    }
    stepper.start(sys, t_end)?;
    let Schedule {
        project_every,
        max_steps,
    } = stepper.schedule();
    let dir = direction(t0, t_end);
    let mut attempts = 0usize;
    loop {
        if attempts >= max_steps {
            let t = stepper.t();
            return Err(Error::TooManySteps { t, max_steps });
        }
        attempts += 1;
        let (last, projectable) = match stepper.step(sys, t_end)? {
            Step::Rejected => continue,
            Step::Accepted { last } => (last, true),
            Step::Starter { last } => (last, false),
        };
        if projectable && projection_due(project_every, stepper.info().accepted_steps) {
            stepper.info_mut().projections += 1;
            if stepper.project(sys)? {
                stepper.info_mut().projections_applied += 1;
            }
        }
        stepper.complete(sys)?;
        let t = stepper.t();
        // one clock reading pair per step with samples (a step without one costs a
        // comparison); DOP853's extra dense-output stages count as sampling
        let clock = (timed && cursor.due(t_out, dir, t)).then(Instant::now);
        if cursor.pending_before(t_out, dir, t) {
            stepper.prepare_interpolation(sys)?;
        }
        while let Some(ts) = cursor.next_before(t_out, dir, t) {
            obs.sample(ts, stepper.interpolate(ts));
        }
        while let Some(ts) = cursor.next_at(t_out, t) {
            obs.sample(ts, stepper.y());
        }
        if let Some(c) = clock {
            obs.sampling_time(c.elapsed().as_secs_f64());
        }
        if obs.step(t, stepper.y()).is_break() {
            stepper.info_mut().stopped = true;
            return Ok(stepper.info());
        }
        if last {
            return Ok(stepper.info());
        }
    }
}
