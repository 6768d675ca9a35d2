//! Mass-orthogonal projections in DCA form (paper sec 3, eqs 41–72; appendix eqs
//! 87–111), in the [ṙ, ω'] velocities of this crate.
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
//! [`crate::DcaParams::reuse_below`], or when an iteration reduced ‖Φ‖∞ by less than
//! a factor 4, the matrices are formed again at the current iterate (Gauss–Newton
//! instead of the modified Newton): with α = 1e6 the modified Newton contracts only
//! while α‖Φ_q(q) − Φ_q(q*)‖ is small against M, which holds for the integration
//! drift the paper targets but not for larger corrections (they diverge without it).
//!
//! # Velocities (eqs 57–72, 109–111)
//! With the matrices formed again at the corrected positions (sec 4.4):
//!
//! ```text
//!   (M + Φ_qᵀαΦ_q) q̇ᵢ₊₁ = M q̇* − Φ_qᵀ(λ*ᵢ + α Φ_t)                (eqs 64–65, 109)
//!   λ*ᵢ₊₁ = λ*ᵢ + α(Φ_q q̇ᵢ₊₁ + Φ_t)                               (eqs 61, 72, 110)
//! ```
//!
//! Stop when ‖q̇ᵢ₊₁ − q̇ᵢ‖∞ < ε_v. The matrices stay cached for the acceleration
//! evaluation that follows at the same (t, q) (the integrator re-evaluates ẏ after a
//! projection), as the paper reuses them (sec 3.3, last paragraph).

use mbs_kinematics::euler_params::g_matrix;
use nalgebra::{Vector3, Vector4, Vector6};

use crate::error::DcaError;
use crate::system::AlfDca;

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
    fn evaluate_constraints_loaded(&mut self) -> Result<(), DcaError> {
        let t = self.state.t;
        self.ws
            .evaluate_constraints(&self.model, &self.sys, &self.state)
            .map_err(|source| DcaError::Constraints { t, source })
    }

    /// Projects y = [q; v] onto the position and velocity constraint manifolds (both
    /// levels, whatever [`crate::DcaParams::projections`] says).
    pub fn project_state(&mut self, t: f64, y: &mut [f64]) -> Result<ProjectionInfo, DcaError> {
        let n = self.n_bodies();
        self.check_len("state y", 13 * n, y.len())?;
        let p = self.params;
        let mut info = ProjectionInfo::default();
        // Unit Euler parameters (A(p) does not depend on ‖p‖: a no-op physically).
        for b in 0..n {
            let s = &mut y[7 * b + 3..7 * b + 7];
            let norm = s.iter().map(|x| x * x).sum::<f64>().sqrt();
            if norm > 0.0 && norm.is_finite() {
                s.iter_mut().for_each(|x| *x /= norm);
            }
        }
        self.load(t, y)?;
        self.evaluate_constraints_loaded()?;

        // ---- positions ----
        self.form_matrices(true)?;
        self.correction.fill(0.0);
        self.reset_multipliers();
        let mut converged_p = false;
        let mut last_phi = f64::INFINITY;
        for it in 1..=p.max_iter.max(1) {
            let phi = self.max_phi();
            if it > 1 && (phi > p.reuse_below || phi > 0.25 * last_phi) {
                self.form_matrices(true)?;
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
                let d = &self.correction[6 * b..6 * b + 6];
                let jd = self.inertias[b] * Vector3::new(d[3], d[4], d[5]);
                for i in 0..3 {
                    self.leaf_rhs[6 * b + i] = -self.masses[b] * d[i];
                    self.leaf_rhs[6 * b + 3 + i] = -jd[i];
                }
            }
            // Δq, and λ* ← λ* + α(Φ_q Δq + Φ(qᵢ)) in the disassembly (eqs 45, 56, 100)
            let (_, change) = self.solve(true);
            self.gather_solution();
            for b in 0..n {
                let d = &self.sol[6 * b..6 * b + 6];
                for i in 0..6 {
                    self.correction[6 * b + i] += d[i];
                }
                for i in 0..3 {
                    y[7 * b + i] += d[i];
                }
                let q = &mut y[7 * b + 3..7 * b + 7];
                let pv = Vector4::new(q[0], q[1], q[2], q[3]);
                let np = pv + 0.5 * g_matrix(&pv).transpose() * Vector3::new(d[3], d[4], d[5]);
                let np = np / np.norm();
                q.copy_from_slice(np.as_slice());
            }
            self.state.q.as_mut_slice().copy_from_slice(&y[..7 * n]);
            info.position_iterations = it;
            info.position_change = change;
            if !change.is_finite() {
                return Err(DcaError::NonFinite {
                    t,
                    quantity: "position correction",
                    body: self.worst_body(),
                });
            }
            self.evaluate_constraints_loaded()?;
            if change < p.eps_p {
                converged_p = true;
                break;
            }
        }

        // ---- velocities ----
        self.form_matrices(false)?;
        for b in 0..n {
            let v = &y[7 * n + 6 * b..7 * n + 6 * b + 6];
            let jv = self.inertias[b] * Vector3::new(v[3], v[4], v[5]);
            for i in 0..3 {
                self.leaf_rhs[6 * b + i] = self.masses[b] * v[i];
                self.leaf_rhs[6 * b + 3 + i] = jv[i];
            }
        }
        self.prev.copy_from_slice(&y[7 * n..]);
        // c = Φ_t, constant over the iterations
        for (e, blk) in self.ws.blocks().iter().enumerate() {
            let mut c = Vector6::zeros();
            for row in 0..blk.rows {
                c[row] = blk.phi_t[row];
            }
            self.c[e] = c;
        }
        self.reset_multipliers();
        let mut converged_v = false;
        for it in 1..=p.max_iter.max(1) {
            // q̇ᵢ₊₁, and λ* ← λ* + α(Φ_q q̇ᵢ₊₁ + Φ_t) in the disassembly (eqs 61, 72, 110)
            let (mut change, _) = self.solve(false);
            if it == 1 {
                // against q̇* (the nodes held another level's solution)
                self.gather_solution();
                change = self
                    .sol
                    .iter()
                    .zip(&self.prev)
                    .fold(0.0, |m: f64, (s, q)| m.max((s - q).abs()));
            }
            info.velocity_iterations = it;
            info.velocity_change = change;
            if !change.is_finite() {
                self.gather_solution();
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
        self.gather_solution();
        y[7 * n..].copy_from_slice(&self.sol);
        self.state.v.as_mut_slice().copy_from_slice(&self.sol);
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
        self.load(t, y)?;
        self.evaluate_constraints_loaded()?;
        let (mut phi, mut phi_dot): (f64, f64) = (0.0, 0.0);
        for (e, entry) in self.sys.entries().iter().enumerate() {
            let blk = self.ws.block(e);
            let vi = self.body_velocity(entry.body_i.body());
            let vj = self.body_velocity(entry.body_j.body());
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
        self.load(t, y)?;
        self.ws
            .evaluate(&self.model, &self.sys, &self.state)
            .map_err(|source| DcaError::Constraints { t, source })?;
        Ok(self.ws.total_energy(&self.sys))
    }
}
