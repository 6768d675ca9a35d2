//! Global descriptor-form front-ends (Bayo–Ledesma 1996; Chiou 1990 sec 5.3;
//! Pękal–Frączek sec 2):
//!
//! - classical Lagrange multipliers, index 1 (eq 4), with optional Baumgarte
//!   stabilization and Newton–Raphson position correction (`lagrange`);
//! - the augmented Lagrangian formulation, index 1 (eqs 5–8) (`alf`);
//! - mass-orthogonal projections of positions, velocities and accelerations
//!   (eqs 9–34) in augmented-Lagrangian and KKT form (`projection`);
//! - algorithm ALF-INDEX1: any of the above integrated as an ODE in (q, q̇) with
//!   projections every k steps (`index1`);
//! - algorithm ALF-INDEX3 (eqs 35–40) with the trapezoidal and midpoint rules
//!   (`index3`);
//!
//! over any system implementing [`Descriptor`]; [`mechanism::MechanismDescriptor`]
//! provides it for an `mbs-model` [`mbs_model::Model`] in absolute coordinates with
//! Euler parameters and velocities [ṙ, ṗ]. `method` runs these methods for the
//! facade (method names, `key=value` parameters and the formulation built from an
//! `Arc<Model>`, through `mbs-formulation`'s seam).

mod alf;
mod assembly;
mod branch;
mod descriptor;
mod error;
mod index1;
mod index3;
mod lagrange;
mod leading;
mod mechanism;
mod method;
mod min_norm;
mod params;
mod penalty;
mod penalty_scale;
mod projection;
mod recovery;
mod sparse_alf;
mod sparse_lagrange;

pub use alf::{AlfAccelerations, AlfInfo};
pub use assembly::{AssemblyParams, AssemblyReport, assemble};
pub use branch::{BranchGuard, DRIFT_TOL};
pub use descriptor::{Descriptor, DescriptorData, Level};
pub use error::AlfError;
pub use index1::{Index1, Index1Stats};
pub use index3::{AlfIndex3, Index3Params, Index3Stats, STALL};
pub use lagrange::LagrangeAccelerations;
pub use leading::LeadingMatrix;
pub use mechanism::MechanismDescriptor;
pub use method::{AlfBackend, AlfIndex1Params, LagrangeParams, PenaltyMethodParams};
pub use params::{AlfParams, Baumgarte, Formulation, Projection, ProjectionParams};
pub use penalty::{
    BaumgarteOde, InitialMultipliers, LambdaBackend, LambdaUpdate, OneStagePenalty, PenaltyOde,
    PenaltyParams, PenaltyStats, PenaltySystem, Violation,
};
pub use penalty_scale::{
    ADAPTIVE_HALF_STEP, AlphaScale, DEFAULT_EPSILON_KAPPA, DEFAULT_KAPPA, EpsilonScale,
    constraint_inverse_masses,
};
pub use projection::{ProjectionInfo, ProjectionKind, Projector};
pub use recovery::{MultiplierRecovery, SPARSE_FROM_BODIES};
pub use sparse_alf::SparseAlf;
pub use sparse_lagrange::SparseLagrange;
