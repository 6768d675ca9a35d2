//! Algorithm ALF-INDEX3 (Bayo–Ledesma sec 4.2): positions are the primary
//! unknowns of each implicit step.
//!
//! The equations of motion without the Φ̇, Φ̈ penalty terms (eq 35),
//! M q̈ + Φ_qᵀ(αΦ + λ*) = Q, with the integration formulas written as (eq 36)
//! q̇ₙ₊₁ = a qₙ₊₁ + q̂̇, q̈ₙ₊₁ = b qₙ₊₁ + q̂̈, become nonlinear equations in qₙ₊₁
//! (eq 37), solved by Newton–Raphson (eq 38) on f of eq 39 with the approximate
//! tangent of eq 40,
//!
//! ```text
//!   ∂f/∂q ≈ b M + Φ_qᵀ α Φ_q          (the −Q_q term and Φ_qq are dropped),
//! ```
//!
//! updating λ* ← λ* + αΦ after each iteration (eq 15). The positions then satisfy
//! Φ = 0 to the Newton tolerance; velocities and accelerations are projected with
//! eqs 23 and 33. Trapezoidal rule: a = 2/h, b = 4/h². Midpoint rule: the same
//! position/velocity relation, with the dynamics evaluated at the midpoint
//! (qₙ + qₙ₊₁)/2 and q̈ₙ₊½ = (q̇ₙ₊₁ − q̇ₙ)/h, b = 2/h² (the constraint term stays at
//! qₙ₊₁ so that positions satisfy Φ = 0).
//!
//! Nonholonomic rows enter through their velocity residual B q̇ + b, with tangent
//! a·Bᵀ α B.

use nalgebra::{DMatrix, DVector, DVectorView};

use crate::descriptor::{Descriptor, Level, max_abs};
use crate::error::AlfError;
use crate::leading::LeadingMatrix;
use crate::params::ProjectionParams;
use crate::projection::{ProjectionKind, Projector};

/// A Newton correction below this (relative) that no longer halves counts as
/// converged when Φ is within tolerance (round-off floor near singular positions).
const STALL: f64 = 1e-8;

/// The implicit rule of ALF-INDEX3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Trapezoidal rule (Newmark β = ¼, γ = ½).
    Trapezoidal,
    /// Implicit midpoint rule.
    Midpoint,
}

/// Parameters of ALF-INDEX3.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Index3Params {
    /// The rule.
    pub rule: Rule,
    /// Penalty α (the paper uses 1e7).
    pub alpha: f64,
    /// Newton tolerance on ‖Δq‖∞/(1 + ‖q‖∞) and on ‖Φ‖∞/(1 + ‖q‖∞).
    pub newton_tol: f64,
    /// Newton iteration cap per step.
    pub max_newton: usize,
    /// Velocity and acceleration projections (eqs 23, 33).
    pub projection: ProjectionParams,
}

impl Default for Index3Params {
    fn default() -> Self {
        Self {
            rule: Rule::Trapezoidal,
            alpha: 1e7,
            newton_tol: 1e-11,
            max_newton: 25,
            projection: ProjectionParams::default(),
        }
    }
}

/// Counters of an ALF-INDEX3 run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Index3Stats {
    /// Steps taken.
    pub steps: u64,
    /// Newton iterations in total.
    pub newton_iterations: u64,
    /// Evaluations of the descriptor.
    pub evaluations: u64,
    /// Steps whose Newton iteration stalled near a singular position and were
    /// finished by a mass-orthogonal position projection (eq 13).
    pub position_projections: u64,
    /// Velocity/acceleration projections accepted within `LOOSE` = 1e-8 of the
    /// manifold at singular positions.
    pub loose_projections: u64,
}

/// Largest violation of Φ̇ or Φ̈ accepted from a projection stalled at a singular
/// position (see [`AlfIndex3::step`]).
const LOOSE: f64 = 1e-8;

/// The ALF-INDEX3 stepper: state (q, q̇, q̈), multipliers λ*.
#[derive(Debug)]
pub struct AlfIndex3<D: Descriptor> {
    sys: D,
    params: Index3Params,
    tangent: LeadingMatrix,
    tmat: DMatrix<f64>,
    projector: Projector,
    lambda: DVector<f64>,
    q_old: DVector<f64>,
    v_old: DVector<f64>,
    a_old: DVector<f64>,
    qm: DVector<f64>,
    vm: DVector<f64>,
    mass: DMatrix<f64>,
    jac_mid: DMatrix<f64>,
    forces: DVector<f64>,
    f: DVector<f64>,
    g: DVector<f64>,
    stats: Index3Stats,
}

impl<D: Descriptor> AlfIndex3<D> {
    /// A stepper over `sys`.
    pub fn new(sys: D, params: Index3Params) -> Self {
        let (n, m, m_h) = (sys.n(), sys.m(), sys.m_holonomic());
        Self {
            projector: Projector::new(
                n,
                m,
                m_h,
                ProjectionKind::AugmentedLagrangian,
                params.projection,
            ),
            sys,
            params,
            tangent: LeadingMatrix::new(n),
            tmat: DMatrix::zeros(n, n),
            lambda: DVector::zeros(m),
            q_old: DVector::zeros(n),
            v_old: DVector::zeros(n),
            a_old: DVector::zeros(n),
            qm: DVector::zeros(n),
            vm: DVector::zeros(n),
            mass: DMatrix::zeros(n, n),
            jac_mid: DMatrix::zeros(m, n),
            forces: DVector::zeros(n),
            f: DVector::zeros(n),
            g: DVector::zeros(m),
            stats: Index3Stats::default(),
        }
    }

    /// The wrapped system.
    pub fn system(&self) -> &D {
        &self.sys
    }

    /// The wrapped system, mutably.
    pub fn system_mut(&mut self) -> &mut D {
        &mut self.sys
    }

    /// Multipliers λ* after the last step (eq 15).
    pub fn multipliers(&self) -> &DVector<f64> {
        &self.lambda
    }

    /// Counters.
    pub fn stats(&self) -> Index3Stats {
        self.stats
    }

    /// Consistent initial accelerations: an ALF index-1 solve (eq 8) followed by
    /// the acceleration projection (eq 33), starting λ* for the first step.
    pub fn initial_accelerations(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
        a: &mut [f64],
    ) -> Result<(), AlfError> {
        let n = self.sys.n();
        let mut acc = crate::alf::AlfAccelerations::new(
            n,
            self.sys.m(),
            crate::params::AlfParams {
                alpha: self.params.alpha,
                mu: 0.0,
                omega: 0.0,
                ..Default::default()
            },
        );
        self.sys.evaluate(t, q, v, Level::Full)?;
        let mut out = DVector::zeros(n);
        acc.solve(t, &self.sys, v, &mut out)?;
        self.lambda.copy_from(acc.multipliers());
        a.copy_from_slice(out.as_slice());
        Ok(())
    }

    /// At singular positions the velocity and acceleration projections converge
    /// only slowly along the vanishing singular directions of Φ_q; an iterate within
    /// `LOOSE` of the manifold is kept (and counted) rather than failing the step.
    fn tolerate(&mut self, r: Result<(usize, f64), AlfError>) -> Result<(), AlfError> {
        match r {
            Ok(_) => Ok(()),
            Err(AlfError::NotConverged { violation, .. }) if violation <= LOOSE => {
                self.stats.loose_projections += 1;
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// One step of size h from (t, q, q̇, q̈), in place.
    pub fn step(
        &mut self,
        t: f64,
        h: f64,
        q: &mut [f64],
        v: &mut [f64],
        a: &mut [f64],
    ) -> Result<(), AlfError> {
        let (n, m_h, m) = (self.sys.n(), self.sys.m_holonomic(), self.sys.m());
        let p = self.params;
        let t1 = t + h;
        self.q_old.copy_from_slice(q);
        self.v_old.copy_from_slice(v);
        self.a_old.copy_from_slice(a);
        let (a_coef, b_coef) = match p.rule {
            Rule::Trapezoidal => (2.0 / h, 4.0 / (h * h)),
            Rule::Midpoint => (2.0 / h, 2.0 / (h * h)),
        };
        // predictor q = qₙ + h q̇ₙ + ½h² q̈ₙ
        for i in 0..n {
            q[i] = self.q_old[i] + h * self.v_old[i] + 0.5 * h * h * self.a_old[i];
        }
        let mut converged = false;
        let mut change = f64::INFINITY;
        let mut last_change = f64::INFINITY;
        for _ in 0..p.max_newton {
            // q̇ₙ₊₁ = a (q − qₙ) − q̇ₙ (both rules)
            for i in 0..n {
                v[i] = a_coef * (q[i] - self.q_old[i]) - self.v_old[i];
            }
            // accelerations of the rule
            match p.rule {
                Rule::Trapezoidal => {
                    // q̈ₙ₊₁ = b(q − qₙ) − (4/h) q̇ₙ − q̈ₙ, with 4/h = 2a
                    for i in 0..n {
                        a[i] = b_coef * (q[i] - self.q_old[i])
                            - 2.0 * a_coef * self.v_old[i]
                            - self.a_old[i];
                    }
                    self.sys.evaluate(t1, q, v, Level::Full)?;
                    self.mass.copy_from(self.sys.mass());
                    self.forces.copy_from(self.sys.forces());
                }
                Rule::Midpoint => {
                    for i in 0..n {
                        a[i] = (v[i] - self.v_old[i]) / h;
                        self.qm[i] = 0.5 * (q[i] + self.q_old[i]);
                        self.vm[i] = 0.5 * (v[i] + self.v_old[i]);
                    }
                    self.sys.evaluate(
                        t + 0.5 * h,
                        self.qm.as_slice(),
                        self.vm.as_slice(),
                        Level::Full,
                    )?;
                    self.mass.copy_from(self.sys.mass());
                    self.forces.copy_from(self.sys.forces());
                    self.jac_mid.copy_from(self.sys.phi_q());
                    self.sys.evaluate(t1, q, v, Level::Velocities)?;
                    self.stats.evaluations += 1;
                }
            }
            if p.rule == Rule::Trapezoidal {
                self.jac_mid.copy_from(self.sys.phi_q());
            }
            self.stats.evaluations += 1;
            // g = αΦ (holonomic) | α(Bq̇ + b) (nonholonomic);  f = M q̈ + Φ_qᵀ(g + λ*) − Q   (eq 39)
            // the constraint force acts along Φ_q at the point where the dynamics
            // are evaluated (midpoint: no spurious work, the rule stays energy
            // conserving for the pendulum); its magnitude uses Φ(qₙ₊₁)
            let jac_end = self.sys.phi_q();
            let jac = &self.jac_mid;
            let phi = self.sys.phi();
            self.g.rows_mut(0, m_h).copy_from(phi);
            if m > m_h {
                let vv = DVectorView::from_slice(v, n);
                let mut gn = self.g.rows_mut(m_h, m - m_h);
                gn.gemv(1.0, &jac_end.rows(m_h, m - m_h), &vv, 0.0);
                gn += self.sys.phi_t().rows(m_h, m - m_h);
            }
            self.g *= p.alpha;
            self.g += &self.lambda;
            let av = DVectorView::from_slice(a, n);
            self.f.gemv(1.0, &self.mass, &av, 0.0);
            self.f.gemv_tr(1.0, jac, &self.g, 1.0);
            self.f -= &self.forces;
            // tangent b M + α Φ_hᵀΦ_h + a α Bᵀ B   (eq 40)
            self.tmat.copy_from(&self.mass);
            self.tmat *= b_coef;
            self.tmat
                .gemm_tr(p.alpha, &jac.rows(0, m_h), &jac.rows(0, m_h), 1.0);
            if m > m_h {
                self.tmat.gemm_tr(
                    a_coef * p.alpha,
                    &jac.rows(m_h, m - m_h),
                    &jac.rows(m_h, m - m_h),
                    1.0,
                );
            }
            self.tangent.factor_matrix(t1, &self.tmat)?;
            self.f.neg_mut();
            self.tangent.solve(t1, &mut self.f)?;
            for i in 0..n {
                q[i] += self.f[i];
            }
            self.sys.normalize(q);
            self.stats.newton_iterations += 1;
            // λ* ← λ* + αΦ(q)  (eq 15)
            for i in 0..n {
                v[i] = a_coef * (q[i] - self.q_old[i]) - self.v_old[i];
            }
            self.sys.evaluate(t1, q, v, Level::Velocities)?;
            self.stats.evaluations += 1;
            let phi = self.sys.phi();
            self.lambda.rows_mut(0, m_h).axpy(p.alpha, phi, 1.0);
            let scale = 1.0 + q.iter().fold(0.0f64, |acc, x| acc.max(x.abs()));
            change = self.f.amax() / scale;
            // converged; or, near singular configurations, stalled at the round-off
            // floor of the tangent solve with the constraints already satisfied
            let phi_ok = phi.amax() <= p.newton_tol * scale;
            let stalled = change <= STALL && change >= 0.5 * last_change;
            if phi_ok && (change <= p.newton_tol || stalled) {
                converged = true;
                break;
            }
            if stalled {
                // Near a singular position the multiplier update λ* += αΦ contracts
                // by only ≈ b m/(α s²) per iteration along a small singular value s
                // of Φ_q (b = 4/h² makes that slow). The mass-orthogonal position
                // projection (eq 13) has m in place of b m and converges there.
                break;
            }
            last_change = change;
        }
        if !converged && change <= STALL {
            self.projector.project_positions(t1, &mut self.sys, q, v)?;
            self.stats.position_projections += 1;
            converged = true;
        }
        if !converged {
            let (row, viol) = max_abs(self.sys.phi().as_slice());
            return Err(AlfError::NotConverged {
                t: t1,
                what: "ALF-INDEX3 Newton iteration",
                iterations: p.max_newton,
                change,
                violation: viol,
                location: self.sys.row_label(row),
            });
        }
        // final q̇, q̈ of the rule, then projections (eqs 23, 33)
        for i in 0..n {
            v[i] = a_coef * (q[i] - self.q_old[i]) - self.v_old[i];
            a[i] = match p.rule {
                Rule::Trapezoidal => {
                    b_coef * (q[i] - self.q_old[i]) - 2.0 * a_coef * self.v_old[i] - self.a_old[i]
                }
                Rule::Midpoint => (v[i] - self.v_old[i]) / h,
            };
        }
        self.projector.factor_at(t1, &mut self.sys, q, v)?;
        let r = self.projector.project_velocities(t1, &mut self.sys, q, v);
        self.tolerate(r)?;
        let r = self
            .projector
            .project_accelerations(t1, &mut self.sys, q, v, a);
        self.tolerate(r)?;
        self.stats.steps += 1;
        Ok(())
    }
}
