//! QR method with column pivoting (Pękal–Frączek sec 3.2.5, eqs 3.29–3.36;
//! Kim–Vanderploeg).
//!
//! `Φ_qᵀ E = Q R = [Q₁ Q₂] [R₁; 0]` (eqs 3.31–3.32) with `r` diagonal entries
//! `|R_ii| > rank_tol · |R_00|`; `P = Q₂` (eq 3.36). The column permutation `E`
//! pushes redundant constraints to the end. `S = Φ_q⁺ = Q₁ (R₁R₁ᵀ)⁻¹ R₁ Eᵀ`.

use nalgebra::DMatrix;

use super::workspace::{QrBufs, cholesky_solve, mmut, mref, mul, qr_with_q, transpose_into};
use super::{NullSpace, NullSpaceMethod, NullSpaceParams, NullSpaceWorkspace};
use crate::LinalgError;

/// `P = Q₂` (eq 3.36).
pub fn compute(phi_q: &DMatrix<f64>, params: &NullSpaceParams) -> Result<NullSpace, LinalgError> {
    super::workspace::compute_via(phi_q, params, compute_into)
}

/// [`compute`] into a workspace (allocation-free).
pub fn compute_into(
    phi_q: &DMatrix<f64>,
    params: &NullSpaceParams,
    ws: &mut NullSpaceWorkspace,
) -> Result<(), LinalgError> {
    if ws.begin(phi_q, NullSpaceMethod::Qr, params)? {
        return Ok(());
    }
    let (m, n) = phi_q.shape();
    let [a, q, r1, g, ye, ..] = &mut ws.w;
    transpose_into(phi_q, a);
    qr_with_q(
        a,
        n,
        m,
        true,
        q,
        QrBufs {
            basis: &mut ws.basis,
            qcoeff: &mut ws.qcoeff,
            fwd: &mut ws.fwd,
            bwd: &mut ws.bwd,
            mem: &mut ws.mem,
        },
    );
    // R: the upper trapezoid of the factored Φ_qᵀ E (k × m)
    let k = n.min(m);
    let r00 = a[0].abs();
    let rank = (0..k)
        .take_while(|&i| a[i + i * n].abs() > params.rank_tol * r00)
        .count();
    ws.rank = rank;
    ws.p[..n * (n - rank)].copy_from_slice(&q[n * rank..n * n]);
    ws.has_s = params.compute_s;
    if params.compute_s {
        // S = Q₁ (R₁R₁ᵀ)⁻¹ R₁ Eᵀ with R₁ the first `rank` rows of R (rank × m)
        for j in 0..m {
            for i in 0..rank {
                r1[i + j * rank] = if i <= j { a[i + j * n] } else { 0.0 };
            }
        }
        mul(
            mmut(g, rank, rank),
            mref(r1, rank, m),
            mref(r1, rank, m).transpose(),
        );
        // Y = (R₁R₁ᵀ)⁻¹ R₁, solved in place on a copy of R₁ (in `ye`'s scratch)
        let y = &mut ws.basis[..rank * m];
        y.copy_from_slice(&r1[..rank * m]);
        if !cholesky_solve(g, rank, y, m, &mut ws.mem) {
            return Err(LinalgError::Decomposition("R₁R₁ᵀ of the QR method"));
        }
        for (kk, &col) in ws.fwd[..m].iter().enumerate() {
            ye[col * rank..(col + 1) * rank].copy_from_slice(&y[kk * rank..(kk + 1) * rank]);
        }
        mul(
            mmut(&mut ws.s, n, m),
            mref(q, n, n).subcols(0, rank),
            mref(ye, rank, m),
        );
    }
    Ok(())
}
