//! Mass-orthogonal projections of the sparse ALF (Bayo–Ledesma sec 3.2): positions
//! by the augmented-Lagrangian iteration of eqs 13–15 with the leading matrix
//! L = M + Φ_qᵀαΦ_q factored once at q* (modified Newton), velocities by the same
//! iteration on the linear constraints Φ_q q̇ + Φ_t = 0 (eqs 21–24) with L reused.
//! The iteration, the deviations from eqs 14–15 and the convergence test are those
//! of the dense [`crate::Projector`] (see `Projector::position_correction`); here L
//! is the sparse Cholesky of [`SparseAlf`] refactored with the projection penalty
//! (same pattern, numeric factorization only), Φ_q is applied matrix-free and the
//! Φ_q of the factorization (J_f) is kept in the CSC values of
//! [`mbs_constraints::SystemLayout::pattern`]. O(n) per iteration on chains and
//! trees; no allocation.

use mbs_model::{Layout, StateView};

use super::SparseAlf;
use crate::descriptor::max_abs;
use crate::error::AlfError;
use crate::params::ProjectionParams;
use mbs_formulation::projection::converged;

use crate::projection::ProjectionInfo;

/// A projection iteration whose violation shrinks by less than this factor
/// refactors its iteration matrix at the current point (as the dense projector).
const CONTRACTION: f64 = 0.25;

/// Buffers of the sparse projections.
#[derive(Debug)]
pub(crate) struct SparseProjection {
    params: ProjectionParams,
    /// Φ_q values at the factorization point (J_f), pattern order.
    jf: Vec<f64>,
    star: Vec<f64>,
    h: Vec<f64>,
    dx: Vec<f64>,
    sigma: Vec<f64>,
    lambda: Vec<f64>,
    res: Vec<f64>,
    /// Whether the current factorization covers every row (not only holonomic).
    factored_all: bool,
    pub(crate) projections: u64,
}

impl SparseProjection {
    pub(crate) fn new(params: ProjectionParams, n: usize, m: usize, nnz: usize) -> Self {
        Self {
            params,
            jf: vec![0.0; nnz],
            star: vec![0.0; n],
            h: vec![0.0; n],
            dx: vec![0.0; n],
            sigma: vec![0.0; m],
            lambda: vec![0.0; m],
            res: vec![0.0; m],
            factored_all: false,
            projections: 0,
        }
    }
}

fn amax(x: &[f64]) -> f64 {
    x.iter().fold(0.0f64, |a, v| a.max(v.abs()))
}

impl SparseAlf {
    /// Projections done so far.
    pub fn projections(&self) -> u64 {
        self.projection.as_ref().map_or(0, |p| p.projections)
    }

    /// Projects (q, q̇) onto the position and velocity constraint manifolds
    /// (ALF-INDEX1 step 4, Bayo–Ledesma eqs 9–15 and 17–24); `None` without
    /// projections. On return Φ(q) = 0 and Φ_q q̇ + Φ_t = 0 to the tolerances of
    /// [`ProjectionParams`].
    pub fn project_state(
        &mut self,
        t: f64,
        q: &mut [f64],
        v: &mut [f64],
    ) -> Result<Option<ProjectionInfo>, AlfError> {
        let Some(mut p) = self.projection.take() else {
            return Ok(None);
        };
        let r = self.project_with(&mut p, t, q, v);
        if r.is_ok() {
            p.projections += 1;
        }
        self.projection = Some(p);
        r.map(Some)
    }

    fn project_with(
        &mut self,
        p: &mut SparseProjection,
        t: f64,
        q: &mut [f64],
        v: &mut [f64],
    ) -> Result<ProjectionInfo, AlfError> {
        let (position_iterations, phi) = self.project_positions(p, t, q, v)?;
        let (velocity_iterations, phi_dot) = self.project_velocities(p, t, q, v)?;
        Ok(ProjectionInfo {
            position_iterations,
            velocity_iterations,
            phi,
            phi_dot,
        })
    }

    fn evaluate_constraints(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<(), AlfError> {
        let state = StateView::new(Layout::EulerParamsPdot, t, q, v);
        self.ws
            .evaluate_constraints(&self.model, &self.sys, state)
            .map_err(|e| self.constraint_error(t, e))
    }

    /// Factors L = M + Φ_qᵀα_pΦ_q at the evaluated state (holonomic rows only unless
    /// `all`) and keeps its Φ_q as J_f.
    fn factor_projection(
        &mut self,
        p: &mut SparseProjection,
        t: f64,
        all: bool,
    ) -> Result<(), AlfError> {
        let holonomic_only = !all && self.sys.n_holonomic() < self.sys.n_rows();
        self.factor_with(t, p.params.alpha, holonomic_only)?;
        p.factored_all = !holonomic_only;
        self.ws
            .phi_q_values(&self.sys, &mut p.jf)
            .map_err(|e| self.constraint_error(t, e))
    }

    /// out += a·J_fᵀ y over the holonomic rows.
    fn jf_tr_mul_add(&self, jf: &[f64], a: f64, y: &[f64], out: &mut [f64]) {
        let pat = self.sys.pattern();
        let m_h = self.sys.n_holonomic();
        for (c, o) in out.iter_mut().enumerate() {
            for s in pat.col_ptr[c]..pat.col_ptr[c + 1] {
                let r = pat.row_idx[s];
                if r < m_h {
                    *o += a * jf[s] * y[r];
                }
            }
        }
    }

    /// out += a·J_f x over the holonomic rows.
    fn jf_mul_add(&self, jf: &[f64], a: f64, x: &[f64], out: &mut [f64]) {
        let pat = self.sys.pattern();
        let m_h = self.sys.n_holonomic();
        for (c, xc) in x.iter().enumerate() {
            for s in pat.col_ptr[c]..pat.col_ptr[c + 1] {
                let r = pat.row_idx[s];
                if r < m_h {
                    out[r] += a * jf[s] * xc;
                }
            }
        }
    }

    fn solve_leading(&mut self, t: f64, x: &mut [f64]) -> Result<(), AlfError> {
        self.chol.solve(x).map_err(|source| AlfError::Linalg {
            t,
            context: "sparse solve with M + Φ_qᵀαΦ_q in a projection",
            source,
        })
    }

    /// h = M(x − x*) at the evaluated state.
    fn mass_difference(
        &mut self,
        p: &mut SparseProjection,
        t: f64,
        x: &[f64],
    ) -> Result<(), AlfError> {
        for ((d, xi), s) in p.dx.iter_mut().zip(x).zip(&p.star) {
            *d = xi - s;
        }
        self.ws
            .mass_mul(&self.sys, &p.dx, &mut p.h)
            .map_err(|e| self.constraint_error(t, e))
    }

    /// Position projection (eqs 9–15 with the changes of the dense projector's
    /// `position_correction`): L Δ = −[h + Φ_qᵀσ + α J_fᵀΦ], σ ← σ + α(Φ + J_f Δ).
    /// Returns the iterations and ‖Φ‖∞.
    fn project_positions(
        &mut self,
        p: &mut SparseProjection,
        t: f64,
        q: &mut [f64],
        v: &[f64],
    ) -> Result<(usize, f64), AlfError> {
        let m_h = self.sys.n_holonomic();
        let pp = p.params;
        let alpha = pp.alpha;
        self.evaluate_constraints(t, q, v)?;
        p.star.copy_from_slice(q);
        self.factor_projection(p, t, false)?;
        p.sigma.fill(0.0);
        let mut change = f64::INFINITY;
        let mut prev_viol = f64::INFINITY;
        for it in 0..=pp.max_iter {
            let scale = 1.0 + amax(q);
            self.ws
                .phi(&self.sys, &mut p.res)
                .map_err(|e| self.constraint_error(t, e))?;
            let viol = amax(&p.res[..m_h]);
            if it > 0 {
                let far = viol > pp.reuse_below * scale;
                if far || (viol > CONTRACTION * prev_viol && viol > pp.eps_q * scale) {
                    self.factor_projection(p, t, false)?;
                }
            }
            let before = std::mem::replace(&mut prev_viol, viol);
            if converged(viol, before, change, scale, pp.eps_q, pp.eps_stall) {
                return Ok((it, viol));
            }
            if it == pp.max_iter {
                break;
            }
            self.mass_difference(p, t, q)?;
            // h += Φ_qᵀσ (current Φ_q, holonomic rows) + α J_fᵀΦ
            p.lambda[..m_h].copy_from_slice(&p.sigma[..m_h]);
            p.lambda[m_h..].fill(0.0);
            self.ws
                .phi_q_tr_mul(&self.sys, &p.lambda, &mut p.dx)
                .map_err(|e| self.constraint_error(t, e))?;
            for (h, d) in p.h.iter_mut().zip(&p.dx) {
                *h += d;
            }
            self.jf_tr_mul_add(&p.jf, alpha, &p.res, &mut p.h);
            p.h.iter_mut().for_each(|h| *h = -*h);
            self.solve_leading(t, &mut p.h)?;
            // σ ← σ + α(Φ + J_f Δ)
            for (s, r) in p.sigma[..m_h].iter_mut().zip(&p.res[..m_h]) {
                *s += alpha * r;
            }
            self.jf_mul_add(&p.jf, alpha, &p.h, &mut p.sigma);
            for (qi, d) in q.iter_mut().zip(&p.h) {
                *qi += d;
            }
            change = amax(&p.h);
            self.evaluate_constraints(t, q, v)?;
        }
        let (row, violation) = max_abs(&p.res[..m_h]);
        Err(AlfError::NotConverged {
            t,
            what: "position projection",
            iterations: pp.max_iter,
            change,
            violation,
            location: self.row_label(row),
        })
    }

    /// Velocity projection (eqs 17–24) at fixed q, reusing the position
    /// projection's L (refactored over every row if there are nonholonomic rows).
    /// Returns the iterations and ‖Φ_q q̇ + Φ_t‖∞.
    fn project_velocities(
        &mut self,
        p: &mut SparseProjection,
        t: f64,
        q: &[f64],
        v: &mut [f64],
    ) -> Result<(usize, f64), AlfError> {
        let pp = p.params;
        let (alpha, eps) = (pp.alpha, pp.eps_v);
        self.evaluate_constraints(t, q, v)?;
        if !p.factored_all {
            self.factor_projection(p, t, true)?;
        }
        p.star.copy_from_slice(v);
        p.sigma.fill(0.0);
        let mut change = f64::INFINITY;
        let mut prev_viol = f64::INFINITY;
        let mut it = 0;
        loop {
            // g = Φ_q q̇ + Φ_t
            self.ws
                .phi_q_mul(&self.sys, v, &mut p.res)
                .and_then(|()| self.ws.phi_t(&self.sys, &mut p.lambda))
                .map_err(|e| self.constraint_error(t, e))?;
            for (r, b) in p.res.iter_mut().zip(&p.lambda) {
                *r += b;
            }
            let scale = 1.0 + amax(v);
            let viol = amax(&p.res);
            if it > 0 {
                for (s, r) in p.sigma.iter_mut().zip(&p.res) {
                    *s += alpha * r;
                }
                if viol > CONTRACTION * prev_viol && viol > eps * scale {
                    self.factor_projection(p, t, true)?;
                }
            }
            let before = std::mem::replace(&mut prev_viol, viol);
            if converged(viol, before, change, scale, eps, pp.eps_stall) {
                return Ok((it, viol));
            }
            if it == pp.max_iter {
                let (row, violation) = max_abs(&p.res);
                return Err(AlfError::NotConverged {
                    t,
                    what: "velocity projection",
                    iterations: pp.max_iter,
                    change,
                    violation,
                    location: self.row_label(row),
                });
            }
            // L Δ = −(M(q̇ − q̇*) + Φ_qᵀ(σ + α g))
            self.mass_difference(p, t, v)?;
            for ((l, s), r) in p.lambda.iter_mut().zip(&p.sigma).zip(&p.res) {
                *l = s + alpha * r;
            }
            self.ws
                .phi_q_tr_mul(&self.sys, &p.lambda, &mut p.dx)
                .map_err(|e| self.constraint_error(t, e))?;
            for (h, d) in p.h.iter_mut().zip(&p.dx) {
                *h = -(*h + d);
            }
            self.solve_leading(t, &mut p.h)?;
            for (vi, d) in v.iter_mut().zip(&p.h) {
                *vi += d;
            }
            change = amax(&p.h);
            it += 1;
        }
    }
}
