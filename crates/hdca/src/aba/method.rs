//! ABA as the facade runs it: the method name `aba` (no parameters) and the run in
//! joint coordinates and quasi-velocities, started from the given state
//! ([`Aba::state_to_y`]) and mapped back to absolute states.

use std::sync::Arc;

use mbs_formulation::drive::{integrate_ode, newton, plain_state_label};
use mbs_formulation::finite_check;
use mbs_formulation::params::{self, Key, Params, Preset};
use mbs_formulation::qdd_from_omega_dot;
use mbs_formulation::{
    Formulation, FormulationError, OdeFormulation, RunSpec, RunStats, Runner, StepCheck,
};
use mbs_integrators::{Info, Observer};
use mbs_model::{Model, State};
use nalgebra::DVector;

use super::{Aba, AbaParams};

impl Params for AbaParams {
    fn keys() -> &'static [Key<Self>] {
        &[]
    }

    fn presets() -> &'static [Preset<Self>] {
        &[Preset {
            make: AbaParams::default,
            aliases: &[],
            summary: "articulated-body algorithm (Featherstone) in joint coordinates, O(n), open trees only",
        }]
    }

    fn name(&self) -> &'static str {
        "aba"
    }

    /// A model with a closed loop, a driver or a joint without joint coordinates is
    /// invalid input naming it.
    fn build(&self, model: Arc<Model>) -> Result<Box<dyn Formulation>, FormulationError> {
        let sys = Aba::new(model.clone(), self.clone())
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        Ok(Box::new(Runner::new(params::display(self), model, sys)))
    }
}

impl OdeFormulation for Aba {
    /// Joint coordinates and quasi-velocities of the given state (a state that
    /// violates a joint is refused, naming it).
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
        // the projection hook renormalizes the joint Euler parameters after every step
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
        let _ = mbs_integrators::OdeSystem::project(self, t, y);
    }

    /// The hook only renormalizes joint Euler parameters: no constraint projections.
    fn count(&self, stats: &mut RunStats) {
        stats.projections = 0;
    }

    /// q̈ = [r̈, p̈] of every body at `state`: y from the state map, one evaluation,
    /// the bodies' accelerations from the spatial accelerations.
    fn accelerations(&mut self, state: &State) -> Result<DVector<f64>, FormulationError> {
        let y = self
            .state_to_y(state)
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        let mut dy = vec![0.0; y.len()];
        self.derivative(state.t, &y, &mut dy)
            .map_err(|e| FormulationError::failed(state.t, e.to_string()))?;
        let mut a6 = vec![0.0; 6 * state.n_bodies()];
        self.body_accelerations(&mut a6);
        Ok(qdd_from_omega_dot(state, &a6))
    }
}

#[cfg(test)]
mod tests {
    use mbs_formulation::params;

    use super::*;

    #[test]
    fn the_method_is_called_aba_and_has_no_keys() {
        let mut p = params::preset::<AbaParams>("aba").unwrap();
        assert_eq!(params::display(&p), "aba");
        let e = params::set(&mut p, "tol", "1").unwrap_err();
        assert!(e.to_string().contains("tol"), "{e}");
    }
}
