//! y = [q; p] from an absolute state (the inverse of [`Hdca::to_state`]): joint
//! coordinates from the relative poses of every tree joint, canonical momenta
//! p = Hᵀ P^acc from the velocities (eq 6 with the cut impulses σ_c = 0 at the
//! start: σ_c = ∫λ_c dt is only defined up to its initial value, sec 2.3).

use mbs_constraints::{SystemLayout, Workspace};
use mbs_kinematics::euler_params::{self, rotation};
use mbs_model::{Layout, State};
use nalgebra::Vector3;

use super::Hdca;
use crate::error::HdcaError;
use crate::joint::{self, JointCoords};

/// Largest constraint residual (position rows, and velocity rows relative to the
/// largest speed) a state may have: the facade assembles initial states to 1e-10.
const TOL: f64 = 1e-8;

impl Hdca {
    /// y = [q; p] at the absolute state `s` (any layout): the state's poses rebuilt
    /// from joint coordinates and its velocities from canonical momenta, so that
    /// [`Hdca::to_state`] gives `s` back (to round-off). A state that violates a joint
    /// (position or velocity residual above 1e-8) gives
    /// [`HdcaError::InconsistentState`] naming the joint.
    pub fn state_to_y(&mut self, s: &State) -> Result<Vec<f64>, HdcaError> {
        let nb = self.model.n_bodies();
        if s.n_bodies() != nb {
            return Err(HdcaError::Dimension {
                expected: nb,
                got: s.n_bodies(),
            });
        }
        let s = s.to_layout(Layout::EulerParamsOmega);
        self.check_constraints(&s)?;
        let mut y = vec![0.0; self.n_q + self.n_p];
        let pose = |b: Option<usize>| match b {
            None => (Vector3::zeros(), euler_params::identity()),
            Some(b) => (s.position(b), euler_params::normalize(&s.euler_params(b))),
        };
        for j in self.joints.iter().filter(|j| j.tree) {
            let (rp, ep) = pose(j.minus);
            let (rc, ec) = pose(j.plus);
            // A_c = A_p R B₀ ⇒ R = A_pᵀ A_c B₀ᵀ
            let rel = euler_params::product(
                &euler_params::product(&euler_params::conjugate(&ep), &ec),
                &euler_params::conjugate(&j.b0),
            );
            let point = rc + rotation(&ec) * j.rho_plus;
            let offset = rotation(&ep).transpose() * (point - rp) - j.rho_minus;
            let nq = j.kind.n_coords();
            joint::coords_from_pose(
                j,
                &rel,
                &offset,
                &j.axis_child0,
                &mut y[j.q_off..j.q_off + nq],
            );
        }
        self.check_poses(&s, &y)?;
        // check_poses left the poses of y: p = Hᵀ P^acc with σ = 0
        self.momenta_of(&s, &mut y);
        Ok(y)
    }

    /// Φ and Φ̇ of every joint at `s` (Euler-parameter layout with ω').
    fn check_constraints(&self, s: &State) -> Result<(), HdcaError> {
        let sys = SystemLayout::new(&self.model, Layout::EulerParamsOmega);
        let mut ws = Workspace::new(&sys);
        ws.evaluate_constraints(&self.model, &sys, s)
            .map_err(|e| HdcaError::Loads {
                t: s.t,
                message: e.to_string(),
            })?;
        let mut phi = vec![0.0; sys.n_rows()];
        let mut phi_dot = vec![0.0; sys.n_rows()];
        let speed = s.v.iter().fold(1.0_f64, |m, x| m.max(x.abs()));
        let checks = [
            ("position residual |Φ|", ws.phi(&sys, &mut phi), &phi, TOL),
            (
                "velocity residual |Φ̇|",
                ws.phi_dot(&sys, &mut phi_dot),
                &phi_dot,
                TOL * speed,
            ),
        ];
        for (what, filled, res, tol) in checks {
            filled.map_err(|e| HdcaError::Loads {
                t: s.t,
                message: e.to_string(),
            })?;
            let worst = (0..res.len()).max_by(|&a, &b| res[a].abs().total_cmp(&res[b].abs()));
            if let Some(r) = worst.filter(|&r| res[r].abs() > tol || !res[r].is_finite()) {
                let place = sys.source_of_row(r).map_or_else(
                    || format!("constraint row {r}"),
                    |src| sys.source_name(&self.model, src),
                );
                return Err(HdcaError::InconsistentState {
                    t: s.t,
                    place,
                    what,
                    value: res[r].abs(),
                    tol,
                });
            }
        }
        Ok(())
    }

    /// The poses rebuilt from the joint coordinates `y[..n_q]` against those of `s`
    /// (a guard on the coordinate extraction; naming the body's tree joint).
    fn check_poses(&mut self, s: &State, y: &[f64]) -> Result<(), HdcaError> {
        self.positions(&y[..self.n_q]);
        let scale = (0..s.n_bodies()).fold(1.0_f64, |m, b| m.max(s.position(b).norm()));
        for b in 0..s.n_bodies() {
            let be = &self.bodies[b];
            let a = rotation(&euler_params::normalize(&s.euler_params(b)));
            let dr = (be.r - s.position(b)).norm() / scale;
            let da = (be.a - a).norm();
            let err = dr.max(da);
            if err > TOL || !err.is_finite() {
                let k = self.parent_joint[b];
                let place = self.model.joints().get(k).map_or_else(
                    || format!("body `{}`", self.model.bodies()[b].name),
                    |jt| format!("joint `{}` ({})", jt.name, jt.kind.label()),
                );
                return Err(HdcaError::InconsistentState {
                    t: s.t,
                    place,
                    what: "pose rebuilt from the joint coordinates, relative error",
                    value: err,
                    tol: TOL,
                });
            }
        }
        Ok(())
    }
}
