//! Validation of point masses ([`crate::Body::point_mass`]): every element that would
//! make the rotation of a point mass matter is refused, naming the body and the
//! element. What is allowed leaves the rotation decoupled (see [`crate::Body::point_mass`]):
//!
//! - markers at the body's centre (position zero), with any axes;
//! - spherical and distance joints (only marker origins enter their equations), a
//!   sine path whose point (marker i) is on the point mass, point-coordinate drivers;
//! - point forces with global components, translational and unilateral springs;
//! - gravity.
//!
//! Refused: markers off the centre; universal, revolute, cylindrical, prismatic and
//! rigid joints (their rows use the marker axes), rolling contacts (the no-slip rows
//! use ω), a sine path whose curve frame (marker j) is on the point mass; torques and
//! point forces in marker axes (angle drivers and rotational springs need a joint
//! refused above); an initial ω ≠ 0; densities (the mass is given, not computed).

use crate::error::ModelError;
use crate::force::{ForceElement, LoadFrame};
use crate::ids::{BodyRef, MarkerId};
use crate::joint::JointKind;
use crate::model::ModelParts;

/// Checks every element touching a point mass (references already valid).
pub(crate) fn validate_point_masses(parts: &ModelParts) -> Result<(), ModelError> {
    if !parts.bodies.iter().any(|b| b.point_mass) {
        return Ok(());
    }
    // The point mass a marker is on, if any.
    let point_of = |m: MarkerId| match parts.markers[m.0].body {
        BodyRef::Body(id) if parts.bodies[id.0].point_mass => Some(parts.bodies[id.0].name.clone()),
        _ => None,
    };
    let refuse = |body: String, element: String, reason: String| ModelError::PointMassRotation {
        body,
        element,
        reason,
    };
    for b in parts.bodies.iter().filter(|b| b.point_mass) {
        let w = &b.initial.omega;
        if w.iter().any(|x| *x != 0.0) {
            return Err(refuse(
                b.name.clone(),
                "initial `omega`".into(),
                format!("must be zero, got [{}, {}, {}]", w[0], w[1], w[2]),
            ));
        }
        if b.density.is_some() || b.shapes.iter().any(|s| s.density.is_some()) {
            return Err(refuse(
                b.name.clone(),
                "density".into(),
                "is not allowed: a point mass takes its `mass` only (its shapes are drawn)".into(),
            ));
        }
    }
    for m in &parts.markers {
        if let BodyRef::Body(id) = m.body
            && parts.bodies[id.0].point_mass
            && m.position.iter().any(|x| *x != 0.0)
        {
            let p = &m.position;
            return Err(refuse(
                parts.bodies[id.0].name.clone(),
                format!("marker `{}`", m.name),
                format!(
                    "is at [{}, {}, {}] from its centre: markers on a point mass must be at its centre",
                    p[0], p[1], p[2]
                ),
            ));
        }
    }
    for j in &parts.joints {
        let element = format!("joint `{}` ({})", j.name, j.kind.label());
        let uses_axes_of = match j.kind {
            JointKind::Spherical | JointKind::Distance { .. } => vec![],
            JointKind::SinePath { .. } => vec![j.marker_j],
            _ => vec![j.marker_i, j.marker_j],
        };
        if let Some(body) = uses_axes_of.into_iter().find_map(point_of) {
            let reason = match j.kind {
                JointKind::SinePath { .. } => {
                    "carries the curve's frame (marker j) on it: put the point (marker i) on the point mass instead"
                }
                JointKind::RollingSphere { .. } | JointKind::RollingDisc { .. } => {
                    "uses its angular velocity (no-slip rows)"
                }
                _ => {
                    "constrains its axes: only spherical and distance joints may act on a point mass"
                }
            };
            return Err(refuse(body, element, reason.into()));
        }
    }
    for f in &parts.forces {
        let element = |kind: &str| format!("force `{}` ({kind})", f.name());
        match f {
            ForceElement::Torque { marker, .. } => {
                if let Some(body) = point_of(*marker) {
                    return Err(refuse(
                        body,
                        element("torque"),
                        "would turn it: a point mass takes no torque".into(),
                    ));
                }
            }
            ForceElement::PointForce {
                marker,
                frame: LoadFrame::Marker,
                ..
            } => {
                if let Some(body) = point_of(*marker) {
                    return Err(refuse(
                        body,
                        element("point_force"),
                        "gives its components in marker axes, which turn with the body: use `frame = \"global\"`".into(),
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}
