//! One runner for the formulations that integrate an ODE (or a partitioned system) in
//! their own coordinates y: an [`OdeFormulation`] says what is specific to it (y at
//! the start, the integration, the absolute state at y, the checks of a step, what it
//! adds to a sample); [`Runner`] does the rest (progress, early stop, the samples
//! mapped to absolute states, divergence, statistics, errors).

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Instant;

use mbs_integrators::{Info, Observer};
use mbs_model::{Model, State, body_coords};
use nalgebra::{DMatrix, DVector};

use crate::divergence::DivergenceCheck;
use crate::error::{FormulationError, FormulationErrorKind};
use crate::formulation::{Formulation, Linearization};
use crate::sample::{RunStats, SAMPLE_LAYOUT, Sample, SampleSink};
use crate::spec::RunSpec;

/// A check of y after every accepted step: `Some(error)` stops the run there.
pub type StepCheck = Box<dyn FnMut(f64, &[f64]) -> Option<FormulationError>>;

/// The check of coordinates without a body layout: every component finite.
pub fn finite_check() -> StepCheck {
    Box::new(|t, y| {
        let i = y.iter().position(|x| !x.is_finite())?;
        Some(FormulationError::failed(
            t,
            format!("simulation diverged: state component {i} is {}", y[i]),
        ))
    })
}

/// What a formulation integrating its own coordinates y must say; [`Runner`] runs it.
pub trait OdeFormulation {
    /// Starts a run: y at `spec.initial` (its own coordinates; an initial state it
    /// cannot represent is [`FormulationErrorKind::InvalidInput`]) and the check of
    /// every accepted step (e.g. [`finite_check`]).
    fn start(&mut self, spec: &RunSpec<'_>) -> Result<(Vec<f64>, StepCheck), FormulationError>;

    /// Integrates from `(spec.initial.t, y0)` with `spec.integrator` (through
    /// [`crate::drive::integrate_ode`] or [`crate::drive::integrate_partitioned`]),
    /// reporting to `obs`.
    fn integrate<O: Observer>(
        &mut self,
        spec: &RunSpec<'_>,
        y0: &[f64],
        obs: &mut O,
    ) -> (Info, Option<FormulationError>);

    /// The absolute state (any Euler-parameter layout) at y.
    fn state(&mut self, t: f64, y: &[f64]) -> Result<State, FormulationError>;

    /// A sample of the integrator's dense output, which lies off the constraint
    /// manifold between projected steps: projected as a step ending there would be,
    /// for the formulations that project (default: left as it is).
    fn project_sample(&mut self, t: f64, y: &mut [f64]) {
        let _ = (t, y);
    }

    /// Multipliers and accelerations of the sample at y, where the formulation has
    /// them (not counted as right-hand-side evaluations).
    fn enrich(&mut self, t: f64, y: &[f64], sample: &mut Sample) {
        let _ = (t, y, sample);
    }

    /// The Jacobian `∂f/∂y` of the formulation's right-hand side at `(t, y)` (its own
    /// coordinates), for the facade's linearized spectrum at the initial state
    /// (`mbs::spectrum`); [`crate::drive::ode_jacobian`] does it for any
    /// `OdeSystem`. Default: [`FormulationErrorKind::NotImplemented`].
    fn jacobian(&mut self, t: f64, y: &[f64]) -> Result<DMatrix<f64>, FormulationError> {
        let _ = (t, y);
        Err(FormulationError::not_implemented(
            "no Jacobian of the right-hand side exposed",
        ))
    }

    /// The formulation's own counters (multiplier iterations, projections, …).
    fn count(&self, stats: &mut RunStats) {
        let _ = stats;
    }

    /// q̈ = [r̈, p̈] (7 per body) at an absolute state in the [`SAMPLE_LAYOUT`], if
    /// the formulation has such a map.
    fn accelerations(&mut self, state: &State) -> Result<DVector<f64>, FormulationError> {
        let _ = state;
        Err(FormulationError::not_implemented(
            "no single right-hand-side evaluation exposed",
        ))
    }
}

/// An [`OdeFormulation`] on a model, with its name: a [`Formulation`].
#[derive(Debug)]
pub struct Runner<F> {
    name: String,
    model: Arc<Model>,
    inner: F,
}

impl<F: OdeFormulation> Runner<F> {
    /// `inner` on `model`, called `name` (the method's `name:key=value` text).
    pub fn new(name: String, model: Arc<Model>, inner: F) -> Self {
        Self { name, model, inner }
    }

    /// The formulation.
    pub fn inner(&self) -> &F {
        &self.inner
    }
}

/// The runner's observer: forwards progress, checks steps, keeps the samples (mapped
/// after the run) and the state where the sink asked to stop.
struct Watch<'s> {
    sink: &'s mut dyn SampleSink,
    check: StepCheck,
    /// Sample times and the states at them, one after the other in one buffer (no
    /// allocation per sample inside the timed integration once it has grown).
    sample_t: Vec<f64>,
    sample_y: Vec<f64>,
    /// Seconds the integrator spent on the samples (dense output and the copies).
    sampling_seconds: f64,
    stop: Option<FormulationError>,
    /// The last accepted step (t, y) when the sink asked to stop there.
    stopped: Option<(f64, Vec<f64>)>,
}

impl Observer for Watch<'_> {
    fn step(&mut self, t: f64, y: &[f64]) -> ControlFlow<()> {
        if let Some(e) = (self.check)(t, y) {
            self.stop = Some(e);
            return ControlFlow::Break(());
        }
        let flow = self.sink.step(t);
        if flow.is_break() {
            self.stopped = Some((t, y.to_vec()));
        }
        flow
    }
    fn sample(&mut self, t: f64, y: &[f64]) {
        self.sample_t.push(t);
        self.sample_y.extend_from_slice(y);
    }
    fn times_sampling(&self) -> bool {
        true
    }
    fn sampling_time(&mut self, seconds: f64) {
        self.sampling_seconds += seconds;
    }
}

impl<F: OdeFormulation> Formulation for Runner<F> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn run(
        &mut self,
        spec: &RunSpec<'_>,
        sink: &mut dyn SampleSink,
    ) -> Result<RunStats, FormulationError> {
        let (y0, check) = self.inner.start(spec).map_err(|mut e| {
            if e.kind == FormulationErrorKind::InvalidInput {
                e.message = format!("{}: {}", self.name, e.message);
            }
            e
        })?;
        let divergence = DivergenceCheck::new(&self.model, spec.divergence_limit);
        let start = Instant::now();
        let mut watch = Watch {
            sink,
            check,
            sample_t: Vec::with_capacity(spec.output_times.len()),
            sample_y: Vec::with_capacity(spec.output_times.len() * y0.len()),
            sampling_seconds: 0.0,
            stop: None,
            stopped: None,
        };
        let (info, error) = self.inner.integrate(spec, &y0, &mut watch);
        let mut stats = RunStats::from(info);
        self.inner.count(&mut stats);
        stats.integration_seconds = Some(start.elapsed().as_secs_f64());
        stats.sampling_seconds = Some(watch.sampling_seconds);
        if let Some((t, y)) = watch.stopped.take()
            && let Ok(state) = self.inner.state(t, &y)
        {
            watch.sink.stopped_at(&state.to_layout(SAMPLE_LAYOUT));
        }
        let mut diverged = watch.stop.take();
        let (sample_t, sample_y) = (
            std::mem::take(&mut watch.sample_t),
            std::mem::take(&mut watch.sample_y),
        );
        // every state the integrator delivers has the dimension of y0
        let mut y = vec![0.0; y0.len()];
        for (&t, stored) in sample_t.iter().zip(sample_y.chunks_exact(y0.len().max(1))) {
            y.copy_from_slice(stored);
            self.inner.project_sample(t, &mut y);
            let state = match self.inner.state(t, &y) {
                Ok(s) => s.to_layout(SAMPLE_LAYOUT),
                Err(e) => {
                    diverged.get_or_insert(e);
                    break;
                }
            };
            if let Some(e) = divergence.check_state(&state) {
                diverged.get_or_insert(e);
                break;
            }
            let mut sample = Sample::new(state);
            self.inner.enrich(t, &y, &mut sample);
            watch.sink.sample(sample);
        }
        match diverged.or(error) {
            None => Ok(stats),
            Some(e) => Err(e.with_stats(stats)),
        }
    }

    /// y at `spec.initial` ([`OdeFormulation::start`]) and the Jacobian there
    /// ([`OdeFormulation::jacobian`]) when y has at most `max_states` components.
    fn linearization(
        &mut self,
        spec: &RunSpec<'_>,
        max_states: usize,
    ) -> Result<Linearization, FormulationError> {
        let (y0, _) = self.inner.start(spec)?;
        if y0.len() > max_states {
            return Ok(Linearization::TooLarge { states: y0.len() });
        }
        self.inner
            .jacobian(spec.initial.t, &y0)
            .map(Linearization::Jacobian)
            .map_err(|mut e| {
                e.message = format!("{}: {}", self.name, e.message);
                e
            })
    }

    fn accelerations(&mut self, state: &State) -> Result<DVector<f64>, FormulationError> {
        self.inner
            .accelerations(&state.to_layout(SAMPLE_LAYOUT))
            .map_err(|mut e| {
                if e.kind == FormulationErrorKind::NotImplemented {
                    e.message = format!("{}: {}", self.name, e.message);
                }
                e
            })
    }
}

/// q̈ = [r̈, p̈] (7 per body) from the accelerations [r̈, ω̇'] (6 per body) at the
/// state `s` (any layout): p̈ = ½ Gᵀ ω̇' − ¼ |ω'|² p with the body's Euler parameters
/// p and body angular velocity ω' (Chiou's thesis eq 2.8.5).
pub fn qdd_from_omega_dot(s: &State, a6: &[f64]) -> DVector<f64> {
    let n = s.n_bodies();
    let mut out = DVector::zeros(7 * n);
    for b in 0..n {
        let p = s.euler_params(b);
        let w = s.omega_body(b);
        let wd = body_coords::angular(a6, b);
        let pdd = mbs_kinematics::euler_params::pddot_from_omega_body_dot(&p, &w, &wd);
        let o = out.as_mut_slice();
        o[body_coords::position_range(b)].copy_from_slice(&a6[body_coords::linear_range(b)]);
        o[body_coords::euler_params_range(b)].copy_from_slice(pdd.as_slice());
    }
    out
}
