//! The parameters of the generalized-α method from the spectral radius at infinity
//! ρ∞ ∈ [0, 1], in its second-order form (Chung & Hulbert 1993; Arnold & Brüls 2007)
//! and its first-order form (Jansen, Whiting & Hulbert 2000). This is the one place
//! in the crate where these coefficients live.
//!
//! # Sign conventions
//!
//! The two families weight the old and the new value the other way round:
//!
//! * Chung–Hulbert and Arnold–Brüls evaluate at `t_{n+1−α}`,
//!   `u_{n+1−α} = (1 − α) u_{n+1} + α u_n`: the α's weight the **old** value. In the
//!   acceleration-like form of Arnold & Brüls (2007, sec 2),
//!   `(1 − α_m) a_{n+1} + α_m a_n = (1 − α_f) q̈_{n+1} + α_f q̈_n`. ρ∞ = 1 gives α_m = α_f = ½ (the trapezoidal rule), ρ∞ = 0
//!   asymptotic annihilation (α_m = −1, α_f = 0).
//! * Jansen–Whiting–Hulbert evaluate at `t_{n+α}`, `u_{n+α} = u_n + α (u_{n+1} − u_n)`:
//!   the α's weight the **new** value. ρ∞ = 1 gives α_m = α_f = ½ (the implicit
//!   midpoint rule), ρ∞ = 0 gives α_m = 3/2, α_f = 1.
//!
//! # Error constants
//!
//! Both forms are second order; their local error in the principal (physical) root
//! is `C h³ u⃛` with the constants of [`SecondOrder::error_constant`] and
//! [`FirstOrder::error_constant`]. They follow from the principal root of the
//! amplification matrix on `q̈ = λ q` (`y' = λ y`), as in the spectral analysis of
//! Chung & Hulbert (1993, sec 3); their closed forms were checked numerically against
//! the roots (`tests/generalized_alpha.rs` measures the resulting order).
//!
//! None of these papers is among the project's seeds; the formulas are the papers'
//! well-known ones, cited by paper and section (equation numbers were not checked).

use crate::error::Error;

/// Checks ρ∞ ∈ [0, 1]; an error names the parameter and the value.
pub fn check_rho_inf(rho_inf: f64) -> Result<f64, Error> {
    if (0.0..=1.0).contains(&rho_inf) {
        Ok(rho_inf)
    } else {
        Err(Error::InvalidInput(format!(
            "generalized-α: parameter `rho_inf` (spectral radius at infinity ρ∞) must be in [0, 1], got {rho_inf}"
        )))
    }
}

/// Parameters of the second-order generalized-α method (Chung & Hulbert 1993, sec 3,
/// the optimal choice for a given ρ∞; Arnold & Brüls 2007, sec 2, the form with the
/// acceleration-like variable `a`), in the Chung–Hulbert/Arnold–Brüls
/// convention (α weights the old value):
///
/// ```text
/// α_m = (2ρ∞ − 1)/(ρ∞ + 1),  α_f = ρ∞/(ρ∞ + 1),
/// γ = ½ − α_m + α_f,          β = ¼ (1 − α_m + α_f)²
/// ```
///
/// `γ` makes the method second order, `β` maximises high-frequency dissipation, and
/// the spectral radius of the amplification matrix tends to ρ∞ as `ωh → ∞`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SecondOrder {
    /// ρ∞, the spectral radius at infinity.
    pub rho_inf: f64,
    /// α_m (weights `a_n`).
    pub alpha_m: f64,
    /// α_f (weights `q̈_n`).
    pub alpha_f: f64,
    /// γ (velocity update).
    pub gamma: f64,
    /// β (position update).
    pub beta: f64,
}

impl SecondOrder {
    /// The coefficients for ρ∞ ∈ [0, 1] (else an error naming `rho_inf`).
    pub fn new(rho_inf: f64) -> Result<Self, Error> {
        Ok(Self::of_checked(check_rho_inf(rho_inf)?))
    }

    /// The coefficients of a ρ∞ already checked to lie in [0, 1].
    pub(crate) fn of_checked(r: f64) -> Self {
        let alpha_m = (2.0 * r - 1.0) / (r + 1.0);
        let alpha_f = r / (r + 1.0);
        let gamma = 0.5 - alpha_m + alpha_f;
        let beta = 0.25 * (1.0 - alpha_m + alpha_f).powi(2);
        Self {
            rho_inf: r,
            alpha_m,
            alpha_f,
            gamma,
            beta,
        }
    }

    /// β' = (1 − α_m)/((1 − α_f) β h²) = ∂q̈ₙ₊₁/∂qₙ₊₁ (Arnold & Brüls 2007, eq 14): the
    /// mass-matrix coefficient of the index-3 iteration matrix.
    pub fn beta_prime(&self, h: f64) -> f64 {
        (1.0 - self.alpha_m) / ((1.0 - self.alpha_f) * self.beta * h * h)
    }

    /// γ' = γ/(β h) = ∂q̇ₙ₊₁/∂qₙ₊₁ (Arnold & Brüls 2007, eq 14): the damping
    /// coefficient of the index-3 iteration matrix.
    pub fn gamma_prime(&self, h: f64) -> f64 {
        self.gamma / (self.beta * h)
    }

    /// `Δα = α_m − α_f`: `a_n = q̈(t_n + Δα h) + O(h²)` (Arnold & Brüls 2007, sec 3).
    pub fn shift(&self) -> f64 {
        self.alpha_m - self.alpha_f
    }

    /// `∂a_{n+1}/∂q̈_{n+1} = (1 − α_f)/(1 − α_m)`.
    pub fn a_per_acceleration(&self) -> f64 {
        (1.0 - self.alpha_f) / (1.0 - self.alpha_m)
    }

    /// Local error constant `C = 1/12 + (3/8) Δα²`: the principal root of the
    /// amplification matrix on `q̈ = λq` is `e^{μ}(1 + C μ³ + O(μ⁴))`, `μ = h√λ`;
    /// `1/12` is the trapezoidal rule's (ρ∞ = 1). Géradin & Cardona's estimate
    /// `h²(β − 1/6)(q̈_{n+1} − q̈_n)` takes `β − 1/6` instead, which ignores the shift
    /// of `a` and overestimates for ρ∞ < 1 (0.14 against 0.088 at ρ∞ = 0.8).
    pub fn error_constant(&self) -> f64 {
        let d = self.shift();
        1.0 / 12.0 + 0.375 * d * d
    }
}

/// Parameters of the first-order generalized-α method of Jansen, Whiting & Hulbert
/// (2000, sec 2–3), in their convention (α weights the new value):
///
/// ```text
/// α_m = ½ (3 − ρ∞)/(1 + ρ∞),  α_f = 1/(1 + ρ∞),  γ = ½ + α_m − α_f
/// ```
///
/// For `y' = f(t, y)` with the rate `ẏ` carried as a variable:
/// `y_{n+1} = y_n + h ẏ_n + hγ (ẏ_{n+1} − ẏ_n)`,
/// `ẏ_{n+α_m} = f(t_{n+α_f}, y_{n+α_f})`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FirstOrder {
    /// ρ∞, the spectral radius at infinity.
    pub rho_inf: f64,
    /// α_m (weights `ẏ_{n+1}`).
    pub alpha_m: f64,
    /// α_f (weights `y_{n+1}`).
    pub alpha_f: f64,
    /// γ.
    pub gamma: f64,
}

impl FirstOrder {
    /// The coefficients for ρ∞ ∈ [0, 1] (else an error naming `rho_inf`).
    pub fn new(rho_inf: f64) -> Result<Self, Error> {
        let r = check_rho_inf(rho_inf)?;
        let alpha_m = 0.5 * (3.0 - r) / (1.0 + r);
        let alpha_f = 1.0 / (1.0 + r);
        Ok(Self {
            rho_inf: r,
            alpha_m,
            alpha_f,
            gamma: 0.5 + alpha_m - alpha_f,
        })
    }

    /// `δ = α_f − α_m`: the rate is `ẏ_n = ẏ(t_n + δh) + O(h²)` (from the two
    /// update equations, which are second order exactly when `δ + γ = ½`).
    pub fn shift(&self) -> f64 {
        self.alpha_f - self.alpha_m
    }

    /// `c` of the Newton matrix `I − c h J`: `α_f γ/α_m` (`∂R/∂ẏ_{n+1} = α_m I −
    /// α_f γ h J`).
    pub fn newton_coefficient(&self) -> f64 {
        self.alpha_f * self.gamma / self.alpha_m
    }

    /// Local error constant `C = 1/12 + δ²` of the principal root on `y' = λy`
    /// (`R(z) = e^z + C z³ + O(z⁴)`); `1/12` is the midpoint rule's (ρ∞ = 1).
    pub fn error_constant(&self) -> f64 {
        let d = self.shift();
        1.0 / 12.0 + d * d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_and_identities() {
        let c = SecondOrder::new(1.0).unwrap();
        assert_eq!(
            (c.alpha_m, c.alpha_f, c.gamma, c.beta),
            (0.5, 0.5, 0.5, 0.25)
        );
        let c = SecondOrder::new(0.0).unwrap();
        assert_eq!(
            (c.alpha_m, c.alpha_f, c.gamma, c.beta),
            (-1.0, 0.0, 1.5, 1.0)
        );
        let f = FirstOrder::new(1.0).unwrap();
        assert_eq!((f.alpha_m, f.alpha_f, f.gamma), (0.5, 0.5, 0.5));
        let f = FirstOrder::new(0.0).unwrap();
        assert_eq!((f.alpha_m, f.alpha_f, f.gamma), (1.5, 1.0, 1.0));
        for r in [0.0, 0.3, 0.8, 1.0] {
            let c = SecondOrder::new(r).unwrap();
            assert!((c.beta - 0.25 * (c.gamma + 0.5).powi(2)).abs() < 1e-15);
            let f = FirstOrder::new(r).unwrap();
            // Jansen–Whiting–Hulbert's unconditional stability: α_m ≥ α_f ≥ ½
            assert!(f.alpha_m >= f.alpha_f && f.alpha_f >= 0.5);
        }
        for bad in [-0.1, 1.5, f64::NAN] {
            let e = SecondOrder::new(bad).unwrap_err().to_string();
            assert!(
                e.contains("rho_inf") && e.contains(&format!("{bad}")),
                "{e}"
            );
            assert!(FirstOrder::new(bad).is_err());
        }
    }
}
