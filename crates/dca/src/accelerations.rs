//! The augmented-Lagrangian multiplier iterations of the accelerations (paper eqs
//! 6–8, 17; sec 4.4).
//!
//! ```text
//!   γ̄ⱼ = −γⱼ + 2Ωμ Φ̇ⱼ + Ω²Φⱼ          (paper's γ^AB = −γ, NOTATION.md; Ω²Φ on holonomic rows)
//!   iteration i:  (M + Φ_qᵀαΦ_q) q̈ᵢ = Q − Φ_qᵀ(λ*ᵢ + α γ̄)     (eqs 9–10, by assembly/disassembly)
//!                 λ*ᵢ₊₁ = λ*ᵢ + α(Φ_q q̈ᵢ + γ̄)                  (eqs 6, 17)
//! ```
//!
//! with λ*₀ = 0. The paper writes the stabilization terms on the normalization rows
//! (eqs 7–8) and γ̄^AB on the joint rows (eq 6); as in the global ALF (Bayo–Ledesma
//! eq 6) every holonomic row gets 2Ωμ Φ̇ + Ω²Φ and nonholonomic rows 2Ωμ Φ̇, so that
//! with the same α and iteration count ALF-DCA and the global ALF give the same
//! accelerations. Only vectors change between iterations: the matrices of the
//! assembly are formed once per evaluation (sec 4.4).

use mbs_constraints::Baumgarte;
use mbs_integrators::{OdeSystem, SystemError};
use mbs_model::{Layout, State, StateView};
use nalgebra::Vector6;

use crate::disassembly::gather_multipliers;
use crate::error::DcaError;
use crate::system::{AlfDca, body_velocity};

/// What one acceleration evaluation did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AccelerationInfo {
    /// Multiplier iterations done.
    pub iterations: usize,
    /// Whether ε_a was met.
    pub converged: bool,
    /// Last relative change ‖q̈ᵢ − q̈ᵢ₋₁‖∞ / (1 + ‖q̈ᵢ‖∞).
    pub change: f64,
}

impl AlfDca {
    /// Accelerations at `state`, at which the workspace was evaluated (constraints and
    /// forces).
    pub(crate) fn accelerations_evaluated(
        &mut self,
        state: StateView<'_>,
    ) -> Result<AccelerationInfo, DcaError> {
        let p = self.params;
        let t = state.t;
        // c per entry: the paper's γ̄ = γ^AB + 2Ωμ Φ̇ + Ω²Φ (eqs 7–8), −γ̄ in our sign
        let stab = Baumgarte::from_damping(p.mu, p.omega);
        for (e, entry) in self.sys.entries().iter().enumerate() {
            let blk = self.ws.block(e);
            let vi = body_velocity(state.v, entry.body_i.body());
            let vj = body_velocity(state.v, entry.body_j.body());
            let mut c = Vector6::zeros();
            for row in 0..blk.rows {
                let phi_dot = blk.ji.row(row).dot(&vi.transpose())
                    + blk.jj.row(row).dot(&vj.transpose())
                    + blk.phi_t[row];
                let phi = (row < blk.n_holonomic).then(|| blk.phi[row]);
                c[row] = stab.neg_row(blk.gamma[row], phi, phi_dot);
            }
            self.c[e] = c;
        }
        self.form_matrices(t, state.q, false, p.alpha)?;
        self.ws
            .generalized_forces(&self.sys, &mut self.forces)
            .map_err(|source| DcaError::Constraints { t, source })?;
        self.leaf_rhs.copy_from_slice(&self.forces);
        self.reset_multipliers();
        let mut info = AccelerationInfo::default();
        for it in 1..=p.max_iter.max(1) {
            // one iteration: eqs 9–10 by assembly/disassembly, then eq 17 per node
            let (diff, scale) = self.solve(false, p.alpha);
            info.iterations = it;
            info.change = if it == 1 {
                f64::INFINITY
            } else {
                diff / (1.0 + scale)
            };
            if p.eps_a > 0.0 && info.change <= p.eps_a {
                info.converged = true;
                break;
            }
        }
        self.gather_solution();
        self.acc.copy_from_slice(&self.sol);
        if let Some(i) = self.acc.iter().position(|x| !x.is_finite()) {
            return Err(DcaError::NonFinite {
                t,
                quantity: "acceleration",
                body: self.body_name(i / 6),
            });
        }
        gather_multipliers(&self.plan, &self.sys, &mut self.multipliers);
        self.stats.evaluations += 1;
        self.stats.iterations += info.iterations;
        self.stats.last_iterations = info.iterations;
        if !info.converged {
            self.stats.unconverged += 1;
        }
        Ok(info)
    }

    /// Evaluates the accelerations at (t, y) into [`Self::accelerations`].
    pub fn evaluate(&mut self, t: f64, y: &[f64]) -> Result<AccelerationInfo, DcaError> {
        let state = self.view(t, y)?;
        self.ws
            .evaluate(&self.model, &self.sys, state)
            .map_err(|source| DcaError::Constraints { t, source })?;
        self.accelerations_evaluated(state)
    }

    /// Accelerations [r̈; ω̇'] (6 per body) at a state in any layout (converted to
    /// [ṙ, ω'] first, which allocates when the layout differs).
    pub fn accelerations_at(
        &mut self,
        state: &State,
        out: &mut [f64],
    ) -> Result<AccelerationInfo, DcaError> {
        self.check_len("accelerations", 6 * self.n_bodies(), out.len())?;
        let s;
        let st = if state.layout == Layout::EulerParamsOmega {
            state
        } else {
            s = state.to_layout(Layout::EulerParamsOmega);
            &s
        };
        let n = self.n_bodies();
        self.check_len("state positions", 7 * n, st.q.len())?;
        self.check_len("state velocities", 6 * n, st.v.len())?;
        let state = st.view();
        let t = st.t;
        self.ws
            .evaluate(&self.model, &self.sys, state)
            .map_err(|source| DcaError::Constraints { t, source })?;
        let info = self.accelerations_evaluated(state)?;
        out.copy_from_slice(&self.acc);
        Ok(info)
    }
}

pub(crate) fn system_error(e: DcaError) -> SystemError {
    SystemError::with_source(e.to_string(), e)
}

impl OdeSystem for AlfDca {
    fn dim(&self) -> usize {
        13 * self.n_bodies()
    }

    fn rhs(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError> {
        self.evaluate(t, y).map_err(system_error)?;
        let state = self.view(t, y).map_err(system_error)?;
        self.write_derivative(state, dydt);
        Ok(())
    }

    fn project(&mut self, t: f64, y: &mut [f64]) -> Result<bool, SystemError> {
        if !self.params.projections {
            return Ok(false);
        }
        self.hook_calls += 1;
        if !self
            .hook_calls
            .is_multiple_of(self.params.project_every.max(1))
        {
            return Ok(false);
        }
        self.project_state(t, y).map_err(system_error)?;
        Ok(true)
    }
}
