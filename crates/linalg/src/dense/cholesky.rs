//! Dense Cholesky `A = L Lᵀ` for SPD matrices such as `M + Φ_qᵀ α Φ_q`
//! (Bayo–Ledesma eq 10, the ALF leading matrix).

use crate::scratch::Scratch;
use faer::linalg::cholesky::llt::factor::{
    LltRegularization, cholesky_in_place, cholesky_in_place_scratch,
};
use faer::linalg::cholesky::llt::solve::{solve_in_place_scratch, solve_in_place_with_conj};
use faer::{Conj, Mat, MatMut, MatRef};

use crate::error::{check_finite, check_len};
use crate::{LinalgError, Par, SpdSolver};

/// Parameters of [`DenseCholesky`].
#[derive(Debug, Clone, Copy, Default)]
pub struct DenseCholeskyParams {
    /// Parallelism (the kernels are sequential; kept for a uniform interface).
    pub par: Par,
}

/// Dense Cholesky factorization with owned storage: `factor` copies the lower
/// triangle of `A` into the factor buffer and factors it in place.
#[derive(Debug)]
pub struct DenseCholesky {
    n: usize,
    l: Mat<f64>,
    mem: Scratch,
    factored: bool,
    params: DenseCholeskyParams,
}

impl DenseCholesky {
    /// A solver for `n × n` systems with default parameters.
    pub fn new(n: usize) -> Self {
        Self::with_params(n, DenseCholeskyParams::default())
    }

    /// A solver for `n × n` systems.
    pub fn with_params(n: usize, params: DenseCholeskyParams) -> Self {
        let par = params.par.faer();
        let req = cholesky_in_place_scratch::<f64>(n, par, Default::default())
            .or(solve_in_place_scratch::<f64>(n, 1, par));
        Self {
            n,
            l: Mat::zeros(n, n),
            mem: Scratch::new(req),
            factored: false,
            params,
        }
    }

    /// Factors `A` (only the lower triangle is read).
    pub fn factor_mat(&mut self, a: MatRef<'_, f64>) -> Result<(), LinalgError> {
        self.factored = false;
        check_len("DenseCholesky::factor rows", self.n, a.nrows())?;
        check_len("DenseCholesky::factor cols", self.n, a.ncols())?;
        for j in 0..self.n {
            for i in j..self.n {
                let v = a[(i, j)];
                if !v.is_finite() {
                    return Err(LinalgError::NonFinite {
                        what: "DenseCholesky::factor",
                        index: i + j * self.n,
                        value: v,
                    });
                }
                self.l[(i, j)] = v;
            }
        }
        let par = self.params.par.faer();
        let stack = self.mem.stack();
        cholesky_in_place(
            self.l.as_mut(),
            LltRegularization::default(),
            par,
            stack,
            Default::default(),
        )
        .map_err(|e| match e {
            faer::linalg::cholesky::llt::factor::LltError::NonPositivePivot { index } => {
                LinalgError::NotPositiveDefinite { index }
            }
        })?;
        self.factored = true;
        Ok(())
    }

    /// Solves `A X = B` in place for a block of right-hand sides.
    pub fn solve_mat_in_place(&mut self, rhs: MatMut<'_, f64>) -> Result<(), LinalgError> {
        if !self.factored {
            return Err(LinalgError::NotFactorized);
        }
        check_len("DenseCholesky::solve rhs", self.n, rhs.nrows())?;
        let par = self.params.par.faer();
        let stack = self.mem.stack();
        solve_in_place_with_conj(self.l.as_ref(), Conj::No, rhs, par, stack);
        Ok(())
    }

    /// The Cholesky factor `L` (lower triangle; the strict upper part is garbage).
    pub fn factor_l(&self) -> MatRef<'_, f64> {
        self.l.as_ref()
    }
}

impl SpdSolver for DenseCholesky {
    fn dim(&self) -> usize {
        self.n
    }

    fn factor(&mut self, values: &[f64]) -> Result<(), LinalgError> {
        check_len(
            "DenseCholesky::factor values",
            self.n * self.n,
            values.len(),
        )?;
        let a = MatRef::from_column_major_slice(values, self.n, self.n);
        self.factor_mat(a)
    }

    fn solve_in_place(&mut self, rhs: &mut [f64]) -> Result<(), LinalgError> {
        check_len("DenseCholesky::solve rhs", self.n, rhs.len())?;
        check_finite("DenseCholesky::solve rhs", rhs)?;
        let n = self.n;
        self.solve_mat_in_place(MatMut::from_column_major_slice_mut(rhs, n, 1))
    }
}
