//! Euler parameters p = [e0, e1, e2, e3] = [e0, e] (scalar first), pᵀp = 1.
//!
//! Conventions (NOTATION.md, Haug's letters): E(p) = [−e, ẽ + e0 I],
//! G(p) = [−e, −ẽ + e0 I], A = E Gᵀ maps body-frame vectors to the global frame,
//! global ω = 2 E ṗ, body ω' = 2 G ṗ, ṗ = ½ Eᵀ ω = ½ Gᵀ ω' (for pᵀṗ = 0).
//! Chiou (thesis ch. 2) and Nikravesh write these with other letters; see
//! [`l_matrix`].
//!
//! Thesis correspondence (Chiou 1990, ch. 2): his q = [q0, qₙ] is our p; his
//! direction-cosine matrix R maps global components to body components
//! (r^b = R r^e, eq 2.2.12), so **R = Aᵀ**; his ω (eqs 2.8.2–2.8.7) has body
//! components, and his T(q) (eq 2.8.3) is our G(p): ω' = 2 G ṗ.
//!
//! Quaternion products: p ⊗ q (see [`product`]) satisfies A(p ⊗ q) = A(p) A(q);
//! ṗ = ½ [0, ω] ⊗ p = ½ p ⊗ [0, ω'].
//!
//! Conversions to and from Euler angles and Rodrigues parameters are in
//! [`crate::euler_angles`] (`to_euler_params`, `from_euler_params`) and
//! [`crate::rodrigues`] (same names); the implicit midpoint update of p is in
//! [`crate::implicit_update`].

use nalgebra::{Matrix3, Matrix3x4, RowVector4, Vector3, Vector4};

use crate::error::KinematicsError;
use crate::skew::skew;

/// Euler parameters as a plain 4-vector, scalar part first.
pub type EulerParams = Vector4<f64>;

/// The identity rotation [1, 0, 0, 0].
#[inline]
pub fn identity() -> EulerParams {
    Vector4::new(1.0, 0.0, 0.0, 0.0)
}

#[inline]
fn vec_part(p: &EulerParams) -> Vector3<f64> {
    Vector3::new(p[1], p[2], p[3])
}

/// E(p) = [−e, ẽ + e0 I] (3×4); ω = 2 E ṗ in the global frame.
#[inline]
pub fn e_matrix(p: &EulerParams) -> Matrix3x4<f64> {
    let e = vec_part(p);
    let b = skew(&e) + Matrix3::identity() * p[0];
    let mut m = Matrix3x4::zeros();
    m.fixed_view_mut::<3, 1>(0, 0).copy_from(&(-e));
    m.fixed_view_mut::<3, 3>(0, 1).copy_from(&b);
    m
}

/// G(p) = [−e, −ẽ + e0 I] (3×4); ω' = 2 G ṗ in the body frame.
#[inline]
pub fn g_matrix(p: &EulerParams) -> Matrix3x4<f64> {
    let e = vec_part(p);
    let b = -skew(&e) + Matrix3::identity() * p[0];
    let mut m = Matrix3x4::zeros();
    m.fixed_view_mut::<3, 1>(0, 0).copy_from(&(-e));
    m.fixed_view_mut::<3, 3>(0, 1).copy_from(&b);
    m
}

/// Nikravesh's L(p), which is the body-frame matrix called G(p) here
/// (Nikravesh's G is our E). Provided so code following Nikravesh or Chiou
/// reads naturally: A = E Gᵀ (ours) = G Lᵀ (Nikravesh).
#[inline]
pub fn l_matrix(p: &EulerParams) -> Matrix3x4<f64> {
    g_matrix(p)
}

/// Rotation matrix A(p) = E Gᵀ of a *unit* p, written out: the transpose of the
/// thesis' R (eqs 2.6.5–2.6.6), since A maps body components to global ones.
#[inline]
pub fn rotation_unit(p: &EulerParams) -> Matrix3<f64> {
    let (e0, e1, e2, e3) = (p[0], p[1], p[2], p[3]);
    Matrix3::new(
        2.0 * (e0 * e0 + e1 * e1) - 1.0,
        2.0 * (e1 * e2 - e0 * e3),
        2.0 * (e1 * e3 + e0 * e2),
        2.0 * (e1 * e2 + e0 * e3),
        2.0 * (e0 * e0 + e2 * e2) - 1.0,
        2.0 * (e2 * e3 - e0 * e1),
        2.0 * (e1 * e3 - e0 * e2),
        2.0 * (e2 * e3 + e0 * e1),
        2.0 * (e0 * e0 + e3 * e3) - 1.0,
    )
}

/// Rotation matrix of p / ‖p‖: an exact rotation for any non-zero p.
///
/// All constraint equations use this form, so that Φ does not depend on ‖p‖ and its
/// derivative along p vanishes; the normalization constraint pᵀp − 1 = 0 fixes ‖p‖.
#[inline]
pub fn rotation(p: &EulerParams) -> Matrix3<f64> {
    rotation_unit(&(p / p.norm()))
}

/// Global angular velocity ω = 2 E(p) ṗ (the global-frame counterpart of thesis
/// eq 2.8.2; ω = A ω').
#[inline]
pub fn omega_from_pdot(p: &EulerParams, pdot: &Vector4<f64>) -> Vector3<f64> {
    2.0 * e_matrix(p) * pdot
}

/// Body angular velocity ω' = 2 G(p) ṗ (thesis eq 2.8.2, whose T(q) is our G).
#[inline]
pub fn omega_body_from_pdot(p: &EulerParams, pdot: &Vector4<f64>) -> Vector3<f64> {
    2.0 * g_matrix(p) * pdot
}

/// ṗ = ½ Eᵀ(p) ω = ½ [0, ω] ⊗ p from the global angular velocity (satisfies pᵀṗ = 0;
/// the global-frame counterpart of thesis eq 2.8.7).
#[inline]
pub fn pdot_from_omega(p: &EulerParams, omega: &Vector3<f64>) -> Vector4<f64> {
    0.5 * e_matrix(p).transpose() * omega
}

/// ṗ = ½ Gᵀ(p) ω' = ½ p ⊗ [0, ω'] from the body angular velocity (satisfies pᵀṗ = 0;
/// thesis eq 2.8.7, ṗ = A(ω) q with his ω in body components).
#[inline]
pub fn pdot_from_omega_body(p: &EulerParams, omega_body: &Vector3<f64>) -> Vector4<f64> {
    0.5 * g_matrix(p).transpose() * omega_body
}

/// Euler parameters of a rotation matrix, robust for every angle (Shepperd's method:
/// the largest of e0², e1², e2², e3² is computed first; thesis eqs 2.6.8–2.6.11 and the
/// selection algorithm after them, written for A = Rᵀ). The result has e0 ≥ 0 and unit
/// norm; for a 180° rotation (e0 = 0) the sign of the vector part is the one the
/// formulas give (p and −p are the same rotation).
pub fn from_rotation(a: &Matrix3<f64>) -> EulerParams {
    let tr = a.trace();
    let d = [tr, a[(0, 0)], a[(1, 1)], a[(2, 2)]];
    let mut k = 0;
    for i in 1..4 {
        if d[i] > d[k] {
            k = i;
        }
    }
    let mut p = match k {
        0 => {
            let e0 = 0.5 * (1.0 + tr).max(0.0).sqrt();
            let f = 0.25 / e0;
            Vector4::new(
                e0,
                f * (a[(2, 1)] - a[(1, 2)]),
                f * (a[(0, 2)] - a[(2, 0)]),
                f * (a[(1, 0)] - a[(0, 1)]),
            )
        }
        1 => {
            let e1 = 0.5 * (1.0 + 2.0 * a[(0, 0)] - tr).max(0.0).sqrt();
            let f = 0.25 / e1;
            Vector4::new(
                f * (a[(2, 1)] - a[(1, 2)]),
                e1,
                f * (a[(0, 1)] + a[(1, 0)]),
                f * (a[(0, 2)] + a[(2, 0)]),
            )
        }
        2 => {
            let e2 = 0.5 * (1.0 + 2.0 * a[(1, 1)] - tr).max(0.0).sqrt();
            let f = 0.25 / e2;
            Vector4::new(
                f * (a[(0, 2)] - a[(2, 0)]),
                f * (a[(0, 1)] + a[(1, 0)]),
                e2,
                f * (a[(1, 2)] + a[(2, 1)]),
            )
        }
        _ => {
            let e3 = 0.5 * (1.0 + 2.0 * a[(2, 2)] - tr).max(0.0).sqrt();
            let f = 0.25 / e3;
            Vector4::new(
                f * (a[(1, 0)] - a[(0, 1)]),
                f * (a[(0, 2)] + a[(2, 0)]),
                f * (a[(1, 2)] + a[(2, 1)]),
                e3,
            )
        }
    };
    if p[0] < 0.0 {
        p = -p;
    }
    p / p.norm()
}

/// Euler parameters of a rotation by `angle` about the unit vector `axis`
/// (thesis eq 2.6.1): p = [cos(φ/2), u sin(φ/2)]. The axis is normalised here; a zero
/// axis gives NaN (use [`try_from_axis_angle`] for a checked version).
pub fn from_axis_angle(axis: &Vector3<f64>, angle: f64) -> EulerParams {
    let u = axis / axis.norm();
    let (s, c) = (0.5 * angle).sin_cos();
    Vector4::new(c, u.x * s, u.y * s, u.z * s)
}

/// Normalization constraint Φᴺ = pᵀp − 1 (NOTATION.md: the full form, not ½).
/// Its Jacobian is 2pᵀ and its γ is −2ṗᵀṗ (see [`normalization_gamma`]).
#[inline]
pub fn normalization(p: &EulerParams) -> f64 {
    p.norm_squared() - 1.0
}

/// γ of the normalization constraint: Φ̈ᴺ = 2pᵀp̈ + 2ṗᵀṗ = 0 ⇒ 2pᵀp̈ = −2ṗᵀṗ.
#[inline]
pub fn normalization_gamma(pdot: &Vector4<f64>) -> f64 {
    -2.0 * pdot.norm_squared()
}

/// Checked [`from_axis_angle`]: a zero or non-finite axis is reported as
/// [`KinematicsError::ZeroAxis`] with its length.
pub fn try_from_axis_angle(
    axis: &Vector3<f64>,
    angle: f64,
) -> Result<EulerParams, KinematicsError> {
    let norm = axis.norm();
    if !(norm > 0.0 && norm.is_finite()) {
        return Err(KinematicsError::ZeroAxis { norm });
    }
    Ok(from_axis_angle(axis, angle))
}

/// Unit axis u and angle φ ∈ [0, π] of the rotation p (inverse of thesis eq 2.6.1,
/// φ = 2 atan2(‖e‖, e0) after choosing the sign of p with e0 ≥ 0). Robust for every
/// angle, including φ = 0 (axis returned as x, which is arbitrary) and φ = π. `p` need
/// not be normalised.
pub fn to_axis_angle(p: &EulerParams) -> (Vector3<f64>, f64) {
    let p = if p[0] < 0.0 { -p } else { *p };
    let e = vec_part(&p);
    let s = e.norm();
    let angle = 2.0 * s.atan2(p[0]);
    if s > 0.0 {
        (e / s, angle)
    } else {
        (Vector3::x(), angle)
    }
}

/// Euler parameters of the rotation vector θ = φ u (the exponential map,
/// p = [cos(φ/2), u sin(φ/2)], thesis eq 2.6.1), accurate for small |θ| too.
pub fn from_rotation_vector(theta: &Vector3<f64>) -> EulerParams {
    let angle = theta.norm();
    let half = 0.5 * angle;
    // sin(φ/2)/φ, with its Taylor series for small φ.
    let k = if angle < 1e-4 {
        0.5 - angle * angle / 48.0
    } else {
        half.sin() / angle
    };
    Vector4::new(half.cos(), k * theta.x, k * theta.y, k * theta.z)
}

/// The rotation vector θ = φ u, φ ∈ [0, π], of p (inverse of
/// [`from_rotation_vector`]); `p` need not be normalised.
pub fn to_rotation_vector(p: &EulerParams) -> Vector3<f64> {
    let p = if p[0] < 0.0 { -p } else { *p };
    let e = vec_part(&p);
    let s = e.norm();
    if s < 1e-8 * p[0] {
        // φ/‖e‖ = 2 atan2(s, e0)/s = 2/e0 (1 + O(s²/e0²)).
        e * (2.0 / p[0])
    } else {
        e * (2.0 * s.atan2(p[0]) / s)
    }
}

/// Quaternion product p ⊗ q = [p0 q0 − p·q, p0 q + q0 p + p × q]:
/// A(p ⊗ q) = A(p) A(q) (the rotation q followed, in the global frame, by p).
#[inline]
pub fn product(p: &EulerParams, q: &EulerParams) -> EulerParams {
    let (a, b) = (vec_part(p), vec_part(q));
    let v = p[0] * b + q[0] * a + a.cross(&b);
    Vector4::new(p[0] * q[0] - a.dot(&b), v.x, v.y, v.z)
}

/// Conjugate [e0, −e]: the inverse rotation of a unit p, A(p*) = A(p)ᵀ.
#[inline]
pub fn conjugate(p: &EulerParams) -> EulerParams {
    Vector4::new(p[0], -p[1], -p[2], -p[3])
}

/// p / ‖p‖.
#[inline]
pub fn normalize(p: &EulerParams) -> EulerParams {
    p / p.norm()
}

/// Ė = E(ṗ): E is linear in p.
#[inline]
pub fn e_matrix_dot(pdot: &Vector4<f64>) -> Matrix3x4<f64> {
    e_matrix(pdot)
}

/// Ġ = G(ṗ): G is linear in p. Ġ ṗ = Ė ṗ = 0, so ω̇' = 2 G p̈ and ω̇ = 2 E p̈
/// (thesis eq 2.8.4 and the remark after it).
#[inline]
pub fn g_matrix_dot(pdot: &Vector4<f64>) -> Matrix3x4<f64> {
    g_matrix(pdot)
}

/// Ȧ = Ė Gᵀ + E Ġᵀ, the time derivative of A = E Gᵀ (thesis eq 2.8.1, transposed).
/// For a unit p with pᵀṗ = 0 it equals ω̃ A = A ω̃' (thesis eqs 2.7.6–2.7.7).
#[inline]
pub fn rotation_dot(p: &EulerParams, pdot: &Vector4<f64>) -> Matrix3<f64> {
    e_matrix_dot(pdot) * g_matrix(p).transpose() + e_matrix(p) * g_matrix_dot(pdot).transpose()
}

/// Global angular acceleration ω̇ = 2 E p̈ (Ė ṗ = 0).
#[inline]
pub fn omega_dot_from_pddot(p: &EulerParams, pddot: &Vector4<f64>) -> Vector3<f64> {
    2.0 * e_matrix(p) * pddot
}

/// Body angular acceleration ω̇' = 2 G p̈ (thesis eq 2.8.4: Ġ ṗ = 0).
#[inline]
pub fn omega_body_dot_from_pddot(p: &EulerParams, pddot: &Vector4<f64>) -> Vector3<f64> {
    2.0 * g_matrix(p) * pddot
}

/// p̈ = ½ Eᵀ ω̇ − ¼ |ω|² p from the global angular velocity and acceleration (the
/// global-frame counterpart of thesis eq 2.8.5). Satisfies the normalization
/// constraint at acceleration level, 2pᵀp̈ = −2ṗᵀṗ, for a unit p.
#[inline]
pub fn pddot_from_omega_dot(
    p: &EulerParams,
    omega: &Vector3<f64>,
    omega_dot: &Vector3<f64>,
) -> Vector4<f64> {
    0.5 * e_matrix(p).transpose() * omega_dot - 0.25 * omega.norm_squared() * p
}

/// p̈ = ½ Gᵀ ω̇' − ¼ |ω'|² p from the body angular velocity and acceleration
/// (thesis eq 2.8.5).
#[inline]
pub fn pddot_from_omega_body_dot(
    p: &EulerParams,
    omega_body: &Vector3<f64>,
    omega_body_dot: &Vector3<f64>,
) -> Vector4<f64> {
    0.5 * g_matrix(p).transpose() * omega_body_dot - 0.25 * omega_body.norm_squared() * p
}

/// Jacobian of the normalization constraint Φᴺ = pᵀp − 1: Φᴺ_p = 2pᵀ.
#[inline]
pub fn normalization_jacobian(p: &EulerParams) -> RowVector4<f64> {
    2.0 * p.transpose()
}

/// Velocity-level normalization constraint Φ̇ᴺ = 2pᵀṗ (thesis eq 2.6.3, doubled).
#[inline]
pub fn normalization_velocity(p: &EulerParams, pdot: &Vector4<f64>) -> f64 {
    2.0 * p.dot(pdot)
}

/// Jacobian ∂(A(p/‖p‖) s')/∂p = −2 A s̃' G / ‖p‖ (A, G at p/‖p‖) of a body-fixed vector
/// s' rotated by [`rotation`]. From δ(A s') = δθ × (A s') with δθ = 2 E δp and
/// Aᵀ E = G (Eᵀ E = I − p pᵀ); it is zero along p, as `rotation` does not depend on ‖p‖.
#[inline]
pub fn rotated_vector_jacobian(p: &EulerParams, s_body: &Vector3<f64>) -> Matrix3x4<f64> {
    let n = p.norm();
    let u = p / n;
    (-2.0 / n) * rotation_unit(&u) * skew(s_body) * g_matrix(&u)
}
