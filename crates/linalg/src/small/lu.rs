//! LU factorization with partial (row) pivoting, `P A = L U`, of a column-major
//! `n × n` matrix in place, and solves with it.

/// Factors the column-major `n×n` matrix `a` in place (`P A = L U`, unit lower L
/// below the diagonal, U on and above it); the row swapped into position k at step
/// k is `piv[k]`. Returns `false` if a pivot column is exactly zero or not finite
/// (the matrix is then partly overwritten).
pub fn lu_factor(a: &mut [f64], n: usize, piv: &mut [usize]) -> bool {
    for k in 0..n {
        // Pivot: largest |a_ik| for i ≥ k.
        let mut p = k;
        let mut max = a[k * n + k].abs();
        for i in k + 1..n {
            let v = a[k * n + i].abs();
            if v > max {
                max = v;
                p = i;
            }
        }
        piv[k] = p;
        if !(max > 0.0 && max.is_finite()) {
            return false;
        }
        if p != k {
            for j in 0..n {
                a.swap(j * n + k, j * n + p);
            }
        }
        let inv = 1.0 / a[k * n + k];
        for i in k + 1..n {
            a[k * n + i] *= inv;
        }
        for j in k + 1..n {
            let akj = a[j * n + k];
            if akj != 0.0 {
                for i in k + 1..n {
                    a[j * n + i] -= a[k * n + i] * akj;
                }
            }
        }
    }
    true
}

/// Solves `A x = b` in place with the factors and pivots of [`lu_factor`].
pub fn lu_solve(a: &[f64], n: usize, piv: &[usize], b: &mut [f64]) {
    for k in 0..n {
        b.swap(k, piv[k]);
    }
    // L y = P b (unit lower triangular), column oriented.
    for j in 0..n {
        let bj = b[j];
        if bj != 0.0 {
            for i in j + 1..n {
                b[i] -= a[j * n + i] * bj;
            }
        }
    }
    // U x = y.
    for j in (0..n).rev() {
        b[j] /= a[j * n + j];
        let bj = b[j];
        if bj != 0.0 {
            for i in 0..j {
                b[i] -= a[j * n + i] * bj;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SplitMix64;

    #[test]
    fn solves_a_random_system_and_refuses_a_singular_one() {
        let n = 5;
        let mut rng = SplitMix64::new(3);
        let mut a: Vec<f64> = (0..n * n).map(|_| rng.uniform(-0.5, 0.5)).collect();
        let x: Vec<f64> = (0..n).map(|i| i as f64 + 1.0).collect();
        let mut b = vec![0.0; n];
        for j in 0..n {
            for i in 0..n {
                b[i] += a[j * n + i] * x[j];
            }
        }
        let mut piv = vec![0; n];
        assert!(lu_factor(&mut a, n, &mut piv));
        lu_solve(&a, n, &piv, &mut b);
        for i in 0..n {
            assert!((b[i] - x[i]).abs() < 1e-12, "{b:?}");
        }
        // two equal columns
        let mut s = [1.0, 2.0, 1.0, 2.0];
        assert!(!lu_factor(&mut s, 2, &mut piv));
    }
}
