//! Joints: constraints between two markers. Every kind is composed of a few primitive
//! conditions on the two marker frames i and j (thesis ch. 4); `mbs-constraints` owns
//! their equations.
//!
//! With Pᵢ, Pⱼ the marker origins, (xᵢ, yᵢ, zᵢ) and (xⱼ, yⱼ, zⱼ) their axes in the
//! global frame and d = Pⱼ − Pᵢ:
//!
//! | kind | equations | rows | relative freedom |
//! |---|---|---|---|
//! | spherical (sec 4.2) | d = 0 | 3 | 3 rotations |
//! | universal (sec 4.3) | d = 0, zᵢ·zⱼ = 0 | 4 | rotations about zᵢ and zⱼ |
//! | revolute (sec 4.4) | d = 0, zⱼ·xᵢ = 0, zⱼ·yᵢ = 0 | 5 | rotation about zᵢ |
//! | cylindrical (sec 4.5) | zⱼ·xᵢ = zⱼ·yᵢ = 0, xᵢ·d = yᵢ·d = 0 | 4 | translation along and rotation about zᵢ |
//! | prismatic | cylindrical + yⱼ·xᵢ = 0 | 5 | translation along zᵢ |
//! | planar | zⱼ·xᵢ = zⱼ·yᵢ = 0, zᵢ·d = 0 | 3 | translations along xᵢ and yᵢ, rotation about zᵢ |
//! | rigid (sec 4.6) | d = 0, zⱼ·xᵢ = zⱼ·yᵢ = yⱼ·xᵢ = 0 | 6 | none |
//! | distance | dᵀd − L² = 0 | 1 | 5 |
//! | rolling sphere (sec 7.4) | zⱼ·(Pᵢ − Pⱼ) − a = 0 and contact-point velocity along xⱼ, yⱼ zero (nonholonomic) | 1 + 2 | rolling |
//! | rolling disc | zⱼ·(Pᵢ − Pⱼ) − a √(1 − (zᵢ·zⱼ)²) = 0 and contact-point velocity along the two tangents of the plane zero (nonholonomic) | 1 + 2 | rolling |
//! | sine path (sec 7.4) | Pᵢ in marker j's frame: y − A sin(k x) = 0 | 1 | |

use serde::{Deserialize, Serialize};

use crate::ids::MarkerId;

/// The kind of a joint and its parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum JointKind {
    /// Ball joint: marker origins coincide.
    Spherical,
    /// Hooke joint: origins coincide, the cross-pin axes zᵢ and zⱼ stay perpendicular.
    Universal,
    /// Hinge about the common z axis.
    Revolute,
    /// Slide along and rotate about the common z axis.
    Cylindrical,
    /// Slide along the common z axis.
    Prismatic,
    /// Move in the plane normal to the common z axis: slide along xᵢ and yᵢ, rotate
    /// about zᵢ (URDF's `planar` joint; MJCF's two slides and a hinge of 2-D models).
    Planar,
    /// Welds the two marker frames.
    Rigid,
    /// Constant distance between the marker origins.
    Distance {
        /// The distance L > 0.
        length: f64,
    },
    /// A sphere of radius `radius` centred at marker i rolls without slip on the plane
    /// through marker j's origin with normal zⱼ (marker j must be on ground).
    /// One holonomic row (contact) and two nonholonomic rows (no slip).
    RollingSphere {
        /// Sphere radius a > 0.
        radius: f64,
    },
    /// A thin disc (wheel) of radius `radius`, centred at marker i with its symmetry
    /// axis along zᵢ, rolls on its rim without slip on the plane through marker j's
    /// origin with normal zⱼ (marker j must be on ground). One holonomic row (centre
    /// height) and two nonholonomic rows (no slip); undefined when the disc lies flat
    /// (zᵢ ∥ zⱼ).
    RollingDisc {
        /// Disc radius a > 0.
        radius: f64,
    },
    /// Marker i's origin, expressed in marker j's frame, stays on y = A sin(k x).
    SinePath {
        /// Amplitude A.
        amplitude: f64,
        /// Wavenumber k in rad per unit length.
        wavenumber: f64,
    },
}

impl JointKind {
    /// Number of holonomic (position-level) equations.
    pub fn holonomic_rows(&self) -> usize {
        match self {
            JointKind::Spherical => 3,
            JointKind::Universal => 4,
            JointKind::Revolute => 5,
            JointKind::Cylindrical => 4,
            JointKind::Prismatic => 5,
            JointKind::Planar => 3,
            JointKind::Rigid => 6,
            JointKind::Distance { .. } => 1,
            JointKind::RollingSphere { .. } => 1,
            JointKind::RollingDisc { .. } => 1,
            JointKind::SinePath { .. } => 1,
        }
    }

    /// Number of nonholonomic (velocity-level only) equations.
    pub fn nonholonomic_rows(&self) -> usize {
        match self {
            JointKind::RollingSphere { .. } | JointKind::RollingDisc { .. } => 2,
            _ => 0,
        }
    }

    /// Total number of equations.
    pub fn rows(&self) -> usize {
        self.holonomic_rows() + self.nonholonomic_rows()
    }

    /// A short lower-case name for reports.
    pub fn label(&self) -> &'static str {
        match self {
            JointKind::Spherical => "spherical",
            JointKind::Universal => "universal",
            JointKind::Revolute => "revolute",
            JointKind::Cylindrical => "cylindrical",
            JointKind::Prismatic => "prismatic",
            JointKind::Planar => "planar",
            JointKind::Rigid => "rigid",
            JointKind::Distance { .. } => "distance",
            JointKind::RollingSphere { .. } => "rolling_sphere",
            JointKind::RollingDisc { .. } => "rolling_disc",
            JointKind::SinePath { .. } => "sine_path",
        }
    }
}

/// A joint between marker i and marker j.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Joint {
    /// Unique name.
    pub name: String,
    /// Kind and parameters.
    pub kind: JointKind,
    /// First marker (its body is "body i").
    pub marker_i: MarkerId,
    /// Second marker (its body is "body j").
    pub marker_j: MarkerId,
}
