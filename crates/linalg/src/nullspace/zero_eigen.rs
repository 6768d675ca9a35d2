//! Zero-eigenvalue method (Pękal–Frączek sec 3.2.1, eqs 3.9–3.15; Walton–Steeves).
//!
//! `A = Φ_qᵀΦ_q = Ψ Λ Ψᵀ` with eigenvalues ascending (eq 3.11); the `s = n − r`
//! eigenvectors of the (numerically) zero eigenvalues give `P = Ψ¹` (eq 3.15).
//! Rank: `Λ_i > rank_tol · Λ_max`.

use faer::col::ColMut;
use faer::linalg::evd::self_adjoint_evd;
use nalgebra::DMatrix;

use super::workspace::{PAR, mmut, mref, mul};
use super::{NullSpace, NullSpaceMethod, NullSpaceParams, NullSpaceWorkspace, validate};
use crate::LinalgError;
use crate::dense::as_faer;

/// `P = Ψ¹` from the eigendecomposition of `Φ_qᵀΦ_q` (eq 3.15); `S = Φ_q⁺`.
pub fn compute(phi_q: &DMatrix<f64>, params: &NullSpaceParams) -> Result<NullSpace, LinalgError> {
    super::workspace::compute_via(phi_q, params, compute_into)
}

/// [`compute`] into a workspace (allocation-free).
pub fn compute_into(
    phi_q: &DMatrix<f64>,
    params: &NullSpaceParams,
    ws: &mut NullSpaceWorkspace,
) -> Result<(), LinalgError> {
    validate(phi_q, params)?;
    ws.start(phi_q, NullSpaceMethod::ZeroEigen, params)?;
    let (m, n) = phi_q.shape();
    if m == 0 || n == 0 {
        ws.set_trivial(params);
        return Ok(());
    }
    let f = as_faer(phi_q);
    let [a, _, _, u, ..] = &mut ws.w;
    mul(mmut(a, n, n), f.transpose(), f);
    self_adjoint_evd(
        mref(a, n, n),
        ColMut::from_slice_mut(&mut ws.eig[..n]).as_diagonal_mut(),
        Some(mmut(u, n, n)),
        PAR,
        ws.mem.stack(),
        Default::default(),
    )
    .map_err(|_| LinalgError::Decomposition("self-adjoint eigendecomposition of Φ_qᵀΦ_q"))?;
    from_sorted_eigen(phi_q, params, ws);
    Ok(())
}

/// Shared by the zero-eigenvalue and Schur methods: eigenvalues ascending in
/// `ws.eig[..n]`, the matching orthonormal vectors in `ws.w[3]` (`n × n`).
/// `S = Φ_q⁺ = U₂ Λ₂⁻¹ U₂ᵀ Φ_qᵀ` (the last `rank` columns kept).
pub(crate) fn from_sorted_eigen(
    phi_q: &DMatrix<f64>,
    params: &NullSpaceParams,
    ws: &mut NullSpaceWorkspace,
) {
    let (m, n) = phi_q.shape();
    let eig = &ws.eig[..n];
    let lmax = eig.iter().fold(0.0_f64, |a, &l| a.max(l));
    if lmax <= 0.0 {
        ws.set_trivial(params);
        return;
    }
    let rank = eig.iter().filter(|&&l| l > params.rank_tol * lmax).count();
    let k = n - rank;
    let [scaled, _, tmp, u, ..] = &mut ws.w;
    ws.rank = rank;
    ws.p[..n * k].copy_from_slice(&u[..n * k]);
    ws.has_s = params.compute_s;
    if params.compute_s {
        // U₂ Λ₂⁻¹ (n × rank), then (U₂ᵀ Φ_qᵀ) (rank × m)
        let u2 = &u[n * k..n * n];
        for c in 0..rank {
            let l = eig[k + c];
            for i in 0..n {
                scaled[i + c * n] = u2[i + c * n] / l;
            }
        }
        mul(
            mmut(tmp, rank, m),
            mref(u2, n, rank).transpose(),
            as_faer(phi_q).transpose(),
        );
        mul(
            mmut(&mut ws.s, n, m),
            mref(scaled, n, rank),
            mref(tmp, rank, m),
        );
    }
}
