//! Integrator plumbing shared by the formulations: run the integrator a
//! [`RunSpec`] names over a system, and turn integrator errors into
//! [`FormulationError`]s that say when and where.

use mbs_integrators::descriptor::{DescriptorSettings, DescriptorSystem};
use mbs_integrators::{
    Error as IntegratorError, Info, Jacobian, LinearSolver, NewtonParams, Observer, OdeSystem,
    PartitionedSystem, Stepper, StepperSettings, drive,
};
use nalgebra::DMatrix;

use crate::error::FormulationError;
use crate::spec::RunSpec;

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

/// `∂f/∂y` of `sys` at `(t, y)`, dense: the system's analytic Jacobian or forward
/// differences `δ_j = √ε max(|y_j|, 1)` over its declared sparsity, as the implicit
/// integrators form it ([`Jacobian`]). An evaluation error names the time.
pub fn ode_jacobian<S: OdeSystem + ?Sized>(
    sys: &mut S,
    t: f64,
    y: &[f64],
) -> Result<DMatrix<f64>, FormulationError> {
    let n = y.len();
    let fail = |e: String| FormulationError::failed(t, format!("Jacobian at t = {t}: {e}"));
    let mut jac = Jacobian::new(n, sys.jacobian_sparsity(), LinearSolver::Dense)
        .map_err(|e| fail(e.to_string()))?;
    let mut f0 = vec![0.0; n];
    sys.rhs(t, y, &mut f0).map_err(|e| fail(e.to_string()))?;
    jac.evaluate(sys, t, y, &f0, &mut Info::default())
        .map_err(|e| fail(e.to_string()))?;
    Ok(DMatrix::from_fn(n, n, |i, j| jac.entry(i, j)))
}

/// Names component `i` of a state vector without a body layout.
pub fn plain_state_label(i: usize) -> String {
    format!("state component {i}")
}

/// Newton parameters of the implicit rules with relative and absolute tolerance
/// `tol` (a formulation sets it above the round-off of its right-hand side); the
/// Newton matrix is kept across steps while it converges (a forward-difference
/// Jacobian costs n right-hand sides, 14 per body in absolute coordinates).
pub fn newton(tol: f64) -> NewtonParams {
    NewtonParams {
        rtol: tol,
        atol: tol,
        reuse_jacobian: true,
        ..NewtonParams::default()
    }
}

/// An integrator error as a formulation error: when (the integrator's time) and
/// what; for a step-size underflow or a step limit also where, `label(component)` of
/// the state component whose error estimate limited the step.
fn integrator_error(
    e: IntegratorError,
    t_last: f64,
    component: Option<usize>,
    label: &dyn Fn(usize) -> String,
) -> FormulationError {
    match e {
        IntegratorError::System { t, source } => {
            // the formulation crates often start their messages with the time, which
            // the formulation error already shows
            let m = source.message();
            let m = m.strip_prefix(&format!("t = {t}: ")).unwrap_or(m);
            FormulationError::failed(t, m.to_string())
        }
        IntegratorError::InvalidInput(m) => FormulationError::invalid_input(m),
        IntegratorError::StepSizeUnderflow { t, h, h_min } => {
            let e = FormulationError::failed(
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
            let e = FormulationError::failed(
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
            FormulationError::failed(t, other.to_string())
        }
    }
}

/// Integrates a first-order system from `(spec.initial.t, y0)` with the integrator of
/// `spec` (not the partitioned ones), projecting every `project_every` accepted steps
/// (0: never) and with the Newton parameters `newton` of the implicit rules; the
/// observer gets the steps and samples. `label(i)` names state component `i` in
/// error messages. Returns the statistics and the error that stopped the run, if any.
pub fn integrate_ode<S: OdeSystem, O: Observer>(
    sys: &mut S,
    spec: &RunSpec<'_>,
    y0: &[f64],
    project_every: usize,
    newton: NewtonParams,
    label: &dyn Fn(usize) -> String,
    obs: &mut O,
) -> (Info, Option<FormulationError>) {
    let settings = StepperSettings {
        project_every,
        max_steps: spec.max_steps,
        newton,
    };
    let stepper = spec.integrator.ode_stepper(y0.len(), &settings);
    run(stepper, sys, spec, y0, label, obs)
}

/// Integrates a partitioned system from `(spec.initial.t, x0, v0)`, `y0 = [x0; v0]`,
/// with central differences or the two-stage staggered scheme of `spec`.
pub fn integrate_partitioned<S: PartitionedSystem, O: Observer>(
    sys: &mut S,
    spec: &RunSpec<'_>,
    y0: &[f64],
    project_every: usize,
    obs: &mut O,
) -> (Info, Option<FormulationError>) {
    let settings = StepperSettings {
        project_every,
        ..StepperSettings::default()
    };
    let (nx, nv) = (sys.dim_positions(), sys.dim_velocities());
    let stepper = spec.integrator.partitioned_stepper(nx, nv, &settings);
    run(stepper, sys, spec, y0, &plain_state_label, obs)
}

/// Integrates a descriptor system from `(spec.initial.t, y0)`, `y0 = [q, v]` or
/// `[q, v, q̈, λ]`, with the index-3 integrator of `spec` (generalized-α, or
/// Bayo–Ledesma's trapezoidal or midpoint rule); `label(i)` names position
/// coordinate `i` in error messages.
pub fn integrate_descriptor<S: DescriptorSystem, O: Observer>(
    sys: &mut S,
    spec: &RunSpec<'_>,
    y0: &[f64],
    settings: &DescriptorSettings,
    label: &dyn Fn(usize) -> String,
    obs: &mut O,
) -> (Info, Option<FormulationError>) {
    let stepper = spec.integrator.descriptor_stepper(settings);
    run(stepper, sys, spec, y0, label, obs)
}

/// Drives `stepper` from `(spec.initial.t, y0)` to `spec.t_end`: the statistics and
/// the error that stopped the run, if any.
fn run<S: ?Sized, O: Observer>(
    stepper: Result<Box<dyn Stepper<S>>, IntegratorError>,
    sys: &mut S,
    spec: &RunSpec<'_>,
    y0: &[f64],
    label: &dyn Fn(usize) -> String,
    obs: &mut O,
) -> (Info, Option<FormulationError>) {
    let t0 = spec.initial.t;
    let mut stepper = match stepper {
        Ok(s) => s,
        Err(e) => return (Info::default(), Some(integrator_error(e, t0, None, label))),
    };
    match drive(
        &mut *stepper,
        sys,
        t0,
        y0,
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
