//! Validation of [`ModelParts`]: every error names the element and the value.

use std::collections::HashSet;

use nalgebra::{Matrix3, SymmetricEigen};

use crate::driver::DriverKind;
use crate::error::ModelError;
use crate::force::ForceElement;
use crate::ids::{BodyRef, JointId, MarkerId};
use crate::joint::JointKind;
use crate::model::ModelParts;
use crate::time_function::TimeFunction;

/// Relative tolerance for symmetry of inertia tensors and orthonormality of marker axes.
const TOL: f64 = 1e-9;

/// Checks every invariant a [`crate::Model`] relies on.
pub fn validate(parts: &ModelParts) -> Result<(), ModelError> {
    if parts.bodies.is_empty() {
        // nothing would move: refused here so that `check` and `run` say the same
        return Err(ModelError::Unsupported {
            element: "`bodies`".into(),
            reason: "none given: a model needs at least one body (a file may instead name a generator, `generator = \"chain\"`)".into(),
        });
    }
    check_finite("model", "gravity", parts.gravity.as_slice())?;
    unique("body", parts.bodies.iter().map(|b| b.name.as_str()))?;
    if parts.bodies.iter().any(|b| b.name == crate::file::GROUND) {
        // Files refer to the fixed frame by this name.
        return Err(crate::file::reserved_ground());
    }
    unique("marker", parts.markers.iter().map(|m| m.name.as_str()))?;
    unique("joint", parts.joints.iter().map(|j| j.name.as_str()))?;
    unique("force", parts.forces.iter().map(|f| f.name()))?;
    unique("driver", parts.drivers.iter().map(|d| d.name.as_str()))?;
    for b in &parts.bodies {
        validate_body(b)?;
    }
    for m in &parts.markers {
        let element = format!("marker `{}`", m.name);
        if let BodyRef::Body(id) = m.body
            && id.0 >= parts.bodies.len()
        {
            return Err(unknown(&element, "body", id.0));
        }
        check_finite(&element, "position", m.position.as_slice())?;
        check_rotation(&element, &m.orientation)?;
    }
    for j in &parts.joints {
        validate_joint(parts, j)?;
    }
    for d in &parts.drivers {
        validate_driver(parts, d)?;
    }
    for f in &parts.forces {
        validate_force(parts, f)?;
    }
    crate::validate_point_mass::validate_point_masses(parts)
}

fn unique<'a>(kind: &'static str, names: impl Iterator<Item = &'a str>) -> Result<(), ModelError> {
    let mut seen = HashSet::new();
    for n in names {
        if !seen.insert(n) {
            return Err(ModelError::DuplicateName {
                kind,
                name: n.to_string(),
            });
        }
    }
    Ok(())
}

fn unknown(element: &str, kind: &'static str, index: usize) -> ModelError {
    ModelError::UnknownReference {
        element: element.to_string(),
        kind,
        name: format!("#{index}"),
    }
}

/// A vector parameter with every component finite; the error names the parameter and
/// the first offending component.
fn check_finite(element: &str, parameter: &'static str, v: &[f64]) -> Result<(), ModelError> {
    match v.iter().find(|x| !x.is_finite()) {
        None => Ok(()),
        Some(&value) => Err(ModelError::InvalidParameter {
            element: element.to_string(),
            parameter,
            requirement: "finite in every component",
            value,
        }),
    }
}

fn check_vector(element: &str, v: &[f64]) -> Result<(), ModelError> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(ModelError::InvalidAxis {
            element: element.to_string(),
            reason: "non-finite component".into(),
            value: v.to_vec(),
        })
    }
}

fn check_rotation(element: &str, r: &Matrix3<f64>) -> Result<(), ModelError> {
    check_vector(element, r.as_slice())?;
    let err = (r.transpose() * r - Matrix3::identity()).abs().max();
    if err > 1e-6 || r.determinant() < 0.0 {
        return Err(ModelError::InvalidAxis {
            element: element.to_string(),
            reason: if r.iter().all(|x| *x == 0.0) {
                "zero-length axis".into()
            } else {
                format!("axes not orthonormal right-handed (‖RᵀR − I‖ = {err:.3e})")
            },
            value: r.as_slice().to_vec(),
        });
    }
    Ok(())
}

fn parameter(
    element: &str,
    parameter: &'static str,
    requirement: &'static str,
    value: f64,
    ok: bool,
) -> Result<(), ModelError> {
    if ok && value.is_finite() {
        Ok(())
    } else {
        Err(ModelError::InvalidParameter {
            element: element.to_string(),
            parameter,
            requirement,
            value,
        })
    }
}

fn validate_body(b: &crate::body::Body) -> Result<(), ModelError> {
    let element = format!("body `{}`", b.name);
    crate::validate_shapes::validate_shapes(b)?;
    if !(b.mass.is_finite() && b.mass > 0.0) {
        return Err(ModelError::NonPositiveMass {
            body: b.name.clone(),
            mass: b.mass,
        });
    }
    let j = &b.inertia;
    let rows = [
        [j[(0, 0)], j[(0, 1)], j[(0, 2)]],
        [j[(1, 0)], j[(1, 1)], j[(1, 2)]],
        [j[(2, 0)], j[(2, 1)], j[(2, 2)]],
    ];
    let spd_error = |reason: String| ModelError::InertiaNotSpd {
        body: b.name.clone(),
        reason,
        inertia: rows,
    };
    if !j.iter().all(|x| x.is_finite()) {
        return Err(spd_error("non-finite entry".into()));
    }
    let scale = j.abs().max().max(f64::MIN_POSITIVE);
    let asym = (j - j.transpose()).abs().max();
    if asym > TOL * scale {
        return Err(spd_error(format!("not symmetric, |J − Jᵀ| = {asym:.3e}")));
    }
    // Eigenvalues of J/scale (entries in [−1, 1]: no overflow for huge inputs).
    let eig = SymmetricEigen::new(j / scale).eigenvalues;
    let min = eig.min();
    if min.is_nan() || min <= 1e-12 {
        return Err(spd_error(format!(
            "smallest eigenvalue {:.6e}",
            min * scale
        )));
    }
    let mut moments = [eig[0] * scale, eig[1] * scale, eig[2] * scale];
    moments.sort_by(f64::total_cmp);
    if moments[0] + moments[1] < moments[2] * (1.0 - 1e-9) {
        return Err(ModelError::InertiaNotPhysical {
            body: b.name.clone(),
            moments,
        });
    }
    let init = &b.initial;
    check_finite(&element, "initial position", init.position.as_slice())?;
    check_finite(&element, "initial velocity", init.velocity.as_slice())?;
    check_finite(&element, "initial omega", init.omega.as_slice())?;
    check_unit_euler_params(&format!("{element} initial orientation"), &init.orientation)
}

/// Euler parameters of unit norm (within 1e-6).
pub(crate) fn check_unit_euler_params(
    element: &str,
    p: &mbs_kinematics::EulerParams,
) -> Result<(), ModelError> {
    let n = p.norm();
    if !(n.is_finite() && (n - 1.0).abs() < 1e-6) {
        return Err(ModelError::InvalidAxis {
            element: element.to_string(),
            reason: format!(
                "Euler parameters [e0, e1, e2, e3] must be finite with unit norm, ‖p‖ = {n}"
            ),
            value: p.as_slice().to_vec(),
        });
    }
    Ok(())
}

fn marker_body(parts: &ModelParts, element: &str, m: MarkerId) -> Result<BodyRef, ModelError> {
    parts
        .markers
        .get(m.0)
        .map(|m| m.body)
        .ok_or_else(|| unknown(element, "marker", m.0))
}

fn body_name(parts: &ModelParts, b: BodyRef) -> String {
    match b {
        BodyRef::Ground => "ground".into(),
        BodyRef::Body(id) => parts.bodies[id.0].name.clone(),
    }
}

fn validate_joint(parts: &ModelParts, j: &crate::joint::Joint) -> Result<(), ModelError> {
    let element = format!("joint `{}`", j.name);
    let bi = marker_body(parts, &element, j.marker_i)?;
    let bj = marker_body(parts, &element, j.marker_j)?;
    if bi == bj {
        return Err(ModelError::SelfJoint {
            joint: j.name.clone(),
            body: body_name(parts, bi),
        });
    }
    match j.kind {
        JointKind::Distance { length } => {
            parameter(&element, "length", "positive", length, length > 0.0)?
        }
        JointKind::RollingSphere { radius } => rolling_contact(&element, "sphere", radius, bi, bj)?,
        JointKind::RollingDisc { radius } => rolling_contact(&element, "disc", radius, bi, bj)?,
        JointKind::SinePath {
            amplitude,
            wavenumber,
        } => {
            parameter(&element, "amplitude", "finite", amplitude, true)?;
            parameter(&element, "wavenumber", "finite", wavenumber, true)?;
        }
        _ => {}
    }
    Ok(())
}

/// A rolling contact (sphere or disc at marker i on the plane of marker j): positive
/// radius, plane on ground, rolling body moving.
fn rolling_contact(
    element: &str,
    what: &str,
    radius: f64,
    bi: BodyRef,
    bj: BodyRef,
) -> Result<(), ModelError> {
    parameter(element, "radius", "positive", radius, radius > 0.0)?;
    if bj != BodyRef::Ground {
        return Err(ModelError::Unsupported {
            element: element.to_string(),
            reason: format!("a rolling {what} needs its plane marker (marker j) on ground"),
        });
    }
    if bi == BodyRef::Ground {
        return Err(ModelError::Unsupported {
            element: element.to_string(),
            reason: format!("the rolling {what} (marker i) must be on a moving body"),
        });
    }
    Ok(())
}

fn joint_kind<'a>(
    parts: &'a ModelParts,
    element: &str,
    id: JointId,
) -> Result<&'a JointKind, ModelError> {
    parts
        .joints
        .get(id.0)
        .map(|j| &j.kind)
        .ok_or_else(|| unknown(element, "joint", id.0))
}

fn validate_driver(parts: &ModelParts, d: &crate::driver::Driver) -> Result<(), ModelError> {
    let element = format!("driver `{}`", d.name);
    check_function(&element, &d.function)?;
    match &d.kind {
        DriverKind::JointAngle { joint } => match joint_kind(parts, &element, *joint)? {
            JointKind::Revolute | JointKind::Cylindrical | JointKind::Planar => Ok(()),
            k => Err(ModelError::Unsupported {
                element,
                reason: format!(
                    "an angle driver needs a revolute, cylindrical or planar joint, not {}",
                    k.label()
                ),
            }),
        },
        DriverKind::JointTranslation { joint } => match joint_kind(parts, &element, *joint)? {
            JointKind::Prismatic | JointKind::Cylindrical => Ok(()),
            k => Err(ModelError::Unsupported {
                element,
                reason: format!(
                    "a translation driver needs a prismatic or cylindrical joint, not {}",
                    k.label()
                ),
            }),
        },
        DriverKind::PointCoordinate { marker, axis } => {
            let b = marker_body(parts, &element, *marker)?;
            if b == BodyRef::Ground {
                return Err(ModelError::Unsupported {
                    element,
                    reason: "a point driver needs a marker on a moving body".into(),
                });
            }
            parameter(&element, "axis", "0, 1 or 2", *axis as f64, *axis < 3)
        }
    }
}

fn validate_force(parts: &ModelParts, f: &ForceElement) -> Result<(), ModelError> {
    let element = format!("force `{}`", f.name());
    let nonneg = |p: &'static str, v: f64| parameter(&element, p, "non-negative", v, v >= 0.0);
    let finite_fns = |fs: &[&TimeFunction]| fs.iter().try_for_each(|f| check_function(&element, f));
    let on_body = |m: MarkerId| -> Result<(), ModelError> {
        if marker_body(parts, &element, m)? == BodyRef::Ground {
            return Err(ModelError::Unsupported {
                element: element.clone(),
                reason: format!(
                    "a load at marker `{}` on ground acts on nothing; use a marker on a moving body",
                    parts.markers[m.0].name
                ),
            });
        }
        Ok(())
    };
    match f {
        ForceElement::PointForce { marker, force, .. } => {
            on_body(*marker)?;
            finite_fns(&force.iter().collect::<Vec<_>>())
        }
        ForceElement::Torque { marker, torque, .. } => {
            on_body(*marker)?;
            finite_fns(&torque.iter().collect::<Vec<_>>())
        }
        ForceElement::SpringDamper {
            marker_i,
            marker_j,
            stiffness,
            damping,
            free_length,
            actuator,
            ..
        } => {
            let (bi, bj) = (
                marker_body(parts, &element, *marker_i)?,
                marker_body(parts, &element, *marker_j)?,
            );
            if bi == bj {
                return Err(ModelError::SelfJoint {
                    joint: f.name().to_string(),
                    body: body_name(parts, bi),
                });
            }
            nonneg("stiffness", *stiffness)?;
            nonneg("damping", *damping)?;
            nonneg("free_length", *free_length)?;
            finite_fns(&[actuator])
        }
        ForceElement::RotationalSpringDamper {
            joint,
            stiffness,
            damping,
            free_angle,
            actuator,
            ..
        } => {
            match joint_kind(parts, &element, *joint)? {
                JointKind::Revolute | JointKind::Cylindrical | JointKind::Planar => {}
                k => {
                    return Err(ModelError::Unsupported {
                        element,
                        reason: format!(
                            "a rotational spring needs a revolute, cylindrical or planar joint, not {}",
                            k.label()
                        ),
                    });
                }
            }
            nonneg("stiffness", *stiffness)?;
            nonneg("damping", *damping)?;
            parameter(&element, "free_angle", "finite", *free_angle, true)?;
            finite_fns(&[actuator])
        }
        ForceElement::UnilateralSpring {
            marker_i,
            marker_j,
            stiffness,
            damping,
            free_length,
            ..
        } => {
            let (bi, bj) = (
                marker_body(parts, &element, *marker_i)?,
                marker_body(parts, &element, *marker_j)?,
            );
            if bi == bj {
                return Err(ModelError::SelfJoint {
                    joint: f.name().to_string(),
                    body: body_name(parts, bi),
                });
            }
            nonneg("stiffness", *stiffness)?;
            nonneg("damping", *damping)?;
            parameter(
                &element,
                "free_length",
                "positive",
                *free_length,
                *free_length > 0.0,
            )
        }
    }
}

/// A time function with finite numbers and well-ordered smooth-step times.
fn check_function(element: &str, f: &TimeFunction) -> Result<(), ModelError> {
    let err = |parameter, requirement, value| {
        Err(ModelError::InvalidParameter {
            element: element.to_string(),
            parameter,
            requirement,
            value,
        })
    };
    let finite = |values: &[f64]| match values.iter().find(|v| !v.is_finite()) {
        Some(&v) => err("function", "finite in every coefficient", v),
        None => Ok(()),
    };
    match f {
        TimeFunction::Constant { value } => finite(&[*value]),
        TimeFunction::Polynomial { coefficients } => finite(coefficients),
        TimeFunction::Harmonic {
            amplitude,
            frequency,
            phase,
            offset,
        } => finite(&[*amplitude, *frequency, *phase, *offset]),
        TimeFunction::SmoothStep { t0, t1, from, to } => {
            finite(&[*t0, *t1, *from, *to])?;
            if t1 > t0 {
                Ok(())
            } else {
                err("smooth_step t1", "greater than t0", *t1)
            }
        }
        TimeFunction::Sum { terms } => terms.iter().try_for_each(|t| check_function(element, t)),
    }
}
