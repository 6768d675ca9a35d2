//! The penalty α of the augmented-Lagrangian formulation (Bayo–Ledesma 1996,
//! eqs 5–8), absolute or relative to the mass matrix, and Chiou's penalty coefficient
//! ε (Chiou 1990, eq 5.3.1), absolute or relative to the constraints' inverse masses
//! and the step ([`EpsilonScale`]).
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

use std::sync::Arc;

use mbs_model::{BodyRef, JointKind, Model};

use crate::descriptor::{Descriptor, Level};
use crate::error::AlfError;

/// Default κ of the relative penalty α = κ · tr M / tr(Φ_qᵀΦ_q): the penalty term
/// αΦ_qᵀΦ_q of L is then 1e5 times the mass matrix in trace (α ≈ 1e4 for A02's unit
/// links, whose Φ_qᵀΦ_q has a larger trace than M; the papers give 1e5…1e7 for unit
/// masses and lengths).
///
/// Measured on IFToMM A02 (10 s, ten singular passes, `examples/a02_matrix.rs`): with
/// κ = 1e4 the multiplier iteration contracts too slowly near the singular positions
/// (by ≈ 1/(1 + α s²/m) along the small singular value s of Φ_q), runs into its cap,
/// and the direct minimum-norm solve that replaces it switches rank decisions from
/// one evaluation to the next: rk45 and DOP853 at 1e-10 stopped with a step-size
/// collapse. With κ = 1e5 all 28 adaptive cells (rk45, rk23, DOP853, Adams ×
/// 1e-4…1e-10) match the reference; Andrew's squeezer at DOP853 1e-10 takes 178 steps
/// (165 with κ = 1e4), its accelerations' round-off (≈ κ ε relative) still far below
/// the tolerance.
pub const DEFAULT_KAPPA: f64 = 1e5;

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

/// Default κ of the relative penalty coefficient of Chiou's method,
/// ε = κ ϱ² d̃ ([`EpsilonScale::Relative`]).
///
/// The thesis' own pairing is ε = 1e-6 with the trapezoidal rule at h = 0.01 s on
/// the crank-slider of sec 7.2, whose median inverse mass is d̃ = 6 kg⁻¹ in the
/// [ṙ, ω'] layout of `mbs_mechanisms::chiou::crank_slider`: κ = 1e-6 / (0.005² · 6)
/// = 6.7e-3 (and 1.7e-3 for its staggered runs at h = 0.02).
pub const DEFAULT_EPSILON_KAPPA: f64 = 1e-2;

/// The half step ϱ of the relative ε under an adaptive integrator, whose steps are
/// not known in advance: the thesis' ϱ = h/2 = 5 ms (trapezoidal rule at h = 0.01 s,
/// secs 7.2–7.3). With [`DEFAULT_EPSILON_KAPPA`] the penalty oscillation then has
/// the angular frequency √(d̃/ε) = 1/(ϱ√κ) = 2000 rad/s on every mechanism.
pub const ADAPTIVE_HALF_STEP: f64 = 5e-3;

/// How Chiou's penalty coefficient ε of λ = Φ/ε (eq 5.3.1) is given.
///
/// ε is a compliance (m/N for distance rows): its effect on the motion is set by
/// the ratio of ε to ϱ² B M⁻¹ Bᵀ, the matrix it is added to in the implicit stage
/// of the staggered procedure (eq 5.5.5.2, ϱ = h/2),
///
/// ```text
///   (ε I + ϱ² B M⁻¹ Bᵀ) λ^{n+½} = ε λⁿ + ϱ B u̇ⁿ + ϱ² B M⁻¹ F + ϱ Φ_t.
/// ```
///
/// For ε ≪ ϱ² d the stage enforces the velocity constraint B u̇ + Φ_t = ε λ̇ ≈ 0
/// at every station and the penalty's own error, the constraint deflection
/// Φ = ε (λ − λ⁰), stays below the scheme's; for ε ≫ ϱ² d the penalty springs
/// are soft on the scale of a step and the motion is another mechanism's (measured:
/// Andrew's squeezer, whose bodies weigh grams and move on a millisecond scale,
/// ends 1.2 away from the reference with the thesis' ε = 1e-6 at h = 1e-5, and
/// 2.4e-4 away with ε = 2.5e-10 = 1e-2 ϱ² d̃). [`EpsilonScale::Relative`] sets
///
/// ```text
///   ε = κ · ϱ² · d̃,    d̃ = median of diag(B M⁻¹ Bᵀ) at the initial state
/// ```
///
/// (the median, because fictitious axial inertias of slender links make a few rows
/// of B M⁻¹ Bᵀ orders of magnitude stiffer than the rest), with ϱ = h/2 of a
/// fixed-step rule and [`ADAPTIVE_HALF_STEP`] for adaptive integrators.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EpsilonScale {
    /// ε itself (the thesis uses 1e-6 for its unit-mass mechanisms).
    Absolute(f64),
    /// κ of ε = κ ϱ² d̃.
    Relative(f64),
}

impl EpsilonScale {
    /// The absolute ε for `model` and the step `h` of a fixed-step rule (`None`:
    /// an adaptive integrator, ϱ = [`ADAPTIVE_HALF_STEP`]).
    pub fn resolve(self, model: Arc<Model>, h: Option<f64>) -> Result<f64, AlfError> {
        let (kappa, name) = match self {
            EpsilonScale::Absolute(eps) => (eps, "epsilon"),
            EpsilonScale::Relative(kappa) => (kappa, "kappa (relative penalty ε = κ ϱ² d̃)"),
        };
        if !(kappa > 0.0 && kappa.is_finite()) {
            return Err(AlfError::InvalidParameter {
                name,
                value: kappa,
                requirement: "must be positive and finite",
            });
        }
        let EpsilonScale::Relative(kappa) = self else {
            return Ok(kappa);
        };
        let rho = h.map_or(ADAPTIVE_HALF_STEP, |h| 0.5 * h.abs());
        let d = constraint_inverse_masses(model)?;
        let median = crate::penalty::lambda::median(&d);
        Ok(if median > 0.0 {
            kappa * rho * rho * median
        } else {
            // no constraints: ε is never used
            kappa
        })
    }
}

/// The diagonal of B M⁻¹ Bᵀ (Chiou eq 5.3.5, [ṙ, ω'] layout) at the model's initial
/// state: the inverse effective mass each constraint row sees, one per row.
pub fn constraint_inverse_masses(model: Arc<Model>) -> Result<Vec<f64>, AlfError> {
    let mut core = crate::penalty::core::Core::new(model)?;
    let (x, v) = core.initial();
    core.evaluate(0.0, &x, &v, false)?;
    let mut d = vec![0.0; core.m()];
    core.constraint_inverse_masses(&mut d)?;
    Ok(d)
}

/// The size ℓ of a mechanism: the largest distance of a marker from its body's
/// centre of mass or length of a distance joint (1 m if there is neither).
pub fn length_scale(model: &Model) -> f64 {
    let markers = model
        .markers()
        .iter()
        .filter(|m| !matches!(m.body, BodyRef::Ground))
        .map(|m| m.position.norm());
    let distances = model.joints().iter().filter_map(|j| match j.kind {
        JointKind::Distance { length } => Some(length.abs()),
        _ => None,
    });
    let l = markers.chain(distances).fold(0.0, f64::max);
    if l > 0.0 && l.is_finite() { l } else { 1.0 }
}
