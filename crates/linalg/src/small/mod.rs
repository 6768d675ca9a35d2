//! Small dense kernels on column-major slices, in place and allocation-free: the
//! plain loops that the front-ends run on matrices of a few dozen rows (a DCA
//! sub-assembly's condensed matrix, an HDCA node's impulse system, an implicit
//! integrator's Newton matrix), where faer's blocked kernels do not pay off.
//!
//! Every kernel is sequential and its arithmetic is fixed, so results do not
//! depend on the thread count of the caller.
//!
//! | kernel | what |
//! |---|---|
//! | [`cholesky_in_place`], [`cholesky_solve`], [`cholesky_forward`] | `K = L Lᵀ` of a leading block (leading dimension `ld`), solves with L Lᵀ and with L |
//! | [`lu_factor`], [`lu_solve`] | `P A = L U` with partial pivoting, solves |
//! | [`jacobi_eigen`] | cyclic Jacobi eigen-decomposition `A = Q Λ Qᵀ` of a symmetric matrix |
//! | [`pinv_psd`] | equilibrated (pseudo-)inverse of a symmetric positive semi-definite matrix |
//! | [`dot`] | `Σ aᵢ bᵢ` |

mod cholesky;
mod eigen;
mod lu;
mod pinv;

pub use cholesky::{cholesky_forward, cholesky_in_place, cholesky_solve};
pub use eigen::jacobi_eigen;
pub use lu::{lu_factor, lu_solve};
pub use pinv::pinv_psd;

/// Σ aᵢbᵢ (in index order).
#[inline]
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
