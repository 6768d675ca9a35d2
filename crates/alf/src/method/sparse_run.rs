//! The `alf:backend=sparse` and `alf-index1:backend=sparse` runs: ALF index-1
//! (Bayo–Ledesma eqs 6–8) with the sparse Cholesky backend of [`SparseAlf`], O(n)
//! per evaluation for chains and trees, as an [`OdeFormulation`]; with the
//! mass-orthogonal projections (eqs 9–15, 17–24) every `project_every` accepted
//! steps on the same factorization object (ALF-INDEX1, Table 2).

use std::sync::Arc;

use mbs_formulation::drive::{body_state_label, integrate_ode, newton};
use mbs_formulation::{
    FormulationError, OdeFormulation, RunSpec, RunStats, SAMPLE_LAYOUT, Sample, StepCheck,
};
use mbs_integrators::{Info, IntegratorChoice, NewtonParams, Observer};
use mbs_model::{Model, State};
use nalgebra::DVector;

use super::index1::{body_names, descriptor_start};
use crate::error::AlfError;
use crate::params::{AlfParams, ProjectionParams};
use crate::sparse_alf::SparseAlf;

#[derive(Debug)]
pub(crate) struct SparseAlfRun {
    /// The method as written (for errors).
    label: String,
    /// The method name (for the branch guard's error).
    family: &'static str,
    model: Arc<Model>,
    sys: SparseAlf,
    project_every: usize,
    newton: NewtonParams,
    qdd: DVector<f64>,
}

/// The refusal of the partitioned integrators, which the sparse runs do not have.
pub(crate) fn refuse_partitioned(label: &str, spec: &RunSpec<'_>) -> Option<FormulationError> {
    matches!(
        spec.integrator,
        IntegratorChoice::CentralDifference { .. } | IntegratorChoice::Staggered { .. }
    )
    .then(|| {
        FormulationError::invalid_input(format!(
            "{label} runs with the ODE integrators (rk45, rk23, dop853, adams, midpoint, trapezoidal); central difference and the staggered scheme need the dense backend (backend=dense)"
        ))
    })
}

/// The sparse runs' integration: the ODE integrators with states labelled by body,
/// the partitioned ones refused by name ([`refuse_partitioned`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn integrate_unpartitioned<S: mbs_integrators::OdeSystem, O: Observer>(
    sys: &mut S,
    model: &Model,
    label: &str,
    spec: &RunSpec<'_>,
    y0: &[f64],
    project_every: usize,
    newton: NewtonParams,
    obs: &mut O,
) -> (Info, Option<FormulationError>) {
    if let Some(e) = refuse_partitioned(label, spec) {
        return (Info::default(), Some(e));
    }
    let names = body_names(model);
    integrate_ode(
        sys,
        spec,
        y0,
        project_every,
        newton,
        &|i| body_state_label(&names, i),
        obs,
    )
}

impl SparseAlfRun {
    pub(crate) fn new(
        label: String,
        family: &'static str,
        model: Arc<Model>,
        params: AlfParams,
        projection: Option<ProjectionParams>,
        project_every: usize,
        newton_tol: f64,
    ) -> Result<Self, AlfError> {
        let projection = projection.filter(|_| project_every > 0);
        let sys = SparseAlf::with_projections(model.clone(), params, projection)?;
        let n = sys.n();
        Ok(Self {
            label,
            family,
            model,
            sys,
            project_every,
            newton: newton(newton_tol),
            qdd: DVector::zeros(n),
        })
    }

    fn failed(t: f64, e: AlfError) -> FormulationError {
        FormulationError::failed(t, e.to_string())
    }
}

impl OdeFormulation for SparseAlfRun {
    fn start(&mut self, spec: &RunSpec<'_>) -> Result<(Vec<f64>, StepCheck), FormulationError> {
        // without projections, the same branch guard as the dense `alf`
        let guarded = self.project_every == 0;
        Ok(descriptor_start(&self.model, self.family, spec, guarded))
    }

    fn integrate<O: Observer>(
        &mut self,
        spec: &RunSpec<'_>,
        y0: &[f64],
        obs: &mut O,
    ) -> (Info, Option<FormulationError>) {
        integrate_unpartitioned(
            &mut self.sys,
            &self.model,
            &self.label,
            spec,
            y0,
            self.project_every,
            self.newton.clone(),
            obs,
        )
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
        if self.sys.accelerations_vec(t, q, v, &mut self.qdd).is_ok() {
            sample.accelerations = Some(self.qdd.clone());
            sample.multipliers = Some(DVector::from_column_slice(self.sys.multipliers()));
        }
    }

    fn count(&self, stats: &mut RunStats) {
        stats.multiplier_iterations = self.sys.counters().1 as usize;
        stats.projections = self.sys.projections() as usize;
    }

    fn accelerations(&mut self, s: &State) -> Result<DVector<f64>, FormulationError> {
        let s = s.to_layout(SAMPLE_LAYOUT);
        self.sys
            .accelerations_vec(s.t, s.q.as_slice(), s.v.as_slice(), &mut self.qdd)
            .map_err(|e| Self::failed(s.t, e))?;
        Ok(self.qdd.clone())
    }
}
