//! The seam between the facade and the formulations: a front-end adapter implements
//! [`FrontEnd`]; the facade gives it the initial state, the integrator settings, the end
//! time and the output times, and receives [`Sample`]s through a [`SampleSink`].
//!
//! A front-end reports *states* only (absolute coordinates, Euler parameters, layout
//! [`SAMPLE_LAYOUT`], mapped from whatever coordinates it integrates), plus
//! multipliers and accelerations where it has them. The facade computes energies and
//! constraint violations from those states itself with `mbs-constraints`, so every
//! method is measured the same way.
//!
//! Adding a front-end = one adapter type implementing [`FrontEnd`] and one arm in
//! [`crate::registry::build_front_end`].

use std::fmt;

use mbs_model::State;
use nalgebra::DVector;

pub use mbs_formulation::{
    FormulationError as FrontEndError, FormulationErrorKind as FrontEndErrorKind, RunStats,
    SAMPLE_LAYOUT, Sample, SampleSink,
};

use crate::integrator::IntegratorChoice;

/// What a front-end must run.
#[derive(Clone, Debug)]
pub struct RunSpec<'a> {
    /// The initial state (absolute coordinates, layout [`SAMPLE_LAYOUT`]).
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
}

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
    /// [`SAMPLE_LAYOUT`]), returning the accelerations q̈ (7 per body) it
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
