//! Robustness of the facade: an inconsistent initial state is assembled (or refused
//! with the documented error), and each class of runtime failure stops the run with
//! an error saying when, where and what, with the samples before it kept.

use mbs::{Error, IntegratorChoice, Simulation};
use mbs_model::{Layout, State};
use nalgebra::Vector3;

fn five_bar_state(dr: Vector3<f64>) -> State {
    let model = mbs::builtin("five-bar").unwrap();
    let mut s = State::initial(&model, Layout::EulerParamsOmega);
    let r = s.position(1) + dr;
    let p = s.euler_params(1);
    s.set_pose(1, &r, &p);
    s.set_velocity(
        2,
        &Vector3::new(0.3, 0.0, 0.0),
        &Vector3::new(0.0, 0.0, 1.0),
    );
    s
}

#[test]
fn inconsistent_initial_state_is_assembled_and_the_run_proceeds() {
    let sim = Simulation::builtin("five-bar")
        .unwrap()
        .initial_state(five_bar_state(Vector3::new(0.01, -0.005, 0.002)))
        .t_end(0.2)
        .samples(10);
    let traj = sim.run().unwrap();
    let note = traj.initial_assembly.clone().expect("assembly reported");
    assert!(note.contains("assembled"), "{note}");
    assert!(traj.phi_norm[0] <= 1e-12, "‖Φ(0)‖ = {:e}", traj.phi_norm[0]);
    assert!(
        traj.phi_dot_norm[0] <= 1e-12,
        "‖Φ̇(0)‖ = {:e}",
        traj.phi_dot_norm[0]
    );
}

#[test]
fn far_initial_state_gives_the_documented_error() {
    let sim = Simulation::builtin("five-bar")
        .unwrap()
        .initial_state(five_bar_state(Vector3::new(3.0, 5.0, 0.0)))
        .t_end(0.2);
    let err = sim.run().unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, Error::InconsistentInitialState(_)), "{err:?}");
    assert!(
        msg.contains("inconsistent initial state") && msg.contains("joint `"),
        "{msg}"
    );
    assert_eq!(err.exit_code(), 2);
}

/// Runs `sim`, expects a failure after some samples, returns the message.
fn failure_after_samples(sim: Simulation) -> String {
    match sim.run() {
        Err(Error::SimulationFailed(f)) => {
            assert!(!f.trajectory.is_empty(), "the partial trajectory is kept");
            let dir = std::env::temp_dir().join(format!("mbs-failure-{}", std::process::id()));
            let files = f.trajectory.write_all(&dir).unwrap();
            assert!(files.iter().all(|p| p.is_file()));
            let msg = f.error.to_string();
            assert!(msg.contains("t = "), "{msg}");
            msg
        }
        other => panic!("expected a failed simulation, got {other:?}"),
    }
}

#[test]
fn iteration_cap_failure_names_time_and_joint() {
    // ALF-INDEX3 with a single Newton iteration cannot converge
    let sim = Simulation::builtin("double-pendulum")
        .unwrap()
        .method("alf-index3:iter=1".parse().unwrap())
        .integrator(IntegratorChoice::Trapezoidal { h: 0.01 })
        .t_end(1.0)
        .samples(10);
    let msg = failure_after_samples(sim);
    assert!(
        msg.contains("did not converge") && msg.contains("joint `"),
        "{msg}"
    );
}

#[test]
fn a_model_the_method_cannot_handle_is_refused_naming_the_joint() {
    // HDCA has no motion subspace for the crank-slider's curved-path joint `slider`;
    // (dependent constraint rows in the strict Lagrange KKT solve are named by
    // `mbs-alf`'s own test `lagrange_reports_redundant_joints_and_alf_handles_them`)
    let sim = Simulation::builtin("crank-slider")
        .unwrap()
        .method("hdca".parse().unwrap())
        .t_end(0.1);
    let err = sim.run().unwrap_err();
    assert_eq!(err.exit_code(), 2);
    let msg = err.to_string();
    assert!(msg.contains("slider") && msg.contains("path"), "{err}");
}

/// A dense front-end on a model whose dense matrices do not fit in memory is refused
/// before it allocates, naming the method, the sizes and what to use instead, where
/// the kernel would otherwise kill the process (a 20 000-link chain: a dense KKT
/// matrix of ≈ 280 000² entries, ≈ 600 GB); the same model runs with `aba`.
#[cfg(target_os = "linux")]
#[test]
fn a_dense_method_on_a_model_too_large_for_memory_is_refused_before_allocating() {
    let spec = "chain:n=20000,length=0.2,mass=1,inertia=0.25,gravity=9.81";
    for method in [
        "lagrange",
        "alf",
        "penalty",
        "complement-qr",
        "natural-partitioning",
    ] {
        let sim = Simulation::builtin(spec)
            .unwrap()
            .method(method.parse().unwrap())
            .t_end(1e-3);
        let err = sim.run().unwrap_err();
        assert_eq!(err.exit_code(), 2, "{method}: {err}");
        let msg = err.to_string();
        assert!(
            msg.contains(method) && msg.contains("GB") && msg.contains("aba"),
            "{method}: {msg}"
        );
    }
    let traj = Simulation::builtin(spec)
        .unwrap()
        .method("aba".parse().unwrap())
        .t_end(1e-4)
        .samples(2)
        .run()
        .unwrap();
    assert!((traj.t.last().copied().unwrap_or(0.0) - 1e-4).abs() < 1e-12);
}
