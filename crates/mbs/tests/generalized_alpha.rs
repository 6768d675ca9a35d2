//! ALF-INDEX3 with the adaptive generalized-α through the facade and the CLI:
//! Andrew's squeezer at t = 0.03 against the IVP test set, and the errors naming
//! the integrators that apply.

use std::process::Command;

use mbs::{IntegratorChoice, IntegratorRequest, Simulation};

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
                rtol,
                atol: rtol,
                rho_inf: 0.9,
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
            rtol: 1e-6,
            atol: 1e-6,
            rho_inf: 0.9
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
    let e = Simulation::builtin("double-pendulum")
        .unwrap()
        .method("alf".parse().unwrap())
        .integrator(IntegratorChoice::GeneralizedAlpha {
            rtol: 1e-6,
            atol: 1e-6,
            rho_inf: 0.9,
        })
        .t_end(0.01)
        .run()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("generalized-alpha") && e.contains("descriptor"),
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
