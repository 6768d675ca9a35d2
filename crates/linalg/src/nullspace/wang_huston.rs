//! Wang–Huston weighted pseudo-inverse (Pękal–Frączek sec 3.3.2, eqs 3.40–3.42).
//!
//! `S = M⁻¹Φ_qᵀ (Φ_q M⁻¹ Φ_qᵀ)⁺` is the weighted pseudo-inverse of eq 3.42, so
//! that `q̈ = S Γ + (I − S Φ_q) M⁻¹ Qᵉ`. The pseudo-inverse of the `m × m` matrix
//! `G = Φ_q M⁻¹ Φ_qᵀ` drops eigenvalues `≤ rank_tol · max eig` (redundant
//! systems). The orthogonal complement equivalent to the formulation is the range
//! of the `M`-orthogonal projector `I − S Φ_q`; `P` is an orthonormal basis of it
//! from QR with column pivoting. Requires an SPD mass matrix (the paper uses
//! Euler angles for this reason).

use faer::Side;
use nalgebra::DMatrix;

use super::{NullSpace, NullSpaceMethod, NullSpaceParams, trivial, validate};
use crate::LinalgError;
use crate::dense::{as_faer, to_nalgebra};
use crate::error::check_finite;

/// `S` of eq 3.42 and `P` spanning the range of `I − S Φ_q`.
pub fn compute(
    phi_q: &DMatrix<f64>,
    mass: &DMatrix<f64>,
    params: &NullSpaceParams,
) -> Result<NullSpace, LinalgError> {
    validate(phi_q, params)?;
    check_finite("wang-huston mass", mass.as_slice())?;
    let (m, n) = phi_q.shape();
    if mass.shape() != (n, n) {
        return Err(LinalgError::DimensionMismatch {
            what: "wang-huston mass",
            expected: n,
            got: mass.nrows(),
        });
    }
    if m == 0 || n == 0 || phi_q.amax() == 0.0 {
        return Ok(trivial(n, m, NullSpaceMethod::WangHuston, params));
    }
    let chol = mass
        .clone()
        .cholesky()
        .ok_or(LinalgError::NotPositiveDefinite { index: 0 })?;
    let minv_phit = chol.solve(&phi_q.transpose()); // n × m
    let mut g = phi_q * &minv_phit; // m × m
    g = (&g + g.transpose()) * 0.5;
    let evd = as_faer(&g)
        .self_adjoint_eigen(Side::Lower)
        .map_err(|_| LinalgError::Decomposition("eigendecomposition of Φ_q M⁻¹ Φ_qᵀ"))?;
    let eig: Vec<f64> = (0..m).map(|i| evd.S()[i]).collect();
    let u = to_nalgebra(evd.U());
    let lmax = eig.iter().fold(0.0_f64, |a, &l| a.max(l));
    let rank = eig.iter().filter(|&&l| l > params.rank_tol * lmax).count();
    // G⁺ = U₂ Λ₂⁻¹ U₂ᵀ
    let u2 = u.columns(m - rank, rank);
    let mut u2s = u2.clone_owned();
    for (k, mut col) in u2s.column_iter_mut().enumerate() {
        col /= eig[m - rank + k];
    }
    let gplus = u2s * u2.transpose();
    let s = minv_phit * gplus; // n × m
    let proj = DMatrix::<f64>::identity(n, n) - &s * phi_q;
    let qr = as_faer(&proj).col_piv_qr();
    let q = to_nalgebra(qr.compute_Q().as_ref());
    let p = q.columns(0, n - rank).clone_owned();
    Ok(NullSpace {
        p,
        rank,
        s: params.compute_s.then_some(s),
        orthonormal: true,
        rank_tol: params.rank_tol,
        method: NullSpaceMethod::WangHuston,
    })
}
