//! Baumgarte stabilization of the acceleration-level constraints (Baumgarte 1972,
//! "Stabilization of constraints and integrals of motion in dynamical systems",
//! Comput. Methods Appl. Mech. Eng. 1): the constraint rows Φ̈ = 0 are replaced by
//!
//! ```text
//!   Φ̈ + 2α̂ Φ̇ + β̂² Φ = 0   ⇔   Φ_q q̈ = γ̄,   γ̄ = γ − 2α̂ Φ̇ − β̂² Φ
//! ```
//!
//! (Pękal & Frączek, sec 2: Γ̄ = Γ − 2α̂Φ̇ − β̂²Φ; Chiou's thesis eq 5.2.4.1 with
//! α, β). Φ̇ = Φ_q q̇ + Φ_t is taken on every row; Φ only on the holonomic rows
//! (nonholonomic rows have no position level).
//!
//! The same damped-oscillator form appears with other letters:
//! - Bayo & Ledesma (1996) eq 5 and Malczyk & Frączek (2012) eqs 7–8 (ALF, ALF-DCA):
//!   Φ̈ + 2Ωμ Φ̇ + Ω² Φ with damping ratio μ and natural frequency Ω, i.e.
//!   α̂ = μΩ, β̂ = Ω ([`Baumgarte::from_damping`]). Their multiplier update uses the
//!   residual Φ̇_q q̇ + Φ̇_t + 2Ωμ Φ̇ + Ω² Φ = −γ̄ ([`Baumgarte::neg_apply`]).
//! - Chiou's natural partitioning, penalty on the cut joints (after eq 5.4.3.9):
//!   Φ̈_c + 2ξω Φ̇_c + ω² Φ_c with damping ratio ξ and frequency ω.

/// The constants α̂ (damping, 1/s) and β̂ (stiffness, 1/s) of Baumgarte's
/// stabilization; `Baumgarte::NONE` (α̂ = β̂ = 0) gives γ̄ = γ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Baumgarte {
    /// α̂: the Φ̇ term is 2α̂ Φ̇.
    pub alpha: f64,
    /// β̂: the Φ term is β̂² Φ.
    pub beta: f64,
}

impl Default for Baumgarte {
    /// α̂ = β̂ = 10, the values of Pękal–Frączek (sec 4).
    fn default() -> Self {
        Self {
            alpha: 10.0,
            beta: 10.0,
        }
    }
}

impl Baumgarte {
    /// No stabilization: γ̄ = γ.
    pub const NONE: Baumgarte = Baumgarte {
        alpha: 0.0,
        beta: 0.0,
    };

    /// The damped-oscillator form Φ̈ + 2ζω Φ̇ + ω² Φ = 0 with damping ratio `zeta`
    /// and natural frequency `omega` (Bayo–Ledesma's μ, Ω; Chiou's ξ, ω):
    /// α̂ = ζω, β̂ = ω.
    pub fn from_damping(zeta: f64, omega: f64) -> Self {
        Self {
            alpha: zeta * omega,
            beta: omega,
        }
    }

    /// γ̄ of one row: `(γ − 2α̂ Φ̇) − β̂² Φ`, or `γ − 2α̂ Φ̇` for a nonholonomic
    /// row (`phi = None`).
    #[inline]
    pub fn row(&self, gamma: f64, phi: Option<f64>, phi_dot: f64) -> f64 {
        let g = gamma - 2.0 * self.alpha * phi_dot;
        match phi {
            Some(phi) => g - self.beta * self.beta * phi,
            None => g,
        }
    }

    /// −γ̄ of one row, summed as `(−γ + 2α̂ Φ̇) + β̂² Φ` (Bayo–Ledesma's residual
    /// Φ̇_q q̇ + Φ̇_t + 2Ωμ Φ̇ + Ω² Φ, eq 6).
    #[inline]
    pub fn neg_row(&self, gamma: f64, phi: Option<f64>, phi_dot: f64) -> f64 {
        let c = -gamma + 2.0 * self.alpha * phi_dot;
        match phi {
            Some(phi) => c + self.beta * self.beta * phi,
            None => c,
        }
    }

    /// γ̄ = γ − 2α̂ Φ̇ − β̂² Φ for m rows, in place: `gamma` holds γ on entry and γ̄
    /// on return; `phi_dot` has length m, `phi` length m_h ≤ m (the holonomic rows
    /// come first). Allocation-free.
    pub fn apply(&self, gamma: &mut [f64], phi: &[f64], phi_dot: &[f64]) {
        debug_assert!(phi.len() <= gamma.len() && gamma.len() == phi_dot.len());
        for (i, (g, &pd)) in gamma.iter_mut().zip(phi_dot).enumerate() {
            *g = self.row(*g, phi.get(i).copied(), pd);
        }
    }

    /// −γ̄ for m rows, in place (`gamma` holds γ on entry), each row summed as in
    /// [`Self::neg_row`]: the ALF residual c of Bayo–Ledesma eqs 6–8 and
    /// Malczyk–Frączek eqs 7–8. Allocation-free.
    pub fn neg_apply(&self, gamma: &mut [f64], phi: &[f64], phi_dot: &[f64]) {
        debug_assert!(phi.len() <= gamma.len() && gamma.len() == phi_dot.len());
        for (i, (g, &pd)) in gamma.iter_mut().zip(phi_dot).enumerate() {
            *g = self.neg_row(*g, phi.get(i).copied(), pd);
        }
    }

    /// Whether both constants are finite and non-negative.
    pub fn is_valid(&self) -> bool {
        self.alpha.is_finite() && self.beta.is_finite() && self.alpha >= 0.0 && self.beta >= 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stabilized rows make e(t) = Φ(t) a damped oscillator: for Φ = e, Φ̇ = ė,
    /// Φ_q q̈ = γ̄ is ë = −2α̂ ė − β̂² e when γ = 0.
    #[test]
    fn rows_are_the_damped_oscillator() {
        let b = Baumgarte::from_damping(0.5, 4.0);
        assert_eq!(
            b,
            Baumgarte {
                alpha: 2.0,
                beta: 4.0
            }
        );
        let (e, e_dot) = (0.3, -1.5);
        assert_eq!(b.row(0.0, Some(e), e_dot), -2.0 * 2.0 * e_dot - 16.0 * e);
        assert_eq!(b.row(1.0, None, e_dot), 1.0 - 4.0 * e_dot);
        assert_eq!(b.neg_row(1.0, Some(e), e_dot), -b.row(1.0, Some(e), e_dot));
        assert_eq!(Baumgarte::NONE.row(0.7, Some(e), e_dot), 0.7);
    }

    #[test]
    fn slices_take_phi_on_the_holonomic_rows_only() {
        let b = Baumgarte::default();
        let gamma = [1.0, 2.0, 3.0];
        let phi = [0.01, -0.02];
        let phi_dot = [0.1, 0.2, 0.3];
        let mut out = gamma;
        b.apply(&mut out, &phi, &phi_dot);
        assert_eq!(out, [1.0 - 2.0 - 1.0, 2.0 - 4.0 + 2.0, 3.0 - 6.0]);
        let mut neg = gamma;
        b.neg_apply(&mut neg, &phi, &phi_dot);
        assert_eq!(neg, out.map(|x| -x));
        assert!(b.is_valid());
        assert!(
            !Baumgarte {
                alpha: -1.0,
                beta: 1.0
            }
            .is_valid()
        );
        assert!(
            !Baumgarte {
                alpha: f64::NAN,
                beta: 1.0
            }
            .is_valid()
        );
    }
}
