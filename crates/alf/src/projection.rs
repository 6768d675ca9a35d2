//! Mass-orthogonal projections onto the constraint manifold (Bayo–Ledesma sec 3.2).
//!
//! Positions (eq 9): min ½(q − q*)ᵀM(q − q*) s.t. Φ(q) = 0, by the augmented
//! Lagrangian iteration of eqs 13–15 with the leading matrix L = M + Φ_qᵀαΦ_q
//! factored once at q* (modified Newton, the Φ_qq terms dropped as in the paper):
//!
//! ```text
//!   λᵢ = σᵢ + αΦ(qᵢ),   L Δ = −[M(qᵢ − q*) + Φ_q(qᵢ)ᵀλᵢ],   qᵢ₊₁ = qᵢ + Δ,   σᵢ₊₁ = λᵢ
//! ```
//!
//! (λᵢ₊₁ = λᵢ + αΦᵢ₊₁ is eq 15). The implementation applies the penalty force
//! αΦ through the Φ_q of the factorization and updates the multipliers with the
//! linearized residual (see `Projector::position_correction`): with eq 15 as
//! written, α times the O(‖Δ‖²) curvature residual of a step corrupts the
//! multipliers, and a reused L pushes the iterate along the manifold, which made
//! corrections of ≈ 1e-2 cycle. Velocities (eq 17) and accelerations (eq 26) are the
//! same iteration with the linear constraints Φ̇ = Φ_q q̇ + Φ_t = 0 (eqs 21–24) and
//! Φ_q q̈ − γ = 0 (eqs 31–34), with Φ_q at the projected positions and the same L
//! reused. The classical-Lagrange variants (eqs 16, 25) solve the KKT system
//! [M Φ_qᵀ; Φ_q 0] instead; on positions that is the Newton–Raphson position
//! correction.
//!
//! The projection of positions uses the holonomic rows only; velocities and
//! accelerations use every row (nonholonomic rows are velocity constraints).

use mbs_linalg::KktSolver;
use mbs_linalg::dense::{DenseKkt, DenseKktParams, KktMode};
use nalgebra::{DMatrix, DVector, DVectorView};

use mbs_formulation::projection::converged;

use crate::descriptor::{Descriptor, Level, max_abs};
use crate::error::AlfError;
use crate::leading::LeadingMatrix;
use crate::params::ProjectionParams;

/// Which solver the projections use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProjectionKind {
    /// Augmented Lagrangian with the leading matrix (eqs 13–15, 23–24, 33–34).
    AugmentedLagrangian,
    /// Classical Lagrange with the KKT matrix (eqs 16, 25).
    Kkt {
        /// Pseudo-inverse solution for redundant constraints.
        min_norm: bool,
    },
}

/// Iterations of one projection.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProjectionInfo {
    /// Iterations of the position projection.
    pub position_iterations: usize,
    /// Iterations of the velocity projection.
    pub velocity_iterations: usize,
    /// ‖Φ‖∞ after the projection.
    pub phi: f64,
    /// ‖Φ̇‖∞ after the projection.
    pub phi_dot: f64,
}

/// Workspace of the mass-orthogonal projections.
pub struct Projector {
    params: ProjectionParams,
    kind: ProjectionKind,
    n: usize,
    m: usize,
    m_h: usize,
    leading: LeadingMatrix,
    mass: DMatrix<f64>,
    jac_h: DMatrix<f64>,
    kkt_q: Option<DenseKkt>,
    kkt_v: Option<DenseKkt>,
    star: DVector<f64>,
    h: DVector<f64>,
    lambda: DVector<f64>,
    sigma: DVector<f64>,
    kkt_rhs: DVector<f64>,
    kkt_rhs_v: DVector<f64>,
    res: DVector<f64>,
    /// Whether the current factorization covers every row (not only holonomic).
    factored_all: bool,
    /// Refactorizations forced by poor contraction (large corrections).
    refactorizations: u64,
    /// Minimum-norm KKT solver for linear projections that stall (created on
    /// first use).
    fallback: Option<DenseKkt>,
    /// Linear projections finished by the minimum-norm fallback.
    fallbacks: u64,
}

/// A projection iteration whose violation shrinks by less than this factor
/// refactors its iteration matrix at the current point.
const CONTRACTION: f64 = 0.25;

impl std::fmt::Debug for Projector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Projector")
            .field("params", &self.params)
            .field("kind", &self.kind)
            .field("n", &self.n)
            .field("m", &self.m)
            .finish()
    }
}

fn kkt(n: usize, m: usize, min_norm: bool) -> DenseKkt {
    DenseKkt::new(
        n,
        m,
        DenseKktParams {
            mode: if min_norm {
                KktMode::MinNorm
            } else {
                KktMode::Strict
            },
            ..DenseKktParams::default()
        },
    )
}

impl Projector {
    /// Workspace for a system of n coordinates, m rows of which m_h holonomic.
    pub fn new(
        n: usize,
        m: usize,
        m_h: usize,
        kind: ProjectionKind,
        params: ProjectionParams,
    ) -> Self {
        let (kkt_q, kkt_v) = match kind {
            ProjectionKind::Kkt { min_norm } => {
                (Some(kkt(n, m_h, min_norm)), Some(kkt(n, m, min_norm)))
            }
            ProjectionKind::AugmentedLagrangian => (None, None),
        };
        Self {
            params,
            kind,
            n,
            m,
            m_h,
            leading: LeadingMatrix::new(n),
            mass: DMatrix::zeros(n, n),
            jac_h: DMatrix::zeros(m_h, n),
            kkt_q,
            kkt_v,
            star: DVector::zeros(n),
            h: DVector::zeros(n),
            lambda: DVector::zeros(m),
            sigma: DVector::zeros(m),
            kkt_rhs: DVector::zeros(n + m_h),
            kkt_rhs_v: DVector::zeros(n + m),
            res: DVector::zeros(m),
            factored_all: false,
            refactorizations: 0,
            fallback: None,
            fallbacks: 0,
        }
    }

    /// Parameters.
    pub fn params(&self) -> &ProjectionParams {
        &self.params
    }

    /// Velocity/acceleration projections finished by the exact minimum-norm
    /// solve because the iteration stalled near a singular configuration.
    pub fn fallbacks(&self) -> u64 {
        self.fallbacks
    }

    /// Refactorizations forced so far by corrections too large for the reused
    /// matrix (0 in normal integration, where corrections are small).
    pub fn refactorizations(&self) -> u64 {
        self.refactorizations
    }

    /// Projects positions then velocities (ALF-INDEX1 step 4): on return
    /// Φ(q) = 0 and Φ_q q̇ + Φ_t = 0 to the tolerances, and `sys` is evaluated at
    /// the projected positions (level `Velocities`).
    pub fn project(
        &mut self,
        t: f64,
        sys: &mut dyn Descriptor,
        q: &mut [f64],
        v: &mut [f64],
    ) -> Result<ProjectionInfo, AlfError> {
        let mut info = ProjectionInfo::default();
        let (it, phi) = self.project_positions(t, sys, q, v)?;
        info.position_iterations = it;
        info.phi = phi;
        let (it, phi_dot) = self.project_velocities(t, sys, q, v)?;
        info.velocity_iterations = it;
        info.phi_dot = phi_dot;
        Ok(info)
    }

    /// Evaluates `sys` at (q, q̇) and factors the iteration matrix over every row,
    /// for velocity and acceleration projections not preceded by a position
    /// projection (ALF-INDEX3 step 3).
    pub fn factor_at(
        &mut self,
        t: f64,
        sys: &mut dyn Descriptor,
        q: &[f64],
        v: &[f64],
    ) -> Result<(), AlfError> {
        sys.evaluate(t, q, v, Level::Velocities)?;
        self.factor(t, sys, self.m)?;
        self.factored_all = true;
        Ok(())
    }

    /// Factors the iteration matrix at the current evaluation of `sys`:
    /// L = M + Φ_qᵀαΦ_q over the first `rows` rows, or the KKT matrix.
    fn factor(&mut self, t: f64, sys: &dyn Descriptor, rows: usize) -> Result<(), AlfError> {
        self.mass.copy_from(sys.mass());
        let jac = sys.phi_q();
        match self.kind {
            ProjectionKind::AugmentedLagrangian => {
                if rows == self.m_h {
                    // the position projection's penalty term uses the factored Φ_q
                    self.jac_h.copy_from(&jac.rows(0, rows));
                }
                if rows == self.m {
                    self.leading.factor(t, &self.mass, jac, self.params.alpha)
                } else {
                    self.leading
                        .factor(t, &self.mass, &self.jac_h, self.params.alpha)
                }
            }
            ProjectionKind::Kkt { .. } => {
                let (k, j) = if rows == self.m_h {
                    self.jac_h.copy_from(&jac.rows(0, rows));
                    (self.kkt_q.as_mut(), self.jac_h.as_slice())
                } else {
                    (self.kkt_v.as_mut(), jac.as_slice())
                };
                k.expect("KKT projector")
                    .factor(self.mass.as_slice(), j)
                    .map_err(|source| AlfError::Linalg {
                        t,
                        context: "factoring the KKT matrix of a projection",
                        source,
                    })
            }
        }
    }

    /// Multiplier update σ ← σ + α g at the new point (eqs 15, 22, 32); the KKT
    /// kind updates its multipliers inside [`Self::correction`].
    fn accumulate(&mut self, rows: usize) {
        if self.kind == ProjectionKind::AugmentedLagrangian {
            let alpha = self.params.alpha;
            self.sigma
                .rows_mut(0, rows)
                .axpy(alpha, &self.res.rows(0, rows), 1.0);
        }
    }

    /// One iteration: given h = M(x − x*) in `self.h`, the residual g in
    /// `self.res[..rows]` and Φ_q, computes the correction Δ into `self.h` and
    /// updates the multiplier estimate σ.
    fn correction(&mut self, t: f64, jac: &DMatrix<f64>, rows: usize) -> Result<(), AlfError> {
        let n = self.n;
        match self.kind {
            ProjectionKind::AugmentedLagrangian => {
                // λ = σ + α g ;  L Δ = −(h + Φ_qᵀλ)   (eqs 13–14, 21, 31); σ is
                // updated by the caller with the residual at the new point (eqs 15,
                // 22, 32), the method-of-multipliers order that contracts by
                // ≈ 1/(α Φ_q M⁻¹ Φ_qᵀ) per iteration.
                for i in 0..rows {
                    self.lambda[i] = self.sigma[i] + self.params.alpha * self.res[i];
                }
                self.h
                    .gemv_tr(1.0, &jac.rows(0, rows), &self.lambda.rows(0, rows), 1.0);
                self.h.neg_mut();
                self.leading.solve(t, &mut self.h)?;
            }
            ProjectionKind::Kkt { .. } => {
                // [M Φ_qᵀ; Φ_q 0](Δ, Δν) = −(h + Φ_qᵀν, g)   (eqs 16, 25)
                let rhs = if rows == self.m_h {
                    &mut self.kkt_rhs
                } else {
                    &mut self.kkt_rhs_v
                };
                self.h
                    .gemv_tr(1.0, &jac.rows(0, rows), &self.sigma.rows(0, rows), 1.0);
                rhs.rows_mut(0, n).copy_from(&self.h);
                rhs.rows_mut(n, rows).copy_from(&self.res.rows(0, rows));
                rhs.neg_mut();
                let k = if rows == self.m_h {
                    self.kkt_q.as_mut()
                } else {
                    self.kkt_v.as_mut()
                };
                k.expect("KKT projector")
                    .solve_in_place(rhs.as_mut_slice())
                    .map_err(|source| AlfError::Linalg {
                        t,
                        context: "solving the KKT system of a projection",
                        source,
                    })?;
                self.h.copy_from(&rhs.rows(0, n));
                let mut s = self.sigma.rows_mut(0, rows);
                s += rhs.rows(n, rows);
            }
        }
        Ok(())
    }

    /// One augmented-Lagrangian iteration of the position projection, given
    /// h = M(q − q*) in `self.h`, Φ in `self.res[..m_h]`, the current Φ_q (`jac`) and
    /// the Φ_q of the factorization (`self.jac_h`, J_f):
    ///
    /// ```text
    ///   L Δ = −[h + Φ_qᵀσ + α J_fᵀΦ],   σ ← σ + α(Φ + J_f Δ)
    /// ```
    ///
    /// This is the KKT projection's iteration with the matrix [M J_fᵀ; J_f 0]
    /// (eq 16) regularized by 1/α, and departs from eqs 14–15 in two places:
    ///
    /// * the penalty force αΦ acts through J_f, not the current Φ_q: with
    ///   L = M + αJ_fᵀJ_f the term α(Φ_q − J_f)ᵀΦ has a component along the null
    ///   space of J_f resisted by M alone, so a reused matrix pushed the iterate
    ///   along the manifold by ≈ α‖Φ_q − J_f‖‖Φ‖/λ_min(M) (centimetres at α = 1e7,
    ///   ‖Φ‖ ≈ 1e-7, a factorization 1e-4 away);
    /// * the multipliers are updated with the linearized residual Φ + J_fΔ
    ///   instead of Φ(qᵢ₊₁) (eq 15): one Newton step without the Φ_qq terms leaves
    ///   Φ(qᵢ₊₁) = O(‖Δ‖²), and α times that (≈ 100 for ‖Δ‖ ≈ 3e-3) is no
    ///   multiplier estimate; the dropped σΦ_qq terms then dominate M (singular
    ///   along the Euler parameters) and the iteration cycles.
    ///
    /// At a fixed point Φ = 0 and M(q − q*) + Φ_qᵀσ = 0, the conditions of eq 9.
    fn position_correction(&mut self, t: f64, jac: &DMatrix<f64>) -> Result<(), AlfError> {
        let (m_h, alpha) = (self.m_h, self.params.alpha);
        let (sigma, res) = (self.sigma.rows(0, m_h), self.res.rows(0, m_h));
        self.h.gemv_tr(1.0, &jac.rows(0, m_h), &sigma, 1.0);
        self.h.gemv_tr(alpha, &self.jac_h, &res, 1.0);
        self.h.neg_mut();
        self.leading.solve(t, &mut self.h)?;
        let mut sigma = self.sigma.rows_mut(0, m_h);
        sigma.axpy(alpha, &self.res.rows(0, m_h), 1.0);
        sigma.gemv(alpha, &self.jac_h, &self.h, 1.0);
        Ok(())
    }

    /// Position projection (eqs 9–15, or eq 16 for the KKT kind), with the
    /// iteration matrix factored once at q*. Returns the iterations and ‖Φ‖∞.
    pub fn project_positions(
        &mut self,
        t: f64,
        sys: &mut dyn Descriptor,
        q: &mut [f64],
        v: &[f64],
    ) -> Result<(usize, f64), AlfError> {
        let (n, m_h) = (self.n, self.m_h);
        let p = self.params;
        sys.evaluate(t, q, v, Level::Positions)?;
        self.star.copy_from_slice(q);
        self.factor(t, sys, m_h)?;
        self.factored_all = m_h == self.m;
        self.sigma.fill(0.0);
        let mut change = f64::INFINITY;
        let mut prev_viol = f64::INFINITY;
        for it in 0..=p.max_iter {
            let scale = 1.0 + q.iter().fold(0.0f64, |a, x| a.max(x.abs()));
            self.res.rows_mut(0, m_h).copy_from(sys.phi());
            let viol = self.res.rows(0, m_h).amax();
            if it > 0 {
                let far = viol > p.reuse_below * scale;
                if far || (viol > CONTRACTION * prev_viol && viol > p.eps_q * scale) {
                    // the reused matrix no longer contracts (its Φ_q differs too
                    // much from the current one, far from the starting point):
                    // refactor at the current point
                    self.factor(t, sys, m_h)?;
                    self.refactorizations += 1;
                }
            }
            let before = std::mem::replace(&mut prev_viol, viol);
            if converged(viol, before, change, scale, p.eps_q, p.eps_stall) {
                return Ok((it, viol));
            }
            if it == p.max_iter {
                break;
            }
            // h = M*(q − q*)
            let qv = DVectorView::from_slice(q, n);
            self.h.gemv(1.0, &self.mass, &qv, 0.0);
            self.h.gemv(-1.0, &self.mass, &self.star, 1.0);
            if self.kind == ProjectionKind::AugmentedLagrangian {
                self.position_correction(t, sys.phi_q())?;
            } else {
                self.correction(t, sys.phi_q(), m_h)?;
            }
            for (qi, d) in q.iter_mut().zip(self.h.iter()) {
                *qi += d;
            }
            change = self.h.amax();
            sys.normalize(q);
            sys.evaluate(t, q, v, Level::Positions)?;
        }
        let (row, viol) = max_abs(sys.phi().as_slice());
        Err(AlfError::NotConverged {
            t,
            what: "position projection",
            iterations: p.max_iter,
            change,
            violation: viol,
            location: sys.row_label(row),
        })
    }

    /// Velocity projection (eqs 17–24, or eq 25 for the KKT kind) at fixed q.
    /// The AL kind reuses the leading matrix of the position projection. Returns
    /// the iterations and ‖Φ̇‖∞.
    pub fn project_velocities(
        &mut self,
        t: f64,
        sys: &mut dyn Descriptor,
        q: &[f64],
        v: &mut [f64],
    ) -> Result<(usize, f64), AlfError> {
        let m = self.m;
        sys.evaluate(t, q, v, Level::Velocities)?;
        // the AL kind reuses the position projection's L unless rows differ
        if matches!(self.kind, ProjectionKind::Kkt { .. }) || (m != self.m_h && !self.factored_all)
        {
            self.factor(t, sys, m)?;
            self.factored_all = true;
        } else {
            self.mass.copy_from(sys.mass());
        }
        let rhs = |sys: &dyn Descriptor, out: &mut DVector<f64>| out.copy_from(sys.phi_t());
        self.linear_projection(t, sys, v, rhs, "velocity projection", self.params.eps_v)
    }

    /// Acceleration projection (eqs 26–34) of `a` at the state (q, q̇), onto
    /// Φ_q q̈ = γ. Returns the iterations and ‖Φ_q q̈ − γ‖∞.
    pub fn project_accelerations(
        &mut self,
        t: f64,
        sys: &mut dyn Descriptor,
        q: &[f64],
        v: &[f64],
        a: &mut [f64],
    ) -> Result<(usize, f64), AlfError> {
        sys.evaluate(t, q, v, Level::Full)?;
        if matches!(self.kind, ProjectionKind::Kkt { .. }) || !self.factored_all {
            self.factor(t, sys, self.m)?;
            self.factored_all = true;
        } else {
            self.mass.copy_from(sys.mass());
        }
        let rhs = |sys: &dyn Descriptor, out: &mut DVector<f64>| {
            out.copy_from(sys.gamma());
            out.neg_mut();
        };
        self.linear_projection(t, sys, a, rhs, "acceleration projection", self.params.eps_v)
    }

    /// Exact minimum-norm solution of the linear projection (see
    /// [`Self::linear_projection`]); returns the new violation, or `None` if the
    /// pseudo-inverse solve failed.
    fn min_norm_fallback(
        &mut self,
        sys: &dyn Descriptor,
        x: &mut [f64],
        b: &impl Fn(&dyn Descriptor, &mut DVector<f64>),
    ) -> Result<Option<f64>, AlfError> {
        let (n, m) = (self.n, self.m);
        let kkt = self.fallback.get_or_insert_with(|| kkt(n, m, true));
        let jac = sys.phi_q();
        if kkt.factor(self.mass.as_slice(), jac.as_slice()).is_err() {
            return Ok(None);
        }
        let mut rhs = DVector::zeros(n + m);
        rhs.rows_mut(0, n).gemv(1.0, &self.mass, &self.star, 0.0);
        b(sys, &mut self.res);
        rhs.rows_mut(n, m).copy_from(&(-&self.res));
        if kkt.solve_in_place(rhs.as_mut_slice()).is_err() {
            return Ok(None);
        }
        x.copy_from_slice(rhs.rows(0, n).as_slice());
        let xv = DVectorView::from_slice(x, n);
        self.res.gemv(1.0, jac, &xv, 1.0);
        Ok(Some(self.res.amax()))
    }

    /// Projection of x onto Φ_q x + b = 0 in the M metric (the velocity and
    /// acceleration cases), iterating `correction` with the current factorization.
    fn linear_projection(
        &mut self,
        t: f64,
        sys: &dyn Descriptor,
        x: &mut [f64],
        b: impl Fn(&dyn Descriptor, &mut DVector<f64>),
        what: &'static str,
        eps: f64,
    ) -> Result<(usize, f64), AlfError> {
        let (n, m) = (self.n, self.m);
        let p = self.params;
        let jac = sys.phi_q();
        self.star.copy_from_slice(x);
        self.sigma.fill(0.0);
        let mut change = f64::INFINITY;
        let mut prev_viol = f64::INFINITY;
        let mut it = 0;
        loop {
            // residual g = Φ_q x + b
            b(sys, &mut self.res);
            let xv = DVectorView::from_slice(x, n);
            self.res.gemv(1.0, jac, &xv, 1.0);
            let scale = 1.0 + x.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            let viol = self.res.amax();
            if it > 0 {
                self.accumulate(m);
                if viol > CONTRACTION * prev_viol && viol > eps * scale {
                    // the reused matrix no longer contracts (its Φ_q differs too
                    // much from the current one, far from the starting point):
                    // refactor at the current point
                    self.factor(t, sys, m)?;
                    self.refactorizations += 1;
                }
            }
            let before = std::mem::replace(&mut prev_viol, viol);
            if converged(viol, before, change, scale, eps, p.eps_stall) {
                return Ok((it, viol));
            }
            if it == p.max_iter {
                // Near singular configurations the iteration contracts only by
                // ≈ m/(α s²) along small singular values s of Φ_q: finish with the
                // exact minimum-norm solution of the same linear problem,
                // [M Φ_qᵀ; Φ_q 0](x, σ) = (M x*, −b), by a pseudo-inverse (allocated
                // on first use only; this path is rare). Its residual is left only
                // along the numerically null directions of Φ_q: accepted up to
                // eps_stall (see `converged`).
                if let Some(viol) = self.min_norm_fallback(sys, x, &b)?
                    && viol <= (eps * 10.0).max(p.eps_stall) * scale
                {
                    self.fallbacks += 1;
                    return Ok((it, viol));
                }
                let (row, viol) = max_abs(self.res.as_slice());
                return Err(AlfError::NotConverged {
                    t,
                    what,
                    iterations: p.max_iter,
                    change,
                    violation: viol,
                    location: sys.row_label(row),
                });
            }
            self.h.gemv(1.0, &self.mass, &xv, 0.0);
            self.h.gemv(-1.0, &self.mass, &self.star, 1.0);
            self.correction(t, jac, m)?;
            for (xi, d) in x.iter_mut().zip(self.h.iter()) {
                *xi += d;
            }
            change = self.h.amax();
            it += 1;
        }
    }
}
