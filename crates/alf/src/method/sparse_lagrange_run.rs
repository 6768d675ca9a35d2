//! The `lagrange:backend=sparse` run (and `lagrange-baumgarte:backend=sparse`):
//! Lagrange multipliers (Bayo–Ledesma eq 4) with the sparse KKT solve of
//! [`SparseLagrange`], O(n) per evaluation for chains and trees, as an
//! [`OdeFormulation`]. Models with dependent constraint rows at the initial state
//! never reach it (see [`crate::LagrangeParams`]'s build): strict runs stop at the
//! start with the dependent joints named, the others run the dense least-squares
//! solve.

use std::sync::Arc;

use mbs_formulation::drive::newton;
use mbs_formulation::{
    FormulationError, OdeFormulation, RunSpec, SAMPLE_LAYOUT, Sample, StepCheck,
};
use mbs_integrators::{Info, NewtonParams, Observer};
use mbs_model::{Model, State};
use nalgebra::DVector;

use super::index1::descriptor_start;
use super::sparse_run::integrate_unpartitioned;
use crate::error::AlfError;
use crate::sparse_lagrange::SparseLagrange;

#[derive(Debug)]
pub(crate) struct SparseLagrangeRun {
    /// The method as written (for errors).
    label: String,
    /// The method name (for the branch guard's error).
    family: &'static str,
    model: Arc<Model>,
    sys: SparseLagrange,
    /// The rank probe's verdict at the initial state, reported at the start.
    dependent: Option<AlfError>,
    newton: NewtonParams,
    qdd: DVector<f64>,
}

impl SparseLagrangeRun {
    pub(crate) fn new(
        label: String,
        family: &'static str,
        model: Arc<Model>,
        sys: SparseLagrange,
        dependent: Option<AlfError>,
    ) -> Self {
        let n = sys.n();
        Self {
            label,
            family,
            model,
            sys,
            dependent,
            // the KKT solve is exact to round-off: the implicit rules' default
            newton: newton(1e-12),
            qdd: DVector::zeros(n),
        }
    }
}

impl OdeFormulation for SparseLagrangeRun {
    fn start(&mut self, spec: &RunSpec<'_>) -> Result<(Vec<f64>, StepCheck), FormulationError> {
        if let Some(e) = self.dependent.take() {
            return Err(FormulationError::failed(
                e.time().unwrap_or(0.0),
                e.to_string(),
            ));
        }
        Ok(descriptor_start(&self.model, self.family, spec, true))
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
            0,
            self.newton.clone(),
            obs,
        )
    }

    fn state(&mut self, t: f64, y: &[f64]) -> Result<State, FormulationError> {
        let (q, v) = y.split_at(self.sys.n());
        Ok(super::sample_state(t, q, v))
    }

    fn enrich(&mut self, t: f64, y: &[f64], sample: &mut Sample) {
        let (q, v) = y.split_at(self.sys.n());
        if self
            .sys
            .accelerations(t, q, v, self.qdd.as_mut_slice())
            .is_ok()
        {
            sample.accelerations = Some(self.qdd.clone());
            sample.multipliers = Some(DVector::from_column_slice(self.sys.multipliers()));
        }
    }

    fn accelerations(&mut self, s: &State) -> Result<DVector<f64>, FormulationError> {
        let s = s.to_layout(SAMPLE_LAYOUT);
        self.sys
            .accelerations(s.t, s.q.as_slice(), s.v.as_slice(), self.qdd.as_mut_slice())
            .map_err(|e| FormulationError::failed(s.t, e.to_string()))?;
        Ok(self.qdd.clone())
    }
}
