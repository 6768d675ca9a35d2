//! The orthogonal/natural complement family of Pękal & Frączek (2016)
//! and the natural partitioning of Chiou (1990, sec 5.4, 5.5.7, 6.3); full citations
//! in the repository's `docs/REFERENCES.md`.
//!
//! # Orthogonal complement ([`Complement`])
//! Absolute coordinates with Euler parameters (+ normalization constraints) or
//! Euler angles; the equations of motion `M q̈ + Φ_qᵀλ = Qᵉ`, `Φ_q q̈ = Γ`
//! (eqs 2.1–2.5, NOTATION: Γ = γ) are reduced with a null-space basis `P` of
//! `Φ_q` from any method of `mbs-linalg` (zero eigenvalue, Schur, PUTD-H,
//! PUTD-G, SVD, QR, coordinate partitioning with monitoring and re-selection,
//! Wang–Huston):
//!
//! ```text
//!   Pᵀ M P v̈ = Pᵀ Qᵉ − Pᵀ M S Γ̄,   q̈ = S Γ̄ + P v̈          (eqs 3.5–3.8)
//! ```
//!
//! with pseudo-inverses for redundant systems, and stabilization none /
//! Baumgarte / Newton–Raphson ([`Stabilization`]). [`Complement`] implements
//! [`mbs_integrators::OdeSystem`] on `y = [q; q̇]` (layout in `complement`).
//! Its right-hand side and projection allocate nothing after construction: all
//! scratch lives in a [`ComplementWorkspace`] and the `mbs-linalg`
//! `NullSpaceWorkspace` (`tests/no_alloc.rs`; exceptions in `workspace`).
//!
//! Redundant constraint rows are dropped once, at the initial configuration
//! (`redundancy`): the numerical rank counted at every evaluation followed the
//! integration drift and lost the motion of Bricard's linkage. Between accepted
//! steps `singular` watches for a rank loss of `Φ_q` (a singular configuration,
//! where the null-space basis is discontinuous and the motion may switch branch)
//! and stops the run with an error naming the joints and the time.
//!
//! # Natural partitioning ([`NaturalPartitioning`])
//! The null space `A` of the open-tree Jacobian built body by body along the
//! spanning tree (eqs 5.4.1.1–5.4.2.2), branches from ground in parallel; cut
//! joints (loops) by penalty or a second null space (eqs 5.4.3.1–9); integrated
//! by the adaptive integrators ([`mbs_integrators::OdeSystem`]) or the two-stage
//! staggered scheme ([`mbs_integrators::PartitionedSystem`], procedure 5.5.7).
//!
//! # Methods
//! `method`: the method names of both as the facade runs them, with the
//! `key=value` parameters and the runs in their own coordinates (the
//! `mbs-formulation` seam).
//!
//! The paper's McPherson-strut sweep (methods × stabilizations × RK45 tolerances)
//! is a test fixture, `tests/common/strut.rs`, shared by the tests, the example and
//! the benches.
//!
//! # Example
//!
//! ```
//! use std::sync::Arc;
//! use mbs_complement::{Complement, ComplementParams};
//! use mbs_integrators::OdeSystem;
//! use mbs_model::{BodyRef, JointKind, ModelBuilder};
//! use nalgebra::{Matrix3, Vector3};
//! let mut b = ModelBuilder::new("pendulum");
//! b.gravity(Vector3::new(0.0, -9.81, 0.0));
//! let link = b.body("link", 1.0, Matrix3::from_diagonal_element(0.1));
//! b.set_initial_pose(link, Vector3::new(0.5, 0.0, 0.0), mbs_kinematics::euler_params::identity());
//! b.joint_at("pivot", JointKind::Revolute, BodyRef::Ground, BodyRef::Body(link), Vector3::zeros(), Vector3::z());
//! let mut c = Complement::new(Arc::new(b.build().unwrap()), ComplementParams::default()).unwrap();
//! let y = c.initial_state();
//! let mut dy = vec![0.0; c.dim()];
//! c.rhs(0.0, &y, &mut dy).unwrap();
//! // the pendulum's centre of mass starts falling straight down
//! assert!(dy[7 + 1] < 0.0 && dy[7].abs() < 1e-12);
//! ```

mod basis;
mod complement;
mod coords;
mod dynamics;
mod error;
mod method;
mod natural;
mod params;
mod redundancy;
mod singular;
mod stabilization;
mod workspace;

pub use complement::{Complement, ComplementStats, Violation, accelerations_at};
pub use coords::{Equations, Evaluator, Level, best_euler_sequence};
pub use error::ComplementError;
pub use mbs_kinematics::EulerSequence;
pub use mbs_linalg::nullspace::NullSpaceMethod;
pub use method::NEWTON_RAPHSON_TOL;
pub use natural::{CutTreatment, NaturalParams, NaturalPartitioning, NaturalStats, TreeSolver};
pub use params::{ComplementParams, Coordinates, Stabilization};
pub use workspace::ComplementWorkspace;
