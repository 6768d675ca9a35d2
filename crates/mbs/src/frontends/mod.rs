//! Adapters from the front-end crates to [`crate::frontend::FrontEnd`], and the
//! integrator plumbing they share.

pub mod alf;
pub mod reduced;

use std::sync::Arc;

use mbs_integrators::{
    Error as IntegratorError, Info, NewtonParams, Observer, OdeSystem, PartitionedSystem, Stepper,
    StepperSettings, drive,
};
use mbs_model::Model;

use crate::frontend::{FrontEndError, RunSpec};

/// Names the first body whose coordinates or velocities are non-finite or beyond
/// the limit (7 position and 7 velocity coordinates per body).
#[derive(Debug, Clone)]
pub struct DivergenceCheck {
    names: Vec<String>,
    limit: f64,
}

impl DivergenceCheck {
    /// A check for `model`'s bodies with `limit`.
    pub fn new(model: &Arc<Model>, limit: f64) -> Self {
        Self {
            names: model.bodies().iter().map(|b| b.name.clone()).collect(),
            limit,
        }
    }

    /// `Some(error)` if (q, q̇) at `t` diverged.
    pub fn check(&self, t: f64, q: &[f64], v: &[f64]) -> Option<FrontEndError> {
        let bad = |x: &f64| !x.is_finite() || x.abs() > self.limit;
        let i = q
            .iter()
            .position(bad)
            .map(|i| (i, q[i]))
            .or_else(|| v.iter().position(bad).map(|i| (i, v[i])))?;
        let body = self.names.get(i.0 / 7).map_or("?", String::as_str);
        Some(
            FrontEndError::failed(
                t,
                format!(
                    "simulation diverged: a coordinate or velocity reached {:e} (limit {:e})",
                    i.1, self.limit
                ),
            )
            .at(format!("body `{body}`")),
        )
    }
}

/// Names component `i` of an integrator state y = [q; q̇] with 7 + 7 coordinates per
/// body (absolute coordinates with Euler parameters).
pub fn body_state_label(names: &[String], i: usize) -> String {
    const Q: [&str; 7] = ["x", "y", "z", "e0", "e1", "e2", "e3"];
    let n = 7 * names.len();
    let (what, j) = if i < n {
        ("coordinate", i)
    } else {
        ("velocity of coordinate", i - n)
    };
    match names.get(j / 7) {
        Some(b) => format!("body `{b}` {what} {}", Q[j % 7]),
        None => format!("state component {i}"),
    }
}

/// Names component `i` of a state vector without a body layout.
pub fn plain_state_label(i: usize) -> String {
    format!("state component {i}")
}

/// An integrator error as a front-end error: when (the integrator's time) and what;
/// for a step-size underflow or a step limit also where, `label(component)` of the
/// state component whose error estimate limited the step.
fn integrator_error(
    e: IntegratorError,
    t_last: f64,
    component: Option<usize>,
    label: &dyn Fn(usize) -> String,
) -> FrontEndError {
    match e {
        IntegratorError::System { t, source } => {
            // the front-end crates often start their messages with the time, which
            // the front-end error already shows
            let m = source.message();
            let m = m.strip_prefix(&format!("t = {t}: ")).unwrap_or(m);
            FrontEndError::failed(t, m.to_string())
        }
        IntegratorError::InvalidInput(m) => FrontEndError::invalid_input(m),
        IntegratorError::StepSizeUnderflow { t, h, h_min } => {
            let e = FrontEndError::failed(
                t,
                format!(
                    "step size underflow: a step of |h| = {h:e} failed the error test and no smaller step is admissible at this time (minimum 16 ε |t| = {h_min:e}); a discontinuity, a singularity or tolerances too tight for the time resolution"
                ),
            );
            match component {
                Some(i) => e.at(format!("error estimate dominated by {}", label(i))),
                None => e,
            }
        }
        IntegratorError::TooManySteps { t, max_steps } => {
            let e = FrontEndError::failed(
                t,
                format!(
                    "step limit reached: {max_steps} steps taken before t_end (raise the limit with `Simulation::max_steps` / `--max-steps`, or loosen the tolerances)"
                ),
            );
            match component {
                Some(i) => e.at(format!("step size limited by {}", label(i))),
                None => e,
            }
        }
        other => {
            let t = match &other {
                IntegratorError::NonFinite { t }
                | IntegratorError::NewtonFailure { t, .. }
                | IntegratorError::SingularMatrix { t, .. } => *t,
                _ => t_last,
            };
            FrontEndError::failed(t, other.to_string())
        }
    }
}

/// Default limit on the number of steps (accepted + rejected) of an adaptive
/// integrator in one run ([`RunSpec::max_steps`]).
pub const DEFAULT_MAX_STEPS: usize = 1_000_000;

/// Integrates a first-order system y = [q; q̇] from `spec.initial` with the chosen
/// integrator (not the partitioned ones); the observer gets the samples. Returns the
/// statistics and the error that stopped the run, if any.
pub fn integrate_ode<S: OdeSystem, O: Observer>(
    sys: &mut S,
    spec: &RunSpec<'_>,
    project_every: usize,
    label: &dyn Fn(usize) -> String,
    obs: &mut O,
) -> (Info, Option<FrontEndError>) {
    integrate_ode_with(
        sys,
        spec,
        project_every,
        NewtonParams::default(),
        label,
        obs,
    )
}

/// [`integrate_ode`] with the Newton parameters of the implicit rules. `label(i)`
/// names state component `i` in error messages.
pub fn integrate_ode_with<S: OdeSystem, O: Observer>(
    sys: &mut S,
    spec: &RunSpec<'_>,
    project_every: usize,
    newton: NewtonParams,
    label: &dyn Fn(usize) -> String,
    obs: &mut O,
) -> (Info, Option<FrontEndError>) {
    let settings = StepperSettings {
        project_every,
        max_steps: spec.max_steps,
        newton,
    };
    let n = spec.initial.q.len() + spec.initial.v.len();
    let stepper = spec.integrator.ode_stepper(n, &settings);
    run(stepper, sys, spec, label, obs)
}

/// Integrates a partitioned system (x = q, v = q̇) with central differences or the
/// two-stage staggered scheme.
pub fn integrate_partitioned<S: PartitionedSystem, O: Observer>(
    sys: &mut S,
    spec: &RunSpec<'_>,
    project_every: usize,
    obs: &mut O,
) -> (Info, Option<FrontEndError>) {
    let settings = StepperSettings {
        project_every,
        ..StepperSettings::default()
    };
    let (nx, nv) = (sys.dim_positions(), sys.dim_velocities());
    let stepper = spec.integrator.partitioned_stepper(nx, nv, &settings);
    run(stepper, sys, spec, &plain_state_label, obs)
}

/// Drives `stepper` from `spec.initial` (y = [q; q̇]) to `spec.t_end`: the statistics
/// and the error that stopped the run, if any.
fn run<S: ?Sized, O: Observer>(
    stepper: Result<Box<dyn Stepper<S>>, IntegratorError>,
    sys: &mut S,
    spec: &RunSpec<'_>,
    label: &dyn Fn(usize) -> String,
    obs: &mut O,
) -> (Info, Option<FrontEndError>) {
    let t0 = spec.initial.t;
    let mut y0 = spec.initial.q.as_slice().to_vec();
    y0.extend_from_slice(spec.initial.v.as_slice());
    let mut stepper = match stepper {
        Ok(s) => s,
        Err(e) => return (Info::default(), Some(integrator_error(e, t0, None, label))),
    };
    match drive(
        &mut *stepper,
        sys,
        t0,
        &y0,
        spec.t_end,
        spec.output_times,
        obs,
    ) {
        Ok(info) => (info, None),
        Err(e) => {
            let (t, c) = (stepper.t(), stepper.error_component());
            (stepper.info(), Some(integrator_error(e, t, c, label)))
        }
    }
}
