//! The facade with user-supplied front-ends: sampling, derived quantities, failures,
//! divergence, writers and plots.

use std::ops::ControlFlow;

use mbs::{Error, Sampling, Simulation, State};
use mbs::{FrontEnd, FrontEndError, RunSpec, RunStats, Sample, SampleSink};

/// Free flight of every body under gravity, exact (constraints ignored): energy is
/// conserved exactly, which checks the facade's energy bookkeeping.
struct FreeFlight {
    g: nalgebra::Vector3<f64>,
    /// Fail at this time (after delivering the samples before it).
    fail_at: Option<f64>,
    /// Multiply positions by e^(rate·t) (a diverging "method").
    blow_up: Option<f64>,
}

impl FreeFlight {
    fn state_at(&self, s0: &State, t: f64) -> State {
        let mut s = s0.clone();
        let dt = t - s0.t;
        s.t = t;
        for i in 0..s.n_bodies() {
            let (r0, v0) = (s0.position(i), s0.velocity(i));
            let mut r = r0 + v0 * dt + 0.5 * self.g * dt * dt;
            if let Some(rate) = self.blow_up {
                r *= (rate * dt).exp();
            }
            let v = v0 + self.g * dt;
            s.set_pose(i, &r, &s0.euler_params(i));
            s.set_velocity(i, &v, &s0.omega_body(i));
        }
        s
    }
}

impl FrontEnd for FreeFlight {
    fn name(&self) -> String {
        "free-flight".into()
    }

    fn run(
        &mut self,
        spec: &RunSpec<'_>,
        sink: &mut dyn SampleSink,
    ) -> Result<RunStats, FrontEndError> {
        let mut stats = RunStats::default();
        for &t in spec.output_times {
            if let Some(tf) = self.fail_at
                && t >= tf
            {
                return Err(
                    FrontEndError::failed(tf, "Newton iteration did not converge")
                        .at("joint `j2`")
                        .with_stats(stats),
                );
            }
            if sink.step(t) == ControlFlow::Break(()) {
                return Ok(stats);
            }
            stats.accepted_steps += 1;
            stats.rhs_evals += 6;
            let mut sample = Sample::new(self.state_at(spec.initial, t));
            sample.multipliers = Some(nalgebra::DVector::from_element(2, t));
            sink.sample(sample);
        }
        Ok(stats)
    }
}

/// The facade's plumbing is tested with `FreeFlight`, a fake front-end whose bodies
/// fall freely through their joints: the wrong-motion guard (which would rightly stop
/// it) is off.
fn sim() -> Simulation {
    Simulation::builtin("double-pendulum")
        .unwrap()
        .t_end(1.0)
        .samples(10)
        .guard(false)
}

fn free(sim: &Simulation) -> FreeFlight {
    FreeFlight {
        g: sim.model().gravity(),
        fail_at: None,
        blow_up: None,
    }
}

#[test]
fn custom_front_end_runs_and_energy_is_measured() {
    let sim = sim();
    let mut fe = free(&sim);
    let mut progress = Vec::new();
    let traj = sim
        .run_front_end(&mut fe, |p| progress.push(p.fraction()))
        .unwrap();
    assert_eq!(traj.len(), 11);
    assert_eq!(traj.t[10], 1.0);
    assert!(progress.last().copied() == Some(1.0));
    assert_eq!(traj.stats.accepted_steps, 11);
    // free flight conserves T + V exactly
    assert!(
        traj.energy_drift() < 1e-9 * traj.kinetic_energy[10],
        "{}",
        traj.energy_drift()
    );
    assert!(traj.kinetic_energy[10] > 1.0);
    // the joints come apart: the facade measures the violation
    assert!(traj.phi_norm[0] < 1e-12 && traj.phi_norm[10] > 1e-3);
    assert!(traj.phi_dot_norm[10] > 1e-3);
    assert!(traj.phi_ddot_norm.iter().all(|v| v.is_finite()));
    assert_eq!(traj.multipliers[3].as_deref(), Some(&[0.3, 0.3][..]));
}

#[test]
fn writers_and_plots() {
    let sim = sim();
    let traj = sim.run_front_end(&mut free(&sim), |_| {}).unwrap();
    let dir = std::env::temp_dir().join(format!("mbs-facade-test-{}", std::process::id()));
    let files = traj.write_all(&dir).unwrap();
    assert_eq!(files.len(), 3, "{files:?}");
    let csv = std::fs::read_to_string(dir.join("trajectory.csv")).unwrap();
    assert_eq!(csv.lines().count(), 12);
    assert!(
        csv.lines().next().unwrap().contains("link1.x"),
        "{}",
        csv.lines().next().unwrap()
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("trajectory.json")).unwrap())
            .unwrap();
    assert_eq!(json["t"].as_array().unwrap().len(), 11);
    assert_eq!(json["bodies"][1]["name"], "link2");
    assert_eq!(json["method"], "free-flight");
    let plots = mbs::plot::write_plots(&traj, &dir, &[]).unwrap();
    assert_eq!(plots.len(), 8);
    for p in &plots {
        let len = std::fs::metadata(p).unwrap().len();
        assert!(len > 1000, "{} is {len} bytes", p.display());
    }
    let svg = std::fs::read_to_string(dir.join("constraints.svg")).unwrap();
    assert!(svg.contains("t [s]"), "axis label missing");
    if std::env::var_os("MBS_KEEP_TEST_OUTPUT").is_none() {
        std::fs::remove_dir_all(&dir).ok();
    } else {
        eprintln!("plots kept in {}", dir.display());
    }
}

#[test]
fn failure_keeps_the_samples_before_it() {
    let sim = sim();
    let mut fe = FreeFlight {
        fail_at: Some(0.55),
        ..free(&sim)
    };
    let err = sim.run_front_end(&mut fe, |_| {}).unwrap_err();
    assert_eq!(err.exit_code(), 1);
    let msg = err.to_string();
    assert!(
        msg.contains("t = 0.55") && msg.contains("joint `j2`") && msg.contains("Newton"),
        "{msg}"
    );
    let partial = err.partial_trajectory().unwrap();
    assert_eq!(partial.len(), 6);
    assert!(partial.failure.as_deref().unwrap().contains("joint `j2`"));
    assert_eq!(partial.stats.accepted_steps, 6);
}

#[test]
fn divergence_is_detected_and_named() {
    let sim = sim().divergence_limit(1e3);
    let mut fe = FreeFlight {
        blow_up: Some(30.0),
        ..free(&sim)
    };
    let err = sim.run_front_end(&mut fe, |_| {}).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("diverged") && msg.contains("body `link"),
        "{msg}"
    );
    assert_eq!(err.exit_code(), 1);
    assert!(err.partial_trajectory().unwrap().len() < 11);
}

#[test]
fn sampling_options() {
    let s = sim().sampling(Sampling::Every(0.3));
    assert_eq!(
        s.output_times().unwrap(),
        vec![0.0, 0.3, 0.6, 0.8999999999999999, 1.0]
    );
    let s = sim().sampling(Sampling::Times(vec![0.5, 1.0]));
    assert_eq!(s.output_times().unwrap(), vec![0.0, 0.5, 1.0]);
    let e = sim().t_end(-1.0).output_times().unwrap_err();
    assert!(e.to_string().contains("t_end") && e.exit_code() == 2, "{e}");
}

#[test]
fn unknown_names_are_input_errors() {
    let e = Simulation::builtin("no-such-mechanism").unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("five-bar"), "{e}");
    let e = "warp-drive".parse::<mbs::Method>().unwrap_err();
    assert_eq!(e.exit_code(), 2);
}

#[test]
fn every_method_builds_or_says_not_implemented() {
    let model = std::sync::Arc::new(mbs::builtin("five-bar").unwrap());
    for (name, _) in mbs::method_names() {
        let m: mbs::Method = name.parse().unwrap();
        match mbs::registry::build_front_end(&m, &model) {
            Ok(fe) => assert!(!fe.name().is_empty()),
            Err(Error::NotImplemented { method, .. }) => assert_eq!(method, name),
            // the articulated-body algorithm takes open trees only
            Err(Error::Unsupported { method, message }) if method == "aba" => {
                assert!(message.contains("closes a loop"), "{message}")
            }
            Err(e) => panic!("{name}: {e}"),
        }
    }
}

#[test]
fn check_reports_redundancy_of_the_five_bar() {
    let r = mbs::check(&mbs::builtin("five-bar").unwrap());
    assert_eq!(
        (r.grubler_mobility, r.rank_mobility, r.redundant),
        (-1, Some(2), Some(3))
    );
    assert_eq!(r.loops, 1);
    assert!(r.initial_state_consistent());
}
