//! URDF parsing: every joint type, inertial rotation, visuals, mesh resolution, notes.

use std::path::{Path, PathBuf};

use approx::assert_relative_eq;
use mbs_import::{ImportOptions, JointMotion, LinkGraph, LinkRef, VisualGeometry, urdf};
use nalgebra::{Matrix3, Rotation3, Vector3};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn parse(name: &str, options: &ImportOptions) -> LinkGraph {
    urdf::parse(&data(name), options).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn joint<'a>(g: &'a LinkGraph, name: &str) -> &'a mbs_import::GraphJoint {
    g.joints.iter().find(|j| j.name == name).unwrap()
}

fn link_index(g: &LinkGraph, name: &str) -> usize {
    g.links.iter().position(|l| l.name == name).unwrap()
}

#[test]
fn every_joint_type() {
    let g = parse("all_joints.urdf", &ImportOptions::default());
    assert_eq!(g.name, "all_joints");
    assert_eq!(g.gravity, Vector3::new(0.0, 0.0, -9.81));
    assert_eq!(g.links.len(), 8);
    // 7 URDF joints + the fixed root joint
    assert_eq!(g.joints.len(), 8);
    let root = &g.joints[0];
    assert_eq!(root.name, urdf::ROOT_JOINT);
    assert_eq!(root.parent, LinkRef::World);
    assert_eq!(root.child, link_index(&g, "base"));
    assert_eq!(root.motion, JointMotion::Fixed);

    let rev = joint(&g, "rev");
    let JointMotion::Revolute { axis } = &rev.motion else {
        panic!("{:?}", rev.motion)
    };
    assert_relative_eq!(axis.into_inner(), Vector3::z(), epsilon = 1e-15);
    assert_eq!(rev.parent, LinkRef::Link(link_index(&g, "base")));
    assert_eq!(rev.child, link_index(&g, "rev_link"));
    assert_relative_eq!(rev.origin.translation.vector, Vector3::new(0.0, 0.0, 0.5));
    // rpy = (0, 0, π/2): x of the joint frame is y of the parent
    assert_relative_eq!(
        rev.origin.rotation * Vector3::x(),
        Vector3::y(),
        epsilon = 1e-15
    );
    let lim = rev.limit.as_ref().unwrap();
    assert_eq!(
        (lim.lower, lim.upper, lim.effort, lim.velocity),
        (Some(-1.5), Some(2.0), Some(10.0), Some(3.0))
    );
    assert_eq!((rev.dynamics.damping, rev.dynamics.friction), (0.7, 0.1));
    assert_eq!(rev.offset, nalgebra::Isometry3::identity());

    let cont = joint(&g, "cont");
    assert!(matches!(cont.motion, JointMotion::Revolute { .. }));
    let lim = cont.limit.as_ref().unwrap();
    assert_eq!((lim.lower, lim.upper, lim.effort), (None, None, Some(5.0)));
    assert_eq!(cont.dynamics, Default::default());

    let pris = joint(&g, "pris");
    let JointMotion::Prismatic { axis } = &pris.motion else {
        panic!()
    };
    let s = 0.5f64.sqrt();
    assert_relative_eq!(axis.into_inner(), Vector3::new(s, s, 0.0), epsilon = 1e-15);

    assert_eq!(joint(&g, "fix").motion, JointMotion::Fixed);
    assert!(joint(&g, "fix").limit.is_none());
    assert_eq!(joint(&g, "float").motion, JointMotion::Floating);
    let JointMotion::Planar { normal } = &joint(&g, "plane").motion else {
        panic!()
    };
    assert_relative_eq!(normal.into_inner(), Vector3::z());

    let follow = joint(&g, "follow");
    let m = follow.mimic.as_ref().unwrap();
    assert_eq!(
        (m.joint.as_str(), m.multiplier, m.offset),
        ("rev", -2.0, 0.5)
    );
    // default axis is x
    let JointMotion::Revolute { axis } = &follow.motion else {
        panic!()
    };
    assert_eq!(axis.into_inner(), Vector3::x());

    // tree order: every joint's parent link is the child of an earlier joint
    for (k, j) in g.joints.iter().enumerate() {
        if let LinkRef::Link(p) = j.parent {
            assert!(g.joints[..k].iter().any(|e| e.child == p), "{}", j.name);
        }
    }

    // massless link
    assert!(g.links[link_index(&g, "fixed_link")].inertial.is_none());
    let base = g.links[link_index(&g, "base")].inertial.as_ref().unwrap();
    assert_eq!(base.mass, 2.0);
    assert_relative_eq!(base.com, Vector3::new(0.0, 0.0, 0.1));

    // visuals and colours (named material, inline material)
    let v = &g.links[link_index(&g, "base")].visuals[0];
    assert_eq!(
        v.geometry,
        VisualGeometry::Box {
            size: Vector3::new(0.2, 0.3, 0.4)
        }
    );
    assert_eq!(v.rgba, Some([0.0, 0.0, 1.0, 1.0]));
    let v = &g.links[link_index(&g, "rev_link")].visuals[0];
    assert_eq!(v.name.as_deref(), Some("rod"));
    assert_eq!(
        v.geometry,
        VisualGeometry::Cylinder {
            radius: 0.02,
            length: 0.5
        }
    );
    assert_eq!(v.rgba, Some([1.0, 0.0, 0.0, 0.5]));
    assert_eq!(
        g.links[link_index(&g, "cont_link")].visuals[0].geometry,
        VisualGeometry::Sphere { radius: 0.05 }
    );
    assert_eq!(
        g.links[link_index(&g, "pris_link")].visuals[0].geometry,
        VisualGeometry::Capsule {
            radius: 0.05,
            length: 0.2
        }
    );

    // notes: collision, transmission, gazebo, safety controller
    let has = |element: &str, word: &str| {
        g.notes
            .iter()
            .any(|n| n.element.contains(element) && n.note.contains(word))
    };
    assert!(has("collision", "1 <collision>"), "{:?}", g.notes);
    assert!(
        has("transmission `rev_trans`", "not imported"),
        "{:?}",
        g.notes
    );
    assert!(
        has("gazebo (reference `base`)", "not imported"),
        "{:?}",
        g.notes
    );
    assert!(has("joint `rev`", "safety_controller"), "{:?}", g.notes);
}

#[test]
fn floating_base_option() {
    let options = ImportOptions {
        floating_base: true,
        ..Default::default()
    };
    let g = parse("all_joints.urdf", &options);
    assert_eq!(g.joints[0].name, "root_joint");
    assert_eq!(g.joints[0].motion, JointMotion::Floating);
}

#[test]
fn world_link_is_the_world() {
    let options = ImportOptions {
        floating_base: true,
        ..Default::default()
    };
    let g = parse("world_root.urdf", &options);
    assert_eq!(g.links.len(), 1);
    assert_eq!(g.joints.len(), 1);
    assert_eq!(g.joints[0].parent, LinkRef::World);
    assert_eq!(g.joints[0].child, 0);
    assert_eq!(g.world_visuals.len(), 1);
    assert!(
        g.notes
            .iter()
            .any(|n| n.note.contains("floating base not applied"))
    );
    let inertial = g.links[0].inertial.as_ref().unwrap();
    assert_relative_eq!(inertial.com, Vector3::new(0.0, 0.0, -0.5));
}

#[test]
fn rotated_inertial_is_the_rotated_tensor() {
    let g = parse("rotated_inertial.urdf", &ImportOptions::default());
    let inertial = g.links[0].inertial.as_ref().unwrap();
    assert_eq!(inertial.mass, 3.5);
    assert_relative_eq!(inertial.com, Vector3::new(0.1, -0.2, 0.3));
    // R = Rz(yaw) Ry(pitch) Rx(roll), built from elementary rotations
    let r = Rotation3::from_axis_angle(&Vector3::z_axis(), 1.1)
        * Rotation3::from_axis_angle(&Vector3::y_axis(), -0.7)
        * Rotation3::from_axis_angle(&Vector3::x_axis(), 0.3);
    let i = Matrix3::new(0.4, 0.01, -0.02, 0.01, 0.5, 0.03, -0.02, 0.03, 0.6);
    let expected = r.matrix() * i * r.matrix().transpose();
    assert_relative_eq!(inertial.inertia, expected, epsilon = 1e-14);
    // the kinetic energy of a spin ω is the same in either frame: ½ωᵀIω
    let w_link = Vector3::new(0.3, -1.2, 0.8);
    let w_inertial = r.inverse() * w_link;
    assert_relative_eq!(
        w_link.dot(&(inertial.inertia * w_link)),
        w_inertial.dot(&(i * w_inertial)),
        epsilon = 1e-13
    );
    assert!((inertial.inertia - expected).norm() < 1e-14);
    assert!(
        (inertial.inertia - i).norm() > 1e-3,
        "rotation must change the tensor"
    );
}

#[test]
fn package_and_relative_mesh_paths() {
    let options = ImportOptions {
        package_path: vec![data("extra")],
        ..Default::default()
    };
    let g = parse("pkgroot/my_pkg/urdf/robot.urdf", &options);
    let visuals = &g.links[0].visuals;
    let mesh = |i: usize| match &visuals[i].geometry {
        VisualGeometry::Mesh { uri, path, scale } => (uri.clone(), path.clone(), *scale),
        other => panic!("{other:?}"),
    };
    let (uri, path, scale) = mesh(0);
    assert_eq!(uri, "package://my_pkg/meshes/a.stl");
    assert_eq!(path.unwrap(), data("pkgroot/my_pkg/meshes/a.stl"));
    assert_eq!(scale, Vector3::repeat(2.0));
    assert_eq!(mesh(1).1.unwrap(), data("extra/other_pkg/meshes/b.stl"));
    assert_eq!(mesh(1).2, Vector3::repeat(1.0));
    let relative = mesh(2).1.unwrap();
    assert_eq!(
        relative.canonicalize().unwrap(),
        data("pkgroot/my_pkg/meshes/a.stl").canonicalize().unwrap()
    );
    assert_eq!(mesh(3).1, None);
    assert!(
        g.notes
            .iter()
            .any(|n| n.note.contains("package://nowhere/meshes/c.stl")
                && n.note.contains("not found")),
        "{:?}",
        g.notes
    );
    // without the package path, other_pkg is not found
    let g = parse("pkgroot/my_pkg/urdf/robot.urdf", &ImportOptions::default());
    assert!(matches!(
        &g.links[0].visuals[1].geometry,
        VisualGeometry::Mesh { path: None, .. }
    ));
    assert!(matches!(
        &g.links[0].visuals[0].geometry,
        VisualGeometry::Mesh { path: Some(_), .. }
    ));
}
