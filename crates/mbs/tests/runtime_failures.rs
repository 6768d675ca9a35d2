//! Runtime failure classes (robustness issue, acceptance 2): each stops the run with an
//! error saying when (t), where (body / state component) and what, and the trajectory
//! up to the failure is kept (in the error and, for the CLI, in the written files).

use std::path::{Path, PathBuf};
use std::process::Command;

use mbs::{Error, Simulation, Trajectory};
use mbs_model::{BodyRef, ForceElement, Layout, LoadFrame, MarkerId, Model, State, TimeFunction};

/// The double pendulum with a point force on `link1` whose x component is
/// `c t − c t` with c = 1.7e308: exactly zero until c t overflows (t > 1.0576), then
/// ∞ − ∞ = NaN.
fn pendulum_with_nan_force() -> Model {
    let mut parts = mbs::builtin("double-pendulum").unwrap().to_parts();
    let k = parts
        .markers
        .iter()
        .position(|m| m.body != BodyRef::Ground)
        .unwrap();
    let c = 1.7e308;
    let fx = TimeFunction::Sum {
        terms: vec![
            TimeFunction::Polynomial {
                coefficients: vec![0.0, c],
            },
            TimeFunction::Polynomial {
                coefficients: vec![0.0, -c],
            },
        ],
    };
    parts.forces.push(ForceElement::PointForce {
        name: "overflowing".into(),
        marker: MarkerId(k),
        force: [fx, TimeFunction::constant(0.0), TimeFunction::constant(0.0)],
        frame: LoadFrame::Global,
    });
    Model::from_parts(parts).unwrap()
}

/// The time at which the NaN force appears: c t > f64::MAX.
const NAN_TIME: f64 = f64::MAX / 1.7e308;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mbs-runtime-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Expects a failed run; checks the partial trajectory (starts at t0, every sample
/// before the failure time, the files are written) and returns the message, the
/// failure time and the trajectory.
fn failed(sim: &Simulation, name: &str) -> (String, f64, Trajectory) {
    let t0 = sim.initial().t;
    match sim.run() {
        Err(Error::SimulationFailed(f)) => {
            let msg = f.error.to_string();
            let t_fail = f.error.t.expect("the failure time is known");
            let traj = f.trajectory;
            assert!(!traj.is_empty(), "{msg}: the partial trajectory is kept");
            assert_eq!(traj.t[0], t0, "{msg}");
            // exactly the requested output times up to the failure
            let times = sim.output_times().unwrap();
            let before: Vec<f64> = times.into_iter().filter(|&t| t <= t_fail).collect();
            assert_eq!(traj.t, before, "{msg}");
            assert_eq!(traj.failure.as_deref(), Some(msg.as_str()));
            let files = traj.write_all(&tmp(name)).unwrap();
            assert!(files.iter().all(|p| p.is_file()));
            (msg, t_fail, traj)
        }
        other => panic!("expected a failed simulation, got {other:?}"),
    }
}

#[test]
fn non_finite_force_names_time_and_body_and_keeps_the_samples_before() {
    for method in ["alf-index1", "lagrange", "penalty", "complement-qr", "hdca"] {
        let mut sim = Simulation::new(pendulum_with_nan_force())
            .method(method.parse().unwrap())
            .t_end(1.5)
            .samples(15);
        if method == "penalty" {
            // Chiou's own rule: at the default RK45 tolerance (1e-6) the penalty
            // motion's O(ε) deflection stops the run before the force fails
            sim = sim.integrator(mbs::IntegratorChoice::Staggered { h: 1e-3 });
        }
        let (msg, t, traj) = failed(&sim, method);
        assert!(
            msg.contains("non-finite") && msg.contains("body `link1`"),
            "{method}: {msg}"
        );
        assert!(
            msg.starts_with(&format!("at t = {t}")) && (NAN_TIME..NAN_TIME + 0.01).contains(&t),
            "{method}: {msg}"
        );
        // samples every 0.1 up to t = 1.0, all before the failure
        assert_eq!(traj.len(), 11, "{method}: {:?}", traj.t);
        assert!((traj.t[10] - 1.0).abs() < 1e-12);
        assert!(traj.total_energy.iter().all(|e| e.is_finite()));
    }
}

#[test]
fn non_finite_alf_message_names_the_applied_force() {
    let sim = Simulation::new(pendulum_with_nan_force())
        .method("alf-index1".parse().unwrap())
        .t_end(1.5)
        .samples(15);
    let (msg, _, _) = failed(&sim, "alf-force");
    assert!(
        msg.contains(
            "non-finite applied force: generalized force on body `link1` coordinate x is NaN"
        ),
        "{msg}"
    );
}

/// The double pendulum started at t₀ = `t0`: the smallest step representable there,
/// 16 ε t₀, exceeds what the tolerance allows.
fn late_pendulum(t0: f64, integrator: &str, method: &str) -> Simulation {
    let model = mbs::builtin("double-pendulum").unwrap();
    let mut s = State::initial(&model, Layout::EulerParamsPdot);
    s.t = t0;
    Simulation::new(model)
        .initial_state(s)
        .method(method.parse().unwrap())
        .integrator(integrator.parse().unwrap())
        .t_end(t0 + 2.0)
        .samples(20)
}

#[test]
fn step_size_underflow_names_time_step_and_component() {
    let t0 = 1e12;
    for integrator in ["rk45:rtol=1e-9", "rk23:rtol=1e-9", "adams:rtol=1e-9"] {
        let sim = late_pendulum(t0, integrator, "alf-index1");
        let (msg, t, _) = failed(&sim, integrator);
        assert!(msg.contains("step size underflow"), "{integrator}: {msg}");
        assert!(msg.starts_with(&format!("at t = {t}")), "{msg}");
        let h_min = 16.0 * f64::EPSILON * t;
        assert!(
            msg.contains(&format!("|h| = {h_min:e} failed the error test"))
                && msg.contains(&format!("minimum 16 ε |t| = {h_min:e}")),
            "{integrator}: {msg}"
        );
        assert!(
            msg.contains("error estimate dominated by body `link"),
            "{integrator}: {msg}"
        );
    }
    // RK45 gets through the first samples before the step collapses
    let (_, t, traj) = failed(&late_pendulum(t0, "rk45:rtol=1e-9", "alf-index1"), "rk45");
    assert!(t > t0 + 1.0 && traj.len() > 10, "{t}: {:?}", traj.t);
    // a reduced-coordinate method names the state component
    let (msg, _, _) = failed(&late_pendulum(1e13, "rk45:rtol=1e-9", "hdca"), "hdca");
    assert!(
        msg.contains("step size underflow") && msg.contains("dominated by state component "),
        "{msg}"
    );
}

#[test]
fn step_limit_is_a_distinct_error_naming_the_limiting_component() {
    let sim = Simulation::builtin("five-bar")
        .unwrap()
        .method("alf-index1".parse().unwrap())
        .integrator("rk45:rtol=1e-10".parse().unwrap())
        .max_steps(50)
        .t_end(1.0)
        .samples(100);
    let (msg, t, traj) = failed(&sim, "steps");
    assert!(
        msg.contains("step limit reached: 50 steps taken before t_end")
            && msg.contains("step size limited by body `"),
        "{msg}"
    );
    assert!(t > 0.0 && t < 1.0, "{msg}");
    // every requested sample up to the failure time is there
    let expected = (0..=100).filter(|k| *k as f64 / 100.0 <= t).count();
    assert_eq!(traj.len(), expected, "{msg}");
}

#[test]
fn unreachable_tolerance_stops_early_at_the_projected_step_limit() {
    // rtol = atol = 1e-16 is below the round-off of the ALF accelerations with the
    // papers' absolute α = 1e7 (the default relative α ≈ 1e3 reaches it): the steps
    // stay tiny and the run would take millions of them; it stops once the rate
    // extrapolates beyond twice the limit, with the samples so far
    let sim = Simulation::builtin("five-bar")
        .unwrap()
        .method("alf-index1:alpha=1e7".parse().unwrap())
        .integrator("rk45:rtol=1e-16:atol=1e-16".parse().unwrap())
        .max_steps(20_000)
        .t_end(1.0)
        .samples(1000);
    let (msg, t, traj) = failed(&sim, "rate");
    assert!(
        msg.contains("step limit reached: ")
            && msg.contains("at this rate the run needs about")
            && msg.contains("more than the limit 20000"),
        "{msg}"
    );
    assert!(traj.stats.accepted_steps < 20_000, "{:?}", traj.stats);
    let expected = (0..=1000).filter(|k| *k as f64 / 1000.0 <= t).count();
    assert_eq!(traj.len(), expected, "{msg}");
}

#[test]
fn rank_loss_stops_strict_lagrange_naming_the_joints_and_alf_runs_through() {
    // the planar five-bar modelled in 3-D: five revolute joints about z close one loop,
    // 3 of the 29 constraint rows are dependent
    let sim = |method: &str| {
        Simulation::builtin("five-bar")
            .unwrap()
            .method(method.parse().unwrap())
            .t_end(0.5)
            .samples(10)
    };
    let (msg, t, traj) = failed(&sim("lagrange:strict=true"), "strict");
    assert_eq!(t, 0.0, "{msg}");
    assert!(
        msg.starts_with("at t = 0: the constraint Jacobian")
            && msg.contains("the constraint Jacobian has rank 26 < 29 rows")
            && msg.contains("dependent rows in: joint `joint5`"),
        "{msg}"
    );
    assert_eq!(traj.t, vec![0.0]);
    // methods that handle dependent rows run the same case to the end
    for method in ["alf-index1", "alf", "lagrange"] {
        let traj = sim(method).run().unwrap();
        assert_eq!(traj.len(), 11, "{method}");
        assert!(traj.max_phi() < 1e-5, "{method}: {:e}", traj.max_phi());
    }
    // a singular configuration during the run: the two parallelogram four-bars pass
    // the horizontal position (|x₁| = 1) about once a second
    let traj = Simulation::builtin("two-four-bars")
        .unwrap()
        .method("alf-index1".parse().unwrap())
        .t_end(2.0)
        .samples(20)
        .run()
        .unwrap();
    assert!(traj.max_phi() < 1e-5, "{:e}", traj.max_phi());
}

fn mbs(args: &[&str]) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_mbs"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("spawn mbs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Times in the first column of a written trajectory.csv.
fn csv_times(dir: &Path) -> Vec<f64> {
    let text = std::fs::read_to_string(dir.join("trajectory.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn cli_non_finite_is_exit_1_with_partial_files() {
    let d = tmp("cli-nan");
    let file = d.join("nan-pendulum.toml");
    pendulum_with_nan_force().save(&file).unwrap();
    let out = d.join("out");
    let (code, err) = mbs(&[
        "run",
        file.to_str().unwrap(),
        "--method",
        "alf-index1",
        "--t-end",
        "1.5",
        "--samples",
        "15",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("simulation failed: at t = 1.05")
            && err.contains("non-finite")
            && err.contains("body `link1`"),
        "{err}"
    );
    let t = csv_times(&out);
    assert_eq!(t.len(), 11, "{t:?}");
    assert!((t[10] - 1.0).abs() < 1e-12);
}

#[test]
fn cli_step_limit_is_exit_1_with_partial_files() {
    let out = tmp("cli-steps");
    let (code, err) = mbs(&[
        "run",
        "five-bar",
        "--integrator",
        "rk45",
        "--rtol",
        "1e-10",
        "--max-steps",
        "50",
        "--samples",
        "100",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("step limit reached: 50 steps") && err.contains("t = "),
        "{err}"
    );
    let t = csv_times(&out);
    assert!(t.len() > 1 && t.len() < 101, "{t:?}");
}

/// The run that used to look hung (five-bar, ALF-INDEX1 with the papers' α = 1e7,
/// RK45 at rtol = atol = 1e-16, default step limit) ends with the step-limit error
/// and writes what it has.
#[test]
fn cli_unreachable_tolerance_ends_with_the_step_limit() {
    let out = tmp("cli-tight");
    let (code, err) = mbs(&[
        "run",
        "five-bar",
        "--method",
        "alf-index1:alpha=1e7",
        "--rtol",
        "1e-16",
        "--atol",
        "1e-16",
        "--samples",
        "1000",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("step limit reached") && err.contains("--max-steps"),
        "{err}"
    );
    let t = csv_times(&out);
    assert!(!t.is_empty() && t.len() < 1001, "{t:?}");
}

#[test]
fn cli_rank_loss_is_exit_1_naming_the_joints() {
    let out = tmp("cli-rank");
    let (code, err) = mbs(&[
        "run",
        "five-bar",
        "--method",
        "lagrange:strict=true",
        "--t-end",
        "0.5",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("simulation failed: at t = 0: ")
            && err.contains("rank 26 < 29")
            && err.contains("joint `joint5`"),
        "{err}"
    );
    assert_eq!(csv_times(&out), vec![0.0]);
}
