//! SVD method (Pękal–Frączek sec 3.2.4, eqs 3.24–3.28; Mani–Haug–Atkinson).
//!
//! `Φ_qᵀ = W L Vᵀ` (eq 3.24); with `r` singular values `σ_i > rank_tol · σ_1`,
//! `W = [W_d W_i]` and `P = W_i` (eq 3.28). `S = Φ_q⁺ = W_d L_r⁻¹ V_rᵀ`.

use nalgebra::DMatrix;

use super::{NullSpace, NullSpaceMethod, NullSpaceParams, trivial, validate};
use crate::LinalgError;
use crate::dense::{as_faer, to_nalgebra};

/// `P = W_i` (eq 3.28).
pub fn compute(phi_q: &DMatrix<f64>, params: &NullSpaceParams) -> Result<NullSpace, LinalgError> {
    validate(phi_q, params)?;
    let (m, n) = phi_q.shape();
    if m == 0 || n == 0 || phi_q.amax() == 0.0 {
        return Ok(trivial(n, m, NullSpaceMethod::Svd, params));
    }
    let t = as_faer(phi_q).transpose().to_owned();
    let svd = t
        .svd()
        .map_err(|_| LinalgError::Decomposition("SVD of Φ_qᵀ"))?;
    let k = n.min(m);
    let sig: Vec<f64> = (0..k).map(|i| svd.S()[i]).collect();
    let smax = sig.iter().fold(0.0_f64, |a, &s| a.max(s));
    let rank = sig.iter().filter(|&&s| s > params.rank_tol * smax).count();
    let w = to_nalgebra(svd.U());
    let p = w.columns(rank, n - rank).clone_owned();
    let s = params.compute_s.then(|| {
        let v = to_nalgebra(svd.V());
        let mut wd = w.columns(0, rank).clone_owned();
        for (i, mut col) in wd.column_iter_mut().enumerate() {
            col /= sig[i];
        }
        wd * v.columns(0, rank).transpose()
    });
    Ok(NullSpace {
        p,
        rank,
        s,
        orthonormal: true,
        rank_tol: params.rank_tol,
        method: NullSpaceMethod::Svd,
    })
}
