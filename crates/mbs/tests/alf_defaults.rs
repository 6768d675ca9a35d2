//! The descriptor methods' defaults on small bodies and at singular configurations
//! (issue #14): the default method `alf-index1` (relative penalty
//! α = κ·tr M/tr(Φ_qᵀΦ_q)) on Andrew's squeezer, and the methods without projections
//! stopping with a named error at the N-four-bar's singular configuration instead of
//! finishing on another branch.

use mbs::{Error, Simulation, load_model};

fn end_positions(sim: &Simulation) -> (Vec<f64>, usize) {
    let traj = sim.run().unwrap_or_else(|e| panic!("{e}"));
    let last = traj.states.last().expect("samples");
    (last.q.as_slice().to_vec(), traj.stats.accepted_steps)
}

/// With the papers' absolute α = 1e7 the round-off of the accelerations on these
/// gram-sized bodies (inertias ≈ 4e-7 kg m²) made RK45 at 1e-10 take > 22 500 steps
/// to t = 0.03 (and 30 minutes to reach t = 0.014 at rtol 1e-10); the relative
/// default takes as many steps as the Lagrange projection method and agrees with it.
#[test]
fn the_default_method_runs_andrews_squeezer_at_tight_tolerance() {
    let sim = |method: &str| {
        Simulation::builtin("andrews-squeezer")
            .unwrap()
            .method(method.parse().unwrap())
            .integrator("rk45:rtol=1e-10:atol=1e-10".parse().unwrap())
            .t_end(0.01)
            .samples(10)
    };
    let (q, steps) = end_positions(&sim("alf-index1"));
    let (q_ref, steps_ref) = end_positions(&sim("lagrange-projection"));
    assert!(
        steps <= 2 * steps_ref,
        "alf-index1: {steps} steps, lagrange-projection {steps_ref}"
    );
    let err = q
        .iter()
        .zip(&q_ref)
        .fold(0.0f64, |a, (x, y)| a.max((x - y).abs()));
    assert!(err <= 1e3 * 1e-10, "end positions differ by {err:.3e}");
}

/// `lagrange`, `lagrange-baumgarte` and `alf` (no projections) used to finish the
/// N-four-bar on the folded branch (B0 at (1, 0)) or fail with a bare step-size
/// underflow; they now stop at the first singular crossing (t ≈ 0.714) and say why.
#[test]
fn methods_without_projection_stop_at_the_singular_configuration_and_say_why() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/models/n_four_bar.toml"
    );
    let model = load_model(path).unwrap();
    for method in ["lagrange", "lagrange-baumgarte", "alf"] {
        let sim = Simulation::new(model.clone())
            .method(method.parse().unwrap())
            .integrator("rk45:rtol=1e-10:atol=1e-10".parse().unwrap())
            .t_end(1.0)
            .samples(10);
        match sim.run() {
            Err(Error::SimulationFailed(f)) => {
                let msg = f.error.to_string();
                let t = f.error.t.expect("time of the failure");
                assert!((0.70..0.73).contains(&t), "{method}: {msg}");
                assert!(
                    msg.contains("singular configuration")
                        && msg.contains("joint `B")
                        && msg.contains(method)
                        && msg.contains("lagrange-projection"),
                    "{method}: {msg}"
                );
            }
            other => panic!("{method}: expected the singular-configuration error, got {other:?}"),
        }
    }
}
