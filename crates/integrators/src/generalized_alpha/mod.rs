//! The generalized-α method with step-size control: the second-order form of
//! Arnold & Brüls (2007) for a [`PartitionedSystem`](crate::PartitionedSystem)
//! ([`GeneralizedAlpha`]) and the first-order form of Jansen, Whiting & Hulbert
//! (2000) for any [`OdeSystem`](crate::OdeSystem) ([`GeneralizedAlphaOde`]).
//!
//! Both are second order, unconditionally stable on linear problems and damp the
//! frequencies the step does not resolve: the spectral radius of the amplification
//! matrix tends to ρ∞ ∈ [0, 1] as `ωh → ∞` ([`Params::rho_inf`]; ρ∞ = 1 is the
//! trapezoidal rule (second-order form) or the implicit midpoint rule (first-order
//! form), without numerical dissipation; ρ∞ = 0 annihilates the unresolved modes in
//! one step). The coefficients live in [`coefficients`].
//!
//! Each step solves its implicit equations by a simplified Newton iteration whose
//! Jacobian (forward differences, or [`OdeSystem::jacobian`](crate::OdeSystem::jacobian))
//! is kept across steps while the iteration converges, with dense LU factors of the
//! iteration matrix refactored when the step changes; the local error estimate and
//! the convergence and rejection policy are in [`control`] and the two forms' files.
//! With [`Params::fixed_step`] the same code takes fixed steps without error control.
//!
//! Which form a front-end gets: [`IntegratorChoice::GeneralizedAlpha`](crate::IntegratorChoice)
//! builds the first-order form in
//! [`ode_stepper`](crate::IntegratorChoice::ode_stepper) (every front-end's ODE) and
//! the second-order form in
//! [`partitioned_stepper`](crate::IntegratorChoice::partitioned_stepper) (front-ends
//! that expose positions and velocities).

pub mod coefficients;
pub mod control;
pub mod first_order;
pub mod second_order;

pub use first_order::GeneralizedAlphaOde;
pub use second_order::GeneralizedAlpha;

use crate::implicit::NewtonParams;
use crate::system::AbsTol;

/// Default spectral radius at infinity, ρ∞ = 0.5: it damps an unresolved mode by half
/// per step, and an excited stiff mode is damped out quickly enough that the steps
/// return to the slow motion. Measured on a two-mass spring (k = 1 and 1e8, unit
/// masses, 10 s, rtol = atol = 1e-6, second-order form): with the stiff mode at rest
/// every ρ∞ in [0.5, 0.9] takes 340–375 steps; with the stiff mode excited at a
/// velocity amplitude of 7e-5 (the masses released at equal positions) ρ∞ = 0.5
/// takes 800 steps, 0.7 2 206, 0.8 6 771 and 0.9 70 773, because a weakly damped
/// stiff oscillation above the tolerance holds the step at `ωh ≈ 0.7`. The price on
/// resolved modes is an error constant `1/12 + (3/8)Δα²` = 0.125 (Δα = −1/3) instead
/// of 0.083, about 15 % more steps.
pub const DEFAULT_RHO_INF: f64 = 0.5;

/// Parameters of [`GeneralizedAlpha`] and [`GeneralizedAlphaOde`].
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Spectral radius at infinity ρ∞ ∈ [0, 1] (default [`DEFAULT_RHO_INF`]).
    pub rho_inf: f64,
    /// Relative tolerance of the error test (default `1e-6`; raised to `100 ε`).
    pub rtol: f64,
    /// Absolute tolerance (default `1e-6`).
    pub atol: AbsTol,
    /// Fixed step: no error control, the last step ends at `t_end`.
    pub fixed_step: Option<f64>,
    /// First step; `None` chooses it from the initial derivatives.
    pub h0: Option<f64>,
    /// Largest step; `None`: the whole span.
    pub h_max: Option<f64>,
    /// Newton: `max_iterations` per attempt, and `rtol`/`atol`, below which a
    /// correction has converged whatever the contraction (the round-off level of the
    /// right-hand side; in fixed-step mode the only test). `reuse_jacobian` is
    /// ignored: the Jacobian is always kept while Newton converges.
    pub newton: NewtonParams,
    /// Maximum number of attempted steps.
    pub max_steps: usize,
    /// Call the projection hook every `project_every` accepted steps (`0`: never).
    pub project_every: usize,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            rho_inf: DEFAULT_RHO_INF,
            rtol: 1e-6,
            atol: AbsTol::Scalar(1e-6),
            fixed_step: None,
            h0: None,
            h_max: None,
            newton: NewtonParams {
                max_iterations: 7,
                ..NewtonParams::default()
            },
            max_steps: 10_000_000,
            project_every: 1,
        }
    }
}

impl Params {
    /// Defaults with tolerances `rtol`, `atol` and ρ∞.
    pub fn with_tol(rho_inf: f64, rtol: f64, atol: f64) -> Self {
        Self {
            rho_inf,
            rtol,
            atol: AbsTol::Scalar(atol),
            ..Self::default()
        }
    }
    /// Defaults with a fixed step `h` and ρ∞.
    pub fn fixed(rho_inf: f64, h: f64) -> Self {
        Self {
            rho_inf,
            fixed_step: Some(h),
            ..Self::default()
        }
    }

    /// Checks the tolerances and the step for a state of length `n`.
    pub(crate) fn validate(&self, n: usize) -> Result<(), crate::Error> {
        coefficients::check_rho_inf(self.rho_inf)?;
        self.atol.validate(n)?;
        let bad = |what: &str, v: f64| {
            Err(crate::Error::InvalidInput(format!(
                "generalized-α: parameter `{what}` must be positive and finite, got {v}"
            )))
        };
        if !crate::common::positive(self.rtol) {
            return bad("rtol", self.rtol);
        }
        if let Some(h) = self.fixed_step.filter(|h| !crate::common::positive(*h)) {
            return bad("h", h);
        }
        if let Some(h) = self.h0.filter(|h| !crate::common::positive(*h)) {
            return bad("h0", h);
        }
        if let Some(h) = self.h_max.filter(|h| !crate::common::positive(*h)) {
            return bad("h_max", h);
        }
        if self.newton.max_iterations == 0 {
            return Err(crate::Error::InvalidInput(
                "generalized-α: Newton `max_iterations` must be at least 1".into(),
            ));
        }
        Ok(())
    }
}
