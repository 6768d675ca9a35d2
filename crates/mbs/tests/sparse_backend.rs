//! `alf:backend=sparse` (the sparse Cholesky ALF, O(n) per evaluation on chains and
//! trees) from the method text: the same motion as the dense `alf` on a chain, a
//! tree and a loop, and clear refusals where it cannot run.

use mbs::{IntegratorChoice, Simulation};

fn run(spec: &str, method: &str, t_end: f64) -> mbs::Trajectory {
    Simulation::load(spec)
        .unwrap()
        .method(method.parse().unwrap())
        .integrator(IntegratorChoice::Rk45 {
            rtol: 1e-9,
            atol: 1e-9,
        })
        .t_end(t_end)
        .samples(10)
        .run()
        .unwrap_or_else(|e| panic!("{spec} with {method}: {e}"))
}

#[test]
fn sparse_alf_follows_the_dense_alf() {
    for (spec, t_end) in [
        ("chain:n=16", 0.5),
        ("double-pendulum", 1.0),
        ("five-bar", 1.0),
    ] {
        let sparse = run(spec, "alf:backend=sparse", t_end);
        let dense = run(spec, "alf", t_end);
        assert_eq!(sparse.method, "alf:backend=sparse");
        let d = sparse.max_position_difference(&dense);
        // the same equations and iteration; the two factorizations differ in
        // round-off only, which the error control then keeps below its tolerance
        assert!(d < 1e-7, "{spec}: sparse and dense ALF end {d:.2e} m apart");
        assert!(
            sparse.max_phi() < 1e-5,
            "{spec}: ‖Φ‖ {:.2e}",
            sparse.max_phi()
        );
    }
}

#[test]
fn sparse_alf_refuses_projections_and_the_partitioned_rules_by_name() {
    let e = Simulation::builtin("five-bar")
        .unwrap()
        .method("alf-index1:backend=sparse".parse().unwrap())
        .t_end(0.1)
        .run()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("backend=sparse") && e.contains("projections"),
        "{e}"
    );
    let e = Simulation::builtin("double-pendulum")
        .unwrap()
        .method("alf:backend=sparse".parse().unwrap())
        .integrator(IntegratorChoice::CentralDifference { h: 1e-3 })
        .t_end(0.1)
        .run()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("backend=sparse") && e.contains("central difference"),
        "{e}"
    );
    let e = "alf:backend=fast"
        .parse::<mbs::Method>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("backend") && e.contains("sparse"), "{e}");
}
