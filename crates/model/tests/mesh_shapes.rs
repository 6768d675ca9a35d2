//! Mesh shapes: drawn only (no density, no mass), written to and read from model files
//! with their path and scale, refused with a named error when given a density, an empty
//! path or a zero scale.

use mbs_model::{Body, Geometry, Model, Shape};
use nalgebra::{Matrix3, Vector3};

fn mesh(scale: [f64; 3]) -> Shape {
    Shape::new(Geometry::Mesh {
        path: "meshes/link 1.dae".into(),
        scale: Vector3::from(scale),
    })
}

fn model_with(shapes: Vec<Shape>) -> Result<Model, mbs_model::ModelError> {
    let mut body = Body::new("link", 2.0, Matrix3::from_diagonal_element(0.1));
    body.shapes = shapes;
    let mut b = mbs_model::ModelBuilder::new("arm");
    b.add_body(body);
    b.build()
}

#[test]
fn a_mesh_round_trips_through_json_and_toml() {
    let turned = mbs_kinematics::euler_params::from_axis_angle(&Vector3::x(), 0.3);
    let mut shape = mesh([0.001, 0.002, -0.001])
        .at(Vector3::new(0.1, -0.2, 0.3))
        .oriented(turned);
    shape.color = Some([10, 200, 30]);
    let model = model_with(vec![shape.clone(), mesh([1.0, 1.0, 1.0])]).unwrap();
    let json = model.to_json_string();
    assert!(
        json.contains("\"type\": \"mesh\"") && json.contains("link 1.dae"),
        "{json}"
    );
    let back = Model::from_json_str(&json).unwrap();
    assert_eq!(back.bodies()[0].shapes, model.bodies()[0].shapes);
    let toml = model.to_toml_string();
    let back = Model::from_toml_str(&toml).unwrap();
    assert_eq!(back.bodies()[0].shapes, model.bodies()[0].shapes);
    // the default scale is not written
    assert_eq!(json.matches("\"scale\"").count(), 1, "{json}");
}

#[test]
fn a_mesh_reads_from_toml_with_default_scale() {
    let text = r#"
[[bodies]]
name = "link"
mass = 1.0
inertia = [0.1, 0.1, 0.1]
[[bodies.shapes]]
type = "mesh"
path = "base.stl"
position = [0.0, 0.0, 0.5]
"#;
    let m = Model::from_toml_str(text).unwrap();
    let s = &m.bodies()[0].shapes[0];
    assert_eq!(
        s.geometry,
        Geometry::Mesh {
            path: "base.stl".into(),
            scale: Vector3::repeat(1.0)
        }
    );
    assert_eq!(s.position, Vector3::new(0.0, 0.0, 0.5));
    for (from, to, needle) in [
        ("path = \"base.stl\"\n", "", "a mesh needs `path`"),
        (
            "path = \"base.stl\"\n",
            "path = \"base.stl\"\ndensity = 1000.0\n",
            "a mesh has no `density`",
        ),
        (
            "path = \"base.stl\"\n",
            "path = \"base.stl\"\nscale = [1.0, 0.0, 1.0]\n",
            "scale must be finite and non-zero",
        ),
        (
            "path = \"base.stl\"\n",
            "path = \"base.stl\"\nradius = 1.0\n",
            "a mesh has no `radius`",
        ),
        ("path = \"base.stl\"\n", "path = \"\"\n", "empty `path`"),
    ] {
        let err = Model::from_toml_str(&text.replace(from, to))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(needle) && err.contains("body `link` shape 1 (mesh)"),
            "{err}"
        );
    }
}

#[test]
fn a_mesh_with_a_density_is_refused_by_the_builder() {
    let err = model_with(vec![mesh([1.0; 3]).with_density(1000.0)])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("body `link` shape 1 (mesh)") && err.contains("no `density`"),
        "{err}"
    );
}

#[test]
fn meshes_are_no_source_of_mass() {
    // with a body density, the mesh is skipped: the sphere alone gives the mass
    let ball = Shape::new(Geometry::Sphere { radius: 0.1 });
    let with = Body::from_shapes("b", vec![ball.clone(), mesh([1.0; 3])], Some(1000.0)).unwrap();
    let without = Body::from_shapes("b", vec![ball], Some(1000.0)).unwrap();
    assert_eq!(with.mass, without.mass);
    assert_eq!(with.inertia, without.inertia);
    let err = Body::from_shapes("b", vec![mesh([1.0; 3])], Some(1000.0))
        .unwrap_err()
        .to_string();
    assert!(err.contains("only meshes"), "{err}");
}
