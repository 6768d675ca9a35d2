//! Triangle meshes read from the files robot descriptions refer to: STL (binary and
//! ASCII), Wavefront OBJ (with its MTL colours) and COLLADA 1.4/1.5 `.dae`, through the
//! `mesh-loader` crate. A DAE file's `<asset><unit meter="…">` and the transforms
//! (`<matrix>`, `<translate>`, `<rotate>`, `<scale>`) of the `<node>`s that instance its
//! geometries are applied, so coordinates come out in metres in the file's root frame
//! (COLLADA 1.4.1 specification, ch. 5 "asset" and "node"); STL and OBJ have no units
//! and are read as metres. A URDF `<mesh scale>` or MJCF `<mesh scale>` is applied
//! afterwards by [`TriMesh::scaled`].
//!
//! Bad input never panics: a missing, oversized or unreadable file, an unknown format
//! or a parse error is a [`MeshError`] naming the file.

mod dae;
mod decimate;

use std::path::{Path, PathBuf};

use nalgebra::Vector3;

pub use decimate::decimate;

/// Largest mesh file read: 256 MiB (robot meshes are at most a few MB).
pub const MAX_MESH_BYTES: u64 = 256 << 20;

/// One part of a mesh: triangles with one colour (a DAE geometry with its material,
/// an OBJ object with its `usemtl`, a whole STL file).
#[derive(Clone, Debug, PartialEq)]
pub struct MeshPart {
    /// Vertex positions (metres, the file's frame).
    pub positions: Vec<[f32; 3]>,
    /// Triangles as three indices into `positions` each.
    pub triangles: Vec<[u32; 3]>,
    /// Diffuse colour of the part's material (linear RGB in 0..1), if the file has one.
    pub color: Option<[f32; 3]>,
}

/// A mesh read from a file: its parts.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TriMesh {
    /// The parts, in the file's order; parts without triangles are dropped.
    pub parts: Vec<MeshPart>,
}

/// Why a mesh file could not be read.
#[derive(Debug, thiserror::Error)]
#[error("mesh `{path}`: {message}")]
pub struct MeshError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

impl MeshPart {
    /// The part with every vertex mapped by the homogeneous transform `t` (winding
    /// reversed when `t` mirrors).
    fn transformed(mut self, t: &nalgebra::Matrix4<f64>) -> MeshPart {
        for p in &mut self.positions {
            let v = t.transform_point(&nalgebra::Point3::from(p.map(f64::from)));
            *p = [v.x as f32, v.y as f32, v.z as f32];
        }
        if t.fixed_view::<3, 3>(0, 0).determinant() < 0.0 {
            for tri in &mut self.triangles {
                tri.swap(1, 2);
            }
        }
        self
    }
}

impl TriMesh {
    /// Number of vertices over all parts.
    pub fn n_vertices(&self) -> usize {
        self.parts.iter().map(|p| p.positions.len()).sum()
    }

    /// Number of triangles over all parts.
    pub fn n_triangles(&self) -> usize {
        self.parts.iter().map(|p| p.triangles.len()).sum()
    }

    /// The axis-aligned bounding box (min, max) of the vertices; `None` without any.
    pub fn bounds(&self) -> Option<(Vector3<f64>, Vector3<f64>)> {
        let mut it = self.parts.iter().flat_map(|p| p.positions.iter());
        let first = it.next()?.map(f64::from);
        let (mut lo, mut hi) = (Vector3::from(first), Vector3::from(first));
        for p in it {
            let v = Vector3::from(p.map(f64::from));
            lo = lo.inf(&v);
            hi = hi.sup(&v);
        }
        Some((lo, hi))
    }

    /// The mesh with every vertex multiplied by `scale` component-wise; a scale with
    /// an odd number of negative factors mirrors the mesh, and the triangles' winding
    /// is reversed so that their normals still point outwards.
    pub fn scaled(mut self, scale: &Vector3<f64>) -> TriMesh {
        let s = scale.map(|x| x as f32);
        let mirrored = s.iter().filter(|x| **x < 0.0).count() % 2 == 1;
        for part in &mut self.parts {
            for p in &mut part.positions {
                *p = [p[0] * s.x, p[1] * s.y, p[2] * s.z];
            }
            if mirrored {
                for t in &mut part.triangles {
                    t.swap(1, 2);
                }
            }
        }
        self
    }
}

/// Reads the mesh at `path` (format from the extension: `.stl`, `.obj`, `.dae`, any
/// case). Only a regular file of at most [`MAX_MESH_BYTES`] is read; triangles with an
/// index out of range and non-finite vertices are refused.
pub fn load(path: &Path) -> Result<TriMesh, MeshError> {
    let fail = |message: String| MeshError {
        path: path.to_path_buf(),
        message,
    };
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    if !matches!(ext.as_str(), "stl" | "obj" | "dae") {
        return Err(fail(
            "unsupported format (STL, OBJ and COLLADA .dae meshes are read)".into(),
        ));
    }
    let meta = std::fs::metadata(path).map_err(|e| fail(format!("cannot be read: {e}")))?;
    if !meta.is_file() {
        return Err(fail("is not a regular file".into()));
    }
    if meta.len() > MAX_MESH_BYTES {
        return Err(fail(format!(
            "is {} bytes, more than the limit of {MAX_MESH_BYTES} bytes for a mesh",
            meta.len()
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| fail(format!("cannot be read: {e}")))?;
    let dae = if ext == "dae" {
        let text =
            std::str::from_utf8(&bytes).map_err(|e| fail(format!("is not UTF-8 text: {e}")))?;
        Some(dae::scene(text).map_err(|e| fail(format!("could not be parsed: {e}")))?)
    } else {
        None
    };
    let input = dae.as_ref().map_or(&bytes[..], |d| d.stripped.as_bytes());
    // the parser reports errors as io::Error; a panic in it on bad input is caught and
    // reported like one
    let scene =
        std::panic::catch_unwind(|| mesh_loader::Loader::default().load_from_slice(input, path))
            .map_err(|_| fail("could not be parsed (the mesh reader failed)".into()))?
            .map_err(|e| fail(format!("could not be parsed: {e}")))?;
    let mut mesh = TriMesh::default();
    for (i, m) in scene.meshes.iter().enumerate() {
        let color = scene
            .materials
            .get(i)
            .and_then(|mat| mat.color.diffuse)
            .map(|c| [c[0], c[1], c[2]]);
        if m.faces.is_empty() {
            continue;
        }
        let n = m.vertices.len();
        if let Some(f) = m.faces.iter().find(|f| f.iter().any(|&k| k as usize >= n)) {
            return Err(fail(format!(
                "has a triangle {f:?} with a vertex index out of range (0..{n})"
            )));
        }
        if m.vertices.iter().flatten().any(|x| !x.is_finite()) {
            return Err(fail("has a non-finite vertex coordinate".into()));
        }
        let part = MeshPart {
            positions: m.vertices.clone(),
            triangles: m.faces.clone(),
            color,
        };
        match &dae {
            None => mesh.parts.push(part),
            Some(d) => {
                let key = if d.instanced { m.name.as_str() } else { "" };
                for t in d.instances.get(key).into_iter().flatten() {
                    mesh.parts.push(part.clone().transformed(t));
                }
            }
        }
    }
    Ok(mesh)
}
