//! Typed errors of the kinematics crate. Every singular case reports the value that
//! made it singular; no function of this crate panics on bad input.

use crate::euler_angles::EulerSequence;

/// Why a kinematic conversion could not be carried out.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum KinematicsError {
    /// Euler angles at (or within `tolerance` of) the gimbal singularity (thesis sec 2.4:
    /// the first and third rotation axes become collinear). For proper Euler sequences
    /// (ZXZ, …) the singular factor is sin β; for Tait–Bryan sequences (XYZ, …) it is
    /// cos β. Both are reported; the singular one has magnitude below `tolerance` (or is
    /// not finite).
    #[error(
        "gimbal lock of the {sequence} Euler-angle sequence: sin β = {sin_beta:e}, \
         cos β = {cos_beta:e}; |{}| must be at least {tolerance:e}",
        .sequence.singular_factor_name()
    )]
    GimbalLock {
        /// The sequence in use.
        sequence: EulerSequence,
        /// sin β of the middle angle.
        sin_beta: f64,
        /// cos β of the middle angle.
        cos_beta: f64,
        /// The tolerance that was violated.
        tolerance: f64,
    },
    /// Rodrigues parameters γ = n tan(φ/2) are infinite at φ = ±π (thesis sec 2.5,
    /// after eq 2.5.11): the rotation has cos(φ/2) = e0 within `tolerance` of zero.
    #[error(
        "Rodrigues parameters are infinite at a rotation of ±π: cos(φ/2) = e0 = {cos_half_angle:e} \
         (|e0| must be at least {tolerance:e})"
    )]
    RodriguesSingular {
        /// cos(φ/2), i.e. the scalar Euler parameter e0 of the normalised rotation.
        cos_half_angle: f64,
        /// The tolerance that was violated.
        tolerance: f64,
    },
    /// A rotation axis of zero (or non-finite) length.
    #[error("rotation axis has length {norm:e}; a non-zero finite axis is required")]
    ZeroAxis {
        /// ‖axis‖.
        norm: f64,
    },
}

/// `true` when |x| ≥ tol; `false` for NaN, so that non-finite input is reported as
/// singular instead of propagating silently.
#[inline]
pub(crate) fn at_least(x: f64, tol: f64) -> bool {
    x.abs() >= tol
}
