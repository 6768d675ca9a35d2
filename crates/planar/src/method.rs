//! The method `planar` as the facade runs it: the model checked planar
//! ([`PlanarModel::new`]), its (x, y, θ) equations ([`PlanarDescriptor`]) integrated as
//! algorithm ALF-INDEX1 of Bayo & Ledesma (1996, Table 2) — augmented-Lagrangian
//! accelerations (eqs 6–8) and mass-orthogonal projections of positions and velocities
//! (eqs 13–15, 23–24) after every `every` accepted steps — by `mbs-alf`'s [`Index1`],
//! the same kernels as the 3-D method `alf-index1`.

use std::sync::Arc;

use mbs_alf::{
    AlfParams, AlphaScale, Formulation as Accelerations, Index1, Projection, ProjectionParams,
};
use mbs_formulation::drive::{integrate_ode, newton};
use mbs_formulation::params::{self, Key, Params, Preset};
use mbs_formulation::qdd_from_omega_dot;
use mbs_formulation::{
    Formulation, FormulationError, OdeFormulation, RunSpec, RunStats, Runner, SAMPLE_LAYOUT,
    Sample, StepCheck,
};
use mbs_integrators::{Info, IntegratorChoice, NewtonParams, Observer};
use mbs_model::{Model, State};
use nalgebra::DVector;

use crate::descriptor::PlanarDescriptor;
use crate::planar_model::PlanarModel;
use crate::state_map::{from_state, to_state};

/// Parameters of the planar method: the augmented-Lagrangian penalty and the
/// projection period, with the defaults of `alf-index1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanarParams {
    /// Penalty: absolute α (`alpha=`) or relative κ (`kappa=`).
    pub alpha: AlphaScale,
    /// Projection period in accepted steps (0 = never).
    pub projection_every: usize,
}

impl Default for PlanarParams {
    fn default() -> Self {
        Self {
            alpha: AlphaScale::DEFAULT,
            projection_every: 1,
        }
    }
}

/// The model's body names.
fn names(model: &Model) -> Vec<String> {
    model.bodies().iter().map(|b| b.name.clone()).collect()
}

impl Params for PlanarParams {
    fn keys() -> &'static [Key<Self>] {
        &[
            Key {
                key: "alpha",
                meaning: "absolute penalty α (instead of kappa)",
                get: |p| match p.alpha {
                    AlphaScale::Absolute(a) => Some(params::number_text(a)),
                    AlphaScale::Relative(_) => None,
                },
                set: |p, v| {
                    params::assign(&mut p.alpha, params::positive(v).map(AlphaScale::Absolute))
                },
            },
            Key {
                key: "kappa",
                meaning: "relative penalty κ: α = κ·tr M/tr(Φ_qᵀΦ_q) at the initial state",
                get: |p| match p.alpha {
                    AlphaScale::Relative(k) => Some(params::number_text(k)),
                    AlphaScale::Absolute(_) => None,
                },
                set: |p, v| {
                    params::assign(&mut p.alpha, params::positive(v).map(AlphaScale::Relative))
                },
            },
            Key {
                key: "every",
                meaning: "projection period in accepted steps (0 = never)",
                get: |p| Some(p.projection_every.to_string()),
                set: |p, v| params::assign(&mut p.projection_every, params::count(v)),
            },
        ]
    }

    fn presets() -> &'static [Preset<Self>] {
        &[Preset {
            make: PlanarParams::default,
            aliases: &[],
            summary: "planar models only: (x, y, θ) per body, in-plane rows, augmented Lagrangian index-1 with projections",
        }]
    }

    fn name(&self) -> &'static str {
        "planar"
    }

    fn build(&self, model: Arc<Model>) -> Result<Box<dyn Formulation>, FormulationError> {
        let planar =
            PlanarModel::new(&model).map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        let initial = State::initial(&model, SAMPLE_LAYOUT);
        let (q0, v0, heights) = from_state(&initial, &names(&model))
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        let mut d = PlanarDescriptor::new(model.clone(), planar, heights);
        // an out-of-plane load shows at the first evaluation: refuse the model here
        let alpha = self
            .alpha
            .resolve(&mut d, 0.0, &q0, &v0)
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        let projection = if self.projection_every > 0 {
            Projection::AugmentedLagrangian(ProjectionParams::default())
        } else {
            Projection::None
        };
        let accelerations = Accelerations::Alf(AlfParams {
            alpha,
            ..AlfParams::default()
        });
        // as for alf-index1: the implicit rules' Newton test tied to α's round-off
        let newton_tol = (1e3 * alpha * f64::EPSILON).clamp(1e-10, 1e-7);
        let run = PlanarRun {
            names: names(&model),
            sys: Index1::new(d, accelerations, projection),
            project_every: self.projection_every,
            newton: newton(newton_tol),
            qdd: DVector::zeros(q0.len()),
            state: State::zeros(SAMPLE_LAYOUT, model.n_bodies()),
        };
        Ok(Box::new(Runner::new(params::display(self), model, run)))
    }

    /// The implicit midpoint rule (Bayo–Ledesma, Table 1), as `alf-index1`.
    fn paper_fixed_step_rule(&self, h: f64) -> IntegratorChoice {
        IntegratorChoice::Midpoint { h }
    }
}

/// [`Index1`] on a planar descriptor with the run's settings.
#[derive(Debug)]
struct PlanarRun {
    names: Vec<String>,
    sys: Index1<PlanarDescriptor>,
    project_every: usize,
    newton: NewtonParams,
    qdd: DVector<f64>,
    /// The 3-D state of the last sample (buffer).
    state: State,
}

impl PlanarRun {
    fn heights(&self) -> &[f64] {
        self.sys.system().heights()
    }
}

impl OdeFormulation for PlanarRun {
    fn start(&mut self, spec: &RunSpec<'_>) -> Result<(Vec<f64>, StepCheck), FormulationError> {
        let (q, v, z) = from_state(spec.initial, &self.names)
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        let expected = self.heights();
        if let Some(b) = (0..z.len()).find(|&b| (z[b] - expected[b]).abs() > 1e-9) {
            return Err(FormulationError::invalid_input(format!(
                "body `{}` initial height z = {} is not the model's plane z = {} (the planar method keeps heights)",
                self.names[b], z[b], expected[b]
            )));
        }
        let mut y0 = q;
        y0.extend_from_slice(&v);
        Ok((y0, mbs_formulation::finite_check()))
    }

    fn integrate<O: Observer>(
        &mut self,
        spec: &RunSpec<'_>,
        y0: &[f64],
        obs: &mut O,
    ) -> (Info, Option<FormulationError>) {
        let names = self.names.clone();
        let label = move |i: usize| {
            const C: [&str; 3] = ["x", "y", "θ"];
            let n = 3 * names.len();
            let (kind, k) = if i < n { ("", i) } else { ("rate of ", i - n) };
            match names.get(k / 3) {
                Some(b) => format!("body `{b}` {kind}{}", C[k % 3]),
                None => format!("state component {i}"),
            }
        };
        integrate_ode(
            &mut self.sys,
            spec,
            y0,
            self.project_every,
            self.newton.clone(),
            &label,
            obs,
        )
    }

    fn state(&mut self, t: f64, y: &[f64]) -> Result<State, FormulationError> {
        let (q, v) = y.split_at(self.sys.n());
        let heights = self.sys.system().heights().to_vec();
        to_state(&mut self.state, &heights, t, q, v);
        Ok(self.state.clone())
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
            sample.accelerations = Some(self.accelerations_3d(&sample.state));
        }
    }

    fn count(&self, stats: &mut RunStats) {
        let s = self.sys.stats();
        stats.multiplier_iterations = s.alf_iterations as usize;
        stats.projections = s.projections as usize;
    }

    fn accelerations(&mut self, s: &State) -> Result<DVector<f64>, FormulationError> {
        let (q, v, _) = from_state(s, &self.names)
            .map_err(|e| FormulationError::invalid_input(e.to_string()))?;
        self.sys
            .accelerations(s.t, &q, &v, &mut self.qdd)
            .map_err(|e| FormulationError::failed(s.t, e.to_string()))?;
        Ok(self.accelerations_3d(s))
    }
}

impl PlanarRun {
    /// q̈ = [r̈, p̈] (7 per body) of the last planar accelerations (ẍ, ÿ, θ̈) at the 3-D
    /// state `s`: r̈ = (ẍ, ÿ, 0), ω̇′ = (0, 0, θ̈).
    fn accelerations_3d(&self, s: &State) -> DVector<f64> {
        let n = self.names.len();
        let mut a6 = vec![0.0; 6 * n];
        for b in 0..n {
            a6[6 * b] = self.qdd[3 * b];
            a6[6 * b + 1] = self.qdd[3 * b + 1];
            a6[6 * b + 5] = self.qdd[3 * b + 2];
        }
        qdd_from_omega_dot(s, &a6)
    }
}
