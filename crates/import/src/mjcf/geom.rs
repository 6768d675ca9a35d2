//! `<geom>`: shape, size, frame, mass (MuJoCo XML reference, "geom"). Sizes are MJCF
//! half sizes; `fromto` places capsules, cylinders, boxes and ellipsoids between two
//! points (half length = |to − from|/2, centre at the midpoint, z along to − from).

use std::collections::HashMap;
use std::path::PathBuf;

use nalgebra::{Isometry3, Translation3, Vector3};

use super::attrs::{invalid, keyword, real, reals, reals_n};
use super::compiler::Compiler;
use super::defaults::Attrs;
use super::frame::{pose, z_to};
use super::inertia::Solid;
use crate::{ImportError, Visual, VisualGeometry};

/// A mesh asset: file and scale.
#[derive(Clone, Debug)]
pub(crate) struct MeshAsset {
    /// The file as written.
    pub file: String,
    /// Resolved path, if the file exists.
    pub path: Option<PathBuf>,
    /// Scale.
    pub scale: Vector3<f64>,
}

/// Mesh assets by name.
pub(crate) type Meshes = HashMap<String, MeshAsset>;

/// The shape of a geom.
#[derive(Clone, Debug)]
pub(crate) enum Shape {
    /// A primitive with volume.
    Solid(Solid),
    /// A plane (world and static bodies only; no volume).
    Plane,
    /// A mesh asset by name.
    Mesh(String),
    /// hfield, sdf, … (named by type).
    Other(String),
}

/// A parsed geom.
#[derive(Clone, Debug)]
pub(crate) struct Geom {
    /// `name`.
    pub name: Option<String>,
    /// How messages name it.
    pub label: String,
    /// Shape.
    pub shape: Shape,
    /// Frame in the body (or world) frame.
    pub pose: Isometry3<f64>,
    /// `mass`, if given (then density is ignored).
    pub mass: Option<f64>,
    /// `density` (default 1000).
    pub density: f64,
    /// `group` (default 0).
    pub group: i64,
    /// `rgba`, if given on the geom, its class or its material.
    pub rgba: Option<[f64; 4]>,
}

/// Parses a geom; `materials` gives material colours by name.
pub(crate) fn parse_geom(
    a: &Attrs<'_>,
    c: &Compiler,
    materials: &HashMap<String, [f64; 4]>,
) -> Result<Geom, ImportError> {
    let e = a.element;
    let kind = match a.get("type") {
        Some(t) => keyword(
            e,
            "type",
            t,
            &[
                "plane",
                "hfield",
                "sphere",
                "capsule",
                "ellipsoid",
                "cylinder",
                "box",
                "mesh",
                "sdf",
            ],
        )?,
        None => "sphere",
    };
    let size_text = a.get("size").unwrap_or("0 0 0");
    let mut size = reals(e, "size", size_text)?;
    if size.len() > 3 {
        return Err(invalid(e, "size", size_text, "must be at most 3 numbers"));
    }
    size.resize(3, 0.0);
    let mut frame = pose(a, c)?;
    let fromto = match a.get("fromto") {
        Some(t) if matches!(kind, "capsule" | "cylinder" | "box" | "ellipsoid") => {
            let v = reals_n(e, "fromto", t, 6)?;
            let from = Vector3::new(v[0], v[1], v[2]);
            let to = Vector3::new(v[3], v[4], v[5]);
            let rot = z_to(to - from)
                .ok_or_else(|| invalid(e, "fromto", t, "must have two distinct points"))?;
            frame = Isometry3::from_parts(Translation3::from((from + to) / 2.0), rot);
            Some((to - from).norm() / 2.0)
        }
        Some(t) => {
            return Err(invalid(
                e,
                "fromto",
                t,
                &format!("is not allowed for type {kind} (capsule, cylinder, box, ellipsoid only)"),
            ));
        }
        None => None,
    };
    let need = |n: usize| -> Result<(), ImportError> {
        if size[..n].iter().all(|&s| s > 0.0) {
            Ok(())
        } else {
            Err(invalid(
                e,
                "size",
                size_text,
                &format!("must give {n} positive number(s) for a {kind}"),
            ))
        }
    };
    let shape = match kind {
        "sphere" => {
            need(1)?;
            Shape::Solid(Solid::Sphere { r: size[0] })
        }
        "capsule" | "cylinder" => {
            let h = match fromto {
                Some(h) => {
                    need(1)?;
                    h
                }
                None => {
                    need(2)?;
                    size[1]
                }
            };
            let r = size[0];
            Shape::Solid(if kind == "capsule" {
                Solid::Capsule { r, h }
            } else {
                Solid::Cylinder { r, h }
            })
        }
        "box" | "ellipsoid" => {
            let cz = match fromto {
                Some(h) => {
                    need(2)?;
                    h
                }
                None => {
                    need(3)?;
                    size[2]
                }
            };
            let (a_, b_) = (size[0], size[1]);
            Shape::Solid(if kind == "box" {
                Solid::Box {
                    a: a_,
                    b: b_,
                    c: cz,
                }
            } else {
                Solid::Ellipsoid {
                    a: a_,
                    b: b_,
                    c: cz,
                }
            })
        }
        "plane" => Shape::Plane,
        "mesh" => {
            let Some(m) = a.get("mesh") else {
                return Err(invalid(
                    e,
                    "mesh",
                    "",
                    "a mesh geom must name its mesh asset",
                ));
            };
            Shape::Mesh(m.to_string())
        }
        other => Shape::Other(other.to_string()),
    };
    let mass = a.get("mass").map(|m| real(e, "mass", m)).transpose()?;
    if let Some(m) = mass
        && m < 0.0
    {
        return Err(invalid(
            e,
            "mass",
            a.get("mass").unwrap_or_default(),
            "must be ≥ 0",
        ));
    }
    let density = a
        .get("density")
        .map(|d| real(e, "density", d))
        .transpose()?
        .unwrap_or(1000.0);
    if density < 0.0 {
        return Err(invalid(
            e,
            "density",
            a.get("density").unwrap_or_default(),
            "must be ≥ 0",
        ));
    }
    if let Some(s) = a.get("shellinertia")
        && s.trim() == "true"
    {
        return Err(ImportError::Unsupported {
            element: e.label(),
            reason: "shellinertia=\"true\": only solid geom inertia is computed; give the \
                     body an <inertial>"
                .into(),
        });
    }
    let group = match a.get("group") {
        Some(g) => real(e, "group", g)? as i64,
        None => 0,
    };
    let rgba = match a.get("rgba") {
        Some(t) => {
            let v = reals_n(e, "rgba", t, 4)?;
            Some([v[0], v[1], v[2], v[3]])
        }
        None => a.get("material").and_then(|m| materials.get(m).copied()),
    };
    Ok(Geom {
        name: e.name_attr().map(str::to_string),
        label: e.label(),
        shape,
        pose: frame,
        mass,
        density,
        group,
        rgba,
    })
}

impl Geom {
    /// The geom as a visual (`None` for planes, height fields and other shapes the
    /// link graph cannot draw).
    pub fn visual(&self, meshes: &Meshes) -> Option<Visual> {
        let geometry = match &self.shape {
            Shape::Solid(Solid::Sphere { r }) => VisualGeometry::Sphere { radius: *r },
            Shape::Solid(Solid::Capsule { r, h }) => VisualGeometry::Capsule {
                radius: *r,
                length: 2.0 * h,
            },
            Shape::Solid(Solid::Cylinder { r, h }) => VisualGeometry::Cylinder {
                radius: *r,
                length: 2.0 * h,
            },
            Shape::Solid(Solid::Ellipsoid { a, b, c }) => VisualGeometry::Ellipsoid {
                radii: Vector3::new(*a, *b, *c),
            },
            Shape::Solid(Solid::Box { a, b, c }) => VisualGeometry::Box {
                size: Vector3::new(2.0 * a, 2.0 * b, 2.0 * c),
            },
            Shape::Mesh(name) => {
                let asset = meshes.get(name)?;
                VisualGeometry::Mesh {
                    uri: asset.file.clone(),
                    path: asset.path.clone(),
                    scale: asset.scale,
                }
            }
            Shape::Plane | Shape::Other(_) => return None,
        };
        Some(Visual {
            name: self.name.clone(),
            origin: self.pose,
            geometry,
            rgba: self.rgba,
        })
    }
}
