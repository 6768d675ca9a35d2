//! Sparse LU of an iteration matrix with faer: the symbolic analysis (COLAMD
//! column ordering, elimination tree, supernodal or simplicial structure) once
//! per pattern, the numeric factorization with partial pivoting at every
//! refactorization, real (`f64`) or complex (`c64`).
//!
//! faer keeps the numeric factors in vectors that grow to the size the first
//! factorizations need and are reused afterwards; a refactorization whose
//! pivoting creates more fill than any before may allocate (the dense path never
//! does).

use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::sparse::linalg::lu::{
    LuRef, LuSymbolicParams, NumericLu, SymbolicLu, factorize_symbolic_lu,
};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use faer::traits::ComplexField;
use faer::{Conj, MatMut, Par};

use super::pattern::JacobianPattern;
use crate::error::Error;

/// The sparse factors of one matrix over a fixed pattern.
pub(crate) struct SparseLu<T: ComplexField> {
    n: usize,
    col_ptr: Vec<usize>,
    row_idx: Vec<usize>,
    symbolic: SymbolicLu<usize>,
    numeric: NumericLu<usize, T>,
    /// Matrix values over the pattern (filled by the caller before `factor`).
    pub values: Vec<T>,
    /// Right-hand side and solution of `solve`.
    pub rhs: Vec<T>,
    mem: MemBuffer,
    factored: bool,
}

impl<T: ComplexField> std::fmt::Debug for SparseLu<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SparseLu")
            .field("n", &self.n)
            .field("nnz", &self.row_idx.len())
            .field("factored", &self.factored)
            .finish_non_exhaustive()
    }
}

impl<T: ComplexField + Copy> SparseLu<T> {
    /// Symbolic analysis of `pattern` (square, diagonal included).
    pub fn new(pattern: &JacobianPattern, zero: T) -> Result<Self, Error> {
        let n = pattern.dim();
        let col_ptr = pattern.col_ptr().to_vec();
        let row_idx = pattern.row_idx().to_vec();
        let sym = SymbolicSparseColMatRef::new_checked(n, n, &col_ptr, None, &row_idx);
        let symbolic = factorize_symbolic_lu(sym, LuSymbolicParams::default()).map_err(|e| {
            Error::InvalidInput(format!(
                "sparse LU analysis of the {n}×{n} pattern failed: {e:?}"
            ))
        })?;
        let req = StackReq::any_of(&[
            symbolic.factorize_numeric_lu_scratch::<T>(Par::Seq, Default::default()),
            symbolic.solve_in_place_scratch::<T>(1, Par::Seq),
        ]);
        Ok(Self {
            n,
            values: vec![zero; row_idx.len()],
            rhs: vec![zero; n],
            col_ptr,
            row_idx,
            symbolic,
            numeric: NumericLu::new(),
            mem: MemBuffer::new(req),
            factored: false,
        })
    }

    /// Factor the matrix in `values`; `false` if it is structurally or
    /// numerically singular.
    pub fn factor(&mut self) -> bool {
        let n = self.n;
        // SAFETY-free: the pattern was checked by `new_checked` in `new`
        let sym = SymbolicSparseColMatRef::new_checked(n, n, &self.col_ptr, None, &self.row_idx);
        let a = SparseColMatRef::new(sym, &self.values);
        let stack = MemStack::new(&mut self.mem);
        self.factored = self
            .symbolic
            .factorize_numeric_lu(&mut self.numeric, a, Par::Seq, stack, Default::default())
            .is_ok();
        self.factored
    }

    /// Solve in place on `rhs` with the last factors.
    pub fn solve(&mut self) {
        debug_assert!(self.factored);
        let lu = LuRef::new_unchecked(&self.symbolic, &self.numeric);
        let n = self.n;
        let rhs = MatMut::from_column_major_slice_mut(&mut self.rhs, n, 1);
        let stack = MemStack::new(&mut self.mem);
        lu.solve_in_place_with_conj(Conj::No, rhs, Par::Seq, stack);
    }
}
