//! The Lagrange and index-1 augmented Lagrangian methods as the facade runs them:
//! algorithm ALF-INDEX1 (Bayo–Ledesma Table 2), an ODE in y = [q; q̇] (7 + 7 per body)
//! for every integrator, or a partitioned system for the central-difference and
//! staggered ones, with projections every k steps and, without projections, the
//! branch guard at singular configurations.

use std::sync::Arc;

use mbs_formulation::drive::{body_state_label, integrate_ode, integrate_partitioned, newton};
use mbs_formulation::{
    DivergenceCheck, FormulationError, OdeFormulation, RunSpec, RunStats, SAMPLE_LAYOUT, Sample,
    StepCheck,
};
use mbs_integrators::{
    Info, IntegratorChoice, NewtonParams, Observer, PartitionedSystem, SystemError,
};
use mbs_model::{Model, State};
use nalgebra::DVector;

use crate::branch::BranchGuard;
use crate::index1::Index1;
use crate::mechanism::MechanismDescriptor;
use crate::params::{Formulation, Projection};

/// [`Index1`] on a mechanism with the run's settings.
#[derive(Debug)]
pub(crate) struct Index1Run {
    /// The method name (for the branch guard's error).
    family: &'static str,
    model: Arc<Model>,
    sys: Index1<MechanismDescriptor>,
    project_every: usize,
    newton: NewtonParams,
    qdd: DVector<f64>,
}

impl Index1Run {
    /// `formulation` with `projection` every `project_every` accepted steps, and the
    /// implicit rules' Newton tolerance `newton_tol`.
    pub(crate) fn new(
        family: &'static str,
        model: Arc<Model>,
        formulation: Formulation,
        projection: Projection,
        project_every: usize,
        newton_tol: f64,
    ) -> Self {
        let n = 7 * model.n_bodies();
        let sys = Index1::new(
            MechanismDescriptor::new(model.clone()),
            formulation,
            projection,
        );
        Self {
            family,
            model,
            sys,
            project_every,
            newton: newton(newton_tol),
            qdd: DVector::zeros(n),
        }
    }
}

/// Index1 seen as a second-order system for the central-difference and staggered
/// integrators: x = q, v = q̇ (same length, so the default position update applies).
struct Partitioned<'a>(&'a mut Index1<MechanismDescriptor>, DVector<f64>);

impl PartitionedSystem for Partitioned<'_> {
    fn dim_positions(&self) -> usize {
        self.0.n()
    }
    fn dim_velocities(&self) -> usize {
        self.0.n()
    }
    fn accelerations(
        &mut self,
        t: f64,
        x: &[f64],
        v: &[f64],
        a: &mut [f64],
    ) -> Result<(), SystemError> {
        self.0
            .accelerations(t, x, v, &mut self.1)
            .map_err(|e| SystemError::with_source(e.to_string(), e))?;
        a.copy_from_slice(self.1.as_slice());
        Ok(())
    }
    fn project(&mut self, t: f64, x: &mut [f64], v: &mut [f64]) -> Result<bool, SystemError> {
        self.0
            .project_state(t, x, v)
            .map(|i| i.is_some())
            .map_err(|e| SystemError::with_source(e.to_string(), e))
    }
}

/// The body names of `model`.
pub(crate) fn body_names(model: &Model) -> Vec<String> {
    model.bodies().iter().map(|b| b.name.clone()).collect()
}

/// The check of y = [q; v] after every step: divergence of the absolute
/// coordinates (q = y[..n]) and, with a guard, the rank of Φ_q.
pub(crate) fn descriptor_check(
    divergence: DivergenceCheck,
    n: usize,
    mut guard: Option<BranchGuard>,
) -> StepCheck {
    Box::new(move |t, y| {
        if let Some(e) = divergence.check(t, &y[..n], &y[n..]) {
            return Some(e);
        }
        match guard.as_mut().map(|g| g.check(t, &y[..n])) {
            Some(Err(e)) => Some(FormulationError::failed(t, e.to_string())),
            _ => None,
        }
    })
}

/// The start of a descriptor run: y0 = [q; v] of `spec.initial` in the
/// [`SAMPLE_LAYOUT`] and the check of every step, with the branch guard where `guarded`
/// (a run without projections: nothing else holds the branch at a singular
/// configuration).
pub(crate) fn descriptor_start(
    model: &Arc<Model>,
    family: &'static str,
    spec: &RunSpec<'_>,
    guarded: bool,
) -> (Vec<f64>, StepCheck) {
    let s0 = spec.initial.to_layout(SAMPLE_LAYOUT);
    let n = s0.q.len();
    let mut y0 = s0.q.as_slice().to_vec();
    y0.extend_from_slice(s0.v.as_slice());
    let guard = guarded
        .then(|| BranchGuard::new(model.clone(), family).ok())
        .flatten();
    let divergence = DivergenceCheck::new(model, spec.divergence_limit);
    (y0, descriptor_check(divergence, n, guard))
}

impl OdeFormulation for Index1Run {
    fn start(&mut self, spec: &RunSpec<'_>) -> Result<(Vec<f64>, StepCheck), FormulationError> {
        let guarded = self.project_every == 0;
        Ok(descriptor_start(&self.model, self.family, spec, guarded))
    }

    fn integrate<O: Observer>(
        &mut self,
        spec: &RunSpec<'_>,
        y0: &[f64],
        obs: &mut O,
    ) -> (Info, Option<FormulationError>) {
        match spec.integrator {
            IntegratorChoice::CentralDifference { .. } | IntegratorChoice::Staggered { .. } => {
                let n = self.sys.n();
                let mut p = Partitioned(&mut self.sys, DVector::zeros(n));
                integrate_partitioned(&mut p, spec, y0, self.project_every, obs)
            }
            _ => {
                let names = body_names(&self.model);
                integrate_ode(
                    &mut self.sys,
                    spec,
                    y0,
                    self.project_every,
                    self.newton.clone(),
                    &|i| body_state_label(&names, i),
                    obs,
                )
            }
        }
    }

    /// `∂f/∂y` by [`mbs_formulation::drive::ode_jacobian`] (the linearized spectrum).
    fn jacobian(&mut self, t: f64, y: &[f64]) -> Result<nalgebra::DMatrix<f64>, FormulationError> {
        mbs_formulation::drive::ode_jacobian(&mut self.sys, t, y)
    }

    fn state(&mut self, t: f64, y: &[f64]) -> Result<State, FormulationError> {
        let (q, v) = y.split_at(self.sys.n());
        Ok(super::sample_state(t, q, v))
    }

    fn project_sample(&mut self, t: f64, y: &mut [f64]) {
        if self.project_every > 0 {
            let (q, v) = y.split_at_mut(self.sys.n());
            let _ = self.sys.project_state(t, q, v);
        }
    }

    fn enrich(&mut self, t: f64, y: &[f64], sample: &mut Sample) {
        let (q, v) = y.split_at(self.sys.n());
        if self.sys.accelerations(t, q, v, &mut self.qdd).is_ok() {
            sample.accelerations = Some(self.qdd.clone());
            sample.multipliers = Some(DVector::from_vec(self.sys.multipliers()));
        }
    }

    fn count(&self, stats: &mut RunStats) {
        let s = self.sys.stats();
        stats.multiplier_iterations = s.alf_iterations as usize;
        stats.projections = s.projections as usize;
    }

    fn accelerations(&mut self, s: &State) -> Result<DVector<f64>, FormulationError> {
        self.sys
            .accelerations(s.t, s.q.as_slice(), s.v.as_slice(), &mut self.qdd)
            .map_err(|e| FormulationError::failed(s.t, e.to_string()))?;
        Ok(self.qdd.clone())
    }
}
