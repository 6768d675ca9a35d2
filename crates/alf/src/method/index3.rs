//! ALF-INDEX3 (Bayo–Ledesma eqs 35–40) as the facade runs it: its parameters, and
//! the run through the shared [`Runner`] over `mbs-integrators`' descriptor
//! integrator (the paper's trapezoidal or midpoint rule with `--h`, or
//! generalized-α, adaptive or fixed step).

use std::sync::Arc;

use mbs_formulation::params::{self, Key, Params, Preset};
use mbs_formulation::{
    DivergenceCheck, Formulation, FormulationError, OdeFormulation, RunSpec, RunStats,
    SAMPLE_LAYOUT, Sample, StepCheck, drive,
};
use mbs_integrators::descriptor::DescriptorSettings;
use mbs_integrators::{Info, Observer};
use mbs_model::{Model, State};
use nalgebra::DVector;

use crate::descriptor::Descriptor;
use crate::index3::{AlfIndex3, Index3Params};
use crate::mechanism::MechanismDescriptor;

impl Params for Index3Params {
    fn keys() -> &'static [Key<Self>] {
        &[
            Key {
                key: "alpha",
                meaning: "penalty α",
                get: |p| Some(params::number_text(p.alpha)),
                set: |p, v| params::assign(&mut p.alpha, params::positive(v)),
            },
            Key {
                key: "iter",
                meaning: "maximum Newton (augmented-Lagrangian) iterations per step",
                get: |p| Some(p.max_newton.to_string()),
                set: |p, v| params::assign(&mut p.max_newton, params::count(v)),
            },
            Key {
                key: "tol",
                meaning: "Newton tolerance on ‖Δq‖∞/(1 + ‖q‖∞) and ‖Φ‖∞/(1 + ‖q‖∞)",
                get: |p| Some(params::number_text(p.newton_tol)),
                set: |p, v| params::assign(&mut p.newton_tol, params::positive(v)),
            },
        ]
    }

    fn presets() -> &'static [Preset<Self>] {
        &[Preset {
            make: Index3Params::default,
            aliases: &[],
            summary: "augmented Lagrangian index-3 (positions primary) with projections; the descriptor integrator's trapezoidal or midpoint rule (--h) or generalized-alpha",
        }]
    }

    fn name(&self) -> &'static str {
        "alf-index3"
    }

    /// M, the leading matrix, the tangent matrix and Φ_q (dense).
    fn dense_entries(&self, model: &Model) -> u128 {
        super::kkt_entries(model)
    }

    fn build(&self, model: Arc<Model>) -> Result<Box<dyn Formulation>, FormulationError> {
        let run = Index3Run {
            model: model.clone(),
            params: *self,
            sys: None,
        };
        Ok(Box::new(mbs_formulation::Runner::new(
            params::display(self),
            model,
            run,
        )))
    }
}

/// ALF-INDEX3 on a model: y = [q, q̇, q̈, λ*] of the descriptor integrator.
#[derive(Debug)]
struct Index3Run {
    model: Arc<Model>,
    params: Index3Params,
    sys: Option<AlfIndex3<MechanismDescriptor>>,
}

impl Index3Run {
    /// A fresh system (multipliers and counters reset).
    fn fresh(&mut self) -> &mut AlfIndex3<MechanismDescriptor> {
        self.sys.insert(AlfIndex3::new(
            MechanismDescriptor::new(self.model.clone()),
            self.params,
        ))
    }

    fn settings(&self, spec: &RunSpec<'_>) -> DescriptorSettings {
        let d = MechanismDescriptor::new(self.model.clone());
        DescriptorSettings {
            dims: (d.n(), d.n(), d.m()),
            newton: self.params.newton(),
            max_steps: spec.max_steps,
            project_every: 1,
        }
    }
}

impl OdeFormulation for Index3Run {
    fn start(&mut self, spec: &RunSpec<'_>) -> Result<(Vec<f64>, StepCheck), FormulationError> {
        spec.integrator
            .descriptor_params(&self.settings(spec))
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        let s0 = spec.initial;
        let (t, n) = (s0.t, s0.q.len());
        let sys = self.fresh();
        let mut a = vec![0.0; n];
        sys.initial_accelerations(t, s0.q.as_slice(), s0.v.as_slice(), &mut a)
            .map_err(|e| FormulationError::failed(e.time().unwrap_or(t), e.to_string()))?;
        let mut y0 = s0.q.as_slice().to_vec();
        y0.extend_from_slice(s0.v.as_slice());
        y0.extend_from_slice(&a);
        y0.extend_from_slice(sys.multipliers().as_slice());
        let check = DivergenceCheck::new(&self.model, spec.divergence_limit);
        Ok((
            y0,
            Box::new(move |t, y| check.check(t, &y[..n], &y[n..2 * n])),
        ))
    }

    fn integrate<O: Observer>(
        &mut self,
        spec: &RunSpec<'_>,
        y0: &[f64],
        obs: &mut O,
    ) -> (Info, Option<FormulationError>) {
        let settings = self.settings(spec);
        let names: Vec<String> = self.model.bodies().iter().map(|b| b.name.clone()).collect();
        let label = move |i: usize| drive::body_state_label(&names, i);
        let sys = self.sys.as_mut().expect("started");
        drive::integrate_descriptor(sys, spec, y0, &settings, &label, obs)
    }

    fn state(&mut self, t: f64, y: &[f64]) -> Result<State, FormulationError> {
        let n = self.model.n_bodies() * SAMPLE_LAYOUT.q_per_body();
        Ok(super::sample_state(t, &y[..n], &y[n..2 * n]))
    }

    /// q̈ and λ* of the step (interpolated linearly / of the step's end).
    fn enrich(&mut self, _t: f64, y: &[f64], sample: &mut Sample) {
        let n = self.model.n_bodies() * SAMPLE_LAYOUT.q_per_body();
        sample.accelerations = Some(DVector::from_column_slice(&y[2 * n..3 * n]));
        sample.multipliers = Some(DVector::from_column_slice(&y[3 * n..]));
    }

    /// Its own counts: Newton iterations, evaluations of the descriptor (two or
    /// three per iteration), two projections per step.
    fn count(&self, stats: &mut RunStats) {
        if let Some(sys) = &self.sys {
            let s = sys.stats();
            stats.newton_iterations = s.newton_iterations as usize;
            stats.rhs_evals = s.evaluations as usize;
            stats.projections = 2 * s.steps as usize;
        }
    }

    fn accelerations(&mut self, s: &State) -> Result<DVector<f64>, FormulationError> {
        let sys = match self.sys.take() {
            Some(st) => self.sys.insert(st),
            None => self.fresh(),
        };
        let mut a = vec![0.0; s.q.len()];
        sys.initial_accelerations(s.t, s.q.as_slice(), s.v.as_slice(), &mut a)
            .map_err(|e| FormulationError::failed(s.t, e.to_string()))?;
        Ok(DVector::from_vec(a))
    }
}
