//! Dense LU with partial (row) pivoting, `P A = L U`, for general square systems.

use crate::scratch::Scratch;
use faer::linalg::lu::partial_pivoting::factor::{lu_in_place, lu_in_place_scratch};
use faer::linalg::lu::partial_pivoting::solve::{solve_in_place_scratch, solve_in_place_with_conj};
use faer::perm::PermRef;
use faer::{Conj, Mat, MatMut, MatRef};

use crate::LinalgError;
use crate::error::{check_finite, check_len};

/// Parameters of [`DenseLu`].
#[derive(Debug, Clone, Copy)]
pub struct DenseLuParams {
    /// A pivot `|u_ii| ≤ singular_tol · max|A|` is reported as singular.
    pub singular_tol: f64,
}

impl Default for DenseLuParams {
    fn default() -> Self {
        Self {
            singular_tol: 1e-14,
        }
    }
}

/// Dense partial-pivot LU with owned storage.
#[derive(Debug)]
pub struct DenseLu {
    n: usize,
    lu: Mat<f64>,
    perm: Vec<usize>,
    perm_inv: Vec<usize>,
    mem: Scratch,
    factored: bool,
    params: DenseLuParams,
}

impl DenseLu {
    /// A solver for `n × n` systems.
    pub fn new(n: usize) -> Self {
        Self::with_params(n, DenseLuParams::default())
    }

    /// A solver for `n × n` systems with explicit parameters.
    pub fn with_params(n: usize, params: DenseLuParams) -> Self {
        let par = faer::Par::Seq;
        let req = lu_in_place_scratch::<usize, f64>(n, n, par, Default::default())
            .or(solve_in_place_scratch::<usize, f64>(n, 1, par));
        Self {
            n,
            lu: Mat::zeros(n, n),
            perm: vec![0; n],
            perm_inv: vec![0; n],
            mem: Scratch::new(req),
            factored: false,
            params,
        }
    }

    /// Factors `A`.
    pub fn factor_mat(&mut self, a: MatRef<'_, f64>) -> Result<(), LinalgError> {
        self.factored = false;
        check_len("DenseLu::factor rows", self.n, a.nrows())?;
        check_len("DenseLu::factor cols", self.n, a.ncols())?;
        let mut scale = 0.0_f64;
        for j in 0..self.n {
            for i in 0..self.n {
                let v = a[(i, j)];
                if !v.is_finite() {
                    return Err(LinalgError::NonFinite {
                        what: "DenseLu::factor",
                        index: i + j * self.n,
                        value: v,
                    });
                }
                scale = scale.max(v.abs());
                self.lu[(i, j)] = v;
            }
        }
        let stack = self.mem.stack();
        lu_in_place(
            self.lu.as_mut(),
            &mut self.perm,
            &mut self.perm_inv,
            faer::Par::Seq,
            stack,
            Default::default(),
        );
        let tol = self.params.singular_tol * scale;
        for i in 0..self.n {
            let u = self.lu[(i, i)];
            if !u.is_finite() || u.abs() <= tol {
                return Err(LinalgError::Singular {
                    index: i,
                    pivot: u,
                    tol,
                });
            }
        }
        self.factored = true;
        Ok(())
    }

    /// Factors a column-major `n × n` array.
    pub fn factor(&mut self, values: &[f64]) -> Result<(), LinalgError> {
        check_len("DenseLu::factor values", self.n * self.n, values.len())?;
        self.factor_mat(MatRef::from_column_major_slice(values, self.n, self.n))
    }

    /// Solves `A X = B` in place.
    pub fn solve_mat_in_place(&mut self, rhs: MatMut<'_, f64>) -> Result<(), LinalgError> {
        if !self.factored {
            return Err(LinalgError::NotFactorized);
        }
        check_len("DenseLu::solve rhs", self.n, rhs.nrows())?;
        let stack = self.mem.stack();
        let perm = PermRef::new_checked(&self.perm, &self.perm_inv, self.n);
        let lu = self.lu.as_ref();
        solve_in_place_with_conj(lu, lu, perm, Conj::No, rhs, faer::Par::Seq, stack);
        Ok(())
    }

    /// Solves `A x = rhs` in place.
    pub fn solve_in_place(&mut self, rhs: &mut [f64]) -> Result<(), LinalgError> {
        check_len("DenseLu::solve rhs", self.n, rhs.len())?;
        check_finite("DenseLu::solve rhs", rhs)?;
        let n = self.n;
        self.solve_mat_in_place(MatMut::from_column_major_slice_mut(rhs, n, 1))
    }
}
