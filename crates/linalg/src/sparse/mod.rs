//! Sparse direct solvers on faer: a fixed [`SparsePattern`] analysed once
//! (fill-reducing ordering + symbolic Cholesky), then only the numeric
//! factorization is repeated with new values, reusing every buffer.
//!
//! - [`SparseCholesky`]: `L Lᵀ` of an SPD matrix such as `M + Φ_qᵀ α Φ_q`
//!   (Bayo–Ledesma eq 10).
//! - [`SparseKkt`]: `L D Lᵀ` of the KKT matrix `[[M, Φ_qᵀ], [Φ_q, 0]]`
//!   (Pękal–Frączek eq 2.5) with static + dynamic regularization and iterative
//!   refinement against the unregularized matrix.
//! - [`small_pivots`]: rank probe by sparse LU with partial pivoting.

mod cholesky;
mod ldlt;
mod lu;
mod pattern;

pub use cholesky::{SparseCholesky, SparseCholeskyParams, SparseOrdering};
pub use ldlt::{SparseKkt, SparseKktInfo, SparseKktParams};
pub use lu::{PivotProbe, small_pivots};
pub use pattern::SparsePattern;
