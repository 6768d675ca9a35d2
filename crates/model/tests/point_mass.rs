//! Point masses: a body with a mass only, from the builder and from files; every
//! element that would make its rotation matter is refused, naming the body and the
//! element; what leaves its rotation decoupled is accepted.

use mbs_model::{
    Body, BodyRef, ForceElement, JointKind, LoadFrame, Model, ModelBuilder, ModelError,
    TimeFunction, nominal_point_inertia,
};
use nalgebra::{Matrix3, Vector3};

/// A bob of 2 kg on a massless rod of 1 m (a distance joint) from the ground origin.
fn pendulum() -> (ModelBuilder, mbs_model::BodyId) {
    let mut b = ModelBuilder::new("bob");
    b.gravity(Vector3::new(0.0, -9.81, 0.0));
    let bob = b.point_mass("bob", 2.0);
    b.set_initial_pose(
        bob,
        Vector3::new(1.0, 0.0, 0.0),
        mbs_kinematics::euler_params::identity(),
    );
    let o = b.marker_at_global("o", BodyRef::Ground, Vector3::zeros(), Vector3::z(), None);
    let p = b.marker_at_global(
        "p",
        BodyRef::Body(bob),
        Vector3::new(1.0, 0.0, 0.0),
        Vector3::z(),
        None,
    );
    b.joint("rod", JointKind::Distance { length: 1.0 }, o, p);
    (b, bob)
}

/// The refusal of `b`, which must name the point mass `bob` and `element`.
fn refused(b: ModelBuilder, element: &str) -> String {
    let e = b.build().expect_err("a point mass whose rotation matters");
    let text = e.to_string();
    assert!(
        matches!(&e, ModelError::PointMassRotation { body, .. } if body == "bob"),
        "{e:?}"
    );
    assert!(text.contains("`bob`") && text.contains(element), "{text}");
    text
}

#[test]
fn a_point_mass_has_its_mass_a_nominal_inertia_and_three_degrees_of_freedom() {
    let (b, bob) = pendulum();
    let model = b.build().unwrap();
    let body = model.body(bob);
    assert!(body.point_mass);
    assert_eq!(body.mass, 2.0);
    assert_eq!(body.inertia, nominal_point_inertia(2.0));
    assert_eq!(body.inertia, Matrix3::from_diagonal_element(2.0));
    assert_eq!(body.free_dof(), 3);
    assert_eq!(Body::new("rigid", 1.0, Matrix3::identity()).free_dof(), 6);
}

#[test]
fn joints_that_use_the_axes_of_a_point_mass_are_refused() {
    for kind in [
        JointKind::Revolute,
        JointKind::Universal,
        JointKind::Prismatic,
        JointKind::Cylindrical,
        JointKind::Rigid,
    ] {
        let (mut b, bob) = pendulum();
        let label = kind.label();
        b.joint_at(
            "bad",
            kind,
            BodyRef::Ground,
            BodyRef::Body(bob),
            Vector3::new(1.0, 0.0, 0.0),
            Vector3::z(),
        );
        let text = refused(b, &format!("joint `bad` ({label})"));
        assert!(text.contains("spherical and distance"), "{text}");
    }
    // a rolling sphere's no-slip rows use ω
    let (mut b, bob) = pendulum();
    b.joint_at(
        "roll",
        JointKind::RollingSphere { radius: 0.1 },
        BodyRef::Body(bob),
        BodyRef::Ground,
        Vector3::new(1.0, 0.0, 0.0),
        Vector3::y(),
    );
    refused(b, "joint `roll` (rolling_sphere)");
}

#[test]
fn a_spherical_joint_and_global_point_forces_and_springs_on_a_point_mass_are_accepted() {
    let (mut b, bob) = pendulum();
    // a second point mass hanging from the first by a spring, and a rod body joined to
    // the bob by a spherical joint
    let rod = b.body(
        "rod2",
        1.0,
        Matrix3::from_diagonal(&Vector3::new(0.01, 0.1, 0.1)),
    );
    b.set_initial_pose(
        rod,
        Vector3::new(1.5, 0.0, 0.0),
        mbs_kinematics::euler_params::identity(),
    );
    b.joint_at(
        "ball",
        JointKind::Spherical,
        BodyRef::Body(bob),
        BodyRef::Body(rod),
        Vector3::new(1.0, 0.0, 0.0),
        Vector3::z(),
    );
    let m = b.marker_at_global(
        "push",
        BodyRef::Body(bob),
        Vector3::new(1.0, 0.0, 0.0),
        Vector3::x(),
        None,
    );
    let g = b.marker_at_global(
        "anchor",
        BodyRef::Ground,
        Vector3::new(2.0, 0.0, 0.0),
        Vector3::z(),
        None,
    );
    b.force(ForceElement::PointForce {
        name: "wind".into(),
        marker: m,
        force: [
            TimeFunction::constant(1.0),
            TimeFunction::constant(0.0),
            TimeFunction::constant(0.0),
        ],
        frame: LoadFrame::Global,
    });
    b.force(ForceElement::SpringDamper {
        name: "spring".into(),
        marker_i: g,
        marker_j: m,
        stiffness: 10.0,
        damping: 0.1,
        free_length: 1.0,
        actuator: TimeFunction::default(),
    });
    let model = b.build().unwrap();
    assert_eq!(
        model.bodies().iter().map(|b| b.free_dof()).sum::<usize>(),
        9
    );
}

#[test]
fn torques_marker_frame_loads_offset_markers_and_spin_are_refused() {
    let (mut b, bob) = pendulum();
    let m = b.marker(
        "m",
        BodyRef::Body(bob),
        Vector3::zeros(),
        Matrix3::identity(),
    );
    b.force(ForceElement::Torque {
        name: "twist".into(),
        marker: m,
        torque: [
            TimeFunction::constant(0.0),
            TimeFunction::constant(0.0),
            TimeFunction::constant(1.0),
        ],
        frame: LoadFrame::Global,
    });
    refused(b, "force `twist` (torque)");

    let (mut b, bob) = pendulum();
    let m = b.marker(
        "m",
        BodyRef::Body(bob),
        Vector3::zeros(),
        Matrix3::identity(),
    );
    b.force(ForceElement::PointForce {
        name: "push".into(),
        marker: m,
        force: [
            TimeFunction::constant(1.0),
            TimeFunction::constant(0.0),
            TimeFunction::constant(0.0),
        ],
        frame: LoadFrame::Marker,
    });
    refused(b, "force `push` (point_force)");

    let (mut b, bob) = pendulum();
    b.marker(
        "off",
        BodyRef::Body(bob),
        Vector3::new(0.0, 0.1, 0.0),
        Matrix3::identity(),
    );
    let text = refused(b, "marker `off`");
    assert!(text.contains("[0, 0.1, 0]"), "{text}");

    let (mut b, bob) = pendulum();
    b.set_initial_velocity(bob, Vector3::zeros(), Vector3::new(0.0, 0.0, 3.0));
    let text = refused(b, "initial `omega`");
    assert!(text.contains("[0, 0, 3]"), "{text}");
}

#[test]
fn point_masses_in_files_take_a_mass_only_and_round_trip() {
    let toml = r#"
name = "bob"
gravity = [0.0, -9.81, 0.0]

[[bodies]]
name = "bob"
point_mass = true
mass = 2.0
position = [1.0, 0.0, 0.0]

[[markers]]
name = "o"
body = "ground"

[[markers]]
name = "p"
body = "bob"

[[joints]]
name = "rod"
type = "distance"
length = 1.0
marker_i = "o"
marker_j = "p"
"#;
    let model = Model::from_toml_str(toml).unwrap();
    assert!(model.bodies()[0].point_mass);
    assert_eq!(model.bodies()[0].inertia, nominal_point_inertia(2.0));
    let text = model.to_toml_string();
    assert!(
        text.contains("point_mass = true") && !text.contains("inertia"),
        "{text}"
    );
    assert_eq!(Model::from_toml_str(&text).unwrap(), model);
    let json = model.to_json_string();
    assert_eq!(Model::from_json_str(&json).unwrap(), model);

    let with_inertia = toml.replace("mass = 2.0", "mass = 2.0\ninertia = [1.0, 1.0, 1.0]");
    let e = Model::from_toml_str(&with_inertia).unwrap_err().to_string();
    assert!(e.contains("body `bob`") && e.contains("inertia"), "{e}");
    let without_mass = toml.replace("mass = 2.0\n", "");
    let e = Model::from_toml_str(&without_mass).unwrap_err().to_string();
    assert!(
        e.contains("body `bob`") && e.contains("needs a `mass`"),
        "{e}"
    );
    let revolute = toml.replace("type = \"distance\"\nlength = 1.0", "type = \"revolute\"");
    let e = Model::from_toml_str(&revolute).unwrap_err().to_string();
    assert!(
        e.contains("`bob`") && e.contains("joint `rod` (revolute)"),
        "{e}"
    );
}
