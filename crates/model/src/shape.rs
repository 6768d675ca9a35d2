//! Shapes: the geometry of a body (box, cylinder, sphere, capsule, or a triangle mesh
//! read from a file), each with a pose in the body frame, an optional density and an
//! optional colour. Shapes are drawn by the animation; with a density the primitives
//! also give the body's mass and inertia ([`crate::mass_properties`]). A mesh is only
//! drawn: it never has a density (a body with meshes takes its mass and inertia from
//! `mass` and `inertia`, as an imported robot does from its inertials).
//!
//! Every primitive is described in its own *shape frame*: centred at its centroid, with
//! the symmetry axis of cylinders and capsules along the shape frame's z axis. The
//! shape frame is placed in the body frame by `position` (its origin, body
//! coordinates) and `orientation` (Euler parameters of the rotation from shape axes to
//! body axes, as a body's orientation maps body axes to global ones).

use std::path::PathBuf;

use mbs_kinematics::EulerParams;
use nalgebra::{Matrix3, Vector3};
use serde::{Deserialize, Serialize};

/// The four primitives, centred at their centroids, and meshes. Lengths in metres.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Geometry {
    /// A box with half-extents (a, b, c) along the shape frame's x, y, z axes.
    Box {
        /// Half-extents [a, b, c] > 0.
        half_extents: Vector3<f64>,
    },
    /// A solid circular cylinder of `radius` and `length` along the shape frame's z axis.
    Cylinder {
        /// Radius r > 0.
        radius: f64,
        /// Length L > 0.
        length: f64,
    },
    /// A solid sphere.
    Sphere {
        /// Radius r > 0.
        radius: f64,
    },
    /// A cylinder of `radius` and `length` along z with a hemisphere of the same radius
    /// on each end (total length L + 2r).
    Capsule {
        /// Radius r > 0.
        radius: f64,
        /// Length L ≥ 0 of the cylindrical part.
        length: f64,
    },
    /// A triangle mesh read from `path` (STL, Wavefront OBJ or Collada DAE; the file's
    /// own units, e.g. a DAE `<unit meter=…>`, are applied when it is read), its
    /// vertices multiplied by `scale` along the shape frame's axes. The shape frame is
    /// the file's frame (not a centroid). Drawn only: it has no volume or inertia here.
    Mesh {
        /// The mesh file, used as written (a relative path is relative to the current
        /// directory of the program that reads the mesh).
        path: PathBuf,
        /// Scale factors along x, y, z (finite and non-zero; negative mirrors).
        scale: Vector3<f64>,
    },
}

impl Geometry {
    /// The kind's name as written in model files.
    pub fn kind(&self) -> &'static str {
        match self {
            Geometry::Box { .. } => "box",
            Geometry::Cylinder { .. } => "cylinder",
            Geometry::Sphere { .. } => "sphere",
            Geometry::Capsule { .. } => "capsule",
            Geometry::Mesh { .. } => "mesh",
        }
    }

    /// Whether the shape is a mesh (drawn only, never a source of mass).
    pub fn is_mesh(&self) -> bool {
        matches!(self, Geometry::Mesh { .. })
    }

    /// Volume V (zero for a mesh, which is not a source of mass).
    pub fn volume(&self) -> f64 {
        use std::f64::consts::PI;
        match *self {
            Geometry::Box { half_extents: h } => 8.0 * h.x * h.y * h.z,
            Geometry::Cylinder { radius: r, length } => PI * r * r * length,
            Geometry::Sphere { radius: r } => 4.0 / 3.0 * PI * r * r * r,
            Geometry::Capsule { radius: r, length } => PI * r * r * (length + 4.0 / 3.0 * r),
            Geometry::Mesh { .. } => 0.0,
        }
    }

    /// Principal moments of inertia per unit mass about the centroid, along the shape
    /// frame's axes (the tensor is diagonal there for all four primitives):
    ///
    /// - box, half-extents a, b, c: J/m = ((b² + c²)/3, (a² + c²)/3, (a² + b²)/3);
    /// - cylinder, radius r, length L along z: J/m = ((3r² + L²)/12, same, r²/2);
    /// - sphere: J/m = 2r²/5 about every axis;
    /// - capsule: the cylinder (mass m_c) plus two hemispheres (together m_s, a
    ///   sphere's mass); each hemisphere's centroid is 3r/8 from its flat face, which
    ///   lies L/2 from the centre, so by the parallel-axis theorem
    ///   J_xx = m_c (3r² + L²)/12 + m_s (2r²/5 + L²/4 + 3Lr/8),
    ///   J_zz = m_c r²/2 + 2 m_s r²/5;
    /// - mesh: zero (not a source of mass).
    pub fn unit_mass_moments(&self) -> Vector3<f64> {
        match *self {
            Geometry::Box { half_extents: h } => {
                let (a2, b2, c2) = (h.x * h.x, h.y * h.y, h.z * h.z);
                Vector3::new(b2 + c2, a2 + c2, a2 + b2) / 3.0
            }
            Geometry::Cylinder {
                radius: r,
                length: l,
            } => {
                let t = (3.0 * r * r + l * l) / 12.0;
                Vector3::new(t, t, 0.5 * r * r)
            }
            Geometry::Sphere { radius: r } => Vector3::repeat(0.4 * r * r),
            Geometry::Capsule {
                radius: r,
                length: l,
            } => {
                // volume fractions of the cylinder and of the two hemispheres
                let (vc, vs) = (l, 4.0 / 3.0 * r);
                let (fc, fs) = (vc / (vc + vs), vs / (vc + vs));
                let t = fc * (3.0 * r * r + l * l) / 12.0
                    + fs * (0.4 * r * r + 0.25 * l * l + 0.375 * l * r);
                Vector3::new(t, t, fc * 0.5 * r * r + fs * 0.4 * r * r)
            }
            Geometry::Mesh { .. } => Vector3::zeros(),
        }
    }

    /// The half-extents of the shape's bounding box in its own frame (zero for a mesh,
    /// whose extent is known only once its file is read).
    pub fn half_extents(&self) -> Vector3<f64> {
        match *self {
            Geometry::Box { half_extents } => half_extents,
            Geometry::Cylinder { radius: r, length } => Vector3::new(r, r, 0.5 * length),
            Geometry::Sphere { radius: r } => Vector3::repeat(r),
            Geometry::Capsule { radius: r, length } => Vector3::new(r, r, 0.5 * length + r),
            Geometry::Mesh { .. } => Vector3::zeros(),
        }
    }
}

/// A colour as 8-bit red, green, blue (written `"#rrggbb"` in model files).
pub type Rgb = [u8; 3];

/// A primitive or a mesh placed in a body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shape {
    /// What it is.
    pub geometry: Geometry,
    /// Origin of the shape frame (a primitive's centroid) in body coordinates.
    pub position: Vector3<f64>,
    /// Euler parameters of the rotation from shape axes to body axes (unit norm).
    pub orientation: EulerParams,
    /// Density ρ > 0 in kg/m³; `None` takes the body's density, if any (a mesh has
    /// none, and does not take the body's).
    pub density: Option<f64>,
    /// Colour for drawing; `None` lets the viewer choose.
    pub color: Option<Rgb>,
}

impl Shape {
    /// A shape at the body origin with the body's axes, without density or colour.
    pub fn new(geometry: Geometry) -> Self {
        Self {
            geometry,
            position: Vector3::zeros(),
            orientation: mbs_kinematics::euler_params::identity(),
            density: None,
            color: None,
        }
    }

    /// The same shape moved to `position` (body coordinates).
    pub fn at(mut self, position: Vector3<f64>) -> Self {
        self.position = position;
        self
    }

    /// The same shape turned by the Euler parameters `orientation` (shape → body).
    pub fn oriented(mut self, orientation: EulerParams) -> Self {
        self.orientation = orientation;
        self
    }

    /// The same shape with its own density (kg/m³).
    pub fn with_density(mut self, density: f64) -> Self {
        self.density = Some(density);
        self
    }

    /// The rotation matrix from shape axes to body axes.
    pub fn rotation(&self) -> Matrix3<f64> {
        mbs_kinematics::euler_params::rotation(&self.orientation)
    }

    /// `"box"`, `"cylinder"`, … with the shape's 1-based index, for messages:
    /// "body `crank` shape 2 (cylinder)".
    pub fn element(body: &str, index: usize, geometry: &Geometry) -> String {
        format!("body `{body}` shape {} ({})", index + 1, geometry.kind())
    }
}

/// Parses `"#rrggbb"` (case-insensitive); `None` for anything else.
pub fn parse_rgb(text: &str) -> Option<Rgb> {
    let hex = text.strip_prefix('#')?;
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// `"#rrggbb"` (lower case).
pub fn format_rgb(c: &Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}
