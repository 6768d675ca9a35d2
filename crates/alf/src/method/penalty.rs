//! Chiou's penalty method (sec 5.3) as the facade runs it: its parameters, the
//! two-stage staggered procedure (or plain central differences) on the [ṙ, ω']
//! layout with [`PenaltySystem`], or the penalty ODE y = [x, v, λ] with
//! [`PenaltyOde`] for the other integrators.

use std::sync::Arc;

use mbs_formulation::drive::{integrate_ode, integrate_partitioned};
use mbs_formulation::params::{self, Key, Params, Preset};
use mbs_formulation::qdd_from_omega_dot;
use mbs_formulation::{
    DivergenceCheck, Formulation, FormulationError, OdeFormulation, RunSpec, RunStats, Runner,
    Sample, StepCheck,
};
use mbs_integrators::{Info, IntegratorChoice, NewtonParams, Observer, OdeSystem};
use mbs_model::{Layout, Model, State};
use nalgebra::DVector;

use super::index1::{body_names, descriptor_check};
use crate::branch::BranchGuard;
use crate::error::AlfError;
use crate::penalty::{LambdaBackend, OneStagePenalty, PenaltyOde, PenaltyParams, PenaltySystem};
use crate::penalty_scale::{DEFAULT_EPSILON_KAPPA, EpsilonScale};

/// Chiou's penalty stabilization λ = Φ/ε (sec 5.3) as a method: the penalty
/// coefficient and the backend of eq 5.5.5.2; the other [`PenaltyParams`] keep
/// their defaults (λ⁰ = the Lagrange multipliers of the initial state, minimum-norm
/// ones for redundant constraints; λ solved at every station).
///
/// ε is relative by default, `kappa=κ`: ε = κ ϱ² d̃ with ϱ = h/2 of the fixed-step
/// rule ([`crate::penalty_scale::ADAPTIVE_HALF_STEP`] under adaptive integrators)
/// and d̃ the median of diag(B M⁻¹ Bᵀ) at the initial state (κ =
/// [`DEFAULT_EPSILON_KAPPA`], see [`EpsilonScale`]); `epsilon=ε` gives the absolute ε
/// of the thesis (1e-6 for its unit masses). Under adaptive integrators, with the
/// run's guard on ([`RunSpec::guard`]), a run stops with a named error when the
/// constraints deflect by more than the tolerance allows (the penalty motion is only
/// O(ε) accurate, [`PenaltyOde::with_tolerance`]).
#[derive(Clone, Copy, Debug)]
pub struct PenaltyMethodParams {
    /// Penalty coefficient: absolute ε (`epsilon=`) or relative κ (`kappa=`).
    pub epsilon: EpsilonScale,
    /// Dense or PCG solve of eq 5.5.5.2.
    pub backend: LambdaBackend,
}

impl Default for PenaltyMethodParams {
    /// Relative ε (κ = [`DEFAULT_EPSILON_KAPPA`]), dense backend.
    fn default() -> Self {
        Self {
            epsilon: EpsilonScale::Relative(DEFAULT_EPSILON_KAPPA),
            backend: LambdaBackend::Dense,
        }
    }
}

impl Params for PenaltyMethodParams {
    fn keys() -> &'static [Key<Self>] {
        &[
            Key {
                key: "epsilon",
                meaning: "absolute penalty coefficient ε of λ = Φ/ε (eq 5.3.1; instead of kappa)",
                get: |p| match p.epsilon {
                    EpsilonScale::Absolute(e) => Some(params::number_text(e)),
                    EpsilonScale::Relative(_) => None,
                },
                set: |p, v| {
                    params::assign(
                        &mut p.epsilon,
                        params::positive(v).map(EpsilonScale::Absolute),
                    )
                },
            },
            Key {
                key: "kappa",
                meaning: "relative penalty κ: ε = κ·ϱ²·median diag(B M⁻¹ Bᵀ), ϱ = h/2 (5 ms under adaptive integrators)",
                get: |p| match p.epsilon {
                    EpsilonScale::Relative(k) => Some(params::number_text(k)),
                    EpsilonScale::Absolute(_) => None,
                },
                set: |p, v| {
                    params::assign(
                        &mut p.epsilon,
                        params::positive(v).map(EpsilonScale::Relative),
                    )
                },
            },
        ]
    }

    fn presets() -> &'static [Preset<Self>] {
        &[
            Preset {
                make: PenaltyMethodParams::default,
                aliases: &[],
                summary: "Chiou's penalty stabilization (ε = κ·ϱ²·median diag(B M⁻¹ Bᵀ), κ = 1e-2; `epsilon=` for an absolute ε), dense solve",
            },
            Preset {
                make: || PenaltyMethodParams {
                    backend: LambdaBackend::pcg(),
                    ..PenaltyMethodParams::default()
                },
                aliases: &[],
                summary: "Chiou's penalty stabilization, Schur-complement PCG",
            },
        ]
    }

    fn name(&self) -> &'static str {
        match self.backend {
            LambdaBackend::Dense => "penalty",
            LambdaBackend::Pcg(_) => "penalty-pcg",
        }
    }

    fn build(&self, model: Arc<Model>) -> Result<Box<dyn Formulation>, FormulationError> {
        let run = PenaltyRun {
            model: model.clone(),
            epsilon: self.epsilon,
            params: PenaltyParams {
                backend: self.backend,
                ..PenaltyParams::default()
            },
            system: None,
            ode: None,
            rhs: None,
            evaluations: 0,
            dims: (0, 0),
        };
        Ok(Box::new(Runner::new(params::display(self), model, run)))
    }

    /// The dense backend's Gᵀ (n × m), B (m × n) and A (m × m) of eq 5.5.5.2; the
    /// preconditioned CG works on the sparse blocks.
    fn dense_entries(&self, model: &Model) -> u128 {
        match self.backend {
            LambdaBackend::Dense => {
                let (n, m) = super::dense_dims(model);
                2 * m * n + m * m
            }
            LambdaBackend::Pcg(_) => 0,
        }
    }

    /// The two-stage staggered scheme (Chiou, sec 5.5).
    fn paper_fixed_step_rule(&self, h: f64) -> IntegratorChoice {
        IntegratorChoice::Staggered { h }
    }
}

/// The penalty method on a mechanism.
#[derive(Debug)]
struct PenaltyRun {
    model: Arc<Model>,
    /// ε as given, resolved for each run's integrator step into `params.epsilon`.
    epsilon: EpsilonScale,
    params: PenaltyParams,
    /// The staggered system of a run with a partitioned integrator.
    system: Option<PenaltySystem>,
    /// The penalty ODE of a run with any other integrator.
    ode: Option<PenaltyOde>,
    /// The ODE and its initial y (λ⁰) kept for repeated `accelerations` calls.
    rhs: Option<(PenaltyOde, Vec<f64>, Vec<f64>)>,
    /// Acceleration evaluations of the last run.
    evaluations: u64,
    /// Lengths of x and v (7 and 6 per body) of the run.
    dims: (usize, usize),
}

fn failed(t: f64, e: AlfError) -> FormulationError {
    FormulationError::failed(e.time().unwrap_or(t), e.to_string())
}

fn partitioned(integrator: IntegratorChoice) -> bool {
    matches!(
        integrator,
        IntegratorChoice::CentralDifference { .. } | IntegratorChoice::Staggered { .. }
    )
}

/// Names component `i` of the penalty ODE's y = [x (7 per body), v = [ṙ, ω'] (6 per
/// body), λ].
fn penalty_state_label(names: &[String], i: usize) -> String {
    const X: [&str; 7] = ["x", "y", "z", "e0", "e1", "e2", "e3"];
    const V: [&str; 6] = ["ṙ_x", "ṙ_y", "ṙ_z", "ω'_x", "ω'_y", "ω'_z"];
    let (nx, nv) = (7 * names.len(), 6 * names.len());
    if i < nx {
        format!("body `{}` coordinate {}", names[i / 7], X[i % 7])
    } else if i < nx + nv {
        let j = i - nx;
        format!("body `{}` velocity {}", names[j / 6], V[j % 6])
    } else {
        format!("multiplier {}", i - nx - nv)
    }
}

impl OdeFormulation for PenaltyRun {
    fn start(&mut self, spec: &RunSpec<'_>) -> Result<(Vec<f64>, StepCheck), FormulationError> {
        let s0 = spec.initial.to_layout(Layout::EulerParamsOmega);
        let (nx, nv) = (s0.q.len(), s0.v.len());
        self.dims = (nx, nv);
        let mut y0 = s0.q.as_slice().to_vec();
        y0.extend_from_slice(s0.v.as_slice());
        (self.system, self.ode) = (None, None);
        // ε for the run's step; adaptive integrators: ϱ of the thesis and, with the
        // guard, the constraint deflection bounded by the tolerance
        let (h, rtol) = match spec.integrator.tolerances() {
            Some((rtol, _)) => (None, Some(rtol)),
            None => (spec.integrator.step(), None),
        };
        self.params.epsilon = self
            .epsilon
            .resolve(self.model.clone(), h)
            .map_err(|e| failed(s0.t, e))?;
        if partitioned(spec.integrator) {
            let sys =
                PenaltySystem::new(self.model.clone(), self.params).map_err(|e| failed(s0.t, e))?;
            self.system = Some(sys);
        } else {
            let mut ode = PenaltyOde::new(self.model.clone(), self.params.epsilon)
                .map_err(|e| failed(s0.t, e))?
                .with_backend(self.params.backend);
            if let Some(rtol) = rtol.filter(|_| spec.guard) {
                ode = ode.with_tolerance(rtol);
            }
            // λ⁰: the initial Lagrange multipliers of the model's initial state
            // (minimum-norm when the constraints are redundant)
            let y = ode.initial_state(s0.t).map_err(|e| failed(s0.t, e))?;
            y0.extend_from_slice(&y[nx + nv..]);
            self.ode = Some(ode);
        }
        let guard = BranchGuard::new(self.model.clone(), "penalty").ok();
        let divergence = DivergenceCheck::new(&self.model, spec.divergence_limit);
        Ok((y0, descriptor_check(divergence, nx, guard)))
    }

    fn integrate<O: Observer>(
        &mut self,
        spec: &RunSpec<'_>,
        y0: &[f64],
        obs: &mut O,
    ) -> (Info, Option<FormulationError>) {
        if let Some(mut sys) = self.system.take() {
            // plain central difference: the one-stage form (λ solved every station)
            let r = match spec.integrator {
                IntegratorChoice::CentralDifference { h } => {
                    let mut one = OneStagePenalty::new(sys, h);
                    let r = integrate_partitioned(&mut one, spec, y0, 1, obs);
                    sys = one.inner;
                    r
                }
                _ => integrate_partitioned(&mut sys, spec, y0, 1, obs),
            };
            self.evaluations = sys.stats().evaluations;
            return r;
        }
        let Some(mut ode) = self.ode.take() else {
            return (
                Info::default(),
                Some(FormulationError::failed(
                    spec.initial.t,
                    "penalty ODE not built",
                )),
            );
        };
        let names = body_names(&self.model);
        let label = |i: usize| penalty_state_label(&names, i);
        let r = integrate_ode(&mut ode, spec, y0, 1, NewtonParams::default(), &label, obs);
        self.evaluations = ode.evaluations();
        self.ode = Some(ode);
        r
    }

    fn state(&mut self, t: f64, y: &[f64]) -> Result<State, FormulationError> {
        let (nx, nv) = self.dims;
        Ok(State {
            layout: Layout::EulerParamsOmega,
            t,
            q: DVector::from_column_slice(&y[..nx]),
            v: DVector::from_column_slice(&y[nx..nx + nv]),
        })
    }

    fn enrich(&mut self, _t: f64, y: &[f64], sample: &mut Sample) {
        let (nx, nv) = self.dims;
        if self.ode.is_some() {
            sample.multipliers = Some(DVector::from_column_slice(&y[nx + nv..]));
        }
    }

    fn count(&self, stats: &mut RunStats) {
        stats.rhs_evals = stats.rhs_evals.max(self.evaluations as usize);
    }

    /// One evaluation of the penalty ODE at `s` with λ = the Lagrange multipliers of
    /// the model's initial state (λ is a state of the penalty formulation: this is
    /// exact at the initial state, which is where the consistency suite compares).
    fn accelerations(&mut self, s: &State) -> Result<DVector<f64>, FormulationError> {
        let s = s.to_layout(Layout::EulerParamsOmega);
        let (nx, nv) = (s.q.len(), s.v.len());
        if self.rhs.is_none() {
            let epsilon = self
                .epsilon
                .resolve(self.model.clone(), None)
                .map_err(|e| failed(s.t, e))?;
            let mut ode = PenaltyOde::new(self.model.clone(), epsilon)
                .map_err(|e| failed(s.t, e))?
                .with_backend(self.params.backend);
            let (_, _, m) = ode.dims();
            let y = ode
                .initial_state(s.t)
                .unwrap_or_else(|_| vec![0.0; nx + nv + m]);
            let dy = vec![0.0; y.len()];
            self.rhs = Some((ode, y, dy));
        }
        let (ode, y, dy) = self
            .rhs
            .as_mut()
            .ok_or_else(|| FormulationError::failed(s.t, "penalty ODE not built"))?;
        y[..nx].copy_from_slice(s.q.as_slice());
        y[nx..nx + nv].copy_from_slice(s.v.as_slice());
        ode.rhs(s.t, y, dy)
            .map_err(|e| FormulationError::failed(s.t, e.to_string()))?;
        Ok(qdd_from_omega_dot(&s, &dy[nx..nx + nv]))
    }
}
