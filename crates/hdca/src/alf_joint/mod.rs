//! `alf-joint`: the augmented-Lagrangian formulation (Bayo & Ledesma 1996, eqs 5–8)
//! with mass-orthogonal projections (eqs 9–34) written in the joint coordinates of
//! the model's spanning tree, the cut joints of closed loops kept as constraints.
//!
//! Bayo and Ledesma derive ALF for any set of coordinates q with mass matrix M and
//! constraints Φ(q) = 0. Here q are this crate's tree joint coordinates (the `aba`
//! and `hdca` state layout), u their quasi-velocities, M the tree's joint-space mass
//! matrix H(q) (composite-rigid-body algorithm), Q = −C(q, u) (recursive
//! Newton–Euler: Coriolis, centrifugal and applied loads) and Φ the equations of
//! the cut joints only — a handful of rows for a small mechanism instead of the
//! 5–7 rows per joint and the Euler-parameter normalizations of the absolute
//! formulations. This is the structure of Featherstone's closed-loop method (*Rigid
//! Body Dynamics Algorithms*, 2008, ch. 8) and of Pinocchio's `constraintDynamics`,
//! with ALF's multiplier iteration in place of a KKT factorization, so that singular
//! configurations and redundant closure rows (planar loops modelled with spatial
//! joints) keep a positive definite leading matrix H + α KᵀK.
//!
//! | module | what |
//! |---|---|
//! | `dynamics` | H, C, the multiplier iteration (eqs 5–8) |
//! | `closure` | Φ, K, γ̂ of the cut joints from the constraint library's blocks |
//! | `projection` | position and velocity projections (eqs 9–34, metric H) |
//! | `method` | the method `alf-joint` as the facade runs it |
//!
//! The evaluation is dense in the n joint velocities (O(n²) for H, O(n³/6) for
//! its factorization): the method is meant for mechanisms of up to a few dozen
//! joints; `alf-dca-proj` and `hdca` are O(n). It is sequential (independent of the
//! thread count) and allocates nothing after construction.

use std::sync::Arc;

use mbs_integrators::{OdeSystem, SystemError};
use mbs_model::Model;
use nalgebra::{Matrix6, Vector6};

use crate::aba::{Aba, AbaParams};

mod closure;
mod dynamics;
mod error;
mod method;
mod params;
mod projection;

use closure::Cut;
use dynamics::Need;
pub use error::JointAlfError;
pub use params::{DEFAULT_KAPPA, JointAlfParams, JointAlpha};

/// Counters of a [`JointAlf`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JointAlfStats {
    /// Right-hand-side evaluations.
    pub rhs_evaluations: u64,
    /// Multiplier iterations (linear solves with H + α KᵀK) of the evaluations.
    pub multiplier_iterations: usize,
    /// Position and velocity projection iterations.
    pub projections: usize,
}

/// The augmented-Lagrangian front-end in joint coordinates (module docs).
pub struct JointAlf {
    /// The tree's sweeps, poses, twists, loads and state map.
    aba: Aba,
    params: JointAlfParams,
    /// The cut joints and their first rows.
    cuts: Vec<Cut>,
    /// Closure rows m and quasi-velocities n.
    m: usize,
    n: usize,
    /// The penalty α (absolute; resolved at the start of a run when relative).
    alpha: f64,
    /// H (n × n, column-major, both triangles).
    mass: Vec<f64>,
    /// H + α KᵀK and its Cholesky factor (lower triangle).
    lead: Vec<f64>,
    /// K (m × n, row-major).
    k: Vec<f64>,
    phi: Vec<f64>,
    phi_dot: Vec<f64>,
    /// γ̂ and γ̄ = γ̂ − 2μΩΦ̇ − Ω²Φ.
    gamma: Vec<f64>,
    gbar: Vec<f64>,
    lambda: Vec<f64>,
    /// C, −C + α Kᵀ γ̄ and the iterate.
    bias: Vec<f64>,
    base: Vec<f64>,
    x: Vec<f64>,
    /// q̇ of projection evaluations (not returned).
    qd: Vec<f64>,
    /// Per body: A⁰, the force it transmits, the composite inertia (all at the origin).
    a0: Vec<Vector6<f64>>,
    force: Vec<Vector6<f64>>,
    composite: Vec<Matrix6<f64>>,
    stats: JointAlfStats,
}

impl JointAlf {
    /// Builds the front-end on the model's spanning tree; a driver or a joint
    /// without joint coordinates is an error naming it.
    pub fn new(model: Arc<Model>, params: JointAlfParams) -> Result<Self, JointAlfError> {
        for (name, value, ok) in [
            ("mu", params.mu, params.mu >= 0.0),
            ("omega", params.omega, params.omega >= 0.0),
            ("tol", params.tol, params.tol > 0.0),
            (
                "projection_tol",
                params.projection_tol,
                params.projection_tol > 0.0,
            ),
            ("stall_tol", params.stall_tol, params.stall_tol > 0.0),
        ] {
            if !(ok && value.is_finite()) {
                return Err(JointAlfError::InvalidParameter {
                    name,
                    value,
                    requirement: "must be a finite number (positive for tolerances, non-negative otherwise)",
                });
            }
        }
        let alpha = match params.alpha {
            JointAlpha::Absolute(a) | JointAlpha::Relative(a) => a,
        };
        if !(alpha > 0.0 && alpha.is_finite()) {
            return Err(JointAlfError::InvalidParameter {
                name: "alpha / kappa",
                value: alpha,
                requirement: "must be positive and finite",
            });
        }
        let aba = Aba::spanning_tree(model.clone(), AbaParams::default())?;
        let mut cuts = Vec::new();
        let mut m = 0;
        for &j in model.topology().cut_joints() {
            cuts.push(Cut::new(&aba.tree, j.0, m));
            m += model.joint(j).kind.rows();
        }
        let (nq, n, nb) = (aba.n_coords(), aba.n_velocities(), model.n_bodies());
        Ok(Self {
            aba,
            params,
            cuts,
            m,
            n,
            alpha,
            mass: vec![0.0; n * n],
            lead: vec![0.0; n * n],
            k: vec![0.0; m * n],
            phi: vec![0.0; m],
            phi_dot: vec![0.0; m],
            gamma: vec![0.0; m],
            gbar: vec![0.0; m],
            lambda: vec![0.0; m],
            bias: vec![0.0; n],
            base: vec![0.0; n],
            x: vec![0.0; n],
            qd: vec![0.0; nq],
            a0: vec![Vector6::zeros(); nb],
            force: vec![Vector6::zeros(); nb],
            composite: vec![Matrix6::zeros(); nb],
            stats: JointAlfStats::default(),
        })
    }

    /// The model.
    pub fn model(&self) -> &Arc<Model> {
        self.aba.model()
    }
    /// Number of joint coordinates.
    pub fn n_coords(&self) -> usize {
        self.aba.n_coords()
    }
    /// Number of quasi-velocities.
    pub fn n_velocities(&self) -> usize {
        self.n
    }
    /// Number of closure rows (all rows of the cut joints).
    pub fn n_closure_rows(&self) -> usize {
        self.m
    }
    /// The penalty α in use.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
    /// Counters.
    pub fn stats(&self) -> JointAlfStats {
        self.stats
    }
    /// The tree's state map and outputs (y ↔ absolute states, energy, body
    /// accelerations after an evaluation).
    pub fn tree(&mut self) -> &mut Aba {
        &mut self.aba
    }

    /// Sets α from κ at y (α = κ tr H / ‖K‖²_F) when the parameters give κ.
    pub fn resolve_alpha(&mut self, t: f64, y: &[f64]) -> Result<f64, JointAlfError> {
        if let JointAlpha::Relative(kappa) = self.params.alpha {
            self.evaluate_state(t, y, Need::Dynamics)?;
            let trace_h: f64 = (0..self.n).map(|i| self.mass[i + self.n * i]).sum();
            let k2: f64 = self.k.iter().map(|x| x * x).sum();
            self.alpha = if k2 > 0.0 {
                kappa * trace_h / k2
            } else {
                kappa
            };
        }
        Ok(self.alpha)
    }

    /// [`JointAlf::evaluate`] at y = [q; u], q̇ into the front-end's own buffer (not
    /// returned).
    /// The spanning tree's joint-space mass matrix H (n × n, column-major) and bias
    /// forces C at (t, y), for [`crate::joint_space_dynamics`].
    pub(crate) fn mass_and_bias(
        &mut self,
        t: f64,
        y: &[f64],
    ) -> Result<(&[f64], &[f64]), JointAlfError> {
        self.aba.check_dim(y.len())?;
        self.evaluate_state(t, y, Need::Dynamics)?;
        Ok((&self.mass, &self.bias))
    }

    fn evaluate_state(&mut self, t: f64, y: &[f64], need: Need) -> Result<(), JointAlfError> {
        let nq = self.n_coords();
        let mut qd = std::mem::take(&mut self.qd);
        let r = self.evaluate(t, &y[..nq], &y[nq..], &mut qd, need);
        self.qd = qd;
        r
    }

    /// y' = f(t, y) (the same as [`OdeSystem::rhs`], typed error).
    pub fn derivative(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), JointAlfError> {
        let nq = self.n_coords();
        self.aba.check_dim(y.len())?;
        self.aba.check_dim(dydt.len())?;
        self.stats.rhs_evaluations += 1;
        let (q, u) = y.split_at(nq);
        let (qd, ud) = dydt.split_at_mut(nq);
        self.evaluate(t, q, u, qd, Need::Dynamics)?;
        self.closure_rates(u);
        self.accelerations(t, ud)?;
        if let Some(x) = dydt.iter().position(|x| !x.is_finite()) {
            return Err(JointAlfError::NonFinite {
                t,
                place: self.aba.tree.state_owner(x),
                what: if x < nq {
                    "joint-coordinate rate"
                } else {
                    "joint acceleration"
                },
            });
        }
        Ok(())
    }

    /// Φ and Φ̇ = K u of the closure rows at y (for checks; each slice
    /// [`JointAlf::n_closure_rows`] long).
    pub fn closure_values(
        &mut self,
        t: f64,
        y: &[f64],
        phi: &mut [f64],
        phi_dot: &mut [f64],
    ) -> Result<(), JointAlfError> {
        self.aba.check_dim(y.len())?;
        self.evaluate_state(t, y, Need::Dynamics)?;
        self.closure_rates(&y[self.n_coords()..]);
        phi.copy_from_slice(&self.phi);
        phi_dot.copy_from_slice(&self.phi_dot);
        Ok(())
    }
}

impl std::fmt::Debug for JointAlf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JointAlf")
            .field("model", &self.model().name())
            .field("n_velocities", &self.n)
            .field("closure_rows", &self.m)
            .field("alpha", &self.alpha)
            .field("stats", &self.stats)
            .finish()
    }
}

impl OdeSystem for JointAlf {
    fn dim(&self) -> usize {
        self.aba.n_coords() + self.n
    }
    fn rhs(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError> {
        self.derivative(t, y, dydt)
            .map_err(|e| SystemError::new(e.to_string()))
    }
    /// Mass-orthogonal projections onto the closures (module `projection`).
    fn project(&mut self, t: f64, y: &mut [f64]) -> Result<bool, SystemError> {
        self.project_state(t, y)
            .map_err(|e| SystemError::new(e.to_string()))
    }
}
