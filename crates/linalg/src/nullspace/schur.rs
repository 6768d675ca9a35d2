//! Schur decomposition method (Pękal–Frączek sec 3.2.2, eqs 3.16–3.19).
//!
//! For the symmetric `A = Φ_qᵀΦ_q` the real Schur form `Uᵀ A U = T` is diagonal
//! (eq 3.18). It is computed here by the cyclic Jacobi method, i.e. by a sequence
//! of 2 × 2 symmetric Schur decompositions (Golub & Van Loan, Matrix
//! Computations, algorithms 8.5.1–8.5.3), independently of the tridiagonal QR
//! used by [`super::zero_eigen`]. `P = U¹`, the columns of the diagonal entries
//! `T_ii ≤ rank_tol · max T` (eq 3.19).

use nalgebra::DMatrix;

use super::workspace::{mmut, mul};
use super::zero_eigen::from_sorted_eigen;
use super::{NullSpace, NullSpaceMethod, NullSpaceParams, NullSpaceWorkspace, validate};
use crate::LinalgError;
use crate::dense::as_faer;

/// Maximum number of Jacobi sweeps.
const MAX_SWEEPS: usize = 60;

/// `P = U¹` from the symmetric Schur decomposition of `Φ_qᵀΦ_q`; `S = Φ_q⁺`.
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
    ws.start(phi_q, NullSpaceMethod::Schur, params)?;
    let (m, n) = phi_q.shape();
    if m == 0 || n == 0 {
        ws.set_trivial(params);
        return Ok(());
    }
    let f = as_faer(phi_q);
    let [a, u, _, u_sorted, ..] = &mut ws.w;
    mul(mmut(a, n, n), f.transpose(), f);
    let t = &mut ws.eig2[..n];
    symmetric_schur_in_place(&mut a[..n * n], &mut u[..n * n], t, n)?;
    // stable sort of the diagonal, ascending (insertion sort: no allocation)
    let order = &mut ws.idx[..n];
    for (i, o) in order.iter_mut().enumerate() {
        *o = i;
    }
    for i in 1..n {
        let mut j = i;
        while j > 0 && t[order[j - 1]].total_cmp(&t[order[j]]).is_gt() {
            order.swap(j - 1, j);
            j -= 1;
        }
    }
    for (k, &o) in order.iter().enumerate() {
        ws.eig[k] = t[o];
        u_sorted[k * n..(k + 1) * n].copy_from_slice(&u[o * n..(o + 1) * n]);
    }
    from_sorted_eigen(phi_q, params, ws);
    Ok(())
}

/// Symmetric Schur decomposition `Uᵀ A U = diag(t)` by cyclic Jacobi rotations, on column-major `n × n` slices: `a` is overwritten,
/// `u` receives `U`, `t` the diagonal (allocation-free).
pub fn symmetric_schur_in_place(
    a: &mut [f64],
    u: &mut [f64],
    t: &mut [f64],
    n: usize,
) -> Result<(), LinalgError> {
    let ix = |i: usize, j: usize| i + j * n;
    u.fill(0.0);
    for i in 0..n {
        u[ix(i, i)] = 1.0;
    }
    let fro = a.iter().map(|x| x * x).sum::<f64>().sqrt();
    if fro == 0.0 {
        t.fill(0.0);
        return Ok(());
    }
    for _sweep in 0..MAX_SWEEPS {
        let mut off = 0.0;
        for j in 0..n {
            for i in 0..n {
                if i != j {
                    off += a[ix(i, j)] * a[ix(i, j)];
                }
            }
        }
        if off.sqrt() <= 1e-15 * fro {
            for (i, ti) in t.iter_mut().enumerate() {
                *ti = a[ix(i, i)];
            }
            return Ok(());
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[ix(p, q)];
                if apq.abs() <= 1e-18 * fro {
                    continue;
                }
                // 2 × 2 symmetric Schur decomposition (GVL alg 8.5.1).
                let tau = (a[ix(q, q)] - a[ix(p, p)]) / (2.0 * apq);
                let t = tau.signum() / (tau.abs() + (1.0 + tau * tau).sqrt());
                let t = if tau == 0.0 { 1.0 } else { t };
                let c = 1.0 / (1.0 + t * t).sqrt();
                let s = t * c;
                // A ← A J, A ← Jᵀ A, U ← U J with J = [c s; −s c] at (p, q).
                for k in 0..n {
                    let (akp, akq) = (a[ix(k, p)], a[ix(k, q)]);
                    a[ix(k, p)] = c * akp - s * akq;
                    a[ix(k, q)] = s * akp + c * akq;
                }
                for k in 0..n {
                    let (apk, aqk) = (a[ix(p, k)], a[ix(q, k)]);
                    a[ix(p, k)] = c * apk - s * aqk;
                    a[ix(q, k)] = s * apk + c * aqk;
                }
                a[ix(p, q)] = 0.0;
                a[ix(q, p)] = 0.0;
                for k in 0..n {
                    let (ukp, ukq) = (u[ix(k, p)], u[ix(k, q)]);
                    u[ix(k, p)] = c * ukp - s * ukq;
                    u[ix(k, q)] = s * ukp + c * ukq;
                }
            }
        }
    }
    Err(LinalgError::Decomposition(
        "cyclic Jacobi (symmetric Schur) did not converge",
    ))
}
