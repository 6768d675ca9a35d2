//! The [`Simulation`] builder: model, method, integrator, end time and output sampling;
//! runs a front-end and turns its samples into a [`Trajectory`].

use std::ops::ControlFlow;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use mbs_formulation::DivergenceCheck;
use mbs_model::{Model, State};
use nalgebra::DVector;

use crate::bounds;
use crate::compare::general;
use crate::error::{Error, SimulationFailure};
use crate::frontend::{
    FrontEnd, FrontEndError, FrontEndErrorKind, RunSpec, RunStats, SAMPLE_LAYOUT, Sample,
    SampleSink,
};
use crate::guard::Guard;
use crate::integrator::{IntegratorChoice, IntegratorRequest};
use crate::measure::{Measures, Meter};
use crate::method::Method;
use crate::recommend::Recommendation;
use crate::step_watch::StepWatch;
use crate::stop::{StopHandle, StopReason};
use crate::trajectory::{RunStatus, Trajectory};

/// How output samples are spaced.
#[derive(Clone, Debug, PartialEq)]
pub enum Sampling {
    /// `n` intervals of equal length over [t₀, t_end] (n + 1 samples).
    Intervals(usize),
    /// A sample every `dt` from t₀ (and one at t_end).
    Every(f64),
    /// Exactly these times (increasing, inside [t₀, t_end]).
    Times(Vec<f64>),
}

/// Progress of a running simulation, given to the progress callback.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Current simulation time.
    pub t: f64,
    /// Initial time.
    pub t0: f64,
    /// End time.
    pub t_end: f64,
    /// Samples recorded so far.
    pub samples: usize,
}

impl Progress {
    /// Fraction done in [0, 1].
    pub fn fraction(&self) -> f64 {
        let span = self.t_end - self.t0;
        if span > 0.0 {
            ((self.t - self.t0) / span).clamp(0.0, 1.0)
        } else {
            1.0
        }
    }
}

/// A simulation to run: what, how, how long, and what to record.
///
/// ```
/// use mbs::{IntegratorChoice, Simulation};
/// let sim = Simulation::builtin("five-bar")?
///     .method("alf-index1".parse()?)
///     .integrator(IntegratorChoice::Rk45 { rtol: 1e-6, atol: 1e-6 })
///     .t_end(0.5)
///     .samples(50);
/// assert_eq!(sim.output_times()?.len(), 51);
/// let mut last = 0.0;
/// let traj = sim.run_with_progress(|p| last = p.fraction())?;
/// assert_eq!(last, 1.0);
/// assert_eq!(traj.len(), 51);
/// assert!(traj.max_phi() < 1e-5);          // ‖Φ‖ measured by the facade
/// assert!(traj.energy_drift() < 1e-4);     // conservative: E stays put
/// assert!(traj.stats.rhs_evals > 0);
/// # Ok::<(), mbs::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Simulation {
    model: Arc<Model>,
    /// The method the user chose (`None`: the model's recommendation).
    method: Option<Method>,
    /// The integrator the user chose (`None`: RK45 at 1e-6 with a chosen method, the
    /// recommendation's integrator at 1e-6 otherwise).
    integrator: Option<IntegratorChoice>,
    /// The model's recommended method and integrator, worked out when first needed.
    recommended: OnceLock<Arc<Recommendation>>,
    t_end: f64,
    sampling: Sampling,
    initial: Option<State>,
    divergence_limit: f64,
    max_steps: usize,
    guard: bool,
    /// Checked after every accepted step: a requested stop ends the run there.
    stop: Option<StopHandle>,
}

impl Simulation {
    /// A simulation of `model` (a [`Model`] or an `Arc<Model>` shared with other
    /// simulations; the front-ends share it too) with the defaults: the method and
    /// integrator recommended for the model's class ([`crate::recommend`]) at
    /// rtol = atol = 1e-6 (RK45 when only a method is set), t_end = 1, 200 output
    /// intervals.
    pub fn new(model: impl Into<Arc<Model>>) -> Self {
        Self {
            model: model.into(),
            method: None,
            integrator: None,
            recommended: OnceLock::new(),
            t_end: 1.0,
            sampling: Sampling::Intervals(200),
            initial: None,
            divergence_limit: 1e8,
            max_steps: crate::frontend::DEFAULT_MAX_STEPS,
            guard: true,
            stop: None,
        }
    }

    /// A simulation of the built-in mechanism `name`.
    pub fn builtin(name: &str) -> Result<Self, Error> {
        Ok(Self::new(crate::models::builtin(name)?))
    }

    /// A simulation of a built-in name or a model file (see [`crate::load_model`]).
    pub fn load(spec: &str) -> Result<Self, Error> {
        Ok(Self::new(crate::models::load_model(spec)?))
    }

    /// Sets the method.
    pub fn method(mut self, method: Method) -> Self {
        self.method = Some(method);
        self
    }

    /// Sets the method and the integrator as a user asks for them, each part optional
    /// — what `mbs run` does with `--method`, `--integrator`, `--rtol`, `--atol`, `--h`
    /// and the Python package's `mbs.simulate` with its arguments, so both reach the
    /// same defaults: without a method, the model's recommendation
    /// ([`crate::recommend`]) and its integrator — RADAU5 when the model's linearized
    /// spectrum is stiff over the simulation's interval as set so far
    /// ([`crate::recommend::Recommendation::integrator_for`]; set
    /// [`Simulation::t_end`] first); with a method, RK45; tolerances
    /// 1e-6 unless given. An integrator that cannot be read is
    /// [`Error::UnknownIntegrator`] or [`Error::InvalidParameter`].
    ///
    /// ```
    /// use mbs::{IntegratorRequest, Simulation};
    /// let tighter = IntegratorRequest { rtol: Some(1e-8), ..Default::default() };
    /// let sim = Simulation::builtin("double-pendulum")?.choose(None, &tighter)?;
    /// assert_eq!(sim.get_method(), &sim.recommendation().method);
    /// assert_eq!(sim.get_integrator().name(), sim.recommendation().integrator.name());
    /// assert_eq!(sim.get_integrator().tolerances(), Some((1e-8, 1e-8)));
    /// let named = Simulation::builtin("five-bar")?.choose(Some("alf".parse()?), &Default::default())?;
    /// assert_eq!(named.get_integrator().to_string(), "rk45:rtol=1e-6:atol=1e-6");
    /// # Ok::<(), mbs::Error>(())
    /// ```
    pub fn choose(
        mut self,
        method: Option<Method>,
        integrator: &IntegratorRequest,
    ) -> Result<Self, Error> {
        let default_name = match &method {
            Some(_) => IntegratorChoice::default().name(),
            None => self.recommended_integrator().0.name(),
        };
        let integrator = integrator.resolve(default_name)?;
        if let Some(m) = method {
            self = self.method(m);
        }
        Ok(self.integrator(integrator))
    }

    /// Sets the integrator and its tolerances or step.
    pub fn integrator(mut self, integrator: IntegratorChoice) -> Self {
        self.integrator = Some(integrator);
        self
    }

    /// Sets the end time.
    pub fn t_end(mut self, t_end: f64) -> Self {
        self.t_end = t_end;
        self
    }

    /// Records `intervals + 1` equally spaced samples.
    pub fn samples(mut self, intervals: usize) -> Self {
        self.sampling = Sampling::Intervals(intervals);
        self
    }

    /// Sets the output sampling.
    pub fn sampling(mut self, sampling: Sampling) -> Self {
        self.sampling = sampling;
        self
    }

    /// Starts from `state` instead of the model's initial conditions (any layout).
    pub fn initial_state(mut self, state: State) -> Self {
        self.initial = Some(state);
        self
    }

    /// A run stops with a "diverged" failure when a coordinate or velocity exceeds this
    /// magnitude (default 1e8).
    pub fn divergence_limit(mut self, limit: f64) -> Self {
        self.divergence_limit = limit;
        self
    }

    /// An adaptive integrator may take at most `steps` steps (accepted + rejected;
    /// default [`crate::frontend::DEFAULT_MAX_STEPS`]); beyond that the run stops with a
    /// "step limit reached" failure naming the state component that limited the
    /// step, so a run whose tolerances cannot be met with steps of reasonable size
    /// ends in bounded time. Once 10 000 steps (or a tenth of the limit) are done, a
    /// run whose step count extrapolates linearly in time to more than twice the
    /// limit stops right away with the same kind of failure. A run whose step size
    /// collapses (the median of the last 64 accepted steps below 1e-6 times the
    /// run's median step, with the rest of the run at that rate needing more steps
    /// than the limit, see `crate::step_watch`) stops at once with a "step size
    /// collapsed" failure, followed, for front-ends that report the state where they
    /// stopped, by the smallest singular value of the loop-closure Jacobian there and
    /// the joint it is mostly on. A fixed step that needs more than `steps` steps to
    /// reach the end time is refused before the run (an invalid-parameter error).
    pub fn max_steps(mut self, steps: usize) -> Self {
        self.max_steps = steps;
        self
    }

    /// Turns the wrong-motion energy guard on (the default) or off (see
    /// `crate::guard`): on a model whose energy is conserved, a run whose energy
    /// drifts beyond what its integrator's accuracy allows stops with a "wrong motion"
    /// failure; the penalty method's constraint deflection beyond the tolerance
    /// likewise ([`crate::frontend::RunSpec::guard`]). Turn it off only to study such a
    /// drift on purpose (e.g. an unstabilized formulation's, or the penalty motion at
    /// a paper's ε). Passes near singular configurations are recorded either way
    /// ([`crate::Trajectory::singular_passes`]).
    pub fn guard(mut self, on: bool) -> Self {
        self.guard = on;
        self
    }

    /// Lets `stop` end the run at its next accepted step ([`StopHandle::request`], or a
    /// signal handler storing into [`StopHandle::slot`]): the run then returns
    /// [`Error::Interrupted`] with the samples up to the time it reached.
    pub fn stop_handle(mut self, stop: StopHandle) -> Self {
        self.stop = Some(stop);
        self
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }
    /// The model, shared.
    pub fn shared_model(&self) -> &Arc<Model> {
        &self.model
    }
    /// The method: the one set, or the model's recommendation.
    pub fn get_method(&self) -> &Method {
        self.method
            .as_ref()
            .unwrap_or_else(|| &self.recommendation().method)
    }
    /// The integrator: the one set; RK45 at 1e-6 when only a method is set; the
    /// recommendation's integrator at 1e-6 when neither is.
    pub fn get_integrator(&self) -> IntegratorChoice {
        match (self.integrator, &self.method) {
            (Some(i), _) => i,
            (None, Some(_)) => IntegratorChoice::default(),
            (None, None) => self
                .recommended_integrator()
                .0
                .with_tol(crate::integrator::DEFAULT_TOL),
        }
    }
    /// The recommendation's integrator family for this simulation's interval
    /// ([`crate::recommend::Recommendation::integrator_for`]) and, when the spectrum
    /// made it RADAU5, why.
    pub fn recommended_integrator(&self) -> (crate::recommend::IntegratorKind, Option<String>) {
        let span = self.t_end - self.initial().t;
        self.recommendation().integrator_for(span)
    }
    /// Why the integrator is what it is, when it is the recommendation's and the
    /// model's linearized spectrum decided it (stiff: RADAU5), or when the spectrum
    /// could not be checked: one line.
    pub fn integrator_reason(&self) -> Option<String> {
        if self.integrator.is_some() && self.get_integrator().name() != "radau5" {
            // chosen by the user (or by `choose` without a stiff spectrum)
            return None;
        }
        if self.method.is_some() {
            return None;
        }
        match (
            &self.recommendation().spectrum,
            self.recommended_integrator(),
        ) {
            (_, (_, Some(why))) => Some(why),
            (Err(skipped), _) => Some(skipped.to_string()),
            _ => None,
        }
    }
    /// The model's recommended method and integrator ([`crate::recommend`]).
    pub fn recommendation(&self) -> &Recommendation {
        self.recommended
            .get_or_init(|| Arc::new(crate::recommend::recommend(&self.model)))
    }
    /// Why the method is what it is, when it is the recommendation (not set by the
    /// user): one line naming the class and any fallback.
    pub fn method_reason(&self) -> Option<&str> {
        self.method
            .is_none()
            .then(|| self.recommendation().reason.as_str())
    }
    /// The end time.
    pub fn get_t_end(&self) -> f64 {
        self.t_end
    }

    /// The initial state in the sample layout.
    pub fn initial(&self) -> State {
        match &self.initial {
            Some(s) => s.to_layout(SAMPLE_LAYOUT),
            None => State::initial(&self.model, SAMPLE_LAYOUT),
        }
    }

    /// The initial state, brought onto the constraint manifold when it violates the
    /// position or velocity constraints by more than 1e-10 (mass-orthogonal
    /// projection, `mbs_alf::assemble`), with a line saying how far it moved. A state
    /// with no consistent state nearby gives [`Error::InconsistentInitialState`],
    /// naming the worst joint and its violation.
    pub fn assembled_initial(&self) -> Result<(State, Option<String>), Error> {
        let initial = self.initial();
        let (phi, phi_dot) = crate::measure::violations(&self.model, &initial);
        if phi <= 1e-10 && phi_dot <= 1e-10 || !(phi.is_finite() && phi_dot.is_finite()) {
            return Ok((initial, None));
        }
        match mbs_alf::assemble(
            self.model.clone(),
            &initial,
            &mbs_alf::AssemblyParams::default(),
        ) {
            Ok((s, r)) => {
                // The same norms as `mbs check` and the run's samples (‖·‖₂ of the
                // holonomic rows), not the assembly's own ‖·‖∞ over every row.
                let (phi_after, phi_dot_after) = crate::measure::violations(&self.model, &s);
                let line = format!(
                    "inconsistent initial state assembled: ‖Φ‖₂ {phi:.3e} → {phi_after:.3e}, ‖Φ̇‖₂ {phi_dot:.3e} → {phi_dot_after:.3e}; largest change of a position coordinate {:.3e}, of a velocity {:.3e}",
                    r.position_change, r.velocity_change
                );
                Ok((s, Some(line)))
            }
            Err(e) => Err(Error::InconsistentInitialState(e.to_string())),
        }
    }

    /// The output times.
    pub fn output_times(&self) -> Result<Vec<f64>, Error> {
        let t0 = self.initial.as_ref().map_or(0.0, |s| s.t);
        let t_end = self.t_end;
        if !(t_end.is_finite() && t_end > t0) {
            return Err(Error::param(
                "run",
                "t_end",
                format!("must be finite and greater than t0 = {}", general(t0)),
                general(t_end),
            ));
        }
        bounds::check_step_count(&self.get_integrator(), t0, t_end, self.max_steps)?;
        let times = match &self.sampling {
            Sampling::Intervals(n) => {
                if *n == 0 {
                    return Err(Error::param("run", "samples", "must be at least 1", n));
                }
                bounds::check_sample_memory(&self.model, "samples", *n as f64 + 1.0, n)?;
                // the last is t_end itself (the product and quotient may round past it)
                (0..=*n)
                    .map(|k| (t0 + (t_end - t0) * k as f64 / *n as f64).min(t_end))
                    .collect()
            }
            Sampling::Every(dt) => {
                if !(dt.is_finite() && *dt > 0.0) {
                    return Err(Error::param(
                        "run",
                        "sample interval",
                        "must be positive",
                        dt,
                    ));
                }
                // grid points strictly before t_end (up to rounding), then t_end itself
                let count = ((t_end - t0) / dt * (1.0 + 1e-12)).floor();
                bounds::check_sample_memory(&self.model, "sample interval", count + 2.0, dt)?;
                let n = count as usize;
                let mut v: Vec<f64> = (0..=n)
                    .map(|k| t0 + k as f64 * dt)
                    .filter(|t| *t < t_end - 1e-9 * dt)
                    .collect();
                v.push(t_end);
                v
            }
            Sampling::Times(v) => {
                if v.is_empty()
                    || v.windows(2).any(|w| w[1] <= w[0])
                    || v[0] < t0
                    || v[v.len() - 1] > t_end
                {
                    return Err(Error::param(
                        "run",
                        "output times",
                        format!(
                            "must be increasing inside [{}, {}]",
                            general(t0),
                            general(t_end)
                        ),
                        format!("{} times", v.len()),
                    ));
                }
                let mut v = v.clone();
                if v[0] > t0 {
                    v.insert(0, t0);
                }
                v
            }
        };
        Ok(times)
    }

    /// Builds the method's front-end (see [`crate::registry::build_front_end`]).
    pub fn front_end(&self) -> Result<Box<dyn FrontEnd>, Error> {
        crate::registry::build_front_end(self.get_method(), &self.model)
    }

    /// Runs the simulation.
    pub fn run(&self) -> Result<Trajectory, Error> {
        self.run_with_progress(|_| {})
    }

    /// Runs the simulation, calling `progress` after every accepted step.
    pub fn run_with_progress(&self, progress: impl FnMut(Progress)) -> Result<Trajectory, Error> {
        let (initial, assembly) = self.assembled_initial()?;
        let model = self.model_for_front_end(&initial, assembly.is_some())?;
        let mut fe = crate::registry::build_front_end(self.get_method(), &model)?;
        self.run_from(fe.as_mut(), initial, assembly, progress)
    }

    /// The model the method's front-end is built on: the model itself, or, when the
    /// assembly of the initial state ([`Simulation::assembled_initial`]) moved a
    /// body, the model with the assembled poses as its initial configuration. The
    /// joint-coordinate front-ends (`aba`, `alf-joint`, `hdca`) measure their joint
    /// coordinates from the initial poses, so joints left open there would give
    /// them a joint geometry other than the markers' and they refuse to start; the
    /// other front-ends never read the initial poses and are unaffected. Initial
    /// velocities stay the model's (an assembly that only corrects velocities
    /// leaves the model as it is, and the front-ends' checks of them stand).
    fn model_for_front_end(&self, state: &State, assembled: bool) -> Result<Arc<Model>, Error> {
        let moved = |b: usize| {
            let init = &self.model.bodies()[b].initial;
            let e = state.euler_params(b);
            state.position(b) != init.position || e / e.norm() != init.orientation
        };
        if !assembled || !(0..self.model.n_bodies()).any(moved) {
            return Ok(self.model.clone());
        }
        let mut parts = self.model.to_parts();
        for (b, body) in parts.bodies.iter_mut().enumerate() {
            let e = state.euler_params(b);
            body.initial.position = state.position(b);
            body.initial.orientation = e / e.norm();
        }
        Model::from_parts(parts)
            .map(Arc::new)
            .map_err(|e| Error::InconsistentInitialState(e.to_string()))
    }

    /// Runs the simulation with a given front-end (e.g. a user's own [`FrontEnd`]).
    pub fn run_front_end(
        &self,
        front_end: &mut dyn FrontEnd,
        progress: impl FnMut(Progress),
    ) -> Result<Trajectory, Error> {
        let (initial, assembly) = self.assembled_initial()?;
        self.run_from(front_end, initial, assembly, progress)
    }

    /// [`Simulation::run_front_end`] from the (assembled) initial state and the
    /// assembly's line.
    fn run_from(
        &self,
        front_end: &mut dyn FrontEnd,
        initial: State,
        assembly: Option<String>,
        mut progress: impl FnMut(Progress),
    ) -> Result<Trajectory, Error> {
        let times = self.output_times()?;
        let spec = RunSpec {
            initial: &initial,
            integrator: self.get_integrator(),
            t_end: self.t_end,
            output_times: &times,
            divergence_limit: self.divergence_limit,
            max_steps: self.max_steps,
            guard: self.guard,
        };
        let mut rec = Recorder {
            samples: Vec::with_capacity(times.len()),
            measures: Vec::with_capacity(times.len()),
            meter: Meter::new(&self.model),
            progress: &mut progress,
            t0: initial.t,
            t_end: self.t_end,
            divergence: DivergenceCheck::new(&self.model, self.divergence_limit),
            diverged: None,
            body_names: self.model.bodies().iter().map(|b| b.name.clone()).collect(),
            stopped: None,
            steps: 0,
            step_limit: self
                .get_integrator()
                .is_adaptive()
                .then_some(self.max_steps),
            guard: Guard::new(
                &self.model,
                &front_end.name(),
                self.get_integrator(),
                self.guard,
            ),
            watch: StepWatch::default(),
            collapsed: false,
            model: &self.model,
            initial: &initial,
            reported_t: f64::NEG_INFINITY,
            stop: self.stop.clone(),
            interrupted: None,
            stopped_state: None,
        };
        let start = Instant::now();
        let result = front_end.run(&spec, &mut rec);
        let elapsed = start.elapsed().as_secs_f64();
        // an interrupted run keeps the state where it stopped, past the last output time
        if let Some(s) = rec.stopped_state.take()
            && rec.samples.last().is_none_or(|last| s.t > last.state.t)
        {
            rec.sample(Sample::new(s));
        }
        let (stats, failure) = match result {
            Ok(stats) => match rec.diverged.take().or(rec.stopped.take()) {
                Some(e) => (stats, Some(e.with_stats(stats))),
                None => (stats, None),
            },
            Err(e) => (*e.stats, Some(e)),
        };
        if let Some(e) = &failure {
            match e.kind {
                FrontEndErrorKind::NotImplemented => {
                    return Err(Error::NotImplemented {
                        method: front_end.name(),
                        reason: e.to_string(),
                    });
                }
                FrontEndErrorKind::InvalidInput => {
                    return Err(Error::Unsupported {
                        method: front_end.name(),
                        message: e.to_string(),
                    });
                }
                FrontEndErrorKind::Failed => {}
            }
        }
        let wall_time = stats.integration_seconds.unwrap_or(elapsed);
        let samples = std::mem::take(&mut rec.samples);
        let measures = std::mem::take(&mut rec.measures);
        let body_names = std::mem::take(&mut rec.body_names);
        let mut traj = self.trajectory(
            front_end.name(),
            body_names,
            samples,
            measures,
            stats,
            wall_time,
        );
        traj.initial_assembly = assembly;
        traj.singular_passes = rec.guard.singular_passes();
        if let Some(reason) = rec.interrupted {
            let t = traj.t_reached().unwrap_or(initial.t);
            traj.status = RunStatus::Interrupted;
            traj.failure = Some(format!("interrupted by {reason} at t = {}", crate::sci(t)));
            return Err(Error::Interrupted {
                reason,
                trajectory: Box::new(traj),
            });
        }
        if failure.is_none()
            && traj
                .t
                .last()
                .is_none_or(|t| (t - self.t_end).abs() > 1e-9 * (1.0 + self.t_end.abs()))
        {
            let t = traj.t.last().copied().unwrap_or(initial.t);
            traj.status = RunStatus::Failed;
            traj.failure = Some("the front-end stopped before t_end without an error".into());
            return Err(Error::SimulationFailed(Box::new(SimulationFailure {
                error: FrontEndError::failed(
                    t,
                    "the front-end stopped before t_end without an error",
                )
                .with_stats(stats),
                trajectory: traj,
            })));
        }
        match failure {
            None => Ok(traj),
            Some(error) => {
                traj.status = RunStatus::Failed;
                traj.failure = Some(error.to_string());
                Err(Error::SimulationFailed(Box::new(SimulationFailure {
                    error,
                    trajectory: traj,
                })))
            }
        }
    }

    /// Derived quantities of the samples (the same for every method), with the
    /// recorder's measures of each sample and its Φ̇ vector.
    fn trajectory(
        &self,
        method: String,
        body_names: Vec<String>,
        samples: Vec<Sample>,
        measures: Vec<(Measures, Option<DVector<f64>>)>,
        stats: RunStats,
        wall_time: f64,
    ) -> Trajectory {
        let n = samples.len();
        let mut traj = Trajectory {
            model: self.model.name().to_string(),
            method,
            integrator: self.get_integrator().to_string(),
            body_names,
            t: Vec::with_capacity(n),
            states: Vec::with_capacity(n),
            kinetic_energy: Vec::with_capacity(n),
            potential_energy: Vec::with_capacity(n),
            total_energy: Vec::with_capacity(n),
            phi_norm: Vec::with_capacity(n),
            phi_dot_norm: Vec::with_capacity(n),
            phi_ddot_norm: Vec::with_capacity(n),
            multipliers: Vec::with_capacity(n),
            stats,
            wall_time,
            status: crate::trajectory::RunStatus::Complete,
            failure: None,
            initial_assembly: None,
            singular_passes: Vec::new(),
            energy_balance: None,
        };
        let mut phi_dot_vecs = Vec::with_capacity(n);
        for (s, (m, phi_dot)) in samples.into_iter().zip(measures) {
            phi_dot_vecs.push(phi_dot);
            traj.t.push(s.state.t);
            traj.kinetic_energy.push(m.kinetic);
            traj.potential_energy.push(m.potential);
            traj.total_energy.push(m.kinetic + m.potential);
            traj.phi_norm.push(m.phi);
            traj.phi_dot_norm.push(m.phi_dot);
            traj.phi_ddot_norm.push(m.phi_ddot);
            traj.multipliers
                .push(s.multipliers.map(|l| l.as_slice().to_vec()));
            traj.states.push(s.state);
        }
        // Φ̈ where the method gave no accelerations: central difference of the Φ̇
        // vectors between neighbouring samples (one-sided at the ends).
        for k in 0..n {
            if traj.phi_ddot_norm[k].is_finite() || n < 2 {
                continue;
            }
            let (a, b) = if k == 0 {
                (0, 1)
            } else if k == n - 1 {
                (n - 2, n - 1)
            } else {
                (k - 1, k + 1)
            };
            if let (Some(pa), Some(pb)) = (&phi_dot_vecs[a], &phi_dot_vecs[b]) {
                let dt = traj.t[b] - traj.t[a];
                if dt > 0.0 && pa.len() == pb.len() {
                    traj.phi_ddot_norm[k] = (pb - pa).norm() / dt;
                }
            }
        }
        traj.energy_balance = crate::energy_balance::EnergyBalance::compute(
            &self.model,
            &traj.states,
            &traj.kinetic_energy,
            &traj.potential_energy,
        )
        .ok();
        traj
    }
}

/// The facade's sink: records samples, reports progress, watches for divergence.
struct Recorder<'p, P: FnMut(Progress)> {
    samples: Vec<Sample>,
    /// The measures of each recorded sample and its Φ̇ vector (one evaluation per
    /// sample, shared by the guard and the trajectory).
    measures: Vec<(Measures, Option<DVector<f64>>)>,
    meter: Meter,
    progress: &'p mut P,
    t0: f64,
    t_end: f64,
    divergence: DivergenceCheck,
    diverged: Option<FrontEndError>,
    body_names: Vec<String>,
    /// The step-rate check stopped the run (samples are still recorded).
    stopped: Option<FrontEndError>,
    /// Accepted steps so far.
    steps: usize,
    /// The step limit of an adaptive integrator (`None`: fixed step).
    step_limit: Option<usize>,
    /// Watch for a wrong motion (energy guard, singular configurations).
    guard: Guard,
    /// Collapse of the step size (adaptive runs).
    watch: StepWatch,
    /// `stopped` is a step-size collapse (diagnosed at the state where it stopped).
    collapsed: bool,
    model: &'p Model,
    /// The run's (assembled) initial state: the reference rank of Φ_q.
    initial: &'p State,
    /// The last time given to the progress callback.
    reported_t: f64,
    /// A stop requested from outside, checked after every step.
    stop: Option<StopHandle>,
    /// Why the run was stopped from outside, once it was.
    interrupted: Option<StopReason>,
    /// The state at the step where an interrupted run stopped (front-ends that can
    /// map their state give it): the last sample of the interrupted trajectory.
    stopped_state: Option<State>,
}

/// Accepted steps after which [`Recorder`] starts extrapolating the step count (a
/// tenth of the limit if that is smaller).
const STEP_RATE_CHECK_AFTER: usize = 10_000;

impl<P: FnMut(Progress)> Recorder<'_, P> {
    /// An adaptive run whose steps so far extrapolate (linearly in time) to more than
    /// twice the step limit stops now rather than at the limit: the same failure,
    /// reported after a fraction of the work (a tolerance below the method's
    /// round-off, or a step pinned by a singularity, would otherwise run for minutes).
    fn check_step_rate(&self, t: f64) -> Option<FrontEndError> {
        let limit = self.step_limit?;
        let after = STEP_RATE_CHECK_AFTER.min(limit / 10).max(100);
        if self.steps < after || !self.steps.is_multiple_of(100) {
            return None;
        }
        let done = (t - self.t0) / (self.t_end - self.t0);
        let projected = self.steps as f64 / done.max(f64::MIN_POSITIVE);
        (projected > 2.0 * limit as f64).then(|| {
            FrontEndError::failed(
                t,
                format!(
                    "step limit reached: {} steps covered {:.3}% of [t0, t_end]; at this rate the run needs about {projected:.1e} steps, more than the limit {limit} (raise it with `Simulation::max_steps` / `--max-steps`, or loosen the tolerances)",
                    self.steps,
                    100.0 * done
                ),
            )
        })
    }

    /// A step size that collapsed by many orders of magnitude against the run's
    /// median, so that the rest of the run at that rate would exceed the step limit
    /// ([`StepWatch`]): the run stops at once, saying when and by how much.
    fn check_collapse(&mut self, t: f64) -> Option<FrontEndError> {
        let limit = self.step_limit?;
        let c = self.watch.step(t, self.t_end, limit as f64)?;
        Some(FrontEndError::failed(
            t,
            format!(
                "step size collapsed: the last {} accepted steps have a median of {:.1e}, {:.0e} times the run's median step {:.1e}; the remaining {:.3e} s would take about {:.1e} steps (limit {limit}): a singular configuration, a discontinuity or tolerances below the method's round-off there",
                crate::step_watch::WINDOW,
                c.h_recent,
                c.h_recent / c.h_median,
                c.h_median,
                self.t_end - t,
                c.steps_needed
            ),
        ))
    }
}

impl<P: FnMut(Progress)> SampleSink for Recorder<'_, P> {
    fn stopped_at(&mut self, state: &State) {
        if self.interrupted.is_some() {
            self.stopped_state = Some(state.clone());
            return;
        }
        if !self.collapsed {
            return;
        }
        if let (Some(e), Some(d)) = (
            self.stopped.as_mut(),
            crate::step_watch::diagnose(self.model, self.initial, state),
        ) {
            e.message = format!("{}; {d}", e.message);
        }
    }

    fn sample(&mut self, sample: Sample) {
        if self.diverged.is_some() {
            return;
        }
        if let Some(e) = self.divergence.check_state(&sample.state) {
            self.diverged = Some(e);
            return;
        }
        let m = self
            .meter
            .measure(&sample.state, sample.accelerations.as_ref());
        self.measures.push((m, self.meter.last_phi_dot().cloned()));
        if let Some(e) = self.guard.check(&sample.state, &m, self.steps) {
            // keep the sample that showed it, then stop
            self.samples.push(sample);
            self.diverged = Some(e);
            return;
        }
        let t = sample.state.t;
        self.samples.push(sample);
        self.report(t);
    }

    fn step(&mut self, t: f64) -> ControlFlow<()> {
        if self.diverged.is_some() {
            return ControlFlow::Break(());
        }
        if self.stopped.is_some() {
            return ControlFlow::Break(());
        }
        if let Some(reason) = self.stop.as_ref().and_then(StopHandle::requested) {
            self.interrupted = Some(reason);
            self.stopped = Some(FrontEndError::failed(t, format!("interrupted by {reason}")));
            return ControlFlow::Break(());
        }
        self.steps += 1;
        if let Some(e) = self.check_collapse(t) {
            self.stopped = Some(e);
            self.collapsed = true;
            return ControlFlow::Break(());
        }
        if let Some(e) = self.check_step_rate(t) {
            // samples still arrive after this (front-ends deliver them at the end)
            self.stopped = Some(e);
            return ControlFlow::Break(());
        }
        self.report(t);
        ControlFlow::Continue(())
    }
}

impl<P: FnMut(Progress)> Recorder<'_, P> {
    /// Calls the progress callback when `t` is past the last time reported: steps and
    /// samples both report, and a front-end that delivers its samples after its last
    /// step must not run the progress from 0 to 100 % a second time.
    fn report(&mut self, t: f64) {
        if t <= self.reported_t {
            return;
        }
        self.reported_t = t;
        (self.progress)(Progress {
            t,
            t0: self.t0,
            t_end: self.t_end,
            samples: self.samples.len(),
        });
    }
}
