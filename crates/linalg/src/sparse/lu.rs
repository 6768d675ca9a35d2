//! Rank probe of a sparse square matrix by LU with partial pivoting (faer's
//! simplicial left-looking LU, COLAMD column order): the rows whose pivots are
//! below a relative tolerance. Used to find dependent constraint rows of a KKT
//! matrix `[M Φ_qᵀ; Φ_q 0]` (Pękal–Frączek eq 2.5), which is singular exactly when
//! `Φ_q` has dependent rows (redundant constraints, singular configurations) given
//! `M` positive definite on the null space of `Φ_q`. Allocates; meant to run once
//! per model (or on an error path), not per evaluation.

use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::perm::PermRef;
use faer::sparse::SparseColMatRef;
use faer::sparse::linalg::LuError;
use faer::sparse::linalg::colamd;
use faer::sparse::linalg::lu::simplicial::{
    SimplicialLu, factorize_simplicial_numeric_lu, factorize_simplicial_numeric_lu_scratch,
};

use super::SparsePattern;
use crate::LinalgError;

/// The result of [`small_pivots`].
#[derive(Debug, Clone, PartialEq)]
pub struct PivotProbe {
    /// Original row index of every pivot with |u_jj| ≤ tol·max|A| (or not finite),
    /// in elimination order.
    pub small: Vec<usize>,
    /// max|A|, the scale of the tolerance.
    pub scale: f64,
}

/// LU with partial pivoting of the square matrix with `pattern` (general, see
/// [`SparsePattern::new`]) and pattern-order `values`; returns the rows of the small
/// pivots. A structurally singular column (no candidate row left) counts as one small
/// pivot of the row chosen last.
pub fn small_pivots(
    pattern: &SparsePattern,
    values: &[f64],
    rel_tol: f64,
) -> Result<PivotProbe, LinalgError> {
    let n = pattern.nrows();
    if pattern.ncols() != n || pattern.is_symmetric_lower() {
        return Err(LinalgError::InvalidArgument(
            "small_pivots needs a square general SparsePattern",
        ));
    }
    let mut csc = vec![0.0; pattern.nnz()];
    pattern.scatter(values, &mut csc)?;
    let scale = csc.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    let a = SparseColMatRef::new(pattern.symbolic(), &csc);
    let req = StackReq::any_of(&[
        colamd::order_scratch::<usize>(n, n, pattern.nnz()),
        factorize_simplicial_numeric_lu_scratch::<usize, f64>(n, n),
    ]);
    let mut mem = MemBuffer::new(req);
    let stack = MemStack::new(&mut mem);
    let (mut fwd, mut inv) = (vec![0usize; n], vec![0usize; n]);
    colamd::order(
        &mut fwd,
        &mut inv,
        pattern.symbolic(),
        colamd::Control::default(),
        stack,
    )
    .map_err(|_| LinalgError::Decomposition("COLAMD ordering of the rank probe"))?;
    let col_perm = PermRef::new_checked(&fwd, &inv, n);
    let mut lu = SimplicialLu::<usize, f64>::new();
    let (mut rp, mut rpi) = (vec![0usize; n], vec![0usize; n]);
    let tol = rel_tol * scale;
    match factorize_simplicial_numeric_lu(&mut rp, &mut rpi, &mut lu, a, col_perm, stack) {
        Ok(()) => {}
        Err(LuError::SymbolicSingular { index }) => {
            return Ok(PivotProbe {
                small: vec![index],
                scale,
            });
        }
        Err(_) => return Err(LinalgError::Decomposition("sparse LU of the rank probe")),
    }
    let u = lu.u_factor_unsorted();
    let small = (0..n)
        .filter(|&j| {
            // the pivot is stored last in its column of U
            let d = u.val_of_col(j).last().copied().unwrap_or(0.0);
            d.abs() <= tol || !d.is_finite()
        })
        .map(|j| rp[j])
        .collect();
    Ok(PivotProbe { small, scale })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dense_pattern(a: &[[f64; 3]; 3]) -> (SparsePattern, Vec<f64>) {
        let mut e = Vec::new();
        let mut v = Vec::new();
        for (r, row) in a.iter().enumerate() {
            for (c, &x) in row.iter().enumerate() {
                if x != 0.0 {
                    e.push((r, c));
                    v.push(x);
                }
            }
        }
        (SparsePattern::new(3, 3, &e).unwrap(), v)
    }

    #[test]
    fn a_regular_matrix_has_no_small_pivot() {
        let (p, v) = dense_pattern(&[[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]]);
        assert!(small_pivots(&p, &v, 1e-9).unwrap().small.is_empty());
    }

    #[test]
    fn a_dependent_row_gives_one_small_pivot() {
        // row 2 = row 0 + row 1
        let (p, v) = dense_pattern(&[[1.0, 2.0, 0.0], [0.0, 1.0, 3.0], [1.0, 3.0, 3.0]]);
        let probe = small_pivots(&p, &v, 1e-9).unwrap();
        assert_eq!(probe.small.len(), 1, "{probe:?}");
    }
}
