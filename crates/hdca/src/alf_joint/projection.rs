//! Mass-orthogonal projections of joint coordinates and quasi-velocities onto the
//! loop closures (Bayo & Ledesma 1996, eqs 9–34, with the joint-space mass matrix H
//! as the metric): positions by the iteration
//!
//! ```text
//!   (H + α KᵀK) Δu = −α Kᵀ Φ,   q ← q ⊕ Δu
//! ```
//!
//! (q ⊕ Δu: the joint's coordinate rates for Δu added to q, joint Euler parameters
//! renormalized), then velocities by u ← u − (H + α KᵀK)⁻¹ α Kᵀ K u at the
//! projected positions, each until the shared convergence test of every
//! projection (`mbs_formulation::projection::converged`: violation and correction
//! below `projection_tol` relative to the state, or stalled at round-off below
//! `stall_tol` near a singular configuration; also a residual below `stall_tol`
//! that stopped halving, since there the penalized correction contracts the
//! residual along a vanishing singular value s of K only by h / (h + α s²) per
//! iteration and the next step's projection continues from it).

use mbs_formulation::projection::converged;
use mbs_integrators::OdeSystem;

use super::dynamics::Need;
use super::{JointAlf, JointAlfError};
use crate::joint::{self, JointCoords};

/// Largest number of position iterations (each one evaluation and one
/// factorization); the iteration converges in 1–3 from an integrator step.
const MAX_POSITION_ITERATIONS: usize = 12;
/// Largest number of velocity iterations (one factorization for all of them; each
/// contracts the violation by ≈ 1/(1 + κ)).
const MAX_VELOCITY_ITERATIONS: usize = 4;

impl JointAlf {
    /// Projects y = [q; u] onto the closures (module docs); `Ok(true)` when it moved.
    pub(super) fn project_state(&mut self, t: f64, y: &mut [f64]) -> Result<bool, JointAlfError> {
        let nq = self.aba.n_coords();
        let _ = self.aba.tree.project(t, y);
        if self.m == 0 {
            return Ok(false);
        }
        let (eps, stall) = (self.params.projection_tol, self.params.stall_tol);
        let inf = |v: &[f64]| v.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
        let mut moved = false;
        let (mut prev, mut change) = (f64::INFINITY, 0.0);
        for it in 0..=MAX_POSITION_ITERATIONS {
            self.evaluate_state(t, y, Need::Geometry)?;
            let q = &mut y[..nq];
            let (worst, viol) = self.worst_row();
            let scale = 1.0 + inf(q);
            // near a singular configuration the penalized correction contracts the
            // residual along the vanishing singular value s of K only by
            // h / (h + α s²) per iteration: a residual below the stall level that
            // stopped halving is left to the next step's projection
            let slow = it > 0 && viol <= stall * scale && viol > 0.5 * prev;
            if converged(viol, prev, change, scale, eps, stall) || slow {
                break;
            }
            if it == MAX_POSITION_ITERATIONS || !viol.is_finite() {
                return Err(JointAlfError::ProjectionFailed {
                    t,
                    joint: self.row_owner(worst),
                    residual: viol,
                    iterations: it,
                    tol: eps * scale,
                });
            }
            self.factor_lead(t)?;
            let mut dx = std::mem::take(&mut self.x);
            dx.fill(0.0);
            self.add_kt(-self.alpha, &self.phi, &mut dx);
            mbs_linalg::small::cholesky_solve(&self.lead, self.n, self.n, &mut dx);
            self.displace(q, &dx);
            change = inf(&dx);
            self.x = dx;
            let _ = self.aba.tree.project(t, y);
            self.stats.projections += 1;
            moved = true;
            prev = viol;
        }
        // velocities at the projected positions (K and H from the last evaluation)
        let u = &mut y[nq..];
        let mut factored = false;
        let (mut prev, mut change) = (f64::INFINITY, 0.0);
        for _ in 0..MAX_VELOCITY_ITERATIONS {
            self.closure_rates(u);
            let viol = inf(&self.phi_dot);
            let scale = 1.0 + inf(u);
            let slow = viol <= stall * scale && viol > 0.5 * prev;
            if converged(viol, prev, change, scale, eps, stall) || slow {
                break;
            }
            if !factored {
                self.factor_lead(t)?;
                factored = true;
            }
            let mut du = std::mem::take(&mut self.x);
            du.fill(0.0);
            self.add_kt(-self.alpha, &self.phi_dot, &mut du);
            mbs_linalg::small::cholesky_solve(&self.lead, self.n, self.n, &mut du);
            for (a, d) in u.iter_mut().zip(&du) {
                *a += d;
            }
            change = inf(&du);
            self.x = du;
            self.stats.projections += 1;
            moved = true;
            prev = viol;
        }
        Ok(moved)
    }

    /// The row with the largest |Φ| and that value.
    fn worst_row(&self) -> (usize, f64) {
        self.phi
            .iter()
            .enumerate()
            .fold((0, 0.0), |(k, m), (i, v)| {
                if v.abs() > m || v.is_nan() {
                    (i, v.abs())
                } else {
                    (k, m)
                }
            })
    }

    /// The name of the cut joint owning closure row `row`.
    pub(super) fn row_owner(&self, row: usize) -> String {
        let cut = self
            .cuts
            .iter()
            .rev()
            .find(|c| c.row <= row)
            .map_or(0, |c| c.joint);
        self.aba.model().joints()[cut].name.clone()
    }

    /// q ← q ⊕ Δu: each tree joint's coordinate rates for Δu (at the current poses)
    /// added to its coordinates.
    fn displace(&self, q: &mut [f64], du: &[f64]) {
        let h = &self.aba.tree;
        let mut rates = [0.0; 8];
        for j in h.joints.iter().filter(|j| j.tree && j.nf > 0) {
            let (_, ap) = h.body_pose(j.minus);
            let nqj = j.kind.n_coords();
            let qj = &mut q[j.q_off..j.q_off + nqj];
            joint::coord_rates(j, qj, &du[j.u_off..j.u_off + j.nf], &ap, &mut rates[..nqj]);
            for (a, r) in qj.iter_mut().zip(&rates) {
                *a += r;
            }
        }
    }
}
