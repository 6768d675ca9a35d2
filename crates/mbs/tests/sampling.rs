//! Output samples: what the timed integration contains, and samples denser than the
//! steps of a fixed-step method.

use mbs::{IntegratorChoice, Simulation};

/// ALF-INDEX3 (trapezoidal, h = 1 ms) with samples every 2/3 ms: the samples between
/// steps are interpolated (cubic Hermite from positions, velocities and accelerations
/// at the steps), so the wrong-motion guard, on by default, sees the motion and not
/// an interpolation error (a straight line between steps is O(h²) off it: the guard
/// stopped this run at the first sample). The interpolated samples agree with a run
/// whose steps land on them.
#[test]
fn index3_samples_between_steps_follow_the_motion() {
    let run = |h: f64, samples: usize| {
        Simulation::builtin("five-bar")
            .unwrap()
            .method("alf-index3".parse().unwrap())
            .integrator(IntegratorChoice::Trapezoidal { h })
            .t_end(0.3)
            .samples(samples)
            .run()
            .unwrap_or_else(|e| panic!("h = {h}, {samples} samples: {e}"))
    };
    let dense = run(1e-3, 450);
    assert_eq!(dense.t.len(), 451);
    // two of every three samples of `dense` are interpolated; a run whose steps are at
    // the sample times (h = 2/3 ms) is the reference
    let fine = run(0.3 / 450.0, 450);
    let mut worst: f64 = 0.0;
    for (a, b) in dense.states.iter().zip(&fine.states) {
        worst = worst.max((&a.q - &b.q).amax());
    }
    // both are O(h²) trapezoidal solutions: they differ by the integration error
    // (≈ 1e-6 m here), not by the O(h² · |q̈|) ≈ 1e-5 m of a straight line
    assert!(
        worst < 5e-6,
        "interpolated samples off the motion by {worst:e}"
    );
    let e0 = dense.total_energy[0];
    let drift = dense
        .total_energy
        .iter()
        .map(|e| (e - e0).abs())
        .fold(0.0, f64::max);
    assert!(drift < 1e-4, "energy drift at the samples {drift:e}");
}

/// The timed integration (`Trajectory::wall_time`) measures the time its samples
/// take inside it (`RunStats::sampling_seconds`), for the ODE front-ends and for
/// ALF-INDEX3's own loop; it is a part of the integration time.
#[test]
fn sampling_time_is_measured_inside_the_integration() {
    for (method, integrator) in [
        (
            "alf-dca-proj",
            IntegratorChoice::Rk45 {
                rtol: 1e-6,
                atol: 1e-6,
            },
        ),
        ("alf-index3", IntegratorChoice::Trapezoidal { h: 1e-3 }),
    ] {
        let traj = Simulation::builtin("five-bar")
            .unwrap()
            .method(method.parse().unwrap())
            .integrator(integrator)
            .t_end(0.2)
            .samples(400)
            .run()
            .unwrap();
        let (Some(total), Some(sampling)) =
            (traj.stats.integration_seconds, traj.stats.sampling_seconds)
        else {
            panic!("{method}: integration or sampling time not measured");
        };
        assert!(
            sampling > 0.0 && sampling <= total,
            "{method}: sampling {sampling} s of {total} s"
        );
        assert_eq!(traj.wall_time, total, "{method}");
    }
}

/// The density of the output does not change the motion: a run of the five-bar with
/// 3 000 output intervals and one with 30 give the same states, energies, constraint
/// norms, accelerations' Φ̈ and joint results, to the bit, at their 31 shared times
/// (the adaptive steps do not depend on the sampling; a sample is the dense output,
/// projected, with its derived quantities — for both ODE front-end samples and
/// ALF-INDEX3's interpolation between its fixed steps).
#[test]
fn sampling_density_does_not_change_the_results() {
    use mbs::joints::{JointResults, MultiplierSource};
    for (method, integrator) in [
        (
            "alf-dca-proj",
            IntegratorChoice::Rk45 {
                rtol: 1e-6,
                atol: 1e-6,
            },
        ),
        ("alf-index3", IntegratorChoice::Trapezoidal { h: 2e-3 }),
    ] {
        let run = |n: usize| {
            let sim = Simulation::builtin("five-bar")
                .unwrap()
                .method(method.parse().unwrap())
                .integrator(integrator)
                .t_end(2.0)
                .samples(n);
            let traj = sim.run().unwrap_or_else(|e| panic!("{method}, {n}: {e}"));
            let jr = JointResults::compute(sim.model(), &traj, MultiplierSource::Recovered)
                .unwrap_or_else(|e| panic!("{method}, {n}: {e}"));
            (traj, jr)
        };
        let (dense, dense_jr) = run(3000);
        let (sparse, sparse_jr) = run(30);
        assert_eq!(sparse.len(), 31);
        for (k, t) in sparse.t.iter().enumerate() {
            let d = 100 * k;
            assert_eq!(dense.t[d], *t, "{method}: sample {k}");
            assert_eq!(
                dense.states[d], sparse.states[k],
                "{method}: state at t = {t}"
            );
            for (name, a, b) in [
                ("T", &dense.kinetic_energy, &sparse.kinetic_energy),
                ("V", &dense.potential_energy, &sparse.potential_energy),
                ("‖Φ‖", &dense.phi_norm, &sparse.phi_norm),
                ("‖Φ̇‖", &dense.phi_dot_norm, &sparse.phi_dot_norm),
            ] {
                assert_eq!(
                    a[d].to_bits(),
                    b[k].to_bits(),
                    "{method}: {name} at t = {t}"
                );
            }
            for (a, b) in dense_jr.columns.iter().zip(&sparse_jr.columns) {
                assert_eq!(
                    a.values[d].to_bits(),
                    b.values[k].to_bits(),
                    "{method}: {} at t = {t}",
                    a.name
                );
            }
        }
    }
}

/// `trajectory.json`, serialized straight from the trajectory, is the text of its
/// value tree (`Trajectory::to_json_value`, whose maps sort their keys): the same
/// file as before it was written without the tree.
#[test]
fn trajectory_json_is_the_text_of_its_value() {
    let traj = Simulation::builtin("five-bar")
        .unwrap()
        .method("alf-index1".parse().unwrap())
        .t_end(0.1)
        .samples(20)
        .run()
        .unwrap();
    let dir = std::env::temp_dir().join(format!("mbs-sampling-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("trajectory.json");
    traj.write_json(&path).unwrap();
    let written = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        written,
        serde_json::to_string(&traj.to_json_value()).unwrap()
    );
}
