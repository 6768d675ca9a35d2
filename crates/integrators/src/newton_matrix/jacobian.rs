//! The Jacobian `J = ∂f/∂y` of a system at one point: analytic when the system
//! provides it ([`OdeSystem::jacobian`] returns `Ok(true)`), else forward
//! differences with column colouring over the declared sparsity
//! ([`OdeSystem::jacobian_sparsity`]).
//!
//! Forward differences as MATLAB's `numjac` (Shampine & Reichelt 1997, sec 3.2):
//! column `j` is `(f(t, y + δ_j e_j) − f(t, y)) / δ_j` with
//! `δ_j = √ε · max(|y_j|, thr_j)`, `thr_j` the threshold below which `y_j` is
//! not resolved (the integrators set `thr_j = atol_j / rtol`), the increment
//! rounded to a representable one. With a pattern the columns of one colour
//! ([`super::colouring`]) are perturbed together: one right-hand side per colour.

use nalgebra::DMatrix;

use super::LinearSolver;
use super::colouring::Colouring;
use super::pattern::JacobianPattern;
use crate::common::EPS;
use crate::error::{AtTime, Error};
use crate::system::{Info, OdeSystem};

/// Smallest dimension at which [`LinearSolver::Auto`] factors sparse: below it a
/// dense LU is faster whatever the pattern.
pub const SPARSE_MIN_DIM: usize = 100;

/// Largest fraction of nonzeros (of `a I − b J`, diagonal included) at which
/// [`LinearSolver::Auto`] factors sparse.
pub const SPARSE_MAX_DENSITY: f64 = 0.2;

/// Where the Jacobian's values are kept.
#[derive(Debug, Clone)]
pub(crate) enum Storage {
    /// `n×n`, column major.
    Dense(DMatrix<f64>),
    /// Values over the pattern with the diagonal added.
    Sparse {
        /// The declared pattern with the diagonal.
        pattern: JacobianPattern,
        /// Position of `(j, j)` in `values`.
        diag: Vec<usize>,
        /// Whether `(j, j)` was declared (an undeclared diagonal is zero).
        diag_declared: Vec<bool>,
        values: Vec<f64>,
        /// A dense matrix for [`OdeSystem::jacobian`], allocated at the first
        /// evaluation and dropped when the system has no analytic Jacobian.
        analytic: Option<DMatrix<f64>>,
    },
}

/// Whether the system's analytic Jacobian exists (known after one call).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Analytic {
    Unknown,
    Yes,
    No,
}

/// `∂f/∂y` at one point, with its evaluation (analytic or coloured forward
/// differences) and storage (dense or sparse, see [`LinearSolver`]).
///
/// All work space is allocated by [`new`](Self::new) (with sparse storage and an
/// analytic Jacobian, a dense `n×n` matrix at the first evaluation).
#[derive(Debug, Clone)]
pub struct Jacobian {
    n: usize,
    /// The declared pattern (`None`: dense).
    pattern: Option<JacobianPattern>,
    colouring: Colouring,
    pub(crate) storage: Storage,
    analytic: Analytic,
    thr: Vec<f64>,
    delta: Vec<f64>,
    y_pert: Vec<f64>,
    f_pert: Vec<f64>,
}

impl Jacobian {
    /// Storage and colouring for a system of dimension `n` with the declared
    /// `pattern` (`None`: dense), stored as `solver` says; an error names a
    /// pattern of the wrong dimension.
    pub fn new(
        n: usize,
        pattern: Option<JacobianPattern>,
        solver: LinearSolver,
    ) -> Result<Self, Error> {
        if let Some(p) = &pattern
            && p.dim() != n
        {
            return Err(Error::InvalidInput(format!(
                "Jacobian pattern has dimension {}, the system {n}",
                p.dim()
            )));
        }
        let colouring = match &pattern {
            Some(p) => Colouring::greedy(p),
            None => Colouring::trivial(n),
        };
        let sparse = match solver {
            LinearSolver::Dense => false,
            LinearSolver::Sparse => true,
            LinearSolver::Auto => pattern.as_ref().is_some_and(|p| {
                let nnz = p.with_diagonal().0.nnz() as f64;
                n >= SPARSE_MIN_DIM && nnz <= SPARSE_MAX_DENSITY * (n * n) as f64
            }),
        };
        let storage = if sparse {
            let declared = pattern.clone().unwrap_or_else(|| JacobianPattern::dense(n));
            let (with_diag, diag) = declared.with_diagonal();
            let diag_declared = (0..n).map(|j| declared.rows(j).contains(&j)).collect();
            Storage::Sparse {
                values: vec![0.0; with_diag.nnz()],
                pattern: with_diag,
                diag,
                diag_declared,
                analytic: None,
            }
        } else {
            Storage::Dense(DMatrix::zeros(n, n))
        };
        Ok(Self {
            n,
            pattern,
            colouring,
            storage,
            analytic: Analytic::Unknown,
            thr: vec![1.0; n],
            delta: vec![0.0; n],
            y_pert: vec![0.0; n],
            f_pert: vec![0.0; n],
        })
    }

    /// Dimension.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// Right-hand sides per finite-difference Jacobian (colours of the pattern).
    pub fn colours(&self) -> usize {
        self.colouring.colours()
    }

    /// Whether the values are stored (and the iteration matrices factored) sparse.
    pub fn is_sparse(&self) -> bool {
        matches!(self.storage, Storage::Sparse { .. })
    }

    /// The threshold `thr_j` of the difference increments
    /// `δ_j = √ε max(|y_j|, thr_j)` (default 1).
    pub fn set_threshold(&mut self, thr: impl Fn(usize) -> f64) {
        for (j, t) in self.thr.iter_mut().enumerate() {
            *t = thr(j).max(f64::MIN_POSITIVE);
        }
    }

    /// Forget whether the system has an analytic Jacobian (a new system may).
    pub fn reset(&mut self) {
        self.analytic = Analytic::Unknown;
    }

    /// `J[i, j]` of the last evaluation (zero outside the pattern).
    pub fn entry(&self, i: usize, j: usize) -> f64 {
        match &self.storage {
            Storage::Dense(m) => m[(i, j)],
            Storage::Sparse {
                pattern, values, ..
            } => {
                let rows = pattern.rows(j);
                match rows.binary_search(&i) {
                    Ok(k) => values[pattern.col_ptr()[j] + k],
                    Err(_) => 0.0,
                }
            }
        }
    }

    /// Evaluate `J` at `(t, y)`, with `f0 = f(t, y)` already computed (used by the
    /// differences). Counts one [`Info::jacobian_evals`] and the right-hand sides
    /// of the differences in [`Info::rhs_evals`]. Allocates nothing (but see
    /// [`Jacobian`]).
    pub fn evaluate<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        t: f64,
        y: &[f64],
        f0: &[f64],
        info: &mut Info,
    ) -> Result<(), Error> {
        info.jacobian_evals += 1;
        if self.analytic != Analytic::No && self.try_analytic(sys, t, y)? {
            self.analytic = Analytic::Yes;
            return Ok(());
        }
        self.analytic = Analytic::No;
        self.differences(sys, t, y, f0, info)
    }

    /// The system's analytic Jacobian into the storage; `false` if it has none.
    fn try_analytic<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        t: f64,
        y: &[f64],
    ) -> Result<bool, Error> {
        match &mut self.storage {
            Storage::Dense(m) => sys.jacobian(t, y, m).at(t),
            Storage::Sparse {
                pattern,
                values,
                analytic,
                ..
            } => {
                let n = self.n;
                let m = analytic.get_or_insert_with(|| DMatrix::zeros(n, n));
                if !sys.jacobian(t, y, m).at(t)? {
                    *analytic = None;
                    return Ok(false);
                }
                for j in 0..n {
                    let base = pattern.col_ptr()[j];
                    for (k, &i) in pattern.rows(j).iter().enumerate() {
                        values[base + k] = m[(i, j)];
                    }
                }
                Ok(true)
            }
        }
    }

    /// Coloured forward differences (module documentation).
    fn differences<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &mut S,
        t: f64,
        y: &[f64],
        f0: &[f64],
        info: &mut Info,
    ) -> Result<(), Error> {
        let n = self.n;
        let sq = sys.difference_step().unwrap_or(EPS.sqrt());
        if let Storage::Dense(m) = &mut self.storage
            && self.pattern.is_some()
        {
            m.fill(0.0);
        }
        self.y_pert.copy_from_slice(y);
        for c in 0..self.colouring.colours() {
            let group = self.colouring.group(c);
            for &j in group {
                let yj = y[j];
                let d = sq * yj.abs().max(self.thr[j]);
                // a step toward zero would leave a tiny |y + δ| on the other side:
                // step away from zero, as numjac does (sign of y)
                let d = if yj < 0.0 { -d } else { d };
                self.y_pert[j] = yj + d;
                self.delta[j] = self.y_pert[j] - yj;
            }
            sys.rhs(t, &self.y_pert, &mut self.f_pert).at(t)?;
            info.rhs_evals += 1;
            for &j in group {
                self.y_pert[j] = y[j];
                let inv = 1.0 / self.delta[j];
                match (&mut self.storage, &self.pattern) {
                    (Storage::Dense(m), None) => {
                        for i in 0..n {
                            m[(i, j)] = (self.f_pert[i] - f0[i]) * inv;
                        }
                    }
                    (Storage::Dense(m), Some(p)) => {
                        for &i in p.rows(j) {
                            m[(i, j)] = (self.f_pert[i] - f0[i]) * inv;
                        }
                    }
                    (
                        Storage::Sparse {
                            pattern,
                            values,
                            diag,
                            diag_declared,
                            ..
                        },
                        _,
                    ) => {
                        let base = pattern.col_ptr()[j];
                        for (k, &i) in pattern.rows(j).iter().enumerate() {
                            values[base + k] = if base + k == diag[j] && !diag_declared[j] {
                                0.0
                            } else {
                                (self.f_pert[i] - f0[i]) * inv
                            };
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
