//! The orthogonal-complement acceleration solve (Pękal–Frączek eqs 3.5–3.8) and
//! the Wang–Huston formulation (eqs 3.40–3.42).
//!
//! ```text
//!   q̈ = S Γ̄ + P v̈                                   (3.5)
//!   Pᵀ M P v̈ = Pᵀ Qᵉ − Pᵀ M S Γ̄                       (3.7)
//!   S Γ̄ = X⁻¹ [Γ̄; 0]  (X⁺ for redundant systems)      (3.8)
//! ```
//!
//! with `P`, `S` from the selected `mbs-linalg` method (coordinate partitioning:
//! `P = [−Φ_u⁻¹Φ_v; I]`, `S = [Φ_u⁻¹; 0]`, so that eq 3.7 is eqs 3.38–3.39 with
//! `M̌ = PᵀMP`, `Q̌ = Pᵀ(Qᵉ − M SΓ)`). Wang–Huston instead evaluates
//!
//! ```text
//!   q̈ = S Γ̄ − (S Φ_q − I) M⁻¹ Qᵉ,   S = M⁻¹Φ_qᵀ (Φ_q M⁻¹ Φ_qᵀ)⁺          (3.42)
//! ```
//!
//! which needs a non-singular M. With Euler parameters M = diag(mI, 4GᵀJ'G) is
//! singular along p; since every body's normalization row n = Φᴺ_q = [0, 2pᵀ]
//! satisfies n q̈ = Γ̄ᴺ, adding `k nᵀ n q̈ = k nᵀ Γ̄ᴺ` (k = tr J'/3) to eq 2.1 gives
//! the equivalent system `M̂ q̈ + Φ_qᵀλ = Q̂` with `M̂ = M + k nᵀn` positive
//! definite and `Q̂ = Qᵉ + k nᵀ Γ̄ᴺ`; Wang–Huston is applied to it.

use mbs_linalg::nullspace::{NullSpace, NullSpaceMethod};
use nalgebra::{DMatrix, DVector};

use crate::basis::particular;
use crate::error::ComplementError;

/// Makes `M̂ = M + k nᵀn`, `Q̂ = Qᵉ + k nᵀ Γ̄ᴺ` for the normalization rows
/// `norm_rows` (Euler parameters; see the module docs). `k` per body.
pub fn augment_normalization(
    mass: &mut DMatrix<f64>,
    forces: &mut DVector<f64>,
    phi_q: &DMatrix<f64>,
    gamma_bar: &DVector<f64>,
    norm_rows: &[(usize, f64)],
) {
    for &(row, k) in norm_rows {
        let n = phi_q.row(row);
        // M̂ += k nᵀ n (rank one), Q̂ += k nᵀ Γ̄ᴺ
        mass.ger(k, &n.transpose(), &n.transpose(), 1.0);
        forces.axpy(k * gamma_bar[row], &n.transpose(), 1.0);
    }
}

/// q̈ by eqs 3.5–3.8 (every method except Wang–Huston) or eq 3.42
/// (Wang–Huston; `mass`, `forces` must then be non-singular / augmented).
pub fn accelerations(
    t: f64,
    ns: &NullSpace,
    mass: &DMatrix<f64>,
    forces: &DVector<f64>,
    phi_q: &DMatrix<f64>,
    gamma_bar: &DVector<f64>,
    rank_tol: f64,
) -> Result<DVector<f64>, ComplementError> {
    if ns.method == NullSpaceMethod::WangHuston {
        return wang_huston(t, ns, mass, forces, phi_q, gamma_bar);
    }
    // S Γ̄ (eq 3.8)
    let x_p = particular(ns, phi_q, gamma_bar, rank_tol);
    let p = &ns.p;
    if p.ncols() == 0 {
        return Ok(x_p);
    }
    // Pᵀ M P v̈ = Pᵀ (Qᵉ − M S Γ̄)   (eq 3.7)
    let mp = mass * p;
    let mr = p.transpose() * &mp;
    let rhs = p.transpose() * (forces - mass * &x_p);
    let chol = mr.cholesky().ok_or(ComplementError::SingularMass {
        t,
        what: "PᵀMP",
        method: ns.method.name(),
        rank: ns.rank,
    })?;
    let vdd = chol.solve(&rhs);
    // q̈ = S Γ̄ + P v̈   (eq 3.5)
    Ok(x_p + p * vdd)
}

/// Eq 3.42 with the weighted pseudo-inverse `S` of `mbs-linalg`.
fn wang_huston(
    t: f64,
    ns: &NullSpace,
    mass: &DMatrix<f64>,
    forces: &DVector<f64>,
    phi_q: &DMatrix<f64>,
    gamma_bar: &DVector<f64>,
) -> Result<DVector<f64>, ComplementError> {
    let singular = ComplementError::SingularMass {
        t,
        what: "M",
        method: ns.method.name(),
        rank: ns.rank,
    };
    let s = ns.s.as_ref().ok_or(singular.clone())?;
    let a0 = mass.clone().cholesky().ok_or(singular)?.solve(forces); // M⁻¹Qᵉ
    // q̈ = S Γ̄ − (S Φ_q − I) M⁻¹ Qᵉ = S Γ̄ + M⁻¹Qᵉ − S (Φ_q M⁻¹Qᵉ)
    let correction = gamma_bar - phi_q * &a0;
    Ok(a0 + s * correction)
}
