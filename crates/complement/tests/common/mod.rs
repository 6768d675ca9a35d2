//! Shared helpers of the integration tests.
#![allow(dead_code)]

pub mod strut;

use mbs_kinematics::EulerSequence;
use mbs_kinematics::euler_angles::{from_euler_params, rate_matrix_body, rate_matrix_body_dot};
use mbs_kinematics::euler_params::{
    from_axis_angle, omega_body_dot_from_pddot, pdot_from_omega, product,
};
use mbs_mechanisms::generators::SplitMix64;
use mbs_model::{Layout, Model, State};
use nalgebra::{DVector, Vector3, Vector4};

/// A random state near the model's initial one (positions moved by up to `dq`,
/// orientations turned by up to `dq` rad, random velocities), in the [ṙ, ṗ] layout.
pub fn random_state(model: &Model, seed: u64, dq: f64) -> State {
    let mut rng = SplitMix64::new(seed);
    let n = model.n_bodies();
    let mut s = State::zeros(Layout::EulerParamsPdot, n);
    s.t = 0.3;
    for (i, b) in model.bodies().iter().enumerate() {
        let r = b.initial.position + rng.unit_vector() * rng.uniform(0.0, dq);
        let turn = from_axis_angle(&rng.unit_vector(), rng.uniform(0.0, dq));
        let p = product(&turn, &b.initial.orientation);
        let p = p / p.norm();
        s.set_pose(i, &r, &p);
        let rd: Vector3<f64> = rng.unit_vector() * rng.uniform(0.0, 2.0);
        let w: Vector3<f64> = rng.unit_vector() * rng.uniform(0.0, 2.0);
        let pd: Vector4<f64> = pdot_from_omega(&p, &w);
        s.v.fixed_rows_mut::<3>(7 * i).copy_from(&rd);
        s.v.fixed_rows_mut::<4>(7 * i + 3).copy_from(&pd);
    }
    s
}

/// [r̈, ω̇'] per body from q̈ in the [ṙ, ṗ] layout (ω̇' = 2Gp̈, since Ġṗ = 0).
pub fn physical_from_pdot(s: &State, qdd: &DVector<f64>) -> DVector<f64> {
    let n = s.n_bodies();
    let mut out = DVector::zeros(6 * n);
    for b in 0..n {
        out.fixed_rows_mut::<3>(6 * b)
            .copy_from(&qdd.fixed_rows::<3>(7 * b));
        let pdd = qdd.fixed_rows::<4>(7 * b + 3).into_owned();
        let wd = omega_body_dot_from_pddot(&s.euler_params(b), &pdd);
        out.fixed_rows_mut::<3>(6 * b + 3).copy_from(&wd);
    }
    out
}

/// [r̈, ω̇'] per body from Euler-angle coordinates: ω̇' = B'θ̈ + Ḃ'θ̇.
pub fn physical_from_angles(seq: EulerSequence, y: &[f64], qdd: &DVector<f64>) -> DVector<f64> {
    let n = qdd.len() / 6;
    let (q, v) = y.split_at(6 * n);
    let mut out = DVector::zeros(6 * n);
    for b in 0..n {
        out.fixed_rows_mut::<3>(6 * b)
            .copy_from(&qdd.fixed_rows::<3>(6 * b));
        let th = Vector3::new(q[6 * b + 3], q[6 * b + 4], q[6 * b + 5]);
        let thd = Vector3::new(v[6 * b + 3], v[6 * b + 4], v[6 * b + 5]);
        let thdd = qdd.fixed_rows::<3>(6 * b + 3).into_owned();
        let wd = rate_matrix_body(seq, &th) * thdd + rate_matrix_body_dot(seq, &th, &thd) * thd;
        out.fixed_rows_mut::<3>(6 * b + 3).copy_from(&wd);
    }
    out
}

/// The Euler sequence whose smallest singular factor over the bodies of `s` is largest.
pub fn best_sequence(s: &State) -> EulerSequence {
    let mut best = (EulerSequence::Zxz, -1.0);
    for seq in EulerSequence::ALL {
        let worst = (0..s.n_bodies())
            .map(|b| {
                from_euler_params(seq, &s.euler_params(b), 0.0)
                    .map(|th| seq.singular_factor(th[1]).abs())
                    .unwrap_or(0.0)
            })
            .fold(f64::INFINITY, f64::min);
        if worst > best.1 {
            best = (seq, worst);
        }
    }
    best.0
}

/// ‖a − b‖∞ / max(‖b‖∞, 1).
pub fn rel(a: &DVector<f64>, b: &DVector<f64>) -> f64 {
    (a - b).amax() / b.amax().max(1.0)
}
