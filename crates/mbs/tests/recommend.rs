//! The recommended default (`mbs::recommend`): the class of each kind of mechanism,
//! the fallback when the class's method cannot build a model, the defaults of a
//! `Simulation` with and without a chosen method, and — the point of it — that the
//! default run follows the same motion as a tight reference run on mechanisms of
//! every class.

use mbs::recommend::{IntegratorKind, MechanismClass, recommend};
use mbs::{IntegratorChoice, Simulation};

fn model(spec: &str) -> std::sync::Arc<mbs::Model> {
    std::sync::Arc::new(mbs::load_model(spec).unwrap_or_else(|e| panic!("{spec}: {e}")))
}

#[test]
fn each_model_falls_in_the_class_its_topology_gives() {
    for (spec, class) in [
        ("five-bar", MechanismClass::SmallLoop),
        ("two-four-bars", MechanismClass::SmallLoop),
        ("double-pendulum", MechanismClass::Tree),
        ("chain:n=64", MechanismClass::Tree),
        ("loop:n=40", MechanismClass::LargeLoop),
        ("rolling-disc", MechanismClass::Nonholonomic),
        ("bowling-ball", MechanismClass::Nonholonomic),
    ] {
        assert_eq!(MechanismClass::of(&model(spec)), class, "{spec}");
    }
}

#[test]
fn a_method_that_cannot_build_the_model_is_passed_over_with_the_reason() {
    // the space crane is a tree whose tip is driven in time: ABA refuses drivers
    let r = recommend(&model("space-crane"));
    assert_eq!(r.class, MechanismClass::Tree);
    assert_eq!(r.method.name(), "alf-dca-proj");
    assert!(
        r.reason.contains("aba cannot run it") && r.reason.contains("driver"),
        "{}",
        r.reason
    );
    let r = recommend(&model("double-pendulum"));
    assert_eq!(
        (r.method.name(), r.integrator),
        ("aba", IntegratorKind::Adams)
    );
    assert!(!r.reason.contains("cannot"), "{}", r.reason);
}

#[test]
fn a_simulation_takes_the_recommendation_only_for_what_the_user_left_open() {
    let sim = Simulation::builtin("five-bar").unwrap();
    assert_eq!(sim.get_method().name(), "alf-joint");
    assert!(matches!(sim.get_integrator(), IntegratorChoice::Adams { rtol, .. } if rtol == 1e-6));
    assert!(
        sim.method_reason()
            .is_some_and(|r| r.contains("closed loop"))
    );
    // a chosen method keeps the documented RK45 default
    let sim = sim.method("lagrange-projection".parse().unwrap());
    assert_eq!(sim.get_method().name(), "lagrange-projection");
    assert!(matches!(
        sim.get_integrator(),
        IntegratorChoice::Rk45 { .. }
    ));
    assert!(sim.method_reason().is_none());
    // a chosen integrator with the recommended method
    let sim = Simulation::builtin("double-pendulum")
        .unwrap()
        .integrator(IntegratorChoice::Rk23 {
            rtol: 1e-5,
            atol: 1e-5,
        });
    assert_eq!(sim.get_method().name(), "aba");
    assert!(matches!(
        sim.get_integrator(),
        IntegratorChoice::Rk23 { .. }
    ));
}

/// The default run against a reference run at rtol = atol = 1e-10: largest distance
/// of a body's final position, at the default tolerance 1e-6.
#[test]
fn the_default_run_follows_the_reference_motion_on_every_class() {
    for (spec, t_end, reference) in [
        ("five-bar", 1.0, "lagrange-projection"),
        ("two-four-bars", 1.0, "lagrange-projection"),
        ("crank-slider", 0.5, "lagrange-projection"),
        ("mcpherson-overconstrained", 0.5, "lagrange-projection"),
        ("double-pendulum", 1.0, "lagrange-projection"),
        ("chain:n=8", 0.5, "lagrange-projection"),
        ("space-crane", 0.5, "lagrange-projection"),
        ("loop:n=40", 0.2, "alf-dca-proj"),
        ("rolling-disc", 0.5, "alf-index1"),
    ] {
        let sim = Simulation::new(model(spec)).t_end(t_end).samples(4);
        let default = sim
            .run()
            .unwrap_or_else(|e| panic!("{spec}: default run: {e}"));
        let tight = sim
            .clone()
            .method(reference.parse().unwrap())
            .integrator(IntegratorChoice::Rk45 {
                rtol: 1e-10,
                atol: 1e-10,
            })
            .run()
            .unwrap_or_else(|e| panic!("{spec}: reference run: {e}"));
        let d = default.max_position_difference(&tight);
        assert!(
            d < 1e-4,
            "{spec}: the default ({}, {}) ends {d:.2e} from {reference} at 1e-10",
            default.method,
            default.integrator
        );
    }
}
