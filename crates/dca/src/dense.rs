//! Small dense kernels on column-major storage (leading dimension `ld`), in place and
//! without allocation: Cholesky factorization of a leading block K_EE = L Lᵀ and
//! solves with it. Column-oriented, so that the inner loops run over contiguous
//! memory. The condensed matrices of a sub-assembly are small (6 × number of pool
//! bodies), so plain loops are the right tool.

/// Factors the leading n×n block of the column-major matrix `k` (leading dimension
/// `ld`; symmetric, lower triangle read) as L Lᵀ, writing L into the lower triangle
/// (left-looking, column by column). Returns `false` if a pivot is not positive (or
/// not finite).
pub(crate) fn cholesky_in_place(k: &mut [f64], ld: usize, n: usize) -> bool {
    for j in 0..n {
        let (done, rest) = k.split_at_mut(j * ld);
        let col = &mut rest[j..n];
        // col ← col − Σ_{p<j} L[j,p] L[j..n, p]
        for p in 0..j {
            let lp = &done[p * ld + j..p * ld + n];
            let f = lp[0];
            if f != 0.0 {
                for (c, l) in col.iter_mut().zip(lp) {
                    *c -= f * l;
                }
            }
        }
        let d = col[0];
        if !(d > 0.0 && d.is_finite()) {
            return false;
        }
        let d = d.sqrt();
        col[0] = d;
        let inv = 1.0 / d;
        for c in &mut col[1..] {
            *c *= inv;
        }
    }
    true
}

/// Solves (L Lᵀ) x = b in place with the factor of [`cholesky_in_place`].
pub(crate) fn cholesky_solve(l: &[f64], ld: usize, n: usize, b: &mut [f64]) {
    let b = &mut b[..n];
    // L y = b (column-oriented)
    for j in 0..n {
        let col = &l[j * ld + j..j * ld + n];
        let y = b[j] / col[0];
        b[j] = y;
        if y != 0.0 {
            for (bi, li) in b[j + 1..].iter_mut().zip(&col[1..]) {
                *bi -= y * li;
            }
        }
    }
    // Lᵀ x = y (dot products with the columns of L)
    for i in (0..n).rev() {
        let col = &l[i * ld + i..i * ld + n];
        let mut s = b[i];
        for (li, bi) in col[1..].iter().zip(&b[i + 1..]) {
            s -= li * bi;
        }
        b[i] = s / col[0];
    }
}

/// Σ aᵢbᵢ.
#[inline]
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DMatrix;

    #[test]
    fn factor_and_solve() {
        let a = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 2.0]);
        let mut k = DMatrix::zeros(4, 4);
        k.view_mut((0, 0), (3, 3)).copy_from(&a);
        assert!(cholesky_in_place(k.as_mut_slice(), 4, 3));
        let x = [1.0, -2.0, 0.5];
        let b = &a * nalgebra::DVector::from_column_slice(&x);
        let mut y = b.as_slice().to_vec();
        cholesky_solve(k.as_slice(), 4, 3, &mut y);
        for i in 0..3 {
            assert!((y[i] - x[i]).abs() < 1e-14);
        }
        let mut bad = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 1.0]);
        assert!(!cholesky_in_place(bad.as_mut_slice(), 2, 2));
    }
}
