//! Distance between two marker origins: Φ = dᵀd − L² = 0 (d = Pⱼ − Pᵢ).
//!
//! Φ̇ = 2 dᵀḋ, Φ_q = 2dᵀ [∂ḋ/∂vᵢ | ∂ḋ/∂vⱼ]; γ = −(2 ḋᵀḋ + 2 dᵀd̈).
//! The squared form is smooth everywhere (also at d = 0, where its Jacobian vanishes).

use nalgebra::SVector;

use super::kin::{Kin1, Kin3};

/// Φ = dᵀd − L².
#[inline]
pub fn distance(d: &Kin3, length: f64) -> Kin1 {
    d.dot(d)
        .sub(&Kin1::constant(SVector::from([length * length])))
}
