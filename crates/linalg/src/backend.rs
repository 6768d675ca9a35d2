//! Backend selection by enum: [`SpdBackend`] → [`AnySpdSolver`],
//! [`KktBackend`] → [`AnyKktSolver`], both implementing the solver traits.
//!
//! The value layout passed to `factor` follows the backend: column-major dense
//! arrays for the dense backends, pattern-order values for the sparse ones.

use crate::dense::{DenseCholesky, DenseKkt, DenseKktParams, DenseLdlt};
use crate::sparse::{
    SparseCholesky, SparseCholeskyParams, SparseKkt, SparseKktParams, SparsePattern,
};
use crate::{KktSolver, LinalgError, SpdSolver};

/// Which SPD solver to build.
#[derive(Debug, Clone)]
pub enum SpdBackend {
    /// Dense Cholesky of an `n × n` matrix.
    DenseCholesky,
    /// Dense `LDLᵀ` of an `n × n` matrix.
    DenseLdlt,
    /// Sparse Cholesky of the given symmetric-lower pattern.
    SparseCholesky(SparsePattern, SparseCholeskyParams),
}

/// An SPD solver chosen at run time.
#[derive(Debug)]
pub enum AnySpdSolver {
    /// Dense Cholesky.
    DenseCholesky(DenseCholesky),
    /// Dense `LDLᵀ`.
    DenseLdlt(DenseLdlt),
    /// Sparse Cholesky.
    SparseCholesky(Box<SparseCholesky>),
}

impl AnySpdSolver {
    /// Builds the solver for an `n × n` system (the sparse backend analyses its
    /// pattern here, once).
    pub fn new(backend: SpdBackend, n: usize) -> Result<Self, LinalgError> {
        Ok(match backend {
            SpdBackend::DenseCholesky => Self::DenseCholesky(DenseCholesky::new(n)),
            SpdBackend::DenseLdlt => Self::DenseLdlt(DenseLdlt::new(n)),
            SpdBackend::SparseCholesky(pattern, params) => {
                crate::error::check_len("sparse pattern dimension", n, pattern.nrows())?;
                Self::SparseCholesky(Box::new(SparseCholesky::new(pattern, params)?))
            }
        })
    }
}

impl SpdSolver for AnySpdSolver {
    fn dim(&self) -> usize {
        match self {
            Self::DenseCholesky(s) => s.dim(),
            Self::DenseLdlt(s) => s.dim(),
            Self::SparseCholesky(s) => s.as_ref().dim(),
        }
    }

    fn factor(&mut self, values: &[f64]) -> Result<(), LinalgError> {
        match self {
            Self::DenseCholesky(s) => SpdSolver::factor(s, values),
            Self::DenseLdlt(s) => SpdSolver::factor(s, values),
            Self::SparseCholesky(s) => SpdSolver::factor(s.as_mut(), values),
        }
    }

    fn solve_in_place(&mut self, rhs: &mut [f64]) -> Result<(), LinalgError> {
        match self {
            Self::DenseCholesky(s) => SpdSolver::solve_in_place(s, rhs),
            Self::DenseLdlt(s) => SpdSolver::solve_in_place(s, rhs),
            Self::SparseCholesky(s) => SpdSolver::solve_in_place(s.as_mut(), rhs),
        }
    }
}

/// Which KKT solver to build.
#[derive(Debug, Clone)]
pub enum KktBackend {
    /// Dense (full-pivot LU or pseudo-inverse).
    Dense(DenseKktParams),
    /// Sparse `LDLᵀ` with the patterns of `M` and `Φ_q` as (row, col) entries.
    Sparse {
        /// Entries of `M` (entries with `row < col` ignored).
        mass_entries: Vec<(usize, usize)>,
        /// Entries of `Φ_q`.
        jacobian_entries: Vec<(usize, usize)>,
        /// Parameters.
        params: SparseKktParams,
    },
}

/// A KKT solver chosen at run time.
#[derive(Debug)]
pub enum AnyKktSolver {
    /// Dense.
    Dense(Box<DenseKkt>),
    /// Sparse.
    Sparse(Box<SparseKkt>),
}

impl AnyKktSolver {
    /// Builds the solver for `n` coordinates and `m` constraints.
    pub fn new(backend: KktBackend, n: usize, m: usize) -> Result<Self, LinalgError> {
        Ok(match backend {
            KktBackend::Dense(params) => Self::Dense(Box::new(DenseKkt::new(n, m, params))),
            KktBackend::Sparse {
                mass_entries,
                jacobian_entries,
                params,
            } => Self::Sparse(Box::new(SparseKkt::new(
                n,
                m,
                &mass_entries,
                &jacobian_entries,
                params,
            )?)),
        })
    }
}

impl KktSolver for AnyKktSolver {
    fn dims(&self) -> (usize, usize) {
        match self {
            Self::Dense(s) => s.as_ref().dims(),
            Self::Sparse(s) => s.as_ref().dims(),
        }
    }

    fn factor(&mut self, mass: &[f64], jacobian: &[f64]) -> Result<(), LinalgError> {
        match self {
            Self::Dense(s) => KktSolver::factor(s.as_mut(), mass, jacobian),
            Self::Sparse(s) => KktSolver::factor(s.as_mut(), mass, jacobian),
        }
    }

    fn solve_in_place(&mut self, rhs: &mut [f64]) -> Result<(), LinalgError> {
        match self {
            Self::Dense(s) => KktSolver::solve_in_place(s.as_mut(), rhs),
            Self::Sparse(s) => KktSolver::solve_in_place(s.as_mut(), rhs),
        }
    }
}
