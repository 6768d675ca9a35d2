//! Closed loops: the accelerations implied by HDCA (derivative of its body velocities
//! along its flow, 4th-order central differences) equal those of the absolute-
//! coordinate Lagrange formulation (minimum-norm multipliers for redundant loops) at
//! the same physical state, taken after an HDCA run so that the velocities are
//! non-zero and the positions have drifted slightly. HDCA's cut-joint velocity rows
//! are the exact derivatives of the joint equations, so both formulations enforce the
//! same velocity and acceleration constraints even at drifted positions.

use std::sync::Arc;

use mbs_alf::{Formulation, Index1, MechanismDescriptor, Projection};
use mbs_hdca::{Hdca, HdcaParams};
use mbs_integrators::{EmbeddedRk, Recorder, RkParams};
use mbs_kinematics::euler_params::omega_dot_from_pddot;
use mbs_mechanisms::{HdcaParams as CaseParams, hdca_case1, hdca_case3};
use mbs_model::{BodyRef, JointKind, Model, ModelBuilder};
use nalgebra::{DVector, Matrix3, Vector3, Vector4};

fn compare_after_run(model: Model, t1: f64) -> f64 {
    let model = Arc::new(model);
    let mut h = Hdca::new(model.clone(), HdcaParams::default()).unwrap();
    let y0 = h.initial_state();
    let n = y0.len();
    let mut rk = EmbeddedRk::rk45(n, RkParams::with_tol(1e-9, 1e-9));
    let mut rec = Recorder::default();
    rk.integrate(&mut h, 0.0, &y0, t1, &[t1], &mut rec).unwrap();
    let y = rec.state(0).to_vec();
    let mut f = vec![0.0; n];
    h.derivative(t1, &y, &mut f).unwrap();
    let eps = 1e-3;
    let mut vel_at = |s: f64| {
        let ys: Vec<f64> = y.iter().zip(&f).map(|(a, b)| a + s * b).collect();
        let st = h.to_state(t1, &ys).unwrap();
        (0..model.n_bodies())
            .map(|b| (st.velocity(b), st.omega(b)))
            .collect::<Vec<_>>()
    };
    let (p1, m1, p2, m2) = (
        vel_at(eps),
        vel_at(-eps),
        vel_at(2.0 * eps),
        vel_at(-2.0 * eps),
    );
    let d = |a: Vector3<f64>, b: Vector3<f64>, c: Vector3<f64>, e: Vector3<f64>| {
        (8.0 * (a - b) - (c - e)) / (12.0 * eps)
    };
    let st = h.to_state(t1, &y).unwrap();
    let desc = MechanismDescriptor::new(model.clone());
    let mut lag = Index1::new(
        desc,
        Formulation::Lagrange {
            baumgarte: None,
            min_norm: true,
        },
        Projection::None,
    );
    let (q, v) = (st.q.as_slice().to_vec(), st.v.as_slice().to_vec());
    let mut qdd = DVector::zeros(q.len());
    lag.accelerations(t1, &q, &v, &mut qdd).unwrap();
    let (mut err, mut scale) = (0.0_f64, 0.0_f64);
    for b in 0..model.n_bodies() {
        let acc_h = d(p1[b].0, m1[b].0, p2[b].0, m2[b].0);
        let alpha_h = d(p1[b].1, m1[b].1, p2[b].1, m2[b].1);
        let acc_l = Vector3::new(qdd[7 * b], qdd[7 * b + 1], qdd[7 * b + 2]);
        let p = Vector4::new(q[7 * b + 3], q[7 * b + 4], q[7 * b + 5], q[7 * b + 6]);
        let pdd = Vector4::new(
            qdd[7 * b + 3],
            qdd[7 * b + 4],
            qdd[7 * b + 5],
            qdd[7 * b + 6],
        );
        let alpha_l = omega_dot_from_pddot(&p, &pdd);
        err = err
            .max((acc_h - acc_l).norm())
            .max((alpha_h - alpha_l).norm());
        scale = scale.max(acc_l.norm()).max(alpha_l.norm());
    }
    err / scale.max(1.0)
}

/// A spatial four-bar (ground + 3 bodies): revolute, universal, spherical and a
/// revolute closing the loop; mobility 1 + idle spin, no redundancy.
fn spatial_four_bar(cut: JointKind) -> Model {
    let mut b = ModelBuilder::new("spatial-four-bar");
    b.gravity(Vector3::new(0.0, -9.81, 0.0));
    let pa = Vector3::new(0.0, 0.0, 0.0);
    let pb = Vector3::new(0.4, 0.9, 0.0);
    let pc = Vector3::new(2.0, 1.2, 0.7);
    let pd = Vector3::new(2.0, 0.0, 0.5);
    let mut body = |name: &str, from: Vector3<f64>, to: Vector3<f64>| {
        let id = b.body(
            name,
            1.0,
            Matrix3::from_diagonal(&Vector3::new(0.2, 0.1, 0.15)),
        );
        b.set_initial_pose(
            id,
            0.5 * (from + to),
            mbs_kinematics::euler_params::identity(),
        );
        id
    };
    let crank = body("crank", pa, pb);
    let coupler = body("coupler", pb, pc);
    let rocker = body("rocker", pd, pc);
    let (g, c1, c2, c3) = (
        BodyRef::Ground,
        BodyRef::Body(crank),
        BodyRef::Body(coupler),
        BodyRef::Body(rocker),
    );
    b.joint_at("A", JointKind::Revolute, g, c1, pa, Vector3::z());
    b.joint_at("B", JointKind::Spherical, c1, c2, pb, Vector3::z());
    let (u_i, u_j) = (Vector3::x(), Vector3::y());
    let mi = b.marker_at_global("C.i", c2, pc, u_i, None);
    let mj = b.marker_at_global("C.j", c3, pc, u_j, None);
    b.joint("C", JointKind::Universal, mi, mj);
    // closing joint to ground at D; revolute axis along z
    b.joint_at("D", cut, c3, g, pd, Vector3::z());
    b.build().unwrap()
}

#[test]
fn case1_accelerations_match_lagrange_after_a_run() {
    let e = compare_after_run(hdca_case1(&CaseParams::default()).unwrap(), 0.5);
    println!("case 1: relative acceleration difference {e:e}");
    assert!(e < 1e-8, "{e}");
}

#[test]
fn case3_accelerations_match_lagrange_after_a_run() {
    let e = compare_after_run(hdca_case3(&CaseParams::default()).unwrap(), 0.5);
    println!("case 3: relative acceleration difference {e:e}");
    assert!(e < 1e-8, "{e}");
}

#[test]
fn spatial_four_bar_accelerations_match_lagrange() {
    for cut in [
        JointKind::Revolute,
        JointKind::Spherical,
        JointKind::Cylindrical,
    ] {
        let e = compare_after_run(spatial_four_bar(cut.clone()), 0.4);
        println!("spatial four-bar, {cut:?} joint D: relative acceleration difference {e:e}");
        assert!(e < 1e-8, "{cut:?}: {e}");
    }
}

/// Cut-joint reactions σ̇_c against the Lagrange multipliers of the same joint rows
/// (non-redundant spatial loop; the rows of D are the derivatives of the joint's
/// equations, so λ_Lagrange = −σ̇: Lagrange moves Φ_qᵀλ to the left-hand side).
#[test]
fn cut_joint_reactions_match_lagrange_multipliers() {
    use mbs_constraints::{ConstraintSource, SystemLayout};
    use mbs_model::Layout;
    let model = Arc::new(spatial_four_bar(JointKind::Revolute));
    let mut h = Hdca::new(model.clone(), HdcaParams::default()).unwrap();
    let y0 = h.initial_state();
    let mut rk = EmbeddedRk::rk45(y0.len(), RkParams::with_tol(1e-9, 1e-9));
    let mut rec = Recorder::default();
    rk.integrate(&mut h, 0.0, &y0, 0.3, &[0.3], &mut rec)
        .unwrap();
    let y = rec.state(0).to_vec();
    let mut react = Vec::new();
    h.cut_joint_reactions(0.3, &y, 1e-5, &mut react).unwrap();
    let st = h.to_state(0.3, &y).unwrap();
    let desc = MechanismDescriptor::new(model.clone());
    let mut lag = Index1::new(
        desc,
        Formulation::Lagrange {
            baumgarte: None,
            min_norm: false,
        },
        Projection::None,
    );
    let (q, v) = (st.q.as_slice().to_vec(), st.v.as_slice().to_vec());
    let mut qdd = DVector::zeros(q.len());
    lag.accelerations(0.3, &q, &v, &mut qdd).unwrap();
    let lam = lag.multipliers();
    let sys = SystemLayout::new(&model, Layout::EulerParamsPdot);
    let cut = model.topology().cut_joints()[0];
    let rr = sys
        .row_ranges()
        .iter()
        .find(|r| r.source == ConstraintSource::Joint(cut))
        .unwrap();
    let l = &lam[rr.start..rr.start + rr.len];
    println!("σ̇ {react:?}\nλ {l:?}");
    let scale = l.iter().fold(1.0_f64, |m, x| m.max(x.abs()));
    for (s, l) in react.iter().zip(l) {
        assert!((s + l).abs() < 1e-6 * scale, "σ̇ {react:?} vs λ {l:?}");
    }
}
