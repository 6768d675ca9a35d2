//! The rules of the descriptor integrator: the relations between the position
//! increment of a step and the velocities and accelerations at its end.

use crate::generalized_alpha::coefficients::SecondOrder;

/// How a step of the descriptor integrator relates positions, velocities and
/// accelerations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DescriptorRule {
    /// The generalized-α method (Chung–Hulbert 1993) for index-3 constrained
    /// systems (Arnold–Brüls 2007, eqs 3–5): qₙ₊₁ = qₙ + h q̇ₙ + h²(½ − β) aₙ +
    /// h² β aₙ₊₁, q̇ₙ₊₁ = q̇ₙ + h(1 − γ) aₙ + h γ aₙ₊₁, (1 − α_m) aₙ₊₁ + α_m aₙ =
    /// (1 − α_f) q̈ₙ₊₁ + α_f q̈ₙ, with the equations of motion and Φ = 0 at tₙ₊₁;
    /// fixed step or adaptive.
    GeneralizedAlpha {
        /// Spectral radius at infinity ρ∞ ∈ [0, 1] (1: no numerical dissipation,
        /// the trapezoidal rule; 0: the high frequencies are annihilated in one step).
        rho_inf: f64,
    },
    /// Bayo–Ledesma's trapezoidal rule (1996, eq 36 with a = 2/h, b = 4/h²;
    /// Newmark β = ¼, γ = ½), fixed step.
    Trapezoidal,
    /// Bayo–Ledesma's implicit midpoint rule, fixed step: q̇ₙ₊₁ = (2/h) Δq − q̇ₙ,
    /// the equations of motion at the midpoint with q̈ₙ₊½ = (q̇ₙ₊₁ − q̇ₙ)/h
    /// (b = 2/h²), Φ = 0 at tₙ₊₁.
    Midpoint,
}

impl DescriptorRule {
    /// The rule's name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::GeneralizedAlpha { .. } => "generalized-alpha",
            Self::Trapezoidal => "trapezoidal",
            Self::Midpoint => "midpoint",
        }
    }
}

/// The relations of one rule at one step size h.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Kinematics {
    /// Generalized-α with its coefficients.
    Alpha(SecondOrder, f64),
    /// Trapezoidal with a = 2/h, b = 4/h² (and h).
    Trapezoidal { a: f64, b: f64 },
    /// Midpoint with a = 2/h and h.
    Midpoint { a: f64, h: f64 },
}

impl Kinematics {
    /// The relations of `rule` for step `h` (ρ∞ checked by the integrator).
    pub fn new(rule: DescriptorRule, h: f64) -> Self {
        match rule {
            DescriptorRule::GeneralizedAlpha { rho_inf } => {
                Self::Alpha(SecondOrder::of_checked(rho_inf), h)
            }
            DescriptorRule::Trapezoidal => Self::Trapezoidal {
                a: 2.0 / h,
                b: 4.0 / (h * h),
            },
            DescriptorRule::Midpoint => Self::Midpoint { a: 2.0 / h, h },
        }
    }

    /// ∂q̈/∂Δq.
    pub fn c_qdd(&self) -> f64 {
        match *self {
            Self::Alpha(c, h) => c.beta_prime(h),
            Self::Trapezoidal { b, .. } => b,
            Self::Midpoint { h, .. } => 2.0 / (h * h),
        }
    }

    /// ∂q̇ₙ₊₁/∂Δq.
    pub fn c_v(&self) -> f64 {
        match *self {
            Self::Alpha(c, h) => c.gamma_prime(h),
            Self::Trapezoidal { a, .. } | Self::Midpoint { a, .. } => a,
        }
    }

    /// Δα = α_m − α_f: the algorithmic accelerations lag, aₙ = q̈(tₙ + Δα h) + O(h²)
    /// (Arnold–Brüls 2007, sec 2); zero for the other rules.
    pub fn shift(&self) -> f64 {
        match *self {
            Self::Alpha(c, _) => c.alpha_m - c.alpha_f,
            _ => 0.0,
        }
    }

    /// Whether the equations of motion hold at the step's midpoint.
    pub fn at_midpoint(&self) -> bool {
        matches!(self, Self::Midpoint { .. })
    }

    /// Whether the iteration matrix includes the force tangent (generalized-α).
    pub fn force_tangent(&self) -> bool {
        matches!(self, Self::Alpha(..))
    }

    /// The predictor Δq = h q̇ₙ + ½ h² aₙ (constant algorithmic acceleration; for
    /// Bayo–Ledesma's rules aₙ = q̈ₙ).
    pub fn predictor(h: f64, v: &[f64], a: &[f64], dq: &mut [f64]) {
        for i in 0..dq.len() {
            dq[i] = h * v[i] + 0.5 * h * h * a[i];
        }
    }

    /// q̇ₙ₊₁, q̈ (at the point of the equations of motion) and aₙ₊₁ from Δq and the
    /// last accepted (q̇ₙ, q̈ₙ, aₙ).
    pub fn end(
        &self,
        dq: &[f64],
        (v0, qdd0, a0): (&[f64], &[f64], &[f64]),
        v: &mut [f64],
        qdd: &mut [f64],
        a: &mut [f64],
    ) {
        match *self {
            Self::Alpha(c, h) => {
                let (bh2, h2) = (c.beta * h * h, h * h);
                for i in 0..dq.len() {
                    let an = (dq[i] - h * v0[i] - h2 * (0.5 - c.beta) * a0[i]) / bh2;
                    a[i] = an;
                    v[i] = v0[i] + h * (1.0 - c.gamma) * a0[i] + h * c.gamma * an;
                    qdd[i] = ((1.0 - c.alpha_m) * an + c.alpha_m * a0[i] - c.alpha_f * qdd0[i])
                        / (1.0 - c.alpha_f);
                }
            }
            Self::Trapezoidal { a: ac, b } => {
                // Bayo–Ledesma eq 36: q̇ = a Δq − q̇ₙ, q̈ = b Δq − (4/h) q̇ₙ − q̈ₙ
                for i in 0..dq.len() {
                    v[i] = ac * dq[i] - v0[i];
                    qdd[i] = b * dq[i] - 2.0 * ac * v0[i] - qdd0[i];
                    a[i] = qdd[i];
                }
            }
            Self::Midpoint { a: ac, h } => {
                for i in 0..dq.len() {
                    v[i] = ac * dq[i] - v0[i];
                    qdd[i] = (v[i] - v0[i]) / h;
                    a[i] = qdd[i];
                }
            }
        }
    }

    /// The local error estimate of the positions (velocity space) of an accepted
    /// generalized-α step, h²(β − 1/6 + Δα/2)(aₙ₊₁ − aₙ): Géradin & Cardona's
    /// (2001, "Flexible Multibody Dynamics", sec 11.4; Jay & Negrut 2007, ETNA 26,
    /// sec 4) h²(β − 1/6)(aₙ₊₁ − aₙ) of Newmark's scheme with the shift of the
    /// algorithmic accelerations aₙ = q̈(tₙ + Δα h) + O(h²), Δα = α_m − α_f
    /// (Arnold–Brüls 2007, sec 2), in the position update; zero for the
    /// fixed-step rules.
    pub fn position_error(&self, a1: f64, a0: f64) -> f64 {
        match *self {
            Self::Alpha(c, h) => {
                let shift = 0.5 * (c.alpha_m - c.alpha_f);
                h * h * (c.beta - 1.0 / 6.0 + shift) * (a1 - a0)
            }
            _ => 0.0,
        }
    }
}
