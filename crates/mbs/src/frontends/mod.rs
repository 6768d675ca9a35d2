//! Adapters from the front-end crates to [`crate::frontend::FrontEnd`], and the
//! integrator plumbing they share.

pub mod alf;
pub mod reduced;

use std::sync::Arc;

use mbs_integrators::{
    Adams, AdamsParams, CentralDifference, EmbeddedRk, Error as IntegratorError,
    ImplicitIntegrator, ImplicitParams, ImplicitRule, Info, NewtonParams, Observer, OdeSystem,
    PartitionedSystem, RkParams, StaggeredParams, TwoStageStaggered,
};
use mbs_model::Model;

use crate::frontend::{FrontEndError, RunSpec};
use crate::integrator::IntegratorChoice;

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

fn integrator_error(e: IntegratorError, t_last: f64) -> FrontEndError {
    match e {
        IntegratorError::System { t, source } => {
            FrontEndError::failed(t, source.message().to_string())
        }
        IntegratorError::InvalidInput(m) => FrontEndError::invalid_input(m),
        other => {
            let t = match &other {
                IntegratorError::StepSizeUnderflow { t, .. }
                | IntegratorError::TooManySteps { t, .. }
                | IntegratorError::NonFinite { t }
                | IntegratorError::NewtonFailure { t, .. }
                | IntegratorError::SingularMatrix { t, .. } => *t,
                _ => t_last,
            };
            FrontEndError::failed(t, other.to_string())
        }
    }
}

/// Integrates a first-order system y = [q; q̇] from `spec.initial` with the chosen
/// integrator (not the partitioned ones); the observer gets the samples. Returns the
/// statistics and the error that stopped the run, if any.
pub fn integrate_ode<S: OdeSystem, O: Observer>(
    sys: &mut S,
    spec: &RunSpec<'_>,
    project_every: usize,
    obs: &mut O,
) -> (Info, Option<FrontEndError>) {
    integrate_ode_with(sys, spec, project_every, NewtonParams::default(), obs)
}

/// [`integrate_ode`] with the Newton parameters of the implicit rules.
pub fn integrate_ode_with<S: OdeSystem, O: Observer>(
    sys: &mut S,
    spec: &RunSpec<'_>,
    project_every: usize,
    newton: NewtonParams,
    obs: &mut O,
) -> (Info, Option<FrontEndError>) {
    let s0 = spec.initial;
    let mut y0 = s0.q.as_slice().to_vec();
    y0.extend_from_slice(s0.v.as_slice());
    let n = y0.len();
    let (t0, t_end, t_out) = (s0.t, spec.t_end, spec.output_times);
    macro_rules! go {
        ($integ:expr) => {{
            let mut integ = $integ;
            match integ.integrate(sys, t0, &y0, t_end, t_out, obs) {
                Ok(info) => (info, None),
                Err(e) => (integ.info(), Some(integrator_error(e, integ.t()))),
            }
        }};
    }
    match spec.integrator {
        IntegratorChoice::Rk45 { rtol, atol } => go!(EmbeddedRk::rk45(
            n,
            RkParams {
                project_every,
                ..RkParams::with_tol(rtol, atol)
            }
        )),
        IntegratorChoice::Rk23 { rtol, atol } => go!(EmbeddedRk::rk23(
            n,
            RkParams {
                project_every,
                ..RkParams::with_tol(rtol, atol)
            }
        )),
        IntegratorChoice::Adams { rtol, atol } => go!(Adams::new(
            n,
            AdamsParams {
                project_every,
                ..AdamsParams::with_tol(rtol, atol)
            }
        )),
        IntegratorChoice::Midpoint { h } | IntegratorChoice::Trapezoidal { h } => {
            let rule = if matches!(spec.integrator, IntegratorChoice::Midpoint { .. }) {
                ImplicitRule::Midpoint
            } else {
                ImplicitRule::Trapezoidal
            };
            go!(ImplicitIntegrator::new(
                n,
                ImplicitParams {
                    project_every,
                    newton,
                    ..ImplicitParams::new(rule, h)
                }
            ))
        }
        IntegratorChoice::CentralDifference { .. } | IntegratorChoice::Staggered { .. } => (
            Info::default(),
            Some(FrontEndError::invalid_input(format!(
                "{} needs a partitioned (second-order) system",
                spec.integrator.name()
            ))),
        ),
    }
}

/// Integrates a partitioned system (x = q, v = q̇) with central differences or the
/// two-stage staggered scheme.
pub fn integrate_partitioned<S: PartitionedSystem, O: Observer>(
    sys: &mut S,
    spec: &RunSpec<'_>,
    project_every: usize,
    obs: &mut O,
) -> (Info, Option<FrontEndError>) {
    let s0 = spec.initial;
    let (nx, nv) = (sys.dim_positions(), sys.dim_velocities());
    let (t0, t_end, t_out) = (s0.t, spec.t_end, spec.output_times);
    let (x0, v0) = (s0.q.as_slice(), s0.v.as_slice());
    macro_rules! go {
        ($integ:expr) => {{
            let mut integ = $integ;
            match integ.integrate(sys, t0, x0, v0, t_end, t_out, obs) {
                Ok(info) => (info, None),
                Err(e) => (integ.info(), Some(integrator_error(e, integ.t()))),
            }
        }};
    }
    let params = |h| StaggeredParams {
        project_every,
        ..StaggeredParams::new(h)
    };
    match spec.integrator {
        IntegratorChoice::CentralDifference { h } => go!(CentralDifference::new(nx, nv, params(h))),
        IntegratorChoice::Staggered { h } => go!(TwoStageStaggered::new(nx, nv, params(h))),
        other => (
            Info::default(),
            Some(FrontEndError::invalid_input(format!(
                "{} is not a partitioned integrator",
                other.name()
            ))),
        ),
    }
}
