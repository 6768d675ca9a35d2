//! Forward kinematics at the initial state: the world pose and twist of every link
//! and joint frame from the initial joint positions and velocities.
//!
//! Poses compose as in the link graph's module doc (after = before · origin · M(q) ·
//! offset). Twists are Plücker vectors at the world origin, (ω, v_O) with v_O the
//! velocity of the body point at the origin (Featherstone 2008, sec 2.9), so the
//! relative twists of the joints of a chain add up.

use nalgebra::{Isometry3, Matrix3, Translation3, Unit, UnitQuaternion, Vector3};

use super::tree::Tree;
use crate::{GraphJoint, ImportError, ImportOptions, JointMotion, LinkGraph, LinkRef};

/// A twist at the world origin: angular velocity ω and the velocity v_O of the body
/// point at the origin.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Twist {
    /// Angular velocity (world).
    pub omega: Vector3<f64>,
    /// Velocity of the point at the world origin (world).
    pub v_origin: Vector3<f64>,
}

impl Twist {
    /// The velocity of the body point at `x` (world).
    pub fn velocity_at(&self, x: &Vector3<f64>) -> Vector3<f64> {
        self.v_origin + self.omega.cross(x)
    }

    fn add(&self, other: &Twist) -> Twist {
        Twist {
            omega: self.omega + other.omega,
            v_origin: self.v_origin + other.v_origin,
        }
    }
}

/// A joint at the initial state, in world coordinates.
#[derive(Clone, Debug)]
pub(crate) struct JointFrame {
    /// The joint frame before its motion (before · origin), world.
    pub before: Isometry3<f64>,
    /// The joint frame after its motion (before · origin · M(q₀)), world.
    pub after: Isometry3<f64>,
    /// The initial position values.
    pub q: Vec<f64>,
}

/// Poses and twists of every link and joint at the initial state.
#[derive(Clone, Debug)]
pub(crate) struct Placement {
    /// World pose of each link frame.
    pub link: Vec<Isometry3<f64>>,
    /// Twist of each link.
    pub twist: Vec<Twist>,
    /// Each joint's frames (indexed as `LinkGraph::joints`).
    pub joint: Vec<JointFrame>,
}

impl Placement {
    /// The pose of a link or the world.
    pub fn pose(&self, at: LinkRef) -> Isometry3<f64> {
        match at {
            LinkRef::World => Isometry3::identity(),
            LinkRef::Link(i) => self.link[i],
        }
    }

    fn twist_of(&self, at: LinkRef) -> Twist {
        match at {
            LinkRef::World => Twist::default(),
            LinkRef::Link(i) => self.twist[i],
        }
    }

    /// Places every link of `graph` at q₀ (options, then the source's own values, then
    /// zero) with velocities v₀ (options, else rest).
    pub fn of(
        graph: &LinkGraph,
        tree: &Tree,
        options: &ImportOptions,
    ) -> Result<Placement, ImportError> {
        for name in options.q0.keys().chain(options.v0.keys()) {
            if !graph.joints.iter().any(|j| &j.name == name) {
                return Err(ImportError::Missing {
                    element: "initial joint values".into(),
                    target: format!("joint `{name}`"),
                });
            }
        }
        let n = graph.links.len();
        let mut placement = Placement {
            link: vec![Isometry3::identity(); n],
            twist: vec![Twist::default(); n],
            joint: Vec::with_capacity(graph.joints.len()),
        };
        let mut frames: Vec<Option<JointFrame>> = vec![None; graph.joints.len()];
        for &c in &tree.order {
            let mut pose = placement.pose(tree.parent[c]);
            let mut twist = placement.twist_of(tree.parent[c]);
            for &k in &tree.chain[c] {
                let joint = &graph.joints[k];
                let q = values(joint, "position", options.q0.get(&joint.name), || {
                    graph.q0.get(&joint.name)
                })?;
                let v = values(joint, "velocity", options.v0.get(&joint.name), || None)?;
                let before = pose * joint.origin;
                let after = before * motion(joint, &q)?;
                twist = twist.add(&relative_twist(&joint.motion, &before, &after, &v));
                pose = after * joint.offset;
                frames[k] = Some(JointFrame { before, after, q });
            }
            placement.link[c] = pose;
            placement.twist[c] = twist;
        }
        placement.joint = frames
            .into_iter()
            .map(|f| f.expect("every joint has a child link that the tree placed"))
            .collect();
        Ok(placement)
    }
}

/// Number of position and velocity values of a motion.
pub(crate) fn sizes(motion: &JointMotion) -> (usize, usize) {
    match motion {
        JointMotion::Fixed => (0, 0),
        JointMotion::Revolute { .. } | JointMotion::Prismatic { .. } => (1, 1),
        JointMotion::Planar { .. } => (3, 3),
        JointMotion::Ball => (4, 3),
        JointMotion::Floating => (7, 6),
    }
}

/// The values of one joint: given ones (checked: count, finite), else the fallback,
/// else the neutral values.
fn values<'a>(
    joint: &GraphJoint,
    what: &str,
    given: Option<&'a Vec<f64>>,
    fallback: impl FnOnce() -> Option<&'a Vec<f64>>,
) -> Result<Vec<f64>, ImportError> {
    let (nq, nv) = sizes(&joint.motion);
    let want = if what == "position" { nq } else { nv };
    let Some(v) = given.or_else(fallback) else {
        let mut neutral = vec![0.0; want];
        match (&joint.motion, what) {
            (JointMotion::Ball, "position") => neutral[0] = 1.0,
            (JointMotion::Floating, "position") => neutral[3] = 1.0,
            _ => {}
        }
        return Ok(neutral);
    };
    let bad = |requirement: String| ImportError::InvalidValue {
        element: format!("joint `{}`", joint.name),
        attribute: format!("initial {what}"),
        value: format!("{v:?}"),
        requirement,
    };
    if v.len() != want {
        return Err(bad(format!(
            "must have {want} value(s) for a {} joint",
            motion_label(&joint.motion)
        )));
    }
    if v.iter().any(|x| !x.is_finite()) {
        return Err(bad("must be finite".into()));
    }
    Ok(v.clone())
}

/// A short name of a motion for messages.
pub(crate) fn motion_label(motion: &JointMotion) -> &'static str {
    match motion {
        JointMotion::Fixed => "fixed",
        JointMotion::Revolute { .. } => "revolute",
        JointMotion::Prismatic { .. } => "prismatic",
        JointMotion::Planar { .. } => "planar",
        JointMotion::Ball => "ball",
        JointMotion::Floating => "floating",
    }
}

/// The first two axes of the plane with normal `n` (a right-handed triad with n).
pub(crate) fn plane_axes(n: &Unit<Vector3<f64>>) -> (Vector3<f64>, Vector3<f64>) {
    let f = mbs_model::frame_from_z(n, None).unwrap_or_else(Matrix3::identity);
    (f.column(0).into_owned(), f.column(1).into_owned())
}

/// A unit quaternion from (w, x, y, z), refusing a zero one.
fn quaternion(joint: &GraphJoint, q: &[f64]) -> Result<UnitQuaternion<f64>, ImportError> {
    let raw = nalgebra::Quaternion::new(q[0], q[1], q[2], q[3]);
    if raw.norm() < 1e-12 {
        return Err(ImportError::InvalidValue {
            element: format!("joint `{}`", joint.name),
            attribute: "initial orientation (w, x, y, z)".into(),
            value: format!("{q:?}"),
            requirement: "must be a non-zero quaternion".into(),
        });
    }
    Ok(UnitQuaternion::from_quaternion(raw))
}

/// M(q) of a joint.
fn motion(joint: &GraphJoint, q: &[f64]) -> Result<Isometry3<f64>, ImportError> {
    Ok(match &joint.motion {
        JointMotion::Fixed => Isometry3::identity(),
        JointMotion::Revolute { axis } => Isometry3::from_parts(
            Translation3::identity(),
            UnitQuaternion::from_axis_angle(axis, q[0]),
        ),
        JointMotion::Prismatic { axis } => Isometry3::from_parts(
            Translation3::from(axis.into_inner() * q[0]),
            UnitQuaternion::identity(),
        ),
        JointMotion::Planar { normal } => {
            let (u, v) = plane_axes(normal);
            Isometry3::from_parts(
                Translation3::from(u * q[0] + v * q[1]),
                UnitQuaternion::from_axis_angle(normal, q[2]),
            )
        }
        JointMotion::Ball => Isometry3::from_parts(Translation3::identity(), quaternion(joint, q)?),
        JointMotion::Floating => Isometry3::from_parts(
            Translation3::new(q[0], q[1], q[2]),
            quaternion(joint, &q[3..7])?,
        ),
    })
}

/// The twist of the frame after a joint relative to the frame before it, at the world
/// origin, from the joint's velocity values (layouts in [`ImportOptions::v0`]).
fn relative_twist(
    motion: &JointMotion,
    before: &Isometry3<f64>,
    after: &Isometry3<f64>,
    v: &[f64],
) -> Twist {
    let about = |omega: Vector3<f64>, point: Vector3<f64>| Twist {
        omega,
        v_origin: point.cross(&omega),
    };
    let rot = before.rotation;
    let origin = before.translation.vector;
    match motion {
        JointMotion::Fixed => Twist::default(),
        JointMotion::Revolute { axis } => about(rot * axis.into_inner() * v[0], origin),
        JointMotion::Prismatic { axis } => Twist {
            omega: Vector3::zeros(),
            v_origin: rot * axis.into_inner() * v[0],
        },
        JointMotion::Planar { normal } => {
            let (u, w) = plane_axes(normal);
            let slide = Twist {
                omega: Vector3::zeros(),
                v_origin: rot * (u * v[0] + w * v[1]),
            };
            slide.add(&about(
                rot * normal.into_inner() * v[2],
                after.translation.vector,
            ))
        }
        JointMotion::Ball => about(after.rotation * Vector3::new(v[0], v[1], v[2]), origin),
        JointMotion::Floating => {
            let omega = after.rotation * Vector3::new(v[3], v[4], v[5]);
            let o = after.translation.vector;
            Twist {
                omega,
                v_origin: Vector3::new(v[0], v[1], v[2]) - omega.cross(&o),
            }
        }
    }
}
