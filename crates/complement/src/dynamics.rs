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

use mbs_linalg::nullspace::{NullSpaceMethod, NullSpaceWorkspace};
use nalgebra::{DMatrix, DVector};

use crate::basis::particular_into;
use crate::error::ComplementError;
use crate::workspace::{SolveWork, cholesky_solve, fview, mmut, mref, mul};

/// Makes `M̂ = M + k nᵀn`, `Q̂ = Qᵉ + k nᵀ Γ̄ᴺ` for the normalization rows
/// `norm_rows` (Euler parameters; see the module docs). `k` per body.
/// Allocation-free.
pub fn augment_normalization(
    mass: &mut DMatrix<f64>,
    forces: &mut DVector<f64>,
    phi_q: &DMatrix<f64>,
    gamma_bar: &DVector<f64>,
    norm_rows: &[(usize, f64)],
) {
    let n = mass.nrows();
    for &(row, k) in norm_rows {
        // M̂ += k nᵀ n (rank one), Q̂ += k nᵀ Γ̄ᴺ
        for j in 0..n {
            let a = k * phi_q[(row, j)];
            if a != 0.0 {
                for i in 0..n {
                    mass[(i, j)] += a * phi_q[(row, i)];
                }
            }
        }
        let a = k * gamma_bar[row];
        for i in 0..n {
            forces[i] += a * phi_q[(row, i)];
        }
    }
}

/// q̈ by eqs 3.5–3.8 (every method except Wang–Huston) or eq 3.42
/// (Wang–Huston; `mass`, `forces` must then be non-singular / augmented), with
/// `P`, `S` of `ns`, into `work.qdd`. Allocation-free (PUTD-G: see
/// [`crate::basis::min_norm_solve_into`] for its one exception).
#[allow(clippy::too_many_arguments)]
pub fn accelerations_into(
    t: f64,
    ns: &NullSpaceWorkspace,
    mass: &DMatrix<f64>,
    forces: &DVector<f64>,
    phi_q: &DMatrix<f64>,
    gamma_bar: &DVector<f64>,
    rank_tol: f64,
    work: &mut SolveWork,
) -> Result<(), ComplementError> {
    let singular = |what| ComplementError::SingularMass {
        t,
        what,
        method: ns.method().name(),
        rank: ns.rank(),
    };
    if ns.method() == NullSpaceMethod::WangHuston {
        return wang_huston(ns, mass, forces, phi_q, gamma_bar, work).ok_or_else(|| singular("M"));
    }
    // S Γ̄ (eq 3.8)
    particular_into(
        ns,
        phi_q,
        gamma_bar,
        rank_tol,
        &mut work.min_norm,
        &mut work.x_p,
    );
    let p = ns.p();
    let (n, k) = p.shape();
    if k == 0 {
        work.qdd.copy_from(&work.x_p);
        return Ok(());
    }
    let pf = mref(ns.p_data(), n, k);
    // Pᵀ M P v̈ = Pᵀ (Qᵉ − M S Γ̄)   (eq 3.7)
    mul(mmut(&mut work.mp, n, k), fview(mass), pf);
    mul(
        mmut(&mut work.mr, k, k),
        pf.transpose(),
        mref(&work.mp, n, k),
    );
    work.t_n.gemv(1.0, mass, &work.x_p, 0.0);
    work.u_n.copy_from(forces);
    work.u_n -= &work.t_n;
    let vdd = &mut work.t_n.as_mut_slice()[..k];
    mul(
        mmut(vdd, k, 1),
        pf.transpose(),
        mref(work.u_n.as_slice(), n, 1),
    );
    if !cholesky_solve(&mut work.mr, k, vdd, 1, &mut work.mem) {
        return Err(singular("PᵀMP"));
    }
    // q̈ = S Γ̄ + P v̈   (eq 3.5)
    mul(mmut(work.qdd.as_mut_slice(), n, 1), pf, mref(vdd, k, 1));
    work.qdd += &work.x_p;
    Ok(())
}

/// Eq 3.42 with the weighted pseudo-inverse `S` of `mbs-linalg`; `None` if `M`
/// is not positive definite (or `S` missing).
fn wang_huston(
    ns: &NullSpaceWorkspace,
    mass: &DMatrix<f64>,
    forces: &DVector<f64>,
    phi_q: &DMatrix<f64>,
    gamma_bar: &DVector<f64>,
    work: &mut SolveWork,
) -> Option<()> {
    let s = ns.s()?;
    let n = mass.nrows();
    // a₀ = M⁻¹Qᵉ
    work.mp[..n * n].copy_from_slice(mass.as_slice());
    work.qdd.copy_from(forces);
    if !cholesky_solve(&mut work.mp, n, work.qdd.as_mut_slice(), 1, &mut work.mem) {
        return None;
    }
    // q̈ = S Γ̄ − (S Φ_q − I) M⁻¹ Qᵉ = S Γ̄ + M⁻¹Qᵉ − S (Φ_q M⁻¹Qᵉ)
    work.t_m.copy_from(gamma_bar);
    work.t_m.gemv(-1.0, phi_q, &work.qdd, 1.0);
    work.qdd.gemv(1.0, &s, &work.t_m, 1.0);
    Some(())
}
