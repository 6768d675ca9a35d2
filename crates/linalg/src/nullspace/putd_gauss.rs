//! PUTD with Gauss elimination and Gram–Schmidt, PUTD-G (Pękal–Frączek
//! sec 3.2.3, eqs 3.20–3.23).
//!
//! Gauss elimination with partial pivoting applied to `[Φ_qᵀ | I_n]` builds the
//! (non-orthogonal) transformation with `Hᵀ Φ_qᵀ = Z` upper trapezoidal
//! (eq 3.20); constraint columns without an acceptable pivot (`≤ rank_tol ·
//! max|Φ_q|`) are redundant and skipped, which is the same as moving them to the
//! end. The rows of `Hᵀ` belonging to the `n − r` non-pivot coordinates satisfy
//! `Φ_q h = 0` (eqs 3.22–3.23); Gram–Schmidt orthonormalization turns them into
//! `P`. `S` is not formed by this method.

use nalgebra::DMatrix;

use super::coordinate_partitioning::row_axpy;
use super::workspace::identity;
use super::{NullSpace, NullSpaceMethod, NullSpaceParams, NullSpaceWorkspace, validate};
use crate::LinalgError;

/// `P` from Gauss elimination plus Gram–Schmidt.
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
    ws.start(phi_q, NullSpaceMethod::PutdGauss, params)?;
    let (m, n) = phi_q.shape();
    let scale = phi_q.amax();
    if m == 0 || n == 0 || scale == 0.0 {
        ws.set_trivial(params);
        ws.has_s = false;
        return Ok(());
    }
    let [z, ht, ..] = &mut ws.w;
    // z = Φ_qᵀ (n × m) and ht = Hᵀ (n × n), both stored row by row (the row
    // operations run on contiguous slices); row k of Φ_qᵀ is column k of Φ_q.
    z[..n * m].copy_from_slice(phi_q.as_slice());
    identity(ht, n);
    let used = &mut ws.used[..n];
    used.fill(false);
    for j in 0..m {
        let mut best = None;
        let mut best_abs = 0.0;
        for i in 0..n {
            if !used[i] && z[i * m + j].abs() > best_abs {
                best_abs = z[i * m + j].abs();
                best = Some(i);
            }
        }
        let c = match best {
            Some(c) if best_abs > params.rank_tol * scale => c,
            _ => continue, // redundant constraint
        };
        used[c] = true;
        let piv = z[c * m + j];
        for k in 0..n {
            if used[k] {
                continue;
            }
            let f = z[k * m + j] / piv;
            if f != 0.0 {
                row_axpy(z, m, k, c, f);
                row_axpy(ht, n, k, c, f);
                z[k * m + j] = 0.0;
            }
        }
    }
    let free = &mut ws.idx;
    let mut nf = 0;
    for i in 0..n {
        if !used[i] {
            free[nf] = i;
            nf += 1;
        }
    }
    ws.rank = n - nf;
    let p = &mut ws.p[..n * nf];
    for k in 0..nf {
        // column k of P = row free[k] of Hᵀ
        p[k * n..(k + 1) * n].copy_from_slice(&ht[free[k] * n..(free[k] + 1) * n]);
    }
    gram_schmidt(p, n, nf);
    ws.has_s = false;
    Ok(())
}

/// Orthonormalizes the `k` columns of the column-major `n × k` matrix `v` in
/// place by modified Gram–Schmidt, run twice ("twice is enough", Giraud et al.)
/// for orthogonality to round-off.
pub(crate) fn gram_schmidt(v: &mut [f64], n: usize, k: usize) {
    for _pass in 0..2 {
        for j in 0..k {
            for i in 0..j {
                let (head, tail) = v.split_at_mut(j * n);
                let ci = &head[i * n..(i + 1) * n];
                let cj = &mut tail[..n];
                let d: f64 = ci.iter().zip(cj.iter()).map(|(a, b)| a * b).sum();
                for (x, y) in cj.iter_mut().zip(ci) {
                    *x -= d * y;
                }
            }
            let cj = &mut v[j * n..(j + 1) * n];
            let nrm = cj.iter().map(|x| x * x).sum::<f64>().sqrt();
            if nrm > 0.0 {
                cj.iter_mut().for_each(|x| *x /= nrm);
            }
        }
    }
}
