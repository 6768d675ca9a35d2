//! Preallocated scratch of the orthogonal-complement front-end: everything a
//! right-hand-side evaluation of [`crate::Complement`] needs, sized once from the
//! model (`n` coordinates, `m` constraint rows), so that an evaluation allocates
//! nothing. Dense products and Cholesky factorizations run as faer's sequential
//! in-place kernels (`Par::Seq`: the result does not depend on the thread count).
//!
//! Exceptions (not on the normal path): the SVD fallback of
//! [`crate::basis::min_norm_solve_into`] when `A_r A_rᵀ` is too ill-conditioned for
//! Cholesky, and the messages of errors. Coordinate partitioning fills its
//! partition vectors at its first selection. The natural-partitioning front-end
//! ([`crate::NaturalPartitioning`]) keeps its own preallocated buffers (built
//! from the same kernels); with `par: Par::Rayon` its rayon scheduling may
//! allocate.

use mbs_linalg::nullspace::{GaussJordanWork, NullSpaceWorkspace, gauss_jordan_into};
pub(crate) use mbs_linalg::scratch::{Scratch, cholesky_solve, fview, mmut, mref, mul};
use nalgebra::{DMatrix, DVector};

/// Scratch of the minimum-norm solve ([`crate::basis::min_norm_solve_into`]) for systems of
/// up to `rows` equations in `n` unknowns.
#[derive(Debug)]
pub struct MinNormWork {
    pub(crate) a: DMatrix<f64>,
    pub(crate) gj: GaussJordanWork,
    pub(crate) ar: Vec<f64>,
    pub(crate) g: Vec<f64>,
    pub(crate) y: Vec<f64>,
    /// The solution (length `n`).
    pub x: DVector<f64>,
    pub(crate) mem: Scratch,
}

impl MinNormWork {
    /// Scratch for `rows × n` systems.
    pub fn new(rows: usize, n: usize) -> Self {
        Self {
            a: DMatrix::zeros(rows, n),
            gj: GaussJordanWork::new(rows, n),
            ar: vec![0.0; rows * n],
            g: vec![0.0; rows * rows],
            y: vec![0.0; rows],
            x: DVector::zeros(n),
            mem: Scratch::cholesky(rows),
        }
    }

    /// Gauss–Jordan on the first `rows` rows of `src` (copied into `self.a`).
    pub(crate) fn eliminate(&mut self, src: &DMatrix<f64>, tol: f64) {
        let rows = self.a.nrows();
        self.a.copy_from(&src.rows(0, rows));
        gauss_jordan_into(&self.a, tol, &mut self.gj);
    }
}

/// Everything one evaluation of [`crate::Complement`] needs (see the module docs).
#[derive(Debug)]
pub struct ComplementWorkspace {
    /// `P`, `S` and the rank of the selected null-space method.
    pub nullspace: NullSpaceWorkspace,
    /// Γ̄ (length m).
    pub(crate) gamma_bar: DVector<f64>,
    /// Φ̇ (length m).
    pub(crate) phi_dot: DVector<f64>,
    /// Wang–Huston: M̂ and Q̂ (normalization rows added).
    pub(crate) mass_aug: DMatrix<f64>,
    pub(crate) forces_aug: DVector<f64>,
    /// The acceleration solve.
    pub(crate) solve: SolveWork,
}

/// Scratch of [`crate::dynamics::accelerations_into`].
#[derive(Debug)]
pub struct SolveWork {
    /// S Γ̄ (length n).
    pub(crate) x_p: DVector<f64>,
    /// n-vectors.
    pub(crate) t_n: DVector<f64>,
    pub(crate) u_n: DVector<f64>,
    /// m-vector.
    pub(crate) t_m: DVector<f64>,
    /// n × n buffers (M P, PᵀMP or the M̂ factor).
    pub(crate) mp: Vec<f64>,
    pub(crate) mr: Vec<f64>,
    /// q̈ (length n).
    pub qdd: DVector<f64>,
    /// Minimum-norm particular solution (PUTD-G, which has no S).
    pub(crate) min_norm: MinNormWork,
    pub(crate) mem: Scratch,
}

impl SolveWork {
    /// Scratch for `n` coordinates and `m` constraint rows.
    pub fn new(n: usize, m: usize) -> Self {
        Self {
            x_p: DVector::zeros(n),
            t_n: DVector::zeros(n),
            u_n: DVector::zeros(n),
            t_m: DVector::zeros(m),
            mp: vec![0.0; n * n],
            mr: vec![0.0; n * n],
            qdd: DVector::zeros(n),
            min_norm: MinNormWork::new(m, n),
            mem: Scratch::cholesky(n),
        }
    }
}

impl ComplementWorkspace {
    /// Scratch for `n` coordinates and `m` constraint rows of which the null
    /// space and the solve see `r` (the independent rows, see
    /// `crate::redundancy`).
    pub fn new(n: usize, m: usize, r: usize) -> Self {
        Self {
            nullspace: NullSpaceWorkspace::new(r, n),
            gamma_bar: DVector::zeros(m),
            phi_dot: DVector::zeros(m),
            mass_aug: DMatrix::zeros(n, n),
            forces_aug: DVector::zeros(n),
            solve: SolveWork::new(n, r),
        }
    }
}
