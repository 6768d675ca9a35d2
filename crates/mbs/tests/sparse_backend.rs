//! `backend=sparse` of `alf`, `alf-index1` (the sparse Cholesky ALF and its
//! mass-orthogonal projections) and `lagrange` (the sparse KKT solve), O(n) per
//! evaluation on chains and trees, from the method text: the same motion as the
//! dense backend on chains and loops, constraints held by the projections, redundant
//! constraints reported or handed to the dense least-squares solve, and clear
//! refusals where a sparse backend cannot run.

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
fn sparse_alf_index1_follows_the_dense_alf_index1_and_holds_the_constraints() {
    for (spec, t_end) in [
        ("chain:n=16", 0.5),
        ("double-pendulum", 1.0),
        ("five-bar", 1.0),
    ] {
        let sparse = run(spec, "alf-index1:backend=sparse", t_end);
        let dense = run(spec, "alf-index1", t_end);
        assert_eq!(sparse.method, "alf-index1:backend=sparse");
        let d = sparse.max_position_difference(&dense);
        assert!(
            d < 1e-7,
            "{spec}: sparse and dense ALF-INDEX1 end {d:.2e} m apart"
        );
        // the samples are projected: positions on the manifold to the projection's
        // tolerance
        assert!(
            sparse.max_phi() < 1e-10,
            "{spec}: ‖Φ‖ {:.2e} after the sparse projections",
            sparse.max_phi()
        );
        assert!(
            sparse.max_phi_dot() < 1e-9,
            "{spec}: ‖Φ̇‖ {:.2e} after the sparse projections",
            sparse.max_phi_dot()
        );
    }
}

#[test]
fn sparse_projections_hold_the_constraints_tighter_than_none() {
    // without projections the sparse ALF drifts (Baumgarte-like penalty terms only);
    // the projections remove it
    let plain = run("chain:n=16", "alf:backend=sparse", 0.5);
    let projected = run("chain:n=16", "alf-index1:backend=sparse", 0.5);
    assert!(
        projected.max_phi() <= plain.max_phi(),
        "projected ‖Φ‖ {:.2e} above the unprojected {:.2e}",
        projected.max_phi(),
        plain.max_phi()
    );
}

#[test]
fn sparse_lagrange_follows_the_dense_lagrange() {
    for (spec, t_end) in [("chain:n=16", 0.5), ("double-pendulum", 1.0)] {
        for (sparse_m, dense_m) in [
            ("lagrange:backend=sparse", "lagrange"),
            ("lagrange-baumgarte:backend=sparse", "lagrange-baumgarte"),
        ] {
            let sparse = run(spec, sparse_m, t_end);
            let dense = run(spec, dense_m, t_end);
            assert_eq!(sparse.method, sparse_m);
            let d = sparse.max_position_difference(&dense);
            assert!(d < 1e-7, "{spec}: {sparse_m} ends {d:.2e} m from {dense_m}");
        }
    }
}

#[test]
fn sparse_lagrange_hands_redundant_constraints_to_the_dense_least_squares_solve() {
    // the five-bar is a planar loop in 3-D: 3 of its 29 rows are redundant
    let sparse = run("five-bar", "lagrange:backend=sparse", 1.0);
    let dense = run("five-bar", "lagrange", 1.0);
    assert_eq!(sparse.method, "lagrange:backend=sparse");
    let d = sparse.max_position_difference(&dense);
    assert!(d < 1e-7, "five-bar: {d:.2e} m from the dense lagrange");
}

#[test]
fn strict_sparse_lagrange_names_the_redundant_joints() {
    let e = Simulation::builtin("five-bar")
        .unwrap()
        .method("lagrange:strict=true:backend=sparse".parse().unwrap())
        .t_end(0.1)
        .run()
        .unwrap_err()
        .to_string();
    assert!(e.contains("rank 26 < 29") && e.contains("joint5"), "{e}");
    // the chain has independent rows: the strict sparse solve runs
    run("chain:n=16", "lagrange:strict=true:backend=sparse", 0.1);
}

#[test]
fn sparse_backends_refuse_kkt_projections_and_the_partitioned_rules_by_name() {
    let e = Simulation::builtin("double-pendulum")
        .unwrap()
        .method("lagrange-projection:backend=sparse".parse().unwrap())
        .t_end(0.1)
        .run()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("backend=sparse") && e.contains("projections"),
        "{e}"
    );
    for method in ["alf-index1:backend=sparse", "lagrange:backend=sparse"] {
        let e = Simulation::builtin("double-pendulum")
            .unwrap()
            .method(method.parse().unwrap())
            .integrator(IntegratorChoice::Staggered { h: 1e-3 })
            .t_end(0.1)
            .run()
            .unwrap_err()
            .to_string();
        assert!(e.contains(method) && e.contains("staggered"), "{e}");
    }
}

#[test]
fn sparse_alf_refuses_the_partitioned_rules_by_name() {
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
