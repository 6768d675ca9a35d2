//! Wang–Huston weighted pseudo-inverse (Pękal–Frączek sec 3.3.2, eqs 3.40–3.42).
//!
//! `S = M⁻¹Φ_qᵀ (Φ_q M⁻¹ Φ_qᵀ)⁺` is the weighted pseudo-inverse of eq 3.42, so
//! that `q̈ = S Γ + (I − S Φ_q) M⁻¹ Qᵉ`. The pseudo-inverse of the `m × m` matrix
//! `G = Φ_q M⁻¹ Φ_qᵀ` drops eigenvalues `≤ rank_tol · max eig` (redundant
//! systems). The orthogonal complement equivalent to the formulation is the range
//! of the `M`-orthogonal projector `I − S Φ_q`; `P` is an orthonormal basis of it
//! from QR with column pivoting. Requires an SPD mass matrix (the paper uses
//! Euler angles for this reason).

use faer::col::ColMut;
use faer::linalg::evd::self_adjoint_evd;
use nalgebra::DMatrix;

use super::workspace::{PAR, QrBufs, cholesky_solve, identity, mmut, mref, mul, qr_with_q};
use super::{NullSpace, NullSpaceMethod, NullSpaceParams, NullSpaceWorkspace, validate};
use crate::LinalgError;
use crate::dense::as_faer;
use crate::error::check_finite;

/// `S` of eq 3.42 and `P` spanning the range of `I − S Φ_q`.
pub fn compute(
    phi_q: &DMatrix<f64>,
    mass: &DMatrix<f64>,
    params: &NullSpaceParams,
) -> Result<NullSpace, LinalgError> {
    let (m, n) = phi_q.shape();
    let mut ws = NullSpaceWorkspace::new(m, n);
    compute_into(phi_q, mass, params, &mut ws)?;
    Ok(ws.to_null_space())
}

/// [`compute`] into a workspace (allocation-free). `S` is always formed (it
/// defines `P`); [`NullSpaceWorkspace::s`] returns it when `compute_s`.
pub fn compute_into(
    phi_q: &DMatrix<f64>,
    mass: &DMatrix<f64>,
    params: &NullSpaceParams,
    ws: &mut NullSpaceWorkspace,
) -> Result<(), LinalgError> {
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
    ws.start(phi_q, NullSpaceMethod::WangHuston, params)?;
    if m == 0 || n == 0 || phi_q.amax() == 0.0 {
        ws.set_trivial(params);
        return Ok(());
    }
    let f = as_faer(phi_q);
    let [chol, minv_phit, g, gs, u, u2s] = &mut ws.w;
    // M⁻¹ Φ_qᵀ (n × m)
    chol[..n * n].copy_from_slice(mass.as_slice());
    mmut(minv_phit, n, m).copy_from(f.transpose());
    if !cholesky_solve(chol, n, minv_phit, m, &mut ws.mem) {
        return Err(LinalgError::NotPositiveDefinite { index: 0 });
    }
    // G = Φ_q M⁻¹ Φ_qᵀ (m × m), symmetrized
    mul(mmut(g, m, m), f, mref(minv_phit, n, m));
    for j in 0..m {
        for i in 0..m {
            gs[i + j * m] = (g[i + j * m] + g[j + i * m]) * 0.5;
        }
    }
    let eig = &mut ws.eig[..m];
    self_adjoint_evd(
        mref(gs, m, m),
        ColMut::from_slice_mut(eig).as_diagonal_mut(),
        Some(mmut(u, m, m)),
        PAR,
        ws.mem.stack(),
        Default::default(),
    )
    .map_err(|_| LinalgError::Decomposition("eigendecomposition of Φ_q M⁻¹ Φ_qᵀ"))?;
    let eig = &ws.eig[..m];
    let lmax = eig.iter().fold(0.0_f64, |a, &l| a.max(l));
    let rank = eig.iter().filter(|&&l| l > params.rank_tol * lmax).count();
    // G⁺ = U₂ Λ₂⁻¹ U₂ᵀ
    let u2 = mref(u, m, m).subcols(m - rank, rank);
    for c in 0..rank {
        let l = eig[m - rank + c];
        for i in 0..m {
            u2s[i + c * m] = u2[(i, c)] / l;
        }
    }
    mul(mmut(g, m, m), mref(u2s, m, rank), u2.transpose());
    // S = M⁻¹Φ_qᵀ G⁺ (n × m)
    mul(mmut(&mut ws.s, n, m), mref(minv_phit, n, m), mref(g, m, m));
    // I − S Φ_q (n × n), then an orthonormal basis of its range by pivoted QR
    let proj = chol;
    identity(proj, n);
    faer::linalg::matmul::matmul(
        mmut(proj, n, n),
        faer::Accum::Add,
        mref(&ws.s, n, m),
        f,
        -1.0,
        PAR,
    );
    qr_with_q(
        proj,
        n,
        n,
        true,
        gs,
        QrBufs {
            basis: &mut ws.basis,
            qcoeff: &mut ws.qcoeff,
            fwd: &mut ws.fwd,
            bwd: &mut ws.bwd,
            mem: &mut ws.mem,
        },
    );
    ws.rank = rank;
    ws.p[..n * (n - rank)].copy_from_slice(&gs[..n * (n - rank)]);
    ws.has_s = params.compute_s;
    Ok(())
}
