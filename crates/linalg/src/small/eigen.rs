//! Cyclic Jacobi eigen-decomposition of a small symmetric matrix.

/// Sweeps of plane rotations bring the column-major symmetric `n × n` matrix `a` to
/// diagonal form, `A = Q Λ Qᵀ`: on return the diagonal of `a` holds Λ (the off-
/// diagonal entries are round-off) and `q` (`n × n`, column-major) the orthonormal
/// eigenvectors as columns. Stops when the off-diagonal norm falls to 1e-17 of the
/// Frobenius norm of `a`, or after 60 sweeps. The order of the rotations is fixed
/// (row-cyclic), so the result is deterministic.
pub fn jacobi_eigen(a: &mut [f64], n: usize, q: &mut [f64]) {
    q[..n * n].fill(0.0);
    for i in 0..n {
        q[i + i * n] = 1.0;
    }
    let norm: f64 = a[..n * n].iter().map(|x| x * x).sum::<f64>().sqrt();
    for _sweep in 0..60 {
        let mut off = 0.0;
        for j in 0..n {
            for i in 0..j {
                off += a[i + j * n] * a[i + j * n];
            }
        }
        if off.sqrt() <= 1e-17 * norm {
            break;
        }
        for p in 0..n {
            for r in p + 1..n {
                let apr = a[p + r * n];
                if apr.abs() <= 1e-300 {
                    continue;
                }
                let app = a[p + p * n];
                let arr = a[r + r * n];
                let theta = (arr - app) / (2.0 * apr);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for m in 0..n {
                    let amp = a[m + p * n];
                    let amr = a[m + r * n];
                    a[m + p * n] = c * amp - s * amr;
                    a[m + r * n] = s * amp + c * amr;
                }
                for m in 0..n {
                    let apm = a[p + m * n];
                    let arm = a[r + m * n];
                    a[p + m * n] = c * apm - s * arm;
                    a[r + m * n] = s * apm + c * arm;
                }
                for m in 0..n {
                    let qmp = q[m + p * n];
                    let qmr = q[m + r * n];
                    q[m + p * n] = c * qmp - s * qmr;
                    q[m + r * n] = s * qmp + c * qmr;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SplitMix64;
    use nalgebra::DMatrix;

    #[test]
    fn reconstructs_a_random_symmetric_matrix() {
        let n = 6;
        let mut rng = SplitMix64::new(11);
        let b = DMatrix::from_fn(n, n, |_, _| rng.uniform(-1.0, 1.0));
        let a0 = &b + b.transpose();
        let mut a = a0.clone();
        let mut q = DMatrix::zeros(n, n);
        jacobi_eigen(a.as_mut_slice(), n, q.as_mut_slice());
        let lam = DMatrix::from_diagonal(&a.diagonal());
        let qtq = q.transpose() * &q;
        assert!((qtq - DMatrix::identity(n, n)).amax() < 1e-13);
        assert!((&q * lam * q.transpose() - a0).amax() < 1e-13);
    }
}
