//! Rigid bodies: mass, centroidal inertia in the body frame, and initial conditions.

use mbs_kinematics::EulerParams;
use nalgebra::{Matrix3, Vector3};
use serde::{Deserialize, Serialize};

/// A rigid body. Its body frame has its origin at the centre of mass.
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
        }
    }
}
