//! Acceptance 1: on open chains and trees, the accelerations implied by HDCA equal
//! those of the absolute-coordinate Lagrange formulation (mbs-alf) at the same
//! physical state. HDCA's body accelerations are the derivative of its body velocities
//! along its own flow y' = f(y) (4th-order central differences); joint kinds covered:
//! revolute, prismatic, cylindrical, spherical, universal, rigid, distance.

use std::sync::Arc;

#[path = "common/trees.rs"]
mod trees;

use mbs_alf::{Formulation, Index1, MechanismDescriptor, Projection};
use mbs_hdca::{Hdca, HdcaParams};
use mbs_kinematics::euler_params::{self, omega_dot_from_pddot};
use mbs_model::{JointKind, Model};
use nalgebra::{DVector, Vector3, Vector4};
use proptest::prelude::*;
use trees::{Rng, random_tree};

/// Max relative difference between HDCA's and Lagrange's body accelerations.
fn compare(model: Model) -> f64 {
    compare_with_step(model, 3e-3)
}

/// [`compare`] with the step `eps` of the central differences.
fn compare_with_step(model: Model, eps: f64) -> f64 {
    let model = Arc::new(model);
    let mut h = Hdca::new(model.clone(), HdcaParams::default()).unwrap();
    let y0 = h.initial_state();
    let n = y0.len();
    let mut f = vec![0.0; n];
    h.derivative(0.0, &y0, &mut f).unwrap();
    // velocities along y(ε) = y0 + ε f (6th-order central difference of V(y(t)):
    // large enough a step that the round-off of the velocities, amplified by the
    // conditioning of the articulated inertias, stays well below 1e-9)
    let vel_at = |h: &mut Hdca, s: f64| -> Vec<(Vector3<f64>, Vector3<f64>)> {
        let y: Vec<f64> = y0.iter().zip(&f).map(|(a, b)| a + s * b).collect();
        // second-order accurate point on the flow: y(s) ≈ y0 + s f + s²/2 f'(y0)·f
        let st = h.to_state(0.0, &y).unwrap();
        (0..model.n_bodies())
            .map(|b| (st.velocity(b), st.omega(b)))
            .collect()
    };
    // The straight line y0 + s f has the same first derivative as the flow, and
    // d/ds V(y0 + s f) at s = 0 equals dV/dt along the flow.
    let vp1 = vel_at(&mut h, eps);
    let vm1 = vel_at(&mut h, -eps);
    let vp2 = vel_at(&mut h, 2.0 * eps);
    let vm2 = vel_at(&mut h, -2.0 * eps);
    let vp3 = vel_at(&mut h, 3.0 * eps);
    let vm3 = vel_at(&mut h, -3.0 * eps);
    let d = |[p1, m1, p2, m2, p3, m3]: [Vector3<f64>; 6]| {
        (45.0 * (p1 - m1) - 9.0 * (p2 - m2) + (p3 - m3)) / (60.0 * eps)
    };
    let desc = MechanismDescriptor::new(model.clone());
    let (q, v) = desc.initial();
    let mut lag = Index1::new(
        desc,
        Formulation::Lagrange {
            baumgarte: None,
            min_norm: false,
        },
        Projection::None,
    );
    let mut qdd = DVector::zeros(q.len());
    lag.accelerations(0.0, &q, &v, &mut qdd).unwrap();
    let mut err = 0.0_f64;
    let mut scale = 0.0_f64;
    for b in 0..model.n_bodies() {
        let acc_h = d([vp1[b].0, vm1[b].0, vp2[b].0, vm2[b].0, vp3[b].0, vm3[b].0]);
        let alpha_h = d([vp1[b].1, vm1[b].1, vp2[b].1, vm2[b].1, vp3[b].1, vm3[b].1]);
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

#[test]
fn revolute_chain_matches_lagrange() {
    let m = random_tree(3, 6, &[JointKind::Revolute], false);
    let e = compare(m);
    assert!(e < 1e-9, "relative error {e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn revolute_prismatic_trees_match_lagrange(seed in 0u64..1_000_000, n in 1usize..9) {
        let e = compare(random_tree(seed, n, &[JointKind::Revolute, JointKind::Prismatic], false));
        prop_assert!(e < 1e-9, "relative error {}", e);
    }

    /// Free-floating components (base-body case (a), virtual 6-DOF root joint).
    #[test]
    fn free_floating_trees_match_lagrange(seed in 0u64..1_000_000, n in 1usize..7) {
        let e = compare(random_tree(seed, n, &[JointKind::Revolute, JointKind::Spherical, JointKind::Prismatic], true));
        prop_assert!(e < 1e-9, "relative error {}", e);
    }

    /// Distance joints as tree joints (5 freedoms, coordinates [e_L; e]) among the
    /// other kinds, with free-floating components. The short links (≥ 0.3) turn
    /// faster than the other joints, so the 6th-order difference needs a smaller
    /// step (at 3e-3 its truncation error reached 9e-9 for seed 306211).
    #[test]
    fn distance_trees_match_lagrange(seed in 0u64..1_000_000, n in 1usize..7) {
        let e = compare_with_step(random_tree(seed, n, &[JointKind::Distance { length: 1.0 }, JointKind::Revolute, JointKind::Spherical, JointKind::Universal], true), 1.5e-3);
        prop_assert!(e < 1e-9, "relative error {}", e);
    }

    /// y → absolute state → y (`Hdca::state_to_y`) → absolute state is the identity
    /// on the states, for every joint kind, at random joint coordinates and momenta.
    #[test]
    fn state_to_y_inverts_to_state(seed in 0u64..1_000_000, n in 1usize..8) {
        let model = Arc::new(random_tree(seed, n, &[JointKind::Revolute, JointKind::Prismatic, JointKind::Cylindrical, JointKind::Spherical, JointKind::Universal, JointKind::Rigid, JointKind::Distance { length: 1.0 }], true));
        let mut h = Hdca::new(model.clone(), HdcaParams::default()).unwrap();
        let mut y = h.initial_state();
        let mut rng = Rng(seed ^ 0x5eed);
        for x in y.iter_mut() {
            *x += rng.u(-0.8, 0.8);
        }
        use mbs_integrators::OdeSystem;
        h.project(0.0, &mut y).unwrap();
        let s = h.to_state(0.3, &y).unwrap();
        let y2 = h.state_to_y(&s).unwrap();
        let s2 = h.to_state(0.3, &y2).unwrap();
        // Euler parameters may change sign (angles are recovered modulo 2π)
        let (mut dq, mut dv, mut vmax) = (0.0_f64, 0.0_f64, 1.0_f64);
        for b in 0..model.n_bodies() {
            let rot = |st: &mbs_model::State| euler_params::rotation(&st.euler_params(b));
            dq = dq.max((s.position(b) - s2.position(b)).norm()).max((rot(&s) - rot(&s2)).norm());
            dv = dv.max((s.velocity(b) - s2.velocity(b)).norm()).max((s.omega(b) - s2.omega(b)).norm());
            vmax = vmax.max(s.velocity(b).norm()).max(s.omega(b).norm());
        }
        let dv = dv / vmax;
        prop_assert!(dq < 1e-12 && dv < 1e-11, "|Δq| {:e}, |Δv| {:e}", dq, dv);
    }

    #[test]
    fn all_kinds_trees_match_lagrange(seed in 0u64..1_000_000, n in 1usize..7) {
        let e = compare(random_tree(seed, n, &[JointKind::Revolute, JointKind::Prismatic, JointKind::Planar, JointKind::Cylindrical, JointKind::Spherical, JointKind::Universal, JointKind::Rigid], false));
        prop_assert!(e < 1e-9, "relative error {}", e);
    }
}
