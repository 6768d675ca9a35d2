//! Index-3 integration of constrained second-order descriptor systems
//! M(q) q̈ + Φ_qᵀ λ = Q(t, q, q̇), Φ(t, q) = 0, through the same [`crate::Stepper`]
//! seam and [`crate::drive`] loop as the ODE integrators.
//!
//! - [`DescriptorSystem`]: what a formulation provides — the residual pieces at an
//!   [`Iterate`], its own solve of the Newton linear system (dense or sparse KKT, or
//!   an augmented-Lagrangian leading matrix), its multipliers, its projections;
//! - [`DescriptorRule`]: generalized-α (Chung–Hulbert 1993; Arnold–Brüls 2007 for
//!   index-3 constraints, with the constraint rows scaled by β'), and Bayo–Ledesma's
//!   (1996) trapezoidal and midpoint rules of ALF-INDEX3;
//! - [`DescriptorIntegrator`]: the rule over a fixed step, or (generalized-α)
//!   adaptive with the position error estimate h²(β − 1/6)(aₙ₊₁ − aₙ) (Géradin &
//!   Cardona 2001; Jay & Negrut 2007), with dense output.
//!
//! Newton policy ([`DescriptorNewton`]): the unknown of a step is the position
//! increment Δq (velocity space), predicted as h q̇ₙ + ½h² aₙ; each iteration asks
//! the system for a correction and then for the constraint residual at the corrected
//! iterate; converged when the scaled correction and |Φ| are within tolerance (an
//! adaptive step: max(tol, 10⁻² rtol)), or when a correction at the round-off floor
//! stalls with Φ satisfied; a stalled iteration with Φ violated may be finished by
//! the system ([`DescriptorSystem::stalled_correction`]). A fixed step that fails
//! ends the run with the system's explanation. An adaptive step that fails (or
//! diverges: from the third iteration a correction more than twice the last) is rejected and retried with
//! rebuilt Jacobians ([`Iterate::refresh`]) at the same step, then with a quarter
//! of it; the Jacobians are otherwise reused across iterations and steps. The error test rejects
//! with the factor 0.9 err^{-1/3} ∈ [0.2, 1].

mod control;
mod integrator;
mod newton;
mod params;
mod rule;
mod system;

pub use crate::choice::StepControl;
pub use integrator::DescriptorIntegrator;
pub use params::{DescriptorNewton, DescriptorParams};
pub use rule::DescriptorRule;
pub use system::{DescriptorSystem, Iterate, Point};

use crate::choice::IntegratorChoice;
use crate::error::Error;
use crate::stepper::Stepper;

/// What a stepper built for a descriptor system shares besides the integrator:
/// the dimensions, the Newton parameters and the step limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DescriptorSettings {
    /// Positions, velocities, multipliers.
    pub dims: (usize, usize, usize),
    /// The Newton iteration.
    pub newton: DescriptorNewton,
    /// Attempted steps before [`Error::TooManySteps`].
    pub max_steps: usize,
    /// Call the system's projection every `project_every` accepted steps.
    pub project_every: usize,
}

/// The integrators that step a descriptor system, for messages.
pub const DESCRIPTOR_INTEGRATORS: &str = "generalized-alpha (adaptive: --rtol/--atol, or fixed: --h), trapezoidal or midpoint (fixed: --h)";

impl IntegratorChoice {
    /// The rule and step of this choice on a descriptor system, or
    /// [`Error::InvalidInput`] naming the integrators that apply.
    pub fn descriptor_params(
        &self,
        settings: &DescriptorSettings,
    ) -> Result<DescriptorParams, Error> {
        let (rule, step) = match *self {
            Self::GeneralizedAlpha { rho_inf, steps } => {
                (DescriptorRule::GeneralizedAlpha { rho_inf }, steps)
            }
            Self::Trapezoidal { h } => (DescriptorRule::Trapezoidal, StepControl::Fixed { h }),
            Self::Midpoint { h } => (DescriptorRule::Midpoint, StepControl::Fixed { h }),
            _ => {
                return Err(Error::InvalidInput(format!(
                    "integrator `{}` does not step a descriptor (index-3) system; valid: {DESCRIPTOR_INTEGRATORS}",
                    self.name()
                )));
            }
        };
        Ok(DescriptorParams {
            newton: settings.newton,
            max_steps: settings.max_steps,
            project_every: settings.project_every,
            ..DescriptorParams::new(rule, step)
        })
    }

    /// The stepper of this choice for a descriptor system (see
    /// [`IntegratorChoice::descriptor_params`]).
    pub fn descriptor_stepper<S: DescriptorSystem + ?Sized>(
        &self,
        settings: &DescriptorSettings,
    ) -> Result<Box<dyn Stepper<S>>, Error> {
        let params = self.descriptor_params(settings)?;
        let (nq, nv, nl) = settings.dims;
        Ok(Box::new(DescriptorIntegrator::new(nq, nv, nl, params)))
    }
}
