//! What a running formulation delivers: [`Sample`]s through a [`SampleSink`], and
//! [`RunStats`] at the end.

use std::ops::ControlFlow;

use mbs_model::{Layout, State};
use nalgebra::DVector;

/// The layout of every [`Sample`]'s state: absolute coordinates with Euler parameters
/// and their rates, 7 + 7 per body.
pub const SAMPLE_LAYOUT: Layout = Layout::EulerParamsPdot;

/// One output sample.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The state at the sample time `state.t`: absolute coordinates with Euler
    /// parameters, layout [`SAMPLE_LAYOUT`] (7 + 7 per body).
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

/// Receives the output of a running formulation.
pub trait SampleSink {
    /// One sample per requested output time, in order.
    fn sample(&mut self, sample: Sample);
    /// Called after every accepted step with its time (progress). Returning
    /// `ControlFlow::Break(())` asks the formulation to stop early and return `Ok`.
    fn step(&mut self, _t: f64) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// After a run that [`SampleSink::step`] stopped: the state at the last accepted
    /// step, for a diagnosis of where it stopped (formulations that can map their
    /// state call it).
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
    /// LU factorizations of implicit rules' Newton matrices (RADAU5: the real and
    /// the complex one together).
    #[serde(default)]
    pub lu_decompositions: usize,
    /// Newton iterations of implicit rules (or of ALF-INDEX3's position iteration).
    pub newton_iterations: usize,
    /// Multiplier (augmented-Lagrangian) iterations, where counted.
    pub multiplier_iterations: usize,
    /// Projections applied (positions and velocities).
    pub projections: usize,
    /// Seconds spent integrating, if the formulation measured it separately from its
    /// output post-processing (the caller's wall time otherwise).
    pub integration_seconds: Option<f64>,
    /// Seconds of `integration_seconds` spent on output samples (the integrator's dense
    /// output and the copy of each sample), if measured; the per-sample derived
    /// quantities are computed after the integration and are not part of it.
    pub sampling_seconds: Option<f64>,
    /// The explicit run's step was held by stability: Hairer's stiffness test of
    /// RK45/DOP853 fired ([`mbs_integrators::stiffness`]); `None` otherwise.
    #[serde(default)]
    pub stiffness: Option<mbs_integrators::StiffnessReport>,
}

impl From<mbs_integrators::Info> for RunStats {
    fn from(i: mbs_integrators::Info) -> Self {
        Self {
            accepted_steps: i.accepted_steps,
            rejected_steps: i.rejected_steps,
            rhs_evals: i.rhs_evals,
            jacobian_evals: i.jacobian_evals,
            lu_decompositions: i.lu_decompositions,
            newton_iterations: i.newton_iterations,
            multiplier_iterations: 0,
            projections: i.projections_applied,
            integration_seconds: None,
            sampling_seconds: None,
            stiffness: i.stiffness,
        }
    }
}
