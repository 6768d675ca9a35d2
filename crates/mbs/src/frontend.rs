//! The seam between the facade and the formulations: a front-end adapter implements
//! [`FrontEnd`]; the facade gives it the initial state, the integrator settings, the end
//! time and the output times, and receives [`Sample`]s through a [`SampleSink`].
//!
//! A front-end reports *states* only (absolute coordinates, Euler parameters, layout
//! [`Layout::EulerParamsPdot`], mapped from whatever coordinates it integrates), plus
//! multipliers and accelerations where it has them. The facade computes energies and
//! constraint violations from those states itself with `mbs-constraints`, so every
//! method is measured the same way.
//!
//! Adding a front-end = one adapter type implementing [`FrontEnd`] and one arm in
//! [`crate::registry::build_front_end`].

use std::fmt;
use std::ops::ControlFlow;

use mbs_model::{Layout, State};
use nalgebra::DVector;

use crate::integrator::IntegratorChoice;

/// What a front-end must run.
#[derive(Clone, Debug)]
pub struct RunSpec<'a> {
    /// The initial state (absolute coordinates, layout [`Layout::EulerParamsPdot`]).
    pub initial: &'a State,
    /// Integrator and its tolerances or step.
    pub integrator: IntegratorChoice,
    /// End time (the initial time is `initial.t`).
    pub t_end: f64,
    /// Output times, increasing, inside `[initial.t, t_end]`; the first is `initial.t`.
    pub output_times: &'a [f64],
    /// A coordinate or velocity beyond this magnitude means the run diverged: stop
    /// with a [`FrontEndErrorKind::Failed`] error naming the body.
    pub divergence_limit: f64,
    /// Largest number of steps (accepted + rejected) an adaptive integrator may take;
    /// beyond it the run stops with a [`FrontEndErrorKind::Failed`] "step limit" error
    /// (fixed-step integrators take (t_end − t₀)/h steps and ignore it).
    pub max_steps: usize,
    /// Whether the front-end stops a run whose motion leaves what the method can
    /// compute at the requested accuracy (e.g. the penalty method's O(ε) constraint
    /// deflection beyond the tolerance); `Simulation::guard`.
    pub guard: bool,
}

/// One output sample.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The state at the sample time `state.t`: absolute coordinates with Euler
    /// parameters, layout [`Layout::EulerParamsPdot`] (7 + 7 per body).
    pub state: State,
    /// Lagrange multipliers λ (or the method's equivalent: penalty forces Φ/ε,
    /// augmented-Lagrangian λ), one per constraint row of `mbs-constraints`, if the
    /// method yields them.
    pub multipliers: Option<DVector<f64>>,
    /// Accelerations q̈ = [r̈, p̈] per body (7 per body) at the sample, if the method
    /// computes them; otherwise the facade finite-differences velocities for Φ̈.
    pub accelerations: Option<DVector<f64>>,
}

impl Sample {
    /// A sample with a state only.
    pub fn new(state: State) -> Self {
        Self {
            state,
            multipliers: None,
            accelerations: None,
        }
    }
}

/// Receives the output of a running front-end.
pub trait SampleSink {
    /// One sample per requested output time, in order.
    fn sample(&mut self, sample: Sample);
    /// Called after every accepted step with its time (progress). Returning
    /// `ControlFlow::Break(())` asks the front-end to stop early and return `Ok`.
    fn step(&mut self, _t: f64) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// After a run that [`SampleSink::step`] stopped: the state at the last accepted
    /// step, for a diagnosis of where it stopped (front-ends that can map their state
    /// call it).
    fn stopped_at(&mut self, _state: &State) {}
}

/// Integration statistics of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunStats {
    /// Accepted steps.
    pub accepted_steps: usize,
    /// Rejected steps.
    pub rejected_steps: usize,
    /// Right-hand-side (state derivative or acceleration) evaluations.
    pub rhs_evals: usize,
    /// Jacobian evaluations of implicit rules.
    pub jacobian_evals: usize,
    /// Newton iterations of implicit rules (or of ALF-INDEX3's position iteration).
    pub newton_iterations: usize,
    /// Multiplier (augmented-Lagrangian) iterations, where counted.
    pub multiplier_iterations: usize,
    /// Projections applied (positions and velocities).
    pub projections: usize,
    /// Seconds spent integrating, if the front-end measured it separately from its
    /// output post-processing (the facade's wall time otherwise).
    pub integration_seconds: Option<f64>,
}

impl From<mbs_integrators::Info> for RunStats {
    fn from(i: mbs_integrators::Info) -> Self {
        Self {
            accepted_steps: i.accepted_steps,
            rejected_steps: i.rejected_steps,
            rhs_evals: i.rhs_evals,
            jacobian_evals: i.jacobian_evals,
            newton_iterations: i.newton_iterations,
            multiplier_iterations: 0,
            projections: i.projections_applied,
            integration_seconds: None,
        }
    }
}

/// What kind of failure a [`FrontEndError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontEndErrorKind {
    /// The front-end or the requested feature does not exist (CLI exit code 2).
    NotImplemented,
    /// The settings are invalid for this front-end (CLI exit code 2).
    InvalidInput,
    /// The simulation failed while running (CLI exit code 1).
    Failed,
}

/// A front-end failure: when (`t`), where (a joint or body name) and what. The samples
/// delivered before the error are kept by the facade and written.
#[derive(Clone, Debug, PartialEq)]
pub struct FrontEndError {
    /// Kind.
    pub kind: FrontEndErrorKind,
    /// Simulation time of the failure, if it happened while running.
    pub t: Option<f64>,
    /// The joint, body or constraint involved, if known (e.g. "joint `j3`").
    pub location: Option<String>,
    /// What happened.
    pub message: String,
    /// Statistics up to the failure (boxed to keep the error small).
    pub stats: Box<RunStats>,
}

impl FrontEndError {
    /// A failure while running, at time `t`.
    pub fn failed(t: f64, message: impl Into<String>) -> Self {
        Self {
            kind: FrontEndErrorKind::Failed,
            t: Some(t),
            location: None,
            message: message.into(),
            stats: Box::default(),
        }
    }
    /// Settings the front-end cannot run with.
    pub fn invalid_input(message: impl Into<String>) -> Self {
        Self {
            kind: FrontEndErrorKind::InvalidInput,
            t: None,
            location: None,
            message: message.into(),
            stats: Box::default(),
        }
    }
    /// A feature the front-end does not have.
    pub fn not_implemented(message: impl Into<String>) -> Self {
        Self {
            kind: FrontEndErrorKind::NotImplemented,
            t: None,
            location: None,
            message: message.into(),
            stats: Box::default(),
        }
    }
    /// The same error, naming the element involved.
    pub fn at(mut self, location: impl Into<String>) -> Self {
        self.location = Some(location.into());
        self
    }
    /// The same error with statistics.
    pub fn with_stats(mut self, stats: RunStats) -> Self {
        self.stats = Box::new(stats);
        self
    }
}

impl fmt::Display for FrontEndError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(t) = self.t {
            write!(f, "at t = {t}")?;
            if self.location.is_none() {
                f.write_str(": ")?;
            } else {
                f.write_str(", ")?;
            }
        }
        if let Some(l) = &self.location {
            write!(f, "{l}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for FrontEndError {}

/// A formulation the facade can run. Built by [`crate::registry::build_front_end`] from
/// a [`crate::Method`] and a model (the adapter keeps what it needs of the model and
/// preallocates its workspace there).
///
/// A user's own formulation plugs in the same way, through
/// [`crate::Simulation::run_front_end`]:
///
/// ```
/// use mbs::frontend::{FrontEnd, FrontEndError, RunSpec, RunStats, Sample, SampleSink};
/// /// A "method" that never moves: every sample is the initial state.
/// struct Frozen;
/// impl FrontEnd for Frozen {
///     fn name(&self) -> String {
///         "frozen".into()
///     }
///     fn run(&mut self, spec: &RunSpec<'_>, sink: &mut dyn SampleSink) -> Result<RunStats, FrontEndError> {
///         for &t in spec.output_times {
///             let mut s = spec.initial.clone();
///             s.t = t;
///             sink.sample(Sample::new(s));
///         }
///         Ok(RunStats::default())
///     }
/// }
/// let sim = mbs::Simulation::builtin("five-bar")?.t_end(1.0).samples(4);
/// let traj = sim.run_front_end(&mut Frozen, |_| {})?;
/// assert_eq!(traj.len(), 5);
/// assert!(traj.max_phi() < 1e-12 && traj.energy_drift() == 0.0);
/// # Ok::<(), mbs::Error>(())
/// ```
pub trait FrontEnd {
    /// The method's name with its parameters (as `Method`'s `Display`).
    fn name(&self) -> String;

    /// Integrates from `spec.initial` to `spec.t_end`, delivering one [`Sample`] per
    /// output time to `sink` (the first at `spec.initial.t`) and calling
    /// `sink.step` after accepted steps. Returns the statistics, or an error after
    /// which the samples already delivered remain valid.
    fn run(
        &mut self,
        spec: &RunSpec<'_>,
        sink: &mut dyn SampleSink,
    ) -> Result<RunStats, FrontEndError>;

    /// One evaluation of the method's right-hand side at `state` (layout
    /// [`Layout::EulerParamsPdot`]), returning the accelerations q̈ (7 per body) it
    /// implies. Used by the criterion benches (cost of one RHS evaluation) and the
    /// cross-method consistency suite. Methods without such a map return
    /// [`FrontEndErrorKind::NotImplemented`].
    fn accelerations(&mut self, state: &State) -> Result<DVector<f64>, FrontEndError> {
        let _ = state;
        Err(FrontEndError::not_implemented(format!(
            "{}: no single right-hand-side evaluation exposed",
            self.name()
        )))
    }
}

impl fmt::Debug for dyn FrontEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FrontEnd({})", self.name())
    }
}

/// The layout every [`Sample`] uses.
pub const SAMPLE_LAYOUT: Layout = Layout::EulerParamsPdot;
