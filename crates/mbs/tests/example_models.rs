//! The model files of `examples/models` that reproduce built-in mechanisms load,
//! validate, start consistent, and simulate the same as their built-ins.

use std::path::PathBuf;

use mbs::model::Model;
use mbs::{IntegratorChoice, Simulation, Trajectory};

fn example(file: &str) -> Model {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/models")
        .join(file);
    Model::load(&path).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn run(model: Model, t_end: f64) -> Trajectory {
    Simulation::new(model)
        .method("complement-qr".parse().unwrap())
        .integrator(IntegratorChoice::Rk45 {
            rtol: 1e-10,
            atol: 1e-10,
        })
        .t_end(t_end)
        .samples(50)
        .run()
        .map_err(|e| e.to_string())
        .unwrap()
}

/// The file's bodies are the built-in's (by name): mass, moment of inertia about z (the
/// normal of the plane of motion of these planar models: the other moments never enter
/// the motion), initial pose and velocities; the initial state is consistent; and the
/// two simulate the same motion, every body's centre of mass and Euler parameters at
/// every sample to `tol` (both runs see the same equations; they differ only by
/// round-off in how the marker frames are written, which RK45 at 1e-10 amplifies to
/// its own error level at most).
fn assert_same_as_builtin(file: &str, builtin: &str, t_end: f64, tol: f64) {
    let ours = example(file);
    let theirs = mbs::builtin(builtin).unwrap();
    assert_eq!(ours.n_bodies(), theirs.n_bodies(), "{file}");
    assert_eq!(ours.joints().len(), theirs.joints().len(), "{file}");
    assert_eq!(ours.forces().len(), theirs.forces().len(), "{file}");
    assert_eq!(ours.gravity(), theirs.gravity(), "{file}");
    let report = mbs::check(&ours);
    assert!(report.initial_state_consistent(), "{file}: {report:?}");
    for b in theirs.bodies() {
        let id = ours
            .body_by_name(&b.name)
            .unwrap_or_else(|| panic!("{file}: no body {}", b.name));
        let o = ours.body(id);
        assert_eq!(o.mass, b.mass, "{file}: {}", b.name);
        assert!(
            (o.inertia[(2, 2)] - b.inertia[(2, 2)]).abs() <= 1e-15 * b.inertia[(2, 2)],
            "{file}: {} J_zz {} vs {}",
            b.name,
            o.inertia[(2, 2)],
            b.inertia[(2, 2)]
        );
        let (oi, bi) = (&o.initial, &b.initial);
        let pose = (oi.position - bi.position)
            .norm()
            .max((oi.orientation - bi.orientation).norm())
            .max((oi.velocity - bi.velocity).norm())
            .max((oi.omega - bi.omega).norm());
        assert!(
            pose < 1e-15,
            "{file}: {} initial state differs by {pose}",
            b.name
        );
    }
    let (a, b) = (run(ours, t_end), run(theirs, t_end));
    let mut worst = 0.0_f64;
    for name in &b.body_names {
        let (i, j) = (a.body_index(name).unwrap(), b.body_index(name).unwrap());
        for k in 0..b.len() {
            worst = worst
                .max((a.position(k, i) - b.position(k, j)).norm())
                .max((a.euler_params(k, i) - b.euler_params(k, j)).norm());
        }
    }
    eprintln!("{file}: largest difference from `{builtin}` over {t_end} s: {worst:.2e}");
    assert!(worst < tol, "{file}: differs from `{builtin}` by {worst}");
}

#[test]
fn andrews_squeezer_file_is_the_builtin() {
    assert_same_as_builtin("andrews_squeezer.toml", "andrews-squeezer", 0.03, 1e-10);
}

#[test]
fn cartesian_pendulum_file_is_the_builtin() {
    assert_same_as_builtin("cartesian_pendulum.toml", "cartesian-pendulum", 10.0, 1e-10);
}

#[test]
fn double_pendulum_file_is_the_builtin() {
    assert_same_as_builtin("double_pendulum.toml", "double-pendulum", 3.0, 1e-10);
}
