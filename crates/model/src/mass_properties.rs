//! Mass, centre of mass and inertia of a body made of shapes with densities.
//!
//! For shapes i with density ρᵢ, volume Vᵢ, centroid cᵢ (body frame), rotation Rᵢ
//! (shape → body axes) and centroidal principal moments Jᵢ′ (shape frame):
//!
//! ```text
//!   mᵢ = ρᵢ Vᵢ,                     m = Σ mᵢ,              c = Σ mᵢ cᵢ / m
//!   J_O = Σ [ Rᵢ diag(Jᵢ′) Rᵢᵀ + mᵢ (‖dᵢ‖² I − dᵢ dᵢᵀ) ],   dᵢ = cᵢ − O
//! ```
//!
//! the second term being the parallel-axis (Huygens–Steiner) theorem for a shape whose
//! centroid is offset by dᵢ from the point O about which the inertia is taken. A body's
//! frame has its origin at its centre of mass, so for a valid body c = 0 and J_O with
//! O = 0 is its centroidal inertia J′.

use nalgebra::{Matrix3, Vector3};

use crate::error::ModelError;
use crate::shape::Shape;

/// Mass properties of a set of shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties {
    /// Total mass m.
    pub mass: f64,
    /// Centre of mass c in body coordinates.
    pub centre_of_mass: Vector3<f64>,
    /// Inertia about the body-frame origin, body axes (equal to the centroidal
    /// inertia when `centre_of_mass` is zero).
    pub inertia_about_origin: Matrix3<f64>,
    /// A length that measures the shapes' extent: the largest distance from the body
    /// origin to a corner of a shape's bounding box (a scale for tolerances).
    pub size: f64,
}

/// The density of shape `i`: its own, else the body's.
fn density_of(
    body: &str,
    i: usize,
    s: &Shape,
    body_density: Option<f64>,
) -> Result<f64, ModelError> {
    let rho = s.density.or(body_density).ok_or_else(|| ModelError::Unsupported {
        element: Shape::element(body, i, &s.geometry),
        reason: "has no density: give the shape a `density`, or the body one for all its shapes (or give the body `mass` and `inertia`)".into(),
    })?;
    if !(rho.is_finite() && rho > 0.0) {
        return Err(ModelError::InvalidParameter {
            element: Shape::element(body, i, &s.geometry),
            parameter: "density",
            requirement: "positive and finite (kg/m³)",
            value: rho,
        });
    }
    Ok(rho)
}

/// Mass properties of `shapes` (validated geometry) with their densities, falling back
/// on `body_density`; meshes are skipped (drawn only, never a source of mass). Errors
/// name the body and the shape: a shape without a density, a density ≤ 0, no primitive
/// shape at all.
pub fn of_shapes(
    body: &str,
    shapes: &[Shape],
    body_density: Option<f64>,
) -> Result<MassProperties, ModelError> {
    if shapes.iter().all(|s| s.geometry.is_mesh()) {
        let reason = if shapes.is_empty() {
            "has a density but no shapes: give `shapes`, or `mass` and `inertia`"
        } else {
            "has a density but only meshes (drawn only, never a source of mass): give primitive shapes, or `mass` and `inertia`"
        };
        return Err(ModelError::Unsupported {
            element: format!("body `{body}`"),
            reason: reason.into(),
        });
    }
    let mut mass = 0.0;
    let mut moment = Vector3::zeros();
    let mut inertia = Matrix3::zeros();
    let mut size: f64 = 0.0;
    for (i, s) in shapes.iter().enumerate() {
        if s.geometry.is_mesh() {
            continue;
        }
        let m = density_of(body, i, s, body_density)? * s.geometry.volume();
        let r = s.rotation();
        let d = s.position;
        let centroidal =
            r * Matrix3::from_diagonal(&(m * s.geometry.unit_mass_moments())) * r.transpose();
        // parallel-axis theorem: m (‖d‖² I − d dᵀ)
        let steiner = m * (Matrix3::identity() * d.norm_squared() - d * d.transpose());
        mass += m;
        moment += m * d;
        inertia += centroidal + steiner;
        size = size.max(d.norm() + s.geometry.half_extents().norm());
    }
    // symmetrise: R diag Rᵀ is symmetric only to rounding
    let inertia = 0.5 * (inertia + inertia.transpose());
    Ok(MassProperties {
        mass,
        centre_of_mass: moment / mass,
        inertia_about_origin: inertia,
        size,
    })
}

/// Whether `body` takes its mass and inertia from shape densities: it or one of its
/// shapes has a density.
pub fn from_densities(body: &crate::body::Body) -> bool {
    body.density.is_some() || body.shapes.iter().any(|s| s.density.is_some())
}
