//! ALF-DCA: the divide-and-conquer algorithm of Malczyk & Frączek (2012,
//! `seeds/000_…`) with augmented-Lagrangian multiplier iterations and DCA-form
//! mass-orthogonal projections, parallel with rayon.
//!
//! - [`handles`]: the sub-assemblies of the binary assembly tree of
//!   `mbs_model::Topology`, their handles and the root boundary conditions
//!   (sec 2.2.2, 2.3, coupled loops sec 4.3);
//! - [`assembly`]: the assembly phase, eqs 9–32 (matrices once per evaluation,
//!   vectors per iteration, sec 4.4);
//! - [`disassembly`]: the disassembly phase, eqs 21, 23, 33–40;
//! - [`accelerations`]: the multiplier iterations, eqs 6–8 and 17;
//! - [`projection`]: mass-orthogonal projections of positions (eqs 41–56) and
//!   velocities (eqs 57–72) reusing the same assembly;
//! - [`system`]: [`AlfDca`], an [`mbs_integrators::OdeSystem`] on y = [q; v] with
//!   velocities [ṙ, ω'] (see there for the layout and why it is equivalent to the
//!   paper's [ṙ, ṗ]).
//!
//! Every joint's equations come from `mbs-constraints` ([`mbs_constraints::ConstraintBlock`]).
//! One multiplier iteration of ALF-DCA solves the same linear system as one iteration
//! of the global ALF, (M + Φ_qᵀαΦ_q) q̈ = Q − Φ_qᵀ(λ* + αγ̄), by a different
//! elimination order, so with the same α and iteration count both give the same
//! accelerations up to round-off (≈ α·ε/λ_min(M)).
//!
//! Parallelism: independent subtrees are assembled and disassembled with
//! `rayon::join`; each node's arithmetic does not depend on the schedule, so results
//! are identical bit for bit for any number of threads. An evaluation allocates
//! nothing (all storage is made by [`AlfDca::new`]).
//!
//! ```
//! use std::sync::Arc;
//! use mbs_dca::{AlfDca, DcaParams};
//! use mbs_integrators::OdeSystem;
//! let model = Arc::new(mbs_mechanisms::alf_dca::five_bar(&Default::default()).unwrap());
//! let mut dca = AlfDca::new(model, DcaParams::default());
//! let y = dca.initial_state();
//! let mut dy = vec![0.0; dca.dim()];
//! dca.rhs(0.0, &y, &mut dy).unwrap();
//! assert!(dy.iter().all(|x| x.is_finite()));
//! ```

pub mod accelerations;
pub mod assembly;
pub mod bench;
mod dense;
pub mod disassembly;
pub mod error;
pub mod handles;
pub mod params;
pub mod projection;
pub mod system;
mod tree;

pub use accelerations::AccelerationInfo;
pub use error::DcaError;
pub use params::DcaParams;
pub use projection::ProjectionInfo;
pub use system::{AlfDca, DcaStats};
