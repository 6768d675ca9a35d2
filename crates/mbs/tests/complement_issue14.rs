//! Issue #14 for the complement family (Pękal & Frączek 2016, "Comparison of
//! natural complement formulations for multibody dynamics"): a variant either
//! computes the motion to the requested tolerance or stops with an error that
//! names the limitation, the joints and the time.
//!
//! * SVD complement on the pendulums and the spatial slider-crank agrees with
//!   `lagrange-projection` (the SVD basis was wrong from the second evaluation on:
//!   faer left part of U stale in the reused workspace).
//! * Bricard's linkage (one redundant row): every variant × stabilization keeps the
//!   energy (the drifted Jacobian lost the redundancy, the null space lost the
//!   motion and the linkage froze at t ≈ 0.8 s, −3.3 J). Horizon 3 s: covers the
//!   freeze and a full swing (the 10 s runs, measured by hand, give the same
//!   drift: 4.3e-9 J without stabilization, 8.7e-11 J Baumgarte, 4.7e-10 J NR); 24
//!   runs of 10 s would dominate the suite.
//! * N-four-bar through its singular configuration: every variant stops there
//!   with a singular-configuration error naming joints, or follows the exact
//!   parallelogram motion; none finishes silently on another branch.

use mbs::{Error, Simulation, Trajectory};

const TOL: f64 = 1e-10;

fn model(file: &str) -> Simulation {
    let path = format!(
        "{}/../../examples/models/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    Simulation::load(&path).unwrap()
}

fn run(sim: Simulation, method: &str, t_end: f64) -> Result<Trajectory, Error> {
    sim.method(method.parse().unwrap())
        .integrator(format!("rk45:rtol={TOL}:atol={TOL}").parse().unwrap())
        .t_end(t_end)
        .samples(20)
        .run()
}

const VARIANTS: [&str; 8] = [
    "complement-zero-eigenvalue",
    "complement-schur",
    "complement-putd-h",
    "complement-putd-g",
    "complement-svd",
    "complement-qr",
    "coordinate-partitioning",
    "wang-huston",
];

#[test]
fn svd_complement_agrees_with_lagrange_projection() {
    let cases: [(&str, Simulation); 3] = [
        (
            "cartesian-pendulum",
            Simulation::builtin("cartesian-pendulum").unwrap(),
        ),
        (
            "double-pendulum",
            Simulation::builtin("double-pendulum").unwrap(),
        ),
        ("spatial-slider-crank", model("spatial_slider_crank.toml")),
    ];
    for (name, sim) in cases {
        let reference = run(sim.clone(), "lagrange-projection", 2.0).unwrap();
        let svd = run(sim, "complement-svd", 2.0).unwrap_or_else(|e| panic!("{name}: {e}"));
        let d = svd.max_position_difference(&reference);
        assert!(d <= 1e3 * TOL, "{name}: svd vs lagrange-projection {d:e}");
        let drift = svd.energy_drift();
        assert!(drift <= 1e3 * TOL, "{name}: energy drift {drift:e}");
    }
}

#[test]
fn bricard_keeps_its_energy_with_every_variant_and_stabilization() {
    let reference = run(model("bricard.toml"), "lagrange-projection", 3.0).unwrap();
    for variant in VARIANTS {
        for stab in ["none", "baumgarte", "nr"] {
            let method = format!("{variant}:stab={stab}");
            let traj = run(model("bricard.toml"), &method, 3.0)
                .unwrap_or_else(|e| panic!("{method}: {e}"));
            let drift = traj.energy_drift();
            assert!(drift <= 1e-6, "{method}: energy drift {drift:e} J");
            let d = traj.max_position_difference(&reference);
            assert!(
                d <= 1e-6,
                "{method}: differs from lagrange-projection by {d:e}"
            );
        }
    }
}

/// The exact crank angle θ(t) of the N-four-bar (3 θ̈ = −3.5 g cos θ, θ(0) = π/2,
/// θ̇(0) = −1) by classical RK4 with a step of 1e-4 (error ≪ 1e-9).
fn exact_theta(t_end: f64) -> f64 {
    mbs::mechanisms::iftomm::NFourBar::default()
        .crank_angle(t_end)
        .0
}

/// Right branch, or a named stop at the first crossing (t ≈ 0.714 s).
fn four_bar_right_or_named_stop(method: &str) {
    let t_end = 1.5;
    match run(model("n_four_bar.toml"), method, t_end) {
        Ok(traj) => {
            let th = exact_theta(t_end);
            let k = traj.len() - 1;
            let b = traj.body_index("crank0").unwrap();
            let r = traj.position(k, b);
            let d = (r.x - 0.5 * th.cos()).hypot(r.y - 0.5 * th.sin());
            assert!(
                d <= 1e3 * TOL,
                "{method}: finished off the parallelogram motion by {d:e}"
            );
        }
        Err(Error::SimulationFailed(f)) => {
            let msg = f.error.to_string();
            let t = f.error.t.unwrap();
            assert!(
                msg.contains("singular") && msg.contains("joint `"),
                "{method}: {msg}"
            );
            assert!(
                (t - 0.7143).abs() < 1e-2,
                "{method}: stopped at t = {t}: {msg}"
            );
        }
        Err(e) => panic!("{method}: {e}"),
    }
}

#[test]
fn four_bar_singular_crossing_right_branch_or_named_stop() {
    for variant in VARIANTS {
        for stab in ["none", "nr"] {
            four_bar_right_or_named_stop(&format!("{variant}:stab={stab}"));
        }
    }
}

/// Natural partitioning (Chiou 1990, sec 5.4) through the same crossing, under
/// RK45 (its ODE form) and its own two-stage staggered scheme (procedure 5.5.7).
#[test]
fn four_bar_natural_partitioning_right_branch_or_named_stop() {
    four_bar_right_or_named_stop("natural-partitioning");
    let sim = model("n_four_bar.toml")
        .method("natural-partitioning".parse().unwrap())
        .integrator("staggered:h=1e-3".parse().unwrap())
        .t_end(1.5)
        .samples(20);
    match sim.run() {
        Err(Error::SimulationFailed(f)) => {
            let msg = f.error.to_string();
            let t = f.error.t.unwrap();
            assert!(
                msg.contains("singular") && msg.contains("joint `"),
                "staggered: {msg}"
            );
            assert!(
                (t - 0.7143).abs() < 1e-2,
                "staggered: stopped at t = {t}: {msg}"
            );
        }
        Ok(traj) => {
            // the staggered scheme is O(h²): right branch within 1e-3
            let th = exact_theta(1.5);
            let k = traj.len() - 1;
            let b = traj.body_index("crank0").unwrap();
            let r = traj.position(k, b);
            let d = (r.x - 0.5 * th.cos()).hypot(r.y - 0.5 * th.sin());
            assert!(
                d <= 1e-3,
                "staggered: off the parallelogram motion by {d:e}"
            );
        }
        Err(e) => panic!("staggered: {e}"),
    }
}
