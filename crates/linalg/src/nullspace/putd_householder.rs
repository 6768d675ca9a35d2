//! PUTD with Householder transformations, PUTD-H (Pękal–Frączek sec 3.2.3,
//! eqs 3.20–3.23; Amirouche, Ider–Amirouche).
//!
//! Redundant constraints are first located by Gauss–Jordan elimination with
//! partial pivoting (the paper's implementation) and moved to the end; the
//! transposed Jacobian of the `r` independent rows is then brought to upper
//! trapezoidal form by Householder reflections, `Hᵀ Φ_rᵀ = Z` (eq 3.20), and
//! `P = H D₂ᵀ` (eq 3.23) is the last `n − r` columns of `H`. `S = Φ_r⁺ = Q₁R₁⁻ᵀ`
//! placed in the independent-row columns (`X = [Φ_r; Pᵀ]`, `X⁻¹ = [Φ_r⁺ P]`).

use nalgebra::DMatrix;

use super::coordinate_partitioning::gauss_jordan;
use super::{NullSpace, NullSpaceMethod, NullSpaceParams, trivial, validate};
use crate::LinalgError;
use crate::dense::{as_faer, to_nalgebra};

/// `P = H D₂ᵀ` (eq 3.23).
pub fn compute(phi_q: &DMatrix<f64>, params: &NullSpaceParams) -> Result<NullSpace, LinalgError> {
    validate(phi_q, params)?;
    let (m, n) = phi_q.shape();
    if m == 0 || n == 0 || phi_q.amax() == 0.0 {
        return Ok(trivial(n, m, NullSpaceMethod::PutdHouseholder, params));
    }
    let gj = gauss_jordan(phi_q, params.rank_tol);
    let mut rows = gj.independent_rows.clone();
    rows.sort_unstable();
    let r = rows.len();
    // Φ_rᵀ, n × r: the independent constraints first, redundant ones dropped.
    let phi_r_t = DMatrix::from_fn(n, r, |i, k| phi_q[(rows[k], i)]);
    let qr = as_faer(&phi_r_t).qr();
    let h = to_nalgebra(qr.compute_Q().as_ref());
    let p = h.columns(r, n - r).clone_owned();
    let s = params.compute_s.then(|| {
        let rr = to_nalgebra(qr.R());
        let r1 = rr.view((0, 0), (r, r)).clone_owned();
        let q1t = h.columns(0, r).transpose();
        // Φ_r⁺ = Q₁ R₁⁻ᵀ  ⇔  (Φ_r⁺)ᵀ = R₁⁻¹ Q₁ᵀ
        let xt = r1
            .solve_upper_triangular(&q1t)
            .unwrap_or_else(|| DMatrix::zeros(r, n));
        let mut s = DMatrix::zeros(n, m);
        for (k, &row) in rows.iter().enumerate() {
            s.column_mut(row).copy_from(&xt.row(k).transpose());
        }
        s
    });
    Ok(NullSpace {
        p,
        rank: r,
        s,
        orthonormal: true,
        rank_tol: params.rank_tol,
        method: NullSpaceMethod::PutdHouseholder,
    })
}
