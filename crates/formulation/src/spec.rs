//! What a formulation must run.

use mbs_integrators::IntegratorChoice;
use mbs_model::State;

/// Default limit on the number of steps (accepted + rejected) of an adaptive
/// integrator in one run ([`RunSpec::max_steps`]).
pub const DEFAULT_MAX_STEPS: usize = 1_000_000;

/// What a formulation must run.
#[derive(Clone, Debug)]
pub struct RunSpec<'a> {
    /// The initial state (absolute coordinates, layout [`crate::SAMPLE_LAYOUT`]).
    pub initial: &'a State,
    /// Integrator and its tolerances or step.
    pub integrator: IntegratorChoice,
    /// End time (the initial time is `initial.t`).
    pub t_end: f64,
    /// Output times, increasing, inside `[initial.t, t_end]`; the first is `initial.t`.
    pub output_times: &'a [f64],
    /// A coordinate or velocity beyond this magnitude means the run diverged: stop
    /// with a [`crate::FormulationErrorKind::Failed`] error naming the body.
    pub divergence_limit: f64,
    /// Largest number of steps (accepted + rejected) an adaptive integrator may take;
    /// beyond it the run stops with a [`crate::FormulationErrorKind::Failed`] "step
    /// limit" error (fixed-step integrators take (t_end − t₀)/h steps; the facade
    /// refuses a step needing more than this limit before the run).
    pub max_steps: usize,
    /// Whether the formulation stops a run whose motion leaves what the method can
    /// compute at the requested accuracy (e.g. the penalty method's O(ε) constraint
    /// deflection beyond the tolerance); the facade's `Simulation::guard`.
    pub guard: bool,
}
