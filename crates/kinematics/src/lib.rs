//! Rotations and spatial algebra for `mbs`: Euler parameters, Euler angles,
//! Rodrigues parameters, rotation matrices, skew matrices, spatial vectors and shift
//! matrices. Depends on nalgebra only.
//!
//! Conventions are those of the repository's `docs/NOTATION.md`: Euler parameters scalar first,
//! E(p) = [−e, ẽ + e0 I], G(p) = [−e, −ẽ + e0 I], A = E Gᵀ maps body components to
//! global ones, ω = 2 E ṗ (global), ω' = 2 G ṗ (body).
//!
//! | module | thesis / paper |
//! |---|---|
//! | [`euler_params`] | Chiou (1990) secs 2.6, 2.8 (his R = Aᵀ, his T = G) |
//! | [`euler_angles`] | Chiou sec 2.4, all 12 sequences |
//! | [`rodrigues`] | Chiou sec 2.5 |
//! | [`implicit_update`] | Chiou sec 5.5.4, eqs 5.5.4.4–5.5.4.7 |
//! | [`spatial`] | Chadaj, Malczyk & Frączek (2017), eqs 9, 14, 49–53 |
//! | [`skew()`] / [`unskew`] | Chiou eq 2.7.8 |
//!
//! The five modules above are public on purpose: each parametrization has its own
//! `rotation`, `to_euler_params`, `from_rotation`, …, and the module name says which
//! one a call means (`rodrigues::rotation(&g)` against `euler_params::rotation(&p)`).
//! Everything else is at the crate root.
//!
//! No function panics on bad input; singular cases return [`KinematicsError`] with the
//! offending value.
//!
//! ```
//! use mbs_kinematics::{EulerSequence, euler_angles, euler_params, implicit_update};
//! use nalgebra::Vector3;
//!
//! // ZXZ Euler angles (thesis sec 2.4) → Euler parameters → rotation matrix and back.
//! let angles = Vector3::new(0.3, 1.2, -0.4);
//! let p = euler_angles::to_euler_params(EulerSequence::Zxz, &angles);
//! let a = euler_params::rotation(&p);
//! let back = euler_angles::from_rotation(EulerSequence::Zxz, &a, 1e-8).unwrap();
//! assert!((back - angles).norm() < 1e-12);
//!
//! // Gimbal lock is a typed error naming sin β.
//! let err = euler_angles::from_rotation(EulerSequence::Zxz, &nalgebra::Matrix3::identity(), 1e-8);
//! assert!(err.unwrap_err().to_string().contains("sin β = 0"));
//!
//! // One implicit-midpoint step of the Euler parameters (thesis eq 5.5.4.6).
//! let q = implicit_update::midpoint_update_body(&p, &Vector3::new(0.0, 0.0, 2.0), 1e-3);
//! assert!((q.norm() - 1.0).abs() < 1e-15);
//! ```

mod error;
pub mod euler_angles;
pub mod euler_params;
pub mod implicit_update;
pub mod rodrigues;
mod skew;
pub mod spatial;

pub use error::KinematicsError;
pub use euler_angles::EulerSequence;
pub use euler_params::EulerParams;
pub use skew::{skew, unskew};
pub use spatial::SpatialVector;
