//! The mbs joint of a chain of source joints: one joint maps to its kind (revolute,
//! prismatic, ball → spherical, floating → no joint), and a chain through massless
//! frames to the kind with the same relative motion: two hinges whose axes meet at
//! right angles → universal, three hinges through one point (or hinges and a ball
//! there) → spherical, a slide and a hinge on one axis → cylindrical, three
//! independent slides and three independent rotations → no joint (free body), two
//! slides in the plane normal to a hinge → planar (the 2-D models of MJCF).
//!
//! The markers are placed at the initial state: marker i (parent) at the joint frame
//! before the motion, marker j (child) after it, both with z along the joint axis, so
//! that mbs's joint angle (xᵢ to xⱼ about zᵢ) and translation (zᵢ·(Pⱼ − Pᵢ)) equal the
//! source's joint position q.

use nalgebra::{Matrix3, Rotation3, Unit, Vector3};

use super::pose::{JointFrame, Placement, motion_label, plane_axes};
use crate::{GraphJoint, ImportError, JointMotion, LinkGraph};
use mbs_model::{JointKind, frame_from_z};

/// A marker pose in world coordinates at the initial state.
#[derive(Clone, Debug)]
pub(crate) struct WorldFrame {
    /// Origin.
    pub position: Vector3<f64>,
    /// Axes (columns x, y, z).
    pub axes: Matrix3<f64>,
}

/// The mbs joint for a chain of source joints.
#[derive(Clone, Debug)]
pub(crate) enum Connection {
    /// A joint of `kind` between markers at `marker_i` (parent) and `marker_j` (child).
    Joint(Box<JointConnection>),
    /// No constraint: the child moves freely.
    Free,
}

/// A joint of `kind` between markers at `marker_i` (parent) and `marker_j` (child).
#[derive(Clone, Debug)]
pub(crate) struct JointConnection {
    /// Name (the source joint's, or the chain's names joined by `+`).
    pub name: String,
    /// Kind.
    pub kind: JointKind,
    /// Marker on the parent.
    pub marker_i: WorldFrame,
    /// Marker on the child.
    pub marker_j: WorldFrame,
    /// The source joint of a one-joint revolute or prismatic chain (its damping and
    /// spring apply to the mbs joint's coordinate).
    pub single: Option<usize>,
}

const PARALLEL: f64 = 1e-9;

/// The connection of a chain of moving joints (indices into `graph.joints`).
pub(crate) fn connect(
    graph: &LinkGraph,
    placement: &Placement,
    chain: &[usize],
) -> Result<Connection, ImportError> {
    let joints: Vec<&GraphJoint> = chain.iter().map(|&k| &graph.joints[k]).collect();
    let frames: Vec<&JointFrame> = chain.iter().map(|&k| &placement.joint[k]).collect();
    let name = joints
        .iter()
        .map(|j| j.name.as_str())
        .collect::<Vec<_>>()
        .join("+");
    let first = frames[0];
    let last = frames[frames.len() - 1];
    let joint = |kind, marker_i, marker_j, single| {
        Ok(Connection::Joint(Box::new(JointConnection {
            name: name.clone(),
            kind,
            marker_i,
            marker_j,
            single,
        })))
    };
    if let [only] = joints[..] {
        // markers at the joint frame before (i) and after (j) the motion, with the
        // joint's axes `axes` (joint-frame components) as marker axes
        let across = |kind, axes: Matrix3<f64>, single| {
            let at = |pose: &nalgebra::Isometry3<f64>| {
                frame(
                    pose.translation.vector,
                    pose.rotation.to_rotation_matrix() * axes,
                )
            };
            joint(kind, at(&first.before), at(&first.after), single)
        };
        return match &only.motion {
            JointMotion::Revolute { axis } => {
                across(JointKind::Revolute, align(axis), Some(chain[0]))
            }
            JointMotion::Prismatic { axis } => {
                across(JointKind::Prismatic, align(axis), Some(chain[0]))
            }
            JointMotion::Ball => across(JointKind::Spherical, Matrix3::identity(), None),
            JointMotion::Floating => Ok(Connection::Free),
            JointMotion::Planar { normal } => {
                let (u, v) = plane_axes(normal);
                let axes = Matrix3::from_columns(&[u, v, normal.into_inner()]);
                across(JointKind::Planar, axes, Some(chain[0]))
            }
            JointMotion::Fixed => unreachable!("fixed joints are merged, never connected"),
        };
    }
    let lines: Vec<Line> = joints
        .iter()
        .zip(&frames)
        .filter_map(|(j, f)| Line::of(j, f))
        .collect();
    let hinges: Vec<&Line> = lines.iter().filter(|l| l.rotation).collect();
    let slides: Vec<&Line> = lines.iter().filter(|l| !l.rotation).collect();
    let balls: Vec<&JointFrame> = joints
        .iter()
        .zip(&frames)
        .filter(|(j, _)| j.motion == JointMotion::Ball)
        .map(|(_, f)| *f)
        .collect();
    let floating = joints.iter().any(|j| j.motion == JointMotion::Floating);
    let planar = joints
        .iter()
        .any(|j| matches!(j.motion, JointMotion::Planar { .. }));
    let rotations = rank(hinges.iter().map(|l| l.axis)) + 3 * usize::from(!balls.is_empty());
    let translations = rank(slides.iter().map(|l| l.axis));
    if floating {
        return Err(unsupported(
            &name,
            &joints,
            "a floating joint in a chain with other joints",
        ));
    }
    if translations == 3 && rotations >= 3 {
        return Ok(Connection::Free);
    }
    if planar {
        return Err(unsupported(
            &name,
            &joints,
            "a planar joint in a chain with other joints",
        ));
    }
    if let ([h], [s1, s2]) = (&hinges[..], &slides[..]) {
        let in_plane = |s: &Line| s.axis.dot(&h.axis).abs() <= PARALLEL;
        if balls.is_empty() && translations == 2 && in_plane(s1) && in_plane(s2) {
            // slides in the plane normal to the hinge: a planar joint at the hinge
            let ri = along(&h.axis);
            let rj = Rotation3::from_axis_angle(&Unit::new_normalize(h.axis), h.q) * ri;
            return joint(
                JointKind::Planar,
                frame(h.point, ri),
                frame(h.point, rj),
                None,
            );
        }
    }
    if slides.is_empty() {
        // rotations about one point: universal or spherical
        let point = match balls.first() {
            Some(b) => b.before.translation.vector,
            None => meeting_point(hinges[0], hinges[1]).ok_or_else(|| {
                unsupported(&name, &joints, "the hinge axes do not meet in one point")
            })?,
        };
        if !hinges.iter().all(|l| l.passes(&point)) {
            return Err(unsupported(
                &name,
                &joints,
                "the hinge axes do not meet in one point",
            ));
        }
        if balls.is_empty() && hinges.len() == 2 {
            if hinges[0].axis.dot(&hinges[1].axis).abs() > PARALLEL {
                return Err(unsupported(
                    &name,
                    &joints,
                    "two hinges whose axes are not perpendicular (mbs's universal joint has \
                     perpendicular pins)",
                ));
            }
            return joint(
                JointKind::Universal,
                frame(point, along(&hinges[0].axis)),
                frame(point, along(&hinges[1].axis)),
                None,
            );
        }
        if rotations >= 3 {
            return joint(
                JointKind::Spherical,
                frame(
                    point,
                    first.before.rotation.to_rotation_matrix().into_inner(),
                ),
                frame(point, last.after.rotation.to_rotation_matrix().into_inner()),
                None,
            );
        }
        return Err(unsupported(&name, &joints, "hinges about parallel axes"));
    }
    if let ([h], [s]) = (&hinges[..], &slides[..])
        && balls.is_empty()
        && h.axis.cross(&s.axis).norm() <= PARALLEL
    {
        let (ri, rj) = (
            along(&h.axis),
            Rotation3::from_axis_angle(&Unit::new_normalize(h.axis), h.q) * along(&h.axis),
        );
        return joint(
            JointKind::Cylindrical,
            frame(h.point, ri),
            frame(h.point, rj),
            None,
        );
    }
    Err(unsupported(
        &name,
        &joints,
        "this combination of joints has no mbs joint kind (supported chains: two hinges \
         meeting at right angles, hinges or a ball about one point, a hinge and a slide on \
         one axis, three slides with three rotations)",
    ))
}

/// A hinge or slide of a chain in world coordinates at the initial state.
#[derive(Clone, Debug)]
struct Line {
    rotation: bool,
    point: Vector3<f64>,
    axis: Vector3<f64>,
    q: f64,
}

impl Line {
    fn of(joint: &GraphJoint, f: &JointFrame) -> Option<Line> {
        let (rotation, axis) = match &joint.motion {
            JointMotion::Revolute { axis } => (true, axis),
            JointMotion::Prismatic { axis } => (false, axis),
            _ => return None,
        };
        Some(Line {
            rotation,
            point: f.before.translation.vector,
            axis: f.before.rotation * axis.into_inner(),
            q: f.q[0],
        })
    }

    /// Whether the line passes through `p` (to round-off of the model's size).
    fn passes(&self, p: &Vector3<f64>) -> bool {
        (p - self.point).cross(&self.axis).norm() <= 1e-9 * (1.0 + p.norm() + self.point.norm())
    }
}

/// The point where two non-parallel lines meet (closest points within round-off).
fn meeting_point(a: &Line, b: &Line) -> Option<Vector3<f64>> {
    let n = a.axis.cross(&b.axis);
    if n.norm() <= PARALLEL {
        return None;
    }
    // a.point + s a.axis = b.point + t b.axis, solved in the least-squares sense
    let w = b.point - a.point;
    let s = w.cross(&b.axis).dot(&n) / n.norm_squared();
    let p = a.point + a.axis * s;
    b.passes(&p).then_some(p)
}

/// Rank of a few directions.
fn rank(dirs: impl Iterator<Item = Vector3<f64>>) -> usize {
    let cols: Vec<Vector3<f64>> = dirs.collect();
    if cols.is_empty() {
        return 0;
    }
    let m = nalgebra::Matrix3xX::from_columns(&cols);
    m.svd(false, false)
        .singular_values
        .iter()
        .filter(|s| **s > 1e-9)
        .count()
        .min(3)
}

/// A rotation whose third column is `axis` (the joint frame → marker axes).
fn align(axis: &Unit<Vector3<f64>>) -> Matrix3<f64> {
    frame_from_z(axis, None).unwrap_or_else(Matrix3::identity)
}

/// Axes with z along `z` (world).
fn along(z: &Vector3<f64>) -> Matrix3<f64> {
    frame_from_z(z, None).unwrap_or_else(Matrix3::identity)
}

fn frame(position: Vector3<f64>, axes: impl Into<Matrix3<f64>>) -> WorldFrame {
    WorldFrame {
        position,
        axes: axes.into(),
    }
}

fn unsupported(name: &str, joints: &[&GraphJoint], why: &str) -> ImportError {
    let list = joints
        .iter()
        .map(|j| format!("`{}` ({})", j.name, motion_label(&j.motion)))
        .collect::<Vec<_>>()
        .join(", ");
    ImportError::Unsupported {
        element: format!("joint `{name}`"),
        reason: format!("the chain {list}: {why}"),
    }
}
