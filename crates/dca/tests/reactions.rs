//! Reaction forces from the multipliers (eq 17): the generalized constraint forces of
//! the joints balance the equations of motion, M q̈ = Q − Φ_qᵀλ, body by body
//! (Newton's and Euler's equations with gravity).

mod common;

use mbs_dca::{AlfDca, DcaParams};
use mbs_integrators::OdeSystem;
use mbs_model::JointId;

#[test]
fn equations_of_motion_balance_with_reactions() {
    for kind in [5u8, 6, 2] {
        let model = common::mechanism(kind, 4, 6);
        let mut dca = AlfDca::new(model.clone(), DcaParams::default());
        let y = dca.initial_state();
        let mut dy = vec![0.0; dca.dim()];
        dca.rhs(0.0, &y, &mut dy).unwrap();
        let n = model.n_bodies();
        // Σ over joints of the reactions on each body
        let mut reac = vec![nalgebra::Vector6::<f64>::zeros(); n];
        for j in 0..model.joints().len() {
            let (fi, fj) = dca.joint_reaction(JointId(j)).unwrap();
            let (bi, bj) = model.joint_bodies(JointId(j));
            if let Some(b) = bi.body() {
                reac[b.0] += fi;
            }
            if let Some(b) = bj.body() {
                reac[b.0] += fj;
            }
        }
        let acc = dca.accelerations().to_vec();
        for b in 0..n {
            let body = model.body(mbs_model::BodyId(b));
            let a = &acc[6 * b..6 * b + 6];
            let v = &y[7 * n + 6 * b..7 * n + 6 * b + 6];
            let w = nalgebra::Vector3::new(v[3], v[4], v[5]);
            let jw = body.inertia * nalgebra::Vector3::new(a[3], a[4], a[5]);
            let gyro = w.cross(&(body.inertia * w));
            let g = model.gravity() * body.mass;
            for i in 0..3 {
                let lin = body.mass * a[i] - g[i] - reac[b][i];
                let rot = jw[i] + gyro[i] - reac[b][3 + i];
                assert!(
                    lin.abs() < 1e-6 && rot.abs() < 1e-6,
                    "kind {kind} body {b}: residual {lin:e} {rot:e}"
                );
            }
        }
    }
}

#[test]
fn front_end_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<AlfDca>();
    check::<mbs_dca::DcaError>();
}
