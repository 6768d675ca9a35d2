//! Dot-1 perpendicularity between two body-fixed axes (thesis sec 4.3, eqs 4.3.1–4.3.10;
//! sec 4.4, eq 4.4.8): Φ = aᵢ · bⱼ = 0.
//!
//! With aᵢ = Aᵢ a'ᵢ, bⱼ = Aⱼ b'ⱼ:
//! Φ̇ = bⱼᵀ(−Aᵢ ã'ᵢ) ω'ᵢ + aᵢᵀ(−Aⱼ b̃'ⱼ) ω'ⱼ, so
//! Φ_q = [0, −bⱼᵀ Aᵢ ã'ᵢ | 0, −aᵢᵀ Aⱼ b̃'ⱼ];
//! γ = −(äᵢ·bⱼ + 2 ȧᵢ·ḃⱼ + aᵢ·b̈ⱼ) with ȧ = ω × a, ä = ω × (ω × a) (ω̇ = 0).

use super::kin::{Kin1, Kin3};

/// Φ = aᵢ · bⱼ.
#[inline]
pub fn dot1(ai: &Kin3, bj: &Kin3) -> Kin1 {
    ai.dot(bj)
}
