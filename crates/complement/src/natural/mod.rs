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
//!
//! The equations above are the meaning; by default ([`TreeSolver::Recursive`])
//! they are solved without forming A or AᵀMA: the open tree by the recursive
//! sweeps of [`recursive`] (O(b) per branch of b bodies), the cut joints through
//! their multipliers from `m_c` more tree solves and an `m_c × m_c` system
//! (O(n m_c)); [`TreeSolver::Dense`] forms the matrices as written (O(b³)).
//!
//! Every buffer of an evaluation (one [`BranchSystem`] and recursive factors per
//! branch, the global cut-joint system) is allocated at construction, the dense
//! Newton–Raphson buffers (O(m n)) at the first correction: with `par: Par::Seq`
//! an evaluation and every later projection allocate nothing; with
//! `par: Par::Rayon` only rayon's task scheduling may (`tests/no_alloc.rs`).

pub mod recursive;
pub mod tree;

use std::sync::Arc;

use mbs_constraints::{Baumgarte, SystemLayout, Workspace};
use mbs_integrators::{OdeSystem, PartitionedSystem, SystemError};
use mbs_kinematics::euler_params::{from_rotation_vector, g_matrix, normalize, product};
use mbs_kinematics::implicit_update::midpoint_update_body;
use mbs_linalg::Par;
use mbs_linalg::nullspace::{
    NullSpaceMethod, NullSpaceParams, NullSpaceWorkspace, null_space_into,
};
use mbs_model::body_coords::{
    angular, euler_params, euler_params_range, linear, linear_range, position, position_range,
};
use mbs_model::{Layout, Model, State, StateView};
use nalgebra::{DMatrix, DVector, DVectorView};

use crate::basis::{min_norm_solve_into, particular_into};
use crate::complement::system_error;
use crate::error::{ComplementError, check_len};
use crate::params::Stabilization;
use crate::redundancy::RowSelection;
use crate::singular::{SingularEvent, SingularityMonitor, confirm_crossing};
use crate::workspace::{MinNormWork, Scratch, cholesky_solve, fview, mmut, mref, mul};
use recursive::{ArticulatedBranch, Slots, pivoted_cholesky_solve};
use tree::{BranchSystem, OpenTree, build_branch_into, split_branch_into};

/// Largest |K| entry of the cut-joint Jacobian `K = B_c A` taken as round-off: a
/// `K` that small means the cut rows repeat the tree's rows.
const CUT_ROUNDOFF: f64 = 1e-9;

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

/// How the open-tree equations `AᵀMA üⁱ = Aᵀ(F − Mü_p)` and the cut-joint system
/// are solved. Both give the same accelerations within round-off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TreeSolver {
    /// Recursively, body by body (the articulated-body sweeps of `natural/recursive.rs`: O(b) per branch of b bodies, no
    /// A or AᵀMA formed); cut joints through their multipliers, `m_c + 1` tree
    /// solves and an `m_c × m_c` system (O(n m_c)).
    #[default]
    Recursive,
    /// The thesis' matrices as written: A_g, AᵀMA and its Cholesky factor per
    /// branch, the global A, `K = B_c A` and (null-space treatment) the second null
    /// space (O(b³) per branch, O(n²) memory).
    Dense,
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
    /// Where the branches are built and solved (default [`Par::Rayon`]); results
    /// do not depend on it.
    pub par: Par,
    /// Newton–Raphson: maximum iterations per correction (default 20).
    pub newton_max_iter: usize,
    /// Recursive (default) or dense solution of the tree and cut-joint equations.
    pub solver: TreeSolver,
}

impl Default for NaturalParams {
    fn default() -> Self {
        Self {
            cut: CutTreatment::NullSpace {
                method: NullSpaceMethod::Qr,
            },
            stabilization: Stabilization::None,
            rank_tol: 1e-10,
            par: Par::Rayon,
            newton_max_iter: 20,
            solver: TreeSolver::Recursive,
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
    tree: OpenTree,
    stats: NaturalStats,
    y0: Vec<f64>,
    work: NaturalWork,
    /// Rank loss of the cut-joint Jacobian `K = B_c A` between accepted steps.
    cut_monitor: Option<CutMonitor>,
}

/// The singular-configuration monitor of the cut-joint system (see
/// [`crate::singular`]): the independent rows of `K = B_c A` selected at the
/// initial state, and a buffer for the re-evaluation at accepted steps.
#[derive(Debug)]
struct CutMonitor {
    rows: Option<RowSelection>,
    rank: usize,
    monitor: SingularityMonitor,
    udd: Vec<f64>,
    /// q, u̇ at the last accepted step checked.
    q_prev: Vec<f64>,
    v_prev: Vec<f64>,
}

/// Preallocated scratch of [`NaturalPartitioning`]: one [`BranchWork`] per
/// branch, the global cut-joint system and the Newton–Raphson buffers.
#[derive(Debug)]
struct NaturalWork {
    gamma: DVector<f64>,
    gamma_bar: DVector<f64>,
    phi_dot: DVector<f64>,
    phi: DVector<f64>,
    forces: DVector<f64>,
    parts: Vec<BranchWork>,
    out: DVector<f64>,
    cut: CutWork,
    // Newton–Raphson
    phi_all: Vec<f64>,
    phi_h: DVector<f64>,
    phi_t: DVector<f64>,
    /// The dense Newton–Raphson buffers (O(m n)), made at the first correction.
    newton: Option<NewtonWork>,
}

/// Dense buffers of the Newton–Raphson correction: Φ_q and the minimum-norm
/// solves of positions and velocities.
#[derive(Debug)]
struct NewtonWork {
    jac: DMatrix<f64>,
    nr_pos: MinNormWork,
    nr_vel: MinNormWork,
}

impl NewtonWork {
    fn new(sys: &SystemLayout, n: usize) -> Self {
        let (m, m_h) = (sys.n_rows(), sys.n_holonomic());
        Self {
            jac: DMatrix::zeros(m, n),
            nr_pos: MinNormWork::new(m_h, n),
            nr_vel: MinNormWork::new(m, n),
        }
    }
}

/// One branch's buffers: its splits (and dense matrices), its recursive factors,
/// its accelerations (6 per body, branch order) and the dense solve's üⁱ_g and
/// Cholesky buffers (empty with the recursive solver).
#[derive(Debug)]
struct BranchWork {
    sys: BranchSystem,
    art: ArticulatedBranch,
    udd: DVector<f64>,
    x: DVector<f64>,
    chol: Vec<f64>,
    mem: Scratch,
}

/// The global system of step 3 (cut joints). The dense solver's matrices (A,
/// AᵀMA, B_c, the second null space) are empty with the recursive solver, whose
/// buffers are `wcols` (W = A(AᵀMA)⁻¹AᵀB_cᵀ, one body vector per cut row), the
/// `m_c × m_c` system and the scratch of `K = B_c A` (built only for the
/// cut-joint monitor).
#[derive(Debug)]
struct CutWork {
    /// Cut rows: (entry, local row).
    rows: Vec<(usize, usize)>,
    a: DMatrix<f64>,
    udd_p: DVector<f64>,
    mr: DMatrix<f64>,
    rhs: DVector<f64>,
    bc: DMatrix<f64>,
    k_mat: DMatrix<f64>,
    bu: DVector<f64>,
    r: DVector<f64>,
    uddi: DVector<f64>,
    ns: NullSpaceWorkspace,
    min_norm: MinNormWork,
    w_p: DVector<f64>,
    t_s: DVector<f64>,
    nbuf: Vec<f64>,
    red: Vec<f64>,
    mem: Scratch,
    // recursive
    wcols: Vec<DVector<f64>>,
    cmat: Vec<f64>,
    lambda: Vec<f64>,
    perm: Vec<usize>,
    y: Vec<f64>,
    cmem: Scratch,
    /// Branch of each body.
    branch_of: Vec<usize>,
    /// First column of each branch in üⁱ.
    col_off: Vec<usize>,
    kbuf: DVector<f64>,
    krow: DVector<f64>,
}

impl NaturalWork {
    fn new(model: &Model, sys: &SystemLayout, tree: &OpenTree, solver: TreeSolver) -> Self {
        let (m, m_h, n) = (sys.n_rows(), sys.n_holonomic(), 6 * model.n_bodies());
        let dense = solver == TreeSolver::Dense;
        let parts: Vec<BranchWork> = tree
            .branches
            .iter()
            .map(|br| {
                let bs = BranchSystem::new(br, sys, dense);
                let sd = bs.mass.nrows();
                BranchWork {
                    art: ArticulatedBranch::new(br),
                    udd: DVector::zeros(6 * br.links.len()),
                    x: DVector::zeros(sd),
                    chol: vec![0.0; sd * sd],
                    mem: Scratch::cholesky(sd),
                    sys: bs,
                }
            })
            .collect();
        let s: usize = parts.iter().map(|p| p.sys.n_independent).sum();
        let mut col_off = Vec::with_capacity(parts.len());
        let mut off = 0;
        for p in &parts {
            col_off.push(off);
            off += p.sys.n_independent;
        }
        let mut branch_of = vec![0; model.n_bodies()];
        for (g, br) in tree.branches.iter().enumerate() {
            for l in &br.links {
                branch_of[l.body] = g;
            }
        }
        let entries = sys.entries();
        let rows: Vec<(usize, usize)> = tree
            .cut_entries
            .iter()
            .flat_map(|&k| (0..entries[k].rows()).map(move |r| (k, r)))
            .collect();
        let mc = rows.len();
        // the dense solver's sizes (zero with the recursive solver)
        let (sd, nd, mcd) = if dense { (s, n, mc) } else { (0, 0, 0) };
        let (mcr, nr) = if dense { (0, 0) } else { (mc, n) };
        Self {
            gamma: DVector::zeros(m),
            gamma_bar: DVector::zeros(m),
            phi_dot: DVector::zeros(m),
            phi: DVector::zeros(m),
            forces: DVector::zeros(n),
            parts,
            out: DVector::zeros(n),
            cut: CutWork {
                rows,
                a: DMatrix::zeros(nd, sd),
                udd_p: DVector::zeros(nd),
                mr: DMatrix::zeros(sd, sd),
                rhs: DVector::zeros(sd),
                bc: DMatrix::zeros(mcd, nd),
                k_mat: DMatrix::zeros(mc, s),
                bu: DVector::zeros(mc),
                r: DVector::zeros(mc),
                uddi: DVector::zeros(sd),
                ns: NullSpaceWorkspace::new(mcd, sd),
                min_norm: MinNormWork::new(mcd, sd),
                w_p: DVector::zeros(sd),
                t_s: DVector::zeros(sd),
                nbuf: vec![0.0; sd * sd],
                red: vec![0.0; sd * sd],
                mem: Scratch::cholesky(sd),
                wcols: (0..mcr).map(|_| DVector::zeros(nr)).collect(),
                cmat: vec![0.0; mcr * mcr],
                lambda: vec![0.0; mcr],
                perm: vec![0; mcr],
                y: vec![0.0; mcr],
                cmem: Scratch::cholesky(mcr),
                branch_of,
                col_off,
                kbuf: DVector::zeros(nr),
                krow: DVector::zeros(if dense { 0 } else { s }),
            },
            phi_all: vec![0.0; m],
            phi_h: DVector::zeros(m_h),
            phi_t: DVector::zeros(m),
            newton: None,
        }
    }
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
        let work = NaturalWork::new(&model, &sys, &tree, params.solver);
        let mut np = Self {
            work,
            model,
            params,
            sys,
            ws,
            tree,
            stats,
            y0,
            cut_monitor: None,
        };
        np.cut_monitor = np.initial_cut_monitor(s0.t)?;
        Ok(np)
    }

    /// The cut-joint monitor at the initial state (`None` without cut joints or
    /// when the initial evaluation fails: the first right-hand side reports why);
    /// cut joints none of whose rows is independent of the open tree's (a joint
    /// given twice) are refused here, naming them.
    fn initial_cut_monitor(&mut self, t0: f64) -> Result<Option<CutMonitor>, ComplementError> {
        if self.tree.cut_entries.is_empty() {
            return Ok(None);
        }
        let mut udd = vec![0.0; self.n_v()];
        let y0 = self.y0.clone();
        let (q0, v0) = y0.split_at(self.n_q());
        if self.accelerations(t0, q0, v0, &mut udd).is_err() {
            return Ok(None);
        }
        self.fill_cut_k();
        self.stats.evaluations = 0;
        let k = &self.work.cut.k_mat;
        // K = B_c A has entries of the size of the joints' Jacobians (O(1) for the
        // unit-vector rows of any joint): all of it at round-off means every cut row
        // repeats rows of the tree, and its rank would only be noise
        if k.amax() <= CUT_ROUNDOFF {
            return Err(ComplementError::RedundantCutJoints {
                t: t0,
                joints: self.cut_joint_names(),
            });
        }
        let rows = RowSelection::select(k, self.params.rank_tol);
        let rank = rows.as_ref().map_or(k.nrows(), RowSelection::rank);
        Ok(Some(CutMonitor {
            rows,
            rank,
            monitor: SingularityMonitor::new(rank, k.ncols(), 1e-8),
            udd,
            q_prev: q0.to_vec(),
            v_prev: v0.to_vec(),
        }))
    }

    /// Errors when the motion reached or passed through a configuration where the
    /// cut-joint Jacobian `K = B_c A` (eqs 5.4.3.6–9) loses rank since the last
    /// accepted step: its null space (or the penalty system's conditioning) is
    /// discontinuous there and the motion may continue on another branch.
    fn check_singular(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<(), ComplementError> {
        let Some(mut cm) = self.cut_monitor.take() else {
            return Ok(());
        };
        let result = self.check_cut(&mut cm, t, q, v);
        self.cut_monitor = Some(cm);
        result
    }

    fn check_cut(
        &mut self,
        cm: &mut CutMonitor,
        t: f64,
        q: &[f64],
        v: &[f64],
    ) -> Result<(), ComplementError> {
        self.accelerations(t, q, v, &mut cm.udd)?;
        self.fill_cut_k();
        self.stats.evaluations -= 1; // a check, not an evaluation of the integrator
        let k = &self.work.cut.k_mat;
        let k_r = match &mut cm.rows {
            Some(sel) => {
                sel.gather(k, &self.work.cut.r);
                &sel.phi_q
            }
            None => k,
        };
        let mut event = cm.monitor.check(t, k_r);
        if let Err(SingularEvent::Crossed { t_prev, .. }) = event {
            // confirm on short sub-steps (a long step alone can trip the test)
            match self.confirm_cut_crossing(cm, t, q, v)? {
                Some(lost) => event = Err(SingularEvent::Crossed { t_prev, lost }),
                None => {
                    self.cut_k(cm, t, q, v)?;
                    cm.monitor.reset();
                    let k_r = cm.rows.as_ref().map_or(&self.work.cut.k_mat, |s| &s.phi_q);
                    event = cm.monitor.check(t, k_r);
                }
            }
        }
        let (rank_after, when) = match event {
            Ok(()) => {
                cm.q_prev.copy_from_slice(q);
                cm.v_prev.copy_from_slice(v);
                return Ok(());
            }
            Err(SingularEvent::Crossed { t_prev, lost }) => (
                cm.rank.saturating_sub(lost),
                format!("between t = {t_prev} and t = {t}"),
            ),
            Err(SingularEvent::Reached { rank }) => (rank, format!("at t = {t}")),
        };
        let k_r = cm.rows.as_ref().map_or(&self.work.cut.k_mat, |s| &s.phi_q);
        let k_r = k_r.clone_owned();
        let joints = self.cut_sources(&k_r, cm.rows.as_ref());
        Err(ComplementError::SingularConfiguration {
            t,
            method: "natural partitioning",
            rank: cm.rank,
            rank_after,
            when,
            joints,
        })
    }

    /// `K = B_c A` at (t, q, u̇) into the work buffers (and its selected rows).
    fn cut_k(
        &mut self,
        cm: &mut CutMonitor,
        t: f64,
        q: &[f64],
        v: &[f64],
    ) -> Result<(), ComplementError> {
        self.accelerations(t, q, v, &mut cm.udd)?;
        self.fill_cut_k();
        self.stats.evaluations -= 1; // a check, not an evaluation of the integrator
        if let Some(sel) = &mut cm.rows {
            sel.gather(&self.work.cut.k_mat, &self.work.cut.r);
        }
        Ok(())
    }

    /// [`confirm_crossing`] on the straight path from the last accepted (q, u̇)
    /// (Euler parameters renormalized) to (q, v).
    fn confirm_cut_crossing(
        &mut self,
        cm: &mut CutMonitor,
        t: f64,
        q: &[f64],
        v: &[f64],
    ) -> Result<Option<usize>, ComplementError> {
        let (q0, v0) = (cm.q_prev.clone(), cm.v_prev.clone());
        let (r, s) = (cm.rank, self.work.cut.k_mat.ncols());
        let nb = self.model.n_bodies();
        confirm_crossing(r, s, 32, |f| {
            let mut qs: Vec<f64> = q0.iter().zip(q).map(|(a, b)| a + f * (b - a)).collect();
            for b in 0..nb {
                let p = euler_params(&qs, b).normalize();
                qs[euler_params_range(b)].copy_from_slice(p.as_slice());
            }
            let vs: Vec<f64> = v0.iter().zip(v).map(|(a, b)| a + f * (b - a)).collect();
            self.cut_k(cm, t, &qs, &vs)?;
            Ok(cm
                .rows
                .as_ref()
                .map_or(&self.work.cut.k_mat, |sel| &sel.phi_q)
                .clone_owned())
        })
    }

    /// The cut joints whose rows of `K` make up its (nearly) dependent
    /// combination (error path; allocates).
    /// The joints (or drivers) of every cut row, comma separated.
    fn cut_joint_names(&self) -> String {
        let entries = self.sys.entries();
        let mut names: Vec<String> = Vec::new();
        for &(k, r) in &self.work.cut.rows {
            let global = entries[k].global_row(r);
            let name = match self.sys.source_of_row(global) {
                Some(src) => self.sys.source_name(&self.model, src),
                None => format!("constraint row {global}"),
            };
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names.join(", ")
    }

    fn cut_sources(&self, k_r: &DMatrix<f64>, rows: Option<&RowSelection>) -> String {
        let svd = k_r.clone().svd(true, false);
        let Some(u) = svd.u else {
            return "?".into();
        };
        let col = u.column(svd.singular_values.imin());
        let big = col.amax();
        let entries = self.sys.entries();
        let mut names: Vec<String> = Vec::new();
        for i in 0..k_r.nrows() {
            if col[i].abs() >= 0.2 * big {
                let row = rows.map_or(i, |sel| sel.rows()[i]);
                let (k, r) = self.work.cut.rows[row];
                let global = entries[k].global_row(r);
                let name = match self.sys.source_of_row(global) {
                    Some(src) => self.sys.source_name(&self.model, src),
                    None => format!("constraint row {global}"),
                };
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        names.join(", ")
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

    /// (t, q, u̇) as a borrowed state (the lengths checked).
    fn view<'s>(
        &self,
        t: f64,
        q: &'s [f64],
        v: &'s [f64],
    ) -> Result<StateView<'s>, ComplementError> {
        check_len("positions", self.n_q(), q.len())?;
        check_len("velocities", self.n_v(), v.len())?;
        Ok(StateView::new(Layout::EulerParamsOmega, t, q, v))
    }

    /// ü = [r̈, ω̇'] per body at (t, q, u̇) into `udd` (length 6 n_b).
    /// Allocation-free with `par: Par::Seq` (every buffer is preallocated;
    /// with `par: Par::Rayon` the branches run as rayon tasks, whose scheduling
    /// may allocate).
    pub fn accelerations(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
        udd: &mut [f64],
    ) -> Result<(), ComplementError> {
        check_len("accelerations", self.n_v(), udd.len())?;
        let state = self.view(t, q, v)?;
        let ev = |e| ComplementError::Evaluation { t, source: e };
        self.ws
            .evaluate(&self.model, &self.sys, state)
            .map_err(ev)?;
        let m = self.sys.n_rows();
        let m_h = self.sys.n_holonomic();
        let w = &mut self.work;
        self.ws
            .gamma(&self.sys, w.gamma.as_mut_slice())
            .map_err(ev)?;
        self.ws
            .phi_dot(&self.sys, w.phi_dot.as_mut_slice())
            .map_err(ev)?;
        self.ws.phi(&self.sys, w.phi.as_mut_slice()).map_err(ev)?;
        self.ws
            .generalized_forces(&self.sys, w.forces.as_mut_slice())
            .map_err(ev)?;
        for i in m_h..m {
            w.phi[i] = 0.0; // position level only for holonomic rows
        }
        w.gamma_bar.copy_from(&w.gamma);
        if let Stabilization::Baumgarte { alpha, beta } = self.params.stabilization {
            Baumgarte { alpha, beta }.apply(
                w.gamma_bar.as_mut_slice(),
                &w.phi.as_slice()[..m_h],
                w.phi_dot.as_slice(),
            );
        }
        // 1. the branches (parallel): splits, then the dense matrices or the
        // recursive factors and the open-tree accelerations
        let (model, ws, sys, tol) = (&*self.model, &self.ws, &self.sys, self.params.rank_tol);
        let (gamma_bar, forces) = (&w.gamma_bar, &w.forces);
        let dense = self.params.solver == TreeSolver::Dense;
        let build = |p: &mut BranchWork, br: &tree::Branch| {
            split_branch_into(t, model, ws, sys, br, gamma_bar, tol, &mut p.sys)?;
            if dense {
                return build_branch_into(sys, br, forces, &mut p.sys);
            }
            if !p.art.factor(br, &p.sys.splits, sys) {
                return Err(singular_mass(t, "AᵀMA", p.sys.n_independent));
            }
            for (l, link) in br.links.iter().enumerate() {
                let b = mbs_model::body_coords::v_range(link.body).start;
                p.udd.rows_mut(6 * l, 6).copy_from(&forces.rows(b, 6));
            }
            p.art.solve(br, p.udd.as_mut_slice(), Slots::Local, true);
            Ok(())
        };
        self.params
            .par
            .try_for_each_zip(&mut w.parts, &self.tree.branches, build)?;
        let s: usize = w.parts.iter().map(|p| p.sys.n_independent).sum();
        self.stats.n_independent = s;
        match (dense, self.tree.cut_entries.is_empty()) {
            (true, true) => self.solve_open(t)?,
            (true, false) => self.solve_cut(t)?,
            (false, cut_free) => {
                self.gather_open();
                if !cut_free {
                    self.solve_cut_recursive(t)?;
                }
            }
        }
        self.stats.evaluations += 1;
        let out = &self.work.out;
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

    /// Step 2 (dense solver): branch by branch, into `work.out`.
    fn solve_open(&mut self, t: f64) -> Result<(), ComplementError> {
        let solve = |b: &mut BranchWork, _: &tree::Branch| {
            // AᵀMA üⁱ = Aᵀ(F − Mü_p),  ü = ü_p + A üⁱ
            let p = &b.sys;
            let s = p.mass.nrows();
            b.chol.copy_from_slice(p.mass.as_slice());
            b.x.copy_from(&p.rhs);
            if !cholesky_solve(&mut b.chol, s, b.x.as_mut_slice(), 1, &mut b.mem) {
                return Err(singular_mass(t, "AᵀMA", s));
            }
            b.udd.copy_from(&p.udd_p);
            b.udd.gemv(1.0, &p.a, &b.x, 1.0);
            Ok(())
        };
        let w = &mut self.work;
        self.params
            .par
            .try_for_each_zip(&mut w.parts, &self.tree.branches, solve)?;
        self.gather_open();
        Ok(())
    }

    /// The branches' accelerations into `work.out` (body order).
    fn gather_open(&mut self) {
        let w = &mut self.work;
        for (br, p) in self.tree.branches.iter().zip(&w.parts) {
            for (l, link) in br.links.iter().enumerate() {
                w.out
                    .rows_mut(6 * link.body, 6)
                    .copy_from(&p.udd.rows(6 * l, 6));
            }
        }
    }

    /// Step 3 with the recursive solver, from the open-tree accelerations ü₀ in
    /// `work.out`. With the cut-joint multipliers λ, `AᵀMA üⁱ = Aᵀ(F − Mü_p) − Kᵀλ`
    /// (eq 5.4.3.9), so `ü = ü₀ − W λ` with `W = A(AᵀMA)⁻¹AᵀB_cᵀ` (one recursive
    /// tree solve per cut row, [`ArticulatedBranch::solve`] with the forces
    /// `B_cᵀ e_i`, on the one or two branches the row touches) and, with
    /// `C = B_c W = K(AᵀMA)⁻¹Kᵀ`:
    ///
    /// * penalty, `λ = α(B_c ü − Γ_c + 2ξωΦ̇_c + ω²Φ_c)`: `(C + I/α) λ = B_c ü₀ −
    ///   Γ_c + 2ξωΦ̇_c + ω²Φ_c` — the Woodbury form of `(AᵀMA + αKᵀK) üⁱ = …`;
    /// * second null space: `C λ = B_c ü₀ − Γ̄_c`, i.e. `K üⁱ = Γ̄_c − B_c ü_p`
    ///   with üⁱ minimizing the same quadratic form over that affine set, which is
    ///   what `üⁱ = S(Γ̄_c − B_c ü_p) + N w` with `NᵀAᵀMAN w = …` computes for any
    ///   null-space basis N of K (the `method` matters only to the dense solver).
    ///   Redundant cut rows (C singular) are dropped by the pivots of a
    ///   diagonally pivoted Cholesky factorization below `rank_tol` (for
    ///   consistent rows the same ü; the null-space form instead least-squares
    ///   inconsistent ones).
    ///
    /// O(n m_c + m_c³); allocation-free.
    fn solve_cut_recursive(&mut self, t: f64) -> Result<(), ComplementError> {
        let NaturalWork {
            parts,
            cut: c,
            out,
            gamma,
            gamma_bar,
            phi,
            phi_dot,
            ..
        } = &mut self.work;
        let entries = self.sys.entries();
        let (ws, branches) = (&self.ws, &self.tree.branches);
        let parts = &*parts;
        let branch_of = &c.branch_of;
        // W: one tree solve per cut row (parallel over the rows)
        let column = |col: &mut DVector<f64>, &(k, r): &(usize, usize)| {
            let touched = scatter_cut_row(entries, ws, (k, r), branch_of, col.as_mut_slice());
            for g in touched.into_iter().flatten() {
                parts[g]
                    .art
                    .solve(&branches[g], col.as_mut_slice(), Slots::Global, false);
            }
            Ok::<(), ComplementError>(())
        };
        self.params
            .par
            .try_for_each_zip(&mut c.wcols, &c.rows, column)?;
        // B_c x for the i-th cut row
        let row_dot = |i: usize, x: &DVector<f64>| {
            let (k, r) = c.rows[i];
            let e = &entries[k];
            let blk = ws.block(k);
            let mut acc = 0.0;
            for (body, jb) in [(e.body_i, &blk.ji), (e.body_j, &blk.jj)] {
                if let mbs_model::BodyRef::Body(id) = body {
                    for j in 0..6 {
                        acc += jb[(r, j)] * x[6 * id.0 + j];
                    }
                }
            }
            acc
        };
        let mc = c.rows.len();
        for i in 0..mc {
            for j in 0..mc {
                c.cmat[j + i * mc] = row_dot(j, &c.wcols[i]);
            }
        }
        let sel = |v: &DVector<f64>, i: usize| v[entries[c.rows[i].0].global_row(c.rows[i].1)];
        match self.params.cut {
            CutTreatment::Penalty { alpha, xi, omega } => {
                let stab = Baumgarte::from_damping(xi, omega);
                for i in 0..mc {
                    let phi_i = Some(sel(phi, i));
                    c.lambda[i] =
                        row_dot(i, out) + stab.neg_row(sel(gamma, i), phi_i, sel(phi_dot, i));
                    c.cmat[i + i * mc] += 1.0 / alpha;
                }
                c.r.as_mut_slice().copy_from_slice(&c.lambda);
                if !cholesky_solve(&mut c.cmat, mc, &mut c.lambda, 1, &mut c.cmem) {
                    return Err(singular_mass(t, "AᵀMA + αKᵀK", self.stats.n_independent));
                }
            }
            CutTreatment::NullSpace { .. } => {
                for i in 0..mc {
                    c.lambda[i] = row_dot(i, out) - sel(gamma_bar, i);
                }
                c.r.as_mut_slice().copy_from_slice(&c.lambda);
                pivoted_cholesky_solve(
                    &mut c.cmat,
                    mc,
                    &mut c.lambda,
                    self.params.rank_tol,
                    &mut c.perm,
                    &mut c.y,
                );
            }
        }
        for (col, &l) in c.wcols.iter().zip(&c.lambda) {
            out.axpy(-l, col, 1.0);
        }
        Ok(())
    }

    /// `K = B_c A` (eqs 5.4.3.6–9) into `work.cut.k_mat` from the splits of the
    /// last evaluation: one backward sweep `Aᵀ B_cᵀ e_i` per cut row
    /// ([`ArticulatedBranch::transpose_apply`]), O(n m_c). The dense solver builds
    /// K in every evaluation.
    fn fill_cut_k(&mut self) {
        if self.params.solver == TreeSolver::Dense {
            return;
        }
        let NaturalWork { parts, cut: c, .. } = &mut self.work;
        let entries = self.sys.entries();
        for i in 0..c.rows.len() {
            c.krow.fill(0.0);
            let touched = scatter_cut_row(
                entries,
                &self.ws,
                c.rows[i],
                &c.branch_of,
                c.kbuf.as_mut_slice(),
            );
            for g in touched.into_iter().flatten() {
                let p = &parts[g];
                let off = c.col_off[g];
                p.art.transpose_apply(
                    &self.tree.branches[g],
                    &p.sys.splits,
                    &p.sys.offsets,
                    c.kbuf.as_mut_slice(),
                    Slots::Global,
                    &mut c.krow.as_mut_slice()[off..off + p.sys.n_independent],
                );
            }
            for (j, x) in c.krow.iter().enumerate() {
                c.k_mat[(i, j)] = *x;
            }
        }
    }

    /// Step 3 (dense solver): global A, then the cut constraints by penalty or null space,
    /// into `work.out`.
    fn solve_cut(&mut self, t: f64) -> Result<(), ComplementError> {
        let w = &mut self.work;
        let c = &mut w.cut;
        let s = c.mr.nrows();
        c.a.fill(0.0);
        c.udd_p.fill(0.0);
        c.mr.fill(0.0);
        let mut off = 0;
        for (br, p) in self.tree.branches.iter().zip(&w.parts) {
            let p = &p.sys;
            let sg = p.mass.nrows();
            for (l, link) in br.links.iter().enumerate() {
                c.a.view_mut((6 * link.body, off), (6, sg))
                    .copy_from(&p.a.rows(6 * l, 6));
                c.udd_p
                    .rows_mut(6 * link.body, 6)
                    .copy_from(&p.udd_p.rows(6 * l, 6));
            }
            c.mr.view_mut((off, off), (sg, sg)).copy_from(&p.mass);
            c.rhs.rows_mut(off, sg).copy_from(&p.rhs);
            off += sg;
        }
        // cut rows B_c from the blocks
        let entries = self.sys.entries();
        let rows = &c.rows;
        let mc = rows.len();
        let sel = |v: &DVector<f64>, i: usize| v[entries[rows[i].0].global_row(rows[i].1)];
        c.bc.fill(0.0);
        for (i, &(k, r)) in rows.iter().enumerate() {
            let e = &entries[k];
            let blk = self.ws.block(k);
            for (body, jb) in [(e.body_i, &blk.ji), (e.body_j, &blk.jj)] {
                if let mbs_model::BodyRef::Body(id) = body {
                    for col in 0..6 {
                        c.bc[(i, 6 * id.0 + col)] += jb[(r, col)];
                    }
                }
            }
        }
        let n = c.a.nrows();
        mul(
            mmut(c.k_mat.as_mut_slice(), mc, s),
            fview(&c.bc),
            fview(&c.a),
        );
        c.bu.gemv(1.0, &c.bc, &c.udd_p, 0.0);
        let singular = |what| singular_mass(t, what, s);
        match self.params.cut {
            CutTreatment::Penalty { alpha, xi, omega } => {
                // (AᵀMA + α KᵀK) üⁱ = Aᵀ(F − Mü_p) − α Kᵀ (B_c ü_p − Γ̄_c),
                // −Γ̄_c = −Γ_c + 2ξωΦ̇_c + ω²Φ_c
                let stab = Baumgarte::from_damping(xi, omega);
                for i in 0..mc {
                    let phi = Some(sel(&w.phi, i));
                    c.r[i] = c.bu[i] + stab.neg_row(sel(&w.gamma, i), phi, sel(&w.phi_dot, i));
                }
                c.mr.gemm_tr(alpha, &c.k_mat, &c.k_mat, 1.0);
                c.rhs.gemv_tr(-alpha, &c.k_mat, &c.r, 1.0);
                c.uddi.copy_from(&c.rhs);
                if !cholesky_solve(c.mr.as_mut_slice(), s, c.uddi.as_mut_slice(), 1, &mut c.mem) {
                    return Err(singular("AᵀMA + αKᵀK"));
                }
            }
            CutTreatment::NullSpace { method } => {
                let nsp = NullSpaceParams {
                    rank_tol: self.params.rank_tol,
                    compute_s: true,
                };
                let mass = (method == NullSpaceMethod::WangHuston).then_some(&c.mr);
                null_space_into(method, &c.k_mat, mass, &nsp, &mut c.ns).map_err(|source| {
                    ComplementError::NullSpace {
                        t,
                        method: method.name(),
                        source,
                    }
                })?;
                // target Γ̄_c − B_c ü_p (in c.r)
                for i in 0..mc {
                    c.r[i] = sel(&w.gamma_bar, i) - c.bu[i];
                }
                particular_into(
                    &c.ns,
                    &c.k_mat,
                    &c.r,
                    self.params.rank_tol,
                    &mut c.min_norm,
                    &mut c.w_p,
                );
                let kn = c.ns.p().ncols();
                let nm = mref(c.ns.p_data(), s, kn);
                // NᵀAᵀMAN w = Nᵀ (Aᵀ(F − Mü_p) − AᵀMA w_p)
                mul(mmut(&mut c.nbuf, s, kn), fview(&c.mr), nm);
                mul(
                    mmut(&mut c.red, kn, kn),
                    nm.transpose(),
                    mref(&c.nbuf, s, kn),
                );
                c.t_s.copy_from(&c.rhs);
                c.t_s.gemv(-1.0, &c.mr, &c.w_p, 1.0);
                let wv = &mut c.uddi.as_mut_slice()[..kn];
                mul(
                    mmut(wv, kn, 1),
                    nm.transpose(),
                    mref(c.t_s.as_slice(), s, 1),
                );
                if !cholesky_solve(&mut c.red, kn, wv, 1, &mut c.mem) {
                    return Err(singular("NᵀAᵀMAN"));
                }
                // üⁱ = w_p + N w
                mul(mmut(c.t_s.as_mut_slice(), s, 1), nm, mref(wv, kn, 1));
                c.t_s += &c.w_p;
                c.uddi.copy_from(&c.t_s);
            }
        }
        // ü = ü_p + A üⁱ
        w.out.copy_from(&c.udd_p);
        w.out.gemv(1.0, &c.a, &c.uddi, 1.0);
        let _ = n;
        Ok(())
    }

    /// Newton–Raphson correction of positions (small body rotations δφ' applied
    /// as p ← p ⊗ p(δφ')) and velocities when [`Stabilization::NewtonRaphson`]
    /// is selected; `Ok(true)` if anything changed. Dense (minimum-norm solves
    /// with Φ_q, O(m n) memory, allocated at the first call); it runs only after
    /// accepted steps.
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
        self.eval_positions(t, q, v)?;
        let mut res = self.work.phi_h.norm();
        let mut changed = false;
        let mut iterations = 0;
        if res > tol {
            changed = true;
            self.stats.position_corrections += 1;
            while res > 1e-2 * tol && iterations < self.params.newton_max_iter {
                let w = &mut self.work;
                let nw = newton_work(&mut w.newton, &self.sys, 6 * self.model.n_bodies());
                min_norm_solve_into(
                    &nw.jac,
                    w.phi_h.as_slice(),
                    self.params.rank_tol,
                    &mut nw.nr_pos,
                );
                let d = nw.nr_pos.x.as_slice();
                for b in 0..self.model.n_bodies() {
                    for (qi, di) in q[position_range(b)].iter_mut().zip(&d[linear_range(b)]) {
                        *qi -= di;
                    }
                    let p = euler_params(q, b);
                    let dphi = -angular(d, b);
                    let pn = normalize(&product(&p, &from_rotation_vector(&dphi)));
                    q[euler_params_range(b)].copy_from_slice(pn.as_slice());
                }
                iterations += 1;
                self.eval_positions(t, q, v)?;
                let new = self.work.phi_h.norm();
                if new >= res && new <= tol {
                    res = new;
                    break;
                }
                res = new;
            }
            self.stats.newton_iterations += iterations;
            if res.is_nan() || res > tol {
                let row = self.work.phi_h.iamax();
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
        let w = &mut self.work;
        let nw = newton_work(&mut w.newton, &self.sys, 6 * self.model.n_bodies());
        self.ws
            .phi_t(&self.sys, w.phi_t.as_mut_slice())
            .map_err(ev)?;
        // Φ̇ = Φ_q u̇ + Φ_t (in phi_dot)
        let vv = DVectorView::from_slice(v, v.len());
        w.phi_dot.gemv(1.0, &nw.jac, &vv, 0.0);
        w.phi_dot += &w.phi_t;
        if changed || w.phi_dot.norm() > tol {
            min_norm_solve_into(
                &nw.jac,
                w.phi_dot.as_slice(),
                self.params.rank_tol,
                &mut nw.nr_vel,
            );
            for (vi, d) in v.iter_mut().zip(nw.nr_vel.x.iter()) {
                *vi -= d;
            }
            self.stats.velocity_corrections += 1;
            changed = true;
        }
        Ok(changed)
    }
}

impl NaturalPartitioning {
    /// Φ (holonomic rows, into `work.phi_h`) and Φ_q (all rows, [ṙ, ω']
    /// columns, into `work.jac`) at (t, q).
    fn eval_positions(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<(), ComplementError> {
        let ev = |e| ComplementError::Evaluation { t, source: e };
        let state = self.view(t, q, v)?;
        self.ws
            .evaluate_constraints(&self.model, &self.sys, state)
            .map_err(ev)?;
        let w = &mut self.work;
        self.ws.phi(&self.sys, &mut w.phi_all).map_err(ev)?;
        let nw = newton_work(&mut w.newton, &self.sys, 6 * self.model.n_bodies());
        self.ws.phi_q_dense(&self.sys, &mut nw.jac).map_err(ev)?;
        let m_h = self.sys.n_holonomic();
        w.phi_h.as_mut_slice().copy_from_slice(&w.phi_all[..m_h]);
        Ok(())
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
            dq[position_range(b)].copy_from_slice(&v[linear_range(b)]);
            let pd = 0.5 * g_matrix(&euler_params(q, b)).transpose() * angular(v, b);
            dq[euler_params_range(b)].copy_from_slice(pd.as_slice());
        }
        self.accelerations(t, q, v, dv).map_err(system_error)
    }

    /// The Newton–Raphson correction when selected, then the check that the cut
    /// joints kept their rank since the last accepted step.
    fn project(&mut self, t: f64, y: &mut [f64]) -> Result<bool, SystemError> {
        let n = self.n_q();
        let (q, v) = y.split_at_mut(n);
        let changed = self.correct(t, q, v).map_err(system_error)?;
        self.check_singular(t, q, v).map_err(system_error)?;
        Ok(changed)
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
            let (r, rd) = (position(x, b), linear(v_half, b));
            x_out[position_range(b)].copy_from_slice((r + h * rd).as_slice());
            let pn = midpoint_update_body(&euler_params(x, b), &angular(v_half, b), h);
            x_out[euler_params_range(b)].copy_from_slice(pn.as_slice());
        }
        Ok(())
    }
    fn project(&mut self, t: f64, x: &mut [f64], v: &mut [f64]) -> Result<bool, SystemError> {
        let changed = self.correct(t, x, v).map_err(system_error)?;
        self.check_singular(t, x, v).map_err(system_error)?;
        Ok(changed)
    }
}

/// The Newton–Raphson buffers, made at the first correction (O(m n) dense: a
/// front-end that only evaluates right-hand sides stays O(n) in memory).
fn newton_work<'a>(
    newton: &'a mut Option<NewtonWork>,
    sys: &SystemLayout,
    n: usize,
) -> &'a mut NewtonWork {
    newton.get_or_insert_with(|| NewtonWork::new(sys, n))
}

/// AᵀMA (or its cut-joint system) not positive definite.
fn singular_mass(t: f64, what: &'static str, rank: usize) -> ComplementError {
    ComplementError::SingularMass {
        t,
        what,
        method: "natural partitioning",
        rank,
    }
}

/// The cut row `(k, r)` (row `r` of constraint entry `k`) as a vector `B_cᵀ e` over the
/// 6 velocity coordinates per body, written into `out` (zeroed first), and the branches
/// of the bodies it touches (at most two, each once).
fn scatter_cut_row(
    entries: &[mbs_constraints::ConstraintEntry],
    ws: &Workspace,
    (k, r): (usize, usize),
    branch_of: &[usize],
    out: &mut [f64],
) -> [Option<usize>; 2] {
    out.fill(0.0);
    let e = &entries[k];
    let blk = ws.block(k);
    let mut touched = [None; 2];
    for (slot, (body, jb)) in [(e.body_i, &blk.ji), (e.body_j, &blk.jj)]
        .into_iter()
        .enumerate()
    {
        if let mbs_model::BodyRef::Body(id) = body {
            for j in 0..6 {
                out[6 * id.0 + j] += jb[(r, j)];
            }
            touched[slot] = Some(branch_of[id.0]);
        }
    }
    if touched[1] == touched[0] {
        touched[1] = None;
    }
    touched
}
