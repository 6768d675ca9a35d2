//! Force elements (thesis sec 4.7). Gravity is `Model::gravity`.

use serde::{Deserialize, Serialize};

use crate::ids::{JointId, MarkerId};
use crate::time_function::TimeFunction;

/// The frame in which the components of a load are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LoadFrame {
    /// Global axes.
    #[default]
    Global,
    /// The axes of the marker the load acts at (moving with the body).
    Marker,
}

/// A force element.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ForceElement {
    /// A force applied at a marker origin (thesis sec 4.7.2), components as functions
    /// of time.
    PointForce {
        /// Unique name.
        name: String,
        /// Point of application.
        marker: MarkerId,
        /// Force components.
        force: [TimeFunction; 3],
        /// Frame of the components.
        #[serde(default)]
        frame: LoadFrame,
    },
    /// A pure torque on the body of a marker (thesis sec 4.7.2).
    Torque {
        /// Unique name.
        name: String,
        /// Marker whose body receives the torque (and whose axes `frame` may use).
        marker: MarkerId,
        /// Torque components.
        torque: [TimeFunction; 3],
        /// Frame of the components.
        #[serde(default)]
        frame: LoadFrame,
    },
    /// Translational spring–damper–actuator between two marker origins (thesis
    /// sec 4.7.3–4.7.5): tension f = k (l − l₀) + c l̇ + f_a(t) along the line.
    SpringDamper {
        /// Unique name.
        name: String,
        /// First end.
        marker_i: MarkerId,
        /// Second end.
        marker_j: MarkerId,
        /// Stiffness k ≥ 0.
        stiffness: f64,
        /// Damping c ≥ 0.
        damping: f64,
        /// Free length l₀ ≥ 0.
        free_length: f64,
        /// Actuator tension f_a(t).
        #[serde(default)]
        actuator: TimeFunction,
    },
    /// Rotational spring–damper–actuator about the axis of a revolute, cylindrical or planar
    /// joint: torque on body j about zᵢ, τ = −k (θ − θ₀) − c θ̇ + τ_a(t), the opposite on
    /// body i.
    RotationalSpringDamper {
        /// Unique name.
        name: String,
        /// The joint whose relative rotation θ (as in `DriverKind::JointAngle`) is used.
        joint: JointId,
        /// Stiffness k ≥ 0.
        stiffness: f64,
        /// Damping c ≥ 0.
        damping: f64,
        /// Free angle θ₀.
        free_angle: f64,
        /// Actuator torque τ_a(t).
        #[serde(default)]
        actuator: TimeFunction,
    },
    /// Translational spring–damper–actuator along the axis of a prismatic or
    /// cylindrical joint (a URDF/MJCF slide joint's damping and stiffness): force on
    /// body j along zᵢ at Pⱼ, f = −k (s − s₀) − c ṡ + f_a(t), the opposite on body i at
    /// the same point, with s = zᵢ·(Pⱼ − Pᵢ) as in `DriverKind::JointTranslation`.
    PrismaticSpringDamper {
        /// Unique name.
        name: String,
        /// The prismatic or cylindrical joint whose translation s is used.
        joint: JointId,
        /// Stiffness k ≥ 0.
        stiffness: f64,
        /// Damping c ≥ 0.
        damping: f64,
        /// Free translation s₀.
        free_length: f64,
        /// Actuator force f_a(t).
        #[serde(default)]
        actuator: TimeFunction,
    },
    /// A compression-only spring–damper between two marker origins (a tire): it pushes
    /// the ends apart with f = k (l₀ − l) − c l̇ while l < l₀ and f > 0, else exerts
    /// nothing.
    UnilateralSpring {
        /// Unique name.
        name: String,
        /// First end.
        marker_i: MarkerId,
        /// Second end.
        marker_j: MarkerId,
        /// Stiffness k ≥ 0.
        stiffness: f64,
        /// Damping c ≥ 0.
        damping: f64,
        /// Free length l₀ > 0.
        free_length: f64,
    },
}

impl ForceElement {
    /// The element's name.
    pub fn name(&self) -> &str {
        match self {
            ForceElement::PointForce { name, .. }
            | ForceElement::Torque { name, .. }
            | ForceElement::SpringDamper { name, .. }
            | ForceElement::RotationalSpringDamper { name, .. }
            | ForceElement::PrismaticSpringDamper { name, .. }
            | ForceElement::UnilateralSpring { name, .. } => name,
        }
    }
}
