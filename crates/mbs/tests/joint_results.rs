//! Joint results (#17.1): reactions against hand values (pendulum pivot, loaded
//! four-bar statics, driven crank), agreement across methods; energy balance (#17.2)
//! of a driven, damped model; labelled output files (#17.5).

use mbs::joints::{JointResults, MultiplierSource};
use mbs::model::{
    BodyRef, DriverKind, ForceElement, JointId, JointKind, LoadFrame, Model, ModelBuilder,
    TimeFunction,
};
use mbs::{IntegratorChoice, Simulation, Trajectory};
use nalgebra::{Matrix3, Vector3};

const G: f64 = 9.81;

fn run(model: &Model, method: &str, t_end: f64, samples: usize, tol: f64) -> Trajectory {
    Simulation::new(model.clone())
        .method(method.parse().unwrap())
        .integrator(IntegratorChoice::Rk45 {
            rtol: tol,
            atol: tol,
        })
        .t_end(t_end)
        .samples(samples)
        .run()
        .unwrap_or_else(|e| panic!("{method}: {e}"))
}

fn results(model: &Model, traj: &Trajectory) -> JointResults {
    JointResults::compute(model, traj, MultiplierSource::Recovered).unwrap()
}

fn col<'a>(jr: &'a JointResults, name: &str) -> &'a [f64] {
    jr.column(name)
        .unwrap_or_else(|| panic!("no column {name}; have {:?}", names(jr)))
}

fn names(jr: &JointResults) -> Vec<&str> {
    jr.columns.iter().map(|c| c.name.as_str()).collect()
}

/// A link of mass m, J_zz = j, centre of mass at distance l below a revolute pivot at
/// the origin (axis z), turning at ω₀ at t = 0.
fn pendulum(m: f64, j: f64, l: f64, omega0: f64) -> Model {
    let mut b = ModelBuilder::new("pendulum");
    b.gravity(Vector3::new(0.0, -G, 0.0));
    let link = b.body("link", m, Matrix3::from_diagonal(&Vector3::new(j, j, j)));
    b.set_initial_pose(
        link,
        Vector3::new(0.0, -l, 0.0),
        mbs::kinematics::euler_params::identity(),
    );
    b.set_initial_velocity(
        link,
        Vector3::new(omega0 * l, 0.0, 0.0),
        Vector3::new(0.0, 0.0, omega0),
    );
    b.joint_at(
        "pivot",
        JointKind::Revolute,
        BodyRef::Ground,
        BodyRef::Body(link),
        Vector3::zeros(),
        Vector3::z(),
    );
    b.build().unwrap()
}

#[test]
fn pendulum_pivot_force_is_m_g_plus_m_v2_over_l() {
    let (m, j, l, w0) = (2.0, 0.1, 0.8, 3.0);
    let model = pendulum(m, j, l, w0);
    let traj = run(&model, "alf-index1", 2.0, 40, 1e-10);
    let jr = results(&model, &traj);
    let fy = col(&jr, "pivot.force_y [N]");
    // at the bottom (t = 0): m g + m v²/L with v = ω₀ L
    let v = w0 * l;
    let hand = m * G + m * v * v / l;
    assert!((fy[0] - hand).abs() < 1e-9 * hand, "{} vs {hand}", fy[0]);
    // everywhere: radial balance F·n̂ = m ω² L − m g·n̂ (n̂ from the centre of mass to
    // the pivot), tangential F·t̂ = m α L − m g·t̂ with α = −m g L sin θ / (J + m L²)
    let (fx, fz) = (col(&jr, "pivot.force_x [N]"), col(&jr, "pivot.force_z [N]"));
    let angle = col(&jr, "pivot.angle [rad]");
    let rate = col(&jr, "pivot.angle_rate [rad/s]");
    let mut worst: f64 = 0.0;
    for k in 0..traj.len() {
        let r = traj.position(k, 0);
        let n = -r / l;
        let w = traj.omega(k, 0).z;
        assert!((rate[k] - w).abs() < 1e-12, "rate {k}");
        // θ from the initial marker x axis; r = L (sin θ, −cos θ) for a start at the bottom
        assert!((r.x - l * angle[k].sin()).abs() < 1e-6 && (r.y + l * angle[k].cos()).abs() < 1e-6);
        let f = Vector3::new(fx[k], fy[k], fz[k]);
        let g = Vector3::new(0.0, -G, 0.0);
        let radial = m * w * w * l - m * g.dot(&n);
        let t_hat = Vector3::z().cross(&(r / l));
        let alpha = -m * G * l * angle[k].sin() / (j + m * l * l);
        let tangential = m * alpha * l - m * g.dot(&t_hat);
        worst = worst
            .max((f.dot(&n) - radial).abs())
            .max((f.dot(&t_hat) - tangential).abs())
            .max(fz[k].abs());
    }
    eprintln!(
        "pendulum: F_y(bottom) = {} (hand {hand}), worst radial/tangential error {worst:.2e} N",
        fy[0]
    );
    assert!(worst < 1e-6 * hand, "{worst}");
}

/// The planar four-bar O₂ A B O₄ (O₂ = 0, A = (0.3, 0.4), B = (1.3, 0.4),
/// O₄ = (1, 0)), crank O₂A held at its angle by a driver, a weight W down at the
/// coupler's midpoint M = (0.8, 0.4), no gravity: statics.
fn loaded_four_bar(w: f64) -> Model {
    let mut b = ModelBuilder::new("loaded-four-bar");
    b.gravity(Vector3::zeros());
    let inertia = Matrix3::from_diagonal_element(0.01);
    let id = mbs::kinematics::euler_params::identity();
    let crank = b.body("crank", 1.0, inertia);
    b.set_initial_pose(crank, Vector3::new(0.15, 0.2, 0.0), id);
    let coupler = b.body("coupler", 1.0, inertia);
    b.set_initial_pose(coupler, Vector3::new(0.8, 0.4, 0.0), id);
    let rocker = b.body("rocker", 1.0, inertia);
    b.set_initial_pose(rocker, Vector3::new(1.15, 0.2, 0.0), id);
    let z = Vector3::z();
    let o2 = b.joint_at(
        "O2",
        JointKind::Revolute,
        BodyRef::Ground,
        BodyRef::Body(crank),
        Vector3::zeros(),
        z,
    );
    b.joint_at(
        "A",
        JointKind::Revolute,
        BodyRef::Body(crank),
        BodyRef::Body(coupler),
        Vector3::new(0.3, 0.4, 0.0),
        z,
    );
    b.joint_at(
        "B",
        JointKind::Revolute,
        BodyRef::Body(rocker),
        BodyRef::Body(coupler),
        Vector3::new(1.3, 0.4, 0.0),
        z,
    );
    b.joint_at(
        "O4",
        JointKind::Revolute,
        BodyRef::Ground,
        BodyRef::Body(rocker),
        Vector3::new(1.0, 0.0, 0.0),
        z,
    );
    let mid = b.marker_at_global(
        "M",
        BodyRef::Body(coupler),
        Vector3::new(0.8, 0.4, 0.0),
        z,
        None,
    );
    b.force(ForceElement::PointForce {
        name: "weight".into(),
        marker: mid,
        force: [
            TimeFunction::constant(0.0),
            TimeFunction::constant(-w),
            TimeFunction::constant(0.0),
        ],
        frame: LoadFrame::Global,
    });
    b.driver(
        "hold",
        DriverKind::JointAngle { joint: o2 },
        TimeFunction::constant(0.0),
    );
    b.build().unwrap()
}

#[test]
fn loaded_four_bar_statics_match_the_hand_computation() {
    let w = 100.0;
    let model = loaded_four_bar(w);
    let traj = run(&model, "lagrange-projection", 0.1, 2, 1e-10);
    let jr = results(&model, &traj);
    // Rocker O₄B is a two-force member along u = (0.6, 0.8): coupler moments about A give
    // its force s = 0.625 W; on the coupler F_B = s u = (0.375, 0.5) W, F_A = (−0.375,
    // 0.5) W; the ground holds the crank with F_O2 = F_A and the driver torque
    // 0.3 W (moment of −F_A at A about O₂); the ground holds the rocker with F_O4 = F_B.
    let expect = [
        ("O2.force_x [N]", -0.375 * w),
        ("O2.force_y [N]", 0.5 * w),
        ("A.force_x [N]", -0.375 * w), // on the coupler (body j) from the crank
        ("A.force_y [N]", 0.5 * w),
        ("B.force_x [N]", 0.375 * w), // on the coupler from the rocker
        ("B.force_y [N]", 0.5 * w),
        ("O4.force_x [N]", 0.375 * w),
        ("O4.force_y [N]", 0.5 * w),
        ("hold.effort [N·m]", 0.3 * w),
    ];
    for k in 0..traj.len() {
        for (name, hand) in expect {
            let v = col(&jr, name)[k];
            assert!(
                (v - hand).abs() < 1e-6 * w,
                "t = {}: {name} = {v}, hand {hand}",
                traj.t[k]
            );
        }
        // in the plane: no out-of-plane force, no in-plane torque at any pin
        for j in ["O2", "A", "B", "O4"] {
            assert!(col(&jr, &format!("{j}.torque_z [N·m]"))[k].abs() < 1e-6 * w || j == "O2");
        }
    }
    // held still: the motion is zero, the statics at every sample
    assert!(traj.velocity(2, 0).norm() < 1e-9);
}

/// One link of mass m, J_zz = j about its centre, centre at distance l from a ground
/// pivot (axis z) at angle θ₀ from x, turned at constant speed ω by a driver.
fn driven_crank(m: f64, j: f64, l: f64, theta0: f64, omega: f64) -> (Model, JointId) {
    let mut b = ModelBuilder::new("driven-crank");
    b.gravity(Vector3::new(0.0, -G, 0.0));
    let link = b.body("crank", m, Matrix3::from_diagonal_element(j));
    let u = Vector3::new(theta0.cos(), theta0.sin(), 0.0);
    b.set_initial_pose(link, l * u, mbs::kinematics::euler_params::identity());
    b.set_initial_velocity(
        link,
        omega * l * Vector3::z().cross(&u),
        Vector3::new(0.0, 0.0, omega),
    );
    let pivot = b.joint_at(
        "pivot",
        JointKind::Revolute,
        BodyRef::Ground,
        BodyRef::Body(link),
        Vector3::zeros(),
        Vector3::z(),
    );
    b.driver(
        "motor",
        DriverKind::JointAngle { joint: pivot },
        TimeFunction::Polynomial {
            coefficients: vec![0.0, omega],
        },
    );
    (b.build().unwrap(), pivot)
}

#[test]
fn driver_effort_of_a_crank_at_constant_speed_against_gravity() {
    let (m, j, l, th0, w) = (1.5, 0.02, 0.3, 0.4, 2.0);
    let (model, _) = driven_crank(m, j, l, th0, w);
    let traj = run(&model, "alf-index1", 3.0, 300, 1e-10);
    let jr = results(&model, &traj);
    let effort = col(&jr, "motor.effort [N·m]");
    let mut worst: f64 = 0.0;
    for (k, t) in traj.t.iter().enumerate() {
        // constant speed: the motor balances the moment of gravity about the pivot
        let hand = m * G * l * (th0 + w * t).cos();
        worst = worst.max((effort[k] - hand).abs());
    }
    eprintln!(
        "driven crank: worst |effort − m g L cos θ| = {worst:.2e} N·m (peak {})",
        m * G * l
    );
    assert!(worst < 1e-7 * m * G * l, "{worst}");
    // the work of the motor is the change of potential energy: balance residual ≈ 0
    let b = traj.energy_balance.as_ref().unwrap();
    let dv = b.potential.last().unwrap() - b.potential[0];
    assert!(
        (b.work_drivers.last().unwrap() - dv).abs() < 1e-6 * m * G * l,
        "{} vs {dv}",
        b.work_drivers.last().unwrap()
    );
    assert!(
        traj.energy_drift() < 1e-6 * m * G * l,
        "{}",
        traj.energy_drift()
    );
}

/// The pendulum of [`pendulum`], started at 1 rad from the bottom, through methods
/// of every family: the pivot reactions agree with a tight reference to the method
/// tolerance.
#[test]
fn reactions_agree_across_methods() {
    let model = {
        let mut b = ModelBuilder::new("double");
        b.gravity(Vector3::new(0.0, -G, 0.0));
        let id = mbs::kinematics::euler_params::identity();
        let inertia = Matrix3::from_diagonal_element(0.05);
        let l1 = b.body("l1", 1.0, inertia);
        b.set_initial_pose(l1, Vector3::new(0.25, 0.0, 0.0), id);
        let l2 = b.body("l2", 0.5, inertia);
        b.set_initial_pose(l2, Vector3::new(0.75, 0.0, 0.0), id);
        let z = Vector3::z();
        b.joint_at(
            "p1",
            JointKind::Revolute,
            BodyRef::Ground,
            BodyRef::Body(l1),
            Vector3::zeros(),
            z,
        );
        b.joint_at(
            "p2",
            JointKind::Revolute,
            BodyRef::Body(l1),
            BodyRef::Body(l2),
            Vector3::new(0.5, 0.0, 0.0),
            z,
        );
        b.build().unwrap()
    };
    let reference = run(&model, "lagrange-projection", 1.0, 20, 1e-11);
    let rref = results(&model, &reference);
    let scale = col(&rref, "p1.force_y [N]")
        .iter()
        .fold(0.0f64, |a, v| a.max(v.abs()));
    // the method's own λ (one per row of the [ṙ, ṗ] assembly) are the recovered ones
    if reference.multipliers.iter().all(|l| {
        l.as_ref()
            .is_some_and(|l| l.len() == rref.multipliers.len())
    }) {
        let own = JointResults::compute(&model, &reference, MultiplierSource::Method).unwrap();
        let d = max_diff(&own, &rref, "p1.force_y [N]");
        eprintln!("lagrange-projection own λ vs recovered: {d:.2e} N");
        assert!(d < 1e-6 * scale, "{d}");
    }
    // RK45 at rtol gives reactions to about rtol × scale (measured 0.1–0.5 × at 1e-8);
    // the penalty method needs rtol above its O(ε) constraint deflection
    for (method, rtol) in [
        ("alf-index1", 1e-8),
        ("alf-dca-proj", 1e-8),
        ("hdca", 1e-8),
        ("penalty:epsilon=1e-9", 1e-6),
        ("complement-qr", 1e-8),
        ("natural-partitioning", 1e-8),
    ] {
        let traj = run(&model, method, 1.0, 20, rtol);
        let jr = results(&model, &traj);
        let mut worst: f64 = 0.0;
        for c in [
            "p1.force_x [N]",
            "p1.force_y [N]",
            "p2.force_x [N]",
            "p2.force_y [N]",
            "p2.torque_z [N·m]",
        ] {
            worst = worst.max(max_diff(&jr, &rref, c));
        }
        eprintln!(
            "{method}: largest reaction difference from lagrange-projection {worst:.2e} N (scale {scale:.2})"
        );
        assert!(worst < 10.0 * rtol * scale, "{method}: {worst}");
    }
}

fn max_diff(a: &JointResults, b: &JointResults, c: &str) -> f64 {
    col(a, c)
        .iter()
        .zip(col(b, c))
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
}

/// A driven crank with a passive link on it, a rotational damper at their joint, a
/// spring–damper from the link's tip to ground and a constant applied force.
fn driven_damped() -> Model {
    driven_damped_with([true, true, true, true])
}

fn driven_damped_with(parts: [bool; 4]) -> Model {
    let mut b = ModelBuilder::new("driven-damped");
    b.gravity(Vector3::new(0.0, -G, 0.0));
    let id = mbs::kinematics::euler_params::identity();
    let inertia = Matrix3::from_diagonal_element(0.02);
    let crank = b.body("crank", 1.0, inertia);
    b.set_initial_pose(crank, Vector3::new(0.15, 0.0, 0.0), id);
    b.set_initial_velocity(
        crank,
        Vector3::new(0.0, 0.3, 0.0),
        Vector3::new(0.0, 0.0, 2.0),
    );
    let link = b.body("link", 0.8, inertia);
    b.set_initial_pose(link, Vector3::new(0.3, -0.25, 0.0), id);
    b.set_initial_velocity(link, Vector3::new(0.0, 0.6, 0.0), Vector3::zeros());
    let z = Vector3::z();
    let pivot = b.joint_at(
        "pivot",
        JointKind::Revolute,
        BodyRef::Ground,
        BodyRef::Body(crank),
        Vector3::zeros(),
        z,
    );
    let elbow = b.joint_at(
        "elbow",
        JointKind::Revolute,
        BodyRef::Body(crank),
        BodyRef::Body(link),
        Vector3::new(0.3, 0.0, 0.0),
        z,
    );
    if parts[0] {
        b.driver(
            "motor",
            DriverKind::JointAngle { joint: pivot },
            TimeFunction::Polynomial {
                coefficients: vec![0.0, 2.0],
            },
        );
    }
    if parts[1] {
        b.force(ForceElement::RotationalSpringDamper {
            name: "elbow-damper".into(),
            joint: elbow,
            stiffness: 0.0,
            damping: 0.4,
            free_angle: 0.0,
            actuator: TimeFunction::default(),
        });
    }
    let tip = b.marker_at_global(
        "tip",
        BodyRef::Body(link),
        Vector3::new(0.3, -0.5, 0.0),
        z,
        None,
    );
    let anchor = b.marker_at_global(
        "anchor",
        BodyRef::Ground,
        Vector3::new(0.6, -0.8, 0.0),
        z,
        None,
    );
    if parts[2] {
        b.force(ForceElement::SpringDamper {
            name: "strut".into(),
            marker_i: anchor,
            marker_j: tip,
            stiffness: 40.0,
            damping: 1.5,
            free_length: 0.3,
            actuator: TimeFunction::default(),
        });
    }
    if parts[3] {
        b.force(ForceElement::PointForce {
            name: "push".into(),
            marker: tip,
            force: [
                TimeFunction::constant(2.0),
                TimeFunction::constant(0.0),
                TimeFunction::constant(0.0),
            ],
            frame: LoadFrame::Global,
        });
    }
    b.build().unwrap()
}

#[test]
fn energy_balance_of_a_driven_damped_model_closes() {
    let model = driven_damped();
    let traj = run(&model, "alf-index1", 3.0, 300, 1e-10);
    let b = traj.energy_balance.as_ref().unwrap();
    let last = |v: &[f64]| *v.last().unwrap();
    let e = |k: usize| b.kinetic[k] + b.potential[k];
    let de = e(traj.len() - 1) - e(0);
    let scale = [
        last(&b.work_drivers),
        last(&b.work_dampers),
        last(&b.work_applied),
    ]
    .iter()
    .fold(de.abs(), |a, w| a.max(w.abs()));
    let residual = traj.energy_drift();
    eprintln!(
        "driven damped: ΔE {de:.4} J, W_drivers {:.4}, W_dampers {:.4}, W_applied {:.4}, residual {residual:.2e} J, quadrature error estimate {:.2e} J",
        last(&b.work_drivers),
        last(&b.work_dampers),
        last(&b.work_applied),
        b.quadrature_error
    );
    assert!(last(&b.work_dampers) < -0.01 * scale, "dampers dissipate");
    // RK45 at 1e-10; the cubic quadrature over 300 output intervals (h = 0.01 s)
    assert!(residual < 1e-5 * scale, "{residual} of {scale}");
    // leaving one work out breaks the balance by that work
    for (name, w) in [
        ("drivers", &b.work_drivers),
        ("dampers", &b.work_dampers),
        ("applied", &b.work_applied),
    ] {
        let without = (0..traj.len())
            .map(|k| (b.residual[k] + w[k]).abs())
            .fold(0.0, f64::max);
        assert!(
            without > 1e3 * residual.max(1e-12),
            "{name}: {without} vs {residual}"
        );
    }
    // coarser output samples: the quadrature's share grows, and stays below its estimate
    let coarse = run(&model, "alf-index1", 3.0, 75, 1e-10);
    let cb = coarse.energy_balance.as_ref().unwrap();
    eprintln!(
        "75 intervals: residual {:.2e} J, quadrature error estimate {:.2e} J",
        coarse.energy_drift(),
        cb.quadrature_error
    );
    assert!(coarse.energy_drift() <= cb.quadrature_error);
    assert!(coarse.energy_drift() > residual);
    assert!(cb.quadrature_error > b.quadrature_error);
}

#[test]
fn output_files_have_named_columns_with_units_and_a_manifest() {
    let (model, _) = driven_crank(1.0, 0.01, 0.2, 0.0, 1.0);
    let traj = run(&model, "alf-index1", 0.5, 10, 1e-8);
    let dir = std::env::temp_dir().join(format!("mbs-joint-files-{}", std::process::id()));
    let mut files = traj.write_all(&dir).unwrap();
    for f in mbs::joints::write_all(&dir, &model, &traj).unwrap() {
        if !files.contains(&f) {
            files.push(f);
        }
    }
    let header = |name: &str| {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        text.lines().next().unwrap().to_string()
    };
    let j = header("joints.csv");
    for c in [
        "t [s]",
        "pivot.angle [rad]",
        "pivot.force_x [N]",
        "pivot.torque_joint_z [N·m]",
        "motor.effort [N·m]",
    ] {
        assert!(j.split(',').any(|h| h == c), "{c} in {j}");
    }
    let l = header("multipliers.csv");
    for c in [
        "pivot.point_x [N]",
        "pivot.zj.xi [N·m]",
        "motor.angle [N·m]",
        "crank.normalization [N·m]",
    ] {
        assert!(l.split(',').any(|h| h == c), "{c} in {l}");
    }
    assert!(header("energy_balance.csv").contains("residual [J]"));
    let path = mbs::manifest::write(&dir, &traj, &model, &files).unwrap();
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let entry = m["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["file"] == "joints.csv")
        .unwrap();
    let force = entry["columns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "pivot.force_x [N]")
        .unwrap();
    assert_eq!(force["unit"], "N");
    assert!(
        force["meaning"]
            .as_str()
            .unwrap()
            .contains("reaction force")
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("joints.json")).unwrap()).unwrap();
    assert_eq!(json["t"].as_array().unwrap().len(), traj.len());
    std::fs::remove_dir_all(&dir).ok();
}
