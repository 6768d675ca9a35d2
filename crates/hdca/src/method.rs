//! HDCA as the facade runs it: the method name `hdca` (`redundancy_tol=`, `scale_momenta=`) and
//! the run in joint coordinates and canonical momenta, started from the given state
//! ([`Hdca::state_to_y`]) and mapped back to absolute states.

use std::sync::Arc;

use mbs_formulation::drive::{integrate_ode, newton, plain_state_label};
use mbs_formulation::finite_check;
use mbs_formulation::params::{self, Key, Params, Preset};
use mbs_formulation::{
    Formulation, FormulationError, OdeFormulation, RunSpec, RunStats, Runner, StepCheck,
};
use mbs_integrators::{Info, Observer, OdeSystem};
use mbs_model::{Model, State};
use nalgebra::DVector;

use crate::hdca::Hdca;
use crate::params::HdcaParams;

impl Params for HdcaParams {
    fn keys() -> &'static [Key<Self>] {
        &[
            Key {
                key: "redundancy_tol",
                meaning: "eigenvalue threshold (equilibrated assembly matrices) below which a direction is dropped as redundant; raise it for long loops",
                get: |p| Some(params::number_text(p.redundancy_tol)),
                set: |p, v| params::assign(&mut p.redundancy_tol, params::positive(v)),
            },
            Key {
                key: "scale_momenta",
                meaning: "store momenta divided by the joint-space mass diagonal, so the absolute tolerance acts on joint rates (false: the paper's momenta)",
                get: |p| Some(p.scale_momenta.to_string()),
                set: |p, v| params::assign(&mut p.scale_momenta, params::flag(v)),
            },
        ]
    }

    fn presets() -> &'static [Preset<Self>] {
        &[Preset {
            make: HdcaParams::default,
            aliases: &[],
            summary: "Hamiltonian divide-and-conquer in joint coordinates and momenta",
        }]
    }

    fn name(&self) -> &'static str {
        "hdca"
    }

    /// A model HDCA cannot represent (rolling or curved-path joints, drivers) is
    /// invalid input naming the joint.
    fn build(&self, model: Arc<Model>) -> Result<Box<dyn Formulation>, FormulationError> {
        let sys = Hdca::new(model.clone(), self.clone())
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        Ok(Box::new(Runner::new(params::display(self), model, sys)))
    }
}

impl OdeFormulation for Hdca {
    /// Joint coordinates and canonical momenta of the given state (the run starts
    /// there; a state that violates a joint is refused, naming it).
    fn start(&mut self, spec: &RunSpec<'_>) -> Result<(Vec<f64>, StepCheck), FormulationError> {
        let y0 = self
            .state_to_y(spec.initial)
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        Ok((y0, finite_check()))
    }

    fn integrate<O: Observer>(
        &mut self,
        spec: &RunSpec<'_>,
        y0: &[f64],
        obs: &mut O,
    ) -> (Info, Option<FormulationError>) {
        // the projection hook renormalizes the joint Euler parameters after every
        // step; implicit rules: a Newton tolerance above the round-off of the
        // pseudo-inverse solves (≈ 1e-12 relative)
        integrate_ode(self, spec, y0, 1, newton(1e-10), &plain_state_label, obs)
    }

    /// `∂f/∂y` by [`mbs_formulation::drive::ode_jacobian`] (the linearized spectrum).
    fn jacobian(&mut self, t: f64, y: &[f64]) -> Result<nalgebra::DMatrix<f64>, FormulationError> {
        mbs_formulation::drive::ode_jacobian(self, t, y)
    }

    fn state(&mut self, t: f64, y: &[f64]) -> Result<State, FormulationError> {
        self.to_state(t, y)
            .map_err(|e| FormulationError::failed(t, e.to_string()))
    }

    fn project_sample(&mut self, t: f64, y: &mut [f64]) {
        let _ = self.project(t, y);
    }

    /// The hook only renormalizes joint Euler parameters: no constraint projections
    /// are counted.
    fn count(&self, stats: &mut RunStats) {
        stats.projections = 0;
    }

    fn accelerations(&mut self, state: &State) -> Result<DVector<f64>, FormulationError> {
        let _ = state;
        Err(FormulationError::not_implemented(
            "accelerations are not a function of the absolute state (Hamiltonian form)",
        ))
    }
}
