//! Drivers: rheonomic (time-driven) constraints that prescribe a coordinate as a
//! function of time, one equation each.

use serde::{Deserialize, Serialize};

use crate::ids::{JointId, MarkerId};
use crate::time_function::TimeFunction;

/// Which coordinate a driver prescribes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum DriverKind {
    /// The rotation angle θ of a revolute (or cylindrical) joint about zᵢ, measured
    /// from xᵢ to xⱼ. Equation: sin(θ − f(t)) = (xⱼ·yᵢ) cos f − (xⱼ·xᵢ) sin f = 0,
    /// smooth for every angle (no wrap-around).
    JointAngle {
        /// The joint.
        joint: JointId,
    },
    /// The translation zᵢ·(Pⱼ − Pᵢ) of a prismatic or cylindrical joint.
    JointTranslation {
        /// The joint.
        joint: JointId,
    },
    /// One global coordinate (0 = x, 1 = y, 2 = z) of a marker origin.
    PointCoordinate {
        /// The marker.
        marker: MarkerId,
        /// Global axis index 0, 1 or 2.
        axis: usize,
    },
}

/// A driver: Φ = coordinate − f(t) = 0 (or the angle form of [`DriverKind::JointAngle`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Driver {
    /// Unique name.
    pub name: String,
    /// What is prescribed.
    pub kind: DriverKind,
    /// The prescribed value as a function of time.
    pub function: TimeFunction,
}
