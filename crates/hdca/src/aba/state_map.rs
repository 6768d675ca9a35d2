//! Absolute states ↔ y = [q; u]: the joint coordinates by HDCA's state map, the
//! quasi-velocities u = H⁰ᵀ ΔV (force-type columns paired with the relative motion at
//! the origin), and back; energy and body accelerations for checks.

use mbs_model::{Layout, State, body_coords};
use nalgebra::{Matrix3, Vector3, Vector6};

use super::spatial::twist_at_origin;
use super::{Aba, AbaError};
use crate::hdca::Pass;
use crate::joint::{ang3, lin3, sv};

impl Aba {
    /// y = [q; u] at the absolute state `s` (any layout), so that [`Aba::to_state`]
    /// gives `s` back to round-off; a state that violates a joint is refused naming
    /// it (HDCA's check, [`crate::HdcaError::InconsistentState`]).
    pub fn state_to_y(&mut self, s: &State) -> Result<Vec<f64>, AbaError> {
        let mut y = self.tree.state_to_y(s)?;
        let nq = self.n_coords();
        let s = s.to_layout(Layout::EulerParamsOmega);
        let h = &mut self.tree;
        h.positions(&y[..nq]);
        h.joint_geometry(Pass::Positions);
        let at = |b: Option<usize>| -> Vector6<f64> {
            b.map_or_else(Vector6::zeros, |b| {
                twist_at_origin(&sv(&s.velocity(b), &s.omega(b)), &s.position(b))
            })
        };
        let u = &mut y[nq..];
        for (k, j) in h.joints.iter().enumerate().filter(|(_, j)| j.tree) {
            let dv = at(j.plus) - at(j.minus);
            for a in 0..j.nf {
                u[j.u_off + a] = h.jev[k].h[a].dot(&dv);
            }
        }
        Ok(y)
    }

    /// y₀ = [q₀; u₀] at the model's initial state.
    pub fn initial_state(&mut self) -> Result<Vec<f64>, AbaError> {
        let s = State::initial(self.model(), Layout::EulerParamsOmega);
        self.state_to_y(&s)
    }

    /// The absolute state (Euler-parameter layout [ṙ, ṗ]) at (t, y).
    pub fn to_state(&mut self, t: f64, y: &[f64]) -> Result<State, AbaError> {
        self.check_dim(y.len())?;
        let nq = self.n_coords();
        self.outward(&y[..nq], &y[nq..], None);
        let h = &self.tree;
        let nb = h.bodies.len();
        let mut s = State::zeros(Layout::EulerParamsPdot, nb);
        s.t = t;
        for b in 0..nb {
            let be = &h.bodies[b];
            s.set_pose(b, &be.r, &be.e);
            s.set_velocity_global(b, &lin3(&h.vel[b]), &ang3(&h.vel[b]));
        }
        Ok(s)
    }

    /// Total energy T + V at (t, y) (V: gravity and springs, from `mbs-constraints`).
    pub fn energy(&mut self, t: f64, y: &[f64]) -> Result<f64, AbaError> {
        self.check_dim(y.len())?;
        let nq = self.n_coords();
        self.outward(&y[..nq], &y[nq..], None);
        let h = &mut self.tree;
        h.loads(t)?;
        let kin: f64 = (0..h.bodies.len())
            .map(|b| {
                let (v, w) = (lin3(&h.vel[b]), ang3(&h.vel[b]));
                let m = h.model().bodies()[b].mass;
                0.5 * m * v.norm_squared() + 0.5 * w.dot(&(h.bodies[b].jg * w))
            })
            .sum();
        Ok(kin + h.ws.potential_energy())
    }

    /// After [`Aba::derivative`]: every body's centre-of-mass acceleration r̈ and
    /// body-frame angular acceleration ω̇' = Aᵀ ω̇, 6 per body, into `a6`, from the
    /// spatial acceleration A = [a_O; ω̇] at the origin: r̈ = a_O + ω̇ × r + ω × ṙ.
    pub fn body_accelerations(&self, a6: &mut [f64]) {
        let h = &self.tree;
        for (b, ab) in self.art.iter().enumerate() {
            let be = &h.bodies[b];
            let (w, rd) = (ang3(&h.vel[b]), lin3(&h.vel[b]));
            let alpha: Vector3<f64> = ang3(&ab.a);
            let rdd = lin3(&ab.a) + alpha.cross(&be.r) + w.cross(&rd);
            let at: Matrix3<f64> = be.a.transpose();
            a6[body_coords::linear_range(b)].copy_from_slice(rdd.as_slice());
            a6[body_coords::angular_range(b)].copy_from_slice((at * alpha).as_slice());
        }
    }

    pub(crate) fn check_dim(&self, n: usize) -> Result<(), AbaError> {
        let expected = self.n_coords() + self.n_velocities();
        if n == expected {
            Ok(())
        } else {
            Err(crate::HdcaError::Dimension { expected, got: n }.into())
        }
    }
}
