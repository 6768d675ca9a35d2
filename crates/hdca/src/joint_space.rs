//! The joint-space equations of motion of a tree at the model's initial state,
//!
//! ```text
//!   H(q) u̇ + C(q, u) = 0,
//! ```
//!
//! for comparisons with joint-coordinate codes (Pinocchio's `crba` and `nle`, RBDL,
//! Drake). H is the joint-space mass matrix by the composite-rigid-body algorithm
//! (Featherstone, *Rigid Body Dynamics Algorithms*, 2008, Table 6.2) and C the bias
//! forces by the recursive Newton–Euler algorithm (Table 5.1) at u̇ = 0, both as
//! `alf-joint` evaluates them (module `alf_joint::dynamics`).
//!
//! # Sign convention
//! C is what the joints must supply to hold u̇ = 0: C = c(q, u) + g(q) − τ_passive,
//! with c the Coriolis and centrifugal terms, g the generalised gravity (positive
//! when gravity pulls the coordinate down, so C = ∂V/∂q at rest) and τ_passive the
//! generalised forces of the model's force elements (springs, dampers, applied
//! loads). Without force elements C is Pinocchio's `nle(q, v)` = C(q, v) v + g(q)
//! (Carpentier et al. 2019), and H u̇ = −C gives the free accelerations (`aba` with
//! τ = 0).
//!
//! # Coordinates
//! u are the `aba`/`alf-joint` quasi-velocities, joint after joint in increasing
//! joint id: θ̇ about the joint axis (the markers' z-axis, child relative to
//! parent) for a revolute joint, ṡ along it for a prismatic joint — the guarantee of
//! this module is for trees of revolute and prismatic joints, whose u are the
//! joint rates of Pinocchio and URDF. Other joint kinds are accepted with their
//! `aba` quasi-velocities (a spherical joint: the relative angular velocity in
//! global components; a free-floating root: [ṙ; ω] of its centre of mass in global
//! components, which is not Pinocchio's body-frame free-flyer velocity). Closed
//! loops are refused: H and C of a spanning tree are not the mechanism's.

use std::sync::Arc;

use mbs_model::{JointId, Model};
use nalgebra::{DMatrix, DVector};

use crate::aba::AbaError;
use crate::alf_joint::{JointAlf, JointAlfError, JointAlfParams};

/// One tree joint's place in u.
#[derive(Clone, Debug, PartialEq)]
pub struct JointDofs {
    /// The model joint's name (a free-floating root's virtual joint: `free(<body>)`).
    pub name: String,
    /// The joint kind (`revolute`, `prismatic`, …; `free` for a virtual joint).
    pub kind: String,
    /// First index in u.
    pub offset: usize,
    /// Number of quasi-velocities.
    pub count: usize,
}

/// H and C of a tree at the model's initial state (module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct JointSpaceDynamics {
    /// The tree joints with at least one quasi-velocity, in u order.
    pub joints: Vec<JointDofs>,
    /// One name per quasi-velocity: the joint's name, or `name[k]` for the k-th of a
    /// joint with several.
    pub dof_names: Vec<String>,
    /// The quasi-velocities u at the initial state.
    pub u: DVector<f64>,
    /// The joint-space mass matrix H (symmetric, n × n).
    pub mass_matrix: DMatrix<f64>,
    /// The bias forces C = c(q, u) + g(q) − τ_passive.
    pub bias: DVector<f64>,
}

/// H and C of `model`'s tree at its initial state (time 0); a closed loop, a driver
/// or a joint without joint coordinates is an error naming it.
pub fn joint_space_dynamics(model: &Model) -> Result<JointSpaceDynamics, JointAlfError> {
    if let Some(&j) = model.topology().cut_joints().first() {
        let jt = model.joint(j);
        return Err(JointAlfError::Tree(AbaError::ClosedLoop {
            joint: jt.name.clone(),
            kind: jt.kind.label(),
        }));
    }
    let mut alf = JointAlf::new(Arc::new(model.clone()), JointAlfParams::default())?;
    let y = alf.tree().initial_state()?;
    let n = alf.n_velocities();
    let nq = alf.n_coords();

    let mut joints = Vec::new();
    for (k, jt) in model.joints().iter().enumerate() {
        if let Some(r) = alf.tree().velocity_range(JointId(k))
            && !r.is_empty()
        {
            joints.push(JointDofs {
                name: jt.name.clone(),
                kind: jt.kind.label().to_owned(),
                offset: r.start,
                count: r.len(),
            });
        }
    }
    // virtual free joints of free-floating roots: the rest of u, 6 at a time
    let tree = &alf.tree().tree;
    for info in tree.joints.iter().skip(model.joints().len()) {
        let body = info
            .plus
            .map_or("ground", |b| model.bodies()[b].name.as_str());
        joints.push(JointDofs {
            name: format!("free({body})"),
            kind: "free".into(),
            offset: info.u_off,
            count: info.nf,
        });
    }
    joints.sort_by_key(|j| j.offset);
    let mut dof_names = Vec::with_capacity(n);
    for j in &joints {
        for a in 0..j.count {
            dof_names.push(if j.count == 1 {
                j.name.clone()
            } else {
                format!("{}[{a}]", j.name)
            });
        }
    }
    debug_assert_eq!(dof_names.len(), n);

    let (mass, bias) = alf.mass_and_bias(0.0, &y)?;
    Ok(JointSpaceDynamics {
        joints,
        dof_names,
        u: DVector::from_column_slice(&y[nq..]),
        mass_matrix: DMatrix::from_column_slice(n, n, mass),
        bias: DVector::from_column_slice(bias),
    })
}
