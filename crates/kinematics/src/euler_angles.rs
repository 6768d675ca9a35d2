//! Euler angles θ = [α, β, γ] for all 12 rotation sequences (thesis sec 2.4).
//!
//! A sequence (a₁, a₂, a₃) means *intrinsic* rotations: α about body axis a₁, then β
//! about the once-rotated axis a₂, then γ about the twice-rotated axis a₃, so that
//!
//! ```text
//! A(θ) = R_{a₁}(α) R_{a₂}(β) R_{a₃}(γ)      (body → global)
//! ```
//!
//! with R_k(φ) the active rotation by φ about the coordinate axis k. (The same matrix
//! is the *extrinsic* sequence a₃, a₂, a₁ with angles γ, β, α.) Proper Euler sequences
//! (a₁ = a₃, e.g. ZXZ) are singular at sin β = 0, Tait–Bryan sequences (all axes
//! different, e.g. ZYX) at cos β = 0; every function that divides by that factor
//! returns [`KinematicsError::GimbalLock`] when its magnitude is below a tolerance.
//!
//! Thesis correspondence: Chiou's ZXZ angles (α about k, β about i', γ about k'',
//! eq 2.4.1) are [`EulerSequence::Zxz`] here, with his R = Aᵀ (his elementary
//! matrices in eq 2.4.4 are the transposes R_k(φ)ᵀ). Note that the matrix printed as
//! eq 2.4.2, and hence eqs 2.4.6–2.4.8, has α and γ interchanged with respect to
//! eq 2.4.1 and the text; this module follows eq 2.4.1 and the text (α is the first
//! rotation, about the global z axis), and the extraction below is eqs 2.4.6–2.4.8
//! corrected accordingly and generalised to every sequence.

use std::fmt;

use nalgebra::{Matrix3, Vector3, Vector4};
use serde::{Deserialize, Serialize};

use crate::error::{KinematicsError, at_least};
use crate::euler_params::{self, EulerParams};

/// Default tolerance on |sin β| (proper) or |cos β| (Tait–Bryan): about √ε, where the
/// rounding error of the extracted α and γ (∼ ε/|sin β|) equals the error of the
/// gimbal-lock fallback of [`from_rotation_lenient`] (∼ |sin β|).
pub const DEFAULT_SINGULARITY_TOL: f64 = 1e-8;

/// The 12 Euler-angle sequences: six proper Euler (a₁ = a₃) and six Tait–Bryan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EulerSequence {
    /// X, Y, X (proper).
    Xyx,
    /// X, Y, Z (Tait–Bryan).
    Xyz,
    /// X, Z, X (proper).
    Xzx,
    /// X, Z, Y (Tait–Bryan).
    Xzy,
    /// Y, X, Y (proper).
    Yxy,
    /// Y, X, Z (Tait–Bryan).
    Yxz,
    /// Y, Z, X (Tait–Bryan).
    Yzx,
    /// Y, Z, Y (proper).
    Yzy,
    /// Z, X, Y (Tait–Bryan).
    Zxy,
    /// Z, X, Z (proper): the thesis' sequence (sec 2.4).
    Zxz,
    /// Z, Y, X (Tait–Bryan): yaw, pitch, roll.
    Zyx,
    /// Z, Y, Z (proper).
    Zyz,
}

impl EulerSequence {
    /// All 12 sequences.
    pub const ALL: [EulerSequence; 12] = [
        Self::Xyx,
        Self::Xyz,
        Self::Xzx,
        Self::Xzy,
        Self::Yxy,
        Self::Yxz,
        Self::Yzx,
        Self::Yzy,
        Self::Zxy,
        Self::Zxz,
        Self::Zyx,
        Self::Zyz,
    ];

    /// The rotation axes (0 = x, 1 = y, 2 = z) in order of application.
    pub const fn axes(self) -> [usize; 3] {
        match self {
            Self::Xyx => [0, 1, 0],
            Self::Xyz => [0, 1, 2],
            Self::Xzx => [0, 2, 0],
            Self::Xzy => [0, 2, 1],
            Self::Yxy => [1, 0, 1],
            Self::Yxz => [1, 0, 2],
            Self::Yzx => [1, 2, 0],
            Self::Yzy => [1, 2, 1],
            Self::Zxy => [2, 0, 1],
            Self::Zxz => [2, 0, 2],
            Self::Zyx => [2, 1, 0],
            Self::Zyz => [2, 1, 2],
        }
    }

    /// `true` for proper Euler sequences (first axis = third axis).
    pub const fn is_proper(self) -> bool {
        let a = self.axes();
        a[0] == a[2]
    }

    /// "sin β" for proper sequences, "cos β" for Tait–Bryan ones: the factor that
    /// vanishes at gimbal lock.
    pub const fn singular_factor_name(self) -> &'static str {
        if self.is_proper() { "sin β" } else { "cos β" }
    }

    /// The factor that vanishes at gimbal lock for the middle angle β: sin β for
    /// proper sequences, cos β for Tait–Bryan ones.
    pub fn singular_factor(self, beta: f64) -> f64 {
        if self.is_proper() {
            beta.sin()
        } else {
            beta.cos()
        }
    }

    /// +1 if (a₁, a₂, third axis) is a cyclic permutation of (x, y, z), −1 otherwise.
    const fn parity(self) -> f64 {
        let a = self.axes();
        if a[1] == (a[0] + 1) % 3 { 1.0 } else { -1.0 }
    }
}

impl fmt::Display for EulerSequence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const NAMES: [&str; 3] = ["X", "Y", "Z"];
        let a = self.axes();
        write!(f, "{}{}{}", NAMES[a[0]], NAMES[a[1]], NAMES[a[2]])
    }
}

/// Unit vector of coordinate axis `k` (0, 1, 2).
#[inline]
fn unit(k: usize) -> Vector3<f64> {
    let mut v = Vector3::zeros();
    v[k] = 1.0;
    v
}

/// Active rotation R_k(φ) by `angle` about coordinate axis `axis` (0 = x, 1 = y,
/// 2 = z; larger values are taken modulo 3); the transpose of the thesis' elementary
/// matrices (eq 2.4.4).
pub fn axis_rotation(axis: usize, angle: f64) -> Matrix3<f64> {
    let axis = axis % 3;
    let (l, m) = ((axis + 1) % 3, (axis + 2) % 3);
    let (s, c) = angle.sin_cos();
    let mut r = Matrix3::zeros();
    r[(axis, axis)] = 1.0;
    r[(l, l)] = c;
    r[(m, m)] = c;
    r[(m, l)] = s;
    r[(l, m)] = -s;
    r
}

/// Rotation matrix A = R_{a₁}(α) R_{a₂}(β) R_{a₃}(γ) (thesis eq 2.4.1, transposed
/// since A = Rᵀ). Never singular.
pub fn rotation(seq: EulerSequence, angles: &Vector3<f64>) -> Matrix3<f64> {
    let a = seq.axes();
    axis_rotation(a[0], angles[0]) * axis_rotation(a[1], angles[1]) * axis_rotation(a[2], angles[2])
}

/// Euler parameters of an axis rotation: [cos(φ/2), e_k sin(φ/2)] (thesis eq 2.6.1).
fn axis_params(axis: usize, angle: f64) -> EulerParams {
    let (s, c) = (0.5 * angle).sin_cos();
    let mut p = Vector4::new(c, 0.0, 0.0, 0.0);
    p[1 + axis % 3] = s;
    p
}

/// Euler parameters of the Euler angles: p = p_{a₁}(α) ⊗ p_{a₂}(β) ⊗ p_{a₃}(γ).
/// Never singular; A(p) equals [`rotation`].
pub fn to_euler_params(seq: EulerSequence, angles: &Vector3<f64>) -> EulerParams {
    let a = seq.axes();
    let p = euler_params::product(&axis_params(a[0], angles[0]), &axis_params(a[1], angles[1]));
    euler_params::product(&p, &axis_params(a[2], angles[2]))
}

/// Angles of a rotation matrix (thesis eqs 2.4.5–2.4.8, generalised; see the module
/// notes), together with sin β, cos β and the non-negative singular factor computed
/// from the matrix. α, γ ∈ (−π, π]; β ∈ [0, π] (proper) or [−π/2, π/2] (Tait–Bryan).
fn extract(seq: EulerSequence, a: &Matrix3<f64>) -> (Vector3<f64>, f64, f64, f64) {
    let ax = seq.axes();
    let eps = seq.parity();
    let (i, j) = (ax[0], ax[1]);
    if seq.is_proper() {
        let k = 3 - i - j;
        // Column i: [A_ji, A_ki] = sβ [sα, −ε cα]; row i: [A_ij, A_ik] = sβ [sγ, ε cγ].
        let sb = a[(j, i)].hypot(a[(k, i)]);
        let cb = a[(i, i)];
        let alpha = a[(j, i)].atan2(-eps * a[(k, i)]);
        let beta = sb.atan2(cb);
        let gamma = a[(i, j)].atan2(eps * a[(i, k)]);
        (Vector3::new(alpha, beta, gamma), sb, cb, sb)
    } else {
        let k = ax[2];
        // Row i: [A_ii, A_ij, A_ik] = [cβ cγ, −ε cβ sγ, ε sβ];
        // column k: [A_jk, A_kk] = cβ [−ε sα, cα].
        let cb = a[(i, i)].hypot(a[(i, j)]);
        let sb = eps * a[(i, k)];
        let alpha = (-eps * a[(j, k)]).atan2(a[(k, k)]);
        let beta = sb.atan2(cb);
        let gamma = (-eps * a[(i, j)]).atan2(a[(i, i)]);
        (Vector3::new(alpha, beta, gamma), sb, cb, cb)
    }
}

/// Euler angles of the rotation matrix `a` (thesis eqs 2.4.5–2.4.8, generalised to
/// all sequences). α, γ ∈ (−π, π]; β ∈ [0, π] for proper sequences and
/// [−π/2, π/2] for Tait–Bryan ones.
///
/// # Errors
/// [`KinematicsError::GimbalLock`] when |sin β| (proper) or |cos β| (Tait–Bryan) is
/// below `tol` (or not finite): α and γ are then not separately defined.
pub fn from_rotation(
    seq: EulerSequence,
    a: &Matrix3<f64>,
    tol: f64,
) -> Result<Vector3<f64>, KinematicsError> {
    let (angles, sin_beta, cos_beta, factor) = extract(seq, a);
    if at_least(factor, tol) {
        Ok(angles)
    } else {
        Err(KinematicsError::GimbalLock {
            sequence: seq,
            sin_beta,
            cos_beta,
            tolerance: tol,
        })
    }
}

/// Euler angles of `a` that never fail: as [`from_rotation`] away from gimbal lock;
/// within [`DEFAULT_SINGULARITY_TOL`] of it, γ = 0 and α takes the whole rotation
/// about the (collinear) first/third axis: R_{a₁}(α) = A R_{a₂}(β)ᵀ. The rotation is
/// then reproduced to about the tolerance. Non-finite input gives non-finite angles.
pub fn from_rotation_lenient(seq: EulerSequence, a: &Matrix3<f64>) -> Vector3<f64> {
    let (angles, _, _, factor) = extract(seq, a);
    if at_least(factor, DEFAULT_SINGULARITY_TOL) {
        return angles;
    }
    let ax = seq.axes();
    let beta = angles[1];
    let n = a * axis_rotation(ax[1], beta).transpose();
    let (l, m) = ((ax[0] + 1) % 3, (ax[0] + 2) % 3);
    Vector3::new(n[(m, l)].atan2(n[(l, l)]), beta, 0.0)
}

/// Euler angles of the Euler parameters `p` (via [`euler_params::rotation`], so `p`
/// need not be normalised).
///
/// # Errors
/// As [`from_rotation`].
pub fn from_euler_params(
    seq: EulerSequence,
    p: &EulerParams,
    tol: f64,
) -> Result<Vector3<f64>, KinematicsError> {
    from_rotation(seq, &euler_params::rotation(p), tol)
}

/// Columns of the global rate matrix: e_{a₁}, R_{a₁}(α) e_{a₂},
/// R_{a₁}(α) R_{a₂}(β) e_{a₃} (the axes of the three rotations in the global frame).
fn global_axes(seq: EulerSequence, angles: &Vector3<f64>) -> [Vector3<f64>; 3] {
    let a = seq.axes();
    let r1 = axis_rotation(a[0], angles[0]);
    let c1 = r1 * unit(a[1]);
    let c2 = r1 * (axis_rotation(a[1], angles[1]) * unit(a[2]));
    [unit(a[0]), c1, c2]
}

/// Columns of the body rate matrix: R_{a₃}(γ)ᵀ R_{a₂}(β)ᵀ e_{a₁}, R_{a₃}(γ)ᵀ e_{a₂},
/// e_{a₃} (the axes of the three rotations in the body frame).
fn body_axes(seq: EulerSequence, angles: &Vector3<f64>) -> [Vector3<f64>; 3] {
    let a = seq.axes();
    let r3t = axis_rotation(a[2], angles[2]).transpose();
    let c1 = r3t * unit(a[1]);
    let c0 = r3t * (axis_rotation(a[1], angles[1]).transpose() * unit(a[0]));
    [c0, c1, unit(a[2])]
}

/// Global rate matrix B(θ): ω = B θ̇ = α̇ e_{a₁} + β̇ R_{a₁}(α) e_{a₂} +
/// γ̇ R_{a₁}(α) R_{a₂}(β) e_{a₃} (from ω̃ = Ȧ Aᵀ, thesis eq 2.7.7, with A = Rᵀ).
/// det B = ± sin β (proper) or ± cos β (Tait–Bryan).
pub fn rate_matrix(seq: EulerSequence, angles: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::from_columns(&global_axes(seq, angles))
}

/// Body rate matrix B'(θ) = Aᵀ B: ω' = B' θ̇.
pub fn rate_matrix_body(seq: EulerSequence, angles: &Vector3<f64>) -> Matrix3<f64> {
    Matrix3::from_columns(&body_axes(seq, angles))
}

/// Ḃ(θ, θ̇): the second column turns with α̇ e_{a₁}, the third with
/// α̇ e_{a₁} + β̇ R_{a₁}(α) e_{a₂}. Then ω̇ = B θ̈ + Ḃ θ̇.
pub fn rate_matrix_dot(
    seq: EulerSequence,
    angles: &Vector3<f64>,
    rates: &Vector3<f64>,
) -> Matrix3<f64> {
    let [c0, c1, c2] = global_axes(seq, angles);
    let w1 = rates[0] * c0;
    let w2 = w1 + rates[1] * c1;
    Matrix3::from_columns(&[Vector3::zeros(), w1.cross(&c1), w2.cross(&c2)])
}

/// Ḃ'(θ, θ̇): in the body frame the first column turns with
/// −(γ̇ e_{a₃} + β̇ R_{a₃}(γ)ᵀ e_{a₂}), the second with −γ̇ e_{a₃}.
/// Then ω̇' = B' θ̈ + Ḃ' θ̇.
pub fn rate_matrix_body_dot(
    seq: EulerSequence,
    angles: &Vector3<f64>,
    rates: &Vector3<f64>,
) -> Matrix3<f64> {
    let [c0, c1, c2] = body_axes(seq, angles);
    let w1 = rates[2] * c2;
    let w0 = w1 + rates[1] * c1;
    Matrix3::from_columns(&[-w0.cross(&c0), -w1.cross(&c1), Vector3::zeros()])
}

/// Global angular velocity ω = B(θ) θ̇.
pub fn omega_from_rates(
    seq: EulerSequence,
    angles: &Vector3<f64>,
    rates: &Vector3<f64>,
) -> Vector3<f64> {
    rate_matrix(seq, angles) * rates
}

/// Body angular velocity ω' = B'(θ) θ̇.
pub fn omega_body_from_rates(
    seq: EulerSequence,
    angles: &Vector3<f64>,
    rates: &Vector3<f64>,
) -> Vector3<f64> {
    rate_matrix_body(seq, angles) * rates
}

/// Checks the singular factor of β against `tol`.
fn check(seq: EulerSequence, beta: f64, tol: f64) -> Result<(), KinematicsError> {
    if at_least(seq.singular_factor(beta), tol) {
        Ok(())
    } else {
        let (sin_beta, cos_beta) = beta.sin_cos();
        Err(KinematicsError::GimbalLock {
            sequence: seq,
            sin_beta,
            cos_beta,
            tolerance: tol,
        })
    }
}

/// Solves [c0 c1 c2] x = b by Cramer's rule (rows of the inverse are c1×c2, c2×c0,
/// c0×c1 over the determinant).
fn solve_columns(c: &[Vector3<f64>; 3], b: &Vector3<f64>) -> Vector3<f64> {
    let (r0, r1, r2) = (c[1].cross(&c[2]), c[2].cross(&c[0]), c[0].cross(&c[1]));
    let det = c[0].dot(&r0);
    Vector3::new(r0.dot(b), r1.dot(b), r2.dot(b)) / det
}

/// Angle rates θ̇ = B⁻¹ ω from the global angular velocity.
///
/// # Errors
/// [`KinematicsError::GimbalLock`] when |sin β| (proper) or |cos β| (Tait–Bryan) of
/// `angles[1]` is below `tol`.
pub fn rates_from_omega(
    seq: EulerSequence,
    angles: &Vector3<f64>,
    omega: &Vector3<f64>,
    tol: f64,
) -> Result<Vector3<f64>, KinematicsError> {
    check(seq, angles[1], tol)?;
    Ok(solve_columns(&global_axes(seq, angles), omega))
}

/// Angle rates θ̇ = B'⁻¹ ω' from the body angular velocity.
///
/// # Errors
/// As [`rates_from_omega`].
pub fn rates_from_omega_body(
    seq: EulerSequence,
    angles: &Vector3<f64>,
    omega_body: &Vector3<f64>,
    tol: f64,
) -> Result<Vector3<f64>, KinematicsError> {
    check(seq, angles[1], tol)?;
    Ok(solve_columns(&body_axes(seq, angles), omega_body))
}

/// Angle accelerations θ̈ = B⁻¹ (ω̇ − Ḃ θ̇) from the global angular acceleration.
///
/// # Errors
/// As [`rates_from_omega`].
pub fn accelerations_from_omega_dot(
    seq: EulerSequence,
    angles: &Vector3<f64>,
    rates: &Vector3<f64>,
    omega_dot: &Vector3<f64>,
    tol: f64,
) -> Result<Vector3<f64>, KinematicsError> {
    check(seq, angles[1], tol)?;
    let rhs = omega_dot - rate_matrix_dot(seq, angles, rates) * rates;
    Ok(solve_columns(&global_axes(seq, angles), &rhs))
}

/// Angle accelerations θ̈ = B'⁻¹ (ω̇' − Ḃ' θ̇) from the body angular acceleration.
///
/// # Errors
/// As [`rates_from_omega`].
pub fn accelerations_from_omega_body_dot(
    seq: EulerSequence,
    angles: &Vector3<f64>,
    rates: &Vector3<f64>,
    omega_body_dot: &Vector3<f64>,
    tol: f64,
) -> Result<Vector3<f64>, KinematicsError> {
    check(seq, angles[1], tol)?;
    let rhs = omega_body_dot - rate_matrix_body_dot(seq, angles, rates) * rates;
    Ok(solve_columns(&body_axes(seq, angles), &rhs))
}
