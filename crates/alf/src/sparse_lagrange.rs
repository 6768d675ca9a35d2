//! Classical Lagrange multipliers (Bayo–Ledesma eq 4), optionally Baumgarte-
//! stabilized (Pękal–Frączek sec 2), with a sparse KKT solve:
//!
//! ```text
//!   [ M    Φ_qᵀ ] [ q̈ ]   [ Q ]
//!   [ Φ_q  0    ] [ λ  ] = [ γ̄ ],    γ̄ = γ − 2α̂ Φ̇ − β̂² Φ
//! ```
//!
//! M (7×7 blocks per body) and Φ_q (the fixed CSC pattern of
//! [`mbs_constraints::SystemLayout::pattern`]) are filled into a [`SparseKkt`]
//! (sparse symmetric-indefinite `LDLᵀ`, symbolic analysis once, numeric
//! factorization per evaluation, iterative refinement against the unregularized
//! matrix): O(n) per evaluation on chains and trees, no allocation.
//!
//! The sparse solve needs Φ_q of full row rank. [`SparseLagrange::dependent_constraints`]
//! probes the rank once (sparse LU with partial pivoting of [I Φ_qᵀ; Φ_q 0], see
//! [`mbs_linalg::sparse::small_pivots`]) and names the dependent rows; the method
//! front-end then either stops with that error (`strict=true`) or runs the dense
//! least-squares solve instead (the documented fallback for redundant constraints).
//! A solve that fails during the run (a singular configuration) stops with an error
//! naming the time, and the dependent joints in strict mode: never a silent answer.

use std::sync::Arc;

use mbs_constraints::{Baumgarte, ConstraintError, SystemLayout, Workspace};
use mbs_integrators::{OdeSystem, SystemError};
use mbs_linalg::LinalgError;
use mbs_linalg::sparse::{SparseKkt, SparseKktParams, SparsePattern, small_pivots};
use mbs_model::{Layout, Model, State, StateView};
use nalgebra::DMatrix;

use crate::error::AlfError;

/// Relative tolerance of the rank probe: a pivot of [I Φ_qᵀ; Φ_q 0] at most this times
/// the largest entry (the multiplier pivots are of the order of σ², σ the singular
/// values of Φ_q, so rows within σ/σ_max ≈ 3e-5 of dependence count as dependent;
/// redundant rows give pivots at round-off). The dense diagnosis's Gram–Schmidt uses
/// the same relative threshold on the rows of Φ_q.
const RANK_TOL: f64 = 1e-9;

/// Largest n·m for which the diagnosis names the dependent rows by the dense
/// Gram–Schmidt of the dense diagnosis (above it, by the rows of the small pivots).
const DENSE_DIAGNOSIS: usize = 4_000_000;

/// Sparse Lagrange accelerations of a model in the [ṙ, ṗ] layout.
#[derive(Debug)]
pub struct SparseLagrange {
    model: Arc<Model>,
    sys: SystemLayout,
    ws: Workspace,
    baumgarte: Option<Baumgarte>,
    strict: bool,
    kkt: SparseKkt,
    jac_entries: Vec<(usize, usize)>,
    mass: Vec<f64>,
    jac: Vec<f64>,
    rhs: Vec<f64>,
    phi: Vec<f64>,
    phi_dot: Vec<f64>,
    evaluations: u64,
    subset: Option<RowSubset>,
}

/// The rows of Φ_q kept in the KKT matrix when some are left out (the dependent rows
/// of a redundant model, for the min-norm multiplier recovery): Φ_q and γ are filled
/// in full and gathered.
#[derive(Debug)]
struct RowSubset {
    /// Kept rows, ascending (row k of the KKT matrix is row `rows[k]` of Φ_q).
    rows: Vec<usize>,
    /// For every kept entry of the Φ_q pattern, its slot in the full pattern.
    slots: Vec<usize>,
    /// Φ_q values of the full pattern.
    jac_full: Vec<f64>,
    /// γ of all rows.
    gamma_full: Vec<f64>,
}

impl SparseLagrange {
    /// The KKT pattern and its symbolic analysis, once. `strict`: a failed solve is
    /// diagnosed as dependent constraints (named) where the rank probe confirms it.
    pub fn new(
        model: Arc<Model>,
        baumgarte: Option<Baumgarte>,
        strict: bool,
    ) -> Result<Self, AlfError> {
        Self::build(model, baumgarte, strict, &[])
    }

    /// [`Self::new`] without Baumgarte terms and without the rows `dropped` (ascending)
    /// of Φ_q: the KKT matrix of the independent rows of a redundant model, whose λ
    /// ([`Self::multipliers`], one per kept row, [`Self::kept_rows`]) is unique.
    pub(crate) fn without_rows(model: Arc<Model>, dropped: &[usize]) -> Result<Self, AlfError> {
        Self::build(model, None, false, dropped)
    }

    fn build(
        model: Arc<Model>,
        baumgarte: Option<Baumgarte>,
        strict: bool,
        dropped: &[usize],
    ) -> Result<Self, AlfError> {
        let sys = SystemLayout::new(&model, Layout::EulerParamsPdot);
        let ws = Workspace::new(&sys);
        let (n, m_all) = (sys.n_v(), sys.n_rows());
        let mut new_row = vec![usize::MAX; m_all];
        let mut kept = Vec::with_capacity(m_all);
        for r in 0..m_all {
            if dropped.binary_search(&r).is_err() {
                new_row[r] = kept.len();
                kept.push(r);
            }
        }
        let m = kept.len();
        let mut mass_entries = Vec::with_capacity(49 * sys.n_bodies());
        for b in 0..sys.n_bodies() {
            for c in 0..7 {
                for r in 0..7 {
                    mass_entries.push((7 * b + r, 7 * b + c));
                }
            }
        }
        let pat = sys.pattern();
        let mut jac_entries = Vec::with_capacity(pat.nnz());
        let mut slots = Vec::with_capacity(pat.nnz());
        for c in 0..pat.ncols {
            for s in pat.col_ptr[c]..pat.col_ptr[c + 1] {
                let r = new_row[pat.row_idx[s]];
                if r != usize::MAX {
                    jac_entries.push((r, c));
                    slots.push(s);
                }
            }
        }
        let subset = (m < m_all).then(|| RowSubset {
            rows: kept,
            slots,
            jac_full: vec![0.0; pat.nnz()],
            gamma_full: vec![0.0; m_all],
        });
        let kkt = SparseKkt::new(
            n,
            m,
            &mass_entries,
            &jac_entries,
            SparseKktParams::default(),
        )
        .map_err(|source| AlfError::Linalg {
            t: 0.0,
            context: "symbolic analysis of the KKT matrix [M Φ_qᵀ; Φ_q 0]",
            source,
        })?;
        Ok(Self {
            mass: vec![0.0; mass_entries.len()],
            jac: vec![0.0; jac_entries.len()],
            rhs: vec![0.0; n + m],
            phi: vec![0.0; m_all],
            phi_dot: vec![0.0; m_all],
            model,
            sys,
            ws,
            baumgarte,
            strict,
            kkt,
            jac_entries,
            evaluations: 0,
            subset,
        })
    }

    /// The rows of Φ_q in the KKT matrix (all rows unless built by
    /// [`Self::without_rows`]).
    pub(crate) fn kept_rows(&self) -> Option<&[usize]> {
        self.subset.as_ref().map(|s| s.rows.as_slice())
    }

    /// Φ_q values of the full pattern ([`SystemLayout::pattern`]) at the last
    /// evaluation of a model built by [`Self::without_rows`].
    pub(crate) fn full_jacobian(&self) -> Option<&[f64]> {
        self.subset.as_ref().map(|s| s.jac_full.as_slice())
    }

    /// Solves the last factorized KKT matrix again for `rhs` (n + kept rows), in place.
    pub(crate) fn solve_factored(&mut self, t: f64, rhs: &mut [f64]) -> Result<(), AlfError> {
        self.kkt
            .solve(rhs)
            .map(|_| ())
            .map_err(|source| AlfError::Linalg {
                t,
                context: "sparse KKT solve [M Φ_qᵀ; Φ_q 0] of the independent rows",
                source,
            })
    }

    /// The constraint assembly (row order of λ).
    pub fn layout(&self) -> &SystemLayout {
        &self.sys
    }

    /// Number of coordinates n = 7 per body.
    pub fn n(&self) -> usize {
        self.sys.n_v()
    }

    /// Evaluations so far.
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    /// The multipliers λ of the last solve.
    pub fn multipliers(&self) -> &[f64] {
        &self.rhs[self.n()..]
    }

    /// The model's initial state as (q, q̇).
    pub fn initial_state(&self) -> (Vec<f64>, Vec<f64>) {
        let s = State::initial(&self.model, Layout::EulerParamsPdot);
        (s.q.as_slice().to_vec(), s.v.as_slice().to_vec())
    }

    fn constraint_error(t: f64, e: ConstraintError) -> AlfError {
        AlfError::Evaluation {
            t,
            message: e.to_string(),
        }
    }

    /// Evaluates the model at (t, q, q̇) and fills M, Φ_q, Q and γ̄ (into `rhs`).
    fn load(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<(), AlfError> {
        let n = self.n();
        let m_h = self.sys.n_holonomic();
        let state = StateView::new(Layout::EulerParamsPdot, t, q, v);
        let (head, tail) = self.rhs.split_at_mut(n);
        let r = (|| {
            self.ws.evaluate(&self.model, &self.sys, state)?;
            self.ws.generalized_forces(&self.sys, head)?;
            match &mut self.subset {
                None => {
                    self.ws.gamma(&self.sys, tail)?;
                    self.ws.phi_q_values(&self.sys, &mut self.jac)?;
                }
                Some(sub) => {
                    self.ws.gamma(&self.sys, &mut sub.gamma_full)?;
                    self.ws.phi_q_values(&self.sys, &mut sub.jac_full)?;
                    for (g, &r) in tail.iter_mut().zip(&sub.rows) {
                        *g = sub.gamma_full[r];
                    }
                    for (x, &s) in self.jac.iter_mut().zip(&sub.slots) {
                        *x = sub.jac_full[s];
                    }
                }
            }
            if let Some(b) = self.baumgarte {
                // γ̄ = γ − 2α̂ Φ̇ − β̂² Φ (holonomic rows of Φ)
                self.ws.phi(&self.sys, &mut self.phi)?;
                self.ws.phi_dot(&self.sys, &mut self.phi_dot)?;
                b.apply(tail, &self.phi[..m_h], &self.phi_dot);
            }
            Ok(())
        })();
        r.map_err(|e| Self::constraint_error(t, e))?;
        for b in 0..self.sys.n_bodies() {
            let mb = self.ws.mass_block(&self.sys, b);
            for c in 0..7 {
                for r in 0..7 {
                    self.mass[49 * b + 7 * c + r] = mb.get(r, c);
                }
            }
        }
        Ok(())
    }

    /// Lagrange accelerations q̈ at (t, q, q̇) into `qdd` (eq 4); λ in
    /// [`Self::multipliers`]. No allocation unless it fails.
    pub fn accelerations(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
        qdd: &mut [f64],
    ) -> Result<(), AlfError> {
        self.load(t, q, v)?;
        self.evaluations += 1;
        let r = self
            .kkt
            .factorize(&self.mass, &self.jac)
            .and_then(|()| self.kkt.solve(&mut self.rhs).map(|_| ()));
        if let Err(source) = r {
            return Err(self.failure(t, q, v, source));
        }
        let n = self.n();
        qdd.copy_from_slice(&self.rhs[..n]);
        crate::descriptor::check_finite(t, "acceleration", qdd, |i| {
            format!("coordinate {i} (body {}, component {})", i / 7, i % 7)
        })
    }

    /// The error of a failed sparse KKT solve: in strict mode, the dependent
    /// constraints if the rank probe finds them.
    fn failure(&mut self, t: f64, q: &[f64], v: &[f64], source: LinalgError) -> AlfError {
        if self.strict
            && let Ok(Some(e)) = self.dependent_constraints(t, q, v)
        {
            return e;
        }
        AlfError::Linalg {
            t,
            context: "sparse KKT solve [M Φ_qᵀ; Φ_q 0] (dependent constraint rows? the dense lagrange solves them in the least-squares sense)",
            source,
        }
    }

    /// The rank probe at (t, q, q̇): `Some(DependentConstraints)` naming the
    /// dependent rows if Φ_q (with M, the KKT matrix) is rank deficient. Allocates.
    pub fn dependent_constraints(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
    ) -> Result<Option<AlfError>, AlfError> {
        self.load(t, q, v)?;
        let (n, m) = (self.n(), self.rhs.len() - self.n());
        let linalg = |source| AlfError::Linalg {
            t,
            context: "rank probe of the KKT matrix",
            source,
        };
        // [I Φ_qᵀ; Φ_q 0] in unsymmetric storage: it is singular exactly when Φ_q is
        // rank deficient, and its pivots measure Φ_q alone. With M in place of I the
        // pivots of the multiplier rows are inverse articulated inertias, which fall
        // below any fixed threshold on long chains (≈ 1e-9 at the base of a 4096-link
        // chain, 819 m long) although Φ_q in absolute coordinates is well conditioned.
        let mut entries: Vec<(usize, usize)> = (0..n).map(|i| (i, i)).collect();
        let mut values = vec![1.0; n];
        for (&(r, c), &x) in self.jac_entries.iter().zip(&self.jac) {
            entries.push((n + r, c));
            entries.push((c, n + r));
            values.push(x);
            values.push(x);
        }
        let pattern = SparsePattern::new(n + m, n + m, &entries).map_err(linalg)?;
        let probe = small_pivots(&pattern, &values, RANK_TOL).map_err(linalg)?;
        if probe.small.is_empty() {
            return Ok(None);
        }
        let rows: Vec<usize> = if n * m <= DENSE_DIAGNOSIS {
            let mut j = DMatrix::zeros(self.sys.n_rows(), n);
            self.ws
                .phi_q_dense(&self.sys, &mut j)
                .map_err(|e| Self::constraint_error(t, e))?;
            let scale = j.amax().max(f64::MIN_POSITIVE);
            mbs_constraints::dependent_rows(&j, RANK_TOL * scale)
        } else {
            probe
                .small
                .iter()
                .filter(|&&r| r >= n)
                .map(|&r| r - n)
                .collect()
        };
        let mut names: Vec<String> = Vec::new();
        for &r in &rows {
            let label = match self.sys.source_of_row(r) {
                Some(s) => self.sys.source_name(&self.model, s),
                None => format!("constraint row {r}"),
            };
            if !names.contains(&label) {
                names.push(label);
            }
        }
        let deficiency = rows.len().max(probe.small.len().min(1));
        Ok(Some(AlfError::DependentConstraints {
            t,
            rank: m - deficiency.min(m),
            rows: m,
            dependent: if names.is_empty() {
                "(rows not identified)".to_string()
            } else {
                names.join(", ")
            },
        }))
    }
}

impl OdeSystem for SparseLagrange {
    fn dim(&self) -> usize {
        2 * self.n()
    }

    fn rhs(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError> {
        let n = self.n();
        let (q, v) = y.split_at(n);
        dydt[..n].copy_from_slice(v);
        self.accelerations(t, q, v, &mut dydt[n..])
            .map_err(|e| SystemError::with_source(e.to_string(), e))
    }
}
