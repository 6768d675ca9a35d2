//! Schur decomposition method (Pękal–Frączek sec 3.2.2, eqs 3.16–3.19).
//!
//! For the symmetric `A = Φ_qᵀΦ_q` the real Schur form `Uᵀ A U = T` is diagonal
//! (eq 3.18). It is computed here by the cyclic Jacobi method, i.e. by a sequence
//! of 2 × 2 symmetric Schur decompositions (Golub & Van Loan, Matrix
//! Computations, algorithms 8.5.1–8.5.3), independently of the tridiagonal QR
//! used by [`super::zero_eigen`]. `P = U¹`, the columns of the diagonal entries
//! `T_ii ≤ rank_tol · max T` (eq 3.19).

use nalgebra::DMatrix;

use super::zero_eigen::from_sorted_eigen;
use super::{NullSpace, NullSpaceMethod, NullSpaceParams, trivial, validate};
use crate::LinalgError;

/// Maximum number of Jacobi sweeps.
const MAX_SWEEPS: usize = 60;

/// `P = U¹` from the symmetric Schur decomposition of `Φ_qᵀΦ_q`; `S = Φ_q⁺`.
pub fn compute(phi_q: &DMatrix<f64>, params: &NullSpaceParams) -> Result<NullSpace, LinalgError> {
    validate(phi_q, params)?;
    let (m, n) = phi_q.shape();
    if m == 0 || n == 0 {
        return Ok(trivial(n, m, NullSpaceMethod::Schur, params));
    }
    let a = phi_q.transpose() * phi_q;
    let (t, u) = symmetric_schur(a)?;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| t[i].total_cmp(&t[j]));
    let eig: Vec<f64> = order.iter().map(|&i| t[i]).collect();
    let u_sorted = DMatrix::from_fn(n, n, |i, k| u[(i, order[k])]);
    Ok(from_sorted_eigen(
        phi_q,
        &u_sorted,
        &eig,
        NullSpaceMethod::Schur,
        params,
    ))
}

/// Symmetric Schur decomposition `Uᵀ A U = diag(t)` by cyclic Jacobi rotations.
pub fn symmetric_schur(mut a: DMatrix<f64>) -> Result<(Vec<f64>, DMatrix<f64>), LinalgError> {
    let n = a.nrows();
    let mut u = DMatrix::<f64>::identity(n, n);
    let fro = a.norm();
    if fro == 0.0 {
        return Ok((vec![0.0; n], u));
    }
    for _sweep in 0..MAX_SWEEPS {
        let mut off = 0.0;
        for j in 0..n {
            for i in 0..n {
                if i != j {
                    off += a[(i, j)] * a[(i, j)];
                }
            }
        }
        if off.sqrt() <= 1e-15 * fro {
            let t = (0..n).map(|i| a[(i, i)]).collect();
            return Ok((t, u));
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[(p, q)];
                if apq.abs() <= 1e-18 * fro {
                    continue;
                }
                // 2 × 2 symmetric Schur decomposition (GVL alg 8.5.1).
                let tau = (a[(q, q)] - a[(p, p)]) / (2.0 * apq);
                let t = tau.signum() / (tau.abs() + (1.0 + tau * tau).sqrt());
                let t = if tau == 0.0 { 1.0 } else { t };
                let c = 1.0 / (1.0 + t * t).sqrt();
                let s = t * c;
                // A ← A J, A ← Jᵀ A, U ← U J with J = [c s; −s c] at (p, q).
                for k in 0..n {
                    let (akp, akq) = (a[(k, p)], a[(k, q)]);
                    a[(k, p)] = c * akp - s * akq;
                    a[(k, q)] = s * akp + c * akq;
                }
                for k in 0..n {
                    let (apk, aqk) = (a[(p, k)], a[(q, k)]);
                    a[(p, k)] = c * apk - s * aqk;
                    a[(q, k)] = s * apk + c * aqk;
                }
                a[(p, q)] = 0.0;
                a[(q, p)] = 0.0;
                for k in 0..n {
                    let (ukp, ukq) = (u[(k, p)], u[(k, q)]);
                    u[(k, p)] = c * ukp - s * ukq;
                    u[(k, q)] = s * ukp + c * ukq;
                }
            }
        }
    }
    Err(LinalgError::Decomposition(
        "cyclic Jacobi (symmetric Schur) did not converge",
    ))
}
