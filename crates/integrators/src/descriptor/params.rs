//! Parameters of the descriptor integrator.

use super::rule::DescriptorRule;
use crate::choice::StepControl;

/// The Newton iteration of a step and its policy.
///
/// An iterate is converged when the scaled correction ‖δ‖∞/(1 + ‖q‖∞) and the
/// scaled constraint residual ‖Φ‖∞/(1 + ‖q‖∞) are both within `tol` (Bayo–Ledesma's
/// test; an adaptive step uses max(`tol`, 10⁻² rtol)). A correction below `stall`
/// that no longer halves is at the round-off floor of the system's solve: with Φ
/// within tolerance the iterate is converged; otherwise the system may finish it
/// ([`super::DescriptorSystem::stalled_correction`]). A fixed step whose
/// iteration fails stops the run with the system's explanation; an adaptive step
/// is rejected, first retried with rebuilt Jacobians, then with a quarter of the
/// step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DescriptorNewton {
    /// Tolerance of the scaled correction and constraint residual.
    pub tol: f64,
    /// Iterations per attempt.
    pub max_iterations: usize,
    /// Round-off floor of the scaled correction.
    pub stall: f64,
}

impl Default for DescriptorNewton {
    /// Bayo–Ledesma's ALF-INDEX3 values: tol 1e-11, 25 iterations, stall 1e-8.
    fn default() -> Self {
        Self {
            tol: 1e-11,
            max_iterations: 25,
            stall: 1e-8,
        }
    }
}

/// Parameters of [`super::DescriptorIntegrator`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DescriptorParams {
    /// The rule.
    pub rule: DescriptorRule,
    /// Fixed or adaptive step (Bayo–Ledesma's rules: fixed only).
    pub step: StepControl,
    /// The Newton iteration.
    pub newton: DescriptorNewton,
    /// Attempted steps before [`crate::Error::TooManySteps`].
    pub max_steps: usize,
    /// Call the system's projection every `project_every` accepted steps (0: never).
    pub project_every: usize,
}

impl DescriptorParams {
    /// `rule` with `step`, default Newton parameters, projection after every step.
    pub fn new(rule: DescriptorRule, step: StepControl) -> Self {
        Self {
            rule,
            step,
            newton: DescriptorNewton::default(),
            max_steps: 100_000_000,
            project_every: 1,
        }
    }
}
