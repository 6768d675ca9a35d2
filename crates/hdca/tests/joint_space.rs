//! `joint_space_dynamics` against independent computations on random revolute and
//! prismatic trees: H from the kinetic energy ½ uᵀ H u of the bodies' absolute
//! velocities (polarisation), C at rest from finite differences of the potential
//! energy (C = ∂V/∂q), and H⁻¹(−C) against the articulated-body algorithm's
//! accelerations at nonzero velocities with spring–dampers; a damped pendulum
//! checks the sign convention analytically.

#[path = "common/trees.rs"]
mod trees;

use std::sync::Arc;

use mbs_hdca::{Aba, AbaParams, joint_space_dynamics};
use mbs_model::{BodyRef, ForceElement, JointId, JointKind, Model, ModelBuilder, TimeFunction};
use nalgebra::{DVector, Matrix3, Vector3};
use trees::{Rng, random_tree};

const KINDS: [JointKind; 2] = [JointKind::Revolute, JointKind::Prismatic];

/// Relative ∞-norm difference.
fn rel(a: &[f64], b: &[f64]) -> f64 {
    let d = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max);
    let s = b.iter().map(|x| x.abs()).fold(0.0, f64::max).max(1e-300);
    d / s
}

/// The model with a rotational spring–damper on every revolute joint.
fn with_dampers(model: &Model, rng: &mut Rng) -> Model {
    let mut parts = model.to_parts();
    for (k, j) in model.joints().iter().enumerate() {
        if j.kind == JointKind::Revolute {
            parts.forces.push(ForceElement::RotationalSpringDamper {
                name: format!("sd{k}"),
                joint: JointId(k),
                stiffness: rng.u(0.0, 5.0),
                damping: rng.u(0.0, 2.0),
                free_angle: rng.u(-0.5, 0.5),
                actuator: TimeFunction::default(),
            });
        }
    }
    Model::from_parts(parts).unwrap()
}

#[test]
fn mass_matrix_is_the_kinetic_energy() {
    for seed in 1..=6 {
        let model = random_tree(seed, 12, &KINDS, false);
        let js = joint_space_dynamics(&model).unwrap();
        let n = js.dof_names.len();
        assert_eq!(n, 12);
        let h = &js.mass_matrix;
        assert!(
            (h - h.transpose()).amax() <= 1e-14 * h.amax(),
            "H symmetric"
        );
        let mut aba = Aba::new(Arc::new(model), AbaParams::default()).unwrap();
        let y0 = aba.initial_state().unwrap();
        let nq = aba.n_coords();
        let mut y = y0.clone();
        y[nq..].fill(0.0);
        let e0 = aba.energy(0.0, &y).unwrap();
        let mut kinetic = |u: &DVector<f64>| {
            y[nq..].copy_from_slice(u.as_slice());
            aba.energy(0.0, &y).unwrap() - e0
        };
        let mut rng = Rng(seed);
        for _ in 0..5 {
            let a = DVector::from_fn(n, |_, _| rng.u(-1.0, 1.0));
            let b = DVector::from_fn(n, |_, _| rng.u(-1.0, 1.0));
            // ½ uᵀHu and the polarisation aᵀHb = T(a+b) − T(a) − T(b)
            let t = kinetic(&a);
            assert!(
                (t - 0.5 * a.dot(&(h * &a))).abs() <= 1e-11 * t.max(1.0),
                "seed {seed}"
            );
            let ab = kinetic(&(&a + &b)) - t - kinetic(&b);
            let hab = a.dot(&(h * &b));
            assert!(
                (ab - hab).abs() <= 1e-10 * (t.max(1.0)),
                "seed {seed}: {ab} vs {hab}"
            );
        }
    }
}

#[test]
fn bias_at_rest_is_the_gradient_of_the_potential() {
    for seed in 1..=4 {
        let mut model = random_tree(seed, 8, &KINDS, false);
        let mut parts = model.to_parts();
        for b in &mut parts.bodies {
            b.initial.velocity = Vector3::zeros();
            b.initial.omega = Vector3::zeros();
        }
        model = with_dampers(&Model::from_parts(parts).unwrap(), &mut Rng(seed + 100));
        let js = joint_space_dynamics(&model).unwrap();
        assert!(js.u.amax() < 1e-14);
        let mut aba = Aba::new(Arc::new(model), AbaParams::default()).unwrap();
        let y0 = aba.initial_state().unwrap();
        let nq = aba.n_coords();
        assert_eq!(nq, js.dof_names.len(), "revolute and prismatic: n_q = n_u");
        let dq = 1e-5;
        let mut grad = vec![0.0; nq];
        for i in 0..nq {
            let mut v = |s: f64| {
                let mut y = y0.clone();
                y[i] += s * dq;
                aba.energy(0.0, &y).unwrap()
            };
            // fourth-order central difference
            grad[i] = (-v(2.0) + 8.0 * v(1.0) - 8.0 * v(-1.0) + v(-2.0)) / (12.0 * dq);
        }
        let e = rel(js.bias.as_slice(), &grad);
        assert!(e < 1e-8, "seed {seed}: C(q, 0) vs ∂V/∂q: {e:e}");
    }
}

#[test]
fn accelerations_equal_the_articulated_body_algorithm() {
    for seed in 1..=6 {
        let model = with_dampers(&random_tree(seed, 15, &KINDS, false), &mut Rng(seed + 7));
        let js = joint_space_dynamics(&model).unwrap();
        let ud = js
            .mass_matrix
            .clone()
            .cholesky()
            .expect("H positive definite")
            .solve(&(-&js.bias));
        let mut aba = Aba::new(Arc::new(model), AbaParams::default()).unwrap();
        let y = aba.initial_state().unwrap();
        let nq = aba.n_coords();
        assert!(rel(js.u.as_slice(), &y[nq..]) < 1e-15);
        assert!(js.u.amax() > 0.1, "the test needs velocities");
        let mut dy = vec![0.0; y.len()];
        aba.derivative(0.0, &y, &mut dy).unwrap();
        let e = rel(ud.as_slice(), &dy[nq..]);
        assert!(e < 1e-10, "seed {seed}: H⁻¹(−C) vs ABA: {e:e}");
    }
}

/// A pendulum: rod of mass m, centre at distance r from the pivot, at angle θ from
/// the downward vertical, turning at ω, with a damper c: H = J + m r²,
/// C = m g r sin θ + c ω.
#[test]
fn damped_pendulum_sign_convention() {
    let (m, r, jc, g, c, theta, omega) = (2.0, 0.7, 0.05, 9.81, 0.3, 0.4_f64, 1.3);
    let mut b = ModelBuilder::new("pendulum");
    b.gravity(Vector3::new(0.0, -g, 0.0));
    let link = b.body("rod", m, Matrix3::from_diagonal_element(jc));
    let dir = Vector3::new(theta.sin(), -theta.cos(), 0.0);
    let e = mbs_kinematics::euler_params::from_axis_angle(&Vector3::z(), theta);
    b.set_initial_pose(link, r * dir, e);
    b.set_initial_velocity(
        link,
        omega * Vector3::z().cross(&(r * dir)),
        omega * Vector3::z(),
    );
    let pivot = b.joint_at(
        "pivot",
        JointKind::Revolute,
        BodyRef::Ground,
        BodyRef::Body(link),
        Vector3::zeros(),
        Vector3::z(),
    );
    b.force(ForceElement::RotationalSpringDamper {
        name: "damper".into(),
        joint: pivot,
        stiffness: 0.0,
        damping: c,
        free_angle: 0.0,
        actuator: TimeFunction::default(),
    });
    let js = joint_space_dynamics(&b.build().unwrap()).unwrap();
    assert_eq!(js.dof_names, vec!["pivot".to_string()]);
    assert_eq!(js.joints[0].kind, "revolute");
    assert!((js.u[0] - omega).abs() < 1e-14);
    assert!((js.mass_matrix[(0, 0)] - (jc + m * r * r)).abs() < 1e-14);
    let expected = m * g * r * theta.sin() + c * omega;
    assert!(
        (js.bias[0] - expected).abs() < 1e-13,
        "{} vs {expected}",
        js.bias[0]
    );
}

#[test]
fn closed_loops_are_refused() {
    // a four-bar: ground, crank, coupler, rocker
    let mut b = ModelBuilder::new("fourbar");
    let i = Matrix3::from_diagonal_element(0.01);
    let crank = b.body("crank", 1.0, i);
    let coupler = b.body("coupler", 1.0, i);
    let rocker = b.body("rocker", 1.0, i);
    let id = mbs_kinematics::euler_params::identity();
    b.set_initial_pose(crank, Vector3::new(0.0, 0.5, 0.0), id);
    b.set_initial_pose(coupler, Vector3::new(0.5, 1.0, 0.0), id);
    b.set_initial_pose(rocker, Vector3::new(1.0, 0.5, 0.0), id);
    let z = Vector3::z();
    let rev = JointKind::Revolute;
    b.joint_at(
        "a",
        rev.clone(),
        BodyRef::Ground,
        BodyRef::Body(crank),
        Vector3::zeros(),
        z,
    );
    b.joint_at(
        "b",
        rev.clone(),
        BodyRef::Body(crank),
        BodyRef::Body(coupler),
        Vector3::new(0.0, 1.0, 0.0),
        z,
    );
    b.joint_at(
        "c",
        rev.clone(),
        BodyRef::Body(coupler),
        BodyRef::Body(rocker),
        Vector3::new(1.0, 1.0, 0.0),
        z,
    );
    b.joint_at(
        "d",
        rev,
        BodyRef::Body(rocker),
        BodyRef::Ground,
        Vector3::new(1.0, 0.0, 0.0),
        z,
    );
    let e = joint_space_dynamics(&b.build().unwrap()).unwrap_err();
    assert!(e.to_string().contains("closes a loop"), "{e}");
}
