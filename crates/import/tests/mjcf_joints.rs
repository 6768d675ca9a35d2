//! MJCF joints as link-graph joints (MuJoCo XML reference, "joint", "freejoint"):
//! several joints of a body in the order written, anchors, `ref` as qpos0 (the graph's
//! q is MuJoCo's qpos), the free joint's q as the body's world pose, generated names,
//! and the checks of the initial positions and velocities given by name.

mod mjcf_common;

use std::f64::consts::PI;

use approx::assert_relative_eq;
use mbs_import::load;
use mbs_import::{ImportOptions, JointMotion, LinkRef};
use mjcf_common::{data, error_of, joint, parse_data, world_poses};
use nalgebra::{Isometry3, Point3, Translation3, Unit, UnitQuaternion, Vector3};

fn rot(axis: Vector3<f64>, angle: f64) -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::identity(),
        UnitQuaternion::from_axis_angle(&Unit::new_normalize(axis), angle),
    )
}
fn tr(x: f64, y: f64, z: f64) -> Isometry3<f64> {
    Isometry3::from_parts(Translation3::new(x, y, z), UnitQuaternion::identity())
}

#[test]
fn joints_of_a_body_follow_in_order_with_origins_and_offsets_as_the_graph_doc_says() {
    let m = parse_data("multijoint.xml");
    let g = &m;
    let names: Vec<&str> = g.joints.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "root",
            "ux",
            "uy",
            "cs",
            "ch",
            "ball",
            "body5_hinge0",
            "body5_hinge1",
            "body5_hinge2"
        ]
    );
    let ux = joint(g, "ux");
    let uy = joint(g, "uy");
    assert_eq!(ux.parent, LinkRef::World);
    assert_eq!(uy.parent, LinkRef::World);
    assert_eq!(uy.child, ux.child);
    let p = Isometry3::from_parts(
        Translation3::new(0.0, 0.0, 1.0),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), PI / 6.0),
    );
    assert_relative_eq!(
        ux.origin.to_homogeneous(),
        (p * tr(0.0, 0.0, 0.2)).to_homogeneous(),
        epsilon = 1e-15
    );
    assert_relative_eq!(
        ux.offset.to_homogeneous(),
        tr(0.0, 0.0, -0.2).to_homogeneous(),
        epsilon = 1e-15
    );
    assert_relative_eq!(
        uy.origin.to_homogeneous(),
        tr(0.0, 0.0, 0.2).to_homogeneous(),
        epsilon = 1e-15
    );
    assert!(matches!(
        joint(g, "cs").motion,
        JointMotion::Prismatic { .. }
    ));
    assert!(matches!(joint(g, "ball").motion, JointMotion::Ball));
    assert!(matches!(joint(g, "root").motion, JointMotion::Floating));
    assert_eq!(m.q0["ball"], vec![1.0, 0.0, 0.0, 0.0]);
    assert_relative_eq!(m.q0["ch"][0], 10f64.to_radians(), epsilon = 1e-15);
    assert_eq!(m.q0["cs"], vec![0.05]);
}

/// MuJoCo's kinematics of one body written out: start at parent · P; each hinge turns
/// the body about its axis through its anchor by q − ref, each slide shifts it by
/// (q − ref)·axis, the ball turns it about its anchor by the quaternion q.
#[test]
fn poses_at_any_q_are_mujocos() {
    let m = parse_data("multijoint.xml");
    let q = [
        ("ux", vec![0.3]),
        ("uy", vec![-0.7]),
        ("cs", vec![0.25]),
        ("ch", vec![1.1]),
        ("ball", vec![0.5f64.sqrt(), 0.5, 0.5f64.sqrt() * 0.0, 0.5]),
        ("root", vec![1.0, 2.0, 3.0, 0.0, 0.0, 1.0, 0.0]),
    ];
    let x = world_poses(&m, &q);
    let p_uni = Isometry3::from_parts(
        Translation3::new(0.0, 0.0, 1.0),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), PI / 6.0),
    );
    let anchor = tr(0.0, 0.0, 0.2);
    let uni = p_uni
        * anchor
        * rot(Vector3::x(), 0.3)
        * anchor.inverse()
        * anchor
        * rot(Vector3::y(), -0.7)
        * anchor.inverse();
    assert_relative_eq!(x[1].to_homogeneous(), uni.to_homogeneous(), epsilon = 1e-14);
    let cyl = uni
        * tr(0.0, 0.0, -0.3)
        * tr(0.0, 0.0, 0.25 - 0.05)
        * rot(Vector3::z(), 1.1 - 10f64.to_radians());
    assert_relative_eq!(x[2].to_homogeneous(), cyl.to_homogeneous(), epsilon = 1e-14);
    let qb =
        UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(0.5f64.sqrt(), 0.5, 0.0, 0.5));
    let a = tr(0.0, -0.05, 0.0);
    let ball = cyl
        * tr(0.0, 0.1, 0.0)
        * a
        * Isometry3::from_parts(Translation3::identity(), qb)
        * a.inverse();
    assert_relative_eq!(
        x[3].to_homogeneous(),
        ball.to_homogeneous(),
        epsilon = 1e-14
    );
    // the free body's pose is q itself
    assert_relative_eq!(
        x[0].translation.vector,
        Vector3::new(1.0, 2.0, 3.0),
        epsilon = 1e-15
    );
    assert_relative_eq!(x[0].rotation.quaternion().j, 1.0, epsilon = 1e-15);
    // at qpos0 the free body is where the file puts it
    let x0 = world_poses(&m, &[]);
    assert_relative_eq!(
        x0[0].translation.vector,
        Vector3::new(0.5, 0.0, 1.0),
        epsilon = 1e-15
    );
    assert_relative_eq!(x0[0].rotation * Vector3::z(), Vector3::x(), epsilon = 1e-15);
    // and the anchors of the universal pair stay put
    let anchor_world = p_uni * Point3::new(0.0, 0.0, 0.2);
    assert_relative_eq!(
        x[1] * Point3::new(0.0, 0.0, 0.2),
        anchor_world,
        epsilon = 1e-14
    );
}

#[test]
fn a_free_joint_must_be_alone_on_a_child_of_the_world() {
    let e = error_of(
        r#"<mujoco><worldbody><body name="a"><joint/><geom size="1"/><body name="b"><freejoint/><geom size="1"/></body></body></worldbody></mujoco>"#,
    );
    assert!(e.contains("body `b`") && e.contains("free joint"), "{e}");
    let e = error_of(
        r#"<mujoco><worldbody><body name="a"><freejoint/><joint/><geom size="1"/></body></worldbody></mujoco>"#,
    );
    assert!(e.contains("body `a`"), "{e}");
}

#[test]
fn duplicate_joint_names_are_refused() {
    let e = error_of(
        r#"<mujoco><worldbody><body name="a"><joint name="j"/><geom size="1"/></body><body name="b"><joint name="j"/><geom size="1"/></body></worldbody></mujoco>"#,
    );
    assert!(e.contains("\"j\"") && e.contains("unique"), "{e}");
}

#[test]
fn initial_positions_and_velocities_are_checked_by_joint_name() {
    let path = data("multijoint.xml");
    let mut o = ImportOptions::default();
    o.q0.insert("ball".into(), vec![1.0, 0.0, 0.0]);
    let e = load(&path, &o).unwrap_err().to_string();
    assert!(
        e.contains("joint `ball`") && e.contains("4 value(s)"),
        "{e}"
    );
    let mut o = ImportOptions::default();
    o.v0.insert("root".into(), vec![0.0; 7]);
    let e = load(&path, &o).unwrap_err().to_string();
    assert!(
        e.contains("joint `root`") && e.contains("6 value(s)"),
        "{e}"
    );
    let mut o = ImportOptions::default();
    o.q0.insert("elbow".into(), vec![0.0]);
    let e = load(&path, &o).unwrap_err().to_string();
    assert!(e.contains("joint `elbow`"), "{e}");
}
