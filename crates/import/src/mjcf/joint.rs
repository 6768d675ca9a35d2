//! `<joint>` and `<freejoint>` (MuJoCo XML reference, "body/joint", "body/freejoint").
//!
//! MuJoCo moves a body by its joints in the order written: a hinge rotates the body
//! about the axis through the anchor `pos` by q − `ref`, a slide translates it by
//! (q − `ref`)·`axis`, a ball rotates it about the anchor by the quaternion q, a free
//! joint sets the body's world pose to q = (x, y, z, w, x, y, z). `ref` is the joint
//! value of the configuration written in the file (qpos0). Hinge `ref`, `springref`
//! and `range` are angles in the compiler's unit; `axis` is normalised.

use nalgebra::{Isometry3, Translation3, Unit, UnitQuaternion, Vector3};

use super::attrs::{boolean, invalid, keyword, real, reals_n, vec3};
use super::compiler::Compiler;
use super::defaults::Attrs;
use crate::{ImportError, JointDynamics, JointLimit, JointMotion};

/// MuJoCo's joint types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// One rotation.
    Hinge,
    /// One translation.
    Slide,
    /// Rotation about a point.
    Ball,
    /// Six degrees of freedom.
    Free,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Hinge => "hinge",
            Kind::Slide => "slide",
            Kind::Ball => "ball",
            Kind::Free => "free",
        }
    }
}

/// A parsed joint.
#[derive(Clone, Debug)]
pub(crate) struct Joint {
    /// `name`, if given.
    pub name: Option<String>,
    /// Type.
    pub kind: Kind,
    /// Anchor in the body frame.
    pub pos: Vector3<f64>,
    /// Unit axis in the body frame (hinge, slide).
    pub axis: Unit<Vector3<f64>>,
    /// `ref` in rad or m.
    pub reference: f64,
    /// Damping, stiffness, spring reference, armature, friction loss.
    pub dynamics: JointDynamics,
    /// Position limits if the joint is limited.
    pub limit: Option<JointLimit>,
}

/// Parses a `<joint>` (with its class defaults) or a `<freejoint>`.
pub(crate) fn parse_joint(a: &Attrs<'_>, c: &Compiler) -> Result<Joint, ImportError> {
    let e = a.element;
    let kind = if e.name == "freejoint" {
        Kind::Free
    } else {
        match a.get("type") {
            Some(t) => match keyword(e, "type", t, &["hinge", "slide", "ball", "free"])? {
                "hinge" => Kind::Hinge,
                "slide" => Kind::Slide,
                "ball" => Kind::Ball,
                _ => Kind::Free,
            },
            None => Kind::Hinge,
        }
    };
    let num = |key: &str| -> Result<f64, ImportError> {
        a.get(key)
            .map(|v| real(e, key, v))
            .transpose()
            .map(|v| v.unwrap_or(0.0))
    };
    let angle = |v: f64| if kind == Kind::Hinge { c.radians(v) } else { v };
    let pos = match a.get("pos") {
        Some(v) if kind != Kind::Free => vec3(e, "pos", v)?,
        _ => Vector3::zeros(),
    };
    let axis_text = a.get("axis").unwrap_or("0 0 1");
    let axis = Unit::try_new(vec3(e, "axis", axis_text)?, 1e-12)
        .ok_or_else(|| invalid(e, "axis", axis_text, "must be a nonzero vector"))?;
    let dynamics = JointDynamics {
        damping: nonneg(a, "damping", num("damping")?)?,
        friction: nonneg(a, "frictionloss", num("frictionloss")?)?,
        stiffness: nonneg(a, "stiffness", num("stiffness")?)?,
        spring_ref: angle(num("springref")?),
        armature: nonneg(a, "armature", num("armature")?)?,
    };
    let range = a
        .get("range")
        .map(|v| reals_n(e, "range", v, 2))
        .transpose()?;
    let limited = match a.get("limited") {
        Some(v) => match keyword(e, "limited", v, &["true", "false", "auto"])? {
            "auto" => range.is_some() && c.autolimits,
            other => boolean(e, "limited", other)?,
        },
        None => range.is_some() && c.autolimits,
    };
    let limit = match (limited, range) {
        (true, Some(r)) => {
            if r[0] >= r[1] {
                return Err(invalid(
                    e,
                    "range",
                    a.get("range").unwrap_or_default(),
                    "must have lower < upper for a limited joint",
                ));
            }
            let r = if matches!(kind, Kind::Hinge | Kind::Ball) {
                [c.radians(r[0]), c.radians(r[1])]
            } else {
                [r[0], r[1]]
            };
            Some(JointLimit {
                lower: (kind != Kind::Ball).then_some(r[0]),
                upper: Some(r[1]),
                effort: None,
                velocity: None,
            })
        }
        (true, None) => {
            return Err(invalid(e, "limited", "true", "needs a `range`"));
        }
        _ => None,
    };
    Ok(Joint {
        name: e.name_attr().map(str::to_string),
        kind,
        pos,
        axis,
        reference: angle(num("ref")?),
        dynamics,
        limit,
    })
}

fn nonneg(a: &Attrs<'_>, key: &str, v: f64) -> Result<f64, ImportError> {
    if v < 0.0 {
        Err(invalid(
            a.element,
            key,
            a.get(key).unwrap_or_default(),
            "must be ≥ 0",
        ))
    } else {
        Ok(v)
    }
}

impl Joint {
    /// The generated name of an unnamed joint: `<body>_<type><k>` (k-th joint of the
    /// body).
    pub fn default_name(&self, body: &str, k: usize) -> String {
        format!("{body}_{}{k}", self.kind.word())
    }

    /// The link-graph motion, origin and offset of this joint; `pre` is the body pose
    /// for the body's first joint, identity for the next (see the `graph` module doc).
    /// The origin holds R(axis, −`ref`) or T(−`ref`·axis) so that the graph's q is
    /// MuJoCo's qpos.
    pub fn graph_frames(
        &self,
        pre: Isometry3<f64>,
    ) -> (Isometry3<f64>, JointMotion, Isometry3<f64>) {
        let to_anchor =
            Isometry3::from_parts(Translation3::from(self.pos), UnitQuaternion::identity());
        let back = to_anchor.inverse();
        match self.kind {
            Kind::Hinge => (
                pre * to_anchor
                    * Isometry3::from_parts(
                        Translation3::identity(),
                        UnitQuaternion::from_axis_angle(&self.axis, -self.reference),
                    ),
                JointMotion::Revolute { axis: self.axis },
                back,
            ),
            Kind::Slide => (
                pre * to_anchor
                    * Isometry3::from_parts(
                        Translation3::from(-self.reference * self.axis.into_inner()),
                        UnitQuaternion::identity(),
                    ),
                JointMotion::Prismatic { axis: self.axis },
                back,
            ),
            Kind::Ball => (pre * to_anchor, JointMotion::Ball, back),
            Kind::Free => (
                Isometry3::identity(),
                JointMotion::Floating,
                Isometry3::identity(),
            ),
        }
    }

    /// MuJoCo's qpos0 of the joint: `ref` (hinge, slide), the unit quaternion (ball),
    /// the body's world pose in the file (free; `world` is that pose).
    pub fn qpos0(&self, world: &Isometry3<f64>) -> Vec<f64> {
        match self.kind {
            Kind::Hinge | Kind::Slide => vec![self.reference],
            Kind::Ball => vec![1.0, 0.0, 0.0, 0.0],
            Kind::Free => {
                let t = world.translation.vector;
                let q = world.rotation.quaternion();
                vec![t.x, t.y, t.z, q.w, q.i, q.j, q.k]
            }
        }
    }
}
