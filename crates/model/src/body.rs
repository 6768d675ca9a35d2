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
    /// A point mass: only `mass` is physical, `inertia` is nominal (see
    /// [`Body::point_mass`]) and validation refuses every element that would make the
    /// body's rotation matter.
    #[serde(default)]
    pub point_mass: bool,
    /// The links of an imported URDF or MJCF file this body is made of (the link its
    /// moving joint reaches first, then the links welded to it); empty for bodies
    /// defined in mbs's own files.
    #[serde(default)]
    pub links: Vec<String>,
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
            point_mass: false,
            links: Vec::new(),
        }
    }

    /// A point mass `mass` at rest at the origin, with the nominal inertia
    /// [`nominal_point_inertia`] m·(1 m)²·I.
    ///
    /// A point mass has no rotational inertia, but the formulations invert every
    /// body's mass matrix diag(m I, J′) and carry three rotational coordinates per
    /// body. When nothing constrains or drives the rotation of the body (its markers
    /// at its centre, no joint axis, torque or marker-frame load on it, no initial
    /// ω — all checked by validation), Euler's equations J′ω̇′ + ω̃′J′ω′ = 0 with
    /// ω′(0) = 0 keep ω = 0 for every positive definite J′: the rotation is
    /// decoupled from the motion of the centre of mass, and any nominal J′ gives the
    /// same trajectory. The body then counts 3 degrees of freedom, not 6.
    ///
    /// ```
    /// use mbs_model::Body;
    /// let bob = Body::point_mass("bob", 2.0);
    /// assert!(bob.point_mass);
    /// assert_eq!(bob.inertia[(1, 1)], 2.0);
    /// ```
    pub fn point_mass(name: impl Into<String>, mass: f64) -> Self {
        Self {
            point_mass: true,
            ..Self::new(name, mass, nominal_point_inertia(mass))
        }
    }

    /// Degrees of freedom of the body when free: 3 for a point mass (its rotation is
    /// not a degree of freedom of the mechanism), else 6.
    pub fn free_dof(&self) -> usize {
        if self.point_mass { 3 } else { 6 }
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
            point_mass: false,
            links: Vec::new(),
        })
    }
}

/// The nominal inertia m·(1 m)²·I given to a point mass of mass m (kg·m²): isotropic,
/// so that the gyroscopic term ω̃′J′ω′ vanishes identically, and of the order of the
/// mass so that the mass matrix is well scaled. See [`Body::point_mass`].
pub fn nominal_point_inertia(mass: f64) -> Matrix3<f64> {
    Matrix3::from_diagonal_element(mass)
}
