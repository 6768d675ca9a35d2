//! MJCF files end to end (MJCF → link graph → model → simulation): a spatial double
//! pendulum conserves its energy and starts where its joint values put it; the
//! closed-loop models (`<equality connect>`) run with alf-joint, hdca and alf-dca-proj,
//! hold their constraints and agree with each other.

use mbs::{ImportOptions, IntegratorChoice, Simulation, Trajectory};

fn data(name: &str) -> String {
    format!(
        "{}/../import/tests/data/mjcf/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn run(spec: &str, options: &ImportOptions, method: &str, tol: f64) -> Trajectory {
    let model = mbs::load_model_with(spec, options)
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
        .model;
    Simulation::new(model)
        .method(method.parse().unwrap())
        .integrator(IntegratorChoice::Dop853 {
            rtol: tol,
            atol: tol,
        })
        .t_end(1.0)
        .samples(50)
        .run()
        .unwrap_or_else(|e| panic!("{spec} with {method}: {e}"))
}

#[test]
fn the_double_pendulum_conserves_energy_from_its_initial_joint_values() {
    let spec = data("pendulum.xml");
    let mut options = ImportOptions::default();
    options.q0.insert("shoulder".into(), vec![0.8]);
    options.v0.insert("elbow".into(), vec![2.0]);
    let loaded = mbs::load_model_with(&spec, &options).unwrap();
    let report = loaded.import.as_ref().unwrap();
    assert_eq!(report.format, "mjcf");
    let traj = run(&spec, &options, "hdca", 1e-11);
    let e0 = traj.total_energy[0];
    let scale = traj.kinetic_energy.iter().cloned().fold(0.0, f64::max);
    let drift = traj.energy_drift();
    println!("pendulum.xml: E0 = {e0:.6} J, max T = {scale:.4} J, drift {drift:.2e} J");
    assert!(scale > 0.1, "the pendulum moves (max T = {scale})");
    assert!(drift <= 1e-8 * scale, "energy drifts by {drift:.2e} J");
    // the upper link's centre of mass starts 0.15 m below the shoulder, turned 0.8 rad about y
    let upper = traj.body_index("upper").unwrap();
    let c = traj.position(0, upper);
    let want = nalgebra::Vector3::new(-0.15 * 0.8f64.sin(), 0.0, 1.0 - 0.15 * 0.8f64.cos());
    assert!(
        (c - want).norm() < 1e-12,
        "upper starts at {c:?}, not {want:?}"
    );
    // alf-joint gives the same motion
    let other = run(&spec, &options, "alf-joint", 1e-11);
    let d = traj.max_position_difference(&other);
    assert!(d < 1e-8, "hdca and alf-joint differ by {d:.2e} m");
}

#[test]
fn closed_loops_hold_and_the_methods_agree() {
    for (file, q0) in [
        ("fourbar.xml", Some(("crank", 0.3))),
        ("spatial_rusr.xml", None),
        ("fourbar_weld.xml", None),
    ] {
        let spec = data(file);
        let mut options = ImportOptions::default();
        if let Some((joint, value)) = q0 {
            options.q0.insert(joint.into(), vec![value]);
        }
        let dof = mbs::check(&mbs::load_model_with(&spec, &options).unwrap().model);
        assert_eq!(dof.rank_mobility, Some(1), "{file}: rank-based mobility");
        let runs: Vec<Trajectory> = ["alf-joint", "hdca", "alf-dca-proj"]
            .iter()
            .map(|m| run(&spec, &options, m, 1e-11))
            .collect();
        for t in &runs {
            let scale = t.kinetic_energy.iter().cloned().fold(0.0, f64::max);
            println!(
                "{file} {}: max |Φ| {:.2e}, energy drift {:.2e} J of max T {scale:.3e} J, {:.3} s",
                t.method,
                t.max_phi(),
                t.energy_drift(),
                t.wall_time
            );
            assert!(
                t.max_phi() < 1e-8,
                "{file} {}: |Φ| = {:.2e}",
                t.method,
                t.max_phi()
            );
            assert!(
                t.energy_drift() < 1e-7 * scale,
                "{file} {}: drift {:.2e}",
                t.method,
                t.energy_drift()
            );
            assert!(scale > 1e-3, "{file} moves");
            let d = runs[0].max_position_difference(t);
            assert!(
                d < 1e-8,
                "{file}: {} differs from alf-joint by {d:.2e} m",
                t.method
            );
        }
    }
}
