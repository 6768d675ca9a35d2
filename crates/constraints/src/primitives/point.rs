//! Point coincidence (thesis sec 4.2, eq 4.2.1): d = Pⱼ − Pᵢ = 0, three rows.
//!
//! Φ = rⱼ + Aⱼ s'ⱼ − rᵢ − Aᵢ s'ᵢ;
//! Φ_q = [−I, Aᵢ s̃'ᵢ | I, −Aⱼ s̃'ⱼ] (with respect to [ṙᵢ; ω'ᵢ | ṙⱼ; ω'ⱼ], eq 4.2.10 with our
//! sign of d);
//! γ = −(ωⱼ × (ωⱼ × Aⱼ s'ⱼ) − ωᵢ × (ωᵢ × Aᵢ s'ᵢ))  (eq 4.2.11).
//!
//! The same vector d is the building block of the dot-2 and distance conditions.

use super::kin::Kin3;

/// d = Pⱼ − Pᵢ from the two marker origins.
#[inline]
pub fn separation(pi: &Kin3, pj: &Kin3) -> Kin3 {
    pj.sub(pi)
}

/// The three point-coincidence rows Φ = Pⱼ − Pᵢ.
#[inline]
pub fn point_coincidence(pi: &Kin3, pj: &Kin3) -> Kin3 {
    separation(pi, pj)
}
