//! Linear-algebra backends: dense, sparse direct, Schur-complement PCG, null-space bases
#![doc = include_str!("../README.md")]

mod backend;
pub mod dense;
mod error;
pub mod nullspace;
mod par;
pub mod pcg;
mod rng;
pub mod scratch;
pub mod small;
pub mod sparse;
mod traits;

pub use backend::{AnyKktSolver, AnySpdSolver, KktBackend, SpdBackend};
pub use error::LinalgError;
pub use par::Par;
pub use rng::SplitMix64;
pub use traits::{KktSolver, SpdSolver};
