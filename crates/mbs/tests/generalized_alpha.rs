//! `--integrator generalized-alpha` through the facade on the ODE front-ends (the
//! first-order generalized-α form of `mbs-integrators`): the same motion as a
//! tight DOP853 run of the same method, constraints and energy kept.

use mbs::{IntegratorChoice, Simulation, Trajectory};

fn run(spec: &str, method: &str, integrator: IntegratorChoice, t_end: f64) -> Trajectory {
    Simulation::builtin(spec)
        .or_else(|_| Simulation::load(spec))
        .unwrap()
        .method(method.parse().unwrap())
        .integrator(integrator)
        .t_end(t_end)
        .samples(50)
        // the penalty guard bounds |Φ| by rtol × size, which Chiou's O(ε) deflection
        // just exceeds at rtol = 1e-6 (|Φ| = 1.003e-7 against 1.0e-7), with any integrator
        // whose error reaches the tolerance
        .guard(method != "penalty")
        .run()
        .unwrap_or_else(|e| panic!("{spec} with {method}: {e}"))
}

const TIGHT: IntegratorChoice = IntegratorChoice::Dop853 {
    rtol: 1e-10,
    atol: 1e-10,
};

#[test]
fn generalized_alpha_runs_every_ode_front_end() {
    let galpha: IntegratorChoice = "generalized-alpha:rtol=1e-6".parse().unwrap();
    let cases = [
        ("five-bar", "alf-index1"),
        ("five-bar", "alf-dca-proj"),
        ("five-bar", "penalty"),
        ("five-bar", "hdca"),
        ("five-bar", "complement-qr"),
        ("five-bar", "coordinate-partitioning"),
        ("chain:n=4", "aba"),
    ];
    for (spec, method) in cases {
        let g = run(spec, method, galpha, 1.0);
        let r = run(spec, method, TIGHT, 1.0);
        let d = g.max_position_difference(&r);
        let (phi, de) = (g.max_phi(), g.energy_drift());
        println!(
            "{spec} {method}: generalized-α {} steps ({} rejected), {} RHS, {} Jacobians, {} Newton iterations; DOP853 1e-10 {} RHS; max position difference {d:.2e}, max ‖Φ‖ {phi:.2e}, energy drift {de:.2e} (DOP853 {:.2e})",
            g.stats.accepted_steps,
            g.stats.rejected_steps,
            g.stats.rhs_evals,
            g.stats.jacobian_evals,
            g.stats.newton_iterations,
            r.stats.rhs_evals,
            r.energy_drift()
        );
        assert!(d < 1e-4, "{spec} {method}: {d:e} from DOP853");
        // constraint drift and energy error of a second-order method at rtol = 1e-6,
        // relative to the largest kinetic energy (methods without projections drift)
        let ke = g.kinetic_energy.iter().fold(0.0f64, |m, e| m.max(e.abs()));
        println!(
            "  max kinetic energy {ke:.3e} J, relative energy drift {:.2e}",
            de / ke
        );
        assert!(phi < 1e-4, "{spec} {method}: ‖Φ‖ = {phi:e}");
        assert!(de < 1e-2 * ke, "{spec} {method}: ΔE {de:e} of {ke:e}");
    }
}
