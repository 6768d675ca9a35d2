//! Conversion between the file types (references by name) and [`ModelParts`]
//! (references by typed id). Reading resolves names and builds marker frames;
//! writing is exact, so that `Model → file → Model` gives an equal model.

use std::collections::HashMap;

use nalgebra::{Matrix3, Vector3};

use super::body::{body_from_spec, body_to_spec};
use super::spec::{
    DriverSpec, ForceSpec, FunctionSpec, JointSpec, MarkerSpec, ModelFile, Rows3, TaggedFunction,
    Vec3,
};
use crate::driver::{Driver, DriverKind};
use crate::error::ModelError;
use crate::force::ForceElement;
use crate::ids::{BodyId, BodyRef, JointId, MarkerId};
use crate::joint::{Joint, JointKind};
use crate::marker::{Marker, frame_from_z};
use crate::model::{Model, ModelParts};
use crate::time_function::TimeFunction;

/// The body name that refers to the fixed frame.
pub(crate) const GROUND: &str = "ground";

/// Name → index of one kind of element; rejects duplicates.
struct Names<'a> {
    kind: &'static str,
    index: HashMap<&'a str, usize>,
}

impl<'a> Names<'a> {
    fn new(kind: &'static str, names: impl Iterator<Item = &'a str>) -> Result<Self, ModelError> {
        let mut index = HashMap::new();
        for (i, n) in names.enumerate() {
            if index.insert(n, i).is_some() {
                return Err(ModelError::DuplicateName {
                    kind,
                    name: n.to_string(),
                });
            }
        }
        Ok(Self { kind, index })
    }

    /// The index of `name`, or an [`ModelError::UnknownReference`] from `element`.
    fn get(&self, element: &str, name: &str) -> Result<usize, ModelError> {
        self.index
            .get(name)
            .copied()
            .ok_or_else(|| ModelError::UnknownReference {
                element: element.to_string(),
                kind: self.kind,
                name: name.to_string(),
            })
    }
}

pub(super) fn v3(a: &Vec3) -> Vector3<f64> {
    Vector3::new(a[0], a[1], a[2])
}

pub(super) fn from_rows(r: &Rows3) -> Matrix3<f64> {
    Matrix3::new(
        r[0][0], r[0][1], r[0][2], r[1][0], r[1][1], r[1][2], r[2][0], r[2][1], r[2][2],
    )
}

pub(super) fn to_rows(m: &Matrix3<f64>) -> Rows3 {
    [
        [m[(0, 0)], m[(0, 1)], m[(0, 2)]],
        [m[(1, 0)], m[(1, 1)], m[(1, 2)]],
        [m[(2, 0)], m[(2, 1)], m[(2, 2)]],
    ]
}

pub(super) fn a3(v: &Vector3<f64>) -> Vec3 {
    [v.x, v.y, v.z]
}

// ---------------------------------------------------------------------------------
// file → parts

/// Resolves names and builds the parts (not yet validated).
pub(crate) fn file_to_parts(file: &ModelFile) -> Result<ModelParts, ModelError> {
    let bodies = Names::new("body", file.bodies.iter().map(|b| b.name.as_str()))?;
    if bodies.index.contains_key(GROUND) {
        return Err(reserved_ground());
    }
    let markers = Names::new("marker", file.markers.iter().map(|m| m.name.as_str()))?;
    let joints = Names::new("joint", file.joints.iter().map(joint_name))?;
    Names::new("force", file.forces.iter().map(force_name))?;
    Names::new("driver", file.drivers.iter().map(driver_name))?;

    let resolve_body = |element: &str, name: &str| -> Result<BodyRef, ModelError> {
        if name == GROUND {
            Ok(BodyRef::Ground)
        } else {
            bodies.get(element, name).map(|i| BodyRef::Body(BodyId(i)))
        }
    };
    let marker = |element: &str, name: &str| markers.get(element, name).map(MarkerId);
    let joint = |element: &str, name: &str| joints.get(element, name).map(JointId);

    let mut parts = ModelParts {
        name: file.name.clone(),
        gravity: v3(&file.gravity),
        ..ModelParts::default()
    };
    // c: the shift from each body's file origin to its centre of mass (body axes)
    let mut shift = Vec::with_capacity(file.bodies.len());
    for b in &file.bodies {
        let (body, c) = body_from_spec(b)?;
        parts.bodies.push(body);
        shift.push(c);
    }
    for m in &file.markers {
        let element = format!("marker `{}`", m.name);
        let body = resolve_body(&element, &m.body)?;
        let c = match body {
            BodyRef::Body(BodyId(i)) => shift[i],
            BodyRef::Ground => Vector3::zeros(),
        };
        parts.markers.push(Marker {
            name: m.name.clone(),
            body,
            position: v3(&m.position) - c,
            orientation: marker_frame(&element, m)?,
        });
    }
    for j in &file.joints {
        let (name, mi, mj, kind) = joint_from_spec(j);
        let element = format!("joint `{name}`");
        parts.joints.push(Joint {
            name: name.to_string(),
            kind,
            marker_i: marker(&element, mi)?,
            marker_j: marker(&element, mj)?,
        });
    }
    for d in &file.drivers {
        let element = format!("driver `{}`", driver_name(d));
        let (kind, function) = match d {
            DriverSpec::JointAngle {
                joint: j, function, ..
            } => (
                DriverKind::JointAngle {
                    joint: joint(&element, j)?,
                },
                function,
            ),
            DriverSpec::JointTranslation {
                joint: j, function, ..
            } => (
                DriverKind::JointTranslation {
                    joint: joint(&element, j)?,
                },
                function,
            ),
            DriverSpec::PointCoordinate {
                marker: m,
                axis,
                function,
                ..
            } => (
                DriverKind::PointCoordinate {
                    marker: marker(&element, m)?,
                    axis: *axis,
                },
                function,
            ),
        };
        parts.drivers.push(Driver {
            name: driver_name(d).to_string(),
            kind,
            function: function_from_spec(function),
        });
    }
    for f in &file.forces {
        let element = format!("force `{}`", force_name(f));
        let fns = |v: &[FunctionSpec; 3]| v.each_ref().map(function_from_spec);
        parts.forces.push(match f {
            ForceSpec::PointForce {
                name,
                marker: m,
                force,
                frame,
            } => ForceElement::PointForce {
                name: name.clone(),
                marker: marker(&element, m)?,
                force: fns(force),
                frame: *frame,
            },
            ForceSpec::Torque {
                name,
                marker: m,
                torque,
                frame,
            } => ForceElement::Torque {
                name: name.clone(),
                marker: marker(&element, m)?,
                torque: fns(torque),
                frame: *frame,
            },
            ForceSpec::SpringDamper {
                name,
                marker_i,
                marker_j,
                stiffness,
                damping,
                free_length,
                actuator,
            } => ForceElement::SpringDamper {
                name: name.clone(),
                marker_i: marker(&element, marker_i)?,
                marker_j: marker(&element, marker_j)?,
                stiffness: *stiffness,
                damping: *damping,
                free_length: *free_length,
                actuator: function_from_spec(actuator),
            },
            ForceSpec::RotationalSpringDamper {
                name,
                joint: j,
                stiffness,
                damping,
                free_angle,
                actuator,
            } => ForceElement::RotationalSpringDamper {
                name: name.clone(),
                joint: joint(&element, j)?,
                stiffness: *stiffness,
                damping: *damping,
                free_angle: *free_angle,
                actuator: function_from_spec(actuator),
            },
            ForceSpec::UnilateralSpring {
                name,
                marker_i,
                marker_j,
                stiffness,
                damping,
                free_length,
            } => ForceElement::UnilateralSpring {
                name: name.clone(),
                marker_i: marker(&element, marker_i)?,
                marker_j: marker(&element, marker_j)?,
                stiffness: *stiffness,
                damping: *damping,
                free_length: *free_length,
            },
        });
    }
    Ok(parts)
}

pub(crate) fn reserved_ground() -> ModelError {
    ModelError::Unsupported {
        element: format!("body `{GROUND}`"),
        reason: format!("the name `{GROUND}` is reserved for the fixed frame; rename the body"),
    }
}

/// The marker's axes: identity, from `z` (and the `x` hint), or the full matrix.
fn marker_frame(element: &str, m: &MarkerSpec) -> Result<Matrix3<f64>, ModelError> {
    let conflict = |reason: &str| ModelError::Unsupported {
        element: element.to_string(),
        reason: reason.to_string(),
    };
    match (&m.z, &m.x, &m.orientation) {
        (None, None, None) => Ok(Matrix3::identity()),
        (None, None, Some(rows)) => Ok(from_rows(rows)),
        (Some(_), _, Some(_)) | (None, Some(_), Some(_)) => Err(conflict(
            "give either `z` (with an optional `x` hint) or `orientation`, not both",
        )),
        (None, Some(_), None) => Err(conflict("an `x` hint needs a `z` axis")),
        (Some(z), x, None) => {
            if let Some(x) = x {
                let n = v3(x).norm();
                if !(n.is_finite() && n > 0.0) {
                    return Err(ModelError::InvalidAxis {
                        element: element.to_string(),
                        reason: "zero-length or non-finite x hint".into(),
                        value: x.to_vec(),
                    });
                }
            }
            let hint = x.as_ref().map(v3);
            frame_from_z(&v3(z), hint.as_ref()).ok_or_else(|| ModelError::InvalidAxis {
                element: element.to_string(),
                reason: "zero-length or non-finite z axis".into(),
                value: z.to_vec(),
            })
        }
    }
}

fn joint_name(j: &JointSpec) -> &str {
    joint_from_spec(j).0
}

fn joint_from_spec(j: &JointSpec) -> (&str, &str, &str, JointKind) {
    use JointSpec as S;
    match j {
        S::Spherical {
            name,
            marker_i,
            marker_j,
        } => (name, marker_i, marker_j, JointKind::Spherical),
        S::Universal {
            name,
            marker_i,
            marker_j,
        } => (name, marker_i, marker_j, JointKind::Universal),
        S::Revolute {
            name,
            marker_i,
            marker_j,
        } => (name, marker_i, marker_j, JointKind::Revolute),
        S::Cylindrical {
            name,
            marker_i,
            marker_j,
        } => (name, marker_i, marker_j, JointKind::Cylindrical),
        S::Prismatic {
            name,
            marker_i,
            marker_j,
        } => (name, marker_i, marker_j, JointKind::Prismatic),
        S::Planar {
            name,
            marker_i,
            marker_j,
        } => (name, marker_i, marker_j, JointKind::Planar),
        S::Rigid {
            name,
            marker_i,
            marker_j,
        } => (name, marker_i, marker_j, JointKind::Rigid),
        S::Distance {
            name,
            marker_i,
            marker_j,
            length,
        } => (
            name,
            marker_i,
            marker_j,
            JointKind::Distance { length: *length },
        ),
        S::RollingSphere {
            name,
            marker_i,
            marker_j,
            radius,
        } => (
            name,
            marker_i,
            marker_j,
            JointKind::RollingSphere { radius: *radius },
        ),
        S::RollingDisc {
            name,
            marker_i,
            marker_j,
            radius,
        } => (
            name,
            marker_i,
            marker_j,
            JointKind::RollingDisc { radius: *radius },
        ),
        S::SinePath {
            name,
            marker_i,
            marker_j,
            amplitude,
            wavenumber,
        } => (
            name,
            marker_i,
            marker_j,
            JointKind::SinePath {
                amplitude: *amplitude,
                wavenumber: *wavenumber,
            },
        ),
    }
}

fn force_name(f: &ForceSpec) -> &str {
    match f {
        ForceSpec::PointForce { name, .. }
        | ForceSpec::Torque { name, .. }
        | ForceSpec::SpringDamper { name, .. }
        | ForceSpec::RotationalSpringDamper { name, .. }
        | ForceSpec::UnilateralSpring { name, .. } => name,
    }
}

fn driver_name(d: &DriverSpec) -> &str {
    match d {
        DriverSpec::JointAngle { name, .. }
        | DriverSpec::JointTranslation { name, .. }
        | DriverSpec::PointCoordinate { name, .. } => name,
    }
}

fn function_from_spec(f: &FunctionSpec) -> TimeFunction {
    match f {
        FunctionSpec::Constant(value) => TimeFunction::Constant { value: *value },
        FunctionSpec::Tagged(t) => match t {
            TaggedFunction::Constant { value } => TimeFunction::Constant { value: *value },
            TaggedFunction::Polynomial { coefficients } => TimeFunction::Polynomial {
                coefficients: coefficients.clone(),
            },
            TaggedFunction::Harmonic {
                amplitude,
                frequency,
                phase,
                offset,
            } => TimeFunction::Harmonic {
                amplitude: *amplitude,
                frequency: *frequency,
                phase: *phase,
                offset: *offset,
            },
            TaggedFunction::SmoothStep { t0, t1, from, to } => TimeFunction::SmoothStep {
                t0: *t0,
                t1: *t1,
                from: *from,
                to: *to,
            },
            TaggedFunction::Sum { terms } => TimeFunction::Sum {
                terms: terms.iter().map(function_from_spec).collect(),
            },
        },
    }
}

// ---------------------------------------------------------------------------------
// model → file

/// The file form of a (valid) model. Every number is copied, never recomputed.
pub(crate) fn model_to_file(model: &Model) -> ModelFile {
    let body_name = |b: BodyRef| model.body_ref_name(b).to_string();
    let marker_name = |m: MarkerId| model.marker(m).name.clone();
    let joint_name = |j: JointId| model.joint(j).name.clone();
    ModelFile {
        name: model.name().to_string(),
        gravity: a3(&model.gravity()),
        bodies: model.bodies().iter().map(body_to_spec).collect(),
        markers: model
            .markers()
            .iter()
            .map(|m| MarkerSpec {
                name: m.name.clone(),
                body: body_name(m.body),
                position: a3(&m.position),
                z: None,
                x: None,
                orientation: (m.orientation != Matrix3::identity())
                    .then(|| to_rows(&m.orientation)),
            })
            .collect(),
        joints: model
            .joints()
            .iter()
            .map(|j| joint_to_spec(j, marker_name(j.marker_i), marker_name(j.marker_j)))
            .collect(),
        forces: model
            .forces()
            .iter()
            .map(|f| force_to_spec(f, &marker_name, &joint_name))
            .collect(),
        drivers: model
            .drivers()
            .iter()
            .map(|d| {
                let name = d.name.clone();
                let function = function_to_spec(&d.function);
                match d.kind {
                    DriverKind::JointAngle { joint } => DriverSpec::JointAngle {
                        name,
                        joint: joint_name(joint),
                        function,
                    },
                    DriverKind::JointTranslation { joint } => DriverSpec::JointTranslation {
                        name,
                        joint: joint_name(joint),
                        function,
                    },
                    DriverKind::PointCoordinate { marker, axis } => DriverSpec::PointCoordinate {
                        name,
                        marker: marker_name(marker),
                        axis,
                        function,
                    },
                }
            })
            .collect(),
    }
}

fn joint_to_spec(j: &Joint, marker_i: String, marker_j: String) -> JointSpec {
    let name = j.name.clone();
    match j.kind {
        JointKind::Spherical => JointSpec::Spherical {
            name,
            marker_i,
            marker_j,
        },
        JointKind::Universal => JointSpec::Universal {
            name,
            marker_i,
            marker_j,
        },
        JointKind::Revolute => JointSpec::Revolute {
            name,
            marker_i,
            marker_j,
        },
        JointKind::Cylindrical => JointSpec::Cylindrical {
            name,
            marker_i,
            marker_j,
        },
        JointKind::Prismatic => JointSpec::Prismatic {
            name,
            marker_i,
            marker_j,
        },
        JointKind::Planar => JointSpec::Planar {
            name,
            marker_i,
            marker_j,
        },
        JointKind::Rigid => JointSpec::Rigid {
            name,
            marker_i,
            marker_j,
        },
        JointKind::Distance { length } => JointSpec::Distance {
            name,
            marker_i,
            marker_j,
            length,
        },
        JointKind::RollingSphere { radius } => JointSpec::RollingSphere {
            name,
            marker_i,
            marker_j,
            radius,
        },
        JointKind::RollingDisc { radius } => JointSpec::RollingDisc {
            name,
            marker_i,
            marker_j,
            radius,
        },
        JointKind::SinePath {
            amplitude,
            wavenumber,
        } => JointSpec::SinePath {
            name,
            marker_i,
            marker_j,
            amplitude,
            wavenumber,
        },
    }
}

fn force_to_spec(
    f: &ForceElement,
    marker_name: &dyn Fn(MarkerId) -> String,
    joint_name: &dyn Fn(JointId) -> String,
) -> ForceSpec {
    let fns = |v: &[TimeFunction; 3]| v.each_ref().map(function_to_spec);
    match f {
        ForceElement::PointForce {
            name,
            marker,
            force,
            frame,
        } => ForceSpec::PointForce {
            name: name.clone(),
            marker: marker_name(*marker),
            force: fns(force),
            frame: *frame,
        },
        ForceElement::Torque {
            name,
            marker,
            torque,
            frame,
        } => ForceSpec::Torque {
            name: name.clone(),
            marker: marker_name(*marker),
            torque: fns(torque),
            frame: *frame,
        },
        ForceElement::SpringDamper {
            name,
            marker_i,
            marker_j,
            stiffness,
            damping,
            free_length,
            actuator,
        } => ForceSpec::SpringDamper {
            name: name.clone(),
            marker_i: marker_name(*marker_i),
            marker_j: marker_name(*marker_j),
            stiffness: *stiffness,
            damping: *damping,
            free_length: *free_length,
            actuator: function_to_spec(actuator),
        },
        ForceElement::RotationalSpringDamper {
            name,
            joint,
            stiffness,
            damping,
            free_angle,
            actuator,
        } => ForceSpec::RotationalSpringDamper {
            name: name.clone(),
            joint: joint_name(*joint),
            stiffness: *stiffness,
            damping: *damping,
            free_angle: *free_angle,
            actuator: function_to_spec(actuator),
        },
        ForceElement::UnilateralSpring {
            name,
            marker_i,
            marker_j,
            stiffness,
            damping,
            free_length,
        } => ForceSpec::UnilateralSpring {
            name: name.clone(),
            marker_i: marker_name(*marker_i),
            marker_j: marker_name(*marker_j),
            stiffness: *stiffness,
            damping: *damping,
            free_length: *free_length,
        },
    }
}

fn function_to_spec(f: &TimeFunction) -> FunctionSpec {
    match f {
        TimeFunction::Constant { value } => FunctionSpec::Constant(*value),
        TimeFunction::Polynomial { coefficients } => {
            FunctionSpec::Tagged(TaggedFunction::Polynomial {
                coefficients: coefficients.clone(),
            })
        }
        TimeFunction::Harmonic {
            amplitude,
            frequency,
            phase,
            offset,
        } => FunctionSpec::Tagged(TaggedFunction::Harmonic {
            amplitude: *amplitude,
            frequency: *frequency,
            phase: *phase,
            offset: *offset,
        }),
        TimeFunction::SmoothStep { t0, t1, from, to } => {
            FunctionSpec::Tagged(TaggedFunction::SmoothStep {
                t0: *t0,
                t1: *t1,
                from: *from,
                to: *to,
            })
        }
        TimeFunction::Sum { terms } => FunctionSpec::Tagged(TaggedFunction::Sum {
            terms: terms.iter().map(function_to_spec).collect(),
        }),
    }
}
