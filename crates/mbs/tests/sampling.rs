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
