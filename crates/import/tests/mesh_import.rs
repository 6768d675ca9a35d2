//! A URDF mesh visual becomes a mesh shape posed in the body frame (the body origin is
//! the link's centre of mass), with the visual's scale and colour; a file that cannot
//! be drawn keeps a note naming it.

use std::path::PathBuf;

use mbs_import::{ImportOptions, load};
use mbs_model::Geometry;
use nalgebra::{Matrix3, Vector3};

#[test]
fn a_urdf_mesh_visual_is_a_mesh_shape_at_its_pose() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let imported = load(&dir.join("mesh_visual.urdf"), &ImportOptions::default()).unwrap();
    let body = &imported.model.bodies()[0];
    assert_eq!(body.shapes.len(), 1, "{:?}", body.shapes);
    let s = &body.shapes[0];
    match &s.geometry {
        Geometry::Mesh { path, scale } => {
            assert_eq!(
                path.canonicalize().unwrap(),
                dir.join("meshes/tetra.stl").canonicalize().unwrap()
            );
            assert_eq!(*scale, Vector3::repeat(2.0));
        }
        other => panic!("{other:?}"),
    }
    // visual origin (0.1, 0, 0) less the centre of mass (0, 0, −0.5), link axes
    assert!(
        (s.position - Vector3::new(0.1, 0.0, 0.5)).norm() < 1e-12,
        "{}",
        s.position
    );
    // rpy (0, 0, π/2): shape x along body y, shape y along body −x
    let rz = Matrix3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0);
    assert!((s.rotation() - rz).norm() < 1e-12, "{}", s.rotation());
    assert_eq!(s.color, Some([0, 0, 255]));
    assert_eq!(s.density, None);
    let notes: Vec<String> = imported.notes.iter().map(|n| n.note.clone()).collect();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("meshes/quad.mtl") && n.contains("not drawn")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.contains("meshes/absent.dae") && n.contains("not found")),
        "{notes:?}"
    );
    // the model with its mesh shape round-trips through its JSON file
    let json = imported.model.to_json_string();
    let back = mbs_model::Model::from_json_str(&json).unwrap();
    assert_eq!(back.bodies()[0].shapes, body.shapes);
}
