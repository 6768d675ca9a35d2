//! `<link><visual>` (wiki.ros.org/urdf/XML/link): `<origin>`, `<geometry>` (box,
//! cylinder, sphere, capsule, mesh) and `<material>` (a colour given inline or by the
//! name of a top-level `<material>`). Mesh files (`filename`) are resolved as ROS does:
//! `package://pkg/rest` as `<dir>/pkg/rest` for every directory of
//! [`ImportOptions::package_path`](crate::ImportOptions::package_path), then as
//! `<a>/rest` for the model file's directory and its ancestors `a` named `pkg` (a
//! package is the directory of its name); `file://` and absolute paths as written;
//! relative paths against the model file's directory, then the package path.

use std::path::{Path, PathBuf};

use nalgebra::Vector3;

use super::values::{finite3, invalid, non_negative, pose};
use crate::{ImportError, ImportNote, Visual, VisualGeometry};

/// Where mesh files are looked up.
#[derive(Debug)]
pub(super) struct MeshSearch<'a> {
    /// The directory of the model file.
    pub dir: &'a Path,
    /// [`crate::ImportOptions::package_path`].
    pub package_path: &'a [PathBuf],
}

impl MeshSearch<'_> {
    /// The file `uri` names, if it exists.
    pub(super) fn resolve(&self, uri: &str) -> Option<PathBuf> {
        if let Some(rest) = uri.strip_prefix("package://") {
            // `package:///pkg/...` (an extra slash) occurs in real files
            let (package, inner) = rest.trim_start_matches('/').split_once('/')?;
            let from_path = self
                .package_path
                .iter()
                .map(|d| d.join(package).join(inner));
            let from_ancestors = self
                .dir
                .ancestors()
                .filter(|a| a.file_name().is_some_and(|n| n == package))
                .map(|a| a.join(inner));
            return from_path.chain(from_ancestors).find(|p| p.is_file());
        }
        if let Some(abs) = uri.strip_prefix("file://") {
            let p = PathBuf::from(abs);
            return p.is_file().then_some(p);
        }
        let p = Path::new(uri);
        if p.is_absolute() {
            return p.is_file().then(|| p.to_path_buf());
        }
        std::iter::once(self.dir.join(p))
            .chain(self.package_path.iter().map(|d| d.join(p)))
            .find(|p| p.is_file())
    }
}

/// The visuals of link `link`; unresolved meshes add a note.
pub(super) fn visuals(
    link: &str,
    source: &[urdf_rs::Visual],
    materials: &[urdf_rs::Material],
    search: &MeshSearch<'_>,
    notes: &mut Vec<ImportNote>,
) -> Result<Vec<Visual>, ImportError> {
    let element = format!("link `{link}` visual");
    let mut out = Vec::with_capacity(source.len());
    for v in source {
        let origin = pose(&v.origin, &element)?;
        let geometry = geometry(&v.geometry, &element, search, notes)?;
        let rgba = match &v.material {
            Some(m) => colour(m, materials, &element)?,
            None => None,
        };
        out.push(Visual {
            name: v.name.clone(),
            origin,
            geometry,
            rgba,
        });
    }
    Ok(out)
}

/// A `<geometry>`.
fn geometry(
    g: &urdf_rs::Geometry,
    element: &str,
    search: &MeshSearch<'_>,
    notes: &mut Vec<ImportNote>,
) -> Result<VisualGeometry, ImportError> {
    Ok(match g {
        urdf_rs::Geometry::Box { size } => {
            let size = finite3(size, element, "box size")?;
            if size.iter().any(|s| *s < 0.0) {
                return Err(invalid(
                    element,
                    "box size",
                    format!("\"{} {} {}\"", size.x, size.y, size.z),
                    "must be ≥ 0",
                ));
            }
            VisualGeometry::Box { size }
        }
        urdf_rs::Geometry::Cylinder { radius, length } => VisualGeometry::Cylinder {
            radius: non_negative(*radius, element, "cylinder radius")?,
            length: non_negative(*length, element, "cylinder length")?,
        },
        urdf_rs::Geometry::Capsule { radius, length } => VisualGeometry::Capsule {
            radius: non_negative(*radius, element, "capsule radius")?,
            length: non_negative(*length, element, "capsule length")?,
        },
        urdf_rs::Geometry::Sphere { radius } => VisualGeometry::Sphere {
            radius: non_negative(*radius, element, "sphere radius")?,
        },
        urdf_rs::Geometry::Mesh { filename, scale } => {
            let scale = match scale {
                Some(s) => finite3(s, element, "mesh scale")?,
                None => Vector3::repeat(1.0),
            };
            let path = search.resolve(filename);
            if path.is_none() {
                notes.push(ImportNote {
                    element: element.to_owned(),
                    note: format!(
                        "mesh `{filename}` not found (searched the model's directory, its \
                         ancestors and the package path); drawn without it"
                    ),
                });
            }
            VisualGeometry::Mesh {
                uri: filename.clone(),
                path,
                scale,
            }
        }
    })
}

/// The colour of a `<material>`: its own `<color>` or the named top-level material's.
fn colour(
    m: &urdf_rs::Material,
    materials: &[urdf_rs::Material],
    element: &str,
) -> Result<Option<[f64; 4]>, ImportError> {
    let color = m.color.as_ref().or_else(|| {
        materials
            .iter()
            .find(|g| g.name == m.name)
            .and_then(|g| g.color.as_ref())
    });
    let Some(c) = color else { return Ok(None) };
    let rgba = c.rgba.0;
    if rgba.iter().all(|x| x.is_finite()) {
        Ok(Some(rgba))
    } else {
        Err(invalid(
            element,
            "material color rgba",
            format!("\"{} {} {} {}\"", rgba[0], rgba[1], rgba[2], rgba[3]),
            "must be four finite numbers",
        ))
    }
}
