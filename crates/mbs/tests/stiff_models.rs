//! The stiff models of issue #31's `stiff` suite: reachable by name, well posed
//! (consistent initial state, stated mobility), and physically right over a short
//! run: the bushing chain without damping conserves its energy (kinetic + gravity +
//! bushing springs) to the integrator's tolerance, with damping it loses energy
//! monotonically; the stiff-tyre vehicle falls freely until its tyres touch down.

use mbs::mechanisms::{BushingChainParams, bushing_chain};
use mbs::model::{Layout, State};
use mbs::{IntegratorChoice, Sampling, Simulation};

fn run(spec: &str, method: &str, rtol: f64, t_end: f64, samples: usize) -> mbs::Trajectory {
    Simulation::builtin(spec)
        .unwrap()
        .method(method.parse().unwrap())
        .integrator(IntegratorChoice::Dop853 { rtol, atol: rtol })
        .t_end(t_end)
        .sampling(Sampling::Intervals(samples))
        .guard(false)
        .run()
        .unwrap_or_else(|e| panic!("{spec} / {method}: {e}"))
}

#[test]
fn the_stiff_models_are_reachable_by_name_and_well_posed() {
    for (spec, bodies, mobility) in [
        ("bushing-chain", 8, 8),
        ("bushing-chain:n=3:k=1e7:c=0", 3, 3),
        ("vehicle-stiff-tyres", 9, 12),
        ("andrews-squeezer-stiff-spring", 6, 2),
    ] {
        let model = mbs::builtin(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(model.n_bodies(), bodies, "{spec}");
        let state = State::initial(&model, Layout::EulerParamsOmega);
        let m = mbs::constraints::mobility(&model, &state, 1e-9).unwrap();
        assert_eq!(m.mobility, mobility as i64, "{spec}");
        assert_eq!(
            m.redundant,
            if spec.starts_with("andrews") { 6 } else { 0 },
            "{spec}"
        );
    }
    let chain = mbs::builtin("bushing-chain:n=5:k=3e6:c=2").unwrap();
    assert_eq!(
        chain,
        bushing_chain(&BushingChainParams {
            n: 5,
            stiffness: 3e6,
            damping: 2.0,
            ..Default::default()
        })
        .unwrap()
    );
    let e = mbs::builtin("bushing-chain:c=-1").unwrap_err().to_string();
    assert!(e.contains("`c`") && e.contains("-1"), "{e}");
}

#[test]
fn undamped_bushings_conserve_energy() {
    // k = 1e5: stiff enough to bend (ω ≈ 1e3 rad/s), cheap enough for a test
    let t = run("bushing-chain:n=4:k=1e5:c=0", "aba", 1e-10, 0.3, 60);
    let e0 = t.total_energy[0];
    let scale = t.kinetic_energy.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    assert!(scale > 1.0, "the chain swings: max T = {scale}");
    let drift = t
        .total_energy
        .iter()
        .map(|e| (e - e0).abs())
        .fold(0.0, f64::max);
    assert!(
        drift < 1e-6 * scale,
        "energy drift {drift} J of max T {scale} J"
    );
    // the bushings bend: the chain is not a rigid pendulum (a joint angle moves)
    let a1 = mbs_angle(&t, 0);
    let a2 = mbs_angle(&t, 1);
    let bend = a1
        .iter()
        .zip(&a2)
        .map(|(x, y)| (y - x).abs())
        .fold(0.0, f64::max);
    assert!(
        bend > 1e-6 && bend < 1e-2,
        "largest bushing angle {bend} rad"
    );
}

#[test]
fn damped_bushings_lose_energy_monotonically() {
    let t = run("bushing-chain:n=4:k=1e5:c=50", "aba", 1e-9, 0.3, 60);
    let e = &t.total_energy;
    for k in 1..e.len() {
        assert!(
            e[k] <= e[k - 1] + 1e-9 * e[0].abs().max(1.0),
            "energy rises at sample {k}: {} → {}",
            e[k - 1],
            e[k]
        );
    }
    assert!(e[e.len() - 1] < e[0], "some energy is dissipated");
}

#[test]
fn the_stiff_tyre_vehicle_falls_freely_until_touch_down() {
    // the tyres touch the ground after √(2·1 m / g) ≈ 0.45 s
    let t = run("vehicle-stiff-tyres", "alf-joint", 1e-8, 0.3, 3);
    let chassis = t.body_index("chassis").unwrap();
    let dz = t.position(t.len() - 1, chassis).z - t.position(0, chassis).z;
    let free_fall = -0.5 * 9.81 * 0.3 * 0.3;
    assert!(
        (dz - free_fall).abs() < 1e-6,
        "Δz = {dz}, free fall {free_fall}"
    );
}

/// Absolute rotation of a link about z over the run.
fn mbs_angle(t: &mbs::Trajectory, body: usize) -> Vec<f64> {
    (0..t.len())
        .map(|k| {
            let p = t.euler_params(k, body);
            2.0 * p[3].atan2(p[0])
        })
        .collect()
}
