//! Sparse `LDLᵀ` of the KKT matrix (Pękal–Frączek eq 2.5)
//!
//! ```text
//!   K = [ M    Φ_qᵀ ]
//!       [ Φ_q  0    ]
//! ```
//!
//! The zero block makes `K` indefinite and not factorizable for every ordering,
//! so the factorized matrix is the quasi-definite
//! `K_δ = [[M + δ I, Φ_qᵀ], [Φ_q, −δ I]]` (static regularization,
//! `δ = reg_delta · max|K|`), which has an `LDLᵀ` for any fill-reducing ordering
//! when `M` is positive semi-definite; pivots whose sign still comes out wrong are
//! corrected by faer's dynamic regularization. The solution of the true system is
//! then recovered by iterative refinement `x ← x + K_δ⁻¹ (b − K x)` with the
//! unregularized `K`. With redundant but consistent constraints the refinement
//! still converges: `q̈` and `Φ_qᵀλ` are unique, `λ` is one of the solutions (use
//! [`crate::dense::DenseKkt`] in min-norm mode for the minimum-norm `λ`).
//!
//! The symbolic analysis (AMD ordering, elimination tree, supernodes) is done
//! once in [`SparseKkt::new`]; [`SparseKkt::factorize`] is numeric only and
//! allocates nothing.

use faer::linalg::cholesky::ldlt::factor::{LdltError, LdltRegularization};
use faer::sparse::SparseColMatRef;
use faer::sparse::linalg::cholesky::{
    CholeskySymbolicParams, LdltRef, SymbolicCholesky, SymmetricOrdering,
    factorize_symbolic_cholesky,
};
use faer::{Conj, MatMut, Side};

use super::SparsePattern;
use crate::error::{check_finite, check_len};
use crate::scratch::Scratch;
use crate::{KktSolver, LinalgError};

/// Parameters of [`SparseKkt`].
#[derive(Debug, Clone, Copy)]
pub struct SparseKktParams {
    /// Static regularization `δ` relative to `max|K|`.
    pub reg_delta: f64,
    /// Dynamic regularization threshold relative to `max|K|`.
    pub reg_epsilon: f64,
    /// Maximum refinement steps.
    pub max_refinement: usize,
    /// Stop when `‖b − K x‖∞ ≤ refine_tol · (‖K‖ ‖x‖∞ + ‖b‖∞)`.
    pub refine_tol: f64,
}

impl Default for SparseKktParams {
    fn default() -> Self {
        Self {
            reg_delta: 1e-9,
            reg_epsilon: 1e-13,
            max_refinement: 30,
            refine_tol: 1e-15,
        }
    }
}

/// What the last factorization and solve did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SparseKktInfo {
    /// Refinement steps of the last solve.
    pub refinement_steps: usize,
    /// Final scaled residual of the last solve.
    pub residual: f64,
}

/// Sparse KKT solver with a fixed pattern.
#[derive(Debug)]
pub struct SparseKkt {
    n: usize,
    m: usize,
    n_mass: usize,
    pattern: SparsePattern,
    symbolic: SymbolicCholesky<usize>,
    input: Vec<f64>,
    k_values: Vec<f64>,
    kd_values: Vec<f64>,
    l_values: Vec<f64>,
    signs: Vec<i8>,
    x: Vec<f64>,
    r: Vec<f64>,
    mem: Scratch,
    scale: f64,
    factored: bool,
    info: SparseKktInfo,
    params: SparseKktParams,
}

impl SparseKkt {
    /// Analyses the KKT pattern built from the pattern of `M` (`n × n`, entries
    /// with `row < col` ignored, as in [`SparsePattern::symmetric_lower`]) and of
    /// `Φ_q` (`m × n`). Values are later passed in the order of these entries.
    pub fn new(
        n: usize,
        m: usize,
        mass_entries: &[(usize, usize)],
        jacobian_entries: &[(usize, usize)],
        params: SparseKktParams,
    ) -> Result<Self, LinalgError> {
        for &(row, col) in jacobian_entries {
            if row >= m || col >= n {
                return Err(LinalgError::InvalidPattern {
                    row,
                    col,
                    nrows: m,
                    ncols: n,
                });
            }
        }
        let mut entries = Vec::with_capacity(mass_entries.len() + jacobian_entries.len());
        entries.extend_from_slice(mass_entries);
        entries.extend(jacobian_entries.iter().map(|&(r, c)| (n + r, c)));
        let pattern = SparsePattern::symmetric_lower(n + m, &entries)?;
        let symbolic = factorize_symbolic_cholesky(
            pattern.symbolic(),
            Side::Lower,
            SymmetricOrdering::Amd,
            CholeskySymbolicParams::default(),
        )
        .map_err(|_| LinalgError::Decomposition("symbolic sparse LDLᵀ of the KKT matrix"))?;
        let par = faer::Par::Seq;
        let req = symbolic
            .factorize_numeric_ldlt_scratch::<f64>(par, Default::default())
            .or(symbolic.solve_in_place_scratch::<f64>(1, par));
        let mut signs = vec![1i8; n + m];
        signs[n..].iter_mut().for_each(|s| *s = -1);
        Ok(Self {
            n,
            m,
            n_mass: mass_entries.len(),
            input: vec![0.0; entries.len()],
            k_values: vec![0.0; pattern.nnz()],
            kd_values: vec![0.0; pattern.nnz()],
            l_values: vec![0.0; symbolic.len_val()],
            signs,
            x: vec![0.0; n + m],
            r: vec![0.0; n + m],
            mem: Scratch::new(req),
            pattern,
            symbolic,
            scale: 0.0,
            factored: false,
            info: SparseKktInfo::default(),
            params,
        })
    }

    /// Info of the last factorization/solve.
    pub fn info(&self) -> SparseKktInfo {
        self.info
    }

    /// Number of nonzeros of `L`.
    pub fn factor_nnz(&self) -> usize {
        self.l_values.len()
    }

    /// Numeric factorization for new values of `M` and `Φ_q` (pattern order).
    pub fn factorize(&mut self, mass: &[f64], jacobian: &[f64]) -> Result<(), LinalgError> {
        self.factored = false;
        check_len("SparseKkt mass values", self.n_mass, mass.len())?;
        check_len(
            "SparseKkt jacobian values",
            self.input.len() - self.n_mass,
            jacobian.len(),
        )?;
        self.input[..self.n_mass].copy_from_slice(mass);
        self.input[self.n_mass..].copy_from_slice(jacobian);
        self.pattern.scatter(&self.input, &mut self.k_values)?;
        self.scale = self.k_values.iter().fold(0.0_f64, |a, v| a.max(v.abs()));
        let scale = if self.scale > 0.0 { self.scale } else { 1.0 };
        let delta = self.params.reg_delta * scale;
        self.kd_values.copy_from_slice(&self.k_values);
        for (i, &s) in self.pattern.diag_slots().iter().enumerate() {
            self.kd_values[s] += if i < self.n { delta } else { -delta };
        }
        let a = SparseColMatRef::new(self.pattern.symbolic(), &self.kd_values);
        let stack = self.mem.stack();
        let res = self.symbolic.factorize_numeric_ldlt(
            &mut self.l_values,
            a,
            Side::Lower,
            LdltRegularization {
                dynamic_regularization_signs: Some(&self.signs),
                dynamic_regularization_delta: delta,
                dynamic_regularization_epsilon: self.params.reg_epsilon * scale,
            },
            faer::Par::Seq,
            stack,
            Default::default(),
        );
        if let Err(LdltError::ZeroPivot { index }) = res {
            return Err(LinalgError::Singular {
                index,
                pivot: 0.0,
                tol: self.params.reg_epsilon * scale,
            });
        }
        self.factored = true;
        Ok(())
    }

    fn ldlt_solve(&mut self, rhs: &mut [f64]) {
        let nn = self.n + self.m;
        let stack = self.mem.stack();
        LdltRef::new(&self.symbolic, &self.l_values).solve_in_place_with_conj(
            Conj::No,
            MatMut::from_column_major_slice_mut(rhs, nn, 1),
            faer::Par::Seq,
            stack,
        );
    }

    /// Solves in place: `rhs = [Q; γ]` becomes `[q̈; λ]`; no allocation.
    pub fn solve(&mut self, rhs: &mut [f64]) -> Result<SparseKktInfo, LinalgError> {
        if !self.factored {
            return Err(LinalgError::NotFactorized);
        }
        let nn = self.n + self.m;
        check_len("SparseKkt rhs", nn, rhs.len())?;
        check_finite("SparseKkt rhs", rhs)?;
        let bnorm = rhs.iter().fold(0.0_f64, |a, v| a.max(v.abs()));
        // x = K_δ⁻¹ b, stored in self.x; rhs keeps b until the end.
        let mut x = std::mem::take(&mut self.x);
        let mut r = std::mem::take(&mut self.r);
        x.copy_from_slice(rhs);
        self.ldlt_solve(&mut x);
        let mut steps = 0;
        let mut res;
        let mut prev = f64::INFINITY;
        loop {
            // r = b − K x
            self.pattern.matvec(&self.k_values, &x, &mut r)?;
            for i in 0..nn {
                r[i] = rhs[i] - r[i];
            }
            let rnorm = r.iter().fold(0.0_f64, |a, v| a.max(v.abs()));
            let xnorm = x.iter().fold(0.0_f64, |a, v| a.max(v.abs()));
            let denom = self.scale * xnorm + bnorm;
            res = if denom > 0.0 { rnorm / denom } else { 0.0 };
            // Stop at the tolerance, at the step limit, or when refinement stalls
            // at round-off level.
            if res <= self.params.refine_tol
                || steps >= self.params.max_refinement
                || (res > 0.5 * prev && res < 1e-12)
            {
                break;
            }
            prev = res;
            self.ldlt_solve(&mut r);
            for i in 0..nn {
                x[i] += r[i];
            }
            steps += 1;
        }
        rhs.copy_from_slice(&x);
        self.x = x;
        self.r = r;
        self.info.refinement_steps = steps;
        self.info.residual = res;
        // Refinement stalls at a few ulps; only a clearly wrong answer is an error.
        if res.is_nan() || res > 1e-10 {
            return Err(LinalgError::NotConverged {
                iterations: steps,
                residual: res,
                tol: self.params.refine_tol,
            });
        }
        Ok(self.info)
    }
}

impl KktSolver for SparseKkt {
    fn dims(&self) -> (usize, usize) {
        (self.n, self.m)
    }

    fn factor(&mut self, mass: &[f64], jacobian: &[f64]) -> Result<(), LinalgError> {
        self.factorize(mass, jacobian)
    }

    fn solve_in_place(&mut self, rhs: &mut [f64]) -> Result<(), LinalgError> {
        self.solve(rhs).map(|_| ())
    }
}
