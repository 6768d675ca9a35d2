//! SVD method (Pękal–Frączek sec 3.2.4, eqs 3.24–3.28; Mani–Haug–Atkinson).
//!
//! `Φ_qᵀ = W L Vᵀ` (eq 3.24); with `r` singular values `σ_i > rank_tol · σ_1`,
//! `W = [W_d W_i]` and `P = W_i` (eq 3.28). `S = Φ_q⁺ = W_d L_r⁻¹ V_rᵀ`.

use faer::col::ColMut;
use faer::linalg::svd::svd;
use nalgebra::DMatrix;

use super::workspace::{PAR, mmut, mref, mul, transpose_into};
use super::{NullSpace, NullSpaceMethod, NullSpaceParams, NullSpaceWorkspace};
use crate::LinalgError;

/// `P = W_i` (eq 3.28).
pub fn compute(phi_q: &DMatrix<f64>, params: &NullSpaceParams) -> Result<NullSpace, LinalgError> {
    super::workspace::compute_via(phi_q, params, compute_into)
}

/// [`compute`] into a workspace (allocation-free).
pub fn compute_into(
    phi_q: &DMatrix<f64>,
    params: &NullSpaceParams,
    ws: &mut NullSpaceWorkspace,
) -> Result<(), LinalgError> {
    if ws.begin(phi_q, NullSpaceMethod::Svd, params)? {
        return Ok(());
    }
    let (m, n) = phi_q.shape();
    let [t, w, v, wd, ..] = &mut ws.w;
    transpose_into(phi_q, t);
    let k = n.min(m);
    let sig = &mut ws.eig[..k];
    // faer's SVD of a tall matrix (rows/cols above its QR ratio threshold, e.g.
    // Φ_qᵀ of a pendulum, 7 × 2) takes the QR path: it writes U_R into the top-left
    // block and 1 on the diagonal of the bottom-right block, then applies Q, but
    // leaves the top-right block of the full U as it found it. In a reused workspace
    // that block holds the previous call's U, so W_i (= P) came out wrong, Φ_q P ≠ 0
    // (the step size of a complement run then collapsed). Start both singular-vector
    // buffers from zero (V is the one hit when Φ_qᵀ is wide and faer transposes).
    w[..n * n].fill(0.0);
    v[..m * m].fill(0.0);
    svd(
        mref(t, n, m),
        ColMut::from_slice_mut(sig).as_diagonal_mut(),
        Some(mmut(w, n, n)),
        Some(mmut(v, m, m)),
        PAR,
        ws.mem.stack(),
        Default::default(),
    )
    .map_err(|_| LinalgError::Decomposition("SVD of Φ_qᵀ"))?;
    let sig = &ws.eig[..k];
    let smax = sig.iter().fold(0.0_f64, |a, &s| a.max(s));
    let rank = sig.iter().filter(|&&s| s > params.rank_tol * smax).count();
    ws.rank = rank;
    ws.p[..n * (n - rank)].copy_from_slice(&w[n * rank..n * n]);
    ws.has_s = params.compute_s;
    if params.compute_s {
        // S = W_d L_r⁻¹ V_rᵀ
        for c in 0..rank {
            for i in 0..n {
                wd[i + c * n] = w[i + c * n] / sig[c];
            }
        }
        mul(
            mmut(&mut ws.s, n, m),
            mref(wd, n, rank),
            mref(v, m, m).subcols(0, rank).transpose(),
        );
    }
    Ok(())
}
