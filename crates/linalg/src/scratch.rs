//! Owned faer scratch memory (a `MemBuffer` with a `Debug` impl) and the small
//! sequential dense kernels the allocation-free paths share (this crate's
//! null-space routines and `mbs-complement`): column-major views of plain buffers,
//! products and a Cholesky solve, all with `Par::Seq` so that results do not depend
//! on the thread count.

use faer::dyn_stack::{MemBuffer, MemStack, StackReq};
use faer::linalg::cholesky::llt::factor::{
    LltRegularization, cholesky_in_place, cholesky_in_place_scratch,
};
use faer::linalg::cholesky::llt::solve::solve_in_place_with_conj;
use faer::linalg::matmul::matmul;
use faer::{Accum, Conj, MatMut, MatRef, Par};
use nalgebra::DMatrix;

/// The faer parallelism of the shared kernels.
pub const PAR: Par = Par::Seq;

/// Preallocated scratch for faer kernels, sized once when a solver is built.
pub struct Scratch(MemBuffer);

impl Scratch {
    /// Scratch of the given size.
    pub fn new(req: StackReq) -> Self {
        Self(MemBuffer::new(req))
    }

    /// Scratch for Cholesky factorizations (and solves) up to `n × n`.
    pub fn cholesky(n: usize) -> Self {
        Self::new(cholesky_in_place_scratch::<f64>(n, PAR, Default::default()))
    }

    /// The stack to hand to a faer kernel.
    pub fn stack(&mut self) -> &mut MemStack {
        MemStack::new(&mut self.0)
    }
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Scratch")
    }
}

/// Column-major `r × c` view of the front of `buf`.
pub fn mref(buf: &[f64], r: usize, c: usize) -> MatRef<'_, f64> {
    MatRef::from_column_major_slice(&buf[..r * c], r, c)
}

/// Mutable column-major `r × c` view of the front of `buf`.
pub fn mmut(buf: &mut [f64], r: usize, c: usize) -> MatMut<'_, f64> {
    MatMut::from_column_major_slice_mut(&mut buf[..r * c], r, c)
}

/// faer view of a nalgebra matrix.
pub fn fview(a: &DMatrix<f64>) -> MatRef<'_, f64> {
    MatRef::from_column_major_slice(a.as_slice(), a.nrows(), a.ncols())
}

/// `dst = a b` (sequential faer kernel).
pub fn mul(dst: MatMut<'_, f64>, a: MatRef<'_, f64>, b: MatRef<'_, f64>) {
    matmul(dst, Accum::Replace, a, b, 1.0, PAR);
}

/// Cholesky `G = L Lᵀ` of the `r × r` matrix in `g` (lower triangle read, `L`
/// written over it), then `X ← G⁻¹ X` for the `r × c` matrix in `x`; `false` if
/// `G` is not (numerically) positive definite. `mem` must hold
/// [`Scratch::cholesky`]`(r)` or more.
pub fn cholesky_solve(g: &mut [f64], r: usize, x: &mut [f64], c: usize, mem: &mut Scratch) -> bool {
    if cholesky_in_place(
        mmut(g, r, r),
        LltRegularization::default(),
        PAR,
        mem.stack(),
        Default::default(),
    )
    .is_err()
    {
        return false;
    }
    solve_in_place_with_conj(mref(g, r, r), Conj::No, mmut(x, r, c), PAR, mem.stack());
    true
}
