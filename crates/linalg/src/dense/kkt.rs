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
//! - [`KktMode::MinNorm`]: the pseudo-inverse solution `x = K⁺ b`. For redundant but
//!   consistent constraints this gives the unique `q̈` and the minimum-norm `λ`
//!   (Pękal–Frączek sec 3.1, "pseudoinverse … least square norm"). Computed by a
//!   partial-pivot LU of the KKT matrix of the independent rows (of `K` itself while
//!   no row is dependent), with `γ` projected on
//!   the range of `Φ_q` and `λ` expanded to the minimum norm (see the `redundant`
//!   module for the algebra); where that LU is rank deficient or its pivot ratio is
//!   below 1e-9 (near a singular configuration), by the symmetric eigendecomposition
//!   of [`KktMode::MinNormEigen`].
//! - [`KktMode::MinNormEigen`]: always the eigendecomposition `K = V Λ Vᵀ`,
//!   `x = V Λ⁺ Vᵀ b` (eigenvalues `|Λ_i| ≤ tol·max|Λ|` dropped): the reference, about
//!   ten times the cost of the LU.

use crate::scratch::Scratch;
use faer::linalg::evd::{ComputeEigenvectors, self_adjoint_evd, self_adjoint_evd_scratch};
use faer::linalg::lu::full_pivoting::factor::{lu_in_place, lu_in_place_scratch};
use faer::linalg::lu::full_pivoting::solve::{solve_in_place_scratch, solve_in_place_with_conj};
use faer::linalg::lu::partial_pivoting::factor as partial;
use faer::linalg::lu::partial_pivoting::solve as partial_solve;
use faer::perm::PermRef;
use faer::{Conj, Mat, MatMut, MatRef};

use super::redundant::RowSplit;
use crate::error::{check_finite, check_len};
use crate::{KktSolver, LinalgError};

/// How [`DenseKkt`] treats a singular KKT matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KktMode {
    /// Full-pivot LU; rank deficiency is an error.
    #[default]
    Strict,
    /// Pseudo-inverse (least-squares, minimum-norm) solution, by LU of the
    /// independent rows where well conditioned, else by eigendecomposition.
    MinNorm,
    /// Pseudo-inverse solution, always by eigendecomposition.
    MinNormEigen,
}

/// Smallest pivot ratio of the reduced LU that [`KktMode::MinNorm`] accepts; below
/// it the eigendecomposition decides the rank (its tolerance, 1e-11, is lower).
const WELL_CONDITIONED: f64 = 1e-9;

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
    /// Whether the minimum-norm solve used the eigendecomposition (always in
    /// [`KktMode::MinNormEigen`]; in [`KktMode::MinNorm`] only where the LU of the
    /// independent rows was rank deficient or ill conditioned).
    pub eigen: bool,
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
    // min-norm mode: the independent rows' KKT matrix, its row split and rhs
    kr: Mat<f64>,
    split: RowSplit,
    rr: Vec<f64>,
    // eigendecomposition
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
            KktMode::MinNorm | KktMode::MinNormEigen => self_adjoint_evd_scratch::<f64>(
                nn,
                ComputeEigenvectors::Yes,
                par,
                Default::default(),
            )
            .or(partial::lu_in_place_scratch::<usize, f64>(
                nn,
                nn,
                par,
                Default::default(),
            ))
            .or(partial_solve::solve_in_place_scratch::<usize, f64>(
                nn, 1, par,
            )),
        };
        let (vdim, rdim) = match params.mode {
            KktMode::Strict => (0, 0),
            KktMode::MinNorm => (nn, nn),
            KktMode::MinNormEigen => (nn, 0),
        };
        Self {
            n,
            m,
            k: Mat::zeros(nn, nn),
            row_perm: vec![0; nn],
            row_perm_inv: vec![0; nn],
            col_perm: vec![0; nn],
            col_perm_inv: vec![0; nn],
            kr: Mat::zeros(rdim, rdim),
            split: RowSplit::new(if rdim > 0 { n } else { 0 }, if rdim > 0 { m } else { 0 }),
            rr: vec![0.0; rdim],
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
        match self.params.mode {
            KktMode::Strict => {
                let stack = self.mem.stack();
                let (rank, min_ratio) = lu_rank(
                    self.k.as_mut(),
                    &mut self.row_perm,
                    &mut self.row_perm_inv,
                    &mut self.col_perm,
                    &mut self.col_perm_inv,
                    self.params.rank_tol,
                    stack,
                );
                self.info = DenseKktInfo {
                    rank,
                    min_ratio,
                    eigen: false,
                };
                if rank < nn {
                    let tol = self.params.rank_tol;
                    return Err(LinalgError::RankDeficient { rank, dim: nn, tol });
                }
            }
            KktMode::MinNorm => {
                if !self.factor_independent(mass, phi_q) {
                    self.factor_eigen()?;
                }
            }
            KktMode::MinNormEigen => self.factor_eigen()?,
        }
        self.factored = true;
        Ok(self.info)
    }

    /// [`KktMode::MinNorm`]: the LU of the independent rows' KKT matrix. Where the
    /// last factorization found no dependent rows, first the LU of `K` itself (no row
    /// split: the common case of a mechanism without redundant constraints); where
    /// that is rank deficient or ill conditioned, or rows were dependent before, the
    /// row split of `Φ_q` and the LU of its independent rows. `false` when that LU
    /// is rank deficient or ill conditioned too.
    fn factor_independent(&mut self, mass: MatRef<'_, f64>, phi_q: MatRef<'_, f64>) -> bool {
        if !self.split.had_dependent() {
            self.split.all_independent();
            if self.lu_independent(mass, phi_q) {
                return true;
            }
        }
        self.split.split(phi_q) && self.lu_independent(mass, phi_q)
    }

    /// Partial-pivot LU of `[M Φ_Iᵀ; Φ_I 0]` for the held split; whether its pivots
    /// are all above `WELL_CONDITIONED` times the largest.
    fn lu_independent(&mut self, mass: MatRef<'_, f64>, phi_q: MatRef<'_, f64>) -> bool {
        let n = self.n;
        let r = self.split.rank();
        let nr = n + r;
        for j in 0..n {
            for i in 0..n {
                self.kr[(i, j)] = mass[(i, j)];
            }
            for (a, &ia) in self.split.independent().iter().enumerate() {
                let v = phi_q[(ia, j)];
                self.kr[(n + a, j)] = v;
                self.kr[(j, n + a)] = v;
            }
        }
        for b in 0..r {
            for a in 0..r {
                self.kr[(n + a, n + b)] = 0.0;
            }
        }
        let stack = self.mem.stack();
        partial::lu_in_place(
            self.kr.as_mut().submatrix_mut(0, 0, nr, nr),
            &mut self.row_perm[..nr],
            &mut self.row_perm_inv[..nr],
            faer::Par::Seq,
            stack,
            Default::default(),
        );
        let big = (0..nr).fold(0.0_f64, |a, i| a.max(self.kr[(i, i)].abs()));
        let mut rank = 0;
        let mut min_ratio = 1.0_f64;
        for i in 0..nr {
            let u = self.kr[(i, i)].abs();
            if u.is_finite() && big > 0.0 && u > self.params.rank_tol * big {
                rank += 1;
                min_ratio = min_ratio.min(u / big);
            }
        }
        self.info = DenseKktInfo {
            rank,
            min_ratio,
            eigen: false,
        };
        rank == nr && min_ratio >= WELL_CONDITIONED
    }

    /// The symmetric eigendecomposition of the assembled `K`.
    fn factor_eigen(&mut self) -> Result<(), LinalgError> {
        let tol = self.params.rank_tol;
        let stack = self.mem.stack();
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
        self.info = DenseKktInfo {
            rank,
            min_ratio,
            eigen: true,
        };
        Ok(())
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
            KktMode::MinNorm if !self.info.eigen => self.solve_independent(rhs),
            KktMode::MinNorm | KktMode::MinNormEigen => self.solve_eigen(rhs),
        }
        Ok(())
    }

    /// `γ̂_I` from `γ`, the LU solve of the independent rows, then `λ` of minimum norm.
    fn solve_independent(&mut self, rhs: &mut [f64]) {
        let n = self.n;
        let nr = n + self.split.rank();
        self.rr[..n].copy_from_slice(&rhs[..n]);
        self.split.project_gamma(&rhs[n..], &mut self.rr[n..nr]);
        let stack = self.mem.stack();
        let perm = PermRef::new_checked(&self.row_perm[..nr], &self.row_perm_inv[..nr], nr);
        let k = self.kr.as_ref().submatrix(0, 0, nr, nr);
        let x = MatMut::from_column_major_slice_mut(&mut self.rr[..nr], nr, 1);
        partial_solve::solve_in_place_with_conj(k, k, perm, Conj::No, x, faer::Par::Seq, stack);
        rhs[..n].copy_from_slice(&self.rr[..n]);
        self.split.expand_lambda(&mut self.rr[n..nr], &mut rhs[n..]);
    }

    /// `x = V Λ⁺ Vᵀ b`.
    fn solve_eigen(&mut self, rhs: &mut [f64]) {
        let nn = self.n + self.m;
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

/// Full-pivot LU in place; the numerical rank (pivots `|u_ii| > tol·|u_00|`) and the
/// smallest kept pivot ratio.
fn lu_rank(
    k: MatMut<'_, f64>,
    row_perm: &mut [usize],
    row_perm_inv: &mut [usize],
    col_perm: &mut [usize],
    col_perm_inv: &mut [usize],
    tol: f64,
    stack: &mut faer::dyn_stack::MemStack,
) -> (usize, f64) {
    let nn = k.nrows();
    let mut k = k;
    lu_in_place(
        k.as_mut(),
        row_perm,
        row_perm_inv,
        col_perm,
        col_perm_inv,
        faer::Par::Seq,
        stack,
        Default::default(),
    );
    let first = if nn > 0 { k[(0, 0)].abs() } else { 0.0 };
    let mut rank = 0;
    let mut min_ratio = 1.0_f64;
    for i in 0..nn {
        let u = k[(i, i)].abs();
        if u.is_finite() && u > tol * first && first > 0.0 {
            rank += 1;
            min_ratio = min_ratio.min(u / first);
        }
    }
    (rank, min_ratio)
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
