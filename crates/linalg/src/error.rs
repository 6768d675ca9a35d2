//! The crate-wide error type. Every failure is reported as a value carrying the
//! offending number; nothing in this crate panics on bad numeric input.

/// Errors of every solver and null-space method of `mbs-linalg`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LinalgError {
    /// An input has the wrong size.
    #[error("dimension mismatch in {what}: expected {expected}, got {got}")]
    DimensionMismatch {
        /// Which argument.
        what: &'static str,
        /// Expected length or dimension.
        expected: usize,
        /// Length or dimension received.
        got: usize,
    },
    /// An input contains NaN or ±∞.
    #[error("non-finite value {value} in {what} at index {index}")]
    NonFinite {
        /// Which argument.
        what: &'static str,
        /// Position (column-major for matrices, pattern order for sparse values).
        index: usize,
        /// The offending value.
        value: f64,
    },
    /// A Cholesky factorization met a non-positive pivot: the matrix is not SPD.
    #[error("matrix is not positive definite: pivot {index} is not positive")]
    NotPositiveDefinite {
        /// Pivot index (in the factorization order).
        index: usize,
    },
    /// A factorization met a pivot that is zero or below the tolerance.
    #[error("matrix is singular: pivot {pivot:e} at index {index} (tolerance {tol:e})")]
    Singular {
        /// Pivot index.
        index: usize,
        /// The pivot value.
        pivot: f64,
        /// Tolerance it was compared with.
        tol: f64,
    },
    /// The numerical rank is below the dimension.
    #[error("rank deficient: numerical rank {rank} of {dim} (relative tolerance {tol:e})")]
    RankDeficient {
        /// Numerical rank found.
        rank: usize,
        /// Full dimension.
        dim: usize,
        /// Relative tolerance used to count the rank.
        tol: f64,
    },
    /// `solve` was called before a successful `factor`.
    #[error("solver has no valid factorization")]
    NotFactorized,
    /// An iterative method did not reach its tolerance.
    #[error(
        "no convergence after {iterations} iterations: relative residual {residual:e} > {tol:e}"
    )]
    NotConverged {
        /// Iterations done.
        iterations: usize,
        /// Final relative residual.
        residual: f64,
        /// Requested tolerance.
        tol: f64,
    },
    /// A sparsity-pattern entry lies outside the matrix.
    #[error("pattern entry ({row}, {col}) outside a {nrows}×{ncols} matrix")]
    InvalidPattern {
        /// Row index.
        row: usize,
        /// Column index.
        col: usize,
        /// Number of rows.
        nrows: usize,
        /// Number of columns.
        ncols: usize,
    },
    /// A method needs a mass matrix that was not supplied (Wang–Huston).
    #[error("method {0} needs a mass matrix")]
    MissingMass(&'static str),
    /// An argument is out of range or of the wrong kind.
    #[error("invalid argument: {0}")]
    InvalidArgument(&'static str),
    /// A dense decomposition of the backend failed to converge.
    #[error("decomposition failed: {0}")]
    Decomposition(&'static str),
}

/// Checks that every value is finite.
pub(crate) fn check_finite(what: &'static str, values: &[f64]) -> Result<(), LinalgError> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(LinalgError::NonFinite {
            what,
            index,
            value: values[index],
        }),
        None => Ok(()),
    }
}

/// Checks a length.
pub(crate) fn check_len(
    what: &'static str,
    expected: usize,
    got: usize,
) -> Result<(), LinalgError> {
    if expected == got {
        Ok(())
    } else {
        Err(LinalgError::DimensionMismatch {
            what,
            expected,
            got,
        })
    }
}
