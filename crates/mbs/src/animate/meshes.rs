//! The meshes of a model's mesh shapes, read once per file and scale
//! ([`mbs_import::mesh`]), welded, capped and encoded for the page: per part, vertex
//! positions as little-endian f32 and triangle indices as little-endian u32, in base64.
//! A file that cannot be read is not drawn and gives a note; a mesh of more than
//! [`MAX_TRIANGLES`] triangles is decimated, with a note.

use std::collections::HashMap;
use std::path::PathBuf;

use mbs_import::mesh::{self, MeshPart, TriMesh};
use mbs_model::{Geometry, Model};
use serde::Serialize;

use super::encode;

/// Triangles of one mesh at most in the page (a robot link's visual mesh has some
/// 10⁴; a page of a few MB stays quick to open).
pub const MAX_TRIANGLES: usize = 60_000;

/// One coloured part of a mesh, as the page reads it.
#[derive(Serialize, Debug)]
pub(super) struct ScenePart {
    /// base64 of little-endian f32 x, y, z per vertex.
    positions: String,
    /// base64 of little-endian u32, three per triangle.
    indices: String,
    /// `#rrggbb` of the file's material, if it has one.
    color: Option<String>,
}

/// A mesh: its parts.
#[derive(Serialize, Debug)]
pub(super) struct SceneMesh {
    parts: Vec<ScenePart>,
}

/// The meshes of a model: the page's table, each mesh shape's index into it (`None`:
/// not drawn), each one's reach (the largest distance of a vertex from the shape
/// frame's origin), and notes.
#[derive(Debug, Default)]
pub(super) struct Meshes {
    pub table: Vec<SceneMesh>,
    /// (path, scale bits) → (index in `table`, reach).
    index: HashMap<(PathBuf, [u64; 3]), Option<(usize, f64)>>,
    pub notes: Vec<String>,
}

/// Merges the vertices of a part that are equal bit for bit (STL and DAE readers give
/// three per triangle; the page shades flat, so sharing them changes nothing drawn).
fn weld(part: &MeshPart) -> (Vec<[f32; 3]>, Vec<u32>) {
    let mut seen: HashMap<[u32; 3], u32> = HashMap::new();
    let mut positions = Vec::new();
    let map: Vec<u32> = part
        .positions
        .iter()
        .map(|p| {
            *seen.entry(p.map(f32::to_bits)).or_insert_with(|| {
                positions.push(*p);
                (positions.len() - 1) as u32
            })
        })
        .collect();
    let indices = part
        .triangles
        .iter()
        .flat_map(|t| t.map(|k| map[k as usize]))
        .collect();
    (positions, indices)
}

fn hex(c: [f32; 3]) -> String {
    let b = c.map(|x| (x.clamp(0.0, 1.0) * 255.0).round() as u8);
    mbs_model::format_rgb(&b)
}

impl Meshes {
    /// Reads every mesh of `model`.
    pub fn of(model: &Model) -> Meshes {
        let mut out = Meshes::default();
        for b in model.bodies() {
            for s in &b.shapes {
                if let Geometry::Mesh { path, scale } = &s.geometry {
                    out.add(path, scale);
                }
            }
        }
        out
    }

    /// The table index and reach of the mesh of `path` at `scale`, if drawn.
    pub fn get(
        &self,
        path: &std::path::Path,
        scale: &nalgebra::Vector3<f64>,
    ) -> Option<(usize, f64)> {
        *self
            .index
            .get(&(path.to_path_buf(), scale.map(f64::to_bits).into()))?
    }

    fn add(&mut self, path: &std::path::Path, scale: &nalgebra::Vector3<f64>) {
        let key = (path.to_path_buf(), scale.map(f64::to_bits).into());
        if self.index.contains_key(&key) {
            return;
        }
        let entry = match mesh::load(path) {
            Err(e) => {
                self.notes.push(format!("{e}; not drawn"));
                None
            }
            Ok(m) => {
                let m: TriMesh = m.scaled(scale);
                let n = m.n_triangles();
                let (m, decimated) = mesh::decimate(m, MAX_TRIANGLES);
                if decimated {
                    self.notes.push(format!(
                        "mesh `{}`: {n} triangles decimated to {} for the animation",
                        path.display(),
                        m.n_triangles()
                    ));
                }
                let reach = m
                    .parts
                    .iter()
                    .flat_map(|p| p.positions.iter())
                    .map(|p| p.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt())
                    .fold(0.0, f64::max);
                let parts = m
                    .parts
                    .iter()
                    .map(|p| {
                        let (positions, indices) = weld(p);
                        ScenePart {
                            positions: encode::f32_base64(
                                positions.iter().flatten().map(|x| f64::from(*x)),
                            ),
                            indices: encode::u32_base64(indices.into_iter()),
                            color: p.color.map(hex),
                        }
                    })
                    .collect();
                self.table.push(SceneMesh { parts });
                Some((self.table.len() - 1, reach))
            }
        };
        self.index.insert(key, entry);
    }
}
