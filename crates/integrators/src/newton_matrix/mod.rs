//! The Newton iteration matrices of the implicit adaptive integrators
//! ([`crate::Radau5`], [`crate::Bdf`]): the Jacobian `∂f/∂y` (analytic, or forward
//! differences with column colouring over a declared sparsity pattern) and the
//! factorizations of `a I − b J` and `(α + iβ) I − J`, dense or sparse.
//!
//! * [`pattern`](JacobianPattern): the compressed-column sparsity a system
//!   declares with [`OdeSystem::jacobian_sparsity`](crate::OdeSystem::jacobian_sparsity);
//! * `colouring`: Curtis–Powell–Reid greedy column colouring (one right-hand side
//!   per colour);
//! * [`jacobian`](Jacobian): evaluation and storage;
//! * `factor`: dense LU (`lu.rs`, and a complex LU as RADAU5's `decc`) or sparse
//!   LU (faer, symbolic analysis once per pattern, reused at every
//!   refactorization).
//!
//! Which factorization: [`LinearSolver::Auto`] (the default) factors sparse when
//! the system declares a pattern, `n ≥` [`SPARSE_MIN_DIM`] and the iteration
//! matrix has at most [`SPARSE_MAX_DENSITY`]` · n²` nonzeros; dense otherwise.

mod colouring;
mod complex_lu;
mod factor;
mod jacobian;
mod pattern;
mod sparse;

pub(crate) use factor::check_mass;
pub use factor::{ComplexMatrix, RealMatrix};
pub use jacobian::{Jacobian, SPARSE_MAX_DENSITY, SPARSE_MIN_DIM};
pub use pattern::JacobianPattern;

/// Dense or sparse factorization of the Newton iteration matrices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LinearSolver {
    /// Sparse when a pattern is declared and the system is large and sparse
    /// enough (module documentation), dense otherwise.
    #[default]
    Auto,
    /// Always dense LU with partial pivoting.
    Dense,
    /// Always sparse LU (faer); without a declared pattern the pattern is full.
    Sparse,
}

use crate::error::Error;
use crate::system::OdeSystem;

/// The Jacobian and the factors an integrator keeps, rebuilt when a system
/// declares another pattern than the one they were built for.
#[derive(Debug)]
pub(crate) struct Matrices {
    pub jac: Jacobian,
    pub real: RealMatrix,
    /// RADAU5's complex matrix (`None` for BDF).
    pub complex: Option<ComplexMatrix>,
    pattern: Option<JacobianPattern>,
    solver: LinearSolver,
}

impl Matrices {
    /// Dense matrices of dimension `n` (a declared pattern is taken at
    /// [`adapt`](Self::adapt)); `complex` for RADAU5.
    pub fn new(n: usize, solver: LinearSolver, complex: bool) -> Result<Self, Error> {
        let jac = Jacobian::new(n, None, solver)?;
        Ok(Self {
            real: RealMatrix::new(&jac)?,
            complex: if complex {
                Some(ComplexMatrix::new(&jac)?)
            } else {
                None
            },
            jac,
            pattern: None,
            solver,
        })
    }

    /// Take `sys`'s declared pattern (rebuilding storage and factors, which
    /// allocates, only when it differs from the last one) and forget whether the
    /// system has an analytic Jacobian.
    pub fn adapt<S: OdeSystem + ?Sized>(&mut self, sys: &S) -> Result<(), Error> {
        let pattern = sys.jacobian_sparsity();
        if pattern != self.pattern {
            let n = self.jac.dim();
            let jac = Jacobian::new(n, pattern.clone(), self.solver)?;
            self.real = RealMatrix::new(&jac)?;
            if self.complex.is_some() {
                self.complex = Some(ComplexMatrix::new(&jac)?);
            }
            self.jac = jac;
            self.pattern = pattern;
        }
        self.jac.reset();
        Ok(())
    }
}
