//! ALF index-1 accelerations (Bayo–Ledesma eqs 6–8) with the sparse Cholesky
//! backend: the leading matrix L = M + Φ_qᵀαΦ_q is assembled block by block from
//! the per-body mass blocks and the per-joint Jacobian blocks of `mbs-constraints`
//! (7×7 blocks on the diagonal and on every pair of bodies sharing a joint), its
//! symbolic analysis is done once, and Φ_q, Φ_qᵀ are applied matrix-free. Cost per
//! evaluation O(n) for chains and trees, against O(n³) for the dense backend; the
//! result equals [`crate::AlfAccelerations`] up to round-off (same iteration).
//!
//! With projections ([`SparseAlf::with_projections`]) the mass-orthogonal
//! projections of positions and velocities (Bayo–Ledesma eqs 9–15, 17–24) refactor
//! the same Cholesky object with the projection penalty (see [`projection`]).

mod projection;

use std::collections::HashMap;
use std::sync::Arc;

use mbs_constraints::MassBlock;
use mbs_constraints::{Baumgarte, ConstraintError, SystemLayout, Workspace};
use mbs_integrators::{OdeSystem, SystemError};
use mbs_linalg::sparse::{SparseCholesky, SparseCholeskyParams, SparsePattern};
use mbs_model::body_coords::q_range;
use mbs_model::{BodyRef, Layout, Model, State, StateView};
use nalgebra::DVector;

use crate::alf::AlfInfo;
use crate::error::AlfError;
use crate::params::AlfParams;

/// Sparse ALF accelerations of a model in the [ṙ, ṗ] layout, with its workspace.
#[derive(Debug)]
pub struct SparseAlf {
    model: Arc<Model>,
    sys: SystemLayout,
    ws: Workspace,
    params: AlfParams,
    /// First value index of the 7×7 block of each body pair (a ≥ b).
    slots: HashMap<(usize, usize), usize>,
    values: Vec<f64>,
    chol: SparseCholesky,
    c: Vec<f64>,
    lambda: Vec<f64>,
    tmp_m: Vec<f64>,
    rhs: Vec<f64>,
    prev: Vec<f64>,
    forces: Vec<f64>,
    phi: Vec<f64>,
    evaluations: u64,
    iterations: u64,
    /// The mass-orthogonal projections and their buffers, if on.
    projection: Option<projection::SparseProjection>,
}

fn block_entries(a: usize, b: usize, out: &mut Vec<(usize, usize)>) {
    for c in 0..7 {
        for r in 0..7 {
            out.push((q_range(a).start + r, q_range(b).start + c));
        }
    }
}

impl SparseAlf {
    /// Builds the pattern of L and its symbolic factorization once.
    pub fn new(model: Arc<Model>, params: AlfParams) -> Result<Self, AlfError> {
        Self::with_projections(model, params, None)
    }

    /// As [`Self::new`], with the mass-orthogonal projections of `projection`
    /// ([`Self::project_state`]) if given.
    pub fn with_projections(
        model: Arc<Model>,
        params: AlfParams,
        projection: Option<crate::params::ProjectionParams>,
    ) -> Result<Self, AlfError> {
        let sys = SystemLayout::new(&model, Layout::EulerParamsPdot);
        let ws = Workspace::new(&sys);
        let nb = model.n_bodies();
        let mut slots = HashMap::new();
        let mut entries = Vec::new();
        let mut add = |a: usize, b: usize, entries: &mut Vec<(usize, usize)>| {
            let key = (a.max(b), a.min(b));
            if let std::collections::hash_map::Entry::Vacant(e) = slots.entry(key) {
                e.insert(entries.len());
                block_entries(key.0, key.1, entries);
            }
        };
        for b in 0..nb {
            add(b, b, &mut entries);
        }
        for e in sys.entries() {
            if let (BodyRef::Body(i), BodyRef::Body(j)) = (e.body_i, e.body_j) {
                add(i.0, j.0, &mut entries);
            }
        }
        let (n, m) = (sys.n_v(), sys.n_rows());
        let linalg = |source| AlfError::Linalg {
            t: 0.0,
            context: "symbolic analysis of M + Φ_qᵀαΦ_q",
            source,
        };
        let pattern = SparsePattern::symmetric_lower(n, &entries).map_err(linalg)?;
        let chol = SparseCholesky::new(pattern, SparseCholeskyParams::default()).map_err(linalg)?;
        let projection =
            projection.map(|p| projection::SparseProjection::new(p, n, m, sys.pattern().nnz()));
        Ok(Self {
            projection,
            values: vec![0.0; entries.len()],
            model,
            sys,
            ws,
            params,
            slots,
            chol,
            c: vec![0.0; m],
            lambda: vec![0.0; m],
            tmp_m: vec![0.0; m],
            rhs: vec![0.0; n],
            prev: vec![0.0; n],
            forces: vec![0.0; n],
            phi: vec![0.0; m],
            evaluations: 0,
            iterations: 0,
        })
    }

    /// Number of coordinates n = 7 per body.
    pub fn n(&self) -> usize {
        self.sys.n_v()
    }

    /// Evaluations and multiplier iterations so far.
    pub fn counters(&self) -> (u64, u64) {
        (self.evaluations, self.iterations)
    }

    /// The multipliers λ* of the last evaluation.
    pub fn multipliers(&self) -> &[f64] {
        &self.lambda
    }

    /// The model's initial state as y = [q; q̇].
    pub fn initial_state(&self) -> Vec<f64> {
        let s = State::initial(&self.model, Layout::EulerParamsPdot);
        s.q.iter().chain(s.v.iter()).copied().collect()
    }

    fn add_block(&mut self, a: usize, b: usize, f: impl Fn(usize, usize) -> f64) {
        // stored block (max, min): entry (r, c) of block (a, b) is (c, r) of (b, a)
        let (key, swap) = if a >= b {
            ((a, b), false)
        } else {
            ((b, a), true)
        };
        let base = self.slots[&key];
        for c in 0..7 {
            for r in 0..7 {
                let v = if swap { f(c, r) } else { f(r, c) };
                self.values[base + 7 * c + r] += v;
            }
        }
    }

    /// Assembles L = M + α Σ_k J_kᵀJ_k with the ALF penalty and factors it.
    fn factor(&mut self, t: f64) -> Result<(), AlfError> {
        self.factor_with(t, self.params.alpha, false)
    }

    /// Assembles L = M + α Σ_k J_kᵀJ_k block by block (normalization rows
    /// 2pᵀ give α·4ppᵀ on the Euler-parameter diagonal block), over the holonomic
    /// rows only if `holonomic_only` (the position projection, eq 10), and factors it.
    fn factor_with(&mut self, t: f64, alpha: f64, holonomic_only: bool) -> Result<(), AlfError> {
        self.values.fill(0.0);
        for b in 0..self.sys.n_bodies() {
            if let MassBlock::Pdot(m) = self.ws.mass_block(&self.sys, b) {
                self.add_block(b, b, |r, c| m[(r, c)]);
            }
            let p = self.ws.frames()[b].p;
            self.add_block(b, b, |r, c| {
                if r >= 3 && c >= 3 {
                    4.0 * alpha * p[r - 3] * p[c - 3]
                } else {
                    0.0
                }
            });
        }
        for k in 0..self.sys.entries().len() {
            let e = self.sys.entries()[k];
            let blk = self.ws.block(k).clone();
            let rows = if holonomic_only {
                e.n_holonomic
            } else {
                blk.rows
            };
            let bodies = [(e.body_i, &blk.ji_pdot), (e.body_j, &blk.jj_pdot)];
            for (ba, ja) in bodies {
                let BodyRef::Body(a) = ba else { continue };
                for (bb, jb) in bodies {
                    let BodyRef::Body(b) = bb else { continue };
                    if a.0 < b.0 {
                        continue; // each pair once; (a, b) with a ≥ b
                    }
                    self.add_block(a.0, b.0, |r, c| {
                        alpha * (0..rows).map(|i| ja[(i, r)] * jb[(i, c)]).sum::<f64>()
                    });
                }
            }
        }
        self.chol
            .factorize(&self.values)
            .map_err(|source| AlfError::Linalg {
                t,
                context: "sparse factorization of M + Φ_qᵀαΦ_q",
                source,
            })
    }

    /// The name of the constraint behind global row `row`, for errors.
    fn row_label(&self, row: usize) -> String {
        match self.sys.source_of_row(row) {
            Some(s) => self.sys.source_name(&self.model, s),
            None => format!("constraint row {row}"),
        }
    }

    fn constraint_error(&self, t: f64, e: ConstraintError) -> AlfError {
        AlfError::Evaluation {
            t,
            message: e.to_string(),
        }
    }

    /// ALF accelerations q̈ at (t, q, q̇) into `qdd` (eqs 6–8, as
    /// [`crate::AlfAccelerations::solve`]).
    pub fn accelerations(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
        qdd: &mut [f64],
    ) -> Result<AlfInfo, AlfError> {
        let state = StateView::new(Layout::EulerParamsPdot, t, q, v);
        let p = self.params;
        let m_h = self.sys.n_holonomic();
        let r = (|| {
            self.ws.evaluate(&self.model, &self.sys, state)?;
            self.ws.generalized_forces(&self.sys, &mut self.forces)?;
            self.ws.phi(&self.sys, &mut self.phi)?;
            self.ws.phi_dot(&self.sys, &mut self.tmp_m)?;
            self.ws.gamma(&self.sys, &mut self.c)
        })();
        r.map_err(|e| self.constraint_error(t, e))?;
        // c = −γ + 2Ωμ Φ̇ + Ω² Φ (holonomic rows) = −γ̄
        Baumgarte::from_damping(p.mu, p.omega).neg_apply(
            &mut self.c,
            &self.phi[..m_h],
            &self.tmp_m,
        );
        self.factor(t)?;
        if !p.warm_start {
            self.lambda.fill(0.0);
        }
        self.evaluations += 1;
        let mut info = AlfInfo::default();
        let mut last = f64::INFINITY;
        for it in 1..=p.max_iter.max(1) {
            for i in 0..self.c.len() {
                self.tmp_m[i] = self.lambda[i] + p.alpha * self.c[i];
            }
            self.ws
                .phi_q_tr_mul(&self.sys, &self.tmp_m, &mut self.rhs)
                .map_err(|e| self.constraint_error(t, e))?;
            for (r, f) in self.rhs.iter_mut().zip(&self.forces) {
                *r = f - *r;
            }
            self.chol
                .solve(&mut self.rhs)
                .map_err(|source| AlfError::Linalg {
                    t,
                    context: "sparse solve with M + Φ_qᵀαΦ_q",
                    source,
                })?;
            self.ws
                .phi_q_mul(&self.sys, &self.rhs, &mut self.tmp_m)
                .map_err(|e| self.constraint_error(t, e))?;
            for i in 0..self.c.len() {
                self.lambda[i] += p.alpha * (self.tmp_m[i] + self.c[i]);
            }
            let scale = 1.0 + self.rhs.iter().fold(0.0f64, |a, x| a.max(x.abs()));
            info.change = if it == 1 {
                f64::INFINITY
            } else {
                self.rhs
                    .iter()
                    .zip(&self.prev)
                    .fold(0.0f64, |a, (x, y)| a.max((x - y).abs()))
                    / scale
            };
            self.prev.copy_from_slice(&self.rhs);
            info.iterations = it;
            self.iterations += 1;
            if info.change <= p.tol || (it > 2 && info.change <= 1e-8 && info.change >= 0.5 * last)
            {
                info.converged = true;
                break;
            }
            last = info.change;
        }
        qdd.copy_from_slice(&self.prev);
        Ok(info)
    }

    /// Accelerations into a `DVector` (allocation-free when sized n).
    pub fn accelerations_vec(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
        qdd: &mut DVector<f64>,
    ) -> Result<AlfInfo, AlfError> {
        self.accelerations(t, q, v, qdd.as_mut_slice())
    }
}

impl OdeSystem for SparseAlf {
    fn dim(&self) -> usize {
        2 * self.n()
    }

    fn rhs(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError> {
        let n = self.n();
        let (q, v) = y.split_at(n);
        dydt[..n].copy_from_slice(v);
        self.accelerations(t, q, v, &mut dydt[n..])
            .map(|_| ())
            .map_err(|e| SystemError::with_source(e.to_string(), e))
    }

    fn project(&mut self, t: f64, y: &mut [f64]) -> Result<bool, SystemError> {
        let n = self.n();
        let (q, v) = y.split_at_mut(n);
        self.project_state(t, q, v)
            .map(|i| i.is_some())
            .map_err(|e| SystemError::with_source(e.to_string(), e))
    }
}
