//! Small dense kernels on the leading block of a column-major [`DMatrix`], in place
//! and without allocation: Cholesky factorization K_EE = L Lᵀ and solves with it.
//! The condensed matrices of a sub-assembly are small (6 × number of handles), so
//! plain loops are the right tool.

use nalgebra::DMatrix;

/// Factors the leading n×n block of `k` (symmetric, lower triangle read) as L Lᵀ,
/// writing L into the lower triangle. Returns `false` if a pivot is not positive
/// (or not finite).
pub(crate) fn cholesky_in_place(k: &mut DMatrix<f64>, n: usize) -> bool {
    for j in 0..n {
        let mut d = k[(j, j)];
        for p in 0..j {
            d -= k[(j, p)] * k[(j, p)];
        }
        if !(d > 0.0 && d.is_finite()) {
            return false;
        }
        let d = d.sqrt();
        k[(j, j)] = d;
        for i in j + 1..n {
            let mut s = k[(i, j)];
            for p in 0..j {
                s -= k[(i, p)] * k[(j, p)];
            }
            k[(i, j)] = s / d;
        }
    }
    true
}

/// Solves (L Lᵀ) x = b in place with the factor of [`cholesky_in_place`] (leading n×n).
pub(crate) fn cholesky_solve(l: &DMatrix<f64>, n: usize, b: &mut [f64]) {
    // L y = b
    for i in 0..n {
        let mut s = b[i];
        for p in 0..i {
            s -= l[(i, p)] * b[p];
        }
        b[i] = s / l[(i, i)];
    }
    // Lᵀ x = y
    for i in (0..n).rev() {
        let mut s = b[i];
        for p in i + 1..n {
            s -= l[(p, i)] * b[p];
        }
        b[i] = s / l[(i, i)];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factor_and_solve() {
        let a = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 2.0]);
        let mut k = DMatrix::zeros(4, 4);
        k.view_mut((0, 0), (3, 3)).copy_from(&a);
        assert!(cholesky_in_place(&mut k, 3));
        let x = [1.0, -2.0, 0.5];
        let b = &a * nalgebra::DVector::from_column_slice(&x);
        let mut y = b.as_slice().to_vec();
        cholesky_solve(&k, 3, &mut y);
        for i in 0..3 {
            assert!((y[i] - x[i]).abs() < 1e-14);
        }
        let mut bad = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 1.0]);
        assert!(!cholesky_in_place(&mut bad, 2));
    }
}
