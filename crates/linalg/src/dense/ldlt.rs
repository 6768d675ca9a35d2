//! Dense `LDLᵀ` without pivoting, for symmetric matrices whose leading minors are
//! non-singular (SPD, or quasi-definite such as a regularized KKT matrix).

use crate::scratch::Scratch;
use faer::linalg::cholesky::ldlt::factor::{
    LdltRegularization, cholesky_in_place, cholesky_in_place_scratch,
};
use faer::linalg::cholesky::ldlt::solve::{solve_in_place_scratch, solve_in_place_with_conj};
use faer::{Conj, Mat, MatMut, MatRef};

use crate::error::{check_finite, check_len};
use crate::{LinalgError, Par, SpdSolver};

/// Dense `A = L D Lᵀ` (unit lower `L`, diagonal `D`) with owned storage.
#[derive(Debug)]
pub struct DenseLdlt {
    n: usize,
    ld: Mat<f64>,
    mem: Scratch,
    factored: bool,
    par: Par,
}

impl DenseLdlt {
    /// A solver for `n × n` systems.
    pub fn new(n: usize) -> Self {
        let par = Par::Seq;
        let req = cholesky_in_place_scratch::<f64>(n, par.faer(), Default::default())
            .or(solve_in_place_scratch::<f64>(n, 1, par.faer()));
        Self {
            n,
            ld: Mat::zeros(n, n),
            mem: Scratch::new(req),
            factored: false,
            par,
        }
    }

    /// Factors `A` (only the lower triangle is read). A zero pivot is reported as
    /// [`LinalgError::Singular`].
    pub fn factor_mat(&mut self, a: MatRef<'_, f64>) -> Result<(), LinalgError> {
        self.factored = false;
        check_len("DenseLdlt::factor rows", self.n, a.nrows())?;
        check_len("DenseLdlt::factor cols", self.n, a.ncols())?;
        for j in 0..self.n {
            for i in j..self.n {
                let v = a[(i, j)];
                if !v.is_finite() {
                    return Err(LinalgError::NonFinite {
                        what: "DenseLdlt::factor",
                        index: i + j * self.n,
                        value: v,
                    });
                }
                self.ld[(i, j)] = v;
            }
        }
        let stack = self.mem.stack();
        let res = cholesky_in_place(
            self.ld.as_mut(),
            LdltRegularization::default(),
            self.par.faer(),
            stack,
            Default::default(),
        );
        if let Err(faer::linalg::cholesky::ldlt::factor::LdltError::ZeroPivot { index }) = res {
            return Err(LinalgError::Singular {
                index,
                pivot: 0.0,
                tol: 0.0,
            });
        }
        // faer reports exact zeros only; tiny or non-finite pivots are singular too.
        let scale = (0..self.n).fold(0.0_f64, |s, i| s.max(self.ld[(i, i)].abs()));
        let tol = scale * f64::EPSILON * self.n as f64;
        for i in 0..self.n {
            let d = self.ld[(i, i)];
            if !d.is_finite() || d.abs() <= tol {
                return Err(LinalgError::Singular {
                    index: i,
                    pivot: d,
                    tol,
                });
            }
        }
        self.factored = true;
        Ok(())
    }

    /// The diagonal `D`.
    pub fn d(&self) -> impl Iterator<Item = f64> + '_ {
        (0..self.n).map(|i| self.ld[(i, i)])
    }

    /// Solves `A X = B` in place.
    pub fn solve_mat_in_place(&mut self, rhs: MatMut<'_, f64>) -> Result<(), LinalgError> {
        if !self.factored {
            return Err(LinalgError::NotFactorized);
        }
        check_len("DenseLdlt::solve rhs", self.n, rhs.nrows())?;
        let stack = self.mem.stack();
        let ld = self.ld.as_ref();
        solve_in_place_with_conj(ld, ld.diagonal(), Conj::No, rhs, self.par.faer(), stack);
        Ok(())
    }
}

impl SpdSolver for DenseLdlt {
    fn dim(&self) -> usize {
        self.n
    }

    fn factor(&mut self, values: &[f64]) -> Result<(), LinalgError> {
        check_len("DenseLdlt::factor values", self.n * self.n, values.len())?;
        self.factor_mat(MatRef::from_column_major_slice(values, self.n, self.n))
    }

    fn solve_in_place(&mut self, rhs: &mut [f64]) -> Result<(), LinalgError> {
        check_len("DenseLdlt::solve rhs", self.n, rhs.len())?;
        check_finite("DenseLdlt::solve rhs", rhs)?;
        let n = self.n;
        self.solve_mat_in_place(MatMut::from_column_major_slice_mut(rhs, n, 1))
    }
}
