//! ALF-DCA's penalties relative to the model's scales and its multiplier tolerance
//! tied to the integrator's (issue #30): counts and accuracy, not wall clock.
//!
//! - Andrew's squeezer (bodies of grams) with the default method (`alf-joint` +
//!   Adams; measured 1 283 right-hand sides, 645 steps) and with `alf-dca-proj` +
//!   DOP853 at rtol = atol = 1e-10: at most 3 000 right-hand sides and the IVP test
//!   set's angles at t = 0.03 within 1e-8 relative (`alf-dca-proj` measured: 2 426
//!   right-hand sides, 166 steps, 9e-11; with the former absolute α = 1e6: 43 034,
//!   3 175 steps, 3e-8);
//! - DOP853 takes no more steps than RK45 at the same tolerance (the inner iteration
//!   no longer makes the higher-order rule pay);
//! - a spatial serial arm with links of 10 kg down to 1 g runs with `alf-dca-proj`'s
//!   defaults within 3× the steps of `aba`.

use mbs::{IntegratorChoice, Method, Model, Simulation, Trajectory};

#[path = "common/andrews.rs"]
mod andrews;
use andrews::{ANGLES_AT_T_003 as REFERENCE, final_angles};

fn squeezer(method: Option<&str>, integrator: Option<IntegratorChoice>, tol: f64) -> Trajectory {
    let mut sim = Simulation::builtin("andrews-squeezer")
        .unwrap()
        .t_end(0.03)
        .samples(300);
    if let Some(m) = method {
        sim = sim.method(m.parse::<Method>().unwrap());
    }
    let integrator = integrator.unwrap_or_else(|| sim.recommendation().integrator.with_tol(tol));
    let traj = sim.integrator(integrator).run().unwrap();
    assert!(traj.failure.is_none(), "{:?}", traj.failure);
    traj
}

#[test]
fn squeezer_default_method_at_1e_10_is_fast_and_accurate() {
    let sim = Simulation::builtin("andrews-squeezer").unwrap();
    assert_eq!(sim.get_method().name(), "alf-joint");
    assert_eq!(sim.get_integrator().name(), "adams");
    // the default, and ALF-DCA (the former default) with DOP853, whose relative
    // penalty this file is about
    for method in [None, Some("alf-dca-proj")] {
        let integrator = method.map(|_| IntegratorChoice::Dop853 {
            rtol: 1e-10,
            atol: 1e-10,
        });
        let traj = squeezer(method, integrator, 1e-10);
        let s = &traj.stats;
        let name = method.unwrap_or("default");
        eprintln!(
            "squeezer, {name} at 1e-10: {} steps ({} rejected), {} RHS, {} multiplier iterations",
            s.accepted_steps, s.rejected_steps, s.rhs_evals, s.multiplier_iterations
        );
        assert!(s.rhs_evals <= 3000, "{name}: {} RHS", s.rhs_evals);
        // the multiplier iteration converges instead of running to its cap
        assert!(
            s.multiplier_iterations <= 5 * s.rhs_evals,
            "{name}: {} multiplier iterations for {} RHS",
            s.multiplier_iterations,
            s.rhs_evals
        );
        for (ours, reference) in final_angles(&traj).into_iter().zip(REFERENCE) {
            assert!(
                (ours - reference).abs() <= 1e-8 * reference.abs(),
                "{name}: ours {ours}, reference {reference}"
            );
        }
    }
}

#[test]
fn squeezer_dop853_takes_no_more_steps_than_rk45() {
    for tol in [1e-6, 1e-8, 1e-10] {
        let steps = |i: IntegratorChoice| {
            let s = squeezer(Some("alf-dca-proj"), Some(i), tol).stats;
            s.accepted_steps + s.rejected_steps
        };
        let dop = steps(IntegratorChoice::Dop853 {
            rtol: tol,
            atol: tol,
        });
        let rk = steps(IntegratorChoice::Rk45 {
            rtol: tol,
            atol: tol,
        });
        eprintln!("tol {tol:e}: DOP853 {dop} steps, RK45 {rk}");
        assert!(dop <= rk, "tol {tol:e}: DOP853 {dop} steps, RK45 {rk}");
    }
}

/// A spatial serial arm of five links hanging from ground by revolute joints whose
/// axes alternate between z and y, with masses 10, 1, 0.1, 0.01 and 0.001 kg and
/// lengths 0.5 … 0.05 m (slender rods: the lightest link's smallest inertia is
/// 2e-9 kg m², λ_min(M) ≈ 2e-9, as a robot's fingers on its base), released from
/// the horizontal.
fn light_end_arm() -> Model {
    let masses = [10.0, 1.0, 0.1, 0.01, 0.001];
    let lengths = [0.5, 0.3, 0.2, 0.1, 0.05];
    let mut toml = String::from("name = \"light-end arm\"\ngravity = [0.0, -9.81, 0.0]\n");
    let mut x = 0.0;
    for (i, (&m, &l)) in masses.iter().zip(&lengths).enumerate() {
        let j = m * l * l / 12.0;
        toml += &format!(
            "[[bodies]]\nname = \"link{i}\"\nmass = {m:e}\ninertia = [{:e}, {j:e}, {j:e}]\nposition = [{:e}, 0.0, 0.0]\n",
            0.01 * j,
            x + 0.5 * l
        );
        let (parent, at) = if i == 0 {
            ("ground".to_string(), [0.0, 0.0, 0.0])
        } else {
            (format!("link{}", i - 1), [0.5 * lengths[i - 1], 0.0, 0.0])
        };
        // joint axis z, then y (a marker's z axis along the global y: x stays x)
        let axes = if i % 2 == 0 {
            ""
        } else {
            "x = [1.0, 0.0, 0.0]\nz = [0.0, 1.0, 0.0]\n"
        };
        toml += &format!(
            "[[markers]]\nname = \"J{i}.a\"\nbody = \"{parent}\"\nposition = [{:e}, 0.0, 0.0]\n{axes}",
            if i == 0 { 0.0 } else { at[0] }
        );
        toml += &format!(
            "[[markers]]\nname = \"J{i}.b\"\nbody = \"link{i}\"\nposition = [{:e}, 0.0, 0.0]\n{axes}",
            -0.5 * l
        );
        toml += &format!(
            "[[joints]]\ntype = \"revolute\"\nname = \"J{i}\"\nmarker_i = \"J{i}.a\"\nmarker_j = \"J{i}.b\"\n"
        );
        x += l;
    }
    Model::from_toml_str(&toml).unwrap()
}

#[test]
fn light_end_arm_runs_with_alf_dca_defaults_near_aba_steps() {
    let model = light_end_arm();
    let steps = |method: &str| {
        let traj = Simulation::new(model.clone())
            .method(method.parse::<Method>().unwrap())
            .integrator(IntegratorChoice::Rk45 {
                rtol: 1e-6,
                atol: 1e-6,
            })
            .t_end(1.0)
            .samples(20)
            .run()
            .unwrap();
        assert!(traj.failure.is_none(), "{method}: {:?}", traj.failure);
        let s = &traj.stats;
        eprintln!(
            "light-end arm, {method}: {} steps ({} rejected), {} RHS, {} multiplier iterations",
            s.accepted_steps, s.rejected_steps, s.rhs_evals, s.multiplier_iterations
        );
        s.accepted_steps + s.rejected_steps
    };
    let aba = steps("aba");
    let dca = steps("alf-dca-proj");
    assert!(dca <= 3 * aba, "alf-dca-proj {dca} steps, aba {aba}");
}

/// The energy guard's hint never recommends the method that is running (issue #30:
/// `alf-dca-proj` with a soft penalty was told to use `alf-dca-proj`): a penalty
/// far too soft for the double pendulum (α = 0.1, one multiplier iteration) stops
/// each projection method, and the message names the other two only.
#[test]
fn energy_guard_hint_never_names_the_running_method() {
    let sim = Simulation::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/models/double_pendulum.toml"
    ))
    .unwrap()
    .integrator(IntegratorChoice::Rk45 {
        rtol: 1e-8,
        atol: 1e-8,
    })
    .t_end(1.0)
    .samples(100);
    let projection_methods = ["lagrange-projection", "alf-index1", "alf-dca-proj"];
    for running in ["alf-dca-proj", "alf-index1"] {
        let method = format!("{running}:alpha=1e-1:iter=1");
        let failure = sim
            .clone()
            .method(method.parse::<Method>().unwrap())
            .run()
            .expect_err("the guard stops the run")
            .to_string();
        assert!(failure.contains("wrong motion"), "{method}: {failure}");
        assert!(
            !failure.contains(&format!("`{running}`")),
            "{method}: {failure}"
        );
        for other in projection_methods.iter().filter(|&&m| m != running) {
            assert!(
                failure.contains(&format!("`{other}`")),
                "{method}: {failure}"
            );
        }
    }
}
