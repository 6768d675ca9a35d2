//! The serde types of a model file (schema in `crates/model/SCHEMA.md`). They mirror
//! [`crate::ModelParts`] with references by *name* instead of typed ids; conversion in
//! both directions is in `convert.rs`.
//!
//! Every struct and tagged enum rejects unknown fields. A few values accept more than
//! one shape (inertia, orientation, time functions); their hand-written `Deserialize`
//! implementations delegate to derived ones so that the parser's message (unknown
//! field, missing field, wrong type) and position survive.

use std::fmt;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use super::exact::{exact, exact_opt, exact_rows};
use crate::force::LoadFrame;

pub(crate) type Vec3 = [f64; 3];
/// A 3×3 matrix given row by row.
pub(crate) type Rows3 = [[f64; 3]; 3];

pub(crate) fn is_zero3(v: &Vec3) -> bool {
    v.iter().all(|x| *x == 0.0)
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_global(f: &LoadFrame) -> bool {
    *f == LoadFrame::Global
}

fn is_zero_fn(f: &FunctionSpec) -> bool {
    matches!(f, FunctionSpec::Constant(v) if *v == 0.0)
}

/// The whole file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ModelFile {
    #[serde(default)]
    pub name: String,
    #[serde(default, deserialize_with = "exact")]
    pub gravity: Vec3,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bodies: Vec<BodySpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<MarkerSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<JointSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forces: Vec<ForceSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drivers: Vec<DriverSpec>,
}

/// A body with its initial conditions (global frame): explicit `mass` and `inertia`,
/// or shapes with densities.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BodySpec {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mass: Option<f64>,
    /// A point mass: `mass` only, no `inertia` (a nominal one is used).
    #[serde(default, skip_serializing_if = "is_false")]
    pub point_mass: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inertia: Option<InertiaSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub density: Option<f64>,
    #[serde(default, skip_serializing_if = "BodyOrigin::is_centre_of_mass")]
    pub origin: BodyOrigin,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "exact_opt"
    )]
    pub centre_of_mass: Option<Vec3>,
    #[serde(default, deserialize_with = "exact")]
    pub position: Vec3,
    #[serde(default)]
    pub orientation: OrientationSpec,
    #[serde(default, skip_serializing_if = "is_zero3", deserialize_with = "exact")]
    pub velocity: Vec3,
    #[serde(default, skip_serializing_if = "is_zero3", deserialize_with = "exact")]
    pub omega: Vec3,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shapes: Vec<ShapeSpec>,
    /// The source links of an imported URDF/MJCF body.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<String>,
}

/// What a body's `position` (and the coordinates of its markers and shapes) refer to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum BodyOrigin {
    /// The body frame's origin is the centre of mass (the model's own convention).
    #[default]
    CentreOfMass,
    /// A reference frame of the user's choice; the centre of mass is computed (from
    /// the shapes' densities) or given (`centre_of_mass`), and the body frame is moved
    /// there when the file is read.
    Reference,
}

impl BodyOrigin {
    fn is_centre_of_mass(&self) -> bool {
        *self == BodyOrigin::CentreOfMass
    }
}

/// A shape of a body, flat: `type` plus the fields of its kind, checked in conversion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShapeSpec {
    #[serde(rename = "type")]
    pub kind: ShapeKind,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "exact_opt"
    )]
    pub half_extents: Option<Vec3>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "exact_opt"
    )]
    pub size: Option<Vec3>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<f64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "exact_opt"
    )]
    pub axis: Option<Vec3>,
    /// A mesh's file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// A mesh's scale factors (default [1, 1, 1]).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "exact_opt"
    )]
    pub scale: Option<Vec3>,
    #[serde(default, skip_serializing_if = "is_zero3", deserialize_with = "exact")]
    pub position: Vec3,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orientation: Option<OrientationSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub density: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
}

/// The shape kinds of a model file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ShapeKind {
    Box,
    Cylinder,
    Sphere,
    Capsule,
    Mesh,
}

/// A marker: origin and axes in body coordinates (global for ground markers).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MarkerSpec {
    pub name: String,
    pub body: String,
    #[serde(default, deserialize_with = "exact")]
    pub position: Vec3,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "exact_opt"
    )]
    pub z: Option<Vec3>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "exact_opt"
    )]
    pub x: Option<Vec3>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "exact_rows"
    )]
    pub orientation: Option<Rows3>,
}

/// A joint between two markers, flat: `type` plus the kind's parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum JointSpec {
    Spherical {
        name: String,
        marker_i: String,
        marker_j: String,
    },
    Universal {
        name: String,
        marker_i: String,
        marker_j: String,
    },
    Revolute {
        name: String,
        marker_i: String,
        marker_j: String,
    },
    Cylindrical {
        name: String,
        marker_i: String,
        marker_j: String,
    },
    Prismatic {
        name: String,
        marker_i: String,
        marker_j: String,
    },
    Planar {
        name: String,
        marker_i: String,
        marker_j: String,
    },
    Rigid {
        name: String,
        marker_i: String,
        marker_j: String,
    },
    Distance {
        name: String,
        marker_i: String,
        marker_j: String,
        length: f64,
    },
    RollingSphere {
        name: String,
        marker_i: String,
        marker_j: String,
        radius: f64,
    },
    RollingDisc {
        name: String,
        marker_i: String,
        marker_j: String,
        radius: f64,
    },
    SinePath {
        name: String,
        marker_i: String,
        marker_j: String,
        amplitude: f64,
        wavenumber: f64,
    },
}

/// A force element.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum ForceSpec {
    PointForce {
        name: String,
        marker: String,
        #[serde(deserialize_with = "exact")]
        force: [FunctionSpec; 3],
        #[serde(default, skip_serializing_if = "is_global")]
        frame: LoadFrame,
    },
    Torque {
        name: String,
        marker: String,
        #[serde(deserialize_with = "exact")]
        torque: [FunctionSpec; 3],
        #[serde(default, skip_serializing_if = "is_global")]
        frame: LoadFrame,
    },
    SpringDamper {
        name: String,
        marker_i: String,
        marker_j: String,
        stiffness: f64,
        #[serde(default)]
        damping: f64,
        free_length: f64,
        #[serde(default, skip_serializing_if = "is_zero_fn")]
        actuator: FunctionSpec,
    },
    RotationalSpringDamper {
        name: String,
        joint: String,
        stiffness: f64,
        #[serde(default)]
        damping: f64,
        #[serde(default)]
        free_angle: f64,
        #[serde(default, skip_serializing_if = "is_zero_fn")]
        actuator: FunctionSpec,
    },
    PrismaticSpringDamper {
        name: String,
        joint: String,
        stiffness: f64,
        #[serde(default)]
        damping: f64,
        #[serde(default)]
        free_length: f64,
        #[serde(default, skip_serializing_if = "is_zero_fn")]
        actuator: FunctionSpec,
    },
    UnilateralSpring {
        name: String,
        marker_i: String,
        marker_j: String,
        stiffness: f64,
        #[serde(default)]
        damping: f64,
        free_length: f64,
    },
}

/// A driver (rheonomic constraint).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum DriverSpec {
    JointAngle {
        name: String,
        joint: String,
        function: FunctionSpec,
    },
    JointTranslation {
        name: String,
        joint: String,
        function: FunctionSpec,
    },
    PointCoordinate {
        name: String,
        marker: String,
        axis: usize,
        function: FunctionSpec,
    },
}

// ---------------------------------------------------------------------------------
// Inertia: [Jxx, Jyy, Jzz] or [[..], [..], [..]]

/// Centroidal inertia: principal moments (diagonal) or the full tensor row by row.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum InertiaSpec {
    Principal(Vec3),
    Full(Rows3),
}

impl Serialize for InertiaSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            InertiaSpec::Principal(d) => d.serialize(s),
            InertiaSpec::Full(rows) => rows.serialize(s),
        }
    }
}

/// One element of an inertia array: a number (principal form) or a row (full form).
#[derive(Deserialize)]
#[serde(untagged, expecting = "a number or a row of 3 numbers")]
enum InertiaItem {
    Number(f64),
    Row(#[serde(deserialize_with = "exact")] Vec3),
}

impl<'de> Deserialize<'de> for InertiaSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = InertiaSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("3 principal moments [Jxx, Jyy, Jzz] or a 3×3 tensor given row by row")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<InertiaSpec, A::Error> {
                let mut items = Vec::with_capacity(3);
                while let Some(item) = seq.next_element::<InertiaItem>()? {
                    if items.len() == 3 {
                        return Err(de::Error::invalid_length(4, &self));
                    }
                    items.push(item);
                }
                match items.as_slice() {
                    [
                        InertiaItem::Number(a),
                        InertiaItem::Number(b),
                        InertiaItem::Number(c),
                    ] => Ok(InertiaSpec::Principal([*a, *b, *c])),
                    [
                        InertiaItem::Row(a),
                        InertiaItem::Row(b),
                        InertiaItem::Row(c),
                    ] => Ok(InertiaSpec::Full([*a, *b, *c])),
                    [_, _, _] => Err(de::Error::custom(
                        "inertia mixes numbers and rows: give 3 principal moments or 3 rows of 3 numbers",
                    )),
                    _ => Err(de::Error::invalid_length(items.len(), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

// ---------------------------------------------------------------------------------
// Orientation: [e0, e1, e2, e3] or { axis = [..], angle = .. }

/// Initial orientation of a body: Euler parameters or a rotation about an axis.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum OrientationSpec {
    EulerParams([f64; 4]),
    AxisAngle(AxisAngle),
}

impl Default for OrientationSpec {
    fn default() -> Self {
        OrientationSpec::EulerParams([1.0, 0.0, 0.0, 0.0])
    }
}

/// A rotation by `angle` (rad) about `axis` (any length > 0).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AxisAngle {
    #[serde(deserialize_with = "exact")]
    pub axis: Vec3,
    pub angle: f64,
}

impl Serialize for OrientationSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            OrientationSpec::EulerParams(p) => p.serialize(s),
            OrientationSpec::AxisAngle(a) => a.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for OrientationSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = OrientationSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "Euler parameters [e0, e1, e2, e3] or a table { axis = [x, y, z], angle = φ }",
                )
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<OrientationSpec, A::Error> {
                exact(SeqAccessDeserializer::new(seq)).map(OrientationSpec::EulerParams)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<OrientationSpec, A::Error> {
                AxisAngle::deserialize(MapAccessDeserializer::new(map))
                    .map(OrientationSpec::AxisAngle)
            }
        }
        d.deserialize_any(V)
    }
}

// ---------------------------------------------------------------------------------
// Time functions: a bare number (constant) or a table tagged with `type`

/// A scalar function of time. A bare number is a constant.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum FunctionSpec {
    Constant(f64),
    Tagged(TaggedFunction),
}

impl Default for FunctionSpec {
    fn default() -> Self {
        FunctionSpec::Constant(0.0)
    }
}

/// The tagged forms, mirroring [`crate::TimeFunction`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum TaggedFunction {
    Constant {
        value: f64,
    },
    Polynomial {
        coefficients: Vec<f64>,
    },
    Harmonic {
        amplitude: f64,
        frequency: f64,
        #[serde(default)]
        phase: f64,
        #[serde(default)]
        offset: f64,
    },
    SmoothStep {
        t0: f64,
        t1: f64,
        from: f64,
        to: f64,
    },
    Sum {
        terms: Vec<FunctionSpec>,
    },
}

impl Serialize for FunctionSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            FunctionSpec::Constant(v) => s.serialize_f64(*v),
            FunctionSpec::Tagged(t) => t.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for FunctionSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = FunctionSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number or a function table with a `type` field")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<FunctionSpec, E> {
                Ok(FunctionSpec::Constant(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<FunctionSpec, E> {
                Ok(FunctionSpec::Constant(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<FunctionSpec, E> {
                Ok(FunctionSpec::Constant(v as f64))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<FunctionSpec, A::Error> {
                TaggedFunction::deserialize(MapAccessDeserializer::new(map))
                    .map(FunctionSpec::Tagged)
            }
        }
        d.deserialize_any(V)
    }
}
