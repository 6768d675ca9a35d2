//! The articulated-body front-end `aba` through the facade: the same motion as `hdca`
//! (both integrate joint coordinates, from the same assembled state) on a planar
//! chain and on spatial trees, energy conservation on a 16-link chain, its
//! accelerations against an absolute-coordinate front-end, and the refusal of closed
//! loops naming the cut joint.

use mbs::model::State;
use mbs::{Error, IntegratorChoice, SAMPLE_LAYOUT, Simulation, Trajectory};

fn run(spec: &str, method: &str, integrator: IntegratorChoice, t_end: f64) -> Trajectory {
    Simulation::load(spec)
        .unwrap()
        .method(method.parse().unwrap())
        .integrator(integrator)
        .t_end(t_end)
        .samples(20)
        .run()
        .unwrap_or_else(|e| panic!("{spec} with {method}: {e}"))
}

const TIGHT: IntegratorChoice = IntegratorChoice::Dop853 {
    rtol: 1e-10,
    atol: 1e-10,
};

#[test]
fn aba_follows_hdca_on_chains_and_trees() {
    for spec in ["chain:n=8", "chain:n=6,joint=spherical", "tree:seed=3,n=8"] {
        let a = run(spec, "aba", TIGHT, 1.0);
        let h = run(spec, "hdca", TIGHT, 1.0);
        let d = a.max_position_difference(&h);
        println!(
            "{spec}: max position difference {d:.2e}; RHS aba {}, hdca {}",
            a.stats.rhs_evals, h.stats.rhs_evals
        );
        assert!(d < 1e-7, "{spec}: aba and hdca end {d:.2e} apart");
    }
}

#[test]
fn aba_conserves_energy_on_a_sixteen_link_chain() {
    let a = run("chain:n=16", "aba", TIGHT, 2.0);
    let de = a.energy_drift();
    println!(
        "chain:n=16, DOP853 1e-10, 2 s: |ΔE| {de:.2e} J, {} RHS",
        a.stats.rhs_evals
    );
    assert!(de < 1e-7, "energy drift {de:e} J");
}

/// `FrontEnd::accelerations` (the consistency suite's map) of `aba` equals that of
/// `lagrange` (absolute coordinates, Lagrange multipliers) at the same state.
#[test]
fn accelerations_agree_with_an_absolute_coordinate_front_end() {
    for spec in ["tree:seed=5,n=12", "chain:n=10,joint=spherical"] {
        let sim = Simulation::load(spec).unwrap();
        let model = std::sync::Arc::new(sim.model().clone());
        let state = State::initial(&model, SAMPLE_LAYOUT);
        let acc = |name: &str| {
            let m: mbs::Method = name.parse().unwrap();
            let mut fe = mbs::registry::build_front_end(&m, &model).unwrap();
            fe.accelerations(&state)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
        };
        let (a, b) = (acc("aba"), acc("lagrange"));
        let err = (&a - &b).amax() / b.amax().max(1.0);
        assert!(err < 1e-9, "{spec}: relative difference {err:e}");
    }
}

#[test]
fn closed_loops_and_drivers_are_refused() {
    let e = Simulation::builtin("five-bar")
        .unwrap()
        .method("aba".parse().unwrap())
        .run()
        .unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, Error::Unsupported { .. }), "{e:?}");
    assert!(
        msg.contains("closes a loop") && msg.contains("hdca") && msg.contains("alf-dca-proj"),
        "{msg}"
    );
}
