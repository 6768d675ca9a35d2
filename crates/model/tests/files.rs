//! Model files: the examples load, and Model → JSON/TOML → Model is exact.

use std::path::PathBuf;

use mbs_kinematics::euler_params::from_axis_angle;
use mbs_model::{
    BodyRef, DriverKind, FileFormat, ForceElement, JointKind, LoadFrame, Model, ModelBuilder,
    ModelError, TimeFunction,
};
use nalgebra::{Matrix3, Vector3};
use proptest::prelude::*;

fn examples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/models")
}

fn assert_round_trips(model: &Model) {
    let json = model.to_json_string();
    let back = Model::from_json_str(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(&back, model, "JSON round trip\n{json}");
    let toml = model.to_toml_string();
    let back = Model::from_toml_str(&toml).unwrap_or_else(|e| panic!("{e}\n{toml}"));
    assert_eq!(&back, model, "TOML round trip\n{toml}");
    // and across formats
    let via_both =
        Model::from_toml_str(&Model::from_json_str(&json).unwrap().to_toml_string()).unwrap();
    assert_eq!(&via_both, model);
}

#[test]
fn example_double_pendulum_toml_loads() {
    let m = Model::load(examples_dir().join("double_pendulum.toml")).unwrap();
    assert_eq!(m.name(), "double pendulum");
    assert_eq!(m.n_bodies(), 2);
    assert_eq!(m.joints().len(), 2);
    assert_eq!(m.gravity(), Vector3::new(0.0, -9.81, 0.0));
    let t = m.topology();
    assert_eq!(t.n_loops(), 0);
    assert_eq!(t.grubler_mobility(), 2);
    // the axis–angle orientation of link2 is the identity
    assert_eq!(
        m.body(m.body_by_name("link2").unwrap()).initial.orientation,
        mbs_kinematics::euler_params::identity()
    );
    assert_round_trips(&m);
}

#[test]
fn example_four_bar_json_loads() {
    let m = Model::load(examples_dir().join("four_bar.json")).unwrap();
    assert_eq!(m.n_bodies(), 3);
    assert_eq!(m.joints().len(), 4);
    assert_eq!(m.forces().len(), 2);
    let t = m.topology();
    assert_eq!(t.n_loops(), 1);
    assert_eq!(t.grubler_mobility(), 18 - 20);
    // the full-matrix inertia of the rocker is read row by row
    let rocker = m.body(m.body_by_name("rocker").unwrap());
    assert_eq!(rocker.inertia[(1, 1)], 0.001);
    // crank: rotated by π/2 about z, its marker B is at the global point (0, 1, 0)
    let crank = m.body(m.body_by_name("crank").unwrap());
    let a = mbs_kinematics::euler_params::rotation(&crank.initial.orientation);
    let b = m.marker(m.marker_by_name("B.crank").unwrap());
    let global = crank.initial.position + a * b.position;
    assert!((global - Vector3::new(0.0, 1.0, 0.0)).norm() < 1e-15);
    assert_round_trips(&m);
}

#[test]
fn save_and_load_both_formats() {
    let m = Model::load(examples_dir().join("four_bar.json")).unwrap();
    let dir = std::env::temp_dir().join(format!("mbs-model-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for ext in ["json", "toml", "TOML"] {
        let path = dir.join(format!("four_bar.{ext}"));
        m.save(&path).unwrap();
        assert_eq!(Model::load(&path).unwrap(), m);
    }
    let err = m.save(dir.join("four_bar.yaml")).unwrap_err();
    assert!(matches!(err, ModelError::Unsupported { .. }), "{err}");
    assert!(err.to_string().contains("four_bar.yaml"), "{err}");
    let err = Model::load(dir.join("missing.toml")).unwrap_err();
    assert!(matches!(err, ModelError::Io { .. }), "{err}");
    assert!(
        err.to_string().contains("missing.toml") && err.to_string().contains("cannot read"),
        "{err}"
    );
    let err = m.save(dir.join("no/such/dir/m.json")).unwrap_err();
    assert!(
        matches!(err, ModelError::Io { .. }) && err.to_string().contains("cannot write"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        FileFormat::from_path(std::path::Path::new("a/b.Json")),
        Some(FileFormat::Json)
    );
    assert_eq!(FileFormat::from_path(std::path::Path::new("noext")), None);
}

/// A model with every joint kind, force element, driver and time function, and
/// awkward numbers.
fn everything_model() -> Model {
    let mut b = ModelBuilder::new("everything — \"quoted\" ünïcode");
    b.gravity(Vector3::new(0.1 + 0.2, -9.80665, 1e-300));
    let j_full = Matrix3::new(2.0, 0.1, -0.2, 0.1, 3.0, 1.0 / 3.0, -0.2, 1.0 / 3.0, 4.0);
    let bodies: Vec<_> = (0..6)
        .map(|i| {
            let id = b.body(
                format!("b{i}"),
                1.0 + i as f64 / 7.0,
                if i % 2 == 0 {
                    j_full
                } else {
                    Matrix3::from_diagonal(&Vector3::new(5e-324 + 1.0, 2.0, 3.0))
                },
            );
            b.set_initial_pose(
                id,
                Vector3::new(i as f64 * 0.3, 1e300 / (1.0 + i as f64), -0.0),
                from_axis_angle(
                    &Vector3::new(1.0, 2.0 + i as f64, -0.5),
                    0.1 * i as f64 + 0.05,
                ),
            );
            b.set_initial_velocity(
                id,
                Vector3::new(std::f64::consts::PI, 0.0, -1e-17),
                Vector3::new(0.0, 0.0, i as f64 / 3.0),
            );
            id
        })
        .collect();
    let g = BodyRef::Ground;
    let body = |i: usize| BodyRef::Body(bodies[i]);
    let axis = Vector3::new(0.3, -0.4, 1.0);
    let j_rev = b.joint_at(
        "rev",
        JointKind::Revolute,
        g,
        body(0),
        Vector3::new(0.1, 0.2, 0.3),
        axis,
    );
    b.joint_at(
        "sph",
        JointKind::Spherical,
        body(0),
        body(1),
        Vector3::new(0.7, 0.1, 0.0),
        axis,
    );
    b.joint_at(
        "uni",
        JointKind::Universal,
        body(1),
        body(2),
        Vector3::new(1.0, 0.0, 0.0),
        Vector3::x(),
    );
    let j_cyl = b.joint_at(
        "cyl",
        JointKind::Cylindrical,
        body(2),
        body(3),
        Vector3::new(1.3, 0.0, 0.0),
        Vector3::y(),
    );
    let j_pri = b.joint_at(
        "pri",
        JointKind::Prismatic,
        body(3),
        body(4),
        Vector3::new(1.6, 0.0, 0.0),
        Vector3::z(),
    );
    b.joint_at(
        "rig",
        JointKind::Rigid,
        body(4),
        body(5),
        Vector3::new(1.9, 0.0, 0.0),
        Vector3::z(),
    );
    b.joint_at(
        "dis",
        JointKind::Distance { length: 1.0 / 3.0 },
        body(5),
        body(0),
        Vector3::zeros(),
        Vector3::z(),
    );
    b.joint_at(
        "roll",
        JointKind::RollingSphere { radius: 0.109 },
        body(5),
        g,
        Vector3::zeros(),
        Vector3::z(),
    );
    b.joint_at(
        "wheel",
        JointKind::RollingDisc { radius: 0.3 },
        body(4),
        g,
        Vector3::new(0.0, 0.1, 0.0),
        Vector3::y(),
    );
    b.joint_at(
        "sine",
        JointKind::SinePath {
            amplitude: 0.25,
            wavenumber: 2.0 / 3.0,
        },
        body(1),
        g,
        Vector3::zeros(),
        Vector3::z(),
    );
    let m0 = b.marker(
        "m0",
        body(0),
        Vector3::new(0.1, 0.0, 0.0),
        Matrix3::identity(),
    );
    let m1 = b.marker(
        "m1",
        body(1),
        Vector3::new(-0.1, 0.0, 0.0),
        mbs_kinematics::euler_params::rotation(&from_axis_angle(&Vector3::x(), 0.3)),
    );
    let mg = b.marker("mg", g, Vector3::new(0.0, 2.0, 0.0), Matrix3::identity());
    let harmonic = TimeFunction::Harmonic {
        amplitude: 0.5,
        frequency: 2.0 * std::f64::consts::PI,
        phase: 0.1,
        offset: -0.25,
    };
    let poly = TimeFunction::Polynomial {
        coefficients: vec![0.0, 1.0, -0.5, 1.0 / 7.0],
    };
    let step = TimeFunction::SmoothStep {
        t0: 0.1,
        t1: 1.3,
        from: -1.0,
        to: 2.0,
    };
    b.force(ForceElement::PointForce {
        name: "pf".into(),
        marker: m0,
        force: [
            TimeFunction::constant(1.5),
            harmonic.clone(),
            TimeFunction::constant(0.0),
        ],
        frame: LoadFrame::Marker,
    });
    b.force(ForceElement::Torque {
        name: "tq".into(),
        marker: m1,
        torque: [poly.clone(), step.clone(), TimeFunction::constant(-2.0)],
        frame: LoadFrame::Global,
    });
    b.force(ForceElement::SpringDamper {
        name: "sd".into(),
        marker_i: mg,
        marker_j: m0,
        stiffness: 100.0,
        damping: 0.3,
        free_length: 0.5,
        actuator: TimeFunction::Sum {
            terms: vec![
                harmonic.clone(),
                poly.clone(),
                TimeFunction::Sum { terms: vec![] },
            ],
        },
    });
    b.force(ForceElement::SpringDamper {
        name: "sd0".into(),
        marker_i: mg,
        marker_j: m1,
        stiffness: 0.0,
        damping: 0.0,
        free_length: 0.0,
        actuator: TimeFunction::default(),
    });
    b.force(ForceElement::RotationalSpringDamper {
        name: "rsd".into(),
        joint: j_rev,
        stiffness: 2.0,
        damping: 0.1,
        free_angle: -0.3,
        actuator: step.clone(),
    });
    b.force(ForceElement::UnilateralSpring {
        name: "tire".into(),
        marker_i: mg,
        marker_j: m1,
        stiffness: 1e8,
        damping: 10.0,
        free_length: 0.3,
    });
    b.driver("d_angle", DriverKind::JointAngle { joint: j_rev }, harmonic);
    b.driver(
        "d_cyl",
        DriverKind::JointAngle { joint: j_cyl },
        TimeFunction::Constant { value: 0.25 },
    );
    b.driver(
        "d_trans",
        DriverKind::JointTranslation { joint: j_pri },
        poly,
    );
    b.driver(
        "d_point",
        DriverKind::PointCoordinate {
            marker: m1,
            axis: 2,
        },
        step,
    );
    b.build().unwrap()
}

#[test]
fn everything_round_trips_exactly() {
    let m = everything_model();
    assert_round_trips(&m);
}

#[test]
fn toml_and_json_have_the_documented_shape() {
    let m = Model::load(examples_dir().join("double_pendulum.toml")).unwrap();
    let toml = m.to_toml_string();
    assert!(toml.contains("[[bodies]]"), "{toml}");
    assert!(toml.contains("type = \"revolute\""), "{toml}");
    assert!(toml.contains("body = \"ground\""), "{toml}");
    let json: serde_json::Value = serde_json::from_str(&m.to_json_string()).unwrap();
    assert_eq!(json["joints"][0]["marker_i"], "O.ground");
    assert_eq!(json["bodies"][0]["inertia"][1], 0.08333333333333333);
}

fn finite_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_filter("finite", |x| x.is_finite()),
        -10.0..10.0f64,
        Just(0.1),
        Just(-0.0),
        Just(f64::MIN_POSITIVE),
        Just(5e-324),
        Just(f64::MAX),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Any finite numbers survive both formats bit for bit.
    #[test]
    fn random_numbers_round_trip(
        pos in prop::array::uniform3(finite_f64()),
        vel in prop::array::uniform3(finite_f64()),
        mass in (1e-300..1e300f64),
        marker_pos in prop::array::uniform3(finite_f64()),
        value in finite_f64(),
        coefficients in prop::collection::vec(finite_f64(), 0..5),
        axis in prop::array::uniform3(-1.0..1.0f64),
        angle in -10.0..10.0f64,
    ) {
        prop_assume!(axis.iter().any(|a| a.abs() > 1e-3));
        let mut b = ModelBuilder::new("random");
        b.gravity(Vector3::from(vel));
        let id = b.body("b", mass, Matrix3::from_diagonal(&Vector3::new(mass, 2.0 * mass, 1.5 * mass)));
        b.set_initial_pose(id, Vector3::from(pos), from_axis_angle(&Vector3::from(axis), angle));
        b.set_initial_velocity(id, Vector3::from(vel), Vector3::from(pos));
        let m = b.marker("m", BodyRef::Body(id), Vector3::from(marker_pos), mbs_kinematics::euler_params::rotation(&from_axis_angle(&Vector3::from(axis), angle)));
        b.force(ForceElement::PointForce { name: "f".into(), marker: m, force: [TimeFunction::constant(value), TimeFunction::Polynomial { coefficients }, TimeFunction::constant(0.0)], frame: LoadFrame::Global });
        let model = b.build().unwrap();
        let back = Model::from_json_str(&model.to_json_string()).unwrap();
        prop_assert_eq!(&back, &model);
        let back = Model::from_toml_str(&model.to_toml_string()).unwrap();
        prop_assert_eq!(&back, &model);
    }
}

#[test]
fn integers_are_accepted_for_numbers() {
    let m = Model::from_toml_str(
        r#"
        gravity = [0, -10, 0]
        [[bodies]]
        name = "b"
        mass = 2
        inertia = [[1, 0, 0], [0, 2, 0], [0, 0, 3]]
        position = [1, 2, 3]
        [[markers]]
        name = "m"
        body = "b"
        [[forces]]
        type = "point_force"
        name = "f"
        marker = "m"
        force = [1, -2, { type = "polynomial", coefficients = [0, 1] }]
        "#,
    )
    .unwrap();
    assert_eq!(m.body(mbs_model::BodyId(0)).mass, 2.0);
    assert_eq!(
        m.body(mbs_model::BodyId(0)).inertia,
        Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0))
    );
    assert_eq!(m.gravity(), Vector3::new(0.0, -10.0, 0.0));
    assert_round_trips(&m);
}

#[test]
fn json_output_keeps_number_arrays_on_one_line() {
    let m = Model::load(examples_dir().join("double_pendulum.toml")).unwrap();
    let json = m.to_json_string();
    assert!(json.contains(r#""gravity": [0.0, -9.81, 0.0]"#), "{json}");
    assert!(
        json.contains(r#""orientation": [1.0, 0.0, 0.0, 0.0]"#),
        "{json}"
    );
}

/// A pendulum as a JSON value, to vary for the format-agreement table.
fn pendulum_value() -> serde_json::Value {
    serde_json::json!({
        "name": "pendulum",
        "gravity": [0.0, -9.81, 0.0],
        "bodies": [{
            "name": "link", "mass": 1.0, "inertia": [0.01, 0.09, 0.09],
            "position": [0.5, 0.0, 0.0], "orientation": [1.0, 0.0, 0.0, 0.0]
        }],
        "markers": [
            {"name": "pivot.ground", "body": "ground", "z": [0.0, 0.0, 1.0]},
            {"name": "pivot.link", "body": "link", "position": [-0.5, 0.0, 0.0]}
        ],
        "joints": [{"type": "revolute", "name": "pivot",
                    "marker_i": "pivot.ground", "marker_j": "pivot.link"}],
        "forces": [{"type": "point_force", "name": "push", "marker": "pivot.link",
                    "force": [0.0, 1.0, 0.0]}]
    })
}

#[test]
fn toml_and_json_accept_exactly_the_same_documents() {
    // (JSON pointer, replacement, accepted)
    let v = |x: serde_json::Value| x;
    let cases = [
        ("/gravity", v(serde_json::json!([0.0, -9.81, 0.0])), true),
        (
            "/gravity",
            v(serde_json::json!([0.0, -9.81, 0.0, 1.0])),
            false,
        ),
        ("/gravity", v(serde_json::json!([0.0, -9.81])), false),
        (
            "/bodies/0/position",
            v(serde_json::json!([0.5, 0.0, 0.0, 0.0])),
            false,
        ),
        (
            "/bodies/0/position",
            v(serde_json::json!([0.5, 0.0, 0.0, 0.0, 0.0])),
            false,
        ),
        (
            "/bodies/0/orientation",
            v(serde_json::json!([1.0, 0.0, 0.0, 0.0, 0.0])),
            false,
        ),
        (
            "/bodies/0/orientation",
            v(serde_json::json!([1.0, 0.0, 0.0])),
            false,
        ),
        (
            "/bodies/0/inertia",
            v(serde_json::json!([0.01, 0.09, 0.09, 0.09])),
            false,
        ),
        (
            "/bodies/0/inertia",
            v(serde_json::json!([
                [0.01, 0.0, 0.0, 0.0],
                [0.0, 0.09, 0.0],
                [0.0, 0.0, 0.09]
            ])),
            false,
        ),
        (
            "/markers/0/z",
            v(serde_json::json!([0.0, 0.0, 1.0, 0.0])),
            false,
        ),
        (
            "/markers/1/position",
            v(serde_json::json!([-0.5, 0.0, 0.0, 7.0])),
            false,
        ),
        (
            "/forces/0/force",
            v(serde_json::json!([0.0, 1.0, 0.0, 2.0])),
            false,
        ),
        (
            "/bodies/0/velocity",
            v(serde_json::json!([0.0, 0.0, 0.0, 0.0])),
            false,
        ),
        (
            "/bodies/0/omega",
            v(serde_json::json!([0.0, 0.0, 1.0])),
            true,
        ),
    ];
    for (pointer, replacement, accepted) in cases {
        let mut doc = pendulum_value();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        let target = doc.pointer_mut(parent).unwrap();
        match target {
            serde_json::Value::Object(o) => {
                o.insert(key.to_string(), replacement.clone());
            }
            _ => panic!("{pointer}"),
        }
        let json = serde_json::to_string(&doc).unwrap();
        let toml = toml::to_string(&doc).unwrap();
        let (j, t) = (Model::from_json_str(&json), Model::from_toml_str(&toml));
        assert_eq!(j.is_ok(), accepted, "JSON {pointer} = {replacement}: {j:?}");
        assert_eq!(
            t.is_ok(),
            accepted,
            "TOML {pointer} = {replacement}: {t:?}\n{toml}"
        );
        if !accepted {
            let e = t.unwrap_err().to_string();
            // the length named (an inertia row, read by an untagged enum, says what
            // it expects)
            assert!(
                e.contains("invalid length") || e.contains("a row of 3 numbers"),
                "{pointer}: {e}"
            );
        }
    }
}

#[test]
fn bad_euler_parameters_name_the_body_and_the_orientation() {
    for (p, shown) in [
        ("[nan, 0.0, 0.0, 0.0]", "NaN"),
        ("[0.0, 0.0, 0.0, 0.0]", "0"),
    ] {
        let text = format!(
            "[[bodies]]\nname = \"crank\"\nmass = 1.0\ninertia = [1.0, 1.0, 1.0]\norientation = {p}\n"
        );
        let e = Model::from_toml_str(&text).unwrap_err().to_string();
        assert!(
            e.contains("body `crank`") && e.contains("orientation") && e.contains("Euler"),
            "{e}"
        );
        assert!(e.contains(&format!("‖p‖ = {shown}")), "{e}");
        assert!(!e.contains("position"), "{e}");
    }
}

#[test]
fn models_without_bodies_are_refused() {
    for text in ["", "name = \"x\"\ngravity = [0.0, -9.81, 0.0]\n"] {
        let e = Model::from_toml_str(text).unwrap_err().to_string();
        assert!(e.contains("`bodies`: none given"), "{e}");
    }
    let e = Model::from_json_str("{}").unwrap_err().to_string();
    assert!(e.contains("`bodies`: none given"), "{e}");
}
