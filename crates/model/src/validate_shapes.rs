//! Validation of a body's shapes and, for a body whose mass comes from densities, of
//! its mass properties. Every error names the body, the shape and the value.

use crate::body::Body;
use crate::error::ModelError;
use crate::mass_properties::{from_densities, of_shapes};
use crate::shape::{Geometry, Shape};

/// Relative tolerance between a body's mass/inertia and those of its shapes, and for
/// the shapes' centre of mass being the body origin (relative to the shapes' size).
const TOL: f64 = 1e-9;

/// Checks every shape of `b`, and, when `b` has densities, that its mass and inertia
/// are those of its shapes with their centre of mass at the body origin.
pub(crate) fn validate_shapes(b: &Body) -> Result<(), ModelError> {
    for (i, s) in b.shapes.iter().enumerate() {
        validate_shape(&b.name, i, s)?;
    }
    if let Some(rho) = b.density
        && !(rho.is_finite() && rho > 0.0)
    {
        return Err(ModelError::InvalidParameter {
            element: format!("body `{}`", b.name),
            parameter: "density",
            requirement: "positive and finite (kg/m³)",
            value: rho,
        });
    }
    if !from_densities(b) {
        return Ok(());
    }
    let mp = of_shapes(&b.name, &b.shapes, b.density)?;
    let c = mp.centre_of_mass;
    // (+ 0.0 turns −0 into 0 in the message)
    let back = c.map(|v| -v + 0.0);
    if c.norm() > TOL * mp.size {
        return Err(ModelError::Unsupported {
            element: format!("body `{}`", b.name),
            reason: format!(
                "the centre of mass of its shapes is at [{}, {}, {}] in the body frame, not at its origin \
                 (a body's position is its centre of mass): move its shapes and markers by \
                 [{}, {}, {}], or in a model file write `origin = \"reference\"` to let mbs move the body frame",
                c.x, c.y, c.z, back.x, back.y, back.z
            ),
        });
    }
    let mass_ok = (b.mass - mp.mass).abs() <= TOL * mp.mass;
    let scale = mp.inertia_about_origin.abs().max();
    let inertia_ok = (b.inertia - mp.inertia_about_origin).abs().max() <= TOL * scale;
    if !(mass_ok && inertia_ok) {
        return Err(ModelError::Unsupported {
            element: format!("body `{}`", b.name),
            reason: format!(
                "mass {} and inertia {:?} differ from those of its shapes with their densities \
                 (mass {}): give densities or mass and inertia, not both",
                b.mass,
                rows(&b.inertia),
                mp.mass
            ),
        });
    }
    Ok(())
}

fn rows(m: &nalgebra::Matrix3<f64>) -> [[f64; 3]; 3] {
    [
        [m[(0, 0)], m[(0, 1)], m[(0, 2)]],
        [m[(1, 0)], m[(1, 1)], m[(1, 2)]],
        [m[(2, 0)], m[(2, 1)], m[(2, 2)]],
    ]
}

pub(crate) fn validate_shape(body: &str, i: usize, s: &Shape) -> Result<(), ModelError> {
    let element = Shape::element(body, i, &s.geometry);
    let check = |parameter: &'static str, requirement: &'static str, value: f64, ok: bool| {
        if ok && value.is_finite() {
            Ok(())
        } else {
            Err(ModelError::InvalidParameter {
                element: element.clone(),
                parameter,
                requirement,
                value,
            })
        }
    };
    match &s.geometry {
        &Geometry::Box { half_extents: h } => {
            for v in h.iter() {
                check(
                    "half_extents",
                    "positive and finite in every component",
                    *v,
                    *v > 0.0,
                )?;
            }
        }
        &Geometry::Cylinder { radius, length } => {
            check("radius", "positive", radius, radius > 0.0)?;
            check("length", "positive", length, length > 0.0)?;
        }
        &Geometry::Sphere { radius } => check("radius", "positive", radius, radius > 0.0)?,
        &Geometry::Capsule { radius, length } => {
            check("radius", "positive", radius, radius > 0.0)?;
            check("length", "non-negative", length, length >= 0.0)?;
        }
        Geometry::Mesh { path, scale } => {
            for v in scale.iter() {
                check(
                    "scale",
                    "finite and non-zero in every component",
                    *v,
                    *v != 0.0,
                )?;
            }
            if path.as_os_str().is_empty() {
                return Err(ModelError::Unsupported {
                    element,
                    reason: "has an empty `path`: give the mesh file".into(),
                });
            }
            if s.density.is_some() {
                return Err(ModelError::Unsupported {
                    element,
                    reason: "a mesh has no `density` (it is drawn only): give the body `mass` and `inertia`, or densities on primitive shapes".into(),
                });
            }
        }
    }
    for v in s.position.iter() {
        check("position", "finite in every component", *v, true)?;
    }
    if let Some(rho) = s.density {
        check("density", "positive and finite (kg/m³)", rho, rho > 0.0)?;
    }
    crate::validate::check_unit_euler_params(&format!("{element} orientation"), &s.orientation)
}
