//! The numbers that evolve ([`State`]) and how they are laid out ([`Layout`]).
//!
//! Absolute coordinates, body i (0-based), Euler parameters (ARCHITECTURE.md):
//! - positions q: `q[7i..7i+3]` = r (centre of mass), `q[7i+3..7i+7]` = p = [e0, e1, e2, e3];
//! - velocities, layout [`Layout::EulerParamsPdot`]: `v[7i..7i+3]` = ṙ, `v[7i+3..7i+7]` = ṗ
//!   (Bayo–Ledesma, Malczyk–Frączek);
//! - velocities, layout [`Layout::EulerParamsOmega`]: `v[6i..6i+3]` = ṙ, `v[6i+3..6i+6]` = ω'
//!   (body angular velocity; Chiou, constant mass matrix diag(mI, J')).

use mbs_kinematics::euler_params::{
    omega_body_from_pdot, pdot_from_omega, pdot_from_omega_body, rotation,
};
use nalgebra::{DVector, Vector3, Vector4};
use serde::{Deserialize, Serialize};

use crate::model::Model;

/// A coordinate layout of the state of a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// Absolute coordinates [r, p] with velocities [ṙ, ṗ]: 7 + 7 per body.
    EulerParamsPdot,
    /// Absolute coordinates [r, p] with velocities [ṙ, ω']: 7 + 6 per body.
    EulerParamsOmega,
}

impl Layout {
    /// Position coordinates per body.
    pub const fn q_per_body(self) -> usize {
        7
    }
    /// Velocity coordinates per body.
    pub const fn v_per_body(self) -> usize {
        match self {
            Layout::EulerParamsPdot => 7,
            Layout::EulerParamsOmega => 6,
        }
    }
}

/// Time, positions and velocities of a model in one [`Layout`], borrowed: e.g. the
/// two halves of an integrator's y = [q; v], evaluated without a copy into a
/// [`State`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StateView<'a> {
    /// Layout of `q` and `v`.
    pub layout: Layout,
    /// Time.
    pub t: f64,
    /// Positions (7 per body).
    pub q: &'a [f64],
    /// Velocities ([`Layout::v_per_body`] per body).
    pub v: &'a [f64],
}

impl<'a> StateView<'a> {
    /// The view of positions `q` and velocities `v` in `layout` at time `t`.
    pub fn new(layout: Layout, t: f64, q: &'a [f64], v: &'a [f64]) -> Self {
        Self { layout, t, q, v }
    }

    /// Number of bodies.
    pub fn n_bodies(&self) -> usize {
        self.q.len() / self.layout.q_per_body()
    }

    /// The position coordinates [r, p] of body i (7).
    pub fn body_q(&self, i: usize) -> &'a [f64] {
        let n = self.layout.q_per_body();
        &self.q[n * i..n * i + n]
    }

    /// The velocity coordinates of body i: [ṙ, ṗ] (7) or [ṙ, ω'] (6) by layout.
    pub fn body_v(&self, i: usize) -> &'a [f64] {
        let n = self.layout.v_per_body();
        &self.v[n * i..n * i + n]
    }
}

impl<'a> From<&'a State> for StateView<'a> {
    fn from(s: &'a State) -> Self {
        s.view()
    }
}

/// Time, positions and velocities of a model in one [`Layout`].
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Layout of `q` and `v`.
    pub layout: Layout,
    /// Time.
    pub t: f64,
    /// Positions.
    pub q: DVector<f64>,
    /// Velocities.
    pub v: DVector<f64>,
}

impl State {
    /// A zero state (identity orientations, at rest) of `n_bodies` bodies.
    pub fn zeros(layout: Layout, n_bodies: usize) -> Self {
        let mut q = DVector::zeros(layout.q_per_body() * n_bodies);
        for i in 0..n_bodies {
            q[7 * i + 3] = 1.0;
        }
        Self {
            layout,
            t: 0.0,
            q,
            v: DVector::zeros(layout.v_per_body() * n_bodies),
        }
    }

    /// The model's initial state (from each body's `initial`) at t = 0.
    pub fn initial(model: &Model, layout: Layout) -> Self {
        let mut s = Self::zeros(layout, model.n_bodies());
        for (i, b) in model.bodies().iter().enumerate() {
            let init = &b.initial;
            s.set_pose(i, &init.position, &init.orientation);
            let a = rotation(&init.orientation);
            let omega_body = a.transpose() * init.omega;
            s.set_velocity(i, &init.velocity, &omega_body);
        }
        s
    }

    /// Number of bodies.
    pub fn n_bodies(&self) -> usize {
        self.q.len() / self.layout.q_per_body()
    }

    /// The state borrowed as a [`StateView`].
    pub fn view(&self) -> StateView<'_> {
        StateView::new(self.layout, self.t, self.q.as_slice(), self.v.as_slice())
    }

    /// Centre-of-mass position of body i.
    pub fn position(&self, i: usize) -> Vector3<f64> {
        self.q.fixed_rows::<3>(7 * i).into_owned()
    }

    /// Euler parameters of body i.
    pub fn euler_params(&self, i: usize) -> Vector4<f64> {
        self.q.fixed_rows::<4>(7 * i + 3).into_owned()
    }

    /// Velocity ṙ of body i.
    pub fn velocity(&self, i: usize) -> Vector3<f64> {
        let k = self.layout.v_per_body() * i;
        self.v.fixed_rows::<3>(k).into_owned()
    }

    /// Body angular velocity ω' of body i (computed as 2Gṗ in the ṗ layout).
    pub fn omega_body(&self, i: usize) -> Vector3<f64> {
        match self.layout {
            Layout::EulerParamsOmega => self.v.fixed_rows::<3>(6 * i + 3).into_owned(),
            Layout::EulerParamsPdot => {
                let pd = self.v.fixed_rows::<4>(7 * i + 3).into_owned();
                omega_body_from_pdot(&self.euler_params(i), &pd)
            }
        }
    }

    /// Global angular velocity ω = A ω' of body i.
    pub fn omega(&self, i: usize) -> Vector3<f64> {
        rotation(&self.euler_params(i)) * self.omega_body(i)
    }

    /// ṗ of body i (computed as ½Gᵀω' in the ω' layout).
    pub fn pdot(&self, i: usize) -> Vector4<f64> {
        match self.layout {
            Layout::EulerParamsPdot => self.v.fixed_rows::<4>(7 * i + 3).into_owned(),
            Layout::EulerParamsOmega => {
                pdot_from_omega_body(&self.euler_params(i), &self.omega_body(i))
            }
        }
    }

    /// Sets the pose of body i.
    pub fn set_pose(&mut self, i: usize, r: &Vector3<f64>, p: &Vector4<f64>) {
        self.q.fixed_rows_mut::<3>(7 * i).copy_from(r);
        self.q.fixed_rows_mut::<4>(7 * i + 3).copy_from(p);
    }

    /// Sets the velocity of body i from ṙ and ω' (converted to ṗ in the ṗ layout).
    pub fn set_velocity(&mut self, i: usize, rdot: &Vector3<f64>, omega_body: &Vector3<f64>) {
        let k = self.layout.v_per_body() * i;
        self.v.fixed_rows_mut::<3>(k).copy_from(rdot);
        match self.layout {
            Layout::EulerParamsOmega => self.v.fixed_rows_mut::<3>(k + 3).copy_from(omega_body),
            Layout::EulerParamsPdot => {
                let pd = pdot_from_omega_body(&self.euler_params(i), omega_body);
                self.v.fixed_rows_mut::<4>(k + 3).copy_from(&pd);
            }
        }
    }

    /// Sets the velocity of body i from ṙ and the global ω.
    pub fn set_velocity_global(&mut self, i: usize, rdot: &Vector3<f64>, omega: &Vector3<f64>) {
        let p = self.euler_params(i);
        let pd = pdot_from_omega(&p, omega);
        let wb = omega_body_from_pdot(&p, &pd);
        self.set_velocity(i, rdot, &wb);
    }

    /// The same physical state in another layout.
    pub fn to_layout(&self, layout: Layout) -> State {
        if layout == self.layout {
            return self.clone();
        }
        let n = self.n_bodies();
        let mut s = State {
            layout,
            t: self.t,
            q: self.q.clone(),
            v: DVector::zeros(layout.v_per_body() * n),
        };
        for i in 0..n {
            s.set_velocity(i, &self.velocity(i), &self.omega_body(i));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mbs_kinematics::euler_params::from_axis_angle;

    #[test]
    fn layouts_round_trip() {
        let mut s = State::zeros(Layout::EulerParamsOmega, 2);
        s.set_pose(
            1,
            &Vector3::new(1.0, 2.0, 3.0),
            &from_axis_angle(&Vector3::new(1.0, -2.0, 0.5), 0.7),
        );
        s.set_velocity(
            1,
            &Vector3::new(0.1, 0.2, 0.3),
            &Vector3::new(-1.0, 0.5, 2.0),
        );
        let p = s.to_layout(Layout::EulerParamsPdot);
        assert!((p.omega_body(1) - s.omega_body(1)).norm() < 1e-14);
        let back = p.to_layout(Layout::EulerParamsOmega);
        assert!((back.v.clone() - s.v.clone()).norm() < 1e-14);
        // ṗ is tangent: pᵀṗ = 0
        assert!(p.euler_params(1).dot(&p.pdot(1)).abs() < 1e-15);
    }
}
