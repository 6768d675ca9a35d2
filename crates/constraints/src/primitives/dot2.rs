//! Dot-2 perpendicularity between an axis of body i and the separation d = Pⱼ − Pᵢ
//! (thesis sec 4.5, eqs 4.5.1–4.5.3): Φ = aᵢ · d = 0.
//!
//! Φ̇ = ȧᵢ·d + aᵢ·ḋ, so
//! Φ_q = [−aᵢᵀ + 0, dᵀ(−Aᵢ ã'ᵢ) + aᵢᵀ Aᵢ s̃'ᵢ | aᵢᵀ, −aᵢᵀ Aⱼ s̃'ⱼ];
//! γ = −(äᵢ·d + 2 ȧᵢ·ḋ + aᵢ·d̈).

use super::kin::{Kin1, Kin3};

/// Φ = aᵢ · d.
#[inline]
pub fn dot2(ai: &Kin3, d: &Kin3) -> Kin1 {
    ai.dot(d)
}
