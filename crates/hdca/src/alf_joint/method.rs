//! `alf-joint` as the facade runs it: the method name and its parameters, the run in
//! joint coordinates and quasi-velocities started from the given state (the tree's
//! state map, [`crate::Aba::state_to_y`]) and mapped back to absolute states.

use std::sync::Arc;

use mbs_formulation::drive::{integrate_ode, newton, plain_state_label};
use mbs_formulation::finite_check;
use mbs_formulation::params::{self, Key, Params, Preset};
use mbs_formulation::qdd_from_omega_dot;
use mbs_formulation::{
    Formulation, FormulationError, OdeFormulation, RunSpec, RunStats, Runner, StepCheck,
};
use mbs_integrators::{Info, Observer, OdeSystem};
use mbs_model::{Model, State};
use nalgebra::DVector;

use super::{JointAlf, JointAlfParams, JointAlpha};

impl Params for JointAlfParams {
    fn keys() -> &'static [Key<Self>] {
        &[
            Key {
                key: "alpha",
                meaning: "absolute penalty α (instead of kappa)",
                get: |p| match p.alpha {
                    JointAlpha::Absolute(a) => Some(params::number_text(a)),
                    JointAlpha::Relative(_) => None,
                },
                set: |p, v| {
                    params::assign(&mut p.alpha, params::positive(v).map(JointAlpha::Absolute))
                },
            },
            Key {
                key: "kappa",
                meaning: "relative penalty κ: α = κ·tr H/‖Φ_q‖²_F at the initial state (H the joint-space mass matrix)",
                get: |p| match p.alpha {
                    JointAlpha::Relative(k) => Some(params::number_text(k)),
                    JointAlpha::Absolute(_) => None,
                },
                set: |p, v| {
                    params::assign(&mut p.alpha, params::positive(v).map(JointAlpha::Relative))
                },
            },
            Key {
                key: "mu",
                meaning: "damping ratio μ of the penalty system (eq 5)",
                get: |p| Some(params::number_text(p.mu)),
                set: |p, v| params::assign(&mut p.mu, params::non_negative(v)),
            },
            Key {
                key: "omega",
                meaning: "natural frequency Ω of the penalty system (eq 5)",
                get: |p| Some(params::number_text(p.omega)),
                set: |p, v| params::assign(&mut p.omega, params::non_negative(v)),
            },
            Key {
                key: "iter",
                meaning: "maximum multiplier iterations per evaluation (eq 8)",
                get: |p| Some(p.max_iter.to_string()),
                set: |p, v| params::assign(&mut p.max_iter, params::count(v)),
            },
            Key {
                key: "tol",
                meaning: "tolerance of the multiplier iteration on ‖Δu̇‖∞/(1 + ‖u̇‖∞)",
                get: |p| Some(params::number_text(p.tol)),
                set: |p, v| params::assign(&mut p.tol, params::positive(v)),
            },
            Key {
                key: "projection_tol",
                meaning: "tolerance of the position and velocity projections on ‖Φ‖∞/(1 + ‖q‖∞) and ‖Φ̇‖∞/(1 + ‖u‖∞)",
                get: |p| Some(params::number_text(p.projection_tol)),
                set: |p, v| params::assign(&mut p.projection_tol, params::positive(v)),
            },
            Key {
                key: "stall_tol",
                meaning: "residual accepted (relative) when the projection's corrections stall at round-off near a singular configuration",
                get: |p| Some(params::number_text(p.stall_tol)),
                set: |p, v| params::assign(&mut p.stall_tol, params::positive(v)),
            },
        ]
    }

    fn presets() -> &'static [Preset<Self>] {
        &[Preset {
            make: JointAlfParams::default,
            aliases: &[],
            summary: "augmented Lagrangian index-1 in joint coordinates (spanning tree by CRBA, cut joints as constraints) with mass-orthogonal projections every step; small closed loops",
        }]
    }

    fn name(&self) -> &'static str {
        "alf-joint"
    }

    /// A model with a driver or a joint without joint coordinates is invalid input
    /// naming it.
    fn build(&self, model: Arc<Model>) -> Result<Box<dyn Formulation>, FormulationError> {
        let sys = JointAlf::new(model.clone(), self.clone())
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        Ok(Box::new(Runner::new(params::display(self), model, sys)))
    }
}

impl OdeFormulation for JointAlf {
    /// Joint coordinates and quasi-velocities of the given state (a state that
    /// violates a joint is refused, naming it); α from κ there.
    fn start(&mut self, spec: &RunSpec<'_>) -> Result<(Vec<f64>, StepCheck), FormulationError> {
        let t = spec.initial.t;
        let y0 = self
            .aba
            .state_to_y(spec.initial)
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        self.resolve_alpha(t, &y0)
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        Ok((y0, finite_check()))
    }

    fn integrate<O: Observer>(
        &mut self,
        spec: &RunSpec<'_>,
        y0: &[f64],
        obs: &mut O,
    ) -> (Info, Option<FormulationError>) {
        // projections after every accepted step; implicit rules: a Newton tolerance
        // above the round-off of the penalized solve (≈ κ ε relative)
        integrate_ode(self, spec, y0, 1, newton(1e-9), &plain_state_label, obs)
    }

    /// `∂f/∂y` by [`mbs_formulation::drive::ode_jacobian`] (the linearized spectrum).
    fn jacobian(&mut self, t: f64, y: &[f64]) -> Result<nalgebra::DMatrix<f64>, FormulationError> {
        mbs_formulation::drive::ode_jacobian(self, t, y)
    }

    fn state(&mut self, t: f64, y: &[f64]) -> Result<State, FormulationError> {
        self.aba
            .to_state(t, y)
            .map_err(|e| FormulationError::failed(t, e.to_string()))
    }

    fn project_sample(&mut self, t: f64, y: &mut [f64]) {
        let _ = OdeSystem::project(self, t, y);
    }

    fn count(&self, stats: &mut RunStats) {
        stats.multiplier_iterations = self.stats.multiplier_iterations;
        stats.projections = self.stats.projections;
    }

    /// q̈ = [r̈, p̈] of every body at `state`: y from the state map, one evaluation,
    /// the bodies' accelerations from the spatial accelerations.
    fn accelerations(&mut self, state: &State) -> Result<DVector<f64>, FormulationError> {
        let y = self
            .aba
            .state_to_y(state)
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        let mut dy = vec![0.0; y.len()];
        self.derivative(state.t, &y, &mut dy)
            .map_err(|e| FormulationError::failed(state.t, e.to_string()))?;
        self.spatial_accelerations(&dy[self.n_coords()..]);
        let mut a6 = vec![0.0; 6 * state.n_bodies()];
        self.aba.body_accelerations(&mut a6);
        Ok(qdd_from_omega_dot(state, &a6))
    }
}

#[cfg(test)]
mod tests {
    use mbs_formulation::params;

    use super::*;

    #[test]
    fn the_method_is_called_alf_joint_and_takes_its_keys() {
        let mut p = params::preset::<JointAlfParams>("alf-joint").unwrap();
        assert_eq!(params::display(&p), "alf-joint");
        params::set(&mut p, "kappa", "1e6").unwrap();
        assert_eq!(p.alpha, JointAlpha::Relative(1e6));
        params::set(&mut p, "alpha", "1e3").unwrap();
        assert_eq!(p.alpha, JointAlpha::Absolute(1e3));
        let e = params::set(&mut p, "tol", "-1").unwrap_err();
        assert!(e.to_string().contains("tol"), "{e}");
    }
}
