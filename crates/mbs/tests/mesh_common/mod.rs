//! Shared by the mesh tests of the animation: a model whose one body is drawn as a
//! cube mesh (an STL written on the spot) and a sphere, and readers of the page.

#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::Path;

use mbs::model::{Body, Geometry, Model, ModelBuilder, Shape};
use mbs::{IntegratorChoice, Simulation, Trajectory};
use nalgebra::{Matrix3, Vector3};
use serde_json::Value;

/// An ASCII STL of the cube [-1, 1]³ (12 triangles, outward normals).
pub fn write_cube_stl(path: &Path) {
    let mut s = String::from("solid cube\n");
    // each face: axis a, sign; corners in counter-clockwise order seen from outside
    for a in 0..3 {
        for sign in [-1.0f64, 1.0] {
            let (b, c) = ((a + 1) % 3, (a + 2) % 3);
            let corner = |u: f64, v: f64| {
                let mut p = [0.0; 3];
                p[a] = sign;
                p[b] = u;
                p[c] = v * sign;
                p
            };
            let q = [
                corner(-1.0, -1.0),
                corner(1.0, -1.0),
                corner(1.0, 1.0),
                corner(-1.0, 1.0),
            ];
            for t in [[0, 1, 2], [0, 2, 3]] {
                let mut n = [0.0; 3];
                n[a] = sign;
                writeln!(s, "facet normal {} {} {}\nouter loop", n[0], n[1], n[2]).unwrap();
                for k in t {
                    writeln!(s, "vertex {} {} {}", q[k][0], q[k][1], q[k][2]).unwrap();
                }
                s.push_str("endloop\nendfacet\n");
            }
        }
    }
    s.push_str("endsolid cube\n");
    std::fs::write(path, s).unwrap();
}

/// A free body (no gravity) drawn as the cube of `work/cube.stl` scaled by `scale` at
/// x = 0.25 (green) and a small sphere.
pub fn cube_model(work: &Path, scale: f64) -> Model {
    std::fs::create_dir_all(work).unwrap();
    write_cube_stl(&work.join("cube.stl"));
    let mut body = Body::new("block", 1.0, Matrix3::from_diagonal_element(0.1));
    let mut cube = Shape::new(Geometry::Mesh {
        path: work.join("cube.stl"),
        scale: Vector3::repeat(scale),
    })
    .at(Vector3::new(0.25, 0.0, 0.0));
    cube.color = Some([0x20, 0xc0, 0x20]);
    body.shapes = vec![cube, Shape::new(Geometry::Sphere { radius: 0.05 })];
    body.initial.omega = Vector3::new(0.0, 0.0, 1.0);
    let mut b = ModelBuilder::new("cube");
    b.gravity(Vector3::zeros());
    b.add_body(body);
    b.build().unwrap()
}

pub fn run(model: &Model) -> Trajectory {
    Simulation::new(model.clone())
        .integrator(IntegratorChoice::Rk45 {
            rtol: 1e-8,
            atol: 1e-8,
        })
        .t_end(1.0)
        .samples(20)
        .run()
        .unwrap()
}

/// The JSON embedded in the page.
pub fn page_data(page: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"mbs-data\">";
    let start = page.find(open).expect("data element") + open.len();
    let end = start + page[start..].find("</script>").expect("end of data");
    serde_json::from_str(&page[start..end]).expect("valid JSON")
}

fn bytes(b64: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => u32::from(c - b'A'),
        b'a'..=b'z' => u32::from(c - b'a') + 26,
        b'0'..=b'9' => u32::from(c - b'0') + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let mut out = Vec::new();
    for chunk in b64.as_bytes().chunks(4) {
        let n = chunk.iter().take_while(|c| **c != b'=').count();
        let mut acc = 0u32;
        for (k, c) in chunk.iter().take(n).enumerate() {
            acc |= value(*c) << (18 - 6 * k);
        }
        out.extend(acc.to_be_bytes()[1..n].iter());
    }
    out
}

/// Little-endian f32 values from base64.
pub fn f32s(b64: &str) -> Vec<f32> {
    bytes(b64)
        .chunks(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// Little-endian u32 values from base64.
pub fn u32s(b64: &str) -> Vec<u32> {
    bytes(b64)
        .chunks(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}
