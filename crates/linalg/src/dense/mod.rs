//! Dense direct solvers on faer: Cholesky, LDLᵀ, partial-pivot LU and the KKT
//! solver. Each solver owns its factor storage and scratch, so once built a
//! `factor` + `solve_in_place` cycle allocates nothing.

mod cholesky;
mod kkt;
mod ldlt;
mod lu;
mod redundant;

pub use cholesky::{DenseCholesky, DenseCholeskyParams};
pub use kkt::{DenseKkt, DenseKktInfo, DenseKktParams, KktMode};
pub use ldlt::DenseLdlt;
pub use lu::{DenseLu, DenseLuParams};

use faer::{MatMut, MatRef};
use nalgebra::DMatrix;

/// Zero-copy faer view of a nalgebra matrix (both are column major).
pub fn as_faer(m: &DMatrix<f64>) -> MatRef<'_, f64> {
    MatRef::from_column_major_slice(m.as_slice(), m.nrows(), m.ncols())
}

/// Zero-copy mutable faer view of a nalgebra matrix.
pub fn as_faer_mut(m: &mut DMatrix<f64>) -> MatMut<'_, f64> {
    let (r, c) = m.shape();
    MatMut::from_column_major_slice_mut(m.as_mut_slice(), r, c)
}

/// Copies a faer matrix into a new nalgebra matrix.
pub fn to_nalgebra(m: MatRef<'_, f64>) -> DMatrix<f64> {
    DMatrix::from_fn(m.nrows(), m.ncols(), |i, j| m[(i, j)])
}
