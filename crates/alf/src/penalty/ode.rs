//! The penalty and Baumgarte formulations as first-order ODEs in the [ṙ, ω']
//! layout, for the comparison of thesis secs 7.2–7.3, where both techniques are
//! time-discretized by an implicit rule (the trapezoidal rule, sec 7.2) solved by
//! Newton iterations (sec 7.3 compares the average iterations per step). Integrate
//! them with `mbs_integrators::ImplicitIntegrator` (trapezoidal or midpoint) and read
//! `Info::newton_iterations / Info::accepted_steps`.
//!
//! Both use y = [x, v, …] with x = [r, p] (7 per body), v = [ṙ, ω'] (6 per body) and
//! ẋ = [ṙ, ½ Gᵀ(p) ω'] (eq 2.8.7); the projection hook only rescales p to unit length
//! (no constraint projection).
//!
//! [`PenaltyOde`], y = [x, v, λ] (eqs 5.3.3–5.3.7):
//!
//! ```text
//!   v̇ = M⁻¹ (F − Bᵀ λ)
//!   λ̇ = (B v + Φ_t) / ε                  holonomic rows     (eq 5.3.7)
//!   λ̇ = (B v̇ − γ) / ε                    nonholonomic rows  (eqs 5.3.4–5.3.5, γ = −Ḃv − ḃ)
//! ```
//!
//! [`BaumgarteOde`], y = [x, v] (eqs 5.2.4.1–5.2.4.2, 5.2.4.7 in the signs of
//! NOTATION.md, B v̇ = γ):
//!
//! ```text
//!   B M⁻¹ Bᵀ λ = B M⁻¹ F − γ̄,   v̇ = M⁻¹ (F − Bᵀ λ)
//!   γ̄ = γ − 2α Φ̇ − β² Φ          holonomic rows     (Φ̈ + 2αΦ̇ + β²Φ = 0)
//!   γ̄ = γ − α (B v + b)           nonholonomic rows  (eq 5.2.4.2 with its constant = α)
//! ```
//!
//! (The lead's `Index1` with `Formulation::Lagrange { baumgarte: Some(..) }` is the
//! same Baumgarte formulation in the [ṙ, ṗ] layout with normalization rows; this one
//! uses the layout and unknowns of the penalty ODE so that the Newton counts compare
//! like with like.)

use std::sync::Arc;

use mbs_integrators::{OdeSystem, SystemError};
use mbs_model::Model;

use super::core::{Core, Violation, system_error};
use super::lambda::{LambdaBackend, LambdaSolver};
use crate::error::AlfError;
use crate::params::Baumgarte;

/// Penalty constraint stabilization as an ODE in y = [x, v, λ] (module docs).
#[derive(Debug)]
pub struct PenaltyOde {
    core: Core,
    epsilon: f64,
    /// Largest |Φᵢ| allowed after an accepted step ([`PenaltyOde::with_tolerance`]).
    budget: Option<f64>,
    /// Solver of the initial multipliers ([`PenaltyOde::with_backend`]).
    backend: LambdaBackend,
    tmp_n: Vec<f64>,
    tmp_m: Vec<f64>,
    evaluations: u64,
}

impl PenaltyOde {
    /// The penalty ODE of `model` with coefficient ε > 0.
    pub fn new(model: Arc<Model>, epsilon: f64) -> Result<Self, AlfError> {
        if !(epsilon > 0.0 && epsilon.is_finite()) {
            return Err(AlfError::InvalidParameter {
                name: "epsilon",
                value: epsilon,
                requirement: "the penalty coefficient must be positive and finite",
            });
        }
        let core = Core::new(model)?;
        let (n, m) = (core.n_v(), core.m());
        Ok(Self {
            core,
            epsilon,
            budget: None,
            backend: LambdaBackend::Dense,
            tmp_n: vec![0.0; n],
            tmp_m: vec![0.0; m],
            evaluations: 0,
        })
    }

    /// The same ODE, stopping with [`AlfError::PenaltyRegularization`] when an
    /// accepted step leaves the accuracy an adaptive integrator at relative
    /// tolerance `rtol` is asked for: max |Φᵢ| > rtol · ℓ over the holonomic rows,
    /// ℓ the mechanism's size (`crate::penalty_scale::length_scale`).
    ///
    /// The penalty motion is not the constrained motion: with λ⁰ the initial
    /// Lagrange multipliers, eq 5.3.7 keeps ε(λ − λ⁰) = Φ, so the constraints
    /// deflect under the change of the constraint forces, and the motion with them,
    /// by O(ε) — an error no tolerance of the integrator reduces. Measured on the
    /// double pendulum (1 s, RK45 at 1e-7): max |Φ| = 75 ε and an end-state error of
    /// 1e3 ε for ε = 1e-6 … 1e-8 (ε = 1e-9 exceeds 50 000 steps: the penalty
    /// oscillation √(B M⁻¹ Bᵀ/ε) must be resolved by the explicit steps); on
    /// Andrew's squeezer 125 ε and 1.8e5 ε. A deflection within the tolerance
    /// relative to the mechanism's size is what the integrator itself is asked for;
    /// beyond it the run stops and says why.
    pub fn with_tolerance(mut self, rtol: f64) -> Self {
        self.budget = Some(rtol * crate::penalty_scale::length_scale(&self.core.model));
        self
    }

    /// The same ODE whose initial multipliers ([`PenaltyOde::initial_state`]) are
    /// solved by `backend` (default: dense Cholesky). The Schur-complement PCG of eq
    /// 5.5.5.2 keeps the set-up O(n) in storage and work per iteration on chains and
    /// loops, where the dense B M⁻¹ Bᵀ costs O(n m²) and O(m²) storage.
    pub fn with_backend(mut self, backend: LambdaBackend) -> Self {
        self.backend = backend;
        self
    }

    /// The penalty coefficient ε.
    pub fn epsilon(&self) -> f64 {
        self.epsilon
    }

    /// [`PenaltyOde::with_tolerance`]'s check of the state y at t.
    fn check_budget(&mut self, t: f64, y: &[f64]) -> Result<(), AlfError> {
        let Some(budget) = self.budget else {
            return Ok(());
        };
        let (nx, nv, _) = self.dims();
        self.core.evaluate(t, &y[..nx], &y[nx..nx + nv], false)?;
        let mh = self.core.m_holonomic();
        let (row, violation) = crate::descriptor::max_abs(&self.core.phi[..mh]);
        if violation <= budget {
            return Ok(());
        }
        Err(AlfError::PenaltyRegularization {
            t,
            violation,
            location: self.core.row_label(row),
            budget,
            epsilon: self.epsilon,
        })
    }

    /// Lengths (x, v, λ) of the parts of y.
    pub fn dims(&self) -> (usize, usize, usize) {
        (self.core.n_x(), self.core.n_v(), self.core.m())
    }

    /// Right-hand-side evaluations so far.
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    /// y⁰ = [x⁰, v⁰, λ⁰] from the model's initial state with the initial Lagrange
    /// multipliers B M⁻¹ Bᵀ λ⁰ = B M⁻¹ F − γ (solved by the backend of
    /// [`PenaltyOde::with_backend`]; the minimum-norm ones with redundant
    /// constraints, see [`InitialMultipliers::Lagrange`]).
    ///
    /// [`InitialMultipliers::Lagrange`]: super::InitialMultipliers::Lagrange
    pub fn initial_state(&mut self, t0: f64) -> Result<Vec<f64>, AlfError> {
        let (x, v) = self.core.initial();
        self.core.evaluate(t0, &x, &v, true)?;
        let mut lambda = vec![0.0; self.core.m()];
        lagrange_rhs(&self.core, &mut self.tmp_n, &mut self.tmp_m, None)?;
        let mut solver =
            LambdaSolver::new(&self.core, self.backend).map_err(|source| AlfError::Linalg {
                t: t0,
                context: "initial Lagrange multipliers",
                source,
            })?;
        solver.lagrange(&self.core, t0, &self.tmp_m, &mut lambda)?;
        Ok([x, v, lambda].concat())
    }

    /// Constraint violation of y at t (Φ of the holonomic rows, Φ̇ of all rows).
    pub fn violation(&mut self, t: f64, y: &[f64]) -> Result<Violation, AlfError> {
        let (nx, nv, _) = self.dims();
        self.core.evaluate(t, &y[..nx], &y[nx..nx + nv], false)?;
        self.core.violation(&mut self.tmp_m)
    }

    fn rhs_inner(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), AlfError> {
        let (nx, nv, m) = self.dims();
        let (x, rest) = y.split_at(nx);
        let (v, lambda) = rest.split_at(nv);
        self.core.evaluate(t, x, v, true)?;
        self.evaluations += 1;
        let (dx, rest) = dydt.split_at_mut(nx);
        let (dv, dl) = rest.split_at_mut(nv);
        self.core.position_rates(x, v, dx);
        // v̇ = M⁻¹(F − Bᵀλ)
        self.core.bt_mul(lambda, dv)?;
        for i in 0..nv {
            dv[i] = self.core.forces[i] - dv[i];
        }
        self.core.minv_in_place(dv);
        // λ̇ = Φ̇/ε (holonomic), (B v̇ − γ)/ε (nonholonomic)
        let mh = self.core.m_holonomic();
        self.core.phi_dot(dl)?;
        if mh < m {
            self.core.b_mul(dv, &mut self.tmp_m)?;
            for i in mh..m {
                dl[i] = self.tmp_m[i] - self.core.gamma[i];
            }
        }
        let inv = 1.0 / self.epsilon;
        dl.iter_mut().for_each(|d| *d *= inv);
        crate::descriptor::check_finite(t, "derivative", dydt, |i| format!("component {i} of y"))
    }
}

impl OdeSystem for PenaltyOde {
    fn dim(&self) -> usize {
        let (a, b, c) = self.dims();
        a + b + c
    }
    fn rhs(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError> {
        self.rhs_inner(t, y, dydt).map_err(system_error)
    }
    /// Rescales the Euler parameters; with [`PenaltyOde::with_tolerance`] also checks
    /// the regularization error of the accepted state.
    fn project(&mut self, t: f64, y: &mut [f64]) -> Result<bool, SystemError> {
        let nx = self.core.n_x();
        let changed = self.core.normalize_euler_params(&mut y[..nx]);
        self.check_budget(t, y).map_err(system_error)?;
        Ok(changed)
    }
}

/// `tmp_m ← B M⁻¹ F − γ̄` at the evaluated state, γ̄ = γ or the Baumgarte γ̄.
fn lagrange_rhs(
    core: &Core,
    tmp_n: &mut [f64],
    tmp_m: &mut [f64],
    baumgarte: Option<(&Baumgarte, &[f64])>,
) -> Result<(), AlfError> {
    tmp_n.copy_from_slice(&core.forces);
    core.minv_in_place(tmp_n);
    core.b_mul(tmp_n, tmp_m)?;
    let mh = core.m_holonomic();
    for i in 0..tmp_m.len() {
        let mut g = core.gamma[i];
        if let Some((b, phi_dot)) = baumgarte {
            g -= if i < mh {
                2.0 * b.alpha * phi_dot[i] + b.beta * b.beta * core.phi[i]
            } else {
                b.alpha * phi_dot[i]
            };
        }
        tmp_m[i] -= g;
    }
    Ok(())
}

/// Baumgarte stabilization as an ODE in y = [x, v] (module docs), λ by dense
/// Cholesky of B M⁻¹ Bᵀ.
#[derive(Debug)]
pub struct BaumgarteOde {
    core: Core,
    baumgarte: Baumgarte,
    solver: LambdaSolver,
    lambda: Vec<f64>,
    zeros: Vec<f64>,
    phi_dot: Vec<f64>,
    tmp_n: Vec<f64>,
    tmp_m: Vec<f64>,
    evaluations: u64,
}

impl BaumgarteOde {
    /// The Baumgarte ODE of `model` with α, β ≥ 0 (the thesis' α = β, eq 5.2.4.6).
    pub fn new(model: Arc<Model>, baumgarte: Baumgarte) -> Result<Self, AlfError> {
        for (name, value) in [("alpha", baumgarte.alpha), ("beta", baumgarte.beta)] {
            if !(value >= 0.0 && value.is_finite()) {
                return Err(AlfError::InvalidParameter {
                    name,
                    value,
                    requirement: "Baumgarte constants must be non-negative and finite",
                });
            }
        }
        let core = Core::new(model)?;
        let solver =
            LambdaSolver::new(&core, LambdaBackend::Dense).map_err(|source| AlfError::Linalg {
                t: 0.0,
                context: "setting up the Baumgarte multiplier solver",
                source,
            })?;
        let (n, m) = (core.n_v(), core.m());
        Ok(Self {
            core,
            baumgarte,
            solver,
            lambda: vec![0.0; m],
            zeros: vec![0.0; m],
            phi_dot: vec![0.0; m],
            tmp_n: vec![0.0; n],
            tmp_m: vec![0.0; m],
            evaluations: 0,
        })
    }

    /// Lengths (x, v) of the parts of y.
    pub fn dims(&self) -> (usize, usize) {
        (self.core.n_x(), self.core.n_v())
    }

    /// y⁰ = [x⁰, v⁰] of the model.
    pub fn initial_state(&self) -> Vec<f64> {
        let (x, v) = self.core.initial();
        [x, v].concat()
    }

    /// The multipliers of the last evaluation.
    pub fn lambda(&self) -> &[f64] {
        &self.lambda
    }

    /// Right-hand-side evaluations so far.
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    /// Constraint violation of y at t.
    pub fn violation(&mut self, t: f64, y: &[f64]) -> Result<Violation, AlfError> {
        let (nx, nv) = self.dims();
        self.core.evaluate(t, &y[..nx], &y[nx..nx + nv], false)?;
        self.core.violation(&mut self.tmp_m)
    }

    fn rhs_inner(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), AlfError> {
        let (nx, nv) = self.dims();
        let (x, v) = y.split_at(nx);
        self.core.evaluate(t, x, v, true)?;
        self.evaluations += 1;
        let (dx, dv) = dydt.split_at_mut(nx);
        self.core.position_rates(x, v, dx);
        // B M⁻¹ Bᵀ λ = B M⁻¹ F − γ̄ (eq 5.2.4.7)
        self.core.phi_dot(&mut self.phi_dot)?;
        lagrange_rhs(
            &self.core,
            &mut self.tmp_n,
            &mut self.tmp_m,
            Some((&self.baumgarte, &self.phi_dot)),
        )?;
        self.solver
            .solve(&self.core, &self.zeros, 1.0, &self.tmp_m, &mut self.lambda)
            .map_err(|source| AlfError::Linalg {
                t,
                context: "Baumgarte multipliers B M⁻¹ Bᵀ λ = B M⁻¹ F − γ̄ (eq 5.2.4.7)",
                source,
            })?;
        // v̇ = M⁻¹(F − Bᵀλ)
        self.core.bt_mul(&self.lambda, dv)?;
        for i in 0..nv {
            dv[i] = self.core.forces[i] - dv[i];
        }
        self.core.minv_in_place(dv);
        crate::descriptor::check_finite(t, "acceleration", dv, |i| self.core.coordinate_label(i))
    }
}

impl OdeSystem for BaumgarteOde {
    fn dim(&self) -> usize {
        let (a, b) = self.dims();
        a + b
    }
    fn rhs(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError> {
        self.rhs_inner(t, y, dydt).map_err(system_error)
    }
    fn project(&mut self, _t: f64, y: &mut [f64]) -> Result<bool, SystemError> {
        let nx = self.core.n_x();
        Ok(self.core.normalize_euler_params(&mut y[..nx]))
    }
}
