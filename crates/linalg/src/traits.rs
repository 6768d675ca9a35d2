//! The two solver traits front-ends select backends through.

use crate::LinalgError;

/// A solver for symmetric positive definite systems `A x = b`, e.g. the
/// augmented-Lagrangian leading matrix `M + Φ_qᵀ α Φ_q` (Bayo–Ledesma eq 10).
///
/// `factor` takes the numeric values only: for the dense backend the `n × n`
/// matrix in column-major order (only the lower triangle is read); for the sparse
/// backend the values in the order of the [`crate::sparse::SparsePattern`] entries.
/// `solve_in_place` overwrites `rhs` with the solution and never allocates.
pub trait SpdSolver {
    /// Dimension `n`.
    fn dim(&self) -> usize;
    /// Numeric factorization `A = L Lᵀ`.
    fn factor(&mut self, values: &[f64]) -> Result<(), LinalgError>;
    /// Solves `A x = rhs` in place.
    fn solve_in_place(&mut self, rhs: &mut [f64]) -> Result<(), LinalgError>;
}

/// A solver for the saddle-point (KKT) system of the Lagrange-multiplier equations
/// (Pękal–Frączek eq 2.5):
///
/// ```text
///   [ M    Φ_qᵀ ] [ q̈ ]   [ Q ]
///   [ Φ_q  0    ] [ λ  ] = [ γ ]
/// ```
///
/// `factor(mass, jacobian)` takes the numeric values of `M` (`n × n`) and `Φ_q`
/// (`m × n`): column-major dense arrays for the dense backend, pattern-order values
/// for the sparse backend. `solve_in_place` takes `[Q; γ]` (length `n + m`) and
/// overwrites it with `[q̈; λ]`.
pub trait KktSolver {
    /// `(n, m)`: number of coordinates and of constraint rows.
    fn dims(&self) -> (usize, usize);
    /// Numeric factorization of the KKT matrix.
    fn factor(&mut self, mass: &[f64], jacobian: &[f64]) -> Result<(), LinalgError>;
    /// Solves the KKT system in place.
    fn solve_in_place(&mut self, rhs: &mut [f64]) -> Result<(), LinalgError>;
}
