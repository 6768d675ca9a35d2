//! Mass properties of primitive geoms and their sum for a body, as MuJoCo's compiler
//! computes them (MuJoCo XML reference, `compiler/inertiafromgeom`, `geom/density`,
//! `geom/mass`): uniform density (default 1000 kg/m³), or the density that gives the
//! geom's `mass`; solid bodies; sizes are MJCF half sizes.

use std::f64::consts::PI;

use nalgebra::{Isometry3, Matrix3, Vector3};

use crate::Inertial;

/// A solid primitive, MJCF sizes (radii and half lengths).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Solid {
    /// Sphere of radius r.
    Sphere { r: f64 },
    /// Capsule: cylinder of radius r and half length h along z, hemispherical caps.
    Capsule { r: f64, h: f64 },
    /// Cylinder of radius r and half length h along z.
    Cylinder { r: f64, h: f64 },
    /// Ellipsoid with semi-axes a, b, c.
    Ellipsoid { a: f64, b: f64, c: f64 },
    /// Box with half sides a, b, c.
    Box { a: f64, b: f64, c: f64 },
}

impl Solid {
    /// Volume.
    pub fn volume(&self) -> f64 {
        match *self {
            Solid::Sphere { r } => 4.0 / 3.0 * PI * r.powi(3),
            Solid::Capsule { r, h } => PI * r * r * 2.0 * h + 4.0 / 3.0 * PI * r.powi(3),
            Solid::Cylinder { r, h } => PI * r * r * 2.0 * h,
            Solid::Ellipsoid { a, b, c } => 4.0 / 3.0 * PI * a * b * c,
            Solid::Box { a, b, c } => 8.0 * a * b * c,
        }
    }

    /// Principal moments of inertia about the centroid, in the geom axes, for mass `m`.
    pub fn moments(&self, m: f64) -> Vector3<f64> {
        match *self {
            Solid::Sphere { r } => Vector3::repeat(0.4 * m * r * r),
            Solid::Capsule { r, h } => {
                // cylinder of length L = 2h plus two hemispheres whose centroids sit
                // 3r/8 beyond the cylinder ends (MuJoCo's formula)
                let l = 2.0 * h;
                let sphere = m * 4.0 * r / (4.0 * r + 3.0 * l);
                let cyl = m - sphere;
                let ixx = cyl * (3.0 * r * r + l * l) / 12.0
                    + sphere * (0.4 * r * r + l * (3.0 * r + 2.0 * l) / 8.0);
                let izz = cyl * r * r / 2.0 + sphere * 0.4 * r * r;
                Vector3::new(ixx, ixx, izz)
            }
            Solid::Cylinder { r, h } => {
                let l = 2.0 * h;
                let ixx = m * (3.0 * r * r + l * l) / 12.0;
                Vector3::new(ixx, ixx, m * r * r / 2.0)
            }
            Solid::Ellipsoid { a, b, c } => Vector3::new(
                m * (b * b + c * c) / 5.0,
                m * (a * a + c * c) / 5.0,
                m * (a * a + b * b) / 5.0,
            ),
            Solid::Box { a, b, c } => Vector3::new(
                m * (b * b + c * c) / 3.0,
                m * (a * a + c * c) / 3.0,
                m * (a * a + b * b) / 3.0,
            ),
        }
    }
}

/// One geom's contribution: mass, and its frame in the body.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GeomMass {
    /// The solid.
    pub solid: Solid,
    /// Its mass.
    pub mass: f64,
    /// Its frame in the body frame (centroid at the origin).
    pub pose: Isometry3<f64>,
}

/// The mass of a geom: `mass` if given, else density × volume.
pub(crate) fn geom_mass(solid: &Solid, mass: Option<f64>, density: f64) -> f64 {
    mass.unwrap_or_else(|| density * solid.volume())
}

/// The body's mass properties from its geoms (`None` when the total mass is 0):
/// masses add, the centre of mass is the mass-weighted mean, inertias are rotated into
/// body axes and moved to the common centre of mass (parallel-axis theorem).
pub(crate) fn combine(parts: &[GeomMass]) -> Option<Inertial> {
    let mass: f64 = parts.iter().map(|p| p.mass).sum();
    if mass <= 0.0 {
        return None;
    }
    let com = parts
        .iter()
        .map(|p| p.pose.translation.vector * p.mass)
        .sum::<Vector3<f64>>()
        / mass;
    let mut inertia = Matrix3::zeros();
    for p in parts {
        let r = p.pose.rotation.to_rotation_matrix();
        let local = Matrix3::from_diagonal(&p.solid.moments(p.mass));
        let d = p.pose.translation.vector - com;
        inertia += r.matrix() * local * r.matrix().transpose()
            + p.mass * (Matrix3::identity() * d.norm_squared() - d * d.transpose());
    }
    Some(Inertial {
        mass,
        com,
        inertia: (inertia + inertia.transpose()) * 0.5,
    })
}
