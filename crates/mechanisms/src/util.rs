//! Small helpers shared by the mechanism builders: link frames, rod inertias and rigid
//! velocity fields.

use mbs_kinematics::EulerParams;
use mbs_kinematics::euler_params::{from_axis_angle, from_rotation};
use mbs_model::{BodyId, BodyRef, JointId, JointKind, ModelBuilder};
use nalgebra::{Matrix3, Vector3};

/// Euler parameters of a rotation by `angle` about the global z axis.
pub(crate) fn rot_z(angle: f64) -> EulerParams {
    from_axis_angle(&Vector3::z(), angle)
}

/// Unit vector (cos φ, sin φ, 0).
pub(crate) fn dir(phi: f64) -> Vector3<f64> {
    Vector3::new(phi.cos(), phi.sin(), 0.0)
}

/// A point of the plane z = 0.
pub(crate) fn p2(x: f64, y: f64) -> Vector3<f64> {
    Vector3::new(x, y, 0.0)
}

/// Centroidal inertia of a slender rod of mass `m` and length `l` along the body x
/// axis: diag(ε·m l²/12, m l²/12, m l²/12). A slender rod has no axial inertia; the
/// factor `axial_fraction` = ε > 0 keeps the tensor positive definite (value chosen
/// by each builder and documented there).
pub(crate) fn rod_inertia(m: f64, l: f64, axial_fraction: f64) -> Matrix3<f64> {
    let t = m * l * l / 12.0;
    Matrix3::from_diagonal(&Vector3::new(axial_fraction * t, t, t))
}

/// Orientation whose body x axis is `d` (normalised). For d in the plane z = 0 the
/// body z axis is the global z axis (a rotation about z by atan2(d_y, d_x)).
pub(crate) fn link_orientation(d: &Vector3<f64>) -> EulerParams {
    let x = d.normalize();
    if x.z.abs() < 1e-14 {
        return rot_z(x.y.atan2(x.x));
    }
    let h = if x.z.abs() < 0.9 {
        Vector3::z()
    } else {
        Vector3::x()
    };
    let y = h.cross(&x).normalize();
    let z = x.cross(&y);
    from_rotation(&Matrix3::from_columns(&[x, y, z]))
}

/// Adds a link from `p` to `q` with its centre of mass at the midpoint and body x
/// along q − p; returns its id.
pub(crate) fn add_link(
    b: &mut ModelBuilder,
    name: &str,
    p: Vector3<f64>,
    q: Vector3<f64>,
    mass: f64,
    inertia: Matrix3<f64>,
) -> BodyId {
    let id = b.body(name, mass, inertia);
    b.set_initial_pose(id, 0.5 * (p + q), link_orientation(&(q - p)));
    id
}

/// Revolute joint about the global z axis at `point`.
pub(crate) fn revolute_z(
    b: &mut ModelBuilder,
    name: &str,
    i: BodyRef,
    j: BodyRef,
    point: Vector3<f64>,
) -> JointId {
    b.joint_at(name, JointKind::Revolute, i, j, point, Vector3::z())
}

/// Spherical joint at `point` (marker axes are irrelevant; z is used).
pub(crate) fn spherical(
    b: &mut ModelBuilder,
    name: &str,
    i: BodyRef,
    j: BodyRef,
    point: Vector3<f64>,
) -> JointId {
    b.joint_at(name, JointKind::Spherical, i, j, point, Vector3::z())
}

/// Shorthand for `BodyRef::Body`.
pub(crate) fn body(id: BodyId) -> BodyRef {
    BodyRef::Body(id)
}

/// Sets the initial velocity of `id` to the rigid motion whose velocity at the global
/// point `point` is `v_point` and whose angular velocity is `omega`:
/// ṙ = v_P + ω × (r − P).
pub(crate) fn set_rigid_velocity(
    b: &mut ModelBuilder,
    id: BodyId,
    point: Vector3<f64>,
    v_point: Vector3<f64>,
    omega: Vector3<f64>,
) {
    let r = b.initial(id).position;
    let v = v_point + omega.cross(&(r - point));
    b.set_initial_velocity(id, v, omega);
}

/// The vertices of a regular polygon with `n` sides of length `side`, starting at
/// `start` with the first side in direction `phi0` and turning by 2π/n at every vertex
/// (counter-clockwise for `ccw`). Returns n vertices (the polygon closes back on
/// `start`).
pub(crate) fn regular_polygon(
    n: usize,
    side: f64,
    start: Vector3<f64>,
    phi0: f64,
    ccw: bool,
) -> Vec<Vector3<f64>> {
    let turn = std::f64::consts::TAU / n as f64 * if ccw { 1.0 } else { -1.0 };
    let mut pts = Vec::with_capacity(n);
    let mut p = start;
    for k in 0..n {
        pts.push(p);
        p += side * dir(phi0 + turn * k as f64);
    }
    pts
}

/// Adds the links of the planar path v₀ → v₁ → … → v_k (one body per segment, named
/// `body_names(i)`, centre of mass at the segment midpoint), revolute joints about z at
/// the inner vertices, and revolute joints tying the first link to `start` at v₀ and
/// the last link to `end` at v_k. Joints are named `joint_names(0..=k)`.
pub(crate) fn add_planar_path(
    b: &mut ModelBuilder,
    vertices: &[Vector3<f64>],
    body_names: &[String],
    joint_names: &[String],
    start: BodyRef,
    end: BodyRef,
    mass: f64,
    inertia: Matrix3<f64>,
) -> Vec<BodyId> {
    let k = vertices.len() - 1;
    assert_eq!(body_names.len(), k);
    assert_eq!(joint_names.len(), k + 1);
    let ids: Vec<BodyId> = (0..k)
        .map(|i| {
            add_link(
                b,
                &body_names[i],
                vertices[i],
                vertices[i + 1],
                mass,
                inertia,
            )
        })
        .collect();
    revolute_z(b, &joint_names[0], start, body(ids[0]), vertices[0]);
    for i in 1..k {
        revolute_z(
            b,
            &joint_names[i],
            body(ids[i - 1]),
            body(ids[i]),
            vertices[i],
        );
    }
    revolute_z(b, &joint_names[k], body(ids[k - 1]), end, vertices[k]);
    ids
}

/// `["{prefix}{first}", …, "{prefix}{first + n − 1}"]`.
pub(crate) fn numbered(prefix: &str, first: usize, n: usize) -> Vec<String> {
    (first..first + n).map(|i| format!("{prefix}{i}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mbs_kinematics::euler_params::rotation;

    #[test]
    fn link_orientation_maps_x_to_direction() {
        for d in [
            Vector3::new(1.0, 2.0, 0.0),
            Vector3::new(-1.0, 0.5, 2.0),
            Vector3::new(0.0, 0.0, -3.0),
            Vector3::new(0.1, 0.0, 1.0),
        ] {
            let a = rotation(&link_orientation(&d));
            assert!((a * Vector3::x() - d.normalize()).norm() < 1e-14);
        }
    }

    #[test]
    fn regular_polygon_closes() {
        for n in 3..12 {
            let pts = regular_polygon(n, 0.7, Vector3::zeros(), 0.3, n % 2 == 0);
            let last = pts[n - 1]
                + 0.7
                    * dir(0.3
                        + std::f64::consts::TAU / n as f64
                            * (n - 1) as f64
                            * if n % 2 == 0 { 1.0 } else { -1.0 });
            assert!(last.norm() < 1e-13);
        }
    }
}
