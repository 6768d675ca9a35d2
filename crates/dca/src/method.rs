//! ALF-DCA as the facade runs it: the `key=value` parameters of [`DcaParams`], the
//! method names `alf-dca` (without projections) and `alf-dca-proj`, and the run in
//! y = [r, p; ṙ, ω'] mapped to absolute states.

use std::sync::Arc;

use mbs_formulation::drive::{integrate_ode, newton, plain_state_label};
use mbs_formulation::params::{self, Key, Params, Preset};
use mbs_formulation::{
    Formulation, FormulationError, OdeFormulation, RunSpec, RunStats, Runner, Sample, StepCheck,
};
use mbs_formulation::{finite_check, qdd_from_omega_dot};
use mbs_integrators::{Info, Observer, OdeSystem};
use mbs_model::{Model, State};
use nalgebra::DVector;

use crate::params::{DcaParams, PenaltyScale};
use crate::system::AlfDca;

impl Params for DcaParams {
    fn keys() -> &'static [Key<Self>] {
        &[
            Key {
                key: "alpha",
                meaning: "absolute penalty α of the multiplier iterations (eqs 6–8, 17), the same for every row (instead of kappa; the paper: 1e6 for unit masses)",
                get: |p| match p.alpha {
                    PenaltyScale::Absolute(a) => Some(params::number_text(a)),
                    PenaltyScale::Relative(_) => None,
                },
                set: |p, v| {
                    params::assign(
                        &mut p.alpha,
                        params::positive(v).map(PenaltyScale::Absolute),
                    )
                },
            },
            Key {
                key: "kappa",
                meaning: "relative penalty κ of the multiplier iterations: α_r = κ/(Φ_q,r M⁻¹ Φ_q,rᵀ) per constraint row, M of the row's two bodies",
                get: |p| match p.alpha {
                    PenaltyScale::Relative(k) => Some(params::number_text(k)),
                    PenaltyScale::Absolute(_) => None,
                },
                set: |p, v| {
                    params::assign(
                        &mut p.alpha,
                        params::positive(v).map(PenaltyScale::Relative),
                    )
                },
            },
            Key {
                key: "tol",
                meaning: "tolerance ε_a of the multiplier iteration on ‖Δq̈‖∞/(1 + ‖q̈‖∞) (default: 1e-2 · rtol, not below round-off)",
                get: |p| (!p.eps_a_follows_rtol).then(|| params::number_text(p.eps_a)),
                set: |p, v| {
                    p.eps_a_follows_rtol = false;
                    params::assign(&mut p.eps_a, params::positive(v))
                },
            },
            Key {
                key: "mu",
                meaning: "damping ratio μ of the stabilization term 2Ωμ Φ̇ (eqs 7–8)",
                get: |p| Some(params::number_text(p.mu)),
                set: |p, v| params::assign(&mut p.mu, params::non_negative(v)),
            },
            Key {
                key: "omega",
                meaning: "natural frequency Ω of the stabilization terms 2Ωμ Φ̇ + Ω²Φ (eqs 7–8)",
                get: |p| Some(params::number_text(p.omega)),
                set: |p, v| params::assign(&mut p.omega, params::non_negative(v)),
            },
            Key {
                key: "iter",
                meaning: "maximum multiplier iterations of the accelerations",
                get: |p| Some(p.max_iter.to_string()),
                set: |p, v| params::assign(&mut p.max_iter, params::count(v)),
            },
            Key {
                key: "project",
                meaning: "mass-orthogonal projections of positions and velocities after every step (eqs 41–72)",
                get: |p| Some(p.projections.to_string()),
                set: |p, v| params::assign(&mut p.projections, params::flag(v)),
            },
        ]
    }

    fn presets() -> &'static [Preset<Self>] {
        &[
            Preset {
                make: DcaParams::without_projections,
                aliases: &[],
                summary: "ALF divide-and-conquer, without projections",
            },
            Preset {
                make: DcaParams::default,
                aliases: &[],
                summary: "ALF divide-and-conquer with DCA-form projections",
            },
        ]
    }

    fn name(&self) -> &'static str {
        if self.projections {
            "alf-dca-proj"
        } else {
            "alf-dca"
        }
    }

    fn build(&self, model: Arc<Model>) -> Result<Box<dyn Formulation>, FormulationError> {
        let sys = AlfDca::new(model.clone(), *self);
        Ok(Box::new(Runner::new(params::display(self), model, sys)))
    }
}

impl OdeFormulation for AlfDca {
    fn start(&mut self, spec: &RunSpec<'_>) -> Result<(Vec<f64>, StepCheck), FormulationError> {
        Ok((self.from_state(spec.initial), finite_check()))
    }

    fn integrate<O: Observer>(
        &mut self,
        spec: &RunSpec<'_>,
        y0: &[f64],
        obs: &mut O,
    ) -> (Info, Option<FormulationError>) {
        let every = usize::from(self.params().projections);
        if let Some((rtol, _)) = spec.integrator.tolerances() {
            let p = *self.params();
            if p.eps_a_follows_rtol {
                self.set_params(DcaParams {
                    eps_a: p.eps_a_for(rtol),
                    ..p
                });
            }
        }
        // implicit rules: a Newton tolerance above the round-off of the iterated
        // accelerations (≈ 1e-12 relative)
        integrate_ode(
            self,
            spec,
            y0,
            every,
            newton(1e-10),
            &plain_state_label,
            obs,
        )
    }

    fn state(&mut self, t: f64, y: &[f64]) -> Result<State, FormulationError> {
        Ok(self.to_state(t, y))
    }

    fn project_sample(&mut self, t: f64, y: &mut [f64]) {
        if self.params().projections {
            let _ = self.project(t, y);
        }
    }

    fn enrich(&mut self, _t: f64, _y: &[f64], sample: &mut Sample) {
        if let Ok(a) = OdeFormulation::accelerations(self, &sample.state) {
            sample.accelerations = Some(a);
        }
    }

    fn count(&self, stats: &mut RunStats) {
        let s = self.stats();
        stats.multiplier_iterations = s.iterations;
        stats.projections = s.projections;
    }

    fn accelerations(&mut self, s: &State) -> Result<DVector<f64>, FormulationError> {
        let mut a6 = vec![0.0; 6 * s.n_bodies()];
        self.accelerations_at(s, &mut a6)
            .map(|_| qdd_from_omega_dot(s, &a6))
            .map_err(|e| FormulationError::failed(s.t, e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use mbs_formulation::params;

    use super::*;

    #[test]
    fn names_follow_the_projections_and_parameters_round_trip() {
        let p = params::preset::<DcaParams>("alf-dca").unwrap();
        assert!(!p.projections);
        let mut q = p;
        params::set(&mut q, "project", "true").unwrap();
        assert_eq!(params::display(&q), "alf-dca-proj");
        params::set(&mut q, "alpha", "1e5").unwrap();
        assert_eq!(params::display(&q), "alf-dca-proj:alpha=1e5");
        assert_eq!(q.alpha, PenaltyScale::Absolute(1e5));
        params::set(&mut q, "kappa", "1e2").unwrap();
        assert_eq!(params::display(&q), "alf-dca-proj:kappa=1e2");
        assert_eq!(q.alpha, PenaltyScale::Relative(1e2));
        let e = params::set(&mut q, "omega", "-1").unwrap_err().to_string();
        assert!(e.contains("omega") && e.contains("-1"), "{e}");
    }
}
