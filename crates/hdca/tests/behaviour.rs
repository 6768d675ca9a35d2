//! Construction errors, initial state, determinism for any thread count, allocation-
//! free reuse.

use std::sync::Arc;

use mbs_hdca::{Hdca, HdcaError, HdcaParams};
use mbs_integrators::OdeSystem;
use mbs_linalg::Par;
use mbs_mechanisms::{ChainJoint, closed_loop, open_chain};
use mbs_model::{BodyRef, JointKind, Layout, ModelBuilder, State};
use nalgebra::{Matrix3, Vector3};

#[test]
fn unsupported_joint_is_named_with_the_reason() {
    let mut b = ModelBuilder::new("u");
    let l = b.body("link", 1.0, Matrix3::identity());
    b.set_initial_pose(
        l,
        Vector3::new(0.5, 0.0, 0.0),
        mbs_kinematics::euler_params::identity(),
    );
    b.joint_at(
        "track",
        JointKind::SinePath {
            amplitude: 0.1,
            wavenumber: 2.0,
        },
        BodyRef::Ground,
        BodyRef::Body(l),
        Vector3::zeros(),
        Vector3::z(),
    );
    let err = Hdca::new(Arc::new(b.build().unwrap()), HdcaParams::default()).unwrap_err();
    assert!(matches!(err, HdcaError::UnsupportedJoint { .. }));
    let msg = err.to_string();
    assert!(
        msg.contains("track") && msg.contains("sine_path") && msg.contains("motion subspace"),
        "{err}"
    );
}

/// A driver is refused with the formulation's reason, naming it.
#[test]
fn driver_is_refused_with_the_reason() {
    let model = mbs_mechanisms::registry::Mechanism::from_name("space-crane")
        .unwrap()
        .build()
        .unwrap();
    let name = model.drivers()[0].name.clone();
    let err = Hdca::new(Arc::new(model), HdcaParams::default()).unwrap_err();
    assert!(matches!(err, HdcaError::UnsupportedDriver { .. }));
    let msg = err.to_string();
    assert!(msg.contains(&name) && msg.contains("rheonomic"), "{err}");
}

/// Base-body case (a): a free body falls with ṗ = [m g; r × m g] and keeps its
/// spin momentum.
#[test]
fn free_floating_body_falls() {
    let mut b = ModelBuilder::new("free");
    b.gravity(Vector3::new(0.0, -9.81, 0.0));
    let id = b.body(
        "drifter",
        2.0,
        Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0)),
    );
    b.set_initial_pose(
        id,
        Vector3::new(1.0, 2.0, 3.0),
        mbs_kinematics::euler_params::identity(),
    );
    b.set_initial_velocity(id, Vector3::new(0.5, 0.0, 0.0), Vector3::new(0.0, 0.0, 1.0));
    let mut h = Hdca::new(Arc::new(b.build().unwrap()), HdcaParams::default()).unwrap();
    let y = h.initial_state();
    assert_eq!((h.n_coords(), h.n_momenta()), (7, 6));
    let mut dy = vec![0.0; y.len()];
    h.rhs(0.0, &y, &mut dy).unwrap();
    // q̇ = [ṙ; ė], ṗ = [m g; 0] (momenta conjugate to [ṙ; ω] at the centre of mass),
    // stored divided by the joint-space mass diagonal [m, m, m, J₁, J₂, J₃]
    assert!((dy[0] - 0.5).abs() < 1e-14);
    let s = h.momentum_scales();
    assert!(
        (s[0] - 2.0).abs() < 1e-14 && (s[4] - 2.0).abs() < 1e-14,
        "{s:?}"
    );
    assert!((dy[7 + 1] * s[1] + 2.0 * 9.81).abs() < 1e-12, "{dy:?}");
    assert!(dy[7 + 3..].iter().all(|x| x.abs() < 1e-12), "{dy:?}");
}

#[test]
fn initial_state_reproduces_the_model_state() {
    let model = Arc::new(closed_loop(6).unwrap());
    let mut h = Hdca::new(model.clone(), HdcaParams::default()).unwrap();
    let y = h.initial_state();
    assert_eq!(y.len(), h.dim());
    let s = h.to_state(0.0, &y).unwrap();
    let s0 = State::initial(&model, Layout::EulerParamsPdot);
    assert!((s.q.clone() - s0.q.clone()).amax() < 1e-12);
    assert!((s.v.clone() - s0.v.clone()).amax() < 1e-12);
}

/// Same bits with and without rayon (and any thread count: the arithmetic of each
/// node does not depend on the schedule).
#[test]
fn parallel_and_sequential_agree_bit_for_bit() {
    for model in [
        open_chain(300, ChainJoint::Revolute).unwrap(),
        closed_loop(200).unwrap(),
    ] {
        let model = Arc::new(model);
        let mut seq = Hdca::new(
            model.clone(),
            HdcaParams {
                par: Par::Seq,
                ..HdcaParams::default()
            },
        )
        .unwrap();
        let mut par = Hdca::new(
            model.clone(),
            HdcaParams {
                par: Par::Rayon,
                parallel_min_bodies: 8,
                ..HdcaParams::default()
            },
        )
        .unwrap();
        let mut y = seq.initial_state();
        // a moving state: give every momentum a value
        let nq = seq.n_coords();
        for (k, p) in y[nq..].iter_mut().enumerate() {
            *p = ((k as f64) * 0.37).sin();
        }
        let (mut a, mut b) = (vec![0.0; y.len()], vec![0.0; y.len()]);
        seq.rhs(0.0, &y, &mut a).unwrap();
        par.rhs(0.0, &y, &mut b).unwrap();
        assert_eq!(a, b);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let mut c = vec![0.0; y.len()];
        pool.install(|| par.rhs(0.0, &y, &mut c).unwrap());
        assert_eq!(a, c);
        // reused workspace: identical repeat
        par.rhs(0.0, &y, &mut c).unwrap();
        assert_eq!(a, c);
    }
}

/// dE/dt = 0 for a conservative spatial chain: the central difference of E along
/// y' = f(y) converges to 0 like h² (no O(1) power imbalance).
#[test]
fn energy_is_conserved_to_first_order() {
    let model = Arc::new(open_chain(5, ChainJoint::Spherical).unwrap());
    let mut h = Hdca::new(model, HdcaParams::default()).unwrap();
    let mut y = h.initial_state();
    let nq = h.n_coords();
    for (k, p) in y[nq..].iter_mut().enumerate() {
        *p = 0.01 * ((k as f64) * 1.3).cos();
    }
    let mut f = vec![0.0; y.len()];
    h.rhs(0.0, &y, &mut f).unwrap();
    let mut de = Vec::new();
    for e in [1e-4, 1e-5] {
        let yp: Vec<f64> = y.iter().zip(&f).map(|(a, b)| a + e * b).collect();
        let ym: Vec<f64> = y.iter().zip(&f).map(|(a, b)| a - e * b).collect();
        de.push((h.energy(0.0, &yp).unwrap() - h.energy(0.0, &ym).unwrap()) / (2.0 * e));
    }
    assert!(
        de[1].abs() < 0.02 * de[0].abs() + 1e-9,
        "dE/dt estimates {de:?}"
    );
}

/// A state off the constraints cannot be represented in joint coordinates: refused
/// with a typed error naming the violated joint; a consistent one is accepted.
#[test]
fn inconsistent_state_is_refused_naming_the_joint() {
    let model = Arc::new(closed_loop(4).unwrap());
    let mut h = Hdca::new(model.clone(), HdcaParams::default()).unwrap();
    let good = State::initial(&model, Layout::EulerParamsOmega);
    assert!(h.state_to_y(&good).is_ok());
    let mut moved = good.clone();
    moved.q[7] += 1e-3; // body 1's x
    let err = h.state_to_y(&moved).unwrap_err();
    match &err {
        HdcaError::InconsistentState { place, value, .. } => {
            assert!(place.contains("joint `"), "{err}");
            assert!(*value > 1e-4, "{err}");
        }
        other => panic!("{other}"),
    }
    let mut spinning = good.clone();
    spinning.v[5] += 0.1; // body 0's ω'_z: violates the loop at the velocity level
    let err = h.state_to_y(&spinning).unwrap_err();
    assert!(err.to_string().contains("velocity"), "{err}");
}

/// The scaled momenta p̃ = p / s (the default) are only a change of variables: at the
/// same absolute state both forms give the same joint coordinates, p = s p̃, ṗ = s p̃̇
/// and the same q̇, and s is the diagonal of the joint-space mass matrix (for the
/// first joint of an open chain of unit rods: the whole chain's moment of inertia
/// about the base axis).
#[test]
fn scaled_momenta_are_a_change_of_variables() {
    let model = Arc::new(open_chain(4, ChainJoint::Revolute).unwrap());
    let mut scaled = Hdca::new(model.clone(), HdcaParams::default()).unwrap();
    let mut raw = Hdca::new(
        model.clone(),
        HdcaParams {
            scale_momenta: false,
            ..HdcaParams::default()
        },
    )
    .unwrap();
    assert!(raw.momentum_scales().iter().all(|&s| s == 1.0));
    // a moving state: rates on every joint
    let mut y = raw.initial_state();
    let nq = raw.n_coords();
    for (k, p) in y[nq..].iter_mut().enumerate() {
        *p = 0.3 * ((k as f64) * 0.9).cos();
    }
    y[..nq]
        .iter_mut()
        .enumerate()
        .for_each(|(k, q)| *q = 0.2 * (k as f64).sin());
    let state = raw.to_state(0.0, &y).unwrap();
    let ys = scaled.state_to_y(&state).unwrap();
    let s = scaled.momentum_scales().to_vec();
    assert_eq!(ys.len(), y.len());
    for i in 0..y.len() {
        let expect = if i < nq { y[i] } else { y[i] / s[i - nq] };
        assert!(
            (ys[i] - expect).abs() < 1e-12 * (1.0 + expect.abs()),
            "{i}: {} vs {expect}",
            ys[i]
        );
    }
    let (mut f, mut fs) = (vec![0.0; y.len()], vec![0.0; y.len()]);
    raw.rhs(0.0, &y, &mut f).unwrap();
    scaled.rhs(0.0, &ys, &mut fs).unwrap();
    for i in 0..y.len() {
        let got = if i < nq { fs[i] } else { fs[i] * s[i - nq] };
        assert!(
            (got - f[i]).abs() < 1e-11 * (1.0 + f[i].abs()),
            "{i}: {got} vs {}",
            f[i]
        );
    }
    // s of the base joint at the initial (straight) configuration: Σ (J_zz + m d²)
    // over the rods about the base axis
    let base: f64 = model
        .bodies()
        .iter()
        .enumerate()
        .map(|(b, body)| {
            let r = State::initial(&model, Layout::EulerParamsOmega).position(b);
            body.inertia[(2, 2)] + body.mass * (r.x * r.x + r.y * r.y)
        })
        .sum();
    assert!((s[0] - base).abs() < 1e-12 * base, "{} vs {base}", s[0]);
}
