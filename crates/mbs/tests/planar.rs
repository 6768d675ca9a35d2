//! The method `planar` ((x, y, θ) per body, in-plane rows only) against `alf-index1`
//! (7 + 7 coordinates per body, every 3-D row) on every built-in mechanism it accepts,
//! and its refusal of spatial models, naming the element and the value.

use mbs::{IntegratorChoice, Method, Simulation, Trajectory};
use mbs_model::{BodyRef, JointKind, ModelBuilder};
use nalgebra::{Matrix3, Vector3};

fn run(model: &mbs::Model, method: &str, t_end: f64) -> Result<Trajectory, mbs::Error> {
    let method: Method = method.parse().unwrap();
    Simulation::new(model.clone())
        .method(method)
        .integrator(IntegratorChoice::Rk45 {
            rtol: 1e-11,
            atol: 1e-11,
        })
        .t_end(t_end)
        .samples(50)
        .run()
}

/// The planar built-in mechanisms move as with `alf-index1` to 1e-8 m over 1 s (RK45
/// at 1e-11; measured: at most 2.3e-11 m, on the two four-bars); the registry's
/// spatial and distance-joint mechanisms are refused by name.
#[test]
fn planar_agrees_with_alf_index1_on_the_planar_built_ins() {
    for name in [
        "five-bar",
        "double-loop",
        "five-bar-singular",
        "hdca-case1",
        "double-pendulum",
        "two-four-bars",
        "five-link-chain",
        "crank-slider",
    ] {
        let model = mbs::builtin(name).unwrap();
        let planar = run(&model, "planar", 1.0).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(planar.failure.is_none(), "{name}: {:?}", planar.failure);
        let spatial = run(&model, "alf-index1", 1.0).unwrap();
        assert!(spatial.failure.is_none(), "{name}: {:?}", spatial.failure);
        let mut worst = 0.0_f64;
        for k in 0..planar.len() {
            for i in 0..planar.n_bodies() {
                worst = worst.max((planar.position(k, i) - spatial.position(k, i)).norm());
            }
        }
        eprintln!("{name}: planar vs alf-index1: largest |Δr| {worst:.2e} m");
        assert!(worst < 1e-8, "{name}: |Δr| = {worst:e}");
        assert!(
            planar.max_phi() < 1e-8,
            "{name}: ‖Φ‖ = {}",
            planar.max_phi()
        );
    }
    for name in ["cartesian-pendulum", "spatial-four-bar", "bowling-ball"] {
        let e = run(&mbs::builtin(name).unwrap(), "planar", 0.1).unwrap_err();
        assert!(e.to_string().contains("`"), "{name}: {e}");
    }
}

/// The five-bar in the plane: 3 × 4 coordinates and 2 × 5 rows, against 7 × 4 and
/// 5 × 5 (+ 4 Euler-parameter normalizations) in 3-D.
#[test]
fn five_bar_has_three_coordinates_per_body_and_no_out_of_plane_rows() {
    let model = mbs::builtin("five-bar").unwrap();
    let p = mbs::planar::PlanarModel::new(&model).unwrap();
    assert_eq!(3 * p.bodies.len(), 12);
    assert_eq!(p.rows(), 10);
    assert_eq!(mbs::check(&model).holonomic_rows, 25);
}

/// Spatial models are refused with the element and the value: a body turned out of
/// the plane (the spatial four-bar), a spherical joint, a revolute axis along x, an
/// out-of-plane initial velocity.
#[test]
fn spatial_models_are_refused_by_name() {
    let e = run(&mbs::builtin("spatial-four-bar").unwrap(), "planar", 0.1)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("body `bar1` initial orientation") && e.contains("0.7071"),
        "{e}"
    );

    let pendulum = |kind: JointKind, axis: Vector3<f64>, vz: f64| {
        let mut b = ModelBuilder::new("pendulum");
        b.gravity(Vector3::new(0.0, -9.81, 0.0));
        let link = b.body("link", 1.0, Matrix3::from_diagonal_element(0.1));
        b.set_initial_pose(
            link,
            Vector3::new(0.5, 0.0, 0.0),
            mbs_kinematics::euler_params::identity(),
        );
        b.set_initial_velocity(link, Vector3::new(0.0, 0.0, vz), Vector3::zeros());
        b.joint_at(
            "pivot",
            kind,
            BodyRef::Ground,
            BodyRef::Body(link),
            Vector3::zeros(),
            axis,
        );
        b.build().unwrap()
    };
    let e = run(
        &pendulum(JointKind::Spherical, Vector3::z(), 0.0),
        "planar",
        0.1,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("joint `pivot`") && e.contains("a spherical joint has no in-plane form"),
        "{e}"
    );
    let e = run(
        &pendulum(JointKind::Revolute, Vector3::x(), 0.0),
        "planar",
        0.1,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("joint `pivot`") && e.contains("z axis") && e.contains("[1.0, 0.0, 0.0]"),
        "{e}"
    );
    let e = run(
        &pendulum(JointKind::Revolute, Vector3::z(), 0.5),
        "planar",
        0.1,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("body `link` initial velocity") && e.contains("0.5"),
        "{e}"
    );
    // the same pendulum in the plane runs
    let t = run(
        &pendulum(JointKind::Revolute, Vector3::z(), 0.0),
        "planar",
        0.1,
    )
    .unwrap();
    assert!(t.failure.is_none());
}
