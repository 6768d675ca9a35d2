//! (x, y, θ) per body ↔ the 3-D [`State`]: r = (x, y, z) with the body's constant
//! height z, Euler parameters p = [cos θ/2, 0, 0, sin θ/2] (a rotation θ about z),
//! ṙ = (ẋ, ẏ, 0) and ω = ω′ = (0, 0, θ̇). Every facade output (poses, energies,
//! constraint violations, animation) then reads the planar run as any other.

use mbs_model::State;
use nalgebra::{Vector3, Vector4};

use crate::error::PlanarError;
use crate::planar_model::PLANAR_TOL;

/// Writes the 3-D state of (t, q, q̇) into `s` (any layout, sized for the bodies).
pub fn to_state(s: &mut State, heights: &[f64], t: f64, q: &[f64], v: &[f64]) {
    s.t = t;
    for (b, &z) in heights.iter().enumerate() {
        let th = q[3 * b + 2];
        let p = Vector4::new((0.5 * th).cos(), 0.0, 0.0, (0.5 * th).sin());
        s.set_pose(b, &Vector3::new(q[3 * b], q[3 * b + 1], z), &p);
        s.set_velocity(
            b,
            &Vector3::new(v[3 * b], v[3 * b + 1], 0.0),
            &Vector3::new(0.0, 0.0, v[3 * b + 2]),
        );
    }
}

/// The planar coordinates (q, q̇) and heights z of a 3-D state, or the first body
/// whose pose or velocity leaves the plane (named, with the value).
pub fn from_state(
    s: &State,
    names: &[String],
) -> Result<(Vec<f64>, Vec<f64>, Vec<f64>), PlanarError> {
    let n = s.n_bodies();
    let (mut q, mut v, mut z) = (vec![0.0; 3 * n], vec![0.0; 3 * n], vec![0.0; n]);
    for b in 0..n {
        let element = |what: &str| format!("body `{}` {what}", names[b]);
        let (r, p, rd, w) = (s.position(b), s.euler_params(b), s.velocity(b), s.omega(b));
        if p[1].abs() > PLANAR_TOL || p[2].abs() > PLANAR_TOL {
            return Err(PlanarError::not_planar(
                element("orientation"),
                "must be a rotation about z (Euler parameters e1 = e2 = 0)",
                p.as_slice(),
            ));
        }
        if rd.z.abs() > PLANAR_TOL {
            return Err(PlanarError::not_planar(
                element("velocity"),
                "must lie in the x–y plane (ż = 0)",
                rd.as_slice(),
            ));
        }
        if w.x.abs() > PLANAR_TOL || w.y.abs() > PLANAR_TOL {
            return Err(PlanarError::not_planar(
                element("angular velocity"),
                "must be about z (ω_x = ω_y = 0)",
                w.as_slice(),
            ));
        }
        q[3 * b] = r.x;
        q[3 * b + 1] = r.y;
        q[3 * b + 2] = 2.0 * p[3].atan2(p[0]);
        v[3 * b] = rd.x;
        v[3 * b + 1] = rd.y;
        v[3 * b + 2] = w.z;
        z[b] = r.z;
    }
    Ok((q, v, z))
}
