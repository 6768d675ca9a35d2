//! Hamiltonian divide-and-conquer algorithm (HDCA) of Chadaj, Malczyk & Frączek (2017)
//! in 3-D: Hamilton's canonical equations in joint coordinates q and joint canonical
//! momenta p, with velocities and constraint impulses σ by assembly–disassembly over
//! the binary assembly tree (sec 2.2, eqs 17–46) and the time derivatives of the
//! momenta from articulated momenta and loads (sec 2.3, eqs 47–77). Closed loops are
//! opened at the cut joints of the model's spanning tree; their velocity-level
//! closure Dᵀ ΔV = 0 is part of every evaluation, so it holds to round-off.
//!
//! | module | paper |
//! |---|---|
//! | [`joint`] | H and D subspaces, eqs 10–11, 23 |
//! | `assembly` | eqs 15–46 (assembly, base-body connection, disassembly) |
//! | `solve` | the inverses of eqs 26–27, 43, 45 (pseudo-inverse when redundant) |
//! | [`hdca`] | eqs 6, 47–77; Pseudo-algorithm 3 |
//! | [`report`] | sec 3.2 quantities (energy, loop closure) |
//!
//! Joint kinds: revolute, prismatic, cylindrical, spherical (Euler-parameter joint
//! coordinate) and rigid, as tree or cut joints. The universal joint and the other
//! kinds are rejected with an error naming the joint.
//!
//! Reaction forces (sec 3.4): the impulses σ are available ([`Hdca::impulses`]); the
//! forces λ = σ̇ are not computed. For a reaction that keeps its sign, σ grows like
//! ∫λ dt (e.g. linearly under gravity); [`HdcaStats::max_abs_sigma`] reports it. The
//! state does not contain σ, so this growth does not enter the integrator's error
//! control, only the round-off of P̄ = Dσ + Hp.

pub mod error;
pub mod hdca;
pub mod joint;
pub mod params;
pub mod report;

mod assembly;
mod solve;

pub use error::HdcaError;
pub use hdca::{Hdca, HdcaStats};
pub use params::HdcaParams;
pub use report::{HdcaRunReport, run_report};
