//! Closed-form implicit midpoint update of Euler parameters from the angular velocity
//! at the midpoint (thesis sec 5.5.4, eqs 5.5.4.1–5.5.4.7).
//!
//! With ṗ = Ω(ω) p (thesis eq 2.8.7, Ω skew-symmetric 4×4 — the thesis calls it A(ω)),
//! the midpoint rule p_{n+1} = p_n + h Ω(ω_{n+½}) (p_n + p_{n+1})/2 (eqs 5.5.4.1–5.5.4.4)
//! reads
//!
//! ```text
//! (I − h/2 Ω) p_{n+1} = (I + h/2 Ω) p_n                          (5.5.4.4)
//! ```
//!
//! Ω = ½ Ŵ with Ŵ² = −|ω|² I, so with a = h/4 and Δ = 1 + a²|ω|² the inverse is
//! (I − aŴ)⁻¹ = (I + aŴ)/Δ (eq 5.5.4.5, whose a, b, c are ∓h ωᵢ/4) and
//!
//! ```text
//! p_{n+1} = (I + aŴ)² p_n / Δ = [(1 − a²|ω|²) p_n + 2a Ŵ p_n] / Δ      (5.5.4.6)
//! ```
//!
//! i.e. p_{n+1} = p_n ⊗ c (body ω') or c ⊗ p_n (global ω) with the unit quaternion
//! c = [1 − a²|ω|², 2a ω] / Δ (the Cayley transform). The update is therefore exactly
//! norm-preserving in exact arithmetic, rotates about the exact axis for constant ω,
//! and its angle 4 atan(h|ω|/4) = h|ω| − (h|ω|)³/48 + … is second-order accurate.
//!
//! In floating point each step changes ‖p‖ by ~1e-16 and these errors add up as a
//! random walk (~1e-14 after 10³ steps). The functions below therefore divide the
//! result by its norm: a change of O(1e-16) per step, far below the truncation error,
//! that keeps ‖p‖ = 1 to a few ulps for any number of steps. The result is a unit p
//! even if `p` is not.
//!
//! Note: the thesis prints Δ = h²/4 (1 + ω₁² + ω₂² + ω₃²) after eq 5.5.4.6 and prints
//! the same factor (I + h/2 A) twice; neither matches eq 5.5.4.5. The Δ above,
//! 1 + h²|ω|²/16, is the one eq 5.5.4.5 gives, and it is the one that keeps ‖p‖ = 1.
//! The staggered half-step form eq 5.5.4.7 (p_{n+½} from p_{n−½} and ω_n) is the same
//! function with shifted indices.

use nalgebra::{Matrix3, Matrix4, Vector3, Vector4};

use crate::euler_params::{EulerParams, normalize, product};
use crate::skew::skew;

/// Ω(ω') = ½ [[0, −ω'ᵀ], [ω', −ω̃']] with ṗ = Ω(ω') p = ½ Gᵀ ω' (thesis eq 2.8.7,
/// his A(ω), ω in body components).
pub fn omega_matrix_body(omega_body: &Vector3<f64>) -> Matrix4<f64> {
    omega_matrix_with(omega_body, -skew(omega_body))
}

/// Ω(ω) = ½ [[0, −ωᵀ], [ω, ω̃]] with ṗ = Ω(ω) p = ½ Eᵀ ω (global-frame counterpart of
/// thesis eq 2.8.7).
pub fn omega_matrix(omega: &Vector3<f64>) -> Matrix4<f64> {
    omega_matrix_with(omega, skew(omega))
}

fn omega_matrix_with(w: &Vector3<f64>, block: Matrix3<f64>) -> Matrix4<f64> {
    let mut m = Matrix4::zeros();
    for i in 0..3 {
        m[(0, i + 1)] = -0.5 * w[i];
        m[(i + 1, 0)] = 0.5 * w[i];
    }
    m.fixed_view_mut::<3, 3>(1, 1).copy_from(&(0.5 * block));
    m
}

/// The Cayley quaternion c = [1 − a²|ω|², 2a ω] / (1 + a²|ω|²), a = h/4.
#[inline]
fn cayley(omega: &Vector3<f64>, h: f64) -> EulerParams {
    let a = 0.25 * h;
    let x2 = a * a * omega.norm_squared();
    let d = 1.0 / (1.0 + x2);
    let v = (2.0 * a * d) * omega;
    Vector4::new((1.0 - x2) * d, v.x, v.y, v.z)
}

/// p_{n+1} from p_n and the **body** angular velocity ω' at the midpoint t_n + h/2, by
/// the implicit midpoint rule solved in closed form (thesis eqs 5.5.4.4–5.5.4.6):
/// p_{n+1} = p_n ⊗ c(ω', h), normalised (see the module notes). Second-order accurate.
pub fn midpoint_update_body(p: &EulerParams, omega_body_mid: &Vector3<f64>, h: f64) -> EulerParams {
    normalize(&product(p, &cayley(omega_body_mid, h)))
}

/// p_{n+1} from p_n and the **global** angular velocity ω at the midpoint: the same
/// closed-form midpoint rule for ṗ = ½ Eᵀ ω (the thesis gives only the body form; the
/// derivation of eqs 5.5.4.4–5.5.4.6 is identical), p_{n+1} = c(ω, h) ⊗ p_n,
/// normalised.
pub fn midpoint_update(p: &EulerParams, omega_mid: &Vector3<f64>, h: f64) -> EulerParams {
    normalize(&product(&cayley(omega_mid, h), p))
}
