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

use super::{NullSpace, NullSpaceMethod, NullSpaceParams, gram_schmidt, trivial, validate};
use crate::LinalgError;

/// `P` from Gauss elimination plus Gram–Schmidt.
pub fn compute(phi_q: &DMatrix<f64>, params: &NullSpaceParams) -> Result<NullSpace, LinalgError> {
    validate(phi_q, params)?;
    let (m, n) = phi_q.shape();
    let scale = phi_q.amax();
    if m == 0 || n == 0 || scale == 0.0 {
        let mut t = trivial(n, m, NullSpaceMethod::PutdGauss, params);
        t.s = None;
        return Ok(t);
    }
    let mut z = phi_q.transpose(); // n × m, becomes Z
    let mut ht = DMatrix::<f64>::identity(n, n); // accumulates Hᵀ
    let mut used = vec![false; n];
    for j in 0..m {
        let mut best = None;
        let mut best_abs = 0.0;
        for i in 0..n {
            if !used[i] && z[(i, j)].abs() > best_abs {
                best_abs = z[(i, j)].abs();
                best = Some(i);
            }
        }
        let c = match best {
            Some(c) if best_abs > params.rank_tol * scale => c,
            _ => continue, // redundant constraint
        };
        used[c] = true;
        let piv = z[(c, j)];
        let zrow = z.row(c).clone_owned();
        let hrow = ht.row(c).clone_owned();
        for k in 0..n {
            if used[k] {
                continue;
            }
            let f = z[(k, j)] / piv;
            if f != 0.0 {
                z.row_mut(k).zip_apply(&zrow, |x, y| *x -= f * y);
                ht.row_mut(k).zip_apply(&hrow, |x, y| *x -= f * y);
                z[(k, j)] = 0.0;
            }
        }
    }
    let free: Vec<usize> = (0..n).filter(|&i| !used[i]).collect();
    let rank = n - free.len();
    let mut p = DMatrix::from_fn(n, free.len(), |i, k| ht[(free[k], i)]);
    gram_schmidt(&mut p);
    Ok(NullSpace {
        p,
        rank,
        s: None,
        orthonormal: true,
        rank_tol: params.rank_tol,
        method: NullSpaceMethod::PutdGauss,
    })
}
