//! Dense KKT solver for the Lagrange-multiplier equations (Pękal–Frączek eq 2.5,
//! NOTATION.md "Lagrange multipliers"):
//!
//! ```text
//!   K = [ M    Φ_qᵀ ]     K [ q̈ ] = [ Q ]
//!       [ Φ_q  0    ]       [ λ  ]   [ γ ]
//! ```
//!
//! Two modes:
//! - [`KktMode::Strict`]: LU with full pivoting of `K`; a numerical rank below
//!   `n + m` (redundant constraints, or `M` singular on the null space of `Φ_q`) is
//!   reported as [`LinalgError::RankDeficient`] with the rank and the tolerance,
//!   never as NaN.
//! - [`KktMode::MinNorm`]: symmetric eigendecomposition `K = V Λ Vᵀ` and the
//!   pseudo-inverse solution `x = V Λ⁺ Vᵀ b` (eigenvalues `|Λ_i| ≤ tol·max|Λ|`
//!   dropped). For redundant but consistent constraints this gives the unique `q̈`
//!   and the minimum-norm `λ` (Pękal–Frączek sec 3.1, "pseudoinverse … least square
//!   norm").

use crate::scratch::Scratch;
use faer::linalg::evd::{ComputeEigenvectors, self_adjoint_evd, self_adjoint_evd_scratch};
use faer::linalg::lu::full_pivoting::factor::{lu_in_place, lu_in_place_scratch};
use faer::linalg::lu::full_pivoting::solve::{solve_in_place_scratch, solve_in_place_with_conj};
use faer::perm::PermRef;
use faer::{Conj, Mat, MatMut, MatRef};

use crate::error::{check_finite, check_len};
use crate::{KktSolver, LinalgError};

/// How [`DenseKkt`] treats a singular KKT matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KktMode {
    /// Full-pivot LU; rank deficiency is an error.
    #[default]
    Strict,
    /// Pseudo-inverse (least-squares, minimum-norm) solution.
    MinNorm,
}

/// Parameters of [`DenseKkt`].
#[derive(Debug, Clone, Copy)]
pub struct DenseKktParams {
    /// Strict or minimum-norm.
    pub mode: KktMode,
    /// Relative rank tolerance: a pivot `|u_ii| ≤ tol·|u_00|` (strict) or an
    /// eigenvalue `|Λ_i| ≤ tol·max|Λ|` (min-norm) counts as zero.
    pub rank_tol: f64,
}

impl Default for DenseKktParams {
    fn default() -> Self {
        Self {
            mode: KktMode::Strict,
            rank_tol: 1e-11,
        }
    }
}

/// What the last factorization found.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct DenseKktInfo {
    /// Numerical rank of `K`.
    pub rank: usize,
    /// Smallest kept pivot (or eigenvalue) magnitude divided by the largest.
    pub min_ratio: f64,
}

/// Dense KKT solver with owned storage (no allocation in `factor`/`solve`).
#[derive(Debug)]
pub struct DenseKkt {
    n: usize,
    m: usize,
    k: Mat<f64>,
    // strict mode
    row_perm: Vec<usize>,
    row_perm_inv: Vec<usize>,
    col_perm: Vec<usize>,
    col_perm_inv: Vec<usize>,
    // min-norm mode
    v: Mat<f64>,
    lambda: Vec<f64>,
    tmp: Vec<f64>,
    mem: Scratch,
    factored: bool,
    info: DenseKktInfo,
    params: DenseKktParams,
}

impl DenseKkt {
    /// A solver for `n` coordinates and `m` constraint rows.
    pub fn new(n: usize, m: usize, params: DenseKktParams) -> Self {
        let nn = n + m;
        let par = faer::Par::Seq;
        let req = match params.mode {
            KktMode::Strict => lu_in_place_scratch::<usize, f64>(nn, nn, par, Default::default())
                .or(solve_in_place_scratch::<usize, f64>(nn, 1, par)),
            KktMode::MinNorm => self_adjoint_evd_scratch::<f64>(
                nn,
                ComputeEigenvectors::Yes,
                par,
                Default::default(),
            ),
        };
        let vdim = if params.mode == KktMode::MinNorm {
            nn
        } else {
            0
        };
        Self {
            n,
            m,
            k: Mat::zeros(nn, nn),
            row_perm: vec![0; nn],
            row_perm_inv: vec![0; nn],
            col_perm: vec![0; nn],
            col_perm_inv: vec![0; nn],
            v: Mat::zeros(vdim, vdim),
            lambda: vec![0.0; vdim],
            tmp: vec![0.0; vdim],
            mem: Scratch::new(req),
            factored: false,
            info: DenseKktInfo::default(),
            params,
        }
    }

    /// Info of the last successful factorization.
    pub fn info(&self) -> DenseKktInfo {
        self.info
    }

    /// Factors `K` built from `M` (`n × n`, symmetric, both triangles read) and
    /// `Φ_q` (`m × n`).
    pub fn factor_mat(
        &mut self,
        mass: MatRef<'_, f64>,
        phi_q: MatRef<'_, f64>,
    ) -> Result<DenseKktInfo, LinalgError> {
        self.factored = false;
        let (n, m) = (self.n, self.m);
        check_len("DenseKkt mass rows", n, mass.nrows())?;
        check_len("DenseKkt mass cols", n, mass.ncols())?;
        check_len("DenseKkt jacobian rows", m, phi_q.nrows())?;
        check_len("DenseKkt jacobian cols", n, phi_q.ncols())?;
        for j in 0..n {
            for i in 0..n {
                let v = mass[(i, j)];
                if !v.is_finite() {
                    return Err(LinalgError::NonFinite {
                        what: "DenseKkt mass",
                        index: i + j * n,
                        value: v,
                    });
                }
                self.k[(i, j)] = v;
            }
            for i in 0..m {
                let v = phi_q[(i, j)];
                if !v.is_finite() {
                    return Err(LinalgError::NonFinite {
                        what: "DenseKkt jacobian",
                        index: i + j * m,
                        value: v,
                    });
                }
                self.k[(n + i, j)] = v;
                self.k[(j, n + i)] = v;
            }
        }
        for j in 0..m {
            for i in 0..m {
                self.k[(n + i, n + j)] = 0.0;
            }
        }
        let nn = n + m;
        let tol = self.params.rank_tol;
        let stack = self.mem.stack();
        match self.params.mode {
            KktMode::Strict => {
                lu_in_place(
                    self.k.as_mut(),
                    &mut self.row_perm,
                    &mut self.row_perm_inv,
                    &mut self.col_perm,
                    &mut self.col_perm_inv,
                    faer::Par::Seq,
                    stack,
                    Default::default(),
                );
                let first = if nn > 0 { self.k[(0, 0)].abs() } else { 0.0 };
                let mut rank = 0;
                let mut min_ratio = 1.0_f64;
                for i in 0..nn {
                    let u = self.k[(i, i)].abs();
                    if u.is_finite() && u > tol * first && first > 0.0 {
                        rank += 1;
                        min_ratio = min_ratio.min(u / first);
                    }
                }
                self.info = DenseKktInfo { rank, min_ratio };
                if rank < nn {
                    return Err(LinalgError::RankDeficient { rank, dim: nn, tol });
                }
            }
            KktMode::MinNorm => {
                let s = faer::ColMut::from_slice_mut(&mut self.lambda).as_diagonal_mut();
                self_adjoint_evd(
                    self.k.as_ref(),
                    s,
                    Some(self.v.as_mut()),
                    faer::Par::Seq,
                    stack,
                    Default::default(),
                )
                .map_err(|_| {
                    LinalgError::Decomposition("symmetric eigendecomposition of the KKT matrix")
                })?;
                let big = self.lambda.iter().fold(0.0_f64, |a, l| a.max(l.abs()));
                let mut rank = 0;
                let mut min_ratio = 1.0_f64;
                for l in &self.lambda {
                    if big > 0.0 && l.abs() > tol * big {
                        rank += 1;
                        min_ratio = min_ratio.min(l.abs() / big);
                    }
                }
                self.info = DenseKktInfo { rank, min_ratio };
            }
        }
        self.factored = true;
        Ok(self.info)
    }

    /// Solves in place: `rhs = [Q; γ]` becomes `[q̈; λ]`.
    pub fn solve(&mut self, rhs: &mut [f64]) -> Result<(), LinalgError> {
        if !self.factored {
            return Err(LinalgError::NotFactorized);
        }
        let nn = self.n + self.m;
        check_len("DenseKkt rhs", nn, rhs.len())?;
        check_finite("DenseKkt rhs", rhs)?;
        match self.params.mode {
            KktMode::Strict => {
                let stack = self.mem.stack();
                let rp = PermRef::new_checked(&self.row_perm, &self.row_perm_inv, nn);
                let cp = PermRef::new_checked(&self.col_perm, &self.col_perm_inv, nn);
                let k = self.k.as_ref();
                let rhs = MatMut::from_column_major_slice_mut(rhs, nn, 1);
                solve_in_place_with_conj(k, k, rp, cp, Conj::No, rhs, faer::Par::Seq, stack);
            }
            KktMode::MinNorm => {
                // x = V Λ⁺ Vᵀ b
                let big = self.lambda.iter().fold(0.0_f64, |a, l| a.max(l.abs()));
                let tol = self.params.rank_tol * big;
                for k in 0..nn {
                    let l = self.lambda[k];
                    self.tmp[k] = if big > 0.0 && l.abs() > tol {
                        let col = self.v.col(k);
                        let mut s = 0.0;
                        for i in 0..nn {
                            s += col[i] * rhs[i];
                        }
                        s / l
                    } else {
                        0.0
                    };
                }
                rhs.iter_mut().for_each(|x| *x = 0.0);
                for k in 0..nn {
                    let c = self.tmp[k];
                    if c != 0.0 {
                        let col = self.v.col(k);
                        for i in 0..nn {
                            rhs[i] += c * col[i];
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

impl KktSolver for DenseKkt {
    fn dims(&self) -> (usize, usize) {
        (self.n, self.m)
    }

    fn factor(&mut self, mass: &[f64], jacobian: &[f64]) -> Result<(), LinalgError> {
        check_len("DenseKkt mass values", self.n * self.n, mass.len())?;
        check_len("DenseKkt jacobian values", self.m * self.n, jacobian.len())?;
        let mref = MatRef::from_column_major_slice(mass, self.n, self.n);
        let jref = MatRef::from_column_major_slice(jacobian, self.m, self.n);
        self.factor_mat(mref, jref).map(|_| ())
    }

    fn solve_in_place(&mut self, rhs: &mut [f64]) -> Result<(), LinalgError> {
        self.solve(rhs)
    }
}
