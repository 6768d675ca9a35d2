//! Sparse Cholesky `P A Pᵀ = L Lᵀ` with the symbolic analysis done once per
//! pattern (Bayo–Ledesma eq 10: `M + Φ_qᵀ α Φ_q` keeps its sparsity for the whole
//! simulation, so only the numeric factorization is repeated).

use faer::linalg::cholesky::llt::factor::{LltError, LltRegularization};
use faer::sparse::SparseColMatRef;
use faer::sparse::linalg::cholesky::{
    CholeskySymbolicParams, LltRef, SymbolicCholesky, SymmetricOrdering,
    factorize_symbolic_cholesky,
};
use faer::{Conj, MatMut, Side};

use super::SparsePattern;
use crate::error::{check_finite, check_len};
use crate::scratch::Scratch;
use crate::{LinalgError, SpdSolver};

/// Fill-reducing ordering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SparseOrdering {
    /// Approximate minimum degree.
    #[default]
    Amd,
    /// The given order.
    Identity,
}

/// Parameters of [`SparseCholesky`].
#[derive(Debug, Clone, Copy, Default)]
pub struct SparseCholeskyParams {
    /// Fill-reducing ordering computed in the symbolic analysis.
    pub ordering: SparseOrdering,
}

/// Sparse Cholesky of a fixed symmetric-lower pattern.
#[derive(Debug)]
pub struct SparseCholesky {
    pattern: SparsePattern,
    symbolic: SymbolicCholesky<usize>,
    a_values: Vec<f64>,
    l_values: Vec<f64>,
    mem: Scratch,
    factored: bool,
    analyses: usize,
    factorizations: usize,
}

impl SparseCholesky {
    /// Runs the symbolic analysis of `pattern` (which must come from
    /// [`SparsePattern::symmetric_lower`]) and preallocates every buffer.
    pub fn new(pattern: SparsePattern, params: SparseCholeskyParams) -> Result<Self, LinalgError> {
        if !pattern.is_symmetric_lower() {
            return Err(LinalgError::InvalidArgument(
                "SparseCholesky needs a SparsePattern::symmetric_lower pattern",
            ));
        }
        let ord = match params.ordering {
            SparseOrdering::Amd => SymmetricOrdering::Amd,
            SparseOrdering::Identity => SymmetricOrdering::Identity,
        };
        let symbolic = factorize_symbolic_cholesky(
            pattern.symbolic(),
            Side::Lower,
            ord,
            CholeskySymbolicParams::default(),
        )
        .map_err(|_| LinalgError::Decomposition("symbolic sparse Cholesky"))?;
        let par = faer::Par::Seq;
        let req = symbolic
            .factorize_numeric_llt_scratch::<f64>(par, Default::default())
            .or(symbolic.solve_in_place_scratch::<f64>(1, par));
        Ok(Self {
            a_values: vec![0.0; pattern.nnz()],
            l_values: vec![0.0; symbolic.len_val()],
            pattern,
            symbolic,
            mem: Scratch::new(req),
            factored: false,
            analyses: 1,
            factorizations: 0,
        })
    }

    /// The pattern.
    pub fn pattern(&self) -> &SparsePattern {
        &self.pattern
    }

    /// The symbolic factorization (shared by every numeric factorization).
    pub fn symbolic(&self) -> &SymbolicCholesky<usize> {
        &self.symbolic
    }

    /// Number of symbolic analyses done (always 1: only `new` analyses).
    pub fn symbolic_analyses(&self) -> usize {
        self.analyses
    }

    /// Number of numeric factorizations done.
    pub fn numeric_factorizations(&self) -> usize {
        self.factorizations
    }

    /// Number of nonzeros of `L`.
    pub fn factor_nnz(&self) -> usize {
        self.l_values.len()
    }

    /// Numeric factorization for new values (pattern order); no allocation.
    pub fn factorize(&mut self, values: &[f64]) -> Result<(), LinalgError> {
        self.factored = false;
        self.pattern.scatter(values, &mut self.a_values)?;
        let a = SparseColMatRef::new(self.pattern.symbolic(), &self.a_values);
        let stack = self.mem.stack();
        self.symbolic
            .factorize_numeric_llt(
                &mut self.l_values,
                a,
                Side::Lower,
                LltRegularization::default(),
                faer::Par::Seq,
                stack,
                Default::default(),
            )
            .map_err(|e| match e {
                LltError::NonPositivePivot { index } => LinalgError::NotPositiveDefinite { index },
            })?;
        self.factorizations += 1;
        self.factored = true;
        Ok(())
    }

    /// Solves `A x = rhs` in place; no allocation.
    pub fn solve(&mut self, rhs: &mut [f64]) -> Result<(), LinalgError> {
        if !self.factored {
            return Err(LinalgError::NotFactorized);
        }
        let n = self.pattern.nrows();
        check_len("SparseCholesky rhs", n, rhs.len())?;
        check_finite("SparseCholesky rhs", rhs)?;
        let stack = self.mem.stack();
        LltRef::new(&self.symbolic, &self.l_values).solve_in_place_with_conj(
            Conj::No,
            MatMut::from_column_major_slice_mut(rhs, n, 1),
            faer::Par::Seq,
            stack,
        );
        Ok(())
    }
}

impl SpdSolver for SparseCholesky {
    fn dim(&self) -> usize {
        self.pattern.nrows()
    }

    fn factor(&mut self, values: &[f64]) -> Result<(), LinalgError> {
        self.factorize(values)
    }

    fn solve_in_place(&mut self, rhs: &mut [f64]) -> Result<(), LinalgError> {
        self.solve(rhs)
    }
}
