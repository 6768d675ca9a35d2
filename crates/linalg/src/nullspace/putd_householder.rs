//! PUTD with Householder transformations, PUTD-H (Pękal–Frączek sec 3.2.3,
//! eqs 3.20–3.23; Amirouche, Ider–Amirouche).
//!
//! Redundant constraints are first located by Gauss–Jordan elimination with
//! partial pivoting (the paper's implementation) and moved to the end; the
//! transposed Jacobian of the `r` independent rows is then brought to upper
//! trapezoidal form by Householder reflections, `Hᵀ Φ_rᵀ = Z` (eq 3.20), and
//! `P = H D₂ᵀ` (eq 3.23) is the last `n − r` columns of `H`. `S = Φ_r⁺ = Q₁R₁⁻ᵀ`
//! placed in the independent-row columns (`X = [Φ_r; Pᵀ]`, `X⁻¹ = [Φ_r⁺ P]`).

use faer::linalg::triangular_solve::solve_upper_triangular_in_place;
use nalgebra::DMatrix;

use super::coordinate_partitioning::{GaussJordanWork, gauss_jordan_into};
use super::workspace::{PAR, QrBufs, mmut, mref, qr_with_q};
use super::{NullSpace, NullSpaceMethod, NullSpaceParams, NullSpaceWorkspace};
use crate::LinalgError;

/// `P = H D₂ᵀ` (eq 3.23).
pub fn compute(phi_q: &DMatrix<f64>, params: &NullSpaceParams) -> Result<NullSpace, LinalgError> {
    super::workspace::compute_via(phi_q, params, compute_into)
}

/// [`compute`] into a workspace (allocation-free).
pub fn compute_into(
    phi_q: &DMatrix<f64>,
    params: &NullSpaceParams,
    ws: &mut NullSpaceWorkspace,
) -> Result<(), LinalgError> {
    if ws.begin(phi_q, NullSpaceMethod::PutdHouseholder, params)? {
        return Ok(());
    }
    let n = phi_q.ncols();
    let mut gj = std::mem::replace(&mut ws.gj, GaussJordanWork::new(0, 0));
    gauss_jordan_into(phi_q, params.rank_tol, &mut gj);
    let r = gj.independent_rows.len();
    let rows = &mut ws.idx[..r];
    rows.copy_from_slice(&gj.independent_rows);
    ws.gj = gj;
    rows.sort_unstable();
    let [phi_r_t, h, xt, ..] = &mut ws.w;
    // Φ_rᵀ, n × r: the independent constraints first, redundant ones dropped.
    for k in 0..r {
        for i in 0..n {
            phi_r_t[i + k * n] = phi_q[(rows[k], i)];
        }
    }
    qr_with_q(
        phi_r_t,
        n,
        r,
        false,
        h,
        QrBufs {
            basis: &mut ws.basis,
            qcoeff: &mut ws.qcoeff,
            fwd: &mut ws.fwd,
            bwd: &mut ws.bwd,
            mem: &mut ws.mem,
        },
    );
    let k = n - r;
    ws.rank = r;
    ws.p[..n * k].copy_from_slice(&h[n * r..n * n]);
    ws.has_s = params.compute_s;
    if params.compute_s {
        // Φ_r⁺ = Q₁ R₁⁻ᵀ  ⇔  (Φ_r⁺)ᵀ = R₁⁻¹ Q₁ᵀ   (R₁: upper r × r of the factored Φ_rᵀ)
        let r1 = mref(phi_r_t, n, r).subrows(0, r);
        let singular = (0..r).any(|i| r1[(i, i)] == 0.0);
        let mut x = mmut(xt, r, n);
        if singular {
            x.fill(0.0);
        } else {
            x.copy_from(mref(h, n, n).subcols(0, r).transpose());
            solve_upper_triangular_in_place(r1, x.as_mut(), PAR);
        }
        ws.s.fill(0.0);
        for (kk, &row) in rows.iter().enumerate() {
            for i in 0..n {
                ws.s[i + row * n] = x[(kk, i)];
            }
        }
    }
    Ok(())
}
