//! Visuals as mbs shapes (drawn by the animation; never a source of mass: the
//! source's inertials are). A mesh whose file was found becomes a mesh shape (its file
//! is read by the animation, [`crate::mesh`]); one that was not keeps a note.

use std::path::Path;

use mbs_kinematics::euler_params;
use mbs_model::{Geometry, Shape};
use nalgebra::{Isometry3, Vector3};

use crate::{ImportNote, Visual, VisualGeometry};

/// The shape of a visual whose frame is at `in_body` (body frame), or a note on why it
/// is not drawn.
pub(crate) fn shape(
    visual: &Visual,
    in_body: &Isometry3<f64>,
    link: &str,
) -> Result<Shape, ImportNote> {
    let geometry = match &visual.geometry {
        VisualGeometry::Box { size } => Geometry::Box {
            half_extents: size * 0.5,
        },
        VisualGeometry::Cylinder { radius, length } => Geometry::Cylinder {
            radius: *radius,
            length: *length,
        },
        VisualGeometry::Sphere { radius } => Geometry::Sphere { radius: *radius },
        VisualGeometry::Capsule { radius, length } => Geometry::Capsule {
            radius: *radius,
            length: *length,
        },
        VisualGeometry::Mesh { uri, path, scale } => mesh(uri, path.as_deref(), scale, link)?,
        VisualGeometry::Ellipsoid { .. } => {
            return Err(ImportNote {
                element: format!("visual of link `{link}`"),
                note: "ellipsoid not drawn (the animation draws boxes, cylinders, spheres, capsules and meshes)".into(),
            });
        }
    };
    let valid = match &geometry {
        Geometry::Box { half_extents } => half_extents.iter().all(|h| *h > 0.0),
        &Geometry::Cylinder { radius, length } => radius > 0.0 && length > 0.0,
        &Geometry::Sphere { radius } => radius > 0.0,
        &Geometry::Capsule { radius, length } => radius > 0.0 && length >= 0.0,
        Geometry::Mesh { scale, .. } => scale.iter().all(|s| s.is_finite() && *s != 0.0),
    };
    if !valid || !in_body.translation.vector.iter().all(|x| x.is_finite()) {
        return Err(ImportNote {
            element: format!("visual of link `{link}`"),
            note: format!("{} with a zero or invalid size not drawn", geometry.kind()),
        });
    }
    let r = in_body.rotation.to_rotation_matrix().into_inner();
    let mut shape = Shape::new(geometry)
        .at(in_body.translation.vector)
        .oriented(euler_params::from_rotation(&r));
    shape.color = visual
        .rgba
        .map(|c| c.map(|x| (x.clamp(0.0, 1.0) * 255.0).round() as u8))
        .map(|c| [c[0], c[1], c[2]]);
    Ok(shape)
}

/// The mesh shape of a mesh visual: its file must have been found and be of a format
/// [`crate::mesh::load`] reads.
fn mesh(
    uri: &str,
    path: Option<&Path>,
    scale: &Vector3<f64>,
    link: &str,
) -> Result<Geometry, ImportNote> {
    let note = |note: String| ImportNote {
        element: format!("visual of link `{link}`"),
        note,
    };
    let Some(path) = path else {
        return Err(note(format!("mesh `{uri}` not drawn (file not found)")));
    };
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if !matches!(ext.as_deref(), Some("stl" | "obj" | "dae")) {
        return Err(note(format!(
            "mesh `{uri}` not drawn (the animation reads STL, OBJ and COLLADA .dae files)"
        )));
    }
    Ok(Geometry::Mesh {
        path: path.to_path_buf(),
        scale: *scale,
    })
}
