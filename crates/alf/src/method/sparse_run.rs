//! The `alf:backend=sparse` run: ALF index-1 (Bayo–Ledesma eqs 6–8) with the sparse
//! Cholesky backend of [`SparseAlf`], O(n) per evaluation for chains and trees, as an
//! [`OdeFormulation`]. No projections (the sparse backend has none): `every=0` only.

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
use crate::params::AlfParams;
use crate::sparse_alf::SparseAlf;

#[derive(Debug)]
pub(crate) struct SparseAlfRun {
    model: Arc<Model>,
    sys: SparseAlf,
    newton: NewtonParams,
    qdd: DVector<f64>,
}

impl SparseAlfRun {
    pub(crate) fn new(
        model: Arc<Model>,
        params: AlfParams,
        newton_tol: f64,
    ) -> Result<Self, AlfError> {
        let sys = SparseAlf::new(model.clone(), params)?;
        let n = sys.n();
        Ok(Self {
            model,
            sys,
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
        // no projections: the same branch guard as the dense `alf`
        Ok(descriptor_start(&self.model, "alf", spec, true))
    }

    fn integrate<O: Observer>(
        &mut self,
        spec: &RunSpec<'_>,
        y0: &[f64],
        obs: &mut O,
    ) -> (Info, Option<FormulationError>) {
        if let IntegratorChoice::CentralDifference { .. } | IntegratorChoice::Staggered { .. } =
            spec.integrator
        {
            return (
                Info::default(),
                Some(FormulationError::invalid_input(
                    "alf:backend=sparse runs with the ODE integrators (rk45, rk23, adams, midpoint, trapezoidal); central difference and the staggered scheme need the dense backend",
                )),
            );
        }
        let names = body_names(&self.model);
        integrate_ode(
            &mut self.sys,
            spec,
            y0,
            0,
            self.newton.clone(),
            &|i| body_state_label(&names, i),
            obs,
        )
    }

    fn state(&mut self, t: f64, y: &[f64]) -> Result<State, FormulationError> {
        let (q, v) = y.split_at(self.sys.n());
        Ok(super::sample_state(t, q, v))
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
    }

    fn accelerations(&mut self, s: &State) -> Result<DVector<f64>, FormulationError> {
        let s = s.to_layout(SAMPLE_LAYOUT);
        self.sys
            .accelerations_vec(s.t, s.q.as_slice(), s.v.as_slice(), &mut self.qdd)
            .map_err(|e| Self::failed(s.t, e))?;
        Ok(self.qdd.clone())
    }
}
