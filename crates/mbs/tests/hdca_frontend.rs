//! HDCA through the facade (issue #14): distance joints as tree and cut joints, runs
//! that start from the given (assembled) state, agreement with a Lagrange front-end.

use mbs::{IntegratorChoice, Simulation, Trajectory};
use mbs_kinematics::euler_params;
use mbs_model::{BodyRef, JointKind, Layout, Model, ModelBuilder, State};
use nalgebra::{Matrix3, Vector3};

const TOL: f64 = 1e-10;

fn run(sim: &Simulation, method: &str) -> Trajectory {
    sim.clone()
        .method(method.parse().unwrap())
        .integrator(IntegratorChoice::Rk45 {
            rtol: TOL,
            atol: TOL,
        })
        .run()
        .unwrap_or_else(|e| panic!("{method}: {e}"))
}

/// Largest difference of positions, Euler parameters (up to sign) and velocities
/// between two trajectories sampled at the same times.
fn max_difference(a: &Trajectory, b: &Trajectory) -> f64 {
    assert_eq!(a.len(), b.len());
    let mut worst = 0.0_f64;
    for k in 0..a.len() {
        assert!((a.t[k] - b.t[k]).abs() < 1e-12);
        for body in 0..a.n_bodies() {
            let (pa, pb) = (a.euler_params(k, body), b.euler_params(k, body));
            let dp = (pa - pb).norm().min((pa + pb).norm());
            worst = worst
                .max((a.position(k, body) - b.position(k, body)).norm())
                .max(dp)
                .max((a.velocity(k, body) - b.velocity(k, body)).norm())
                .max((a.omega(k, body) - b.omega(k, body)).norm());
        }
    }
    worst
}

/// A uniform rod (1 kg, 1 m) hung from the ground point at the origin by a distance
/// joint (L = 0.8) to a point of the rod off its centre of mass, launched with a
/// velocity and a spin so that it swings out of plane and tumbles.
fn tumbling_rod() -> Model {
    let mut b = ModelBuilder::new("distance-rod");
    b.gravity(Vector3::new(0.0, -9.81, 0.0));
    let rod = b.body(
        "rod",
        1.0,
        Matrix3::from_diagonal(&Vector3::new(1e-2, 1.0 / 12.0, 1.0 / 12.0)),
    );
    let e = euler_params::from_axis_angle(&Vector3::new(0.3, 0.2, 1.0).normalize(), 0.7);
    let a = euler_params::rotation(&e);
    let handle = Vector3::new(0.8, -0.1, 0.05);
    let centre = handle + a * Vector3::new(0.4, 0.0, 0.0);
    b.set_initial_pose(rod, centre, e);
    let pivot = b.marker(
        "pivot",
        BodyRef::Ground,
        Vector3::zeros(),
        Matrix3::identity(),
    );
    let end = b.marker(
        "rod.end",
        BodyRef::Body(rod),
        Vector3::new(-0.4, 0.0, 0.0),
        Matrix3::identity(),
    );
    b.joint(
        "tether",
        JointKind::Distance {
            length: handle.norm(),
        },
        pivot,
        end,
    );
    // a velocity consistent with the tether: ω arbitrary, v_end ⊥ the tether
    let omega = Vector3::new(0.5, -1.0, 2.0);
    let v_end = handle.cross(&Vector3::new(0.0, 0.0, 1.0)) * 1.5;
    let v = v_end - omega.cross(&(a * Vector3::new(-0.4, 0.0, 0.0)));
    b.set_initial_velocity(rod, v, omega);
    b.build().unwrap()
}

/// A four-bar whose rocker is a massless distance joint: crank (revolute to ground at
/// the origin), coupler (revolute to the crank tip), and the coupler's tip kept at
/// |P − (1.5, 0, 0)| = √1.25 (the cut joint of the loop).
fn four_bar_with_distance_rocker() -> Model {
    let mut b = ModelBuilder::new("distance-four-bar");
    b.gravity(Vector3::new(0.0, -9.81, 0.0));
    let inertia = Matrix3::from_diagonal(&Vector3::new(1e-3, 1.0 / 12.0, 1.0 / 12.0));
    let crank = b.body("crank", 1.0, inertia);
    let coupler = b.body("coupler", 1.0, inertia);
    let quarter = euler_params::from_axis_angle(&Vector3::z(), std::f64::consts::FRAC_PI_2);
    b.set_initial_pose(crank, Vector3::new(0.0, 0.5, 0.0), quarter);
    b.set_initial_pose(
        coupler,
        Vector3::new(0.5, 1.0, 0.0),
        euler_params::identity(),
    );
    b.joint_at(
        "A",
        JointKind::Revolute,
        BodyRef::Ground,
        BodyRef::Body(crank),
        Vector3::zeros(),
        Vector3::z(),
    );
    b.joint_at(
        "B",
        JointKind::Revolute,
        BodyRef::Body(crank),
        BodyRef::Body(coupler),
        Vector3::new(0.0, 1.0, 0.0),
        Vector3::z(),
    );
    let fixed = b.marker(
        "D.ground",
        BodyRef::Ground,
        Vector3::new(1.5, 0.0, 0.0),
        Matrix3::identity(),
    );
    let tip = b.marker(
        "C.coupler",
        BodyRef::Body(coupler),
        Vector3::new(0.5, 0.0, 0.0),
        Matrix3::identity(),
    );
    b.joint(
        "rocker",
        JointKind::Distance {
            length: 1.25_f64.sqrt(),
        },
        fixed,
        tip,
    );
    b.build().unwrap()
}

#[test]
fn distance_tree_joint_pendulum_agrees_with_lagrange() {
    for model in [mbs::builtin("cartesian-pendulum").unwrap(), tumbling_rod()] {
        let sim = Simulation::new(model).t_end(2.0).samples(40);
        let h = run(&sim, "hdca");
        let l = run(&sim, "lagrange-projection");
        let d = max_difference(&h, &l);
        println!(
            "{}: max |hdca − lagrange-projection| = {d:.2e}",
            sim.model().name()
        );
        assert!(d < 1e-7, "{}: {d:e}", sim.model().name());
        // the tree geometry keeps the distance to round-off
        assert!(
            h.max_phi() < 1e-12,
            "{}: ‖Φ‖ {:e}",
            sim.model().name(),
            h.max_phi()
        );
    }
}

#[test]
fn distance_cut_joint_loop_agrees_with_lagrange() {
    let sim = Simulation::new(four_bar_with_distance_rocker())
        .t_end(2.0)
        .samples(40);
    let h = run(&sim, "hdca");
    let l = run(&sim, "lagrange-projection");
    let d = max_difference(&h, &l);
    println!(
        "distance rocker: max |hdca − lagrange-projection| = {d:.2e}, hdca ‖Φ‖ ≤ {:.1e}",
        h.max_phi()
    );
    assert!(d < 1e-6, "{d:e}");
    // the loop closes at the velocity level; positions drift at the tolerance
    assert!(h.max_phi() < 1e-7, "{:e}", h.max_phi());
    // it moves: the crank turns by more than 0.5 rad
    let e = h.euler_params(h.len() - 1, 0);
    let turned = euler_params::to_axis_angle(&euler_params::product(
        &euler_params::conjugate(&h.euler_params(0, 0)),
        &e,
    ))
    .1;
    assert!(turned.abs() > 0.5, "{turned}");
}

/// The double loop's initial state, perturbed in positions and velocities.
fn perturbed(model: &Model) -> State {
    let mut s = State::initial(model, Layout::EulerParamsOmega);
    for (k, x) in s.q.iter_mut().enumerate() {
        *x += 1e-2 * ((k as f64) * 0.7).sin();
    }
    for (k, x) in s.v.iter_mut().enumerate() {
        *x += 0.3 * ((k as f64) * 1.3).cos();
    }
    s
}

#[test]
fn hdca_starts_from_the_assembled_state() {
    for name in ["double-loop", "double-pendulum", "spatial-four-bar"] {
        let model = mbs::builtin(name).unwrap();
        let sim = Simulation::new(model.clone())
            .initial_state(perturbed(&model))
            .t_end(1.0)
            .samples(20);
        let (assembled, note) = sim.assembled_initial().unwrap();
        assert!(note.is_some(), "{name}: the perturbed state is assembled");
        let h = run(&sim, "hdca");
        let l = run(&sim, "lagrange-projection");
        let start = assembled.to_layout(h.states[0].layout);
        let d0 = (&h.states[0].q - &start.q)
            .norm()
            .max((&h.states[0].v - &start.v).norm());
        let d = max_difference(&h, &l);
        // the model's own initial state is far from the assembled one
        let model0 = State::initial(&model, h.states[0].layout);
        let away = (&model0.q - &start.q).norm() + (&model0.v - &start.v).norm();
        println!(
            "{name}: |start − assembled| = {d0:.1e}, max |hdca − lagrange-projection| = {d:.1e} (model initial state {away:.1e} away)"
        );
        assert!(away > 1e-2, "{name}: {away}");
        assert!(
            d0 < 1e-9,
            "{name}: hdca starts {d0:e} from the assembled state"
        );
        assert!(d < 1e-6, "{name}: {d:e}");
    }
}

/// The IFToMM N-four-bar (N = 2) of `examples/models/n_four_bar.toml`.
fn n_four_bar() -> Simulation {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/models/n_four_bar.toml"
    );
    Simulation::load(path).unwrap()
}

/// Exact crank angle of the N-four-bar: the parallelogram motion
/// ((N+1)/3 + N) θ̈ = −g ((N+1)/2 + N) cos θ, θ(0) = π/2, θ̇(0) = −1 (N = 2:
/// 3 θ̈ = −3.5 g cos θ), by classical Runge–Kutta at a step of 1e-4 (error ≈ 1e-13).
fn n_four_bar_angle(t: f64) -> f64 {
    mbs::mechanisms::iftomm::NFourBar::default()
        .crank_angle(t)
        .0
}

#[test]
fn singular_four_bar_stops_promptly_when_the_step_collapses() {
    let sim = n_four_bar()
        .method("hdca".parse().unwrap())
        .integrator(IntegratorChoice::Rk45 {
            rtol: TOL,
            atol: TOL,
        })
        .t_end(10.0)
        .samples(200);
    // with the wrong-motion guard on, hdca's error (which grows about ×5 at each
    // singular crossing) stops it first, as a wrong motion
    let guarded = sim
        .run()
        .expect_err("hdca drifts off the exact motion")
        .to_string();
    assert!(guarded.contains("wrong motion"), "{guarded}");
    // the step-size collapse is what stops it without the guard
    let result = sim.guard(false).run();
    let (traj, msg, t_fail, steps) = match result {
        Ok(traj) => {
            let steps = traj.stats.accepted_steps;
            (traj, String::new(), f64::NAN, steps)
        }
        Err(mbs::Error::SimulationFailed(f)) => {
            let steps = f.error.stats.accepted_steps + f.error.stats.rejected_steps;
            (f.trajectory, f.error.to_string(), f.error.t.unwrap(), steps)
        }
        Err(e) => panic!("{e}"),
    };
    println!("t_fail = {t_fail}, {steps} steps: {msg}");
    // the samples before the stop follow the exact parallelogram motion
    let crank = traj.body_index("crank0").unwrap();
    let mut worst = 0.0_f64;
    for k in 0..traj.len() {
        let (axis, angle) = euler_params::to_axis_angle(&traj.euler_params(k, crank));
        let th = angle * axis.z.signum();
        let exact = n_four_bar_angle(traj.t[k]);
        let d = (th - exact).sin().abs();
        if traj.t[k] <= 2.0 + 1e-9 {
            worst = worst.max(d);
        }
    }
    println!(
        "{} samples up to t = {}, max |sin(θ − θ_exact)| on [0, 2] = {worst:.1e}",
        traj.len(),
        traj.t[traj.len() - 1]
    );
    // it stopped near the singular crossing at t ≈ 8.6, after few steps (not near
    // the step limit of 1e6), saying why and where
    assert!(t_fail > 8.0 && t_fail < 9.0, "{msg}");
    assert!(steps < 20_000, "{steps} steps: {msg}");
    assert!(msg.contains("step size collapsed"), "{msg}");
    assert!(
        msg.contains("near singular") && msg.contains("joint `"),
        "{msg}"
    );
    assert!(
        traj.t[traj.len() - 1] > 8.5,
        "the samples up to the stop are kept"
    );
    // before the error of the singular crossings has grown (about ×5 per crossing),
    // the exact motion to the integrator's tolerance
    assert!(worst < 1e-6, "{worst:e}");
}
