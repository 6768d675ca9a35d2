//! `--integrator generalized-alpha` through the facade: on the ODE front-ends (the
//! first-order generalized-α form of `mbs-integrators`) the same motion as a tight
//! DOP853 run of the same method, constraints and energy kept; on ALF-INDEX3 (the
//! index-3 form on its descriptor system) Andrew's squeezer at t = 0.03 against the
//! IVP test set, and the errors naming the integrators that apply.

use std::process::Command;

use mbs::{IntegratorChoice, IntegratorRequest, Simulation, Trajectory};
use mbs_integrators::StepControl;

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

#[path = "common/andrews.rs"]
mod andrews;
use andrews::{ANGLES_AT_T_003, NAMES, final_angles};

/// The IVP test set's angles at t = 0.03 (see `published_values.rs`) from
/// `alf-index3` with generalized-α at rtol 1e-6: within 1e-2 rad · max(|value|, 1)
/// (a second-order method with a local error control: the global error sums the
/// ≈ 10³ steps' errors of the crank's 2.5 turns).
#[test]
fn andrews_squeezer_with_generalized_alpha_matches_the_ivp_test_set() {
    for (rtol, tol) in [(1e-6, 1e-2)] {
        let traj = Simulation::builtin("andrews-squeezer")
            .unwrap()
            .method("alf-index3".parse().unwrap())
            .integrator(IntegratorChoice::GeneralizedAlpha {
                rho_inf: 0.9,
                steps: StepControl::Adaptive { rtol, atol: rtol },
            })
            .t_end(0.03)
            .samples(300)
            .run()
            .unwrap();
        assert!(traj.failure.is_none(), "{:?}", traj.failure);
        let ours = final_angles(&traj);
        let mut worst = 0.0f64;
        for ((name, ours), reference) in NAMES.iter().zip(ours).zip(ANGLES_AT_T_003) {
            let d = (ours - reference).abs() / reference.abs().max(1.0);
            worst = worst.max(d);
            assert!(
                d < tol,
                "rtol {rtol:e}: {name}(0.03): ours {ours}, reference {reference}"
            );
        }
        eprintln!(
            "rtol {rtol:e}: largest relative angle error {worst:.3e}, {:?}",
            traj.stats
        );
    }
}

/// `--integrator generalized-alpha` resolves with tolerances or a step; an explicit
/// integrator asked of alf-index3 is refused naming the ones that apply.
#[test]
fn the_integrator_is_named_and_checked() {
    let req = IntegratorRequest {
        spec: Some("generalized-alpha".into()),
        rtol: Some(1e-6),
        ..Default::default()
    };
    assert_eq!(
        req.resolve("rk45").unwrap(),
        IntegratorChoice::GeneralizedAlpha {
            rho_inf: mbs_integrators::DEFAULT_RHO_INF,
            steps: StepControl::Adaptive {
                rtol: 1e-6,
                atol: 1e-6
            }
        }
    );
    let e = Simulation::builtin("andrews-squeezer")
        .unwrap()
        .method("alf-index3".parse().unwrap())
        .integrator(IntegratorChoice::Dop853 {
            rtol: 1e-6,
            atol: 1e-6,
        })
        .t_end(0.001)
        .run()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("alf-index3")
            && e.contains("dop853")
            && e.contains("generalized-alpha")
            && e.contains("trapezoidal"),
        "{e}"
    );
}

/// `mbs run andrews-squeezer --method alf-index3 --integrator generalized-alpha
/// --rtol 1e-6` runs.
#[test]
fn cli_runs_alf_index3_with_generalized_alpha() {
    let dir = std::env::temp_dir().join(format!("mbs-ga-{}", std::process::id()));
    let o = Command::new(env!("CARGO_BIN_EXE_mbs"))
        .args([
            "run",
            "andrews-squeezer",
            "--method",
            "alf-index3",
            "--integrator",
            "generalized-alpha",
            "--rtol",
            "1e-6",
            "--t-end",
            "0.03",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
}
