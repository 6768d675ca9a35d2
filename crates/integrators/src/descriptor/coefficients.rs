//! The coefficients of the generalized-α method from the spectral radius at
//! infinity ρ∞ (Chung & Hulbert 1993, "A time integration algorithm for structural
//! dynamics with improved numerical dissipation: the generalized-α method", J. Appl.
//! Mech. 60, eqs 25 and 17 with 20), in the second-order form used for
//! constrained systems by Arnold & Brüls 2007 (Multibody Syst. Dyn. 18, eqs 3–5).
//!
//! (The coordinator merges this with `generalized_alpha/coefficients.rs` of the
//! ODE/partitioned generalized-α.)

/// α_m, α_f, γ, β of the generalized-α method.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct AlphaCoefficients {
    /// Weight of aₙ in (1 − α_m) aₙ₊₁ + α_m aₙ.
    pub alpha_m: f64,
    /// Weight of q̈ₙ in (1 − α_f) q̈ₙ₊₁ + α_f q̈ₙ.
    pub alpha_f: f64,
    /// Newmark γ.
    pub gamma: f64,
    /// Newmark β.
    pub beta: f64,
}

impl AlphaCoefficients {
    /// Chung–Hulbert's optimal choice for ρ∞ ∈ [0, 1] (eq 25):
    /// α_m = (2ρ∞ − 1)/(ρ∞ + 1), α_f = ρ∞/(ρ∞ + 1), and second order with maximal
    /// high-frequency dissipation (eqs 17, 20): γ = ½ − α_m + α_f,
    /// β = ¼ (1 − α_m + α_f)².
    pub fn chung_hulbert(rho_inf: f64) -> Self {
        let alpha_m = (2.0 * rho_inf - 1.0) / (rho_inf + 1.0);
        let alpha_f = rho_inf / (rho_inf + 1.0);
        let gamma = 0.5 - alpha_m + alpha_f;
        let d = 1.0 - alpha_m + alpha_f;
        Self {
            alpha_m,
            alpha_f,
            gamma,
            beta: 0.25 * d * d,
        }
    }

    /// β' = (1 − α_m)/((1 − α_f) β h²) = ∂q̈ₙ₊₁/∂qₙ₊₁ (Arnold–Brüls eq 14): the
    /// mass-matrix coefficient of the iteration matrix.
    pub fn beta_prime(&self, h: f64) -> f64 {
        (1.0 - self.alpha_m) / ((1.0 - self.alpha_f) * self.beta * h * h)
    }

    /// γ' = γ/(β h) = ∂q̇ₙ₊₁/∂qₙ₊₁ (Arnold–Brüls eq 14): the damping coefficient.
    pub fn gamma_prime(&self, h: f64) -> f64 {
        self.gamma / (self.beta * h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ρ∞ = 1 is the trapezoidal rule (γ = ½, β = ¼, α_m = α_f = ½); ρ∞ = 0 is
    /// asymptotically annihilating with α_m = −1, α_f = 0, γ = 3/2, β = 1
    /// (Chung–Hulbert Table 1 limits); second order γ = ½ − α_m + α_f throughout.
    #[test]
    fn limits_of_chung_hulbert() {
        let c = AlphaCoefficients::chung_hulbert(1.0);
        assert_eq!(
            (c.alpha_m, c.alpha_f, c.gamma, c.beta),
            (0.5, 0.5, 0.5, 0.25)
        );
        let c = AlphaCoefficients::chung_hulbert(0.0);
        assert_eq!(
            (c.alpha_m, c.alpha_f, c.gamma, c.beta),
            (-1.0, 0.0, 1.5, 1.0)
        );
        let c = AlphaCoefficients::chung_hulbert(0.9);
        assert!((c.gamma - (0.5 - c.alpha_m + c.alpha_f)).abs() < 1e-15);
        assert!((c.alpha_m - 0.8 / 1.9).abs() < 1e-15 && (c.alpha_f - 0.9 / 1.9).abs() < 1e-15);
    }
}
