//! One adapter for the front-ends that integrate their own coordinates as an
//! [`OdeSystem`] and map them to absolute states for output: ALF-DCA (`mbs-dca`,
//! y = [r, p; ṙ, ω']), HDCA (`mbs-hdca`, joint coordinates and momenta) and the
//! complement family (`mbs-complement`, absolute coordinates with Euler parameters
//! or Euler angles, or natural partitioning).

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Instant;

use mbs_integrators::{Observer, OdeSystem};
use mbs_model::{Model, State};
use nalgebra::DVector;

use crate::frontend::{
    FrontEnd, FrontEndError, RunSpec, RunStats, SAMPLE_LAYOUT, Sample, SampleSink,
};

use super::{DivergenceCheck, integrate_ode_with, integrate_partitioned, plain_state_label};

/// What the adapter needs of a formulation besides its right-hand side.
pub trait Reduced: OdeSystem {
    /// y of the formulation at an absolute state.
    fn y_from_state(&mut self, s: &State) -> Result<Vec<f64>, String>;
    /// The absolute state (any Euler-parameter layout) at y.
    fn state_from_y(&mut self, t: f64, y: &[f64]) -> Result<State, String>;
    /// q̈ = [r̈, p̈] (7 per body) at an absolute state, if the formulation has such a
    /// map.
    fn accelerations_at(&mut self, s: &State) -> Option<Result<DVector<f64>, String>> {
        let _ = s;
        None
    }
    /// Multiplier iterations and projections so far.
    fn counters(&self) -> (usize, usize) {
        (0, 0)
    }
    /// Length of the position part of y (for partitioned integrators).
    fn n_positions(&self, y_len: usize) -> usize {
        y_len / 2
    }
}

/// p̈ from ω̇' (and ṗ, ω'): q̈ = [r̈, p̈] per body from [r̈, ω̇'] at state `s`.
pub fn qdd_from_omega_dot(s: &State, a6: &[f64]) -> DVector<f64> {
    let n = s.n_bodies();
    let mut out = DVector::zeros(7 * n);
    for b in 0..n {
        let p = s.euler_params(b);
        let w = s.omega_body(b);
        let wd = nalgebra::Vector3::new(a6[6 * b + 3], a6[6 * b + 4], a6[6 * b + 5]);
        let pdd = mbs_kinematics::euler_params::pddot_from_omega_body_dot(&p, &w, &wd);
        out.fixed_rows_mut::<3>(7 * b)
            .copy_from_slice(&a6[6 * b..6 * b + 3]);
        out.fixed_rows_mut::<4>(7 * b + 3).copy_from(&pdd);
    }
    out
}

/// The adapter.
#[derive(Debug)]
pub struct ReducedFrontEnd<F> {
    name: String,
    model: Arc<Model>,
    sys: F,
    project_every: usize,
}

impl<F: Reduced> ReducedFrontEnd<F> {
    /// Wraps `sys`, projecting every `project_every` steps (0: never).
    pub fn new(name: String, model: Arc<Model>, sys: F, project_every: usize) -> Self {
        Self {
            name,
            model,
            sys,
            project_every,
        }
    }
}

/// Collects samples, forwards progress, stops on non-finite states.
#[allow(missing_debug_implementations)] // holds a `dyn SampleSink`
pub struct Keep<'s> {
    sink: &'s mut dyn SampleSink,
    samples: Vec<(f64, Vec<f64>)>,
    stop: Option<FrontEndError>,
    /// The last accepted step (t, y) when the sink asked to stop there.
    stopped: Option<(f64, Vec<f64>)>,
}

impl Observer for Keep<'_> {
    fn step(&mut self, t: f64, y: &[f64]) -> ControlFlow<()> {
        if let Some(i) = y.iter().position(|x| !x.is_finite()) {
            self.stop = Some(FrontEndError::failed(
                t,
                format!("simulation diverged: state component {i} is {}", y[i]),
            ));
            return ControlFlow::Break(());
        }
        let flow = self.sink.step(t);
        if flow.is_break() {
            self.stopped = Some((t, y.to_vec()));
        }
        flow
    }
    fn sample(&mut self, t: f64, y: &[f64]) {
        self.samples.push((t, y.to_vec()));
    }
}

impl<F: Reduced> ReducedFrontEnd<F> {
    /// Runs with `integrate` (an ODE or a partitioned integrator), then maps the
    /// samples to absolute states.
    fn run_with(
        &mut self,
        spec: &RunSpec<'_>,
        sink: &mut dyn SampleSink,
        integrate: impl FnOnce(
            &mut F,
            &RunSpec<'_>,
            usize,
            &mut Keep<'_>,
        ) -> (mbs_integrators::Info, Option<FrontEndError>),
    ) -> Result<RunStats, FrontEndError> {
        let y0 = self
            .sys
            .y_from_state(spec.initial)
            .map_err(|m| FrontEndError::invalid_input(format!("{}: {m}", self.name)))?;
        // the integration plumbing takes y0 = [q; v] from a State: hand it the
        // formulation's y, split at its position part
        let mut s0 = spec.initial.clone();
        let nx = self.sys.n_positions(y0.len());
        s0.q = DVector::from_column_slice(&y0[..nx]);
        s0.v = DVector::from_column_slice(&y0[nx..]);
        let inner = RunSpec {
            initial: &s0,
            ..spec.clone()
        };
        let check = DivergenceCheck::new(&self.model, spec.divergence_limit);
        let start = Instant::now();
        let mut keep = Keep {
            sink,
            samples: Vec::new(),
            stop: None,
            stopped: None,
        };
        let (info, error) = integrate(&mut self.sys, &inner, self.project_every, &mut keep);
        let mut stats = RunStats::from(info);
        let (iters, projections) = self.sys.counters();
        stats.multiplier_iterations = iters;
        stats.projections = projections;
        stats.integration_seconds = Some(start.elapsed().as_secs_f64());
        if let Some((t, y)) = keep.stopped.take()
            && let Ok(state) = self.sys.state_from_y(t, &y)
        {
            keep.sink.stopped_at(&state);
        }
        let mut diverged = keep.stop.take();
        for (t, mut y) in std::mem::take(&mut keep.samples) {
            // dense-output samples lie off the manifold between projected steps:
            // project them as a step ending there would be
            if self.project_every > 0 {
                let _ = self.sys.project(t, &mut y);
            }
            let state = match self.sys.state_from_y(t, &y) {
                Ok(s) => s.to_layout(SAMPLE_LAYOUT),
                Err(m) => {
                    diverged.get_or_insert(FrontEndError::failed(t, m));
                    break;
                }
            };
            if let Some(e) = check.check(t, state.q.as_slice(), state.v.as_slice()) {
                diverged.get_or_insert(e);
                break;
            }
            let mut sample = Sample::new(state);
            if let Some(Ok(a)) = self.sys.accelerations_at(&sample.state) {
                sample.accelerations = Some(a);
            }
            keep.sink.sample(sample);
        }
        if let Some(e) = diverged.or(error) {
            return Err(e.with_stats(stats));
        }
        Ok(stats)
    }
}

/// Implicit rules: a Newton tolerance above the round-off of these right-hand sides
/// (iterative or pseudo-inverse solves, ≈ 1e-12 relative); the Newton matrix kept
/// across steps while it converges (a forward-difference Jacobian costs n
/// right-hand sides).
fn newton() -> mbs_integrators::NewtonParams {
    mbs_integrators::NewtonParams {
        rtol: 1e-10,
        atol: 1e-10,
        reuse_jacobian: true,
        ..Default::default()
    }
}

impl<F: Reduced + std::fmt::Debug> FrontEnd for ReducedFrontEnd<F> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn run(
        &mut self,
        spec: &RunSpec<'_>,
        sink: &mut dyn SampleSink,
    ) -> Result<RunStats, FrontEndError> {
        self.run_with(spec, sink, |sys, spec, every, keep| {
            integrate_ode_with(sys, spec, every, newton(), &plain_state_label, keep)
        })
    }

    fn accelerations(&mut self, state: &State) -> Result<DVector<f64>, FrontEndError> {
        match self.sys.accelerations_at(&state.to_layout(SAMPLE_LAYOUT)) {
            Some(r) => r.map_err(|m| FrontEndError::failed(state.t, m)),
            None => Err(FrontEndError::not_implemented(format!(
                "{}: accelerations are not a function of the absolute state (Hamiltonian form)",
                self.name
            ))),
        }
    }
}

impl Reduced for mbs_dca::AlfDca {
    fn y_from_state(&mut self, s: &State) -> Result<Vec<f64>, String> {
        Ok(self.from_state(s))
    }
    fn state_from_y(&mut self, t: f64, y: &[f64]) -> Result<State, String> {
        Ok(self.to_state(t, y))
    }
    fn accelerations_at(&mut self, s: &State) -> Option<Result<DVector<f64>, String>> {
        let mut a6 = vec![0.0; 6 * s.n_bodies()];
        Some(
            mbs_dca::AlfDca::accelerations_at(self, s, &mut a6)
                .map(|_| qdd_from_omega_dot(s, &a6))
                .map_err(|e| e.to_string()),
        )
    }
    fn counters(&self) -> (usize, usize) {
        let s = self.stats();
        (s.iterations, s.projections)
    }
}

impl Reduced for mbs_hdca::Hdca {
    /// Joint coordinates and canonical momenta of the given state (the run starts
    /// there; a state that violates a joint is refused, naming it).
    fn y_from_state(&mut self, s: &State) -> Result<Vec<f64>, String> {
        self.state_to_y(s).map_err(|e| e.to_string())
    }
    fn state_from_y(&mut self, t: f64, y: &[f64]) -> Result<State, String> {
        self.to_state(t, y).map_err(|e| e.to_string())
    }
}

impl Reduced for mbs_complement::Complement {
    fn y_from_state(&mut self, s: &State) -> Result<Vec<f64>, String> {
        self.state_to_y(s).map_err(|e| e.to_string())
    }
    fn state_from_y(&mut self, t: f64, y: &[f64]) -> Result<State, String> {
        Ok(self.to_state(t, y))
    }
    fn accelerations_at(&mut self, s: &State) -> Option<Result<DVector<f64>, String>> {
        let y = match self.state_to_y(s) {
            Ok(y) => y,
            Err(e) => return Some(Err(e.to_string())),
        };
        let nq = self.n_q();
        let mut a = vec![0.0; self.n_v()];
        if let Err(e) = self.accelerations(s.t, &y[..nq], &y[nq..], &mut a) {
            return Some(Err(e.to_string()));
        }
        // Euler-parameter coordinates give q̈ = [r̈, p̈] directly
        (a.len() == 7 * s.n_bodies()).then(|| Ok(DVector::from_vec(a)))
    }
    fn counters(&self) -> (usize, usize) {
        let s = self.stats();
        (0, s.position_corrections + s.velocity_corrections)
    }
}

impl Reduced for mbs_complement::NaturalPartitioning {
    fn y_from_state(&mut self, s: &State) -> Result<Vec<f64>, String> {
        Ok(self.state_to_y(s))
    }
    fn n_positions(&self, _y_len: usize) -> usize {
        self.n_q()
    }
    fn state_from_y(&mut self, t: f64, y: &[f64]) -> Result<State, String> {
        Ok(self.to_state(t, y))
    }
}

/// Natural partitioning: the two-stage staggered scheme (procedure 5.5.7) or central
/// differences over its partitioned form, any other integrator over its ODE form.
#[derive(Debug)]
pub struct NaturalFrontEnd(ReducedFrontEnd<mbs_complement::NaturalPartitioning>);

impl NaturalFrontEnd {
    /// Wraps a natural-partitioning system (the hook applies its corrections).
    pub fn new(name: String, model: Arc<Model>, sys: mbs_complement::NaturalPartitioning) -> Self {
        Self(ReducedFrontEnd::new(name, model, sys, 1))
    }
}

impl FrontEnd for NaturalFrontEnd {
    fn name(&self) -> String {
        self.0.name.clone()
    }

    fn run(
        &mut self,
        spec: &RunSpec<'_>,
        sink: &mut dyn SampleSink,
    ) -> Result<RunStats, FrontEndError> {
        use crate::integrator::IntegratorChoice::{CentralDifference, Staggered};
        let partitioned = matches!(spec.integrator, CentralDifference { .. } | Staggered { .. });
        self.0.run_with(spec, sink, |sys, spec, every, keep| {
            if partitioned {
                integrate_partitioned(sys, spec, every, keep)
            } else {
                integrate_ode_with(sys, spec, every, newton(), &plain_state_label, keep)
            }
        })
    }
}
