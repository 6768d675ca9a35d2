//! ALF-INDEX3 (Bayo–Ledesma eqs 35–40) as the facade runs it: its parameters and
//! its own fixed-step loop with the trapezoidal or midpoint rule.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Instant;

use mbs_formulation::params::{self, Key, Params, Preset};
use mbs_formulation::{
    DivergenceCheck, Formulation, FormulationError, RunSpec, RunStats, SAMPLE_LAYOUT, Sample,
    SampleSink,
};
use mbs_integrators::IntegratorChoice;
use mbs_model::{Model, State};
use nalgebra::DVector;

use crate::error::AlfError;
use crate::index3::{AlfIndex3, Index3Params, Rule};
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
            summary: "augmented Lagrangian index-3 (positions primary) with projections, own trapezoidal or midpoint rule",
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
        Ok(Box::new(Index3Run {
            name: params::display(self),
            model,
            params: *self,
            stepper: None,
        }))
    }
}

/// ALF-INDEX3 with its own fixed-step loop (the rule is the integrator's).
#[derive(Debug)]
struct Index3Run {
    name: String,
    model: Arc<Model>,
    params: Index3Params,
    stepper: Option<AlfIndex3<MechanismDescriptor>>,
}

impl Index3Run {
    /// A fresh stepper (multipliers and counters reset) with `rule`.
    fn fresh_stepper(&mut self, rule: Rule) -> &mut AlfIndex3<MechanismDescriptor> {
        let params = Index3Params {
            rule,
            ..self.params
        };
        self.stepper.insert(AlfIndex3::new(
            MechanismDescriptor::new(self.model.clone()),
            params,
        ))
    }
}

/// The cubic Hermite interpolant at `t₀ + w h` of `x` with derivative `m` from its
/// values `(x0, m0)` at `t₀` and `(x1, m1)` at `t₀ + h`.
fn hermite(w: f64, h: f64, x0: &[f64], m0: &[f64], x1: &[f64], m1: &[f64]) -> Vec<f64> {
    let (w2, w3) = (w * w, w * w * w);
    let h00 = 2.0 * w3 - 3.0 * w2 + 1.0;
    let h10 = w3 - 2.0 * w2 + w;
    let h01 = -2.0 * w3 + 3.0 * w2;
    let h11 = w3 - w2;
    (0..x0.len())
        .map(|i| h00 * x0[i] + h * (h10 * m0[i] + h11 * m1[i]) + h01 * x1[i])
        .collect()
}

fn failed(t: f64, e: AlfError) -> FormulationError {
    FormulationError::failed(e.time().unwrap_or(t), e.to_string())
}

impl Formulation for Index3Run {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn run(
        &mut self,
        spec: &RunSpec<'_>,
        sink: &mut dyn SampleSink,
    ) -> Result<RunStats, FormulationError> {
        let (rule, h) = match spec.integrator {
            IntegratorChoice::Trapezoidal { h } => (Rule::Trapezoidal, h),
            IntegratorChoice::Midpoint { h } => (Rule::Midpoint, h),
            other => {
                return Err(FormulationError::invalid_input(format!(
                    "ALF-INDEX3 integrates with its own implicit rule: use --integrator trapezoidal or midpoint (with --h), not {}",
                    other.name()
                )));
            }
        };
        let check = DivergenceCheck::new(&self.model, spec.divergence_limit);
        let start = Instant::now();
        let st = self.fresh_stepper(rule);
        let s0 = spec.initial;
        let n = s0.q.len();
        let (mut q, mut v, mut a) = (
            s0.q.as_slice().to_vec(),
            s0.v.as_slice().to_vec(),
            vec![0.0; n],
        );
        let mut t = s0.t;
        let mut stats = RunStats::default();
        st.initial_accelerations(t, &q, &v, &mut a)
            .map_err(|e| failed(t, e).with_stats(stats))?;
        let mut out = spec.output_times.iter().copied().peekable();
        // The samples are kept during the integration and handed to the sink after it
        // (as the ODE front-ends' runner does): the sink's per-sample work (energies,
        // constraint norms, the singular-configuration watch) is not part of the
        // timed integration, and a failure still delivers the samples before it.
        let mut pending: Vec<Sample> = Vec::with_capacity(spec.output_times.len());
        let mut sampling = 0.0;
        let emit = |t: f64,
                    q: &[f64],
                    v: &[f64],
                    a: &[f64],
                    lam: &DVector<f64>,
                    pending: &mut Vec<Sample>| {
            let mut s = Sample::new(super::sample_state(t, q, v));
            s.accelerations = Some(DVector::from_column_slice(a));
            s.multipliers = Some(lam.clone());
            pending.push(s);
        };
        let deliver = |pending: Vec<Sample>, sink: &mut dyn SampleSink| {
            for s in pending {
                sink.sample(s);
            }
        };
        // samples at t0
        while let Some(&to) = out.peek() {
            if to > t + 1e-9 * h {
                break;
            }
            emit(t, &q, &v, &a, st.multipliers(), &mut pending);
            out.next();
        }
        let (mut qp, mut vp, mut ap) = (q.clone(), v.clone(), a.clone());
        // station k at t0 + k h (no accumulated round-off), the last one at t_end
        let (t0, span) = (t, spec.t_end - t);
        let n_steps = ((span / h) * (1.0 - 1e-12)).ceil().max(0.0) as usize;
        let station = |k: usize| {
            if k >= n_steps {
                spec.t_end
            } else {
                t0 + k as f64 * h
            }
        };
        for k in 0..n_steps {
            qp.copy_from_slice(&q);
            vp.copy_from_slice(&v);
            ap.copy_from_slice(&a);
            let t_prev = t;
            let hk = station(k + 1) - t_prev;
            let r = st.step(t, hk, &mut q, &mut v, &mut a);
            let s3 = st.stats();
            stats.accepted_steps = k + 1;
            stats.newton_iterations = s3.newton_iterations as usize;
            stats.rhs_evals = s3.evaluations as usize;
            stats.projections = 2 * (k + 1);
            if let Err(e) = r {
                stats.integration_seconds = Some(start.elapsed().as_secs_f64());
                stats.sampling_seconds = Some(sampling);
                deliver(pending, sink);
                return Err(failed(t, e).with_stats(stats));
            }
            t = station(k + 1);
            if let Some(e) = check.check(t, &q, &v) {
                stats.integration_seconds = Some(start.elapsed().as_secs_f64());
                stats.sampling_seconds = Some(sampling);
                deliver(pending, sink);
                return Err(e.with_stats(stats));
            }
            // output times inside (t_prev, t]: linear interpolation between steps
            let clock = out
                .peek()
                .is_some_and(|&to| to <= t + 1e-9 * h)
                .then(Instant::now);
            while let Some(&to) = out.peek() {
                if to > t + 1e-9 * h {
                    break;
                }
                let w = ((to - t_prev) / hk).clamp(0.0, 1.0);
                if w > 1.0 - 1e-9 {
                    emit(to, &q, &v, &a, st.multipliers(), &mut pending);
                } else {
                    // positions from (q, q̇) and velocities from (q̇, q̈) at both ends
                    // (cubic Hermite, error O(h⁴)): a straight line between the
                    // steps' positions is O(h²) off the motion, enough for the
                    // energy guard to see a wrong motion at samples between steps
                    let lerp = |x0: &[f64], x1: &[f64]| -> Vec<f64> {
                        x0.iter().zip(x1).map(|(a, b)| a + w * (b - a)).collect()
                    };
                    emit(
                        to,
                        &hermite(w, hk, &qp, &vp, &q, &v),
                        &hermite(w, hk, &vp, &ap, &v, &a),
                        &lerp(&ap, &a),
                        st.multipliers(),
                        &mut pending,
                    );
                }
                out.next();
            }
            if let Some(c) = clock {
                sampling += c.elapsed().as_secs_f64();
            }
            if sink.step(t) == ControlFlow::Break(()) {
                break;
            }
        }
        stats.integration_seconds = Some(start.elapsed().as_secs_f64());
        stats.sampling_seconds = Some(sampling);
        deliver(pending, sink);
        Ok(stats)
    }

    fn accelerations(&mut self, s: &State) -> Result<DVector<f64>, FormulationError> {
        let s = s.to_layout(SAMPLE_LAYOUT);
        let st = match self.stepper.take() {
            Some(st) => self.stepper.insert(st),
            None => self.fresh_stepper(Rule::Trapezoidal),
        };
        let mut a = vec![0.0; s.q.len()];
        st.initial_accelerations(s.t, s.q.as_slice(), s.v.as_slice(), &mut a)
            .map_err(|e| FormulationError::failed(s.t, e.to_string()))?;
        Ok(DVector::from_vec(a))
    }
}
