//! A small in-place dense LU factorization with partial pivoting on a
//! column-major matrix (no allocation; the sizes here are small).

/// Factor the column-major `n×n` matrix `a` in place (`P A = L U`), pivots
/// into `piv`. Returns `false` if a pivot is exactly zero or not finite.
pub(crate) fn factor(a: &mut [f64], n: usize, piv: &mut [usize]) -> bool {
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
        if !crate::common::positive(max) {
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

/// Solve `A x = b` in place with the factors from [`factor`].
pub(crate) fn solve(a: &[f64], n: usize, piv: &[usize], b: &mut [f64]) {
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

    #[test]
    fn solves_random_system() {
        let n = 5;
        let mut a = vec![0.0; n * n];
        let mut s = 1u64;
        for v in a.iter_mut() {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *v = ((s >> 11) as f64 / (1u64 << 53) as f64) - 0.5;
        }
        let x: Vec<f64> = (0..n).map(|i| i as f64 + 1.0).collect();
        let mut b = vec![0.0; n];
        for j in 0..n {
            for i in 0..n {
                b[i] += a[j * n + i] * x[j];
            }
        }
        let mut piv = vec![0; n];
        assert!(factor(&mut a, n, &mut piv));
        solve(&a, n, &piv, &mut b);
        for i in 0..n {
            assert!((b[i] - x[i]).abs() < 1e-12, "{b:?}");
        }
    }
}
