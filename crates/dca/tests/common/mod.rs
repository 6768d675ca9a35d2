//! Shared helpers of the integration tests.
#![allow(dead_code)]

use std::sync::Arc;

use mbs_mechanisms::generators::SplitMix64;
use mbs_model::{Layout, Model, State};

/// A mechanism of the test families: 0 chain, 1 spherical chain, 2 tree, 3 single
/// loop, 4 ladder of coupled loops, 5 five-bar, 6 double loop, 7 free floating.
pub fn mechanism(kind: u8, seed: u64, n: usize) -> Arc<Model> {
    use mbs_mechanisms::*;
    let m = match kind {
        0 => open_chain(n, ChainJoint::Revolute),
        1 => open_chain(n, ChainJoint::Spherical),
        2 => random_tree(seed, n),
        3 => random_loop_mechanism(seed, n.max(2)),
        4 => loop_ladder(1 + n / 3),
        5 => five_bar(&AlfDcaParams::default()),
        6 => double_loop(&AlfDcaParams::default()),
        _ => return free_floating(n.max(1)),
    };
    Arc::new(m.expect("mechanism builds"))
}

/// A free-floating system (no joint to ground, the root boundary case of eq 35): a
/// chain of `n` bodies joined by spherical and revolute joints, plus one isolated body.
pub fn free_floating(n: usize) -> Arc<Model> {
    use mbs_model::{BodyRef, JointKind, ModelBuilder};
    use nalgebra::{Matrix3, Vector3};
    let mut b = ModelBuilder::new("free-floating");
    b.gravity(Vector3::new(0.0, -9.81, 0.0));
    let mut prev = None;
    for k in 0..n {
        let id = b.body(
            format!("b{k}"),
            1.0 + 0.1 * k as f64,
            Matrix3::new(0.3, 0.01, 0.0, 0.01, 0.2, 0.0, 0.0, 0.0, 0.25),
        );
        b.set_initial_pose(
            id,
            Vector3::new(k as f64 + 0.5, 0.0, 0.0),
            mbs_kinematics::euler_params::identity(),
        );
        if let Some(p) = prev {
            let kind = if k % 2 == 0 {
                JointKind::Spherical
            } else {
                JointKind::Revolute
            };
            b.joint_at(
                format!("j{k}"),
                kind,
                BodyRef::Body(p),
                BodyRef::Body(id),
                Vector3::new(k as f64, 0.0, 0.0),
                Vector3::z(),
            );
        }
        prev = Some(id);
    }
    let lone = b.body("lone", 2.0, Matrix3::from_diagonal_element(0.5));
    b.set_initial_pose(
        lone,
        Vector3::new(0.0, 3.0, 0.0),
        mbs_kinematics::euler_params::identity(),
    );
    Arc::new(b.build().expect("free-floating model"))
}

/// A random state near the initial one: positions perturbed by `dq`, random rotations
/// of size `dq`, random velocities in [−1, 1].
pub fn random_state(model: &Model, seed: u64, dq: f64) -> State {
    let mut rng = SplitMix64::new(seed ^ 0x9e37_79b9);
    let mut s = State::initial(model, Layout::EulerParamsOmega);
    for b in 0..model.n_bodies() {
        let r = s.position(b) + rng.unit_vector() * dq * rng.next_f64();
        let axis = rng.unit_vector();
        let dp = mbs_kinematics::euler_params::from_axis_angle(&axis, dq * rng.next_f64());
        let p = mbs_kinematics::euler_params::product(&s.euler_params(b), &dp);
        s.set_pose(b, &r, &p);
        let v = rng.unit_vector() * rng.uniform(-1.0, 1.0);
        let w = rng.unit_vector() * rng.uniform(-1.0, 1.0);
        s.set_velocity(b, &v, &w);
    }
    s
}
