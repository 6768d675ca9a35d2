//! QR method with column pivoting (Pękal–Frączek sec 3.2.5, eqs 3.29–3.36;
//! Kim–Vanderploeg).
//!
//! `Φ_qᵀ E = Q R = [Q₁ Q₂] [R₁; 0]` (eqs 3.31–3.32) with `r` diagonal entries
//! `|R_ii| > rank_tol · |R_00|`; `P = Q₂` (eq 3.36). The column permutation `E`
//! pushes redundant constraints to the end. `S = Φ_q⁺ = Q₁ (R₁R₁ᵀ)⁻¹ R₁ Eᵀ`.

use nalgebra::DMatrix;

use super::{NullSpace, NullSpaceMethod, NullSpaceParams, trivial, validate};
use crate::LinalgError;
use crate::dense::{as_faer, to_nalgebra};

/// `P = Q₂` (eq 3.36).
pub fn compute(phi_q: &DMatrix<f64>, params: &NullSpaceParams) -> Result<NullSpace, LinalgError> {
    validate(phi_q, params)?;
    let (m, n) = phi_q.shape();
    if m == 0 || n == 0 || phi_q.amax() == 0.0 {
        return Ok(trivial(n, m, NullSpaceMethod::Qr, params));
    }
    let qr = as_faer(phi_q).transpose().col_piv_qr();
    let rr = to_nalgebra(qr.R());
    let k = n.min(m);
    let r00 = rr[(0, 0)].abs();
    let rank = (0..k)
        .take_while(|&i| rr[(i, i)].abs() > params.rank_tol * r00)
        .count();
    let q = to_nalgebra(qr.compute_Q().as_ref());
    let p = q.columns(rank, n - rank).clone_owned();
    let s = if params.compute_s {
        let r1 = rr.view((0, 0), (rank, m)).clone_owned();
        let g = &r1 * r1.transpose();
        let y = g
            .cholesky()
            .map(|c| c.solve(&r1))
            .ok_or(LinalgError::Decomposition("R₁R₁ᵀ of the QR method"))?;
        let (fwd, _) = qr.P().arrays();
        let mut ye = DMatrix::zeros(rank, m);
        for (kk, &col) in fwd.iter().enumerate() {
            ye.column_mut(col).copy_from(&y.column(kk));
        }
        Some(q.columns(0, rank) * ye)
    } else {
        None
    };
    Ok(NullSpace {
        p,
        rank,
        s,
        orthonormal: true,
        rank_tol: params.rank_tol,
        method: NullSpaceMethod::Qr,
    })
}
