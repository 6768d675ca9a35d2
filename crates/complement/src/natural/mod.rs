//! Natural partitioning (Chiou 1990, sec 5.4; implementation 5.5.7; parallel
//! form 6.3) in absolute coordinates q = [r, p] (7 per body) with velocities
//! u̇ = [ṙ, ω'] (6 per body) and the constant mass matrix M = diag(mI, J').
//!
//! 1. The open tree (spanning tree without cut joints) gives `B_o u̇ = 0`; its
//!    null space `A_o` is built body by body ([`tree`], eqs 5.4.1.1–5.4.2.2),
//!    one rayon task per branch from ground.
//! 2. Without cut joints, `u̇ = A u̇ⁱ` and (eq 5.2.5.12 with the particular
//!    acceleration ü_p in place of `Ȧu̇ⁱ`)
//!
//!    ```text
//!      Aᵀ M A üⁱ = Aᵀ (F − M ü_p),    ü = ü_p + A üⁱ
//!    ```
//!
//!    block diagonal over the branches, so each branch is solved on its own.
//! 3. With cut joints (and drivers, nonholonomic or custom constraints, which are
//!    treated like cut joints) `M ü + B_oᵀλ_o + B_cᵀλ_c = F` (eq 5.4.3.5);
//!    premultiplying by `A_oᵀ` (eqs 5.4.3.6–5.4.3.9) leaves
//!    `M_n ü + B_nᵀ λ_c = F_n`, `B_c ü = Γ̄_c`, solved either
//!    * by penalty ([`CutTreatment::Penalty`], Chiou sec 5.3 eq 5.3.1 with the
//!      damped form of Bayo–Ledesma): `λ_c = α (B_c ü − Γ_c + 2ξω Φ̇_c + ω² Φ_c)`,
//!
//!      ```text
//!        (AᵀMA + α KᵀK) üⁱ = Aᵀ(F − Mü_p) − α Kᵀ (B_c ü_p − Γ_c + 2ξωΦ̇_c + ω²Φ_c),  K = B_c A
//!      ```
//!    * or by a second null space ([`CutTreatment::NullSpace`], "constructing the
//!      null space for the new equations of motion"): `K üⁱ = Γ̄_c − B_c ü_p`,
//!      `üⁱ = S(Γ̄_c − B_c ü_p) + N w`, `NᵀAᵀMAN w = Nᵀ(Aᵀ(F − Mü_p) − AᵀMA S(…))`.
//!
//! [`NaturalPartitioning`] implements [`OdeSystem`] on `y = [q; u̇]` (7 + 6 per
//! body, q = [r, p], u̇ = [ṙ, ω'], the Euler-parameter [ṙ, ω'] `State` layout)
//! for the adaptive integrators, and [`PartitionedSystem`] (x = q, v = u̇; Euler
//! parameters advanced by the closed-form implicit midpoint rule, eq 5.5.4.6)
//! for the two-stage staggered procedure 5.5.7.

pub mod tree;

use std::sync::Arc;

use mbs_constraints::{SystemLayout, Workspace};
use mbs_integrators::{OdeSystem, PartitionedSystem, SystemError};
use mbs_kinematics::euler_params::{from_rotation_vector, g_matrix, normalize, product};
use mbs_kinematics::implicit_update::midpoint_update_body;
use mbs_linalg::nullspace::{NullSpaceMethod, NullSpaceParams, null_space};
use mbs_model::{Layout, Model, State};
use nalgebra::{DMatrix, DVector, Vector3, Vector4};
use rayon::prelude::*;

use crate::basis::{min_norm_solve, particular};
use crate::complement::system_error;
use crate::error::{ComplementError, check_len};
use crate::params::Stabilization;
use tree::{BranchSystem, OpenTree, build_branch};

/// How the cut-joint constraints are enforced (thesis after eq 5.4.3.9).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CutTreatment {
    /// Penalty with damping: λ_c = α (Φ̈_c + 2ξω Φ̇_c + ω² Φ_c).
    Penalty {
        /// Penalty factor α.
        alpha: f64,
        /// Damping ratio ξ.
        xi: f64,
        /// Natural frequency ω (rad/s).
        omega: f64,
    },
    /// A second null space of `B_c A` by an `mbs-linalg` method.
    NullSpace {
        /// The method (QR recommended).
        method: NullSpaceMethod,
    },
}

/// Parameters of [`NaturalPartitioning`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NaturalParams {
    /// Cut-joint treatment (default: second null space by QR).
    pub cut: CutTreatment,
    /// Stabilization of all constraints (Baumgarte on Γ, or Newton–Raphson in
    /// the projection hook). Default none.
    pub stabilization: Stabilization,
    /// Relative pivot tolerance of the per-body split and rank tolerance of the
    /// second null space (default 1e-10).
    pub rank_tol: f64,
    /// Build and solve the branches in parallel (rayon). Default true; results
    /// do not depend on it.
    pub parallel: bool,
    /// Newton–Raphson: maximum iterations per correction (default 20).
    pub newton_max_iter: usize,
}

impl Default for NaturalParams {
    fn default() -> Self {
        Self {
            cut: CutTreatment::NullSpace {
                method: NullSpaceMethod::Qr,
            },
            stabilization: Stabilization::None,
            rank_tol: 1e-10,
            parallel: true,
            newton_max_iter: 20,
        }
    }
}

/// Counters of a [`NaturalPartitioning`] run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NaturalStats {
    /// Acceleration evaluations.
    pub evaluations: usize,
    /// Independent velocities of the open tree.
    pub n_independent: usize,
    /// Branches from ground (parallel tasks).
    pub n_branches: usize,
    /// Constraint entries treated as cut.
    pub n_cut: usize,
    /// Newton–Raphson position corrections.
    pub position_corrections: usize,
    /// Velocity corrections.
    pub velocity_corrections: usize,
    /// Newton iterations.
    pub newton_iterations: usize,
}

/// Natural partitioning of Chiou for an `mbs-model` [`Model`] (module docs).
#[derive(Debug)]
pub struct NaturalPartitioning {
    model: Arc<Model>,
    params: NaturalParams,
    sys: SystemLayout,
    ws: Workspace,
    state: State,
    tree: OpenTree,
    stats: NaturalStats,
    y0: Vec<f64>,
}

impl NaturalPartitioning {
    /// Builds the open tree of `model`.
    pub fn new(model: Arc<Model>, params: NaturalParams) -> Result<Self, ComplementError> {
        if !(params.rank_tol.is_finite() && params.rank_tol > 0.0) {
            return Err(ComplementError::InvalidParams(format!(
                "rank_tol must be positive, got {}",
                params.rank_tol
            )));
        }
        let sys = SystemLayout::new(&model, Layout::EulerParamsOmega);
        let ws = Workspace::new(&sys);
        let tree = OpenTree::new(&model, &sys);
        let s0 = State::initial(&model, Layout::EulerParamsOmega);
        let y0 = [s0.q.as_slice(), s0.v.as_slice()].concat();
        let stats = NaturalStats {
            n_branches: tree.branches.len(),
            n_cut: tree.cut_entries.len(),
            ..NaturalStats::default()
        };
        Ok(Self {
            state: State::zeros(Layout::EulerParamsOmega, model.n_bodies()),
            model,
            params,
            sys,
            ws,
            tree,
            stats,
            y0,
        })
    }

    /// Number of position coordinates (7 per body).
    pub fn n_q(&self) -> usize {
        7 * self.model.n_bodies()
    }
    /// Number of velocity coordinates (6 per body).
    pub fn n_v(&self) -> usize {
        6 * self.model.n_bodies()
    }
    /// The model.
    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }
    /// The open tree (branches, cut entries).
    pub fn tree(&self) -> &OpenTree {
        &self.tree
    }
    /// The model's initial state as y = [q; u̇].
    pub fn initial_state(&self) -> Vec<f64> {
        self.y0.clone()
    }
    /// y = [q; u̇] of any `State`.
    pub fn state_to_y(&self, s: &State) -> Vec<f64> {
        let s = s.to_layout(Layout::EulerParamsOmega);
        [s.q.as_slice(), s.v.as_slice()].concat()
    }
    /// The state at (t, y) in the Euler-parameter [ṙ, ṗ] layout.
    pub fn to_state(&self, t: f64, y: &[f64]) -> State {
        let n = self.n_q();
        State {
            layout: Layout::EulerParamsOmega,
            t,
            q: DVector::from_column_slice(&y[..n]),
            v: DVector::from_column_slice(&y[n..]),
        }
        .to_layout(Layout::EulerParamsPdot)
    }
    /// Counters.
    pub fn stats(&self) -> NaturalStats {
        self.stats
    }

    fn load(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<(), ComplementError> {
        check_len("positions", self.n_q(), q.len())?;
        check_len("velocities", self.n_v(), v.len())?;
        self.state.t = t;
        self.state.q.as_mut_slice().copy_from_slice(q);
        self.state.v.as_mut_slice().copy_from_slice(v);
        Ok(())
    }

    /// ü = [r̈, ω̇'] per body at (t, q, u̇) into `udd` (length 6 n_b).
    pub fn accelerations(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
        udd: &mut [f64],
    ) -> Result<(), ComplementError> {
        check_len("accelerations", self.n_v(), udd.len())?;
        self.load(t, q, v)?;
        let ev = |e| ComplementError::Evaluation { t, source: e };
        self.ws
            .evaluate(&self.model, &self.sys, &self.state)
            .map_err(ev)?;
        let m = self.sys.n_rows();
        let m_h = self.sys.n_holonomic();
        let (mut gamma, mut phi_dot, mut phi) =
            (DVector::zeros(m), DVector::zeros(m), DVector::zeros(m));
        let mut forces = DVector::zeros(self.n_v());
        self.ws.gamma(&self.sys, gamma.as_mut_slice()).map_err(ev)?;
        self.ws
            .phi_dot(&self.sys, phi_dot.as_mut_slice())
            .map_err(ev)?;
        self.ws.phi(&self.sys, phi.as_mut_slice()).map_err(ev)?;
        self.ws
            .generalized_forces(&self.sys, forces.as_mut_slice())
            .map_err(ev)?;
        for i in m_h..m {
            phi[i] = 0.0; // position level only for holonomic rows
        }
        let mut gamma_bar = gamma.clone();
        if let Stabilization::Baumgarte { alpha, beta } = self.params.stabilization {
            gamma_bar.axpy(-2.0 * alpha, &phi_dot, 1.0);
            gamma_bar.axpy(-beta * beta, &phi, 1.0);
        }
        // 1. the branches (parallel)
        let (model, ws, sys, tol) = (&*self.model, &self.ws, &self.sys, self.params.rank_tol);
        let build = |br| build_branch(t, model, ws, sys, br, &gamma_bar, &forces, tol);
        let parts: Vec<BranchSystem> = if self.params.parallel {
            self.tree
                .branches
                .par_iter()
                .map(build)
                .collect::<Result<_, _>>()?
        } else {
            self.tree
                .branches
                .iter()
                .map(build)
                .collect::<Result<_, _>>()?
        };
        let s: usize = parts.iter().map(|p| p.mass.nrows()).sum();
        self.stats.n_independent = s;
        let out = if self.tree.cut_entries.is_empty() {
            self.solve_open(t, &parts)?
        } else {
            self.solve_cut(t, &parts, &gamma, &gamma_bar, &phi, &phi_dot)?
        };
        self.stats.evaluations += 1;
        if let Some(i) = out.iter().position(|x| !x.is_finite()) {
            return Err(ComplementError::NonFinite {
                t,
                quantity: "acceleration",
                location: format!("body `{}`", self.model.bodies()[i / 6].name),
            });
        }
        udd.copy_from_slice(out.as_slice());
        Ok(())
    }

    /// Step 2: branch by branch.
    fn solve_open(&self, t: f64, parts: &[BranchSystem]) -> Result<DVector<f64>, ComplementError> {
        let solve = |p: &BranchSystem| -> Result<DVector<f64>, ComplementError> {
            let chol = p
                .mass
                .clone()
                .cholesky()
                .ok_or(ComplementError::SingularMass {
                    t,
                    what: "AᵀMA",
                    method: "natural partitioning",
                    rank: p.mass.nrows(),
                })?;
            Ok(&p.udd_p + &p.a * chol.solve(&p.rhs))
        };
        let local: Vec<DVector<f64>> = if self.params.parallel {
            parts.par_iter().map(solve).collect::<Result<_, _>>()?
        } else {
            parts.iter().map(solve).collect::<Result<_, _>>()?
        };
        let mut out = DVector::zeros(self.n_v());
        for (br, u) in self.tree.branches.iter().zip(&local) {
            for (l, link) in br.links.iter().enumerate() {
                out.rows_mut(6 * link.body, 6).copy_from(&u.rows(6 * l, 6));
            }
        }
        Ok(out)
    }

    /// Step 3: global A, then the cut constraints by penalty or null space.
    fn solve_cut(
        &self,
        t: f64,
        parts: &[BranchSystem],
        gamma: &DVector<f64>,
        gamma_bar: &DVector<f64>,
        phi: &DVector<f64>,
        phi_dot: &DVector<f64>,
    ) -> Result<DVector<f64>, ComplementError> {
        let n = self.n_v();
        let s: usize = parts.iter().map(|p| p.mass.nrows()).sum();
        let mut a = DMatrix::zeros(n, s);
        let mut udd_p = DVector::zeros(n);
        let mut mr = DMatrix::zeros(s, s);
        let mut rhs = DVector::zeros(s);
        let mut off = 0;
        for (br, p) in self.tree.branches.iter().zip(parts) {
            let sg = p.mass.nrows();
            for (l, link) in br.links.iter().enumerate() {
                a.view_mut((6 * link.body, off), (6, sg))
                    .copy_from(&p.a.rows(6 * l, 6));
                udd_p
                    .rows_mut(6 * link.body, 6)
                    .copy_from(&p.udd_p.rows(6 * l, 6));
            }
            mr.view_mut((off, off), (sg, sg)).copy_from(&p.mass);
            rhs.rows_mut(off, sg).copy_from(&p.rhs);
            off += sg;
        }
        // cut rows B_c from the blocks
        let entries = self.sys.entries();
        let rows: Vec<(usize, usize)> = self
            .tree
            .cut_entries
            .iter()
            .flat_map(|&k| (0..entries[k].rows()).map(move |r| (k, r)))
            .collect();
        let mc = rows.len();
        let mut bc = DMatrix::zeros(mc, n);
        let sel = |v: &DVector<f64>| {
            DVector::from_fn(mc, |i, _| v[entries[rows[i].0].global_row(rows[i].1)])
        };
        for (i, &(k, r)) in rows.iter().enumerate() {
            let e = &entries[k];
            let blk = self.ws.block(k);
            for (body, jb) in [(e.body_i, &blk.ji), (e.body_j, &blk.jj)] {
                if let mbs_model::BodyRef::Body(id) = body {
                    for c in 0..6 {
                        bc[(i, 6 * id.0 + c)] += jb[(r, c)];
                    }
                }
            }
        }
        let k_mat = &bc * &a;
        let bu = &bc * &udd_p;
        let singular = |what| ComplementError::SingularMass {
            t,
            what,
            method: "natural partitioning",
            rank: s,
        };
        let uddi = match self.params.cut {
            CutTreatment::Penalty { alpha, xi, omega } => {
                // (AᵀMA + α KᵀK) üⁱ = Aᵀ(F − Mü_p) − α Kᵀ (B_c ü_p − Γ_c + 2ξωΦ̇_c + ω²Φ_c)
                let r = &bu - sel(gamma)
                    + sel(phi_dot) * (2.0 * xi * omega)
                    + sel(phi) * (omega * omega);
                mr.gemm_tr(alpha, &k_mat, &k_mat, 1.0);
                rhs.gemv_tr(-alpha, &k_mat, &r, 1.0);
                mr.cholesky().ok_or(singular("AᵀMA + αKᵀK"))?.solve(&rhs)
            }
            CutTreatment::NullSpace { method } => {
                let nsp = NullSpaceParams {
                    rank_tol: self.params.rank_tol,
                    compute_s: true,
                };
                let mass = (method == NullSpaceMethod::WangHuston).then_some(&mr);
                let ns = null_space(method, &k_mat, mass, &nsp).map_err(|source| {
                    ComplementError::NullSpace {
                        t,
                        method: method.name(),
                        source,
                    }
                })?;
                let target = sel(gamma_bar) - bu;
                let w_p = particular(&ns, &k_mat, &target, self.params.rank_tol);
                let nm = &ns.p;
                let red = nm.transpose() * &mr * nm;
                let r2 = nm.transpose() * (&rhs - &mr * &w_p);
                let w = red.cholesky().ok_or(singular("NᵀAᵀMAN"))?.solve(&r2);
                w_p + nm * w
            }
        };
        Ok(udd_p + a * uddi)
    }

    /// Newton–Raphson correction of positions (small body rotations δφ' applied
    /// as p ← p ⊗ p(δφ')) and velocities when [`Stabilization::NewtonRaphson`]
    /// is selected; `Ok(true)` if anything changed.
    pub fn correct(
        &mut self,
        t: f64,
        q: &mut [f64],
        v: &mut [f64],
    ) -> Result<bool, ComplementError> {
        let Stabilization::NewtonRaphson { tol } = self.params.stabilization else {
            return Ok(false);
        };
        let ev = |e| ComplementError::Evaluation { t, source: e };
        let (m, m_h, n) = (self.sys.n_rows(), self.sys.n_holonomic(), self.n_v());
        let mut jac = DMatrix::zeros(m, n);
        let mut phi = self.eval_positions(t, q, v, &mut jac)?;
        let mut res = phi.norm();
        let mut changed = false;
        let mut iterations = 0;
        if res > tol {
            changed = true;
            self.stats.position_corrections += 1;
            while res > 1e-2 * tol && iterations < self.params.newton_max_iter {
                let d = min_norm_solve(&jac.rows(0, m_h).clone_owned(), &phi, self.params.rank_tol);
                for b in 0..self.model.n_bodies() {
                    for c in 0..3 {
                        q[7 * b + c] -= d[6 * b + c];
                    }
                    let p = Vector4::new(q[7 * b + 3], q[7 * b + 4], q[7 * b + 5], q[7 * b + 6]);
                    let dphi = -Vector3::new(d[6 * b + 3], d[6 * b + 4], d[6 * b + 5]);
                    let pn = normalize(&product(&p, &from_rotation_vector(&dphi)));
                    q[7 * b + 3..7 * b + 7].copy_from_slice(pn.as_slice());
                }
                iterations += 1;
                phi = self.eval_positions(t, q, v, &mut jac)?;
                let new = phi.norm();
                if new >= res && new <= tol {
                    res = new;
                    break;
                }
                res = new;
            }
            self.stats.newton_iterations += iterations;
            if res.is_nan() || res > tol {
                let row = phi.iamax();
                return Err(ComplementError::NewtonNotConverged {
                    t,
                    residual: res,
                    tol,
                    iterations,
                    location: self
                        .sys
                        .source_of_row(row)
                        .map_or(format!("row {row}"), |s| {
                            self.sys.source_name(&self.model, s)
                        }),
                });
            }
        }
        let mut phi_t = DVector::zeros(m);
        self.ws.phi_t(&self.sys, phi_t.as_mut_slice()).map_err(ev)?;
        let phi_dot = &jac * DVector::from_column_slice(v) + phi_t;
        if changed || phi_dot.norm() > tol {
            let dv = min_norm_solve(&jac, &phi_dot, self.params.rank_tol);
            for (vi, d) in v.iter_mut().zip(dv.iter()) {
                *vi -= d;
            }
            self.stats.velocity_corrections += 1;
            changed = true;
        }
        Ok(changed)
    }
}

impl NaturalPartitioning {
    /// Φ (holonomic rows) and Φ_q (all rows, [ṙ, ω'] columns) at (t, q).
    fn eval_positions(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
        jac: &mut DMatrix<f64>,
    ) -> Result<DVector<f64>, ComplementError> {
        let ev = |e| ComplementError::Evaluation { t, source: e };
        self.load(t, q, v)?;
        self.ws
            .evaluate_constraints(&self.model, &self.sys, &self.state)
            .map_err(ev)?;
        let mut phi_all = vec![0.0; self.sys.n_rows()];
        self.ws.phi(&self.sys, &mut phi_all).map_err(ev)?;
        self.ws.phi_q_dense(&self.sys, jac).map_err(ev)?;
        Ok(DVector::from_column_slice(
            &phi_all[..self.sys.n_holonomic()],
        ))
    }
}

impl OdeSystem for NaturalPartitioning {
    fn dim(&self) -> usize {
        self.n_q() + self.n_v()
    }

    /// ẏ = [ṙ, ½G(p)ᵀω' per body; ü].
    fn rhs(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError> {
        let n = self.n_q();
        let (q, v) = y.split_at(n);
        let (dq, dv) = dydt.split_at_mut(n);
        for b in 0..self.model.n_bodies() {
            dq[7 * b..7 * b + 3].copy_from_slice(&v[6 * b..6 * b + 3]);
            let p = Vector4::new(q[7 * b + 3], q[7 * b + 4], q[7 * b + 5], q[7 * b + 6]);
            let w = Vector3::new(v[6 * b + 3], v[6 * b + 4], v[6 * b + 5]);
            let pd = 0.5 * g_matrix(&p).transpose() * w;
            dq[7 * b + 3..7 * b + 7].copy_from_slice(pd.as_slice());
        }
        self.accelerations(t, q, v, dv).map_err(system_error)
    }

    fn project(&mut self, t: f64, y: &mut [f64]) -> Result<bool, SystemError> {
        let n = self.n_q();
        let (q, v) = y.split_at_mut(n);
        self.correct(t, q, v).map_err(system_error)
    }
}

impl PartitionedSystem for NaturalPartitioning {
    fn dim_positions(&self) -> usize {
        self.n_q()
    }
    fn dim_velocities(&self) -> usize {
        self.n_v()
    }
    fn accelerations(
        &mut self,
        t: f64,
        x: &[f64],
        v: &[f64],
        a: &mut [f64],
    ) -> Result<(), SystemError> {
        NaturalPartitioning::accelerations(self, t, x, v, a).map_err(system_error)
    }
    /// r⁺ = r + h ṙ; p⁺ by the closed-form implicit midpoint rule (eq 5.5.4.6).
    fn advance_positions(
        &mut self,
        x: &[f64],
        v_half: &[f64],
        h: f64,
        x_out: &mut [f64],
    ) -> Result<(), SystemError> {
        for b in 0..self.model.n_bodies() {
            for c in 0..3 {
                x_out[7 * b + c] = x[7 * b + c] + h * v_half[6 * b + c];
            }
            let p = Vector4::new(x[7 * b + 3], x[7 * b + 4], x[7 * b + 5], x[7 * b + 6]);
            let w = Vector3::new(v_half[6 * b + 3], v_half[6 * b + 4], v_half[6 * b + 5]);
            let pn = midpoint_update_body(&p, &w, h);
            x_out[7 * b + 3..7 * b + 7].copy_from_slice(pn.as_slice());
        }
        Ok(())
    }
    fn project(&mut self, t: f64, x: &mut [f64], v: &mut [f64]) -> Result<bool, SystemError> {
        self.correct(t, x, v).map_err(system_error)
    }
}
