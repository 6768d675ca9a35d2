//! DOP853 on multibody runs: the same motion as RK45 at a tight tolerance (both
//! converge to the exact solution), on an open chain in joint coordinates (HDCA)
//! and on the five-bar closed loop (ALF-INDEX1, projected), samples from DOP853's
//! dense output included, with fewer right-hand-side evaluations.

use mbs::{IntegratorChoice, Simulation};

fn run(spec: &str, method: &str, integrator: IntegratorChoice) -> mbs::Trajectory {
    Simulation::load(spec)
        .unwrap()
        .method(method.parse().unwrap())
        .integrator(integrator)
        .t_end(1.0)
        .samples(37)
        .run()
        .unwrap_or_else(|e| panic!("{spec} with {method}, {integrator}: {e}"))
}

#[test]
fn dop853_agrees_with_rk45_at_tight_tolerance() {
    let tol = 1e-12;
    for (spec, method) in [("chain:n=8", "hdca"), ("five-bar", "alf-index1")] {
        let dop = run(
            spec,
            method,
            IntegratorChoice::Dop853 {
                rtol: tol,
                atol: tol,
            },
        );
        let rk = run(
            spec,
            method,
            IntegratorChoice::Rk45 {
                rtol: tol,
                atol: tol,
            },
        );
        assert!(dop.integrator.starts_with("dop853:"), "{}", dop.integrator);
        let d = dop.max_position_difference(&rk);
        println!(
            "{spec} / {method}: max position difference {d:.2e} m; RHS DOP853 {}, RK45 {}",
            dop.stats.rhs_evals, rk.stats.rhs_evals
        );
        assert!(d <= 1e-8, "{spec}: DOP853 and RK45 end {d:.2e} m apart");
        assert!(
            dop.stats.rhs_evals < rk.stats.rhs_evals,
            "{spec}: DOP853 {} RHS evaluations, RK45 {}",
            dop.stats.rhs_evals,
            rk.stats.rhs_evals
        );
    }
}
