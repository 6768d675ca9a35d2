//! [`AlfDca`]: the ALF-DCA front-end as an ODE system, its workspace and statistics.
//!
//! # State layout
//! y = [q; v] with, per body i (absolute coordinates, `Layout::EulerParamsOmega`):
//! `q[7i..7i+3]` = r, `q[7i+3..7i+7]` = p (Euler parameters, scalar first);
//! `v[6i..6i+3]` = ṙ, `v[6i+3..6i+6]` = ω' (body-frame angular velocity). So
//! `dim = 13 n`, `y[..7n]` = q, `y[7n..]` = v, and ẏ = [ṙ; ½G(p)ᵀω'; r̈; ω̇'].
//!
//! The paper writes the bodies' equations in q̇ = [ṙ, ṗ] with a singular 7×7 mass
//! matrix and one normalization constraint per body (eqs 1–8). We use the equivalent
//! velocities [ṙ, ω'] (NOTATION.md): the mass block diag(mI, J') is positive
//! definite, so the normalization rows and their multipliers λᴺ (eqs 4–5, 7–8) are
//! not needed; the joint rows, their multipliers and every assembly/disassembly
//! formula are unchanged (Φ_{q} are then the [ṙ; ω'] Jacobian blocks). The
//! accelerations are the same physical ones: ω̇' = 2G p̈. The Euler parameters are
//! renormalized by the position projection.

use std::sync::Arc;

use mbs_constraints::{ConstraintSource, SystemLayout, Workspace};
use mbs_kinematics::euler_params::g_matrix;
use mbs_model::body_coords::{
    angular, euler_params, euler_params_range, linear_range, position_range, v_range,
};
use mbs_model::{BodyId, JointId, Layout, Model, State, StateView};
use nalgebra::{DVector, Matrix3, Vector6};

use crate::assembly::{Ctx, matrix_node, vector_up};
use crate::disassembly::{gather, vector_down};
use crate::error::DcaError;
use crate::handles::Plan;
use crate::params::{DcaParams, PenaltyScale};
use crate::tree::{down, up};

/// Counters of an [`AlfDca`] since construction (or [`AlfDca::reset_stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DcaStats {
    /// Acceleration evaluations (right-hand sides).
    pub evaluations: usize,
    /// Multiplier iterations over all evaluations (eqs 6–8, 17).
    pub iterations: usize,
    /// Multiplier iterations of the last evaluation.
    pub last_iterations: usize,
    /// Evaluations that stopped at the iteration cap without meeting ε_a.
    pub unconverged: usize,
    /// Matrix passes (formation of the M_ij of eqs 27–30).
    pub matrix_passes: usize,
    /// Projections applied (positions and velocities).
    pub projections: usize,
    /// Position-projection iterations over all projections.
    pub position_iterations: usize,
    /// Velocity-projection iterations over all projections.
    pub velocity_iterations: usize,
    /// Projections whose position or velocity iterations stopped at the cap.
    pub unconverged_projections: usize,
}

/// ALF-DCA (Malczyk & Frączek 2012) for an `mbs-model` [`Model`]: parallel
/// divide-and-conquer assembly/disassembly with augmented-Lagrangian multiplier
/// iterations and DCA-form mass-orthogonal projections. See the crate docs.
#[derive(Debug)]
pub struct AlfDca {
    pub(crate) model: Arc<Model>,
    pub(crate) sys: SystemLayout,
    pub(crate) ws: Workspace,
    pub(crate) params: DcaParams,
    pub(crate) plan: Plan,
    pub(crate) masses: Vec<f64>,
    pub(crate) inertias: Vec<Matrix3<f64>>,
    /// Inverse centroidal inertias J'⁻¹ (for the relative penalty).
    pub(crate) inv_inertias: Vec<Matrix3<f64>>,
    /// Per entry, the penalty α_r of each row with which the matrices were formed
    /// (see [`PenaltyScale`]).
    pub(crate) alpha_rows: Vec<Vector6<f64>>,
    /// Per entry γ̄ (accelerations) or Φ (positions) or Φ_t (velocities).
    pub(crate) c: Vec<Vector6<f64>>,
    pub(crate) leaf_rhs: Vec<f64>,
    pub(crate) forces: Vec<f64>,
    pub(crate) sol: Vec<f64>,
    pub(crate) prev: Vec<f64>,
    pub(crate) acc: Vec<f64>,
    pub(crate) correction: Vec<f64>,
    /// Velocity iterate of a projection (6 per body).
    pub(crate) vel: Vec<f64>,
    /// Best position iterate of a projection (7 per body).
    pub(crate) best_q: Vec<f64>,
    pub(crate) multipliers: Vec<f64>,
    /// Positions, time, penalty and level (holonomic rows only?) at which the matrices
    /// were formed.
    pub(crate) cache_q: Vec<f64>,
    pub(crate) cache_t: f64,
    pub(crate) cache_alpha: Option<PenaltyScale>,
    pub(crate) cache_level: Option<bool>,
    pub(crate) stats: DcaStats,
    pub(crate) hook_calls: usize,
}

impl AlfDca {
    /// Builds the front-end and its workspace (all storage allocated here).
    pub fn new(model: Arc<Model>, params: DcaParams) -> Self {
        let sys = SystemLayout::new(&model, Layout::EulerParamsOmega);
        let ws = Workspace::new(&sys);
        let n = model.n_bodies();
        let ne = sys.entries().len();
        let plan = Plan::new(&model, &sys);
        Self {
            masses: (0..n).map(|b| sys.mass(b)).collect(),
            inertias: (0..n).map(|b| *sys.inertia(b)).collect(),
            inv_inertias: (0..n)
                .map(|b| {
                    sys.inertia(b)
                        .try_inverse()
                        .unwrap_or_else(|| Matrix3::from_element(f64::NAN))
                })
                .collect(),
            alpha_rows: vec![Vector6::zeros(); ne],
            c: vec![Vector6::zeros(); ne],
            leaf_rhs: vec![0.0; 6 * n],
            forces: vec![0.0; 6 * n],
            sol: vec![0.0; 6 * n],
            prev: vec![0.0; 6 * n],
            acc: vec![0.0; 6 * n],
            correction: vec![0.0; 6 * n],
            vel: vec![0.0; 6 * n],
            best_q: vec![0.0; 7 * n],
            multipliers: vec![0.0; sys.n_rows()],
            cache_q: vec![0.0; 7 * n],
            cache_t: 0.0,
            cache_alpha: None,
            cache_level: None,
            stats: DcaStats::default(),
            hook_calls: 0,
            model,
            sys,
            ws,
            params,
            plan,
        }
    }

    /// The model.
    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }
    /// The parameters.
    pub fn params(&self) -> &DcaParams {
        &self.params
    }
    /// Changes the parameters (the workspace is kept).
    pub fn set_params(&mut self, params: DcaParams) {
        self.params = params;
        self.cache_level = None;
    }
    /// The constraint layout (rows of [`Self::multipliers`]), in `Layout::EulerParamsOmega`.
    pub fn layout(&self) -> &SystemLayout {
        &self.sys
    }
    /// The counters.
    pub fn stats(&self) -> &DcaStats {
        &self.stats
    }
    /// Resets the counters.
    pub fn reset_stats(&mut self) {
        self.stats = DcaStats::default();
    }
    /// Number of bodies.
    pub fn n_bodies(&self) -> usize {
        self.model.n_bodies()
    }
    /// Largest number of handles of a sub-assembly (2 for chains and single loops).
    pub fn max_handles(&self) -> usize {
        self.plan.max_handles()
    }

    /// The model's initial state as y = [q; v] (see the module docs).
    pub fn initial_state(&self) -> Vec<f64> {
        let s = State::initial(&self.model, Layout::EulerParamsOmega);
        let mut y = s.q.as_slice().to_vec();
        y.extend_from_slice(s.v.as_slice());
        y
    }

    /// y = [q; v] of a state in any layout.
    pub fn from_state(&self, state: &State) -> Vec<f64> {
        let s = state.to_layout(Layout::EulerParamsOmega);
        let mut y = s.q.as_slice().to_vec();
        y.extend_from_slice(s.v.as_slice());
        y
    }

    /// The state (t, y) as an absolute-coordinate [`State`] in `Layout::EulerParamsOmega`.
    pub fn to_state(&self, t: f64, y: &[f64]) -> State {
        let nq = 7 * self.n_bodies();
        State {
            layout: Layout::EulerParamsOmega,
            t,
            q: DVector::from_column_slice(&y[..nq]),
            v: DVector::from_column_slice(&y[nq..]),
        }
    }

    /// Accelerations [r̈; ω̇'] (6 per body) of the last evaluation.
    pub fn accelerations(&self) -> &[f64] {
        &self.acc
    }

    /// Multipliers λ of the last evaluation, one per row of [`Self::layout`] (eq 17:
    /// λ = λ* + α(Φ_q q̈ + γ̄) after the last iteration; NOTATION sign: Φ_qᵀλ is the
    /// constraint force on the left-hand side).
    pub fn multipliers(&self) -> &[f64] {
        &self.multipliers
    }

    /// Reaction of a joint at the last evaluation: the generalized constraint forces
    /// −Φ_{q_i}ᵀλ and −Φ_{q_j}ᵀλ on the bodies of its markers i and j, each as
    /// [force (global); torque about the centre of mass (body frame)] (zero for
    /// ground). `None` if the model has no such joint.
    pub fn joint_reaction(&self, joint: JointId) -> Option<(Vector6<f64>, Vector6<f64>)> {
        let e = self
            .sys
            .entries()
            .iter()
            .position(|en| en.source == ConstraintSource::Joint(joint))?;
        let entry = &self.sys.entries()[e];
        let blk = self.ws.block(e);
        let mut lam = Vector6::zeros();
        for row in 0..entry.rows() {
            lam[row] = self.multipliers[entry.global_row(row)];
        }
        Some((-blk.ji.tr_mul(&lam), -blk.jj.tr_mul(&lam)))
    }

    pub(crate) fn body_name(&self, b: usize) -> String {
        self.model.body(BodyId(b)).name.clone()
    }

    pub(crate) fn check_len(
        &self,
        what: &'static str,
        expected: usize,
        got: usize,
    ) -> Result<(), DcaError> {
        if expected == got {
            Ok(())
        } else {
            Err(DcaError::Dimension {
                what,
                expected,
                got,
            })
        }
    }

    /// (t, y) borrowed as a state (no copy): q = `y[..7n]`, v = `y[7n..]`.
    pub(crate) fn view<'y>(&self, t: f64, y: &'y [f64]) -> Result<StateView<'y>, DcaError> {
        let n = self.n_bodies();
        self.check_len("state y", 13 * n, y.len())?;
        let (q, v) = y.split_at(7 * n);
        Ok(StateView::new(Layout::EulerParamsOmega, t, q, v))
    }

    /// The per-row penalties α_r of `penalty` at the evaluated workspace
    /// (see [`PenaltyScale`]) into [`Self::alpha_rows`].
    fn row_penalties(&mut self, penalty: PenaltyScale) {
        let inv_mass = |b: Option<BodyId>, row: &nalgebra::RowVector6<f64>| {
            b.map_or(0.0, |id| {
                let (lin, ang) = (row.fixed_columns::<3>(0), row.fixed_columns::<3>(3));
                lin.norm_squared() / self.masses[id.0]
                    + (ang * self.inv_inertias[id.0] * ang.transpose())[0]
            })
        };
        for (e, entry) in self.sys.entries().iter().enumerate() {
            let blk = self.ws.block(e);
            let mut a = Vector6::zeros();
            for row in 0..blk.rows {
                let d = inv_mass(entry.body_i.body(), &blk.ji.row(row).into_owned())
                    + inv_mass(entry.body_j.body(), &blk.jj.row(row).into_owned());
                a[row] = penalty.row_alpha(d);
            }
            self.alpha_rows[e] = a;
        }
    }

    /// Forms the matrices of every node at the evaluated positions `q` (time `t`) with
    /// penalty `penalty` (eqs 27–30; the per-row α_r are formed here, see
    /// [`PenaltyScale`]), unless they were formed at the same (t, q), penalty and
    /// level.
    /// (`params.alpha` for the accelerations, `params.projection_alpha` for the
    /// projections; [`Self::solve`] must be given the same penalty.)
    pub(crate) fn form_matrices(
        &mut self,
        t: f64,
        q: &[f64],
        holonomic_only: bool,
        penalty: PenaltyScale,
    ) -> Result<(), DcaError> {
        if self.cache_level == Some(holonomic_only)
            && self.cache_alpha == Some(penalty)
            && self.cache_t == t
            && self.cache_q.as_slice() == q
        {
            return Ok(());
        }
        self.row_penalties(penalty);
        let ctx = Ctx {
            blocks: self.ws.blocks(),
            mass: &self.masses,
            inertia: &self.inertias,
            alpha: &self.alpha_rows,
            holonomic_only,
            c: &self.c,
            leaf_rhs: &self.leaf_rhs,
        };
        let (par, min) = (self.params.par, self.params.parallel_min_bodies);
        self.cache_level = None;
        let r = up(&mut self.plan.nodes, par, min, &|n, k| {
            matrix_node(n, k, &ctx)
        });
        if let Err(bodies) = r {
            let names: Vec<String> = bodies
                .iter()
                .map(|&b| format!("`{}`", self.body_name(b)))
                .collect();
            return Err(DcaError::NotPositiveDefinite {
                t,
                bodies: names.join(", "),
                what: "the eliminated block K_EE",
            });
        }
        self.cache_q.copy_from_slice(q);
        self.cache_t = t;
        self.cache_alpha = Some(penalty);
        self.cache_level = Some(holonomic_only);
        self.stats.matrix_passes += 1;
        Ok(())
    }

    /// One assembly–disassembly vector pass with the current `c`, node multipliers
    /// and `leaf_rhs`: solves (M + Φ_qᵀαΦ_q) x = leaf_rhs − Φ_qᵀ(λ* + αc) into the
    /// nodes and updates λ* ← λ* + α(Φ_q x + c) (the disassembly, with the same α).
    /// `penalty` must be the one the matrices were formed with ([`Self::form_matrices`]).
    /// Returns (max |x − x_prev|, max |x|).
    pub(crate) fn solve(&mut self, holonomic_only: bool, penalty: PenaltyScale) -> (f64, f64) {
        debug_assert!(
            self.cache_alpha == Some(penalty) && self.cache_level == Some(holonomic_only)
        );
        let ctx = Ctx {
            blocks: self.ws.blocks(),
            mass: &self.masses,
            inertia: &self.inertias,
            alpha: &self.alpha_rows,
            holonomic_only,
            c: &self.c,
            leaf_rhs: &self.leaf_rhs,
        };
        let (par, min) = (self.params.par, self.params.parallel_min_bodies);
        // vector_up cannot fail (the factorizations were checked in the matrix pass).
        let _ = up(&mut self.plan.nodes, par, min, &|n, k| {
            vector_up(n, k, &ctx)
        });
        down(&mut self.plan.nodes, None, par, min, &|n, p| {
            vector_down(n, p, &ctx)
        });
        self.plan
            .nodes
            .iter()
            .fold((0.0, 0.0), |(d, s), n| (n.diff.max(d), n.scale.max(s)))
    }

    /// Copies the solution of the last pass into `sol` (6 per body).
    pub(crate) fn gather_solution(&mut self) {
        gather(&self.plan, &mut self.sol);
    }

    /// λ* = 0 for every constraint (start of an iteration sequence).
    pub(crate) fn reset_multipliers(&mut self) {
        for n in &mut self.plan.nodes {
            for l in &mut n.lam {
                l.fill(0.0);
            }
        }
    }

    /// ẏ = [ṙ; ½G(p)ᵀω'; accelerations] from `state` (the evaluated y) and `acc`.
    pub(crate) fn write_derivative(&self, state: StateView<'_>, dydt: &mut [f64]) {
        let n = self.n_bodies();
        let (q, v) = (state.q, state.v);
        let (dq, dv) = dydt.split_at_mut(7 * n);
        for b in 0..n {
            dq[position_range(b)].copy_from_slice(&v[linear_range(b)]);
            let pd = 0.5 * g_matrix(&euler_params(q, b)).transpose() * angular(v, b);
            dq[euler_params_range(b)].copy_from_slice(pd.as_slice());
        }
        dv.copy_from_slice(&self.acc);
    }
}

/// The body velocity [ṙ; ω'] of body `b` (zero for ground) in velocities `v` (6 per
/// body).
#[inline]
pub(crate) fn body_velocity(v: &[f64], b: Option<BodyId>) -> Vector6<f64> {
    match b {
        None => Vector6::zeros(),
        Some(id) => Vector6::from_column_slice(&v[v_range(id.0)]),
    }
}
