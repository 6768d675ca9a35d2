//! Decimation by vertex clustering (Rossignac & Borrel, "Multi-resolution 3D
//! approximations for rendering complex scenes", 1993): vertices are snapped to the
//! centres of the cells of a uniform grid over the mesh's bounding box, merged per
//! cell, and triangles that collapse are dropped. Crude but robust, and enough to cap
//! the size of a mesh embedded in an animation page.

use std::collections::HashMap;

use super::{MeshPart, TriMesh};

/// `mesh` with at most about `max_triangles` triangles: itself if it has no more,
/// else clustered on ever coarser grids until it fits. The second value tells whether
/// it was decimated.
pub fn decimate(mesh: TriMesh, max_triangles: usize) -> (TriMesh, bool) {
    if mesh.n_triangles() <= max_triangles {
        return (mesh, false);
    }
    let Some((lo, hi)) = mesh.bounds() else {
        return (mesh, false);
    };
    let extent = (hi - lo).max().max(f64::MIN_POSITIVE);
    // start near the resolution that gives the wanted count on a closed surface
    // (triangles ~ 2 × 6 cells² of a cube's surface), then coarsen
    let mut cells = ((max_triangles as f64 / 12.0).sqrt().ceil() as usize).max(2) * 2;
    loop {
        let out = cluster(&mesh, lo.map(|x| x as f32).into(), extent as f32, cells);
        if out.n_triangles() <= max_triangles || cells <= 2 {
            return (out, true);
        }
        cells = cells * 3 / 4;
    }
}

fn cluster(mesh: &TriMesh, lo: [f32; 3], extent: f32, cells: usize) -> TriMesh {
    let h = extent / cells as f32;
    let cell_of = |p: &[f32; 3]| -> [i64; 3] {
        std::array::from_fn(|k| ((p[k] - lo[k]) / h).floor().clamp(0.0, cells as f32) as i64)
    };
    let parts = mesh
        .parts
        .iter()
        .map(|part| {
            let mut index: HashMap<[i64; 3], u32> = HashMap::new();
            let mut sums: Vec<([f64; 3], u32)> = Vec::new();
            let map: Vec<u32> = part
                .positions
                .iter()
                .map(|p| {
                    let k = *index.entry(cell_of(p)).or_insert_with(|| {
                        sums.push(([0.0; 3], 0));
                        (sums.len() - 1) as u32
                    });
                    let s = &mut sums[k as usize];
                    for a in 0..3 {
                        s.0[a] += f64::from(p[a]);
                    }
                    s.1 += 1;
                    k
                })
                .collect();
            let positions = sums
                .iter()
                .map(|(s, n)| s.map(|x| (x / f64::from(*n)) as f32))
                .collect();
            let mut seen = std::collections::HashSet::new();
            let triangles = part
                .triangles
                .iter()
                .map(|t| t.map(|k| map[k as usize]))
                .filter(|t| t[0] != t[1] && t[1] != t[2] && t[0] != t[2])
                .filter(|t| {
                    // one of each triangle (in any rotation) that clustering duplicated
                    let r = (0..3).min_by_key(|&i| t[i]).unwrap_or(0);
                    seen.insert([t[r], t[(r + 1) % 3], t[(r + 2) % 3]])
                })
                .collect();
            MeshPart {
                positions,
                triangles,
                color: part.color,
            }
        })
        .filter(|p| !p.triangles.is_empty())
        .collect();
    TriMesh { parts }
}
