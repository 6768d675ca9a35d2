//! The articulated-body algorithm (ABA) in joint coordinates for open trees
//! (Featherstone, *Rigid Body Dynamics Algorithms*, Springer 2008, ch. 7, Table 7.1),
//! on HDCA's joint catalogue and tree geometry.
//!
//! # State layout
//! y = [q; u]: q are HDCA's joint coordinates ([`crate::Hdca`]'s layout: joint after
//! joint in increasing joint id, Euler parameters for spherical and free rotations,
//! the virtual 6-DOF free joints of free-floating components last), u the joint
//! quasi-velocities in the same order (n_f per joint, the rates paired with the
//! columns of H: θ̇, ṡ, the relative angular velocity in global components for a
//! spherical joint, [ṙ; ω] of the root's centre of mass for a free joint). q̇ follows
//! from u by the joint's coordinate rates (module `joint`), u̇ from the ABA.
//!
//! # One evaluation (Table 7.1 written at the fixed global origin)
//! All spatial quantities are motion vectors [v_O; ω] and force vectors [f; n_O]
//! about the origin in global components (module `spatial`), so no coordinate
//! transforms appear; H⁰ is the joint's motion subspace at the origin and Ḣ⁰ its
//! rate (both from HDCA's joint geometry).
//! 1. root → tip: body poses from q, V_c = V_p + H⁰ u, c = Ḣ⁰ u (the full rate of
//!    the origin-referred columns; for an axis fixed in the parent this is
//!    V_c × H⁰ u, Featherstone's c_J + v × S q̇), Iᴬ = I_O (the body's spatial
//!    inertia at the origin), pᴬ = V ×* (I_O V) − Q with Q the applied load about the
//!    origin (force elements, gravity included);
//! 2. tip → root: U = Iᴬ H⁰, D = H⁰ᵀ U (n_f × n_f, Cholesky on the stack),
//!    u_j = −H⁰ᵀ pᴬ; the parent gets Iᴬ − U D⁻¹ Uᵀ and
//!    pᴬ + (Iᴬ − U D⁻¹ Uᵀ) c + U D⁻¹ u_j; a rigid joint (n_f = 0) passes Iᴬ and pᴬ
//!    whole;
//! 3. root → tip: A = A_p + c, u̇ = D⁻¹ (u_j − Uᵀ A), A += H⁰ u̇ (ground at rest;
//!    gravity is a load).
//!
//! The evaluation is O(n), sequential (so independent of the thread count) and
//! allocates nothing.
//!
//! # Scope
//! Open trees only: a joint the catalogue cannot express in joint coordinates
//! (rolling, curved paths), a cut joint (closed loop) or a driver is refused naming
//! it ([`AbaError`]); `hdca` and `alf-dca-proj` handle loops.
//!
//! # Conditioning
//! Inertias and bias forces about the world origin carry lever arms of the size of
//! the mechanism, which costs about log₁₀(size of the mechanism / size of a body)
//! digits (as in HDCA's ṗ); body-frame spatial algebra would avoid it.

use std::sync::Arc;

use mbs_constraints::joints::{Freedoms, NoFreedoms};
use mbs_integrators::{OdeSystem, SystemError};
use mbs_model::Model;

use crate::hdca::{Hdca, TreeColumns};
use crate::params::HdcaParams;

mod error;
mod method;
mod params;
mod spatial;
mod state_map;
mod sweeps;

pub use error::AbaError;
pub use params::AbaParams;
pub(crate) use spatial::{Articulated, Column};

/// Counters of an [`Aba`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AbaStats {
    /// Right-hand-side evaluations.
    pub rhs_evaluations: u64,
}

/// The articulated-body front-end (Featherstone 2008, Table 7.1) in HDCA's joint
/// coordinates.
pub struct Aba {
    /// The joint catalogue, tree geometry, loads and state map (its assembly is not
    /// used).
    pub(crate) tree: Hdca,
    /// Per body: the sweeps' quantities.
    pub(crate) art: Vec<Articulated>,
    /// Per quasi-velocity (index in u): the joint columns of the sweeps.
    pub(crate) cols: Vec<Column>,
    /// The bodies' Cholesky factors of D (n_f × n_f each, column-major, packed).
    chol: Vec<f64>,
    /// Offset of body b's factor in `chol`.
    chol_off: Vec<usize>,
    /// The joint columns being evaluated (reused: not zeroed per joint).
    scratch: TreeColumns,
    params: AbaParams,
    stats: AbaStats,
}

impl Aba {
    /// Builds the front-end; a cut joint, a driver, an unsupported joint kind or a
    /// singular body inertia is an error naming it.
    pub fn new(model: Arc<Model>, params: AbaParams) -> Result<Self, AbaError> {
        joint_coordinates(&model)?;
        if let Some(&j) = model.topology().cut_joints().first() {
            let jt = model.joint(j);
            return Err(AbaError::ClosedLoop {
                joint: jt.name.clone(),
                kind: jt.kind.label(),
            });
        }
        Self::spanning_tree(model, params)
    }

    /// The sweeps over the model's spanning tree, its cut joints (if any) left to the
    /// caller (`alf-joint` closes them by constraints); a driver, a joint without
    /// joint coordinates or a singular body inertia is an error naming it.
    pub(crate) fn spanning_tree(model: Arc<Model>, params: AbaParams) -> Result<Self, AbaError> {
        joint_coordinates(&model)?;
        if let Some(d) = model.drivers().first() {
            return Err(AbaError::Driver {
                driver: d.name.clone(),
            });
        }
        let mut tree = Hdca::new(
            model.clone(),
            HdcaParams {
                par: mbs_linalg::Par::Seq,
                scale_momenta: false,
                ..HdcaParams::default()
            },
        )?;
        tree.assembly_inertias = false;
        let mut chol_off = Vec::with_capacity(model.n_bodies());
        let mut len = 0;
        for b in 0..model.n_bodies() {
            chol_off.push(len);
            let nf = tree.joints[tree.parent_joint[b]].nf;
            len += nf * nf;
        }
        Ok(Self {
            art: vec![Articulated::default(); model.n_bodies()],
            cols: vec![Column::default(); tree.n_momenta()],
            chol: vec![0.0; len],
            chol_off,
            scratch: TreeColumns::zeroed(),
            tree,
            params,
            stats: AbaStats::default(),
        })
    }

    /// The model.
    pub fn model(&self) -> &Arc<Model> {
        self.tree.model()
    }
    /// Number of joint coordinates n_q.
    pub fn n_coords(&self) -> usize {
        self.tree.n_coords()
    }
    /// Number of joint quasi-velocities n_u.
    pub fn n_velocities(&self) -> usize {
        self.tree.n_momenta()
    }
    /// The parameters.
    pub fn params(&self) -> &AbaParams {
        &self.params
    }
    /// Counters.
    pub fn stats(&self) -> AbaStats {
        self.stats
    }
    /// The joint coordinates' offset and count for a joint.
    pub fn coord_range(&self, j: mbs_model::JointId) -> Option<std::ops::Range<usize>> {
        self.tree.coord_range(j)
    }
    /// The quasi-velocities' offset (within u) and count for a joint.
    pub fn velocity_range(&self, j: mbs_model::JointId) -> Option<std::ops::Range<usize>> {
        self.tree.momentum_range(j)
    }
}

/// Every joint of `model` has joint coordinates in the catalogue (else the error
/// names the first that has none and why).
fn joint_coordinates(model: &Model) -> Result<(), AbaError> {
    for jt in model.joints() {
        if let Err(reason) = Freedoms::of(&jt.kind) {
            return Err(AbaError::NoJointCoordinates {
                joint: jt.name.clone(),
                kind: jt.kind.label(),
                why: match reason {
                    NoFreedoms::Nonholonomic => {
                        "its no-slip rows are nonholonomic, so no joint coordinates have its quasi-velocities as rates"
                    }
                    NoFreedoms::CurvedPath => {
                        "the free direction of a curved path turns with the position along it, which the joint catalogue does not express in joint coordinates"
                    }
                },
            });
        }
    }
    Ok(())
}

impl std::fmt::Debug for Aba {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Aba")
            .field("model", &self.model().name())
            .field("n_coords", &self.n_coords())
            .field("n_velocities", &self.n_velocities())
            .field("stats", &self.stats)
            .finish()
    }
}

impl OdeSystem for Aba {
    fn dim(&self) -> usize {
        self.n_coords() + self.n_velocities()
    }
    fn rhs(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError> {
        self.derivative(t, y, dydt)
            .map_err(|e| SystemError::new(e.to_string()))
    }
    /// Renormalizes the joint Euler parameters (as HDCA does); u is untouched.
    fn project(&mut self, t: f64, y: &mut [f64]) -> Result<bool, SystemError> {
        self.tree.project(t, y)
    }
}
