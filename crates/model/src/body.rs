//! Rigid bodies: mass, centroidal inertia in the body frame, shapes, and initial
//! conditions.

use mbs_kinematics::EulerParams;
use nalgebra::{Matrix3, Vector3};
use serde::{Deserialize, Serialize};

use crate::error::ModelError;
use crate::shape::Shape;

/// A rigid body. Its body frame has its origin at the centre of mass.
///
/// Mass and inertia are given explicitly, or computed from the shapes' densities
/// ([`Body::from_shapes`]); a body with any density (its own or a shape's) must have the
/// mass and inertia of its shapes and its shapes' centre of mass at its origin
/// (checked by validation), so that files can give densities instead of numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Body {
    /// Unique name (used in files and messages).
    pub name: String,
    /// Mass m > 0.
    pub mass: f64,
    /// Centroidal inertia tensor J' in the body frame (symmetric positive definite).
    pub inertia: Matrix3<f64>,
    /// Pose and velocity at t = 0.
    pub initial: BodyInitial,
    /// Geometry in the body frame (drawn by the animation; with densities, the source
    /// of mass and inertia).
    #[serde(default)]
    pub shapes: Vec<Shape>,
    /// Density ρ (kg/m³) of the shapes that give none of their own.
    #[serde(default)]
    pub density: Option<f64>,
}

/// Pose and velocity of a body at the initial time, in the global frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BodyInitial {
    /// Position r of the centre of mass.
    pub position: Vector3<f64>,
    /// Orientation as Euler parameters [e0, e1, e2, e3] (unit norm).
    pub orientation: EulerParams,
    /// Velocity ṙ of the centre of mass.
    pub velocity: Vector3<f64>,
    /// Angular velocity ω in the global frame.
    pub omega: Vector3<f64>,
}

impl Default for BodyInitial {
    fn default() -> Self {
        Self {
            position: Vector3::zeros(),
            orientation: mbs_kinematics::euler_params::identity(),
            velocity: Vector3::zeros(),
            omega: Vector3::zeros(),
        }
    }
}

impl Body {
    /// A body with the given name, mass and centroidal inertia, at rest at the origin.
    pub fn new(name: impl Into<String>, mass: f64, inertia: Matrix3<f64>) -> Self {
        Self {
            name: name.into(),
            mass,
            inertia,
            initial: BodyInitial::default(),
            shapes: Vec::new(),
            density: None,
        }
    }

    /// A body whose mass and centroidal inertia are those of `shapes` with their
    /// densities (`density` for the shapes that give none), at rest at the origin. The
    /// shapes' centre of mass must be the body origin; see
    /// [`crate::mass_properties::of_shapes`] for the formulas.
    ///
    /// ```
    /// use mbs_model::{Body, Geometry, Shape};
    /// use nalgebra::Vector3;
    /// // a 1 m × 0.1 m × 0.1 m steel bar
    /// let bar = Shape::new(Geometry::Box { half_extents: Vector3::new(0.5, 0.05, 0.05) });
    /// let body = Body::from_shapes("bar", vec![bar], Some(7850.0)).unwrap();
    /// assert!((body.mass - 78.5).abs() < 1e-9);
    /// assert!((body.inertia[(2, 2)] - 78.5 * (1.0 + 0.01) / 12.0).abs() < 1e-9);
    /// ```
    pub fn from_shapes(
        name: impl Into<String>,
        shapes: Vec<Shape>,
        density: Option<f64>,
    ) -> Result<Self, ModelError> {
        let name = name.into();
        let mp = crate::mass_properties::of_shapes(&name, &shapes, density)?;
        Ok(Self {
            name,
            mass: mp.mass,
            inertia: mp.inertia_about_origin,
            initial: BodyInitial::default(),
            shapes,
            density,
        })
    }
}
