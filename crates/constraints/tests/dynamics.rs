//! Mass matrices, forces and energies: power balance of conservative elements
//! (Q·v = −dV/dt, quadratic-velocity terms do no work), the same free-body accelerations
//! in both layouts, kinetic energy ½vᵀMv, and force-element edge cases.

mod common;

use common::{Draw, along_motion, random_state};
use mbs_constraints::{SystemLayout, Workspace};
use mbs_kinematics::euler_params::{from_rotation, g_matrix, rotation};
use mbs_model::{
    BodyRef, ForceElement, JointKind, Layout, LoadFrame, Model, ModelBuilder, State, TimeFunction,
};
use nalgebra::{DMatrix, DVector, Matrix3, Vector3};
use proptest::prelude::*;

fn spd(d: &mut Draw) -> Matrix3<f64> {
    let r = d.rot();
    let diag = Matrix3::from_diagonal(&Vector3::new(
        d.range(0.5, 1.0),
        d.range(0.5, 1.0),
        d.range(0.5, 1.0),
    ));
    r * diag * r.transpose()
}

/// Two free bodies with gravity and undamped springs (conservative elements only).
fn conservative_model(d: &mut Draw) -> Model {
    let mut b = ModelBuilder::new("springs");
    b.gravity(d.vec3(9.81));
    let (j0, j1) = (spd(d), spd(d));
    let b0 = b.body("b0", d.range(0.5, 2.0), j0);
    let b1 = b.body("b1", d.range(0.5, 2.0), j1);
    let m0 = b.marker("m0", BodyRef::Body(b0), d.vec3(0.5), Matrix3::identity());
    let m1 = b.marker("m1", BodyRef::Body(b1), d.vec3(0.5), Matrix3::identity());
    let g = b.marker("g", BodyRef::Ground, d.vec3(1.0), Matrix3::identity());
    b.force(ForceElement::SpringDamper {
        name: "s01".into(),
        marker_i: m0,
        marker_j: m1,
        stiffness: d.range(1.0, 10.0),
        damping: 0.0,
        free_length: d.range(0.0, 1.0),
        actuator: TimeFunction::default(),
    });
    b.force(ForceElement::SpringDamper {
        name: "sg".into(),
        marker_i: g,
        marker_j: m1,
        stiffness: d.range(1.0, 10.0),
        damping: 0.0,
        free_length: d.range(0.0, 1.0),
        actuator: TimeFunction::default(),
    });
    // Always compressed: free length beyond any distance of the random poses.
    b.force(ForceElement::UnilateralSpring {
        name: "tyre".into(),
        marker_i: m0,
        marker_j: g,
        stiffness: d.range(1.0, 10.0),
        damping: 0.0,
        free_length: 10.0,
    });
    b.build().unwrap()
}

fn power_and_dvds(model: &Model, state: &State) -> (f64, f64) {
    let sys = SystemLayout::new(model, state.layout);
    let mut ws = Workspace::new(&sys);
    ws.evaluate(model, &sys, state).unwrap();
    let mut q = vec![0.0; sys.n_v()];
    ws.generalized_forces(&sys, &mut q).unwrap();
    let power: f64 = q.iter().zip(state.v.iter()).map(|(a, b)| a * b).sum();
    let h = 1e-6;
    let mut v = |s: f64| {
        ws.evaluate(model, &sys, &along_motion(state, s, false))
            .unwrap();
        ws.potential_energy()
    };
    let dvds = (v(h) - v(-h)) / (2.0 * h);
    (power, dvds)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// d(T + V)/dt = 0 for a free system with conservative forces: Q·v = dT/dt (the
    /// quadratic-velocity terms do no work) must equal −dV/dt.
    #[test]
    fn conservative_forces_balance_power(draws in prop::collection::vec(-1.0f64..1.0, 80)) {
        let mut d = Draw::new(draws);
        let model = conservative_model(&mut d);
        let state = random_state(&mut d, Layout::EulerParamsOmega, 2);
        for layout in [Layout::EulerParamsOmega, Layout::EulerParamsPdot] {
            let (power, dvds) = power_and_dvds(&model, &state.to_layout(layout));
            prop_assert!((power + dvds).abs() < 1e-6 * (1.0 + power.abs()), "{layout:?}: Q·v = {power}, dV/dt = {dvds}");
        }
    }

    /// Free-body accelerations agree between the layouts (Euler's equation vs the
    /// Euler-parameter equations with 8ĠᵀJ'Ġp and 2Gᵀn' and the normalization row).
    #[test]
    fn free_body_accelerations_agree(draws in prop::collection::vec(-1.0f64..1.0, 80)) {
        let mut d = Draw::new(draws);
        let mut b = ModelBuilder::new("free");
        b.gravity(d.vec3(9.81));
        let j = spd(&mut d);
        let body = b.body("body", d.range(0.5, 2.0), j);
        let rot = d.rot();
        let mk = b.marker("m", BodyRef::Body(body), d.vec3(0.5), rot);
        let f = |d: &mut Draw| TimeFunction::Harmonic { amplitude: d.next(), frequency: 1.0, phase: d.next(), offset: d.next() };
        b.force(ForceElement::PointForce { name: "f".into(), marker: mk, force: [f(&mut d), f(&mut d), f(&mut d)], frame: LoadFrame::Marker });
        b.force(ForceElement::Torque { name: "n".into(), marker: mk, torque: [f(&mut d), f(&mut d), f(&mut d)], frame: LoadFrame::Marker });
        b.force(ForceElement::Torque { name: "ng".into(), marker: mk, torque: [f(&mut d), f(&mut d), f(&mut d)], frame: LoadFrame::Global });
        let model = b.build().unwrap();
        let state = random_state(&mut d, Layout::EulerParamsOmega, 1);

        // [ṙ, ω']: v̇ = M⁻¹ Q.
        let sys = SystemLayout::new(&model, Layout::EulerParamsOmega);
        let mut ws = Workspace::new(&sys);
        ws.evaluate(&model, &sys, &state).unwrap();
        let mut m = DMatrix::zeros(6, 6);
        ws.mass_dense(&sys, &mut m).unwrap();
        let mut q = vec![0.0; 6];
        ws.generalized_forces(&sys, &mut q).unwrap();
        let acc_w = m.lu().solve(&DVector::from_column_slice(&q)).unwrap();

        // [ṙ, ṗ]: [M Φ_qᵀ; Φ_q 0] [p̈; λ] = [Q; γ] with the normalization row.
        let sp = state.to_layout(Layout::EulerParamsPdot);
        let sys = SystemLayout::new(&model, Layout::EulerParamsPdot);
        let mut ws = Workspace::new(&sys);
        ws.evaluate(&model, &sys, &sp).unwrap();
        let mut kkt = DMatrix::zeros(8, 8);
        let mut mm = DMatrix::zeros(7, 7);
        ws.mass_dense(&sys, &mut mm).unwrap();
        let mut jac = DMatrix::zeros(1, 7);
        ws.phi_q_dense(&sys, &mut jac).unwrap();
        kkt.view_mut((0, 0), (7, 7)).copy_from(&mm);
        kkt.view_mut((7, 0), (1, 7)).copy_from(&jac);
        kkt.view_mut((0, 7), (7, 1)).copy_from(&jac.transpose());
        let mut rhs = DVector::zeros(8);
        let mut q = vec![0.0; 7];
        ws.generalized_forces(&sys, &mut q).unwrap();
        rhs.rows_mut(0, 7).copy_from_slice(&q);
        let mut gamma = [0.0];
        ws.gamma(&sys, &mut gamma).unwrap();
        rhs[7] = gamma[0];
        let sol = kkt.lu().solve(&rhs).unwrap();
        let p = sp.euler_params(0);
        let pdd = sol.fixed_rows::<4>(3).into_owned();
        let wdot = 2.0 * g_matrix(&p) * pdd;
        let rdd = sol.fixed_rows::<3>(0).into_owned();
        let scale = 1.0 + acc_w.amax();
        prop_assert!((rdd - acc_w.fixed_rows::<3>(0)).amax() < 1e-9 * scale);
        prop_assert!((wdot - acc_w.fixed_rows::<3>(3)).amax() < 1e-9 * scale, "ω̇' {wdot:?} vs {:?}", acc_w.fixed_rows::<3>(3));
        // Kinetic energy ½ vᵀ M v in both layouts.
        let t_p = 0.5 * sp.v.dot(&(&mm * &sp.v));
        prop_assert!((t_p - ws.kinetic_energy(&sys)).abs() < 1e-12 * (1.0 + t_p));
    }
}

#[test]
fn quadratic_velocity_terms_do_no_work() {
    let mut d = Draw::new((0..60).map(|k| ((k as f64) * 0.377).sin()).collect());
    let mut b = ModelBuilder::new("spin");
    let j = spd(&mut d);
    b.body("body", 1.0, j);
    let model = b.build().unwrap();
    let state = random_state(&mut d, Layout::EulerParamsOmega, 1);
    for layout in [Layout::EulerParamsOmega, Layout::EulerParamsPdot] {
        let s = state.to_layout(layout);
        let sys = SystemLayout::new(&model, layout);
        let mut ws = Workspace::new(&sys);
        ws.evaluate(&model, &sys, &s).unwrap();
        let mut q = vec![0.0; sys.n_v()];
        ws.generalized_forces(&sys, &mut q).unwrap();
        let power: f64 = q.iter().zip(s.v.iter()).map(|(a, b)| a * b).sum();
        assert!(
            q.iter().any(|x| x.abs() > 1e-3),
            "{layout:?}: gyroscopic terms are not trivially zero"
        );
        assert!(power.abs() < 1e-13, "{layout:?}: power {power}");
    }
}

/// The rotational spring about a revolute axis: with the axes aligned and the relative
/// rotation about zᵢ, its torques do power −dV/dt; its torque is −k(θ − θ₀).
#[test]
fn rotational_spring_power_and_sign() {
    let mut d = Draw::new((0..80).map(|k| ((k as f64) * 0.913).sin()).collect());
    let mut b = ModelBuilder::new("rot");
    let b0 = b.body("b0", 1.0, spd(&mut d));
    let b1 = b.body("b1", 1.0, spd(&mut d));
    let (ri, rj) = (d.rot(), d.rot());
    let mi = b.marker("mi", BodyRef::Body(b0), d.vec3(0.5), ri);
    let mj = b.marker("mj", BodyRef::Body(b1), d.vec3(0.5), rj);
    let joint = b.joint("hinge", JointKind::Revolute, mi, mj);
    let (k, theta0, theta): (f64, f64, f64) = (3.0, 0.4, -0.9);
    b.force(ForceElement::RotationalSpringDamper {
        name: "spring".into(),
        joint,
        stiffness: k,
        damping: 0.0,
        free_angle: theta0,
        actuator: TimeFunction::default(),
    });
    let model = b.build().unwrap();
    let mut state = State::zeros(Layout::EulerParamsOmega, 2);
    let p0 = d.quat();
    let a0 = rotation(&p0);
    let rz = Matrix3::new(
        theta.cos(),
        -theta.sin(),
        0.0,
        theta.sin(),
        theta.cos(),
        0.0,
        0.0,
        0.0,
        1.0,
    );
    let a1 = a0 * ri * rz * rj.transpose();
    state.set_pose(0, &d.vec3(1.0), &p0);
    state.set_pose(1, &d.vec3(1.0), &from_rotation(&a1));
    let zi = a0 * ri.column(2);
    let w0 = d.vec3(1.0);
    state.set_velocity_global(0, &d.vec3(1.0), &w0);
    state.set_velocity_global(1, &d.vec3(1.0), &(w0 + 0.7 * zi));
    for layout in [Layout::EulerParamsOmega, Layout::EulerParamsPdot] {
        let s = state.to_layout(layout);
        let (power, dvds) = power_and_dvds(&model, &s);
        assert!(
            (power + dvds).abs() < 1e-6,
            "{layout:?}: Q·v = {power}, dV/dt = {dvds}"
        );
        let sys = SystemLayout::new(&model, layout);
        let mut ws = Workspace::new(&sys);
        ws.evaluate(&model, &sys, &s).unwrap();
        assert!((ws.potential_energy() - 0.5 * k * (theta - theta0).powi(2)).abs() < 1e-12);
        let (_, n1) = ws.body_load(1);
        let tau = (a1 * n1).dot(&zi);
        assert!((tau + k * (theta - theta0)).abs() < 1e-12, "torque {tau}");
    }
}

#[test]
fn zero_length_and_slack_springs_apply_no_force() {
    let mut b = ModelBuilder::new("edge");
    let body = b.body("body", 1.0, Matrix3::identity());
    let m = b.marker(
        "m",
        BodyRef::Body(body),
        Vector3::zeros(),
        Matrix3::identity(),
    );
    let g = b.marker("g", BodyRef::Ground, Vector3::zeros(), Matrix3::identity());
    b.force(ForceElement::SpringDamper {
        name: "s".into(),
        marker_i: g,
        marker_j: m,
        stiffness: 5.0,
        damping: 1.0,
        free_length: 1.0,
        actuator: TimeFunction::default(),
    });
    b.force(ForceElement::UnilateralSpring {
        name: "u".into(),
        marker_i: g,
        marker_j: m,
        stiffness: 5.0,
        damping: 1.0,
        free_length: 0.5,
    });
    let model = b.build().unwrap();
    let sys = SystemLayout::new(&model, Layout::EulerParamsOmega);
    let mut ws = Workspace::new(&sys);
    let mut state = State::zeros(Layout::EulerParamsOmega, 1);
    state.v[0] = 1.0;
    ws.evaluate(&model, &sys, &state).unwrap();
    let mut q = vec![0.0; 6];
    ws.generalized_forces(&sys, &mut q).unwrap();
    assert!(q.iter().all(|x| *x == 0.0), "zero-length springs: {q:?}");
    assert!((ws.potential_energy() - (0.5 * 5.0 + 0.5 * 5.0 * 0.25)).abs() < 1e-15);
    // Extended beyond the free length: the unilateral spring is slack, the spring pulls.
    state.q[0] = 2.0;
    state.v[0] = 0.0;
    ws.evaluate(&model, &sys, &state).unwrap();
    ws.generalized_forces(&sys, &mut q).unwrap();
    assert!((q[0] + 5.0).abs() < 1e-12, "{q:?}");
    // Compressed: the unilateral spring pushes body (marker j) away from ground.
    state.q[0] = 0.25;
    ws.evaluate(&model, &sys, &state).unwrap();
    ws.generalized_forces(&sys, &mut q).unwrap();
    assert!((q[0] - (5.0 * 0.75 + 5.0 * 0.25)).abs() < 1e-12, "{q:?}");
}
