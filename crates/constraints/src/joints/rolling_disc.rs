//! A thin disc (wheel) rolling on its rim without slip on a fixed plane: one holonomic
//! row (the centre height) and two nonholonomic rows (no slip), the classical rolling
//! disc (e.g. Greenwood, *Principles of Dynamics*, 2nd ed. 1988, the rolling disk;
//! O'Reilly, *Intermediate Dynamics for Engineers*, 2008, the rolling disk). The
//! contact geometry is written here in the workspace's absolute coordinates, the rows
//! in the form of the bowling ball's no-slip rows (Chiou 1990, sec 7.4, eqs 7.4.9–7.4.11).
//!
//! The disc's centre is marker i's origin Pᵢ, its symmetry axis z = zᵢ (radius a); the
//! plane passes through marker j's origin Pⱼ with unit normal n = zⱼ; marker j is on
//! ground (ṅ = 0). With c = z·n and s = ‖z × n‖ = √(1 − c²) (the sine of the angle
//! between the axis and the normal, s = cos β for a tilt β of the disc plane from the
//! vertical):
//!
//! - tangent basis of the plane: t₁ = (z × n)/s (along the contact line), t₂ = n × t₁;
//! - unit vector from the centre down to the contact point, in the disc plane:
//!   u = −(n − c z)/s = z × t₁; the contact point C = Pᵢ + a u.
//!
//! Holonomic (centre height): Φ = n·(Pᵢ − Pⱼ) − a √(1 − c²), written on the
//! kinematic-expression algebra (dot-2 for n·(Pᵢ − Pⱼ) = −n·d, dot-1 for c, the chain
//! rule for g(c) = a√(1 − c²): g' = −a c/s, g'' = −a/s³), so Φ_q and γ = −Φ̈ (v̇ = 0)
//! follow from the primitives.
//!
//! Nonholonomic (no slip): the material point of body i at C has zero velocity along
//! t₁ and t₂ (its normal component is the time derivative of the holonomic row). With
//! ρ = C − rᵢ = Aᵢ s'ᵢ + a u (s'ᵢ the marker offset), v_C = ṙᵢ + ω × ρ and
//! B v + b = tₖ·v_C = tₖᵀ ṙᵢ + (ρ × tₖ)ᵀ Aᵢ ω'ᵢ (b = 0), so the [ṙ; ω'] block is
//! [tₖᵀ, (Aᵢᵀ(ρ × tₖ))ᵀ]. Acceleration level (r̈ = 0, ω̇ = 0):
//! d/dt(tₖ·v_C) = ṫₖ·v_C + tₖ·(ω × ρ̇), γₖ = −d/dt(tₖ·v_C), with
//! ż = ω × z, w = z × n, ẇ = ż × n, ṡ = t₁·ẇ, ṫ₁ = (ẇ − ṡ t₁)/s, ṫ₂ = n × ṫ₁,
//! u̇ = ż × t₁ + z × ṫ₁, ρ̇ = ω × (Aᵢ s'ᵢ) + a u̇.
//!
//! When the disc lies flat (z ∥ n, s → 0) the contact point, t₁ and u are undefined;
//! below [`MIN_AXIS_SINE`] the evaluation stops with
//! [`ConstraintError::DegenerateJoint`] naming the joint and s.

use nalgebra::Vector3;

use super::MarkerPair;
use crate::block::ConstraintBlock;
use crate::error::ConstraintError;

/// Smallest s = ‖zᵢ × zⱼ‖ (sine of the angle between the disc axis and the plane
/// normal) accepted: below it the disc is taken to lie flat and the contact point is
/// undefined (t₁ carries 1/s, γ terms up to 1/s³).
pub const MIN_AXIS_SINE: f64 = 1e-6;

/// Evaluates the three rows (centre height, no slip along t₁, no slip along t₂) of the
/// joint `name`.
pub fn evaluate(
    name: &str,
    m: &MarkerPair<'_>,
    radius: f64,
    block: &mut ConstraintBlock,
) -> Result<(), ConstraintError> {
    let (axis_i, normal) = (m.axis_i(2), m.axis_j(2));
    let z = axis_i.value;
    let n = normal.value;
    let w = z.cross(&n);
    let s = w.norm();
    if s.is_nan() || s < MIN_AXIS_SINE {
        return Err(ConstraintError::DegenerateJoint {
            joint: name.to_string(),
            reason: "the rolling disc lies flat on its plane (axis zᵢ parallel to the normal zⱼ), \
                     the contact point is undefined",
            quantity: "‖zᵢ × zⱼ‖",
            value: s,
        });
    }

    // Holonomic row: n·(Pᵢ − Pⱼ) − a √(1 − c²).
    let c = axis_i.dot(&normal);
    let g = [radius * s, -radius * c.v() / s, -radius / (s * s * s)];
    let height = normal.dot(&m.d()).scale(-1.0);
    block.set_rows(0, &height.sub(&c.chain(g)));

    // Nonholonomic rows.
    let fi = m.fi;
    let omega = fi.omega;
    let t1 = w / s;
    let t2 = n.cross(&t1);
    let u = z.cross(&t1);
    let offset = fi.a * m.mi.position;
    let rho = offset + radius * u;
    let v_c = fi.rdot + omega.cross(&rho);

    let z_dot = omega.cross(&z);
    let w_dot = z_dot.cross(&n);
    let s_dot = t1.dot(&w_dot);
    let t1_dot = (w_dot - s_dot * t1) / s;
    let t2_dot = n.cross(&t1_dot);
    let u_dot = z_dot.cross(&t1) + z.cross(&t1_dot);
    let rho_dot = omega.cross(&offset) + radius * u_dot;
    let acc_c = omega.cross(&rho_dot);

    for (row, t, t_dot) in [(1usize, &t1, &t1_dot), (2, &t2, &t2_dot)] {
        block.phi[row] = t.dot(&v_c);
        block.phi_t[row] = 0.0;
        block.gamma[row] = -(t_dot.dot(&v_c) + t.dot(&acc_c));
        let jw: Vector3<f64> = fi.a.transpose() * rho.cross(t);
        for k in 0..3 {
            block.ji[(row, k)] = if m.moving_i { t[k] } else { 0.0 };
            block.ji[(row, 3 + k)] = if m.moving_i { jw[k] } else { 0.0 };
            block.jj[(row, k)] = 0.0;
            block.jj[(row, 3 + k)] = 0.0;
        }
    }
    Ok(())
}
