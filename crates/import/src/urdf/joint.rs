//! `<joint>` (wiki.ros.org/urdf/XML/joint): `type` (revolute, continuous, prismatic,
//! fixed, floating, planar), `<origin>` (the joint frame in the parent link frame,
//! which is also the child link frame at q = 0), `<parent link>`, `<child link>`,
//! `<axis xyz>` (in the joint frame, default (1, 0, 0), normalised here; the planar
//! joint's plane normal), `<limit lower upper effort velocity>` (required for
//! revolute and prismatic; continuous joints have no position limits),
//! `<dynamics damping friction>` and `<mimic joint multiplier offset>`.
//! urdf-rs also reads `spherical` (not in the URDF spec), imported as a ball joint.

use nalgebra::{Isometry3, Unit};

use super::values::{finite, finite3, invalid, non_negative, pose};
use crate::{GraphJoint, ImportError, JointDynamics, JointLimit, JointMotion, LinkRef, Mimic};

/// The graph joint of URDF joint `j` between `parent` and `child` (indices already
/// resolved); `has_limit`: the joint has a `<limit>` element.
pub(super) fn joint(
    j: &urdf_rs::Joint,
    parent: LinkRef,
    child: usize,
    has_limit: bool,
) -> Result<GraphJoint, ImportError> {
    let element = format!("joint `{}`", j.name);
    let origin = pose(&j.origin, &element)?;
    let axis = || -> Result<Unit<nalgebra::Vector3<f64>>, ImportError> {
        let a = finite3(&j.axis.xyz, &element, "axis xyz")?;
        let norm = a.norm();
        if norm > 1e-12 {
            Ok(Unit::new_normalize(a))
        } else {
            Err(invalid(
                &element,
                "axis xyz",
                format!("\"{} {} {}\"", a.x, a.y, a.z),
                "must be a nonzero vector",
            ))
        }
    };
    use urdf_rs::JointType as T;
    let motion = match j.joint_type {
        T::Revolute | T::Continuous => JointMotion::Revolute { axis: axis()? },
        T::Prismatic => JointMotion::Prismatic { axis: axis()? },
        T::Fixed => JointMotion::Fixed,
        T::Floating => JointMotion::Floating,
        T::Planar => JointMotion::Planar { normal: axis()? },
        T::Spherical => JointMotion::Ball,
    };
    let dynamics = match &j.dynamics {
        Some(d) => JointDynamics {
            damping: non_negative(d.damping, &element, "dynamics damping")?,
            friction: non_negative(d.friction, &element, "dynamics friction")?,
            ..JointDynamics::default()
        },
        None => JointDynamics::default(),
    };
    let limit = if has_limit && !matches!(motion, JointMotion::Fixed) {
        Some(limit(&j.limit, &element, j.joint_type == T::Continuous)?)
    } else {
        None
    };
    let mimic = match &j.mimic {
        Some(m) => Some(Mimic {
            joint: m.joint.clone(),
            multiplier: finite(m.multiplier.unwrap_or(1.0), &element, "mimic multiplier")?,
            offset: finite(m.offset.unwrap_or(0.0), &element, "mimic offset")?,
        }),
        None => None,
    };
    Ok(GraphJoint {
        name: j.name.clone(),
        parent,
        child,
        origin,
        motion,
        offset: Isometry3::identity(),
        dynamics,
        limit,
        mimic,
    })
}

/// `<limit>`: NaN is refused; ±∞ (URDF 1.2's "no limit") becomes `None`; a continuous
/// joint has no position limits.
fn limit(
    l: &urdf_rs::JointLimit,
    element: &str,
    continuous: bool,
) -> Result<JointLimit, ImportError> {
    let opt = |v: f64, attr: &str| -> Result<Option<f64>, ImportError> {
        if v.is_nan() {
            Err(invalid(element, attr, v, "must be a number"))
        } else {
            Ok(v.is_finite().then_some(v))
        }
    };
    let (lower, upper) = if continuous {
        (None, None)
    } else {
        (opt(l.lower, "limit lower")?, opt(l.upper, "limit upper")?)
    };
    if let (Some(lo), Some(hi)) = (lower, upper)
        && hi < lo
    {
        return Err(invalid(
            element,
            "limit upper",
            hi,
            &format!("must be ≥ limit lower = {lo}"),
        ));
    }
    Ok(JointLimit {
        lower,
        upper,
        effort: opt(l.effort, "limit effort")?,
        velocity: opt(l.velocity, "limit velocity")?,
    })
}
