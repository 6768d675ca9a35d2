//! Every invalid input gives a clear error (element name and value in the message),
//! never a panic: from the builder and from files.

use mbs_model::{
    BodyId, BodyRef, DriverKind, ForceElement, JointKind, LoadFrame, MarkerId, Model, ModelBuilder,
    ModelError, TimeFunction,
};
use nalgebra::{Matrix3, Vector3, Vector4};

/// A valid pendulum of two links; tests break one thing at a time.
fn pendulum() -> (ModelBuilder, BodyId, BodyId) {
    let mut b = ModelBuilder::new("pendulum");
    b.gravity(Vector3::new(0.0, -9.81, 0.0));
    let l1 = b.body("link1", 1.0, Matrix3::from_diagonal_element(0.1));
    let l2 = b.body("link2", 1.0, Matrix3::from_diagonal_element(0.1));
    b.set_initial_pose(
        l1,
        Vector3::new(0.5, 0.0, 0.0),
        mbs_kinematics::euler_params::identity(),
    );
    b.set_initial_pose(
        l2,
        Vector3::new(1.5, 0.0, 0.0),
        mbs_kinematics::euler_params::identity(),
    );
    b.joint_at(
        "O",
        JointKind::Revolute,
        BodyRef::Ground,
        BodyRef::Body(l1),
        Vector3::zeros(),
        Vector3::z(),
    );
    b.joint_at(
        "A",
        JointKind::Revolute,
        BodyRef::Body(l1),
        BodyRef::Body(l2),
        Vector3::x(),
        Vector3::z(),
    );
    (b, l1, l2)
}

/// The error, after checking that its message contains every `needle`.
fn expect_err(result: Result<Model, ModelError>, needles: &[&str]) -> ModelError {
    let err = result.expect_err("the model must be rejected");
    let msg = err.to_string();
    for n in needles {
        assert!(msg.contains(n), "message {msg:?} does not contain {n:?}");
    }
    err
}

#[test]
fn the_base_model_is_valid() {
    pendulum().0.build().unwrap();
}

#[test]
fn unknown_body() {
    let (mut b, ..) = pendulum();
    b.marker(
        "stray",
        BodyRef::Body(BodyId(7)),
        Vector3::zeros(),
        Matrix3::identity(),
    );
    let err = expect_err(b.build(), &["marker `stray`", "body", "#7"]);
    assert!(matches!(
        err,
        ModelError::UnknownReference { kind: "body", .. }
    ));
}

#[test]
fn unknown_marker_in_joint() {
    let (mut b, ..) = pendulum();
    b.joint("loose", JointKind::Spherical, MarkerId(0), MarkerId(99));
    let err = expect_err(b.build(), &["joint `loose`", "marker", "#99"]);
    assert!(matches!(
        err,
        ModelError::UnknownReference { kind: "marker", .. }
    ));
}

#[test]
fn duplicate_names() {
    let (mut b, ..) = pendulum();
    b.body("link1", 1.0, Matrix3::identity());
    let err = expect_err(b.build(), &["duplicate body name `link1`"]);
    assert!(matches!(
        err,
        ModelError::DuplicateName { kind: "body", .. }
    ));

    let (mut b, ..) = pendulum();
    b.marker(
        "O.i",
        BodyRef::Ground,
        Vector3::zeros(),
        Matrix3::identity(),
    );
    expect_err(b.build(), &["duplicate marker name `O.i`"]);

    let (mut b, l1, l2) = pendulum();
    b.joint_at(
        "A",
        JointKind::Spherical,
        BodyRef::Body(l1),
        BodyRef::Body(l2),
        Vector3::x(),
        Vector3::z(),
    );
    // the markers "A.i"/"A.j" come first
    expect_err(b.build(), &["duplicate", "`A."]);
}

#[test]
fn ground_is_a_reserved_body_name() {
    let (mut b, ..) = pendulum();
    b.body("ground", 1.0, Matrix3::identity());
    let err = expect_err(b.build(), &["body `ground`", "reserved"]);
    assert!(matches!(err, ModelError::Unsupported { .. }));
}

#[test]
fn non_positive_mass() {
    for (mass, shown) in [
        (0.0, "got 0"),
        (-2.5, "got -2.5"),
        (f64::NAN, "got NaN"),
        (f64::INFINITY, "got inf"),
    ] {
        let mut b = ModelBuilder::new("m");
        b.body("heavy", mass, Matrix3::identity());
        let err = expect_err(b.build(), &["body `heavy`", "mass", shown]);
        assert!(matches!(err, ModelError::NonPositiveMass { .. }), "{err:?}");
    }
}

#[test]
fn inertia_not_symmetric() {
    let mut b = ModelBuilder::new("m");
    b.body(
        "skew",
        1.0,
        Matrix3::new(1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
    );
    let err = expect_err(
        b.build(),
        &[
            "body `skew`",
            "not symmetric",
            "5.000e-1",
            "[1.0, 0.5, 0.0]",
        ],
    );
    assert!(matches!(err, ModelError::InertiaNotSpd { .. }));
}

#[test]
fn inertia_not_positive_definite() {
    for (j, shown) in [
        (
            Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, -1.0)),
            "smallest eigenvalue -1.0",
        ),
        (Matrix3::zeros(), "smallest eigenvalue 0"),
        // symmetric, positive diagonal, but indefinite (eigenvalues 3 and −1)
        (
            Matrix3::new(1.0, 2.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 1.0),
            "smallest eigenvalue -1.0",
        ),
        (
            Matrix3::from_diagonal(&Vector3::new(1.0, f64::NAN, 1.0)),
            "non-finite",
        ),
        // huge but finite: must not overflow into a false pass
        (
            Matrix3::from_diagonal(&Vector3::new(f64::MAX, -f64::MAX, 1.0)),
            "smallest eigenvalue",
        ),
    ] {
        let mut b = ModelBuilder::new("m");
        b.body("wobbly", 1.0, j);
        let err = expect_err(b.build(), &["body `wobbly`", "positive definite", shown]);
        assert!(matches!(err, ModelError::InertiaNotSpd { .. }));
    }
}

#[test]
fn inertia_violating_the_triangle_inequality() {
    // positive definite, but J₁ + J₂ < J₃: no mass distribution has these moments
    let mut b = ModelBuilder::new("m");
    b.body(
        "impossible",
        1.0,
        Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, 3.0)),
    );
    let err = expect_err(
        b.build(),
        &["body `impossible`", "triangle inequality", "3.0"],
    );
    assert!(matches!(err, ModelError::InertiaNotPhysical { .. }));
    // the limiting thin plate / rod cases (J₁ + J₂ = J₃) are valid
    let mut b = ModelBuilder::new("m");
    b.body(
        "plate",
        1.0,
        Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0)),
    );
    assert!(b.build().is_ok());
}

#[test]
fn zero_length_axis() {
    let (mut b, l1, _) = pendulum();
    b.joint_at(
        "bad",
        JointKind::Revolute,
        BodyRef::Ground,
        BodyRef::Body(l1),
        Vector3::zeros(),
        Vector3::zeros(),
    );
    let err = expect_err(b.build(), &["marker `bad.i`", "zero-length axis"]);
    assert!(matches!(err, ModelError::InvalidAxis { .. }));
}

#[test]
fn marker_axes_not_a_rotation() {
    let (mut b, l1, _) = pendulum();
    b.marker(
        "sheared",
        BodyRef::Body(l1),
        Vector3::zeros(),
        Matrix3::new(1.0, 0.1, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
    );
    expect_err(b.build(), &["marker `sheared`", "not orthonormal", "0.1"]);
    let (mut b, l1, _) = pendulum();
    b.marker(
        "mirrored",
        BodyRef::Body(l1),
        Vector3::zeros(),
        Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, -1.0)),
    );
    expect_err(b.build(), &["marker `mirrored`", "right-handed", "-1.0"]);
}

#[test]
fn joint_connecting_a_body_to_itself() {
    let (mut b, l1, _) = pendulum();
    let m1 = b.marker(
        "p",
        BodyRef::Body(l1),
        Vector3::zeros(),
        Matrix3::identity(),
    );
    let m2 = b.marker("q", BodyRef::Body(l1), Vector3::x(), Matrix3::identity());
    b.joint("weld", JointKind::Rigid, m1, m2);
    let err = expect_err(b.build(), &["joint `weld`", "body `link1` to itself"]);
    assert!(matches!(err, ModelError::SelfJoint { .. }));
    // ground to ground too
    let (mut b, ..) = pendulum();
    let g1 = b.marker("g1", BodyRef::Ground, Vector3::zeros(), Matrix3::identity());
    let g2 = b.marker("g2", BodyRef::Ground, Vector3::x(), Matrix3::identity());
    b.joint("nothing", JointKind::Spherical, g1, g2);
    expect_err(b.build(), &["joint `nothing`", "`ground` to itself"]);
}

#[test]
fn non_finite_numbers() {
    let (mut b, ..) = pendulum();
    b.gravity(Vector3::new(0.0, f64::NAN, 0.0));
    let err = expect_err(b.build(), &["model", "gravity", "NaN"]);
    assert!(matches!(err, ModelError::InvalidParameter { .. }));

    let (mut b, l1, _) = pendulum();
    b.set_initial_pose(
        l1,
        Vector3::new(f64::INFINITY, 0.0, 0.0),
        mbs_kinematics::euler_params::identity(),
    );
    expect_err(b.build(), &["body `link1`", "initial position", "inf"]);

    let (mut b, _, l2) = pendulum();
    b.set_initial_velocity(
        l2,
        Vector3::zeros(),
        Vector3::new(0.0, 0.0, f64::NEG_INFINITY),
    );
    expect_err(b.build(), &["body `link2`", "initial omega", "-inf"]);

    let (mut b, l1, _) = pendulum();
    b.marker(
        "nan",
        BodyRef::Body(l1),
        Vector3::new(f64::NAN, 0.0, 0.0),
        Matrix3::identity(),
    );
    expect_err(b.build(), &["marker `nan`", "position", "NaN"]);

    let (mut b, l1, _) = pendulum();
    b.marker(
        "nan_axes",
        BodyRef::Body(l1),
        Vector3::zeros(),
        Matrix3::from_element(f64::NAN),
    );
    expect_err(b.build(), &["marker `nan_axes`", "non-finite"]);
}

#[test]
fn euler_parameters_not_unit() {
    let (mut b, l1, _) = pendulum();
    b.set_initial_pose(
        l1,
        Vector3::new(0.5, 0.0, 0.0),
        Vector4::new(1.0, 1.0, 0.0, 0.0),
    );
    let err = expect_err(
        b.build(),
        &["body `link1` initial orientation", "unit norm", "1.414"],
    );
    assert!(matches!(err, ModelError::InvalidAxis { .. }));
    let (mut b, l1, _) = pendulum();
    b.set_initial_pose(
        l1,
        Vector3::new(0.5, 0.0, 0.0),
        Vector4::new(f64::NAN, 0.0, 0.0, 0.0),
    );
    expect_err(b.build(), &["body `link1` initial orientation", "NaN"]);
}

#[test]
fn bad_joint_parameters() {
    for (kind, needles) in [
        (
            JointKind::Distance { length: 0.0 },
            ["length", "positive", "got 0"],
        ),
        (
            JointKind::Distance { length: -1.0 },
            ["length", "positive", "got -1"],
        ),
        (
            JointKind::RollingSphere { radius: 0.0 },
            ["radius", "positive", "got 0"],
        ),
        (
            JointKind::RollingDisc { radius: -0.25 },
            ["radius", "positive", "got -0.25"],
        ),
        (
            JointKind::RollingDisc { radius: f64::NAN },
            ["radius", "positive", "NaN"],
        ),
        (
            JointKind::SinePath {
                amplitude: f64::NAN,
                wavenumber: 1.0,
            },
            ["amplitude", "finite", "NaN"],
        ),
        (
            JointKind::SinePath {
                amplitude: 1.0,
                wavenumber: f64::INFINITY,
            },
            ["wavenumber", "finite", "inf"],
        ),
    ] {
        let (mut b, _, l2) = pendulum();
        b.joint_at(
            "extra",
            kind,
            BodyRef::Body(l2),
            BodyRef::Ground,
            Vector3::x(),
            Vector3::z(),
        );
        let mut all = vec!["joint `extra`"];
        all.extend(needles);
        expect_err(b.build(), &all);
    }
    // a rolling sphere needs its plane on ground
    let (mut b, l1, l2) = pendulum();
    b.joint_at(
        "roll",
        JointKind::RollingSphere { radius: 0.1 },
        BodyRef::Body(l1),
        BodyRef::Body(l2),
        Vector3::x(),
        Vector3::z(),
    );
    expect_err(b.build(), &["joint `roll`", "on ground"]);
    // so does a rolling disc, and the disc must move
    let (mut b, l1, l2) = pendulum();
    b.joint_at(
        "wheel",
        JointKind::RollingDisc { radius: 0.1 },
        BodyRef::Body(l1),
        BodyRef::Body(l2),
        Vector3::x(),
        Vector3::z(),
    );
    expect_err(b.build(), &["joint `wheel`", "rolling disc", "on ground"]);
    let (mut b, l1, _) = pendulum();
    b.joint_at(
        "wheel",
        JointKind::RollingDisc { radius: 0.1 },
        BodyRef::Ground,
        BodyRef::Body(l1),
        Vector3::x(),
        Vector3::z(),
    );
    expect_err(b.build(), &["joint `wheel`", "rolling disc", "on ground"]);
}

#[test]
fn bad_driver_parameters() {
    let (mut b, ..) = pendulum();
    let m = b
        .parts()
        .markers
        .iter()
        .position(|m| m.name == "A.j")
        .unwrap();
    b.driver(
        "lift",
        DriverKind::PointCoordinate {
            marker: MarkerId(m),
            axis: 3,
        },
        TimeFunction::constant(0.0),
    );
    expect_err(b.build(), &["driver `lift`", "axis", "0, 1 or 2", "got 3"]);

    let (mut b, l1, l2) = pendulum();
    let ball = b.joint_at(
        "ball",
        JointKind::Spherical,
        BodyRef::Body(l1),
        BodyRef::Body(l2),
        Vector3::x(),
        Vector3::z(),
    );
    b.driver(
        "spin",
        DriverKind::JointAngle { joint: ball },
        TimeFunction::constant(0.0),
    );
    expect_err(
        b.build(),
        &[
            "driver `spin`",
            "revolute, cylindrical or planar",
            "spherical",
        ],
    );

    let (mut b, ..) = pendulum();
    b.driver(
        "ghost",
        DriverKind::JointTranslation {
            joint: mbs_model::JointId(42),
        },
        TimeFunction::constant(0.0),
    );
    expect_err(b.build(), &["driver `ghost`", "joint", "#42"]);

    let (mut b, ..) = pendulum();
    let o = mbs_model::JointId(0);
    b.driver(
        "wild",
        DriverKind::JointAngle { joint: o },
        TimeFunction::Sum {
            terms: vec![TimeFunction::Harmonic {
                amplitude: 1.0,
                frequency: f64::INFINITY,
                phase: 0.0,
                offset: 0.0,
            }],
        },
    );
    expect_err(b.build(), &["driver `wild`", "function", "finite", "inf"]);

    let (mut b, ..) = pendulum();
    b.driver(
        "backwards",
        DriverKind::JointAngle { joint: o },
        TimeFunction::SmoothStep {
            t0: 2.0,
            t1: 1.0,
            from: 0.0,
            to: 1.0,
        },
    );
    expect_err(
        b.build(),
        &["driver `backwards`", "t1", "greater than t0", "got 1"],
    );
}

#[test]
fn bad_force_parameters() {
    let marker = |b: &ModelBuilder, name: &str| {
        MarkerId(
            b.parts()
                .markers
                .iter()
                .position(|m| m.name == name)
                .unwrap(),
        )
    };
    let (mut b, ..) = pendulum();
    let (mi, mj) = (marker(&b, "O.i"), marker(&b, "A.j"));
    b.force(ForceElement::SpringDamper {
        name: "spring".into(),
        marker_i: mi,
        marker_j: mj,
        stiffness: -3.0,
        damping: 0.0,
        free_length: 1.0,
        actuator: TimeFunction::default(),
    });
    expect_err(
        b.build(),
        &["force `spring`", "stiffness", "non-negative", "got -3"],
    );

    let (mut b, ..) = pendulum();
    b.force(ForceElement::SpringDamper {
        name: "damper".into(),
        marker_i: mi,
        marker_j: mj,
        stiffness: 3.0,
        damping: -0.5,
        free_length: 1.0,
        actuator: TimeFunction::default(),
    });
    expect_err(b.build(), &["force `damper`", "damping", "got -0.5"]);

    let (mut b, ..) = pendulum();
    b.force(ForceElement::UnilateralSpring {
        name: "tire".into(),
        marker_i: mi,
        marker_j: mj,
        stiffness: 3.0,
        damping: 0.0,
        free_length: 0.0,
    });
    expect_err(
        b.build(),
        &["force `tire`", "free_length", "positive", "got 0"],
    );

    let (mut b, ..) = pendulum();
    b.force(ForceElement::RotationalSpringDamper {
        name: "coil".into(),
        joint: mbs_model::JointId(0),
        stiffness: 1.0,
        damping: 0.0,
        free_angle: f64::NAN,
        actuator: TimeFunction::default(),
    });
    expect_err(b.build(), &["force `coil`", "free_angle", "NaN"]);

    let (mut b, ..) = pendulum();
    b.force(ForceElement::PointForce {
        name: "push".into(),
        marker: mi,
        force: std::array::from_fn(|_| TimeFunction::constant(1.0)),
        frame: LoadFrame::Global,
    });
    expect_err(b.build(), &["force `push`", "`O.i` on ground"]);

    let (mut b, ..) = pendulum();
    b.force(ForceElement::Torque {
        name: "twist".into(),
        marker: mj,
        torque: [
            TimeFunction::constant(0.0),
            TimeFunction::constant(f64::NAN),
            TimeFunction::constant(0.0),
        ],
        frame: LoadFrame::Marker,
    });
    expect_err(b.build(), &["force `twist`", "function", "NaN"]);

    let (mut b, ..) = pendulum();
    b.force(ForceElement::PointForce {
        name: "nowhere".into(),
        marker: MarkerId(1000),
        force: Default::default(),
        frame: LoadFrame::Global,
    });
    expect_err(b.build(), &["force `nowhere`", "marker", "#1000"]);
}

// ---------------------------------------------------------------------------------
// files

const PENDULUM_TOML: &str = r#"
name = "pendulum"
gravity = [0.0, -9.81, 0.0]

[[bodies]]
name = "link"
mass = 1.0
inertia = [0.01, 0.09, 0.09]
position = [0.5, 0.0, 0.0]

[[markers]]
name = "pivot.ground"
body = "ground"

[[markers]]
name = "pivot.link"
body = "link"
position = [-0.5, 0.0, 0.0]

[[joints]]
type = "revolute"
name = "pivot"
marker_i = "pivot.ground"
marker_j = "pivot.link"
"#;

const PENDULUM_JSON: &str = r#"{
  "name": "pendulum",
  "gravity": [0.0, -9.81, 0.0],
  "bodies": [
    { "name": "link", "mass": 1.0, "inertia": [0.01, 0.09, 0.09], "position": [0.5, 0.0, 0.0] }
  ],
  "markers": [
    { "name": "pivot.ground", "body": "ground" },
    { "name": "pivot.link", "body": "link", "position": [-0.5, 0.0, 0.0] }
  ],
  "joints": [
    { "type": "revolute", "name": "pivot", "marker_i": "pivot.ground", "marker_j": "pivot.link" }
  ]
}"#;

/// `PENDULUM_TOML` with one replacement (which must apply).
fn toml_with(from: &str, to: &str) -> String {
    assert!(PENDULUM_TOML.contains(from), "{from}");
    PENDULUM_TOML.replacen(from, to, 1)
}

fn json_with(from: &str, to: &str) -> String {
    assert!(PENDULUM_JSON.contains(from), "{from}");
    PENDULUM_JSON.replacen(from, to, 1)
}

fn parse_position(err: &ModelError) -> (Option<usize>, Option<usize>) {
    match err {
        ModelError::Parse { line, column, .. } => (*line, *column),
        other => panic!("expected a parse error, got {other:?}"),
    }
}

#[test]
fn the_base_files_are_valid() {
    let a = Model::from_toml_str(PENDULUM_TOML).unwrap();
    let b = Model::from_json_str(PENDULUM_JSON).unwrap();
    assert_eq!(a, b);
}

#[test]
fn malformed_json_reports_line_and_column() {
    let text = json_with(r#""mass": 1.0,"#, r#""mass": 1.0,,"#);
    let err = expect_err(
        Model::from_json_str(&text),
        &["JSON model file, line 5, column"],
    );
    assert_eq!(parse_position(&err).0, Some(5));
    let err = expect_err(Model::from_json_str("{\"name\": \"x\""), &["JSON", "EOF"]);
    assert_eq!(parse_position(&err).0, Some(1));
    expect_err(Model::from_json_str(""), &["JSON"]);
}

#[test]
fn malformed_toml_reports_line_and_column() {
    let text = toml_with("mass = 1.0", "mass = = 1.0");
    let err = expect_err(
        Model::from_toml_str(&text),
        &["TOML model file, line 7, column 8"],
    );
    assert_eq!(parse_position(&err), (Some(7), Some(8)));
    let err = expect_err(
        Model::from_toml_str("[[bodies]\nname = 1"),
        &["TOML model file, line 1"],
    );
    assert_eq!(parse_position(&err).0, Some(1));
}

#[test]
fn missing_field() {
    // `mass` is optional since bodies may take it from shape densities: without it (and
    // without densities) the error names the body instead of a line.
    expect_err(
        Model::from_toml_str(&toml_with("mass = 1.0\n", "")),
        &["body `link`", "`mass` and `inertia`"],
    );
    expect_err(
        Model::from_json_str(&json_with(r#""mass": 1.0, "#, "")),
        &["body `link`", "`mass` and `inertia`"],
    );
    let err = expect_err(
        Model::from_toml_str(&toml_with("name = \"pivot\"\n", "")),
        &["TOML", "missing field `name`"],
    );
    assert!(parse_position(&err).0.is_some(), "{err}");
    expect_err(
        Model::from_toml_str(&toml_with("marker_j = \"pivot.link\"\n", "")),
        &["missing field `marker_j`"],
    );
}

#[test]
fn unknown_field_is_rejected() {
    let err = expect_err(
        Model::from_toml_str(&toml_with("mass = 1.0", "mass = 1.0\ncolour = \"red\"")),
        &["unknown field `colour`"],
    );
    assert_eq!(parse_position(&err).0, Some(8));
    expect_err(
        Model::from_json_str(&json_with(r#""gravity""#, r#""gravty": 1, "gravity""#)),
        &["unknown field `gravty`"],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "type = \"revolute\"",
            "type = \"revolute\"\nlength = 1.0",
        )),
        &["unknown field `length`"],
    );
    expect_err(
        Model::from_toml_str(&toml_with("type = \"revolute\"", "type = \"hinge\"")),
        &["unknown variant `hinge`", "revolute"],
    );
}

#[test]
fn wrong_types_and_shapes() {
    expect_err(
        Model::from_toml_str(&toml_with("mass = 1.0", "mass = \"one\"")),
        &["TOML", "line 7", "invalid type", "string"],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "inertia = [0.01, 0.09, 0.09]",
            "inertia = [0.01, 0.09]",
        )),
        &["line 8", "3 principal moments", "row by row"],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "inertia = [0.01, 0.09, 0.09]",
            "inertia = [0.01, [0.0, 0.09, 0.0], 0.09]",
        )),
        &["mixes numbers and rows"],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "position = [0.5, 0.0, 0.0]",
            "position = [0.5, 0.0, 0.0]\norientation = [1.0, 0.0, 0.0]",
        )),
        &["invalid length 3"],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "position = [0.5, 0.0, 0.0]",
            "position = [0.5, 0.0, 0.0]\norientation = { axis = [0.0, 0.0, 1.0], angel = 1.0 }",
        )),
        &["unknown field `angel`"],
    );
    expect_err(
        Model::from_json_str(&json_with("[0.0, -9.81, 0.0]", "[0.0, -9.81]")),
        &["JSON", "line 3"],
    );
}

#[test]
fn unknown_references_in_files() {
    let err = expect_err(
        Model::from_toml_str(&toml_with(
            "marker_j = \"pivot.link\"",
            "marker_j = \"pivot.lnk\"",
        )),
        &["joint `pivot`", "unknown marker `pivot.lnk`"],
    );
    assert_eq!(
        err,
        ModelError::UnknownReference {
            element: "joint `pivot`".into(),
            kind: "marker",
            name: "pivot.lnk".into()
        }
    );
    expect_err(
        Model::from_json_str(&json_with(r#""body": "link""#, r#""body": "lnik""#)),
        &["marker `pivot.link`", "unknown body `lnik`"],
    );
    let driver = "\n[[drivers]]\ntype = \"joint_angle\"\nname = \"motor\"\njoint = \"pivt\"\nfunction = 0.0\n";
    expect_err(
        Model::from_toml_str(&format!("{PENDULUM_TOML}{driver}")),
        &["driver `motor`", "unknown joint `pivt`"],
    );
    let force = "\n[[forces]]\ntype = \"point_force\"\nname = \"push\"\nmarker = \"tip\"\nforce = [1.0, 0.0, 0.0]\n";
    expect_err(
        Model::from_toml_str(&format!("{PENDULUM_TOML}{force}")),
        &["force `push`", "unknown marker `tip`"],
    );
}

#[test]
fn semantic_errors_in_files() {
    expect_err(
        Model::from_toml_str(&toml_with("mass = 1.0", "mass = 0")),
        &["body `link`", "mass", "got 0"],
    );
    expect_err(
        Model::from_toml_str(&toml_with("mass = 1.0", "mass = -1e3")),
        &["body `link`", "got -1000"],
    );
    expect_err(
        Model::from_toml_str(&toml_with("mass = 1.0", "mass = nan")),
        &["body `link`", "got NaN"],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "gravity = [0.0, -9.81, 0.0]",
            "gravity = [0.0, -inf, 0.0]",
        )),
        &["gravity", "-inf"],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "inertia = [0.01, 0.09, 0.09]",
            "inertia = [[1.0, 0.2, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]",
        )),
        &["body `link`", "not symmetric"],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "inertia = [0.01, 0.09, 0.09]",
            "inertia = [0.01, -0.09, 0.09]",
        )),
        &["body `link`", "smallest eigenvalue -9.0"],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "position = [-0.5, 0.0, 0.0]",
            "position = [-0.5, 0.0, 0.0]\nz = [0.0, 0.0, 0.0]",
        )),
        &["marker `pivot.link`", "zero-length", "[0.0, 0.0, 0.0]"],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "position = [-0.5, 0.0, 0.0]",
            "position = [-0.5, 0.0, 0.0]\nz = [0.0, 0.0, 1.0]\nx = [0.0, 0.0, 0.0]",
        )),
        &["marker `pivot.link`", "x hint"],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "position = [-0.5, 0.0, 0.0]",
            "position = [-0.5, 0.0, 0.0]\nx = [1.0, 0.0, 0.0]",
        )),
        &["marker `pivot.link`", "needs a `z`"],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "position = [-0.5, 0.0, 0.0]",
            "position = [-0.5, 0.0, 0.0]\nz = [0.0, 0.0, 1.0]\norientation = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]",
        )),
        &["marker `pivot.link`", "not both"],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "position = [-0.5, 0.0, 0.0]",
            "position = [-0.5, 0.0, 0.0]\norientation = [[2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]",
        )),
        &["marker `pivot.link`", "not orthonormal"],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "position = [0.5, 0.0, 0.0]",
            "position = [0.5, 0.0, 0.0]\norientation = [0.9, 0.0, 0.0, 0.1]",
        )),
        &["body `link` initial orientation", "unit norm"],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "position = [0.5, 0.0, 0.0]",
            "position = [0.5, 0.0, 0.0]\norientation = { axis = [0.0, 0.0, 0.0], angle = 1.0 }",
        )),
        &[
            "body `link` initial orientation",
            "zero-length",
            "[0.0, 0.0, 0.0]",
        ],
    );
    expect_err(
        Model::from_toml_str(&toml_with(
            "marker_j = \"pivot.link\"",
            "marker_j = \"pivot.ground\"",
        )),
        &["joint `pivot`", "`ground` to itself"],
    );
    expect_err(
        Model::from_toml_str(&toml_with("name = \"link\"", "name = \"ground\"")),
        &["body `ground`", "reserved"],
    );
    let dup = "\n[[bodies]]\nname = \"link\"\nmass = 2.0\ninertia = [1.0, 1.0, 1.0]\n";
    expect_err(
        Model::from_toml_str(&format!("{PENDULUM_TOML}{dup}")),
        &["duplicate body name `link`"],
    );
    let driver = "\n[[drivers]]\ntype = \"point_coordinate\"\nname = \"lift\"\nmarker = \"pivot.link\"\naxis = 5\nfunction = { type = \"harmonic\", amplitude = 1.0, frequency = 2.0 }\n";
    expect_err(
        Model::from_toml_str(&format!("{PENDULUM_TOML}{driver}")),
        &["driver `lift`", "axis", "got 5"],
    );
    let force = "\n[[forces]]\ntype = \"spring_damper\"\nname = \"spring\"\nmarker_i = \"pivot.ground\"\nmarker_j = \"pivot.link\"\nstiffness = -1.0\nfree_length = 0.5\n";
    expect_err(
        Model::from_toml_str(&format!("{PENDULUM_TOML}{force}")),
        &["force `spring`", "stiffness", "got -1"],
    );
}
