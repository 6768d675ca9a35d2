//! Shared helpers of the integration tests: random draws from a proptest-generated
//! vector, random poses and markers.
#![allow(dead_code)]

use mbs_kinematics::euler_params::{from_rotation_vector, product, rotation};
use mbs_model::{JointKind, Layout, State};
use nalgebra::{Matrix3, Vector3, Vector4};

/// The joint kinds whose free relative motions are about fixed axes (all but the
/// rolling and curved-path joints), distance joints of length `length`.
pub fn fixed_axis_kinds(length: f64) -> [JointKind; 8] {
    [
        JointKind::Spherical,
        JointKind::Universal,
        JointKind::Revolute,
        JointKind::Cylindrical,
        JointKind::Prismatic,
        JointKind::Planar,
        JointKind::Rigid,
        JointKind::Distance { length },
    ]
}

/// Sequential draws in [-1, 1] from a proptest vector (cycling when exhausted).
pub struct Draw {
    v: Vec<f64>,
    k: usize,
}

impl Draw {
    pub fn new(v: Vec<f64>) -> Self {
        Self { v, k: 0 }
    }
    pub fn next(&mut self) -> f64 {
        let x = self.v[self.k % self.v.len()];
        self.k += 1;
        x
    }
    /// Uniform in [lo, hi].
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * 0.5 * (self.next() + 1.0)
    }
    pub fn vec3(&mut self, scale: f64) -> Vector3<f64> {
        Vector3::new(self.next(), self.next(), self.next()) * scale
    }
    /// A unit quaternion (never degenerate: a fallback axis is added).
    pub fn quat(&mut self) -> Vector4<f64> {
        let p = Vector4::new(self.next(), self.next(), self.next(), self.next())
            + Vector4::new(0.05, 0.0, 0.0, 0.0);
        p / p.norm()
    }
    pub fn rot(&mut self) -> Matrix3<f64> {
        rotation(&self.quat())
    }
    pub fn choose(&mut self, n: usize) -> usize {
        (((self.next() + 1.0) * 0.5 * n as f64) as usize).min(n - 1)
    }
}

/// Relative error of `approx` against `exact`, scaled by max(1, |exact|∞).
pub fn rel_err(exact: &[f64], approx: &[f64]) -> f64 {
    let scale = exact.iter().fold(1.0f64, |m, x| m.max(x.abs()));
    exact
        .iter()
        .zip(approx)
        .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()))
        / scale
}

/// The state moved by `s` along the motion with zero accelerations: r + sṙ, and
/// p ⊗ exp(s ω') ([ṙ, ω'] layout) or p + s ṗ ([ṙ, ṗ] layout); t + s if `with_time`.
pub fn along_motion(state: &State, s: f64, with_time: bool) -> State {
    let mut out = state.clone();
    let n = state.n_bodies();
    for i in 0..n {
        let r = state.position(i) + s * state.velocity(i);
        let p = state.euler_params(i);
        let p_new = match state.layout {
            Layout::EulerParamsOmega => {
                product(&p, &from_rotation_vector(&(s * state.omega_body(i))))
            }
            Layout::EulerParamsPdot => p + s * state.pdot(i),
        };
        out.q.fixed_rows_mut::<3>(7 * i).copy_from(&r);
        out.q.fixed_rows_mut::<4>(7 * i + 3).copy_from(&p_new);
    }
    if with_time {
        out.t += s;
    }
    out
}

/// The state with velocity-coordinate `c` of body `b` perturbed as a position:
/// c < 3: r += h e_c; otherwise p ⊗ exp(h e_{c−3}) ([ṙ, ω']) or p += h e_{c−3} ([ṙ, ṗ]).
pub fn perturb_position(state: &State, b: usize, c: usize, h: f64) -> State {
    let mut out = state.clone();
    if c < 3 {
        out.q[7 * b + c] += h;
        return out;
    }
    let p = state.euler_params(b);
    let p_new = match state.layout {
        Layout::EulerParamsOmega => {
            let mut w = Vector3::zeros();
            w[c - 3] = h;
            product(&p, &from_rotation_vector(&w))
        }
        Layout::EulerParamsPdot => {
            let mut p = p;
            p[c - 3] += h;
            p
        }
    };
    out.q.fixed_rows_mut::<4>(7 * b + 3).copy_from(&p_new);
    out
}

/// Random poses (unit p) and velocities of all bodies (ṗ tangent in the ṗ layout).
pub fn random_state(d: &mut Draw, layout: Layout, n: usize) -> State {
    let mut s = State::zeros(layout, n);
    for i in 0..n {
        let r = d.vec3(1.0);
        let p = d.quat();
        s.set_pose(i, &r, &p);
        let v = d.vec3(1.0);
        let w = d.vec3(1.5);
        s.set_velocity(i, &v, &w);
    }
    s.t = d.range(-1.0, 1.0);
    s
}
