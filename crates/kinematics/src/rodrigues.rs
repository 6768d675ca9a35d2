//! Rodrigues parameters g = n tan(φ/2) (thesis sec 2.5, where they are called γ;
//! `g` here to avoid a clash with the constraint γ). g = e / e0 for Euler parameters
//! p = [e0, e]; infinite at φ = ±π (e0 = 0), which every conversion *to* g reports as
//! [`KinematicsError::RodriguesSingular`] with the value of cos(φ/2) = e0.
//!
//! The thesis' R is the transpose of our A (R maps global components to body ones),
//! so the signs of the skew terms below are those of eq 2.5.7 transposed.

use nalgebra::{Matrix3, Vector3, Vector4};

use crate::error::{KinematicsError, at_least};
use crate::euler_params::{self, EulerParams};
use crate::skew::skew;

/// Default tolerance on |cos(φ/2)| below which Rodrigues parameters are refused
/// (|g| = tan(φ/2) > 10⁸).
pub const DEFAULT_SINGULARITY_TOL: f64 = 1e-8;

/// Rotation matrix A(g) = [(1 − gᵀg) I + 2 (g gᵀ + g̃)] / (1 + gᵀg) (thesis eq 2.5.7,
/// transposed). Never singular for finite g.
pub fn rotation(g: &Vector3<f64>) -> Matrix3<f64> {
    let gg = g.norm_squared();
    ((1.0 - gg) * Matrix3::identity() + 2.0 * (g * g.transpose() + skew(g))) / (1.0 + gg)
}

/// Euler parameters p = [1, g] / √(1 + gᵀg) (thesis eqs 2.5.1, 2.5.3 and 2.6.1).
/// Never singular for finite g; the result has e0 > 0.
pub fn to_euler_params(g: &Vector3<f64>) -> EulerParams {
    Vector4::new(1.0, g.x, g.y, g.z) / (1.0 + g.norm_squared()).sqrt()
}

/// Rodrigues parameters g = e / e0 of the Euler parameters `p` (need not be
/// normalised).
///
/// # Errors
/// [`KinematicsError::RodriguesSingular`] when |e0|/‖p‖ = |cos(φ/2)| < `tol`
/// (rotation angle near ±π) or `p` is not finite.
pub fn from_euler_params(p: &EulerParams, tol: f64) -> Result<Vector3<f64>, KinematicsError> {
    let c = p[0] / p.norm();
    if at_least(c, tol) {
        Ok(Vector3::new(p[1], p[2], p[3]) / p[0])
    } else {
        Err(KinematicsError::RodriguesSingular {
            cos_half_angle: c,
            tolerance: tol,
        })
    }
}

/// Rodrigues parameters of a rotation matrix: g_i = (A_kj − A_jk) / (1 + tr A) for
/// (i, j, k) cyclic (thesis eq 2.5.11 with R = Aᵀ; 1 + tr A = 4 cos²(φ/2), eq 2.5.10).
///
/// # Errors
/// [`KinematicsError::RodriguesSingular`] when |cos(φ/2)| = √(1 + tr A)/2 < `tol`.
pub fn from_rotation(a: &Matrix3<f64>, tol: f64) -> Result<Vector3<f64>, KinematicsError> {
    let d = 1.0 + a.trace();
    let c = 0.5 * d.max(0.0).sqrt();
    if !at_least(c, tol) {
        return Err(KinematicsError::RodriguesSingular {
            cos_half_angle: c,
            tolerance: tol,
        });
    }
    Ok(Vector3::new(
        a[(2, 1)] - a[(1, 2)],
        a[(0, 2)] - a[(2, 0)],
        a[(1, 0)] - a[(0, 1)],
    ) / d)
}

/// Rodrigues parameters g = u tan(φ/2) of a rotation by `angle` about `axis` (thesis
/// eq 2.5.1; the axis is normalised here).
///
/// # Errors
/// [`KinematicsError::ZeroAxis`] for a zero or non-finite axis;
/// [`KinematicsError::RodriguesSingular`] when |cos(φ/2)| < `tol`.
pub fn from_axis_angle(
    axis: &Vector3<f64>,
    angle: f64,
    tol: f64,
) -> Result<Vector3<f64>, KinematicsError> {
    from_euler_params(&euler_params::try_from_axis_angle(axis, angle)?, tol)
}

/// Unit axis and angle φ ∈ [0, π) of g (inverse of thesis eq 2.5.1:
/// φ = 2 atan ‖g‖); the axis is x for g = 0.
pub fn to_axis_angle(g: &Vector3<f64>) -> (Vector3<f64>, f64) {
    let n = g.norm();
    let angle = 2.0 * n.atan();
    if n > 0.0 {
        (g / n, angle)
    } else {
        (Vector3::x(), angle)
    }
}

/// Global angular velocity ω = 2 (I + g̃) ġ / (1 + gᵀg), the inverse of
/// [`rates_from_omega`] (derived from g = e/e0 and ṗ = ½ Eᵀ ω).
pub fn omega_from_rates(g: &Vector3<f64>, gdot: &Vector3<f64>) -> Vector3<f64> {
    2.0 * (gdot + g.cross(gdot)) / (1.0 + g.norm_squared())
}

/// Body angular velocity ω' = 2 (I − g̃) ġ / (1 + gᵀg).
pub fn omega_body_from_rates(g: &Vector3<f64>, gdot: &Vector3<f64>) -> Vector3<f64> {
    2.0 * (gdot - g.cross(gdot)) / (1.0 + g.norm_squared())
}

/// ġ = ½ (I − g̃ + g gᵀ) ω from the global angular velocity (differentiate g = e/e0
/// with ṗ = ½ Eᵀ ω). Never singular for finite g.
pub fn rates_from_omega(g: &Vector3<f64>, omega: &Vector3<f64>) -> Vector3<f64> {
    0.5 * (omega - g.cross(omega) + g * g.dot(omega))
}

/// ġ = ½ (I + g̃ + g gᵀ) ω' from the body angular velocity (ṗ = ½ Gᵀ ω').
pub fn rates_from_omega_body(g: &Vector3<f64>, omega_body: &Vector3<f64>) -> Vector3<f64> {
    0.5 * (omega_body + g.cross(omega_body) + g * g.dot(omega_body))
}
