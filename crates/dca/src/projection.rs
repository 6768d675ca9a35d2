//! Mass-orthogonal projections in DCA form (paper sec 3, eqs 41–72; appendix eqs
//! 87–111), in the [ṙ, ω'] velocities of this crate.
//!
//! # Penalty
//! Both levels use the projection penalty α = [`crate::DcaParams::projection_alpha`]
//! (default relative, per row α_r = κ_p/(Φ_q,r M⁻¹ Φ_q,rᵀ), κ_p = 1e11; see
//! [`crate::PenaltyScale`]) and the cap [`crate::DcaParams::projection_max_iter`] (default 25);
//! the accelerations keep [`crate::DcaParams::alpha`] (the paper uses one α). The
//! iteration contracts the error of a constraint mode with singular value σ of Φ_q by
//! m/(m + ασ²) per iteration: with α = 1e6 that is ≈ 1 for σ < 1e-3, and near
//! singular configurations the projections stalled (`tests/singular_configurations.rs`).
//! Both levels are iterated in correction form, so the round-off of the solve,
//! ≈ α·ε/λ_min(M) relative, applies to the small correction, and the result is checked
//! against the exact Φ (Φ_t). The matrices are formed with the projection α (cached
//! with α as part of the key, so the acceleration evaluation that follows forms its
//! own with the dynamics' α) and the multiplier updates of the disassembly use the
//! same α.
//!
//! # Positions (eqs 41–56, 99–100)
//! Minimize ½(q − q*)ᵀM(q − q*) subject to Φ(q) = 0 by the augmented-Lagrangian
//! modified Newton iteration with the tangent matrix formed once at q*:
//!
//! ```text
//!   (M + Φ_qᵀαΦ_q) Δqᵢ₊₁ = −M(qᵢ − q*) − Φ_qᵀ(λ*ᵢ + α Φ(qᵢ))     (eqs 48–49, 99)
//!   λ*ᵢ₊₁ = λ*ᵢ + α(Φ_q Δqᵢ₊₁ + Φ(qᵢ))                           (eqs 45, 56, 100)
//! ```
//!
//! solved by the same assembly/disassembly with leaf right-hand sides −M_b(qᵢ − q*)_b
//! and joint vectors λ* + αΦ (eqs 50–56 have the form of eqs 11–17). Δq = [Δr; δθ']
//! per body, δθ' a body-frame rotation vector; the Euler parameters are updated as
//! p ← (p + ½G(p)ᵀδθ')/‖·‖. Stop when ‖Δq‖∞ < ε_p. While ‖Φ‖∞ exceeds
//! [`crate::DcaParams::reuse_below`]·min(1, α_dyn/α) (α_dyn = `alpha`), or when an
//! iteration reduced ‖Φ‖∞ by less than a factor 4, the matrices are formed again at
//! the current iterate (Gauss–Newton instead of the modified Newton): the modified
//! Newton contracts only while (Φ_q(q) − Φ_q(q*))ᵀαΦ(q) is small against M, which
//! holds for the integration drift the paper targets but not for larger corrections
//! (they diverge without it); the threshold scales with 1/α to keep that product.
//! Safeguard: if the last iterate's ‖Φ‖∞ is above 4 times the smallest one seen (and
//! above round-off), the projection falls back to that best iterate and reports
//! itself unconverged.
//!
//! # Velocities (eqs 57–72, 109–111)
//! With the matrices formed again at the corrected positions (sec 4.4), the paper's
//!
//! ```text
//!   (M + Φ_qᵀαΦ_q) q̇ᵢ₊₁ = M q̇* − Φ_qᵀ(λ*ᵢ + α Φ_t)                (eqs 64–65, 109)
//!   λ*ᵢ₊₁ = λ*ᵢ + α(Φ_q q̇ᵢ₊₁ + Φ_t)                               (eqs 61, 72, 110)
//! ```
//!
//! is iterated in the equivalent correction form (q̇ᵢ₊₁ = q̇ᵢ + Δq̇ᵢ₊₁, q̇₀ = q̇*):
//!
//! ```text
//!   (M + Φ_qᵀαΦ_q) Δq̇ᵢ₊₁ = M(q̇* − q̇ᵢ) − Φ_qᵀ(λ*ᵢ + α(Φ_q q̇ᵢ + Φ_t))
//!   λ*ᵢ₊₁ = λ*ᵢ + α(Φ_q Δq̇ᵢ₊₁ + Φ_q q̇ᵢ + Φ_t)
//! ```
//!
//! (leaf right-hand sides M_b(q̇* − q̇ᵢ)_b, joint vectors λ* + αΦ̇(q̇ᵢ)). Stop when
//! ‖Δq̇‖∞ < ε_v. When the projection α equals the dynamics' α, the matrices stay cached
//! for the acceleration evaluation that follows at the same (t, q) (the integrator
//! re-evaluates ẏ after a projection), as the paper reuses them (sec 3.3, last
//! paragraph); otherwise that evaluation forms them again (one more matrix pass per
//! projection).

use mbs_kinematics::euler_params::g_matrix;
use mbs_model::body_coords::{euler_params_range, position_range, v_range};
use mbs_model::{Layout, StateView};
use nalgebra::{Vector3, Vector4, Vector6};

use crate::error::DcaError;
use crate::system::{AlfDca, body_velocity};

/// ‖Φ‖∞ below which the last position iterate is kept even if an earlier one had a
/// smaller ‖Φ‖∞ (round-off level).
const SAFEGUARD_PHI: f64 = 1e-13;

/// What one projection did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProjectionInfo {
    /// Position iterations.
    pub position_iterations: usize,
    /// Velocity iterations.
    pub velocity_iterations: usize,
    /// Last ‖Δq‖∞.
    pub position_change: f64,
    /// Last ‖Δq̇‖∞.
    pub velocity_change: f64,
    /// Both tolerances met within the cap.
    pub converged: bool,
}

impl AlfDca {
    /// Evaluates the constraints at (t, q, v) (`y` split into q and v, no copy).
    fn evaluate_constraints_at(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<(), DcaError> {
        self.ws
            .evaluate_constraints(
                &self.model,
                &self.sys,
                StateView::new(Layout::EulerParamsOmega, t, q, v),
            )
            .map_err(|source| DcaError::Constraints { t, source })
    }

    /// Projects y = [q; v] onto the position and velocity constraint manifolds (both
    /// levels, whatever [`crate::DcaParams::projections`] says).
    pub fn project_state(&mut self, t: f64, y: &mut [f64]) -> Result<ProjectionInfo, DcaError> {
        let n = self.n_bodies();
        self.check_len("state y", 13 * n, y.len())?;
        let p = self.params;
        let pa = p.projection_alpha;
        let mut info = ProjectionInfo::default();
        // Unit Euler parameters (A(p) does not depend on ‖p‖: a no-op physically).
        for b in 0..n {
            let s = &mut y[euler_params_range(b)];
            let norm = s.iter().map(|x| x * x).sum::<f64>().sqrt();
            if norm > 0.0 && norm.is_finite() {
                s.iter_mut().for_each(|x| *x /= norm);
            }
        }
        let nq = 7 * n;
        {
            let (q, v) = y.split_at(nq);
            self.evaluate_constraints_at(t, q, v)?;
        }

        // ---- positions ----
        self.form_matrices(t, &y[..nq], true, pa)?;
        self.correction.fill(0.0);
        self.reset_multipliers();
        // `reuse_below` is set for the penalty α: keep the penalty force α‖Φ‖ at which
        // the matrices are formed again (the mismatch (Φ_q(qᵢ) − Φ_q(q*))ᵀαΦ(qᵢ)
        // grows with α).
        let reuse_below = p.reuse_below * p.penalty_ratio();
        let mut converged_p = false;
        let mut last_phi = f64::INFINITY;
        // The iterate with the smallest ‖Φ‖∞ (a safeguard: near a singular
        // configuration the Newton-like step of a large penalty can leave the basin).
        let mut best_phi = self.max_phi();
        self.best_q.copy_from_slice(&y[..nq]);
        for it in 1..=p.projection_max_iter.max(1) {
            let phi = self.max_phi();
            if it > 1 && (phi > reuse_below || phi > 0.25 * last_phi) {
                self.form_matrices(t, &y[..nq], true, pa)?;
            }
            last_phi = phi;
            // c = Φ(qᵢ) on the holonomic rows
            for (e, blk) in self.ws.blocks().iter().enumerate() {
                let mut c = Vector6::zeros();
                for row in 0..blk.n_holonomic {
                    c[row] = blk.phi[row];
                }
                self.c[e] = c;
            }
            // leaf right-hand side −M_b (q − q*)_b
            for b in 0..n {
                let d = &self.correction[v_range(b)];
                let jd = self.inertias[b] * Vector3::new(d[3], d[4], d[5]);
                let r = &mut self.leaf_rhs[v_range(b)];
                for i in 0..3 {
                    r[i] = -self.masses[b] * d[i];
                    r[3 + i] = -jd[i];
                }
            }
            // Δq, and λ* ← λ* + α(Φ_q Δq + Φ(qᵢ)) in the disassembly (eqs 45, 56, 100)
            let (_, change) = self.solve(true, pa);
            self.gather_solution();
            for b in 0..n {
                let d = &self.sol[v_range(b)];
                for (c, di) in self.correction[v_range(b)].iter_mut().zip(d) {
                    *c += di;
                }
                for (r, di) in y[position_range(b)].iter_mut().zip(d) {
                    *r += di;
                }
                let q = &mut y[euler_params_range(b)];
                let pv = Vector4::new(q[0], q[1], q[2], q[3]);
                let np = pv + 0.5 * g_matrix(&pv).transpose() * Vector3::new(d[3], d[4], d[5]);
                let np = np / np.norm();
                q.copy_from_slice(np.as_slice());
            }
            info.position_iterations = it;
            info.position_change = change;
            if !change.is_finite() {
                return Err(DcaError::NonFinite {
                    t,
                    quantity: "position correction",
                    body: self.worst_body(),
                });
            }
            {
                let (q, v) = y.split_at(nq);
                self.evaluate_constraints_at(t, q, v)?;
            }
            let phi = self.max_phi();
            if phi <= best_phi {
                best_phi = phi;
                self.best_q.copy_from_slice(&y[..nq]);
            }
            if change < p.eps_p {
                converged_p = true;
                break;
            }
        }
        if self.max_phi() > (4.0 * best_phi).max(SAFEGUARD_PHI) {
            // diverging: fall back to the best iterate
            converged_p = false;
            y[..nq].copy_from_slice(&self.best_q);
            let (q, v) = y.split_at(nq);
            self.evaluate_constraints_at(t, q, v)?;
        }

        // ---- velocities (correction form; the iterate in `vel`, y's left as is
        // until it converged) ----
        self.form_matrices(t, &y[..nq], false, pa)?;
        self.prev.copy_from_slice(&y[nq..]);
        self.vel.copy_from_slice(&y[nq..]);
        self.reset_multipliers();
        let mut converged_v = false;
        for it in 1..=p.projection_max_iter.max(1) {
            // c = Φ_q q̇ᵢ + Φ_t = Φ̇(q̇ᵢ) on all rows
            for (e, entry) in self.sys.entries().iter().enumerate() {
                let blk = self.ws.block(e);
                let vi = body_velocity(&self.vel, entry.body_i.body());
                let vj = body_velocity(&self.vel, entry.body_j.body());
                let mut c = blk.ji * vi + blk.jj * vj;
                for row in 0..6 {
                    c[row] = if row < blk.rows {
                        c[row] + blk.phi_t[row]
                    } else {
                        0.0
                    };
                }
                self.c[e] = c;
            }
            // leaf right-hand side M_b (q̇* − q̇ᵢ)_b
            for b in 0..n {
                let (prev, v) = (&self.prev[v_range(b)], &self.vel[v_range(b)]);
                let d = Vector6::from_fn(|i, _| prev[i] - v[i]);
                let jd = self.inertias[b] * Vector3::new(d[3], d[4], d[5]);
                let r = &mut self.leaf_rhs[v_range(b)];
                for i in 0..3 {
                    r[i] = self.masses[b] * d[i];
                    r[3 + i] = jd[i];
                }
            }
            // Δq̇, and λ* ← λ* + α(Φ_q Δq̇ + Φ_q q̇ᵢ + Φ_t) = λ* + α(Φ_q q̇ᵢ₊₁ + Φ_t) in the
            // disassembly (eqs 61, 72, 110)
            self.solve(false, pa);
            self.gather_solution();
            let mut change: f64 = 0.0;
            for (x, d) in self.vel.iter_mut().zip(&self.sol) {
                *x += d;
                change = change.max(d.abs());
            }
            info.velocity_iterations = it;
            info.velocity_change = change;
            if !change.is_finite() {
                return Err(DcaError::NonFinite {
                    t,
                    quantity: "velocity correction",
                    body: self.worst_body(),
                });
            }
            if change < p.eps_v {
                converged_v = true;
                break;
            }
        }
        y[nq..].copy_from_slice(&self.vel);
        info.converged = converged_p && converged_v;
        self.stats.projections += 1;
        self.stats.position_iterations += info.position_iterations;
        self.stats.velocity_iterations += info.velocity_iterations;
        if !info.converged {
            self.stats.unconverged_projections += 1;
        }
        Ok(info)
    }

    /// ‖Φ‖∞ of the evaluated blocks (holonomic rows).
    fn max_phi(&self) -> f64 {
        self.ws
            .blocks()
            .iter()
            .flat_map(|b| b.phi.iter().take(b.n_holonomic))
            .fold(0.0, |m: f64, x| m.max(x.abs()))
    }

    /// The first body whose solution is not finite (for error messages).
    fn worst_body(&self) -> String {
        let i = self.sol.iter().position(|x| !x.is_finite()).unwrap_or(0);
        self.body_name(i / 6)
    }

    /// Constraint violations (‖Φ‖∞, ‖Φ̇‖∞) at (t, y) (holonomic rows for Φ, all rows
    /// for Φ̇).
    pub fn constraint_errors(&mut self, t: f64, y: &[f64]) -> Result<(f64, f64), DcaError> {
        let state = self.view(t, y)?;
        self.evaluate_constraints_at(t, state.q, state.v)?;
        let (mut phi, mut phi_dot): (f64, f64) = (0.0, 0.0);
        for (e, entry) in self.sys.entries().iter().enumerate() {
            let blk = self.ws.block(e);
            let vi = body_velocity(state.v, entry.body_i.body());
            let vj = body_velocity(state.v, entry.body_j.body());
            let d = blk.ji * vi + blk.jj * vj + blk.phi_t;
            for row in 0..blk.rows {
                if row < blk.n_holonomic {
                    phi = phi.max(blk.phi[row].abs());
                }
                phi_dot = phi_dot.max(d[row].abs());
            }
        }
        Ok((phi, phi_dot))
    }

    /// Total mechanical energy T + V at (t, y).
    pub fn energy(&mut self, t: f64, y: &[f64]) -> Result<f64, DcaError> {
        let state = self.view(t, y)?;
        self.ws
            .evaluate(&self.model, &self.sys, state)
            .map_err(|source| DcaError::Constraints { t, source })?;
        Ok(self.ws.total_energy(&self.sys))
    }
}
