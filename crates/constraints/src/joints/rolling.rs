//! A sphere rolling without slip on a fixed plane (thesis sec 7.4, eqs 7.4.9–7.4.11,
//! the bowling ball), one holonomic and two nonholonomic rows.
//!
//! The sphere's centre is marker i's origin Pᵢ (radius a); the plane passes through
//! marker j's origin with normal zⱼ, tangent axes xⱼ, yⱼ; marker j is on ground.
//!
//! Holonomic (contact): Φ = zⱼ·(Pᵢ − Pⱼ) − a = −zⱼ·d − a.
//!
//! Nonholonomic (no slip): the material point of body i at the contact point
//! C = Pᵢ − a zⱼ has zero velocity along xⱼ and yⱼ. With ρ = C − rᵢ:
//! v_C = ṙᵢ + ωᵢ × ρ = ṙᵢ − ρ̃ Aᵢ ω'ᵢ, so the rows are
//! B v = eₖᵀ [I, −ρ̃ Aᵢ] [ṙᵢ; ω'ᵢ] = 0 (eₖ = xⱼ, yⱼ; b = 0).
//! At v̇ = 0 (ω̇ = 0): d/dt(eₖ·v_C) = eₖ·(ω × ρ̇) with ρ̇ = ω × (Aᵢ s'ᵢ) (żⱼ = 0), so
//! γ = −eₖ·(ωᵢ × (ωᵢ × Aᵢ s'ᵢ)).

use mbs_kinematics::skew;
use nalgebra::SVector;

use super::MarkerPair;
use crate::block::ConstraintBlock;
use crate::primitives::Kin1;

/// Evaluates the three rows (contact, no slip along xⱼ, no slip along yⱼ).
pub fn evaluate(m: &MarkerPair<'_>, radius: f64, block: &mut ConstraintBlock) {
    let zj = m.axis_j(2);
    let contact = zj
        .dot(&m.d())
        .scale(-1.0)
        .sub(&Kin1::constant(SVector::from([radius])));
    block.set_rows(0, &contact);

    let fi = m.fi;
    let s = fi.a * m.mi.position;
    let rho = s - radius * zj.value;
    let v_c = fi.rdot + fi.omega.cross(&rho);
    let rho_a = -skew(&rho) * fi.a;
    let bias = fi.omega.cross(&fi.omega.cross(&s));
    for (k, row) in [(0usize, 1usize), (1, 2)] {
        let e = m.fj.a * m.mj.orientation.column(k);
        block.phi[row] = e.dot(&v_c);
        block.phi_t[row] = 0.0;
        block.gamma[row] = -e.dot(&bias);
        let jw = e.transpose() * rho_a;
        for c in 0..3 {
            block.ji[(row, c)] = if m.moving_i { e[c] } else { 0.0 };
            block.ji[(row, 3 + c)] = if m.moving_i { jw[c] } else { 0.0 };
            block.jj[(row, c)] = 0.0;
            block.jj[(row, 3 + c)] = 0.0;
        }
    }
}
