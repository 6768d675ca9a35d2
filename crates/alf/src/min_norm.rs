//! Minimum-norm Lagrange multipliers of a model with redundant constraints, sparsely.
//!
//! With Φ_q of rank m − r, λ of the constrained equations of motion (Bayo–Ledesma
//! eq 4) is determined up to null(Φ_qᵀ); the multiplier recovery reports the
//! minimum-norm λ (the pseudo-inverse solution of the dense [`crate::LagrangeAccelerations`]
//! in min-norm mode). Here, with D the r dependent rows (found once, at the model's
//! initial state, by the sparse elimination of [`mbs_constraints::mobility`], by the
//! caller) and I
//! the others:
//!
//! 1. the sparse `LDLᵀ` of the full-rank KKT matrix [M Φ_Iᵀ; Φ_I 0] gives q̈ and the
//!    basic λ_b (λ_I, and 0 on D);
//! 2. for each d ∈ D, the same factorization solved for [Φ_dᵀ; 0] gives c_d with
//!    Φ_dᵀ = Φ_Iᵀ c_d exactly (the solution is x = 0, μ = c_d), so the r vectors
//!    n_d = e_d − Σ_i c_d,i e_i span null(Φ_qᵀ);
//! 3. λ = λ_b − N (NᵀN)⁻¹ Nᵀ λ_b, the orthogonal projection of λ_b onto range(Φ_q),
//!    which is the minimum-norm solution (it solves Φ_qᵀλ = Q − M q̈ and is
//!    orthogonal to the null space).
//!
//! Cost per state: one sparse factorization and 1 + r sparse solves (O(n) each on
//! chains and trees of loops), and the r×r Gram matrix NᵀN = I + C Cᵀ, formed from the
//! nonzero entries of the c_d (supported on the loop each dependent row closes).
//! A state where Φ_I loses rank (a singular configuration) fails, and the caller
//! solves it densely.

use std::sync::Arc;

use mbs_model::{Model, State};
use nalgebra::{DMatrix, DVector};

use crate::error::AlfError;
use crate::sparse_lagrange::SparseLagrange;

/// Entries of c_d at most this times max|c_d| are dropped from the Gram matrix
/// (round-off of the solve outside the loop that d closes).
const DROP_TOL: f64 = 1e-15;

/// The sparse min-norm recovery of one redundant model.
#[derive(Debug)]
pub(crate) struct MinNormLagrange {
    kkt: SparseLagrange,
    /// Dependent rows D, ascending.
    dependent: Vec<usize>,
    /// For each dependent row, its (column, full-pattern slot) entries.
    dep_entries: Vec<Vec<(usize, usize)>>,
    /// c_d as (index into the kept rows, value), nonzero entries only.
    coeffs: Vec<Vec<(usize, f64)>>,
    rhs: Vec<f64>,
    /// λ of all rows (the basic λ_b, 0 on D, until the projection).
    lambda: Vec<f64>,
}

impl MinNormLagrange {
    /// The recovery of `model` without its `dependent` rows (ascending; holonomic, of
    /// Φ_q at the initial state); `None` if the KKT matrix cannot be analysed.
    pub(crate) fn new(model: Arc<Model>, dependent: Vec<usize>) -> Option<Self> {
        let kkt = SparseLagrange::without_rows(model, &dependent).ok()?;
        let pat = kkt.layout().pattern();
        let mut dep_entries = vec![Vec::new(); dependent.len()];
        for c in 0..pat.ncols {
            for s in pat.col_ptr[c]..pat.col_ptr[c + 1] {
                if let Ok(k) = dependent.binary_search(&pat.row_idx[s]) {
                    dep_entries[k].push((c, s));
                }
            }
        }
        let (n, m) = (kkt.n(), kkt.layout().n_rows());
        Some(Self {
            coeffs: vec![Vec::new(); dependent.len()],
            rhs: vec![0.0; n + m - dependent.len()],
            lambda: vec![0.0; m],
            kkt,
            dependent,
            dep_entries,
        })
    }

    /// The dependent rows D.
    pub(crate) fn dependent(&self) -> &[usize] {
        &self.dependent
    }

    /// q̈ at `s` ([ṙ, ṗ] layout) into `qdd`; the minimum-norm λ (all rows) returned.
    pub(crate) fn solve(&mut self, s: &State, qdd: &mut [f64]) -> Result<&[f64], AlfError> {
        let (q, v) = (s.q.as_slice(), s.v.as_slice());
        self.kkt.accelerations(s.t, q, v, qdd)?;
        let n = self.kkt.n();
        let kept = self
            .kkt
            .kept_rows()
            .expect("built without the dependent rows");
        self.lambda.fill(0.0);
        for (&r, &x) in kept.iter().zip(self.kkt.multipliers()) {
            self.lambda[r] = x;
        }
        // c_d from the same factorization
        for k in 0..self.dependent.len() {
            self.rhs.fill(0.0);
            let jac = self
                .kkt
                .full_jacobian()
                .expect("built without the dependent rows");
            for &(c, slot) in &self.dep_entries[k] {
                self.rhs[c] = jac[slot];
            }
            self.kkt.solve_factored(s.t, &mut self.rhs)?;
            let mu = &self.rhs[n..];
            let scale = mu.iter().fold(0.0_f64, |a, x| a.max(x.abs()));
            let c = &mut self.coeffs[k];
            c.clear();
            c.extend(
                mu.iter()
                    .enumerate()
                    .filter(|(_, x)| x.abs() > DROP_TOL * scale)
                    .map(|(i, &x)| (i, x)),
            );
        }
        self.project(s.t)?;
        Ok(&self.lambda)
    }

    /// λ ← λ − N (NᵀN)⁻¹ Nᵀ λ with n_d = e_d − Σ c_d,i e_{I_i} (λ_d = 0 before).
    fn project(&mut self, t: f64) -> Result<(), AlfError> {
        let kept = self
            .kkt
            .kept_rows()
            .expect("built without the dependent rows");
        let r = self.dependent.len();
        // dense scatter of each c_d over the kept rows, for the dot products
        let mut dense = vec![0.0; kept.len()];
        let mut gram = DMatrix::<f64>::identity(r, r);
        let mut rhs = DVector::<f64>::zeros(r);
        for k in 0..r {
            for &(i, x) in &self.coeffs[k] {
                dense[i] = x;
            }
            // Nᵀλ_b: λ_b[d] = 0, so n_dᵀ λ_b = −c_d · λ_I
            rhs[k] = -self.coeffs[k]
                .iter()
                .map(|&(i, x)| x * self.lambda[kept[i]])
                .sum::<f64>();
            for l in 0..=k {
                let dot: f64 = self.coeffs[l].iter().map(|&(i, x)| x * dense[i]).sum();
                gram[(k, l)] += dot;
                if l != k {
                    gram[(l, k)] += dot;
                }
            }
            for &(i, _) in &self.coeffs[k] {
                dense[i] = 0.0;
            }
        }
        let y = gram
            .cholesky()
            .ok_or(AlfError::Evaluation {
                t,
                message: "Gram matrix of the null space of Φ_qᵀ not positive definite".into(),
            })?
            .solve(&rhs);
        for k in 0..r {
            self.lambda[self.dependent[k]] -= y[k];
            for &(i, x) in &self.coeffs[k] {
                self.lambda[kept[i]] += y[k] * x;
            }
        }
        Ok(())
    }
}
