//! Mesh files: vertex and triangle counts, bounding boxes, a DAE file's unit and node
//! transforms and material colour, the visual's scale, decimation, and errors that name
//! the file (never a panic). Expected values are computed by hand from the files in
//! `tests/data/meshes/`.

use std::path::PathBuf;

use mbs_import::mesh::{self, TriMesh};
use nalgebra::Vector3;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/meshes")
        .join(name)
}

fn close(a: &Vector3<f64>, b: [f64; 3]) -> bool {
    (a - Vector3::from(b)).norm() < 1e-6
}

fn bounds(m: &TriMesh) -> (Vector3<f64>, Vector3<f64>) {
    m.bounds().expect("vertices")
}

#[test]
fn an_ascii_stl_tetrahedron() {
    let m = mesh::load(&data("tetra.stl")).unwrap();
    assert_eq!(m.n_triangles(), 4);
    // three vertices per facet or shared ones: either way between 4 and 12
    assert!((4..=12).contains(&m.n_vertices()), "{}", m.n_vertices());
    let (lo, hi) = bounds(&m);
    assert!(
        close(&lo, [0.0; 3]) && close(&hi, [1.0, 2.0, 3.0]),
        "{lo} {hi}"
    );
    // the visual's scale, with a mirror: bounds follow, winding flips
    let first = m.parts[0].triangles[0];
    let s = m.scaled(&Vector3::new(2.0, -1.0, 0.5));
    let (lo, hi) = bounds(&s);
    assert!(
        close(&lo, [0.0, -2.0, 0.0]) && close(&hi, [2.0, 0.0, 1.5]),
        "{lo} {hi}"
    );
    assert_eq!(s.parts[0].triangles[0], [first[0], first[2], first[1]]);
}

#[test]
fn an_obj_quad_is_triangulated_and_coloured_by_its_mtl() {
    let m = mesh::load(&data("quad.obj")).unwrap();
    assert_eq!(m.n_triangles(), 2);
    assert!((4..=6).contains(&m.n_vertices()), "{}", m.n_vertices());
    let (lo, hi) = bounds(&m);
    assert!(
        close(&lo, [-1.0, 0.0, 0.5]) && close(&hi, [1.0, 1.0, 0.5]),
        "{lo} {hi}"
    );
    assert_eq!(m.parts[0].color, Some([1.0, 0.0, 0.0]));
}

#[test]
fn a_dae_applies_its_unit_and_nested_node_transforms() {
    let m = mesh::load(&data("nested.dae")).unwrap();
    assert_eq!((m.n_triangles(), m.n_vertices()), (1, 3));
    // p ↦ 0.01 · (T(100, 0, 0) · Rz(90°) · p): (0,0,0) → (1, 0, 0), (10,0,0) → (1, 0.1, 0),
    // (0,20,0) → (0.8, 0, 0)
    let mut got: Vec<Vector3<f64>> = m.parts[0]
        .positions
        .iter()
        .map(|p| Vector3::from(p.map(f64::from)))
        .collect();
    got.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let want = [[0.8, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.1, 0.0]];
    for (g, w) in got.iter().zip(want) {
        assert!(close(g, w), "{got:?}");
    }
    assert_eq!(m.parts[0].color, Some([0.0, 0.5, 0.0]));
}

#[test]
fn bad_files_are_errors_naming_the_file() {
    for (name, needle) in [
        ("broken.dae", "could not be parsed"),
        ("broken.stl", "broken.stl"),
        ("missing.stl", "cannot be read"),
        ("quad.mtl", "unsupported format"),
    ] {
        let err = mesh::load(&data(name)).unwrap_err().to_string();
        assert!(err.contains(name) && err.contains(needle), "{err}");
    }
    let err = mesh::load(&data("")).unwrap_err().to_string();
    assert!(err.contains("unsupported format"), "{err}");
}

#[test]
fn decimation_caps_the_triangle_count() {
    // a 60 × 60 grid of squares (7200 triangles) on the unit square
    let n = 60u32;
    let positions = (0..=n)
        .flat_map(|i| (0..=n).map(move |j| [i as f32 / n as f32, j as f32 / n as f32, 0.0]))
        .collect();
    let k = |i: u32, j: u32| i * (n + 1) + j;
    let triangles = (0..n)
        .flat_map(|i| {
            (0..n).flat_map(move |j| {
                [
                    [k(i, j), k(i + 1, j), k(i + 1, j + 1)],
                    [k(i, j), k(i + 1, j + 1), k(i, j + 1)],
                ]
            })
        })
        .collect();
    let grid = TriMesh {
        parts: vec![mesh::MeshPart {
            positions,
            triangles,
            color: None,
        }],
    };
    let (same, done) = mesh::decimate(grid.clone(), 10_000);
    assert!(!done && same == grid);
    let (small, done) = mesh::decimate(grid.clone(), 1000);
    assert!(
        done && small.n_triangles() <= 1000 && small.n_triangles() > 100,
        "{}",
        small.n_triangles()
    );
    let (lo, hi) = bounds(&small);
    assert!(
        lo.x >= 0.0 && hi.x <= 1.0 && hi.x > 0.9 && hi.y > 0.9,
        "{lo} {hi}"
    );
    let nv = small.parts[0].positions.len() as u32;
    assert!(small.parts[0].triangles.iter().flatten().all(|k| *k < nv));
}
