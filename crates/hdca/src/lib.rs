//! Hamiltonian divide-and-conquer algorithm (HDCA) of Chadaj, Malczyk & Frączek (2017)
//! in 3-D: Hamilton's canonical equations in joint coordinates q and joint canonical
//! momenta p, with velocities and constraint impulses σ by assembly–disassembly over
//! the binary assembly tree (sec 2.2, eqs 17–46) and the time derivatives of the
//! momenta from articulated momenta and loads (sec 2.3, eqs 47–77). Closed loops are
//! opened at the cut joints of the model's spanning tree (sec 2.3, eqs 62–69); their
//! velocity-level closure is part of every evaluation, so it holds to round-off.
//!
//! ```
//! use std::sync::Arc;
//! use mbs_hdca::{Hdca, HdcaParams};
//! use mbs_integrators::OdeSystem;
//! use mbs_model::{BodyRef, JointKind, ModelBuilder};
//! use nalgebra::{Matrix3, Vector3};
//!
//! let mut b = ModelBuilder::new("pendulum");
//! b.gravity(Vector3::new(0.0, -9.81, 0.0));
//! let link = b.body("link", 1.0, Matrix3::from_diagonal_element(0.1));
//! b.set_initial_pose(link, Vector3::new(0.5, 0.0, 0.0), mbs_kinematics::euler_params::identity());
//! b.joint_at("pivot", JointKind::Revolute, BodyRef::Ground, BodyRef::Body(link), Vector3::zeros(), Vector3::z());
//! let mut h = Hdca::new(Arc::new(b.build().unwrap()), HdcaParams::default()).unwrap();
//! let y = h.initial_state(); // [θ = 0; p = 0]
//! let mut dy = vec![0.0; h.dim()];
//! h.rhs(0.0, &y, &mut dy).unwrap();
//! // p is stored divided by the pivot's moment of inertia J + m r² = 0.1 + 0.25
//! let s = h.momentum_scales()[0];
//! assert!((s - 0.35).abs() < 1e-12);
//! // ṗ = gravity torque about the pivot: −m g · 0.5
//! assert!((dy[1] * s + 9.81 * 0.5).abs() < 1e-12);
//! ```
//!
//! The crate has two front-ends sharing the joint catalogue (`joint`: joint
//! coordinates, H and D), the tree geometry (poses, H⁰ and Ḣ⁰ at the origin), the
//! applied loads and the map between absolute states and joint coordinates:
//!
//! | front-end | method | state | models |
//! |---|---|---|---|
//! | [`Hdca`] | `hdca` | joint coordinates and canonical momenta | trees and closed loops |
//! | [`Aba`] | `aba` | joint coordinates and quasi-velocities | open trees (O(n) articulated-body algorithm, Featherstone 2008, Table 7.1) |
//! | [`JointAlf`] | `alf-joint` | joint coordinates and quasi-velocities | trees and small closed loops (ALF of Bayo & Ledesma 1996 in joint coordinates: CRBA mass matrix, cut joints as constraints, projections) |
//!
//! | module | paper |
//! |---|---|
//! | `joint` | H and D subspaces, eqs 10–11, 23; joint coordinates |
//! | `assembly` | eqs 12, 15–46 (assembly, base-body connection, disassembly) |
//! | `mbs_linalg::small::pinv_psd` | the inverses of eqs 26–27, 43, 45 (pseudo-inverse when redundant) |
//! | `hdca` | eqs 6, 47–77; Pseudo-algorithm 3; state layout |
//! | `tests/common/report.rs` (test fixture) | sec 3.2 figures (energy error, loop closure) |
//! | `method` | the method `hdca` as the facade runs it (the `mbs-formulation` seam) |
//! | `aba` | Featherstone, *Rigid Body Dynamics Algorithms* (2008), ch. 7, Table 7.1, at the global origin |
//! | `aba::method` | the method `aba` as the facade runs it |
//! | `alf_joint` | Bayo & Ledesma (1996), eqs 5–8 and 9–34, in the tree's joint coordinates (H by CRBA, Featherstone 2008 Table 6.2; C by RNEA, Table 5.1) |
//! | `joint_space` | [`joint_space_dynamics`]: H and C of a tree at the initial state (Pinocchio's `crba` and `nle`), for peer comparisons |
//!
//! # Joint kinds
//! Revolute, prismatic, cylindrical, spherical (Euler-parameter joint coordinate,
//! 4 coordinates and 3 momenta), universal, rigid and distance (a 5-DOF tree joint
//! whose link direction turns by a second Euler-parameter rotation, or one cut-joint
//! row; see `joint`), as tree or cut joints. Rolling and curved-path joints and
//! drivers (rheonomic rows, which the scleronomic closure Dᵀ ΔV = 0 of eqs 24, 43,
//! 45 does not take) are rejected with an error naming them and saying why.
//!
//! # Scaled momenta
//! By default the state holds each momentum divided by its diagonal entry of the
//! tree's joint-space mass matrix ([`HdcaParams::scale_momenta`],
//! [`Hdca::momentum_scales`]), so that an integrator's tolerances act on joint-rate
//! units; `scale_momenta: false` gives the paper's canonical momenta.
//!
//! # Initial state
//! [`Hdca::state_to_y`] maps any absolute state that satisfies the joints to joint
//! coordinates and canonical momenta (σ_c = 0 at the start); a state off the
//! constraints is refused ([`HdcaError::InconsistentState`], naming the joint),
//! since the joint coordinates cannot represent it and the cut joints are closed at
//! the velocity level only. A free-floating component (base-body case (a), eq 41) gets a virtual 6-DOF
//! joint from ground to its root body (7 coordinates [Δr; e], 6 momenta conjugate to
//! [ṙ; ω]); the three base-body cases of eqs 41–46 are then one formula over the
//! root's boundary (no ground joint: nothing to solve; one or several: eq 45).
//!
//! # Reaction forces and the growth of σ (sec 3.4)
//! [`Hdca::impulses`] gives σ of every joint; [`Hdca::cut_joint_reactions`] gives the
//! cut-joint reactions λ_c = σ̇_c by central differences along the flow (checked
//! against the Lagrange multipliers). For a tree joint, σ_j = D_jᵀ P̄_j is the
//! constrained part of the momentum transmitted through it and stays bounded; for a
//! cut joint σ_c = ∫λ_c dt grows without bound when the reaction keeps its sign (a
//! loop carrying weight: linear growth). σ is not a state, so the growth does not
//! enter the integrator's error control, but it costs digits in
//! P̄ = D σ + H p and in Ḋ σ; [`HdcaStats::max_abs_sigma`] and
//! the test fixture's `HdcaRunReport::max_abs_sigma` report it. Scaling D_c (the paper's suggestion)
//! would not change the product D_c σ_c; re-basing σ_c would need a state for it.
//!
//! # Parallelism and allocation
//! The assembly and disassembly sweeps recurse over the post-ordered assembly tree
//! with `rayon::join` ([`HdcaParams::par`], an `mbs_linalg::Par`) on disjoint sub-slices (sub-assemblies of at least
//! [`HdcaParams::parallel_min_bodies`] bodies); each node's arithmetic is independent
//! of the schedule, so results are bit-identical for any thread count. Forward
//! kinematics and the subtree sums of the loads are O(n) sequential sweeps over the
//! spanning tree. A right-hand-side evaluation allocates nothing.
//!
//! # Conditioning
//! Impulse-to-velocity matrices are formed at each body's centre of mass with local
//! lever arms, and each assembly system is equilibrated before its (pseudo-)inverse;
//! ṗ is assembled from loads about the global origin, which costs about
//! log₁₀(size of the mechanism / size of a body) digits.

mod aba;
mod alf_joint;
mod error;
mod hdca;
mod joint;
mod joint_space;
mod method;
mod params;

mod assembly;

pub use aba::{Aba, AbaError, AbaParams, AbaStats};
pub use alf_joint::{
    DEFAULT_KAPPA as JOINT_ALF_DEFAULT_KAPPA, JointAlf, JointAlfError, JointAlfParams,
    JointAlfStats, JointAlpha,
};
pub use error::HdcaError;
pub use hdca::{Hdca, HdcaStats};
pub use joint_space::{JointDofs, JointSpaceDynamics, joint_space_dynamics};
pub use params::HdcaParams;
