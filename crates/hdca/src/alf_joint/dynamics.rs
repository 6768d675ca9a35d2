//! One evaluation of `alf-joint`: the spanning tree's joint-space mass matrix H by
//! the composite-rigid-body algorithm and its bias forces C by the recursive
//! Newton–Euler algorithm (Featherstone 2008, Tables 6.2 and 5.1, written at the
//! global origin as the ABA sweeps of this crate), the closure rows (module
//! `closure`), and the augmented-Lagrangian accelerations (Bayo & Ledesma 1996,
//! eqs 5–8) with q → joint coordinates, M → H, Q → −C:
//!
//! ```text
//!   (H + α Kᵀ K) u̇ᵢ₊₁ = −C − α Kᵀ (−γ̂ + 2μΩ Φ̇ + Ω² Φ) − Kᵀ λᵢ
//!   λᵢ₊₁ = λᵢ + α (K u̇ᵢ₊₁ − γ̂ + 2μΩ Φ̇ + Ω² Φ),   λ₀ = 0,
//! ```
//!
//! until ‖u̇ᵢ₊₁ − u̇ᵢ‖∞ ≤ tol (1 + ‖u̇ᵢ₊₁‖∞), or until the observed linear
//! contraction ρ = ‖u̇ᵢ₊₁ − u̇ᵢ‖ / ‖u̇ᵢ − u̇ᵢ₋₁‖ < 1 predicts the next change
//! ρ ‖u̇ᵢ₊₁ − u̇ᵢ‖ below it (with κ = 1e5 the iteration contracts by ≈ 1e-5: three
//! solves instead of four). H + α KᵀK stays positive definite at
//! singular configurations and with redundant closure rows (a planar loop modelled
//! with spatial revolute joints), where K loses rank. Near a singular configuration
//! the iteration contracts slowly (by h / (h + α s²) along a vanishing singular
//! value s of K) and may stop at `iter` unconverged: the penalty then regularizes
//! the accelerations smoothly in the state, which the adaptive integrators need (a
//! direct pseudo-inverse solve of the fixed point, tried, switches its rank
//! decisions between evaluations and collapsed the step size on IFToMM A02).

use mbs_linalg::small::{cholesky_in_place, cholesky_solve};
use nalgebra::Vector6;

use super::{JointAlf, JointAlfError};

/// What an evaluation computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Need {
    /// Everything of the right-hand side.
    Dynamics,
    /// H, Φ and K (the projections).
    Geometry,
}

impl JointAlf {
    /// Poses, twists, loads, A⁰, H, C and the closure rows at (t, q, u); q̇ into `qd`.
    /// With `Need::Geometry` (projections) the loads, C and γ̂ are skipped: H, Φ and
    /// K only.
    pub(super) fn evaluate(
        &mut self,
        t: f64,
        q: &[f64],
        u: &[f64],
        qd: &mut [f64],
        need: Need,
    ) -> Result<(), JointAlfError> {
        self.aba.outward(q, u, Some(qd));
        match need {
            Need::Dynamics => self.aba.tree.loads(t)?,
            Need::Geometry => self.aba.tree.frames(t)?,
        }
        let n = self.n;
        let h = &self.aba.tree;
        let art = &self.aba.art;
        let cols = &self.aba.cols;
        // root → tip: A⁰ = A⁰_parent + c; the body's own force I_O A⁰ + V ×* I_O V − Q
        let dynamics = need == Need::Dynamics;
        for &b in &h.tree_order {
            if dynamics {
                let ap = h.parent_body[b].map_or_else(Vector6::zeros, |p| self.a0[p]);
                self.a0[b] = ap + art[b].c;
                self.force[b] = art[b].ia * self.a0[b] + art[b].pa - h.acc[b];
            }
            self.composite[b] = art[b].ia;
        }
        // tip → root: subtree sums (composite inertias, transmitted forces)
        for &b in h.tree_order.iter().rev() {
            if let Some(p) = h.parent_body[b] {
                let (f, c) = (self.force[b], self.composite[b]);
                self.force[p] += f;
                self.composite[p] += c;
            }
        }
        // C_i = h_i · F_b; H_ij = (Iᶜ_b h_i) · h_j for j on b's path (both triangles)
        self.mass.fill(0.0);
        for &b in &h.tree_order {
            let jb = &h.joints[h.parent_joint[b]];
            for i in jb.u_off..jb.u_off + jb.nf {
                let hi = cols[i].h;
                if dynamics {
                    self.bias[i] = hi.dot(&self.force[b]);
                }
                let fi = self.composite[b] * hi;
                let mut x = Some(b);
                while let Some(xb) = x {
                    let jx = &h.joints[h.parent_joint[xb]];
                    for j in jx.u_off..jx.u_off + jx.nf {
                        let v = fi.dot(&cols[j].h);
                        self.mass[i + n * j] = v;
                        self.mass[j + n * i] = v;
                    }
                    x = h.parent_body[xb];
                }
            }
        }
        self.closure_rows(t, need)
    }

    /// L = H + α KᵀK factored in place in `lead` (lower triangle).
    pub(super) fn factor_lead(&mut self, t: f64) -> Result<(), JointAlfError> {
        let (n, alpha) = (self.n, self.alpha);
        self.lead.copy_from_slice(&self.mass);
        for cut in &self.cuts {
            let rows = self.aba.model().joints()[cut.joint].kind.rows();
            for krow in self.k[cut.row * n..(cut.row + rows) * n].chunks_exact(n) {
                for (a, &(j, _)) in cut.columns.iter().enumerate() {
                    let s = alpha * krow[j];
                    if s == 0.0 {
                        continue;
                    }
                    for &(i, _) in &cut.columns[a..] {
                        self.lead[i + n * j] += s * krow[i];
                    }
                }
            }
        }
        cholesky_in_place(&mut self.lead, n, n, 0.0).map_err(|column| {
            JointAlfError::NotPositiveDefinite {
                t,
                column,
                place: self.aba.tree.state_owner(self.aba.n_coords() + column),
            }
        })
    }

    /// `out += s Kᵀ v`.
    pub(super) fn add_kt(&self, s: f64, v: &[f64], out: &mut [f64]) {
        for (krow, &vr) in self.k.chunks_exact(self.n).zip(v) {
            if vr == 0.0 {
                continue;
            }
            for (o, &k) in out.iter_mut().zip(krow) {
                *o += s * vr * k;
            }
        }
    }

    /// u̇ by the multiplier iteration (module docs) into `ud`, after
    /// [`JointAlf::evaluate`] and [`JointAlf::closure_rates`].
    pub(super) fn accelerations(&mut self, t: f64, ud: &mut [f64]) -> Result<(), JointAlfError> {
        let (n, m, alpha) = (self.n, self.m, self.alpha);
        let (mu, om) = (self.params.mu, self.params.omega);
        self.factor_lead(t)?;
        // γ̄ = γ̂ − 2μΩ Φ̇ − Ω² Φ; base = −C + α Kᵀ γ̄
        for r in 0..m {
            self.gbar[r] = self.gamma[r] - 2.0 * mu * om * self.phi_dot[r] - om * om * self.phi[r];
            self.lambda[r] = 0.0;
        }
        for (b, c) in self.base.iter_mut().zip(&self.bias) {
            *b = -c;
        }
        let mut base = std::mem::take(&mut self.base);
        self.add_kt(alpha, &self.gbar, &mut base);
        self.base = base;
        ud.fill(0.0);
        let mut last_dx = f64::INFINITY;
        for it in 0..self.params.max_iter.max(1) {
            let mut x = std::mem::take(&mut self.x);
            x.copy_from_slice(&self.base);
            self.add_kt(-1.0, &self.lambda, &mut x);
            cholesky_solve(&self.lead, n, n, &mut x);
            self.stats.multiplier_iterations += 1;
            let (mut dx, mut xn) = (0.0_f64, 0.0_f64);
            for (a, b) in x.iter().zip(ud.iter()) {
                dx = dx.max((a - b).abs());
                xn = xn.max(a.abs());
            }
            ud.copy_from_slice(&x);
            self.x = x;
            // converged, or the linear contraction dx / last_dx predicts a next
            // change below the tolerance (saves the solve that would only confirm it)
            let tol = self.params.tol * (1.0 + xn);
            if m == 0 || (it > 0 && (dx <= tol || (dx < last_dx && dx * dx <= tol * last_dx))) {
                break;
            }
            last_dx = dx;
            for r in 0..m {
                let krow = &self.k[r * n..(r + 1) * n];
                let kx: f64 = krow.iter().zip(ud.iter()).map(|(a, b)| a * b).sum();
                self.lambda[r] += alpha * (kx - self.gbar[r]);
            }
        }
        Ok(())
    }

    /// Every body's spatial acceleration A = A⁰_p + c + H⁰ u̇ from the u̇ of the last
    /// evaluation, for [`crate::Aba::body_accelerations`] (outputs only: the
    /// right-hand side does not need them).
    pub(super) fn spatial_accelerations(&mut self, ud: &[f64]) {
        let h = &self.aba.tree;
        for &b in &h.tree_order {
            let mut a = h.parent_body[b].map_or_else(Vector6::zeros, |p| self.aba.art[p].a);
            a += self.aba.art[b].c;
            let j = &h.joints[h.parent_joint[b]];
            for i in j.u_off..j.u_off + j.nf {
                a += self.aba.cols[i].h * ud[i];
            }
            self.aba.art[b].a = a;
        }
    }
}
