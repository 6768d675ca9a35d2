//! Zero-eigenvalue method (Pękal–Frączek sec 3.2.1, eqs 3.9–3.15; Walton–Steeves).
//!
//! `A = Φ_qᵀΦ_q = Ψ Λ Ψᵀ` with eigenvalues ascending (eq 3.11); the `s = n − r`
//! eigenvectors of the (numerically) zero eigenvalues give `P = Ψ¹` (eq 3.15).
//! Rank: `Λ_i > rank_tol · Λ_max`.

use faer::Side;
use nalgebra::DMatrix;

use super::{NullSpace, NullSpaceMethod, NullSpaceParams, pinv_from_gram_eigen, trivial, validate};
use crate::LinalgError;
use crate::dense::{as_faer, to_nalgebra};

/// `P = Ψ¹` from the eigendecomposition of `Φ_qᵀΦ_q` (eq 3.15); `S = Φ_q⁺`.
pub fn compute(phi_q: &DMatrix<f64>, params: &NullSpaceParams) -> Result<NullSpace, LinalgError> {
    validate(phi_q, params)?;
    let (m, n) = phi_q.shape();
    if m == 0 || n == 0 {
        return Ok(trivial(n, m, NullSpaceMethod::ZeroEigen, params));
    }
    let f = as_faer(phi_q);
    let a = f.transpose() * f;
    let evd = a
        .self_adjoint_eigen(Side::Lower)
        .map_err(|_| LinalgError::Decomposition("self-adjoint eigendecomposition of Φ_qᵀΦ_q"))?;
    let eig: Vec<f64> = (0..n).map(|i| evd.S()[i]).collect();
    let u = to_nalgebra(evd.U());
    Ok(from_sorted_eigen(
        phi_q,
        &u,
        &eig,
        NullSpaceMethod::ZeroEigen,
        params,
    ))
}

/// Shared by the zero-eigenvalue and Schur methods: `eig` ascending, `u` the
/// matching orthonormal vectors.
pub(crate) fn from_sorted_eigen(
    phi_q: &DMatrix<f64>,
    u: &DMatrix<f64>,
    eig: &[f64],
    method: NullSpaceMethod,
    params: &NullSpaceParams,
) -> NullSpace {
    let n = u.nrows();
    let m = phi_q.nrows();
    let lmax = eig.iter().fold(0.0_f64, |a, &l| a.max(l));
    if lmax <= 0.0 {
        return trivial(n, m, method, params);
    }
    let rank = eig.iter().filter(|&&l| l > params.rank_tol * lmax).count();
    let p = u.columns(0, n - rank).clone_owned();
    let s = params
        .compute_s
        .then(|| pinv_from_gram_eigen(phi_q, u, eig, rank));
    NullSpace {
        p,
        rank,
        s,
        orthonormal: true,
        rank_tol: params.rank_tol,
        method,
    }
}
