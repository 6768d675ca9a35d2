//! [`DescriptorIntegrator`]: the rules of [`DescriptorRule`] as a [`Stepper`] over a
//! [`DescriptorSystem`], with step-size control and dense output.

use super::control;
use super::newton::{Outcome, Start, Work};
use super::params::DescriptorParams;
use super::rule::{DescriptorRule, Kinematics};
use super::system::DescriptorSystem;
use crate::choice::StepControl;
use crate::common::{check_dim, direction, h_min, hermite, positive, step_toward_end};
use crate::error::{AtTime, Error};
use crate::stepper::{Schedule, Step, Stepper};
use crate::system::Info;

/// The index-3 integrator of descriptor systems: generalized-α (Arnold–Brüls 2007)
/// with a fixed step or adaptive, and Bayo–Ledesma's trapezoidal and midpoint rules
/// with a fixed step.
///
/// Its state `y` is `[q, v, q̈, λ]` (positions, velocities, the accelerations that
/// satisfy the equations of motion, the system's multipliers). `init` accepts
/// `[q, v]` (consistent q̈₀ and λ₀ are computed at the start by
/// [`DescriptorSystem::initial_accelerations`]) or the whole `[q, v, q̈, λ]` (taken
/// as given). Generalized-α starts with a₀ = q̈₀ (Arnold–Brüls sec 2).
///
/// Dense output between steps: positions by the cubic Hermite interpolant of
/// (q, q̇) at the step's ends, velocities by the cubic Hermite interpolant of
/// (v, q̈), accelerations linearly, the multipliers of the step's end; the ends are
/// the accepted (projected) states.
#[derive(Debug, Clone)]
pub struct DescriptorIntegrator {
    params: DescriptorParams,
    nq: usize,
    nv: usize,
    nl: usize,
    /// `[q, v, q̈, λ]` of the last accepted step and of the one before.
    y: Vec<f64>,
    y_prev: Vec<f64>,
    y_out: Vec<f64>,
    /// The algorithmic accelerations aₙ (generalized-α; q̈ for the other rules),
    /// aₙ₋₁, and aₙ moved to the shift of the attempted step.
    a: Vec<f64>,
    a_prev: Vec<f64>,
    a_start: Vec<f64>,
    /// Position rates at `y` and `y_prev`.
    qdot: Vec<f64>,
    qdot_prev: Vec<f64>,
    work: Work,
    /// The whole state was given to `init` (no initial accelerations to compute).
    given: bool,
    t: f64,
    t0: f64,
    t_prev: f64,
    h_last: f64,
    dir: f64,
    /// Fixed-step steps taken (the step ends at t0 + k h).
    steps: usize,
    /// |h| of the next adaptive attempt.
    h_next: f64,
    /// The next attempt rebuilds the system's Jacobians.
    refresh: bool,
    /// The last attempt was rejected.
    rejected: bool,
    error_component: Option<usize>,
    /// Attempts rejected for a Newton failure (the rest of the rejections failed
    /// the error test).
    newton_failures: usize,
    info: Info,
}

impl DescriptorIntegrator {
    /// An integrator for `nq` positions, `nv` velocities and `nl` multipliers.
    pub fn new(nq: usize, nv: usize, nl: usize, params: DescriptorParams) -> Self {
        let ny = nq + 2 * nv + nl;
        Self {
            params,
            nq,
            nv,
            nl,
            y: vec![0.0; ny],
            y_prev: vec![0.0; ny],
            y_out: vec![0.0; ny],
            a: vec![0.0; nv],
            a_prev: vec![0.0; nv],
            a_start: vec![0.0; nv],
            qdot: vec![0.0; nq],
            qdot_prev: vec![0.0; nq],
            work: Work::new(nq, nv),
            given: false,
            t: 0.0,
            t0: 0.0,
            t_prev: 0.0,
            h_last: 0.0,
            dir: 1.0,
            steps: 0,
            h_next: 0.0,
            refresh: true,
            rejected: false,
            error_component: None,
            newton_failures: 0,
            info: Info::default(),
        }
    }

    /// The parameters.
    pub fn params(&self) -> &DescriptorParams {
        &self.params
    }

    /// Length of the state `[q, v, q̈, λ]`.
    pub fn dim(&self) -> usize {
        self.y.len()
    }

    /// Time of the last accepted state.
    pub fn t(&self) -> f64 {
        self.t
    }

    /// The last accepted state `[q, v, q̈, λ]` (also after an error).
    pub fn y(&self) -> &[f64] {
        &self.y
    }

    /// Statistics of the current (or last) run.
    pub fn info(&self) -> Info {
        self.info
    }

    /// Attempts of the current (or last) run rejected for a Newton failure
    /// (counted in [`Info::rejected_steps`] with the error-test rejections).
    pub fn newton_failures(&self) -> usize {
        self.newton_failures
    }

    fn check_params(&self) -> Result<(), Error> {
        let p = &self.params;
        let name = p.rule.name();
        match (p.rule, p.step) {
            (_, StepControl::Fixed { h }) if !positive(h) => Err(Error::InvalidInput(format!(
                "{name}: step h must be positive and finite, got {h}"
            ))),
            (
                DescriptorRule::Trapezoidal | DescriptorRule::Midpoint,
                StepControl::Adaptive { .. },
            ) => Err(Error::InvalidInput(format!(
                "{name} (Bayo–Ledesma) is a fixed-step rule without an error estimate: give a step h (or use generalized-alpha for an adaptive step)"
            ))),
            (_, StepControl::Adaptive { rtol, atol })
                if !(positive(rtol) && atol >= 0.0 && atol.is_finite()) =>
            {
                Err(Error::InvalidInput(format!(
                    "{name}: tolerances must be positive and finite, got rtol = {rtol}, atol = {atol}"
                )))
            }
            (DescriptorRule::GeneralizedAlpha { rho_inf }, _)
                if !(0.0..=1.0).contains(&rho_inf) =>
            {
                Err(Error::InvalidInput(format!(
                    "{name}: spectral radius rho_inf must lie in [0, 1], got {rho_inf}"
                )))
            }
            _ if !(p.newton.tol > 0.0 && p.newton.max_iterations > 0) => {
                Err(Error::InvalidInput(format!(
                    "{name}: the Newton tolerance must be positive and the iteration limit at least 1"
                )))
            }
            _ => Ok(()),
        }
    }

    /// The weight of velocity-space component `i` of the position error.
    fn weight(&self, rtol: f64, atol: f64, i: usize, q1: &[f64]) -> f64 {
        let q0 = &self.y[..self.nq];
        if self.nq == self.nv {
            atol + rtol * q0[i].abs().max(q1[i].abs())
        } else {
            let m = q0.iter().chain(q1).fold(0.0f64, |m, x| m.max(x.abs()));
            atol + rtol * m
        }
    }

    /// Accept the work's iterate as the new state at `t_new` after a step of `h`.
    fn accept<S: DescriptorSystem + ?Sized>(&mut self, sys: &S, t_new: f64, h: f64) {
        let (nq, nv) = (self.nq, self.nv);
        std::mem::swap(&mut self.y, &mut self.y_prev);
        std::mem::swap(&mut self.qdot, &mut self.qdot_prev);
        self.y[..nq].copy_from_slice(&self.work.q);
        self.y[nq..nq + nv].copy_from_slice(&self.work.v);
        self.y[nq + nv..nq + 2 * nv].copy_from_slice(&self.work.qdd);
        self.y[nq + 2 * nv..].copy_from_slice(sys.multipliers());
        std::mem::swap(&mut self.a, &mut self.a_prev);
        self.a.copy_from_slice(&self.work.a);
        (self.t_prev, self.h_last, self.t) = (self.t, h, t_new);
        self.info.accepted_steps += 1;
    }
}

impl<S: DescriptorSystem + ?Sized> Stepper<S> for DescriptorIntegrator {
    fn init(&mut self, sys: &S, t0: f64, y0: &[f64]) -> Result<(), Error> {
        check_dim("positions", sys.dim_positions(), self.nq)?;
        check_dim("velocities", sys.dim_velocities(), self.nv)?;
        check_dim("multipliers", sys.dim_multipliers(), self.nl)?;
        self.check_params()?;
        let (nq, nv) = (self.nq, self.nv);
        if y0.len() == nq + nv {
            self.given = false;
            self.y.fill(0.0);
            self.y[..nq + nv].copy_from_slice(y0);
        } else {
            check_dim("y0 ([q, v] or [q, v, q̈, λ])", y0.len(), self.y.len())?;
            self.given = true;
            self.y.copy_from_slice(y0);
        }
        self.info = Info::default();
        self.newton_failures = 0;
        (self.t, self.t0, self.t_prev, self.steps) = (t0, t0, t0, 0);
        (self.refresh, self.rejected, self.error_component) = (true, false, None);
        Ok(())
    }

    fn start(&mut self, sys: &mut S, t_end: f64) -> Result<(), Error> {
        let (nq, nv, t) = (self.nq, self.nv, self.t);
        self.dir = direction(t, t_end);
        let (q, rest) = self.y.split_at_mut(nq);
        let (v, rest) = rest.split_at_mut(nv);
        let (qdd, lambda) = rest.split_at_mut(nv);
        if self.given {
            sys.set_multipliers(lambda);
        } else {
            sys.initial_accelerations(t, q, v, qdd).at(t)?;
            self.info.rhs_evals += 1;
            lambda.copy_from_slice(sys.multipliers());
        }
        self.a.copy_from_slice(qdd);
        sys.position_rates(q, v, &mut self.qdot).at(t)?;
        if let StepControl::Adaptive { rtol, atol } = self.params.step {
            self.h_next = control::initial_step(q, v, qdd, rtol, atol, (t_end - t).abs());
        }
        Ok(())
    }

    fn step(&mut self, sys: &mut S, t_end: f64) -> Result<Step, Error> {
        let (t, nq, nv) = (self.t, self.nq, self.nv);
        let remaining = (t_end - t).abs();
        let adaptive = match self.params.step {
            StepControl::Adaptive { rtol, atol } => Some((rtol, atol)),
            StepControl::Fixed { .. } => None,
        };
        let (t_new, last) = match self.params.step {
            StepControl::Fixed { h } => {
                let mut absh = h;
                let last = step_toward_end(&mut absh, remaining, None);
                let k = (self.steps + 1) as f64;
                (
                    if last {
                        t_end
                    } else {
                        self.t0 + self.dir * h * k
                    },
                    last,
                )
            }
            StepControl::Adaptive { .. } => {
                let span = (t_end - self.t0).abs();
                let last = step_toward_end(&mut self.h_next, remaining, Some((h_min(t), span)));
                (
                    if last {
                        t_end
                    } else {
                        t + self.dir * self.h_next
                    },
                    last,
                )
            }
        };
        let h = t_new - t;
        let kin = Kinematics::new(self.params.rule, h);
        let tol = match adaptive {
            Some((rtol, _)) => self.params.newton.tol.max(1e-2 * rtol),
            None => self.params.newton.tol,
        };
        // aₙ = q̈(tₙ + Δα hₙ₋₁): moved to tₙ + Δα h for a step of another size by
        // the slope of the last two (a step-size change otherwise costs an O(Δh)
        // error of the position update)
        let ratio = kin.shift() * (h - self.h_last) / self.h_last;
        if self.info.accepted_steps > 0 && ratio != 0.0 && ratio.is_finite() {
            for i in 0..nv {
                self.a_start[i] = self.a[i] + ratio * (self.a[i] - self.a_prev[i]);
            }
        } else {
            self.a_start.copy_from_slice(&self.a);
        }
        let lambda = &self.y[nq + 2 * nv..];
        sys.set_multipliers(lambda);
        let start = Start {
            t,
            q: &self.y[..nq],
            v: &self.y[nq..nq + nv],
            qdd: &self.y[nq + nv..nq + 2 * nv],
            a: &self.a_start,
        };
        let newton = self.params.newton;
        let refresh = self.refresh;
        let outcome = self.work.attempt(
            sys,
            &kin,
            &start,
            h,
            &newton,
            tol,
            adaptive.is_some(),
            refresh,
            &mut self.info,
        )?;
        if refresh {
            self.info.jacobian_evals += 1;
        }
        let iterations = match outcome {
            Outcome::Converged { iterations } => iterations,
            Outcome::Failed { iterations, change } => {
                if adaptive.is_none() {
                    let e = sys.newton_failure(t_new, iterations, change);
                    return Err(Error::system(t_new, e));
                }
                // rebuild the Jacobians at the same step first, then shrink it
                self.info.rejected_steps += 1;
                self.newton_failures += 1;
                self.rejected = true;
                if refresh {
                    self.h_next = h.abs() * 0.25;
                }
                self.refresh = true;
                control::check_underflow(t, self.h_next)?;
                return Ok(Step::Rejected);
            }
        };
        if let Some((rtol, atol)) = adaptive {
            let mut sum = 0.0;
            let (mut worst, mut at) = (0.0f64, 0);
            for i in 0..nv {
                let e = kin.position_error(self.work.a[i], self.a_start[i])
                    / self.weight(rtol, atol, i, &self.work.q);
                sum += e * e;
                if e.abs() > worst {
                    (worst, at) = (e.abs(), i);
                }
            }
            let err = (sum / nv.max(1) as f64).sqrt();
            self.error_component = Some(at);
            let fac = control::factor(err, self.rejected);
            self.h_next = h.abs() * fac;
            if err > 1.0 || !err.is_finite() {
                self.info.rejected_steps += 1;
                self.rejected = true;
                self.refresh = false;
                control::check_underflow(t, self.h_next)?;
                return Ok(Step::Rejected);
            }
        }
        self.rejected = false;
        let _ = iterations;
        self.refresh = false;
        self.steps += 1;
        self.accept(sys, t_new, h);
        Ok(Step::Accepted { last })
    }

    fn project(&mut self, sys: &mut S) -> Result<bool, Error> {
        let (nq, nv, t) = (self.nq, self.nv, self.t);
        let (q, rest) = self.y.split_at_mut(nq);
        let (v, rest) = rest.split_at_mut(nv);
        sys.project(t, q, v, &mut rest[..nv]).at(t)
    }

    /// Bayo–Ledesma's rules carry the (projected) q̈ as their acceleration; the
    /// position rates for the dense output.
    fn complete(&mut self, sys: &mut S) -> Result<(), Error> {
        let (nq, nv, t) = (self.nq, self.nv, self.t);
        if !matches!(self.params.rule, DescriptorRule::GeneralizedAlpha { .. }) {
            self.a.copy_from_slice(&self.y[nq + nv..nq + 2 * nv]);
        }
        sys.position_rates(&self.y[..nq], &self.y[nq..nq + nv], &mut self.qdot)
            .at(t)
    }

    fn interpolate(&mut self, ts: f64) -> &[f64] {
        let (nq, nv, h) = (self.nq, self.nv, self.h_last);
        let th = (ts - self.t_prev) / h;
        let (p, e) = (&self.y_prev, &self.y);
        let (v, a) = (nq..nq + nv, nq + nv..nq + 2 * nv);
        hermite(
            th,
            h,
            (&p[..nq], &self.qdot_prev),
            (&e[..nq], &self.qdot),
            &mut self.y_out[..nq],
        );
        hermite(
            th,
            h,
            (&p[v.clone()], &p[a.clone()]),
            (&e[v.clone()], &e[a.clone()]),
            &mut self.y_out[v],
        );
        for i in a.clone() {
            self.y_out[i] = p[i] + th * (e[i] - p[i]);
        }
        self.y_out[nq + 2 * nv..].copy_from_slice(&e[nq + 2 * nv..]);
        &self.y_out
    }

    fn t(&self) -> f64 {
        self.t
    }
    fn y(&self) -> &[f64] {
        &self.y
    }
    fn info(&self) -> Info {
        self.info
    }
    fn info_mut(&mut self) -> &mut Info {
        &mut self.info
    }
    fn schedule(&self) -> Schedule {
        Schedule {
            project_every: self.params.project_every,
            max_steps: self.params.max_steps,
        }
    }
    /// The component of the position increment (velocity space; the position
    /// coordinate when the lengths agree) whose weighted error was largest.
    fn error_component(&self) -> Option<usize> {
        self.error_component
    }
}
