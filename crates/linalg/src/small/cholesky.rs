//! Cholesky factorization `K = L Lᵀ` of the leading `n × n` block of a column-major
//! matrix with leading dimension `ld`, and solves with it.

/// Factors the leading n×n block of the column-major matrix `k` (leading dimension
/// `ld`; symmetric, lower triangle read) as L Lᵀ, writing L into the lower triangle
/// (left-looking, column by column, so that the inner loops run over contiguous
/// memory; the strict upper triangle is left as it was). Entry by entry this is
/// `l_ij = (k_ij − Σ_{p<j} l_jp l_ip) / l_jj`, the sum taken in order of p.
/// Fails with the column `j` whose pivot `l_jj²` is not above `min_pivot` (use 0
/// for a plain positive-definiteness test) or not finite; the block is then partly
/// overwritten.
pub fn cholesky_in_place(k: &mut [f64], ld: usize, n: usize, min_pivot: f64) -> Result<(), usize> {
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
        if !(d > min_pivot && d.is_finite()) {
            return Err(j);
        }
        let d = d.sqrt();
        col[0] = d;
        for c in &mut col[1..] {
            *c /= d;
        }
    }
    Ok(())
}

/// Solves (L Lᵀ) x = b in place (the first `n` entries of `b`) with the factor of
/// [`cholesky_in_place`].
pub fn cholesky_solve(l: &[f64], ld: usize, n: usize, b: &mut [f64]) {
    cholesky_forward(l, ld, n, b);
    let b = &mut b[..n];
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

/// Solves L y = b in place (the first `n` entries of `b`; forward substitution,
/// column-oriented) with the factor of [`cholesky_in_place`].
pub fn cholesky_forward(l: &[f64], ld: usize, n: usize, b: &mut [f64]) {
    let b = &mut b[..n];
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DMatrix;

    #[test]
    fn factor_and_solve_a_leading_block() {
        let a = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 2.0]);
        let mut k = DMatrix::zeros(4, 4);
        k.view_mut((0, 0), (3, 3)).copy_from(&a);
        assert_eq!(cholesky_in_place(k.as_mut_slice(), 4, 3, 0.0), Ok(()));
        let x = [1.0, -2.0, 0.5];
        let b = &a * nalgebra::DVector::from_column_slice(&x);
        let mut y = b.as_slice().to_vec();
        cholesky_solve(k.as_slice(), 4, 3, &mut y);
        for i in 0..3 {
            assert!((y[i] - x[i]).abs() < 1e-14);
        }
    }

    #[test]
    fn refuses_indefinite_small_and_non_finite_pivots() {
        let mut bad = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 1.0]);
        assert_eq!(cholesky_in_place(bad.as_mut_slice(), 2, 2, 0.0), Err(1));
        // pivots 1 and 1e-6: accepted above 1e-7, refused above 1e-5
        let g = [1.0, 0.0, 0.0, 1e-6];
        assert_eq!(cholesky_in_place(&mut g.clone(), 2, 2, 1e-7), Ok(()));
        assert_eq!(cholesky_in_place(&mut g.clone(), 2, 2, 1e-5), Err(1));
        let mut nan = [f64::NAN, 0.0, 0.0, 1.0];
        assert_eq!(cholesky_in_place(&mut nan, 2, 2, 0.0), Err(0));
    }
}
