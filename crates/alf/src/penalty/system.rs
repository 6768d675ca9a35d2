//! [`PenaltySystem`]: penalty constraint stabilization (thesis sec 5.3) as a
//! [`PartitionedSystem`] for the two-stage staggered explicit–implicit procedure
//! (sec 5.5, procedure 5.5.6).
//!
//! Equations (sec 5.5.1, eq 5.5.1.1):
//!
//! ```text
//!   M ü + Bᵀ λ = F                      (per body: block diagonal, no global solve)
//!   ε λ̇ = B u̇ + Φ_t                     (holonomic rows, eq 5.3.7: λ = Φ/ε, eq 5.3.1)
//!   ε λ = B u̇ + b                        (nonholonomic rows, eq 5.3.3)
//! ```
//!
//! Implicit stage at a station (eq 5.5.5.1, over ϱ = h/2 from the previous
//! station n to this one, n+½; see [`LambdaUpdate`] for which stations):
//!
//! ```text
//!   u̇^{n+½} = u̇ⁿ + ϱ ü^{n+½},   λ^{n+½} = λⁿ + ϱ λ̇^{n+½},   ü^{n+½} = M⁻¹(F − Bᵀλ)^{n+½}
//! holonomic rows, eq 5.5.5.2:
//!   (ε I + ϱ² B M⁻¹ Bᵀ) λ^{n+½} = ε λⁿ + ϱ B u̇ⁿ + ϱ² B M⁻¹ F + ϱ Φ_t
//! nonholonomic rows, eq 5.3.3 at n+½ with the same u̇^{n+½}, multiplied by ϱ so that
//! the matrix stays symmetric:
//!   (ϱ ε I + ϱ² B M⁻¹ Bᵀ) λ^{n+½} = ϱ B u̇ⁿ + ϱ² B M⁻¹ F + ϱ b
//! together:
//!   (D + ϱ² B M⁻¹ Bᵀ) λ^{n+½} = D_λ λⁿ + ϱ (B u̇ⁿ + Φ_t) + ϱ² B M⁻¹ F,
//!   D = diag(ε | ϱε),  D_λ = diag(ε | 0)   (holonomic | nonholonomic rows)
//! ```
//!
//! B and Φ_t are taken at the new station's positions; F at the new station's
//! positions **and velocities**: the integrator's `implicit_stage` only records the
//! station (time, u̇ⁿ, ϱ) and the solve runs in the `accelerations` call that follows
//! at the same time, where the station's velocity (the staggered v^{n+½} of
//! eq 5.5.3.1) is known. `accelerations` at a time without a recorded stage (the
//! integrator's Heun start of the first half station, or a plain central difference)
//! uses the λ held.

use std::sync::Arc;

use mbs_integrators::{PartitionedSystem, SystemError};
use mbs_linalg::pcg::PcgInfo;
use mbs_model::Model;

use super::core::{Core, Violation, system_error};
use super::lambda::{LambdaBackend, LambdaSolver};
use crate::error::AlfError;

/// How λ is set at the first station (procedure 5.5.6 step \[3\]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitialMultipliers {
    /// λ⁰ = 0 (λ = Φ/ε with consistent initial positions).
    Zero,
    /// The Lagrange multipliers of the initial state:
    /// `B M⁻¹ Bᵀ λ⁰ = B M⁻¹ F − γ` (from M ü + Bᵀλ = F, B ü = γ); the
    /// minimum-norm ones with redundant constraints. The penalty force then starts
    /// equal to the constraint force (no penalty transient, see the module docs).
    Lagrange,
    /// Keep the λ set with [`PenaltySystem::set_lambda`].
    Keep,
}

/// How λ advances over the stations of the staggered scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LambdaUpdate {
    /// Eq 5.5.5.2 at every station (half and integer), each over ϱ from the previous
    /// one. Each solve is implicit in λ (both u̇^{n+½} and λ^{n+½} of eq 5.5.5.1 are
    /// end-of-interval values, i.e. backward Euler over ϱ), so the stiff penalty
    /// oscillation (ω ≈ √(B M⁻¹ Bᵀ/ε), h ω ≫ 1) is damped and the scheme is stable.
    /// The drift of ελ − Φ (which nothing restores in the rate form eq 5.3.7) is
    /// first order in h. The default.
    EveryStation,
    /// Procedure 5.5.6 read literally: eq 5.5.5.2 at half stations only (step \[7\]),
    /// then λ^{n+1} = 2λ^{n+½} − λⁿ at the integer stations (step \[11\]): the implicit
    /// midpoint rule over h for ελ̇ = Bu̇ + Φ_t (second order), but the integer-station
    /// accelerations then see an extrapolated, i.e. explicit, penalty force.
    /// **Unstable** for ε = 1e-6 on the crank-slider: the violation blows up to
    /// O(0.1 m) after ≈ 1 s for h = 1e-2, 5e-3 and 1e-3 alike (see the module docs).
    /// Kept for the record.
    Extrapolate,
}

/// Parameters of [`PenaltySystem`].
#[derive(Clone, Copy, Debug)]
pub struct PenaltyParams {
    /// Penalty coefficient ε > 0 (eq 5.3.1; the thesis uses 1e-6).
    pub epsilon: f64,
    /// Dense or PCG solve of eq 5.5.5.2.
    pub backend: LambdaBackend,
    /// λ at the first station.
    pub initial: InitialMultipliers,
    /// Solve at every station (default) or at half stations with extrapolation.
    pub update: LambdaUpdate,
}

impl Default for PenaltyParams {
    /// ε = 1e-6 (thesis sec 7.2), dense backend, Lagrange initial multipliers,
    /// λ solved at every station.
    fn default() -> Self {
        Self {
            epsilon: 1e-6,
            backend: LambdaBackend::Dense,
            initial: InitialMultipliers::Lagrange,
            update: LambdaUpdate::EveryStation,
        }
    }
}

/// Counters of a [`PenaltySystem`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PenaltyStats {
    /// Acceleration evaluations.
    pub evaluations: u64,
    /// Solves of eq 5.5.5.2 (one per station).
    pub stage_solves: u64,
    /// PCG iterations in total (PCG backend).
    pub pcg_iterations: u64,
    /// Largest PCG iteration count of one solve.
    pub pcg_max_iterations: usize,
    /// The last PCG solve.
    pub last_pcg: Option<PcgInfo>,
}

impl PenaltyStats {
    /// Mean PCG iterations per solve of eq 5.5.5.2.
    pub fn mean_pcg_iterations(&self) -> f64 {
        self.pcg_iterations as f64 / (self.stage_solves.max(1)) as f64
    }
}

/// A recorded implicit stage waiting for its station's velocities.
#[derive(Clone, Copy, Debug)]
struct Pending {
    t: f64,
    rho: f64,
    /// Half station (n+½) or integer station (n+1).
    half: bool,
}

/// Penalty constraint stabilization of a model in the [ṙ, ω'] layout
/// (x = [r, p], 7 per body; v = [ṙ, ω'], 6 per body; λ held by the system), for
/// [`mbs_integrators::TwoStageStaggered`]. See the module docs for the equations.
#[derive(Debug)]
pub struct PenaltySystem {
    core: Core,
    params: PenaltyParams,
    solver: LambdaSolver,
    lambda: Vec<f64>,
    /// λ at the last integer station (the λⁿ of eq 5.5.5.2 with extrapolation).
    lambda_base: Vec<f64>,
    /// The next new station is a half station.
    next_half: bool,
    /// Time of the station λ belongs to (None before the first stage).
    t_lambda: Option<f64>,
    pending: Option<Pending>,
    v_prev: Vec<f64>,
    d: Vec<f64>,
    rhs: Vec<f64>,
    tmp_n: Vec<f64>,
    tmp_m: Vec<f64>,
    stats: PenaltyStats,
}

impl PenaltySystem {
    /// Builds the system for `model`; all storage is allocated here.
    pub fn new(model: Arc<Model>, params: PenaltyParams) -> Result<Self, AlfError> {
        if !(params.epsilon > 0.0 && params.epsilon.is_finite()) {
            return Err(AlfError::InvalidParameter {
                name: "epsilon",
                value: params.epsilon,
                requirement: "the penalty coefficient must be positive and finite",
            });
        }
        let core = Core::new(model)?;
        let solver =
            LambdaSolver::new(&core, params.backend).map_err(|source| AlfError::Linalg {
                t: 0.0,
                context: "setting up the constraint-force solver of eq 5.5.5.2",
                source,
            })?;
        let (n, m) = (core.n_v(), core.m());
        Ok(Self {
            solver,
            params,
            lambda: vec![0.0; m],
            lambda_base: vec![0.0; m],
            next_half: true,
            t_lambda: None,
            pending: None,
            v_prev: vec![0.0; n],
            d: vec![0.0; m],
            rhs: vec![0.0; m],
            tmp_n: vec![0.0; n],
            tmp_m: vec![0.0; m],
            stats: PenaltyStats::default(),
            core,
        })
    }

    /// The model.
    pub fn model(&self) -> &Arc<Model> {
        &self.core.model
    }
    /// Parameters.
    pub fn params(&self) -> &PenaltyParams {
        &self.params
    }
    /// Counters so far.
    pub fn stats(&self) -> PenaltyStats {
        self.stats
    }
    /// The model's initial state (x, v).
    pub fn initial_state(&self) -> (Vec<f64>, Vec<f64>) {
        self.core.initial()
    }
    /// Number of constraint rows m (holonomic first).
    pub fn m(&self) -> usize {
        self.core.m()
    }
    /// The constraint forces λ of the last station (sign of NOTATION.md:
    /// M ü + Bᵀλ = F; λ = Φ/ε for holonomic rows).
    pub fn lambda(&self) -> &[f64] {
        &self.lambda
    }
    /// Time of the station the current λ belongs to.
    pub fn lambda_time(&self) -> Option<f64> {
        self.t_lambda
    }
    /// Sets λ (e.g. to continue a run); with [`InitialMultipliers::Keep`] it is the λ
    /// of the first station.
    pub fn set_lambda(&mut self, lambda: &[f64]) -> Result<(), AlfError> {
        if lambda.len() != self.lambda.len() {
            return Err(AlfError::InvalidParameter {
                name: "lambda length",
                value: lambda.len() as f64,
                requirement: "must equal the number of constraint rows",
            });
        }
        self.lambda.copy_from_slice(lambda);
        self.lambda_base.copy_from_slice(lambda);
        Ok(())
    }
    /// Forgets the station history: the next `implicit_stage` starts a new run
    /// (procedure step \[3\]). The counters are kept.
    pub fn reset(&mut self) {
        self.t_lambda = None;
        self.pending = None;
    }
    /// The joint behind a global constraint row, e.g. "joint `pin` (row 7)".
    pub fn row_label(&self, row: usize) -> String {
        self.core.row_label(row)
    }
    /// Generalized constraint forces Bᵀλ (length 6 per body) at the last evaluated
    /// state.
    pub fn constraint_forces(&self, out: &mut [f64]) -> Result<(), AlfError> {
        self.core.bt_mul(&self.lambda, out)
    }

    /// Constraint violation of the state (t, x, v): max |Φ| (holonomic rows) with its
    /// joint, and max |Φ̇|.
    pub fn violation(&mut self, t: f64, x: &[f64], v: &[f64]) -> Result<Violation, AlfError> {
        self.core.evaluate(t, x, v, false)?;
        self.core.violation(&mut self.tmp_m)
    }

    /// The Lagrange multipliers at the evaluated state: B M⁻¹ Bᵀ λ = B M⁻¹ F − γ
    /// (the minimum-norm ones with redundant constraints, see
    /// [`LambdaSolver::lagrange`]).
    fn lagrange_multipliers(&mut self, t: f64) -> Result<(), AlfError> {
        let c = &self.core;
        self.tmp_n.copy_from_slice(&c.forces);
        c.minv_in_place(&mut self.tmp_n);
        c.b_mul(&self.tmp_n, &mut self.rhs)?;
        for i in 0..self.rhs.len() {
            self.rhs[i] -= c.gamma[i];
        }
        self.solver.lagrange(c, t, &self.rhs, &mut self.lambda)
    }

    /// Eq 5.5.5.2 at the evaluated station (see the module docs).
    fn stage_solve(&mut self, t: f64, rho: f64) -> Result<(), AlfError> {
        let eps = self.params.epsilon;
        let c = &self.core;
        let mh = c.m_holonomic();
        // ϱ² B M⁻¹ F
        self.tmp_n.copy_from_slice(&c.forces);
        c.minv_in_place(&mut self.tmp_n);
        c.b_mul(&self.tmp_n, &mut self.rhs)?;
        // ϱ B u̇ⁿ
        c.b_mul(&self.v_prev, &mut self.tmp_m)?;
        for i in 0..self.rhs.len() {
            let holonomic = i < mh;
            self.d[i] = if holonomic { eps } else { rho * eps };
            let d_lambda = if holonomic { eps } else { 0.0 };
            self.rhs[i] = d_lambda * self.lambda[i]
                + rho * (self.tmp_m[i] + c.phi_t[i])
                + rho * rho * self.rhs[i];
        }
        let info = self
            .solver
            .solve(c, &self.d, rho, &self.rhs, &mut self.lambda)
            .map_err(|source| AlfError::Linalg {
                t,
                context: "constraint forces (εI + ϱ² B M⁻¹ Bᵀ) λ = … (eq 5.5.5.2)",
                source,
            })?;
        self.stats.stage_solves += 1;
        if let Some(info) = info {
            self.stats.pcg_iterations += info.iterations as u64;
            self.stats.pcg_max_iterations = self.stats.pcg_max_iterations.max(info.iterations);
            self.stats.last_pcg = Some(info);
        }
        crate::descriptor::check_finite(t, "constraint force λ", &self.lambda, |i| {
            self.core.row_label(i)
        })
    }

    /// Accelerations ü = M⁻¹(F − Bᵀλ), body by body, at the evaluated state.
    fn accelerations_inner(&mut self, t: f64, a: &mut [f64]) -> Result<(), AlfError> {
        let c = &self.core;
        c.bt_mul(&self.lambda, a)?;
        for i in 0..a.len() {
            a[i] = c.forces[i] - a[i];
        }
        c.minv_in_place(a);
        crate::descriptor::check_finite(t, "acceleration", a, |i| c.coordinate_label(i))
    }
}

impl PartitionedSystem for PenaltySystem {
    fn dim_positions(&self) -> usize {
        self.core.n_x()
    }
    fn dim_velocities(&self) -> usize {
        self.core.n_v()
    }

    fn accelerations(
        &mut self,
        t: f64,
        x: &[f64],
        v: &[f64],
        a: &mut [f64],
    ) -> Result<(), SystemError> {
        let r = (|| {
            self.core.evaluate(t, x, v, true)?;
            self.stats.evaluations += 1;
            match self.pending {
                Some(p) if p.t == t => {
                    match (self.params.update, p.half) {
                        (LambdaUpdate::EveryStation, _) => self.stage_solve(t, p.rho)?,
                        (LambdaUpdate::Extrapolate, true) => {
                            // Step \[7\]: λ^{n+½} from λⁿ over ϱ (eq 5.5.5.2).
                            self.lambda.copy_from_slice(&self.lambda_base);
                            self.stage_solve(t, p.rho)?;
                        }
                        (LambdaUpdate::Extrapolate, false) => {
                            // Step \[11\]: λ^{n+1} = 2λ^{n+½} − λⁿ.
                            for (l, b) in self.lambda.iter_mut().zip(self.lambda_base.iter_mut()) {
                                *l = 2.0 * *l - *b;
                                *b = *l;
                            }
                        }
                    }
                    self.pending = None;
                    self.t_lambda = Some(t);
                }
                _ => {}
            }
            self.accelerations_inner(t, a)
        })();
        r.map_err(system_error)
    }

    fn advance_positions(
        &mut self,
        x: &[f64],
        v_half: &[f64],
        h: f64,
        x_out: &mut [f64],
    ) -> Result<(), SystemError> {
        self.core.advance_positions(x, v_half, h, x_out);
        Ok(())
    }

    /// Procedure 5.5.6 step \[3\] at the first station (λ⁰ per
    /// [`PenaltyParams::initial`]); at later stations records the stage of eq 5.5.5.2
    /// for the following `accelerations` call (see the module docs). A second call at
    /// the station λ belongs to (the integrator's restart after a projection) keeps λ.
    fn implicit_stage(
        &mut self,
        t: f64,
        x: &[f64],
        v_prev: &[f64],
        rho: f64,
    ) -> Result<(), SystemError> {
        match self.t_lambda {
            None => {
                if self.params.initial == InitialMultipliers::Zero {
                    self.lambda.iter_mut().for_each(|v| *v = 0.0);
                } else if self.params.initial == InitialMultipliers::Lagrange {
                    let r = self
                        .core
                        .evaluate(t, x, v_prev, true)
                        .and_then(|_| self.lagrange_multipliers(t));
                    r.map_err(system_error)?;
                }
                self.lambda_base.copy_from_slice(&self.lambda);
                self.next_half = true;
                self.t_lambda = Some(t);
                self.pending = None;
            }
            Some(tl) if tl == t => {}
            Some(_) => {
                if !(rho > 0.0 && rho.is_finite()) {
                    return Err(system_error(AlfError::InvalidParameter {
                        name: "rho",
                        value: rho,
                        requirement: "ϱ = h/2 must be positive (forward integration)",
                    }));
                }
                self.v_prev.copy_from_slice(v_prev);
                let half = self.next_half;
                self.next_half = !half;
                self.pending = Some(Pending { t, rho, half });
            }
        }
        Ok(())
    }
}
