//! The penalty α of the augmented-Lagrangian formulation (Bayo–Ledesma 1996,
//! eqs 5–8), absolute or relative to the mass matrix.
//!
//! Bayo and Ledesma recommend α = 1e5…1e7 "for constraints scaled to unity", i.e.
//! for unit masses and lengths. The multiplier iteration of eq 8 contracts by
//! ≈ 1/(α Φ_q M⁻¹ Φ_qᵀ) per iteration, while the accelerations carry a round-off
//! error that grows with the conditioning of L = M + Φ_qᵀαΦ_q: both depend on α
//! *relative to the mass matrix*. With an absolute α = 1e7 a mechanism of small
//! bodies (Andrew's squeezer: masses of grams, inertias of 1e-7 kg m²) gets
//! accelerations whose round-off noise exceeds an adaptive integrator's tolerance,
//! which then shrinks its steps without end. [`AlphaScale::Relative`] sets
//!
//! ```text
//!   α = κ · tr M / tr(Φ_qᵀΦ_q)        (at the initial state)
//! ```
//!
//! so that the penalty term αΦ_qᵀΦ_q of L is κ times the mass matrix in trace,
//! whatever the units of the model; κ is dimensionless.

use crate::descriptor::{Descriptor, Level};
use crate::error::AlfError;

/// Default κ of the relative penalty α = κ · tr M / tr(Φ_qᵀΦ_q): the penalty term
/// αΦ_qᵀΦ_q of L is then 1e4 times the mass matrix in trace, within the
/// papers' 1e5…1e7 for unit masses and lengths.
pub const DEFAULT_KAPPA: f64 = 1e4;

/// How the penalty α is given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AlphaScale {
    /// α itself (the papers' values, e.g. 1e7 for unit masses).
    Absolute(f64),
    /// κ of α = κ · tr M / tr(Φ_qᵀΦ_q), evaluated at the initial state.
    Relative(f64),
}

impl AlphaScale {
    /// The default: relative, κ = [`DEFAULT_KAPPA`].
    pub const DEFAULT: AlphaScale = AlphaScale::Relative(DEFAULT_KAPPA);

    /// The absolute α for `sys` at (t, q, q̇) (evaluates `sys` at `Level::Full`
    /// for the relative form).
    pub fn resolve(
        self,
        sys: &mut dyn Descriptor,
        t: f64,
        q: &[f64],
        v: &[f64],
    ) -> Result<f64, AlfError> {
        let kappa = match self {
            AlphaScale::Absolute(alpha) => return Ok(alpha),
            AlphaScale::Relative(kappa) => kappa,
        };
        sys.evaluate(t, q, v, Level::Full)?;
        let trace_m = sys.mass().diagonal().sum();
        let trace_j = sys.phi_q().norm_squared();
        if !(trace_m.is_finite() && trace_m > 0.0) {
            return Err(AlfError::InvalidParameter {
                name: "tr M (mass scale of the relative penalty)",
                value: trace_m,
                requirement: "must be positive and finite",
            });
        }
        Ok(if trace_j > 0.0 {
            kappa * trace_m / trace_j
        } else {
            // no constraints: α is never used
            kappa
        })
    }
}
