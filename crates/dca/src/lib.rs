//! ALF-DCA: the divide-and-conquer algorithm of Malczyk & Frączek (2012, see
//! `docs/REFERENCES.md`) with augmented-Lagrangian multiplier iterations and DCA-form
//! mass-orthogonal projections, parallel with rayon.
//!
//! - `handles`: the sub-assemblies of the binary assembly tree of
//!   `mbs_model::Topology`, their handles and the root boundary conditions
//!   (sec 2.2.2, 2.3, coupled loops sec 4.3);
//! - `assembly`: the assembly phase, eqs 9–32 (matrices once per evaluation,
//!   vectors per iteration, sec 4.4);
//! - `disassembly`: the disassembly phase, eqs 21, 23, 33–40;
//! - `accelerations`: the multiplier iterations, eqs 6–8 and 17;
//! - `projection`: mass-orthogonal projections of positions (eqs 41–56) and
//!   velocities (eqs 57–72) reusing the same assembly;
//! - `method`: `alf-dca` and `alf-dca-proj` as the facade runs them (the
//!   `mbs-formulation` seam);
//! - `system`: [`AlfDca`], an [`mbs_integrators::OdeSystem`] on y = [q; v] with
//!   velocities [ṙ, ω'] (see there for the layout and why it is equivalent to the
//!   paper's [ṙ, ṗ]).
//!
//! Every joint's equations come from `mbs-constraints` ([`mbs_constraints::ConstraintBlock`]).
//! One multiplier iteration of ALF-DCA solves the same linear system as one iteration
//! of the global ALF, (M + Φ_qᵀαΦ_q) q̈ = Q − Φ_qᵀ(λ* + αγ̄), by a different
//! elimination order, so with the same α and iteration count both give the same
//! accelerations up to round-off (≈ α·ε/λ_min(M)).
//!
//! Parallelism ([`DcaParams::par`], an `mbs_linalg::Par`): independent subtrees are
//! assembled and disassembled with `rayon::join` (the multipliers of the constraints handled at a node are stored and
//! updated there, in the disassembly); each node's arithmetic does not depend on the
//! schedule, so results are identical bit for bit for any number of threads. An evaluation allocates
//! nothing (all storage is made by [`AlfDca::new`]).
//!
//! # Choices (where this implementation departs from the paper's presentation)
//! - Velocities [ṙ, ω'] instead of [ṙ, ṗ] (see `system`): positive definite 6×6
//!   body mass blocks, no normalization rows; the same physical accelerations.
//! - Sub-assemblies may have any number of handles (`handles`): chains and single
//!   loops give the paper's two-handle equations (eqs 15–16), trees and coupled loops
//!   the general form (the loop reduction of eqs 78–86 is one such node).
//! - The elimination is written in Schur-complement form (K_EE, S, r_C in
//!   `assembly`); the paper's form with C of eq 20 is the same algebra by the
//!   Woodbury identity.
//! - γ̄ carries 2Ωμ Φ̇ + Ω²Φ on every holonomic row (as the global ALF), not only on
//!   the normalization rows of eqs 7–8.
//! - Position projection: the paper's modified Newton (matrices kept from q*) is used
//!   while it contracts; for large corrections (‖Φ‖∞ > `reuse_below`, or a slow
//!   iteration) the matrices are formed again at the iterate (see `projection`).
//! - The penalties are relative to the masses the constraint rows see by default
//!   (`PenaltyScale`: α_r = κ/(Φ_q,r M⁻¹ Φ_q,rᵀ) per row, κ = 1e6), not the paper's
//!   absolute α = 1e6 for unit masses, whose round-off α·ε/λ_min(M) exceeds an
//!   adaptive integrator's tolerance on bodies of grams; `PenaltyScale::Absolute`
//!   keeps the paper's.
//! - The projections use their own penalty `DcaParams::projection_alpha` (default
//!   relative, κ_p = 1e11; before absolute 1e10) and iteration cap
//!   `projection_max_iter` (default 25) instead of the dynamics' α and 10: near singular configurations the augmented-Lagrangian
//!   projection with α = 1e6 contracts a mode of singular value σ by
//!   m/(m + ασ²) ≈ 1 and stalls (see `projection`); both levels are iterated in
//!   correction form.
//!
//! # Parameters used in the acceptance tests
//! - agreement with the global ALF (`tests/alf_agreement.rs`): α = 1e5·min(1,
//!   4λ_min(M)), i.e. 1e5 for the paper's mechanisms and less for the generators'
//!   slender links (λ_min ≈ 8e-4), where the round-off α·ε/λ_min(M) of *both*
//!   solvers would otherwise exceed 1e-9; fixed iteration counts 1–10;
//! - paper runs (`tests/paper_runs.rs`): the defaults of [`DcaParams`] (relative
//!   penalties).
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

mod accelerations;
mod assembly;
mod disassembly;
mod error;
mod handles;
mod method;
mod params;
mod projection;
mod system;
mod tree;

pub use accelerations::AccelerationInfo;
pub use error::DcaError;
pub use params::{
    DEFAULT_KAPPA, DEFAULT_PROJECTION_KAPPA, DcaParams, EPS_A_FRACTION, PenaltyScale,
};
pub use projection::ProjectionInfo;
pub use system::{AlfDca, DcaStats};
