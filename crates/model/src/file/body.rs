//! Bodies and their shapes in model files: explicit mass and inertia, or densities;
//! `origin = "reference"` moves the body frame to the centre of mass on reading.

use mbs_kinematics::euler_params::{from_rotation, rotation, try_from_axis_angle};
use nalgebra::{Matrix3, Vector3, Vector4};

use super::convert::{a3, from_rows, to_rows, v3};
use super::spec::{BodyOrigin, BodySpec, InertiaSpec, OrientationSpec, ShapeKind, ShapeSpec};
use crate::body::{Body, BodyInitial, nominal_point_inertia};
use crate::error::ModelError;
use crate::marker::frame_from_z;
use crate::mass_properties::{from_densities, of_shapes};
use crate::shape::{Geometry, Shape, format_rgb, parse_rgb};

/// A body read from a file, and the vector c (body axes) from the file's origin to the
/// body frame's origin: zero unless `origin = "reference"`. The body's markers must
/// be shifted by −c.
pub(super) fn body_from_spec(b: &BodySpec) -> Result<(Body, Vector3<f64>), ModelError> {
    let element = format!("body `{}`", b.name);
    let unsupported = |reason: &str| ModelError::Unsupported {
        element: element.clone(),
        reason: reason.to_string(),
    };
    let orientation =
        orientation_from_spec(&format!("{element} initial orientation"), &b.orientation)?;
    let mut shapes = b
        .shapes
        .iter()
        .enumerate()
        .map(|(i, s)| shape_from_spec(&b.name, i, s))
        .collect::<Result<Vec<_>, _>>()?;
    // a mesh with a density is refused as such, not as "mass and a density"
    for (i, s) in shapes.iter().enumerate() {
        if s.geometry.is_mesh() {
            crate::validate_shapes::validate_shape(&b.name, i, s)?;
        }
    }
    let densities = b.density.is_some() || shapes.iter().any(|s| s.density.is_some());
    let (mass, inertia, c) = match (b.mass, &b.inertia) {
        _ if b.point_mass => point_mass_from_spec(b, densities).map_err(unsupported)?,
        (Some(_), Some(_)) if densities => {
            return Err(unsupported(
                "gives `mass` and `inertia` and a density: give one or the other (densities compute mass and inertia from the shapes)",
            ));
        }
        (Some(m), Some(j)) => {
            let c = match (b.origin, b.centre_of_mass) {
                (BodyOrigin::CentreOfMass, None) => Vector3::zeros(),
                (BodyOrigin::Reference, Some(c)) => v3(&c),
                (BodyOrigin::CentreOfMass, Some(_)) => {
                    return Err(unsupported(
                        "`centre_of_mass` needs `origin = \"reference\"` (otherwise the position is the centre of mass)",
                    ));
                }
                (BodyOrigin::Reference, None) => {
                    return Err(unsupported(
                        "`origin = \"reference\"` with an explicit mass needs `centre_of_mass` (reference coordinates)",
                    ));
                }
            };
            let j = match j {
                InertiaSpec::Principal(d) => Matrix3::from_diagonal(&v3(d)),
                InertiaSpec::Full(rows) => from_rows(rows),
            };
            for s in &mut shapes {
                s.position -= c;
            }
            (m, j, c)
        }
        (Some(_), None) | (None, Some(_)) => {
            return Err(unsupported(
                "give both `mass` and `inertia`, or densities and shapes",
            ));
        }
        (None, None) if !densities => {
            return Err(unsupported(
                "has neither `mass` and `inertia` nor shapes with a `density`: give one or the other",
            ));
        }
        (None, None) => {
            if b.centre_of_mass.is_some() {
                return Err(unsupported(
                    "`centre_of_mass` is computed from the shapes' densities: remove it",
                ));
            }
            for (i, s) in shapes.iter().enumerate() {
                crate::validate_shapes::validate_shape(&b.name, i, s)?;
            }
            let c = match b.origin {
                BodyOrigin::CentreOfMass => Vector3::zeros(),
                BodyOrigin::Reference => of_shapes(&b.name, &shapes, b.density)?.centre_of_mass,
            };
            for s in &mut shapes {
                s.position -= c;
            }
            let mp = of_shapes(&b.name, &shapes, b.density)?;
            (mp.mass, mp.inertia_about_origin, c)
        }
    };
    // the centre of mass in global coordinates and its velocity: r + A c, ṙ + ω × A c
    let ac = rotation(&orientation) * c;
    let (omega, velocity) = (v3(&b.omega), v3(&b.velocity));
    Ok((
        Body {
            name: b.name.clone(),
            mass,
            inertia,
            initial: BodyInitial {
                position: v3(&b.position) + ac,
                orientation,
                velocity: velocity + omega.cross(&ac),
                omega,
            },
            shapes,
            density: b.density,
            point_mass: b.point_mass,
            links: b.links.clone(),
        },
        c,
    ))
}

/// Mass, nominal inertia and (zero) centre-of-mass offset of a point mass, or why the
/// fields given do not describe one.
fn point_mass_from_spec(
    b: &BodySpec,
    densities: bool,
) -> Result<(f64, Matrix3<f64>, Vector3<f64>), &'static str> {
    if b.inertia.is_some() {
        return Err(
            "is a `point_mass` and gives `inertia`: a point mass has mass only (a nominal inertia is used)",
        );
    }
    if densities {
        return Err("is a `point_mass` and gives a density: give its `mass`");
    }
    if b.origin != BodyOrigin::CentreOfMass || b.centre_of_mass.is_some() {
        return Err(
            "is a `point_mass`: its `position` is the point itself (no `origin` or `centre_of_mass`)",
        );
    }
    match b.mass {
        Some(m) => Ok((m, nominal_point_inertia(m), Vector3::zeros())),
        None => Err("is a `point_mass` and needs a `mass`"),
    }
}

fn orientation_from_spec(element: &str, o: &OrientationSpec) -> Result<Vector4<f64>, ModelError> {
    match o {
        OrientationSpec::EulerParams(p) => {
            // checked here: a NaN or zero `p` would otherwise surface as a non-finite
            // position (r + A(p) c) instead of naming the orientation
            let p = Vector4::new(p[0], p[1], p[2], p[3]);
            crate::validate::check_unit_euler_params(element, &p)?;
            Ok(p)
        }
        OrientationSpec::AxisAngle(aa) => {
            if !aa.angle.is_finite() {
                return Err(ModelError::InvalidParameter {
                    element: element.to_string(),
                    parameter: "angle",
                    requirement: "finite",
                    value: aa.angle,
                });
            }
            try_from_axis_angle(&v3(&aa.axis), aa.angle).map_err(|_| ModelError::InvalidAxis {
                element: element.to_string(),
                reason: "zero-length or non-finite rotation axis".into(),
                value: aa.axis.to_vec(),
            })
        }
    }
}

fn shape_from_spec(body: &str, i: usize, s: &ShapeSpec) -> Result<Shape, ModelError> {
    let kind = match s.kind {
        ShapeKind::Box => "box",
        ShapeKind::Cylinder => "cylinder",
        ShapeKind::Sphere => "sphere",
        ShapeKind::Capsule => "capsule",
        ShapeKind::Mesh => "mesh",
    };
    let element = format!("body `{body}` shape {} ({kind})", i + 1);
    let unsupported = |reason: String| ModelError::Unsupported {
        element: element.clone(),
        reason,
    };
    let allowed: &[&str] = match s.kind {
        ShapeKind::Box => &["half_extents", "size"],
        ShapeKind::Cylinder | ShapeKind::Capsule => &["radius", "length", "axis"],
        ShapeKind::Sphere => &["radius"],
        ShapeKind::Mesh => &["path", "scale"],
    };
    let given = [
        ("half_extents", s.half_extents.is_some()),
        ("size", s.size.is_some()),
        ("radius", s.radius.is_some()),
        ("length", s.length.is_some()),
        ("axis", s.axis.is_some()),
        ("path", s.path.is_some()),
        ("scale", s.scale.is_some()),
    ];
    if let Some((field, _)) = given.iter().find(|(f, g)| *g && !allowed.contains(f)) {
        return Err(unsupported(format!("a {kind} has no `{field}`")));
    }
    let need = |field: &str, v: Option<f64>| {
        v.ok_or_else(|| unsupported(format!("a {kind} needs `{field}`")))
    };
    let geometry = match s.kind {
        ShapeKind::Box => match (s.half_extents, s.size) {
            (Some(h), None) => Geometry::Box {
                half_extents: v3(&h),
            },
            (None, Some(l)) => Geometry::Box {
                half_extents: 0.5 * v3(&l),
            },
            _ => {
                return Err(unsupported(
                    "give either `half_extents` or `size` (full lengths)".into(),
                ));
            }
        },
        ShapeKind::Cylinder => Geometry::Cylinder {
            radius: need("radius", s.radius)?,
            length: need("length", s.length)?,
        },
        ShapeKind::Capsule => Geometry::Capsule {
            radius: need("radius", s.radius)?,
            length: need("length", s.length)?,
        },
        ShapeKind::Sphere => Geometry::Sphere {
            radius: need("radius", s.radius)?,
        },
        ShapeKind::Mesh => Geometry::Mesh {
            path: s
                .path
                .as_ref()
                .ok_or_else(|| unsupported("a mesh needs `path` (its file)".into()))?
                .into(),
            scale: s.scale.map_or(Vector3::repeat(1.0), |v| v3(&v)),
        },
    };
    let orientation =
        match (&s.axis, &s.orientation) {
            (Some(_), Some(_)) => {
                return Err(unsupported(
                    "give either `axis` or `orientation`, not both".into(),
                ));
            }
            (None, None) => mbs_kinematics::euler_params::identity(),
            (None, Some(o)) => orientation_from_spec(&format!("{element} orientation"), o)?,
            // the shape's z axis along `axis`
            (Some(a), None) => from_rotation(&frame_from_z(&v3(a), None).ok_or_else(|| {
                ModelError::InvalidAxis {
                    element: element.clone(),
                    reason: "zero-length or non-finite axis".into(),
                    value: a.to_vec(),
                }
            })?),
        };
    let color = match &s.color {
        None => None,
        Some(text) => Some(parse_rgb(text).ok_or_else(|| {
            unsupported(format!(
                "color must be written \"#rrggbb\" (hexadecimal), got {text:?}"
            ))
        })?),
    };
    Ok(Shape {
        geometry,
        position: v3(&s.position),
        orientation,
        density: s.density,
        color,
    })
}

/// The file form of a body: densities when it has any (mass and inertia are then
/// recomputed on reading, bit for bit), else mass and inertia.
pub(super) fn body_to_spec(b: &Body) -> BodySpec {
    let p = &b.initial.orientation;
    let (mass, inertia) = if b.point_mass {
        (Some(b.mass), None)
    } else if from_densities(b) {
        (None, None)
    } else {
        let j = &b.inertia;
        let diagonal = (0..3).all(|r| (0..3).all(|c| r == c || j[(r, c)] == 0.0));
        let inertia = if diagonal {
            InertiaSpec::Principal([j[(0, 0)], j[(1, 1)], j[(2, 2)]])
        } else {
            InertiaSpec::Full(to_rows(j))
        };
        (Some(b.mass), Some(inertia))
    };
    BodySpec {
        name: b.name.clone(),
        mass,
        point_mass: b.point_mass,
        inertia,
        density: b.density,
        origin: BodyOrigin::CentreOfMass,
        centre_of_mass: None,
        position: a3(&b.initial.position),
        orientation: OrientationSpec::EulerParams([p[0], p[1], p[2], p[3]]),
        velocity: a3(&b.initial.velocity),
        omega: a3(&b.initial.omega),
        shapes: b.shapes.iter().map(shape_to_spec).collect(),
        links: b.links.clone(),
    }
}

fn shape_to_spec(s: &Shape) -> ShapeSpec {
    let mut spec = ShapeSpec {
        kind: ShapeKind::Sphere,
        half_extents: None,
        size: None,
        radius: None,
        length: None,
        axis: None,
        path: None,
        scale: None,
        position: a3(&s.position),
        orientation: (s.orientation != mbs_kinematics::euler_params::identity()).then(|| {
            let p = &s.orientation;
            OrientationSpec::EulerParams([p[0], p[1], p[2], p[3]])
        }),
        density: s.density,
        color: s.color.as_ref().map(format_rgb),
    };
    match &s.geometry {
        Geometry::Box { half_extents } => {
            spec.kind = ShapeKind::Box;
            spec.half_extents = Some(a3(half_extents));
        }
        &Geometry::Cylinder { radius, length } => {
            spec.kind = ShapeKind::Cylinder;
            (spec.radius, spec.length) = (Some(radius), Some(length));
        }
        &Geometry::Sphere { radius } => spec.radius = Some(radius),
        &Geometry::Capsule { radius, length } => {
            spec.kind = ShapeKind::Capsule;
            (spec.radius, spec.length) = (Some(radius), Some(length));
        }
        Geometry::Mesh { path, scale } => {
            spec.kind = ShapeKind::Mesh;
            spec.path = Some(path.to_string_lossy().into_owned());
            spec.scale = (*scale != Vector3::repeat(1.0)).then(|| a3(scale));
        }
    }
    spec
}
