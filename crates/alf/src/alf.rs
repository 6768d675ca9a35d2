//! ALF index-1 accelerations (Bayo–Ledesma eqs 5–8).
//!
//! ```text
//!   (M + Φ_qᵀαΦ_q) q̈ + Φ_qᵀλ* = Q − Φ_qᵀα c,   c = Φ̇_q q̇ + Φ̇_t + 2Ωμ Φ̇ + Ω²Φ   (eq 6)
//!   λ*ᵢ₊₁ = λ*ᵢ + α (Φ_q q̈ᵢ₊₁ + c)                                           (eq 7)
//! ```
//!
//! With NOTATION.md's γ (Φ_q q̈ = γ), Bayo's Φ̇_q q̇ + Φ̇_t equals −γ, so
//! c = −γ + 2Ωμ Φ̇ + Ω²Φ. Writing the iteration with λ* explicit,
//!
//! ```text
//!   L q̈ᵢ₊₁ = Q − Φ_qᵀ(λ*ᵢ + α c),   λ*ᵢ₊₁ = λ*ᵢ + α(Φ_q q̈ᵢ₊₁ + c),
//! ```
//!
//! is algebraically identical to eq 8 (L q̈ᵢ₊₁ = M q̈ᵢ − Φ_qᵀα c with M q̈₀ = Q) and
//! allows a warm start. Nonholonomic rows have no Φ term.

use nalgebra::DVector;

use crate::descriptor::Descriptor;
use crate::error::AlfError;
use crate::lagrange::LagrangeAccelerations;
use crate::leading::LeadingMatrix;
use crate::params::{AlfParams, Baumgarte};

/// Below this relative change a non-decreasing change counts as converged (the
/// iterations have reached the round-off floor of the solves).
const STAGNATION_FLOOR: f64 = 1e-8;

/// What one ALF evaluation did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AlfInfo {
    /// Multiplier iterations used.
    pub iterations: usize,
    /// Whether the tolerance was met within the cap.
    pub converged: bool,
    /// Last relative change of q̈.
    pub change: f64,
    /// The iteration contracted too slowly (near a singular configuration, where it
    /// contracts by ≈ 1/(1 + α s²/m) along a small singular value s of Φ_q) and q̈
    /// was computed by the direct minimum-norm solve of the same equations.
    pub direct: bool,
}

/// Workspace of the ALF acceleration solve.
#[derive(Debug)]
pub struct AlfAccelerations {
    params: AlfParams,
    leading: LeadingMatrix,
    c: DVector<f64>,
    lambda: DVector<f64>,
    rhs: DVector<f64>,
    tmp_m: DVector<f64>,
    prev: DVector<f64>,
    /// The limit of the iteration, Φ_q q̈ = −c with M q̈ + Φ_qᵀλ = Q, i.e. Lagrange
    /// with Baumgarte terms α̂ = μΩ, β̂ = Ω, solved in the minimum-norm sense.
    direct: Box<LagrangeAccelerations>,
}

impl AlfAccelerations {
    /// Workspace for n coordinates and m constraint rows.
    pub fn new(n: usize, m: usize, params: AlfParams) -> Self {
        Self {
            params,
            leading: LeadingMatrix::new(n),
            c: DVector::zeros(m),
            lambda: DVector::zeros(m),
            rhs: DVector::zeros(n),
            tmp_m: DVector::zeros(m),
            prev: DVector::zeros(n),
            direct: Box::new(LagrangeAccelerations::new(
                n,
                m,
                Some(Baumgarte::from_damping(params.mu, params.omega)),
                true,
            )),
        }
    }

    /// Parameters.
    pub fn params(&self) -> &AlfParams {
        &self.params
    }

    /// The multipliers λ* of the last solve (eq 7).
    pub fn multipliers(&self) -> &DVector<f64> {
        &self.lambda
    }

    /// The leading matrix factored by the last solve (reused by projections).
    pub fn leading(&mut self) -> &mut LeadingMatrix {
        &mut self.leading
    }

    /// Computes q̈ at the state last evaluated in `sys` (at `Level::Full`), with
    /// velocities `v`.
    pub fn solve(
        &mut self,
        t: f64,
        sys: &dyn Descriptor,
        v: &[f64],
        qdd: &mut DVector<f64>,
    ) -> Result<AlfInfo, AlfError> {
        let p = self.params;
        let (phi_q, m_h) = (sys.phi_q(), sys.m_holonomic());
        // c = −γ + 2Ωμ Φ̇ + Ω²Φ = −γ̄ (eq 6),  Φ̇ = Φ_q q̇ + Φ_t (in tmp_m)
        let v = nalgebra::DVectorView::from_slice(v, v.len());
        self.tmp_m.gemv(1.0, phi_q, &v, 0.0);
        self.tmp_m += sys.phi_t();
        let phi = sys.phi().as_slice();
        self.c.copy_from(sys.gamma());
        Baumgarte::from_damping(p.mu, p.omega).neg_apply(
            self.c.as_mut_slice(),
            &phi[..m_h.min(phi.len())],
            self.tmp_m.as_slice(),
        );
        self.leading.factor(t, sys.mass(), phi_q, p.alpha)?;
        if !p.warm_start {
            self.lambda.fill(0.0);
        }
        let mut info = AlfInfo::default();
        let mut last = f64::INFINITY;
        for it in 1..=p.max_iter.max(1) {
            // rhs = Q − Φ_qᵀ(λ* + α c)
            self.tmp_m.copy_from(&self.lambda);
            self.tmp_m.axpy(p.alpha, &self.c, 1.0);
            self.rhs.copy_from(sys.forces());
            self.rhs.gemv_tr(-1.0, phi_q, &self.tmp_m, 1.0);
            self.leading.solve(t, &mut self.rhs)?;
            // λ* += α(Φ_q q̈ + c)
            self.tmp_m.copy_from(&self.c);
            self.tmp_m.gemv(1.0, phi_q, &self.rhs, 1.0);
            self.lambda.axpy(p.alpha, &self.tmp_m, 1.0);
            let scale = 1.0 + self.rhs.amax();
            info.change = if it == 1 {
                f64::INFINITY
            } else {
                self.rhs
                    .iter()
                    .zip(self.prev.iter())
                    .fold(0.0f64, |a, (x, y)| a.max((x - y).abs()))
                    / scale
            };
            self.prev.copy_from(&self.rhs);
            info.iterations = it;
            // converged, or stagnating at the round-off floor cond(L)·ε of the
            // solves (≈ 1e-9 relative for α = 1e7): the change no longer halves and
            // either does not decrease at all or its geometric tail
            // change·ρ/(1 − ρ) (the remaining error of an iteration contracting by
            // ρ) is below the floor. A slow but genuine contraction (ρ → 1 near a
            // singular configuration) is not stagnation: it goes on, and finishes
            // with the direct solve below.
            let rho = info.change / last;
            if info.change <= p.tol
                || (it > 2
                    && info.change <= STAGNATION_FLOOR
                    && rho >= 0.5
                    && (rho >= 1.0 || info.change * rho / (1.0 - rho) <= STAGNATION_FLOOR))
            {
                info.converged = true;
                break;
            }
            last = info.change;
        }
        if !info.converged && p.max_iter > 2 && p.tol > 0.0 {
            // the limit of the iteration, directly (an exact solve, not an error);
            // a cap of 1 or 2 iterations asks for the penalty formulation itself, and
            // tol = 0 for exactly `max_iter` iterations (the papers' fixed counts)
            self.direct.solve(t, sys, v.as_slice(), &mut self.prev)?;
            self.lambda.copy_from(&self.direct.multipliers());
            info.direct = true;
            info.converged = true;
        }
        qdd.copy_from(&self.prev);
        crate::descriptor::check_finite(t, "acceleration", qdd.as_slice(), |i| {
            sys.coordinate_label(i)
        })?;
        Ok(info)
    }
}
