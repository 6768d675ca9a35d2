//! What a multibody mechanism *does* at a state: constraint equations Φ, their Jacobian
//! blocks, Φ_t and γ for every joint and driver; mass matrices, applied and
//! quadratic-velocity forces, energies; and the global sparse assembly that the
//! front-ends (ALF, DCA, complement methods, penalty/PCG) reuse without re-deriving any
//! joint.
//!
//! Conventions (NOTATION.md): q per body = [r, p]; v per body = [ṙ, ṗ]
//! (`Layout::EulerParamsPdot`) or [ṙ, ω'] (`Layout::EulerParamsOmega`);
//! **Φ_q q̈ = γ**, γ = −(Φ_q q̇)_q q̇ − 2Φ_qt q̇ − Φ_tt; M v̇ + Φ_qᵀ λ = Q.
//!
//! Every joint/driver is computed once, as Jacobian blocks with respect to [ṙ; ω'] of
//! body i and body j ([`ConstraintBlock`]); the [ṙ, ṗ] blocks are derived (ṗ columns =
//! ω' columns · 2G(p)/‖p‖²); γ is the same in both layouts because
//! ω̇' = 2Gp̈ + 2Ġṗ and Ġṗ = 0.
//!
//! Main pieces:
//! - [`SystemLayout`] (once per model and layout): dimensions, row ranges with their
//!   [`ConstraintSource`], the fixed CSC pattern of Φ_q, custom constraints;
//! - [`Workspace`] (preallocated): `evaluate` (frames, blocks, loads), then `phi`,
//!   `phi_t`, `phi_dot`, `gamma`, `phi_q_dense`, `phi_q_values`, `phi_q_mul`,
//!   `phi_q_tr_mul`, `mass_block`, `mass_dense`, `mass_mul`, `generalized_forces`,
//!   `kinetic_energy`, `potential_energy`, and per-constraint [`ConstraintBlock`]s;
//! - [`primitives`]: point coincidence, dot-1, dot-2, distance on a small algebra of
//!   kinematic expressions; [`joints`] and [`drivers`] compose them;
//! - [`mobility()`]: rank-based mobility, redundancy and Grübler's count (sparse
//!   elimination; [`mobility_dense`] is the dense reference);
//! - [`CustomConstraint`]: user constraints accepted by the assembly;
//! - [`Baumgarte`]: the stabilized right-hand side γ̄ = γ − 2α̂Φ̇ − β̂²Φ that every
//!   front-end uses.
//!
//! [`primitives`], [`joints`] and [`drivers`] stay public as the catalogue of constraint
//! definitions (one module per kind, read as `joints::rows::joint_rows`); every other
//! item is at the crate root.
//!
//! ```
//! use mbs_constraints::{SystemLayout, Workspace};
//! use mbs_model::{BodyRef, JointKind, Layout, ModelBuilder, State};
//! use nalgebra::{DMatrix, Matrix3, Vector3};
//! let mut b = ModelBuilder::new("pendulum");
//! b.gravity(Vector3::new(0.0, -9.81, 0.0));
//! let link = b.body("link", 1.0, Matrix3::from_diagonal_element(0.1));
//! b.set_initial_pose(link, Vector3::new(0.5, 0.0, 0.0), mbs_kinematics::euler_params::identity());
//! b.joint_at("pivot", JointKind::Revolute, BodyRef::Ground, BodyRef::Body(link), Vector3::zeros(), Vector3::z());
//! let model = b.build().unwrap();
//! let sys = SystemLayout::new(&model, Layout::EulerParamsOmega);
//! let mut ws = Workspace::new(&sys);
//! let state = State::initial(&model, Layout::EulerParamsOmega);
//! ws.evaluate(&model, &sys, &state).unwrap();
//! let mut phi = vec![0.0; sys.n_rows()];
//! ws.phi(&sys, &mut phi).unwrap();
//! assert!(phi.iter().all(|x| x.abs() < 1e-12));
//! let mut jac = DMatrix::zeros(sys.n_rows(), sys.n_v());
//! ws.phi_q_dense(&sys, &mut jac).unwrap();
//! assert_eq!(jac.shape(), (5, 6));
//! ```

mod assembly;
mod block;
mod custom;
pub mod drivers;
mod elimination;
mod error;
mod fill;
mod forces;
mod frame;
pub mod joints;
mod mass;
mod mobility;
mod power;
pub mod primitives;
mod reactions;
mod stabilization;
mod workspace;

pub use assembly::{
    ConstraintEntry, ConstraintSource, CscPattern, RowRange, SystemLayout, dense_orders,
};
pub use block::{ConstraintBlock, MAX_ROWS};
pub use custom::CustomConstraint;
pub use error::ConstraintError;
pub use forces::MIN_SPRING_LENGTH;
pub use frame::{BodyFrame, frame_of, update_frames};
pub use mass::MassBlock;
pub use mobility::{
    Mobility, dependent_rows, full_rank_everywhere, mobility, mobility_dense, mobility_limited,
    mobility_with,
};
pub use power::ElementPowers;
pub use reactions::{
    Reaction, RelativeMotion, driver_effort, driver_markers, marker_pose, reaction, relative_motion,
};
pub use stabilization::Baumgarte;
pub use workspace::{Workspace, velocity6};
