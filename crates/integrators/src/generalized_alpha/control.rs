//! What both forms of the generalized-α method share: the step-size controller, the
//! Newton convergence monitor and the error weights.
//!
//! # Step-size control
//!
//! The local error estimate `err` (weighted max norm, weights
//! `1/max(rtol max(|y_n|, |y_{n+1}|), atol)` as `ode45`) of a second-order method gives the next step `h_new = h · fac`, `fac = 0.9 err^{−1/3}` clamped to
//! `[0.2, 5]`, no growth right after a rejection (Hairer–Wanner II, sec IV.8, eq 8.21
//! with the exponent of a local error `O(h³)`). A factor in `[1, 1.2]` keeps the step,
//! which keeps the LU factors of the Newton matrix (RADAU5's `quot1`/`quot2`).
//!
//! # Newton convergence (Hairer–Wanner II, sec IV.8, eqs 8.10–8.14; `radau5.f`)
//!
//! With `Θ_k = ‖Δ_k‖/‖Δ_{k−1}‖` and `η_k = Θ_k/(1 − Θ_k)` (at the first iteration
//! `η = max(η_old, ε)^{0.8}` from the previous step) the iteration has converged when
//! `η_k ‖Δ_k‖ ≤ κ`, `κ = max(10ε/rtol, min(0.03, √rtol))` in the norm of the error
//! test (adaptive steps), or when `‖Δ_k‖ ≤ 1` in the norm of the Newton tolerances
//! ([`NewtonParams`](crate::NewtonParams)`::rtol/atol`: a formulation sets them above
//! the round-off of its right-hand side, and this is the only test in fixed-step
//! mode), or when corrections stop halving after one below `√ε/max(rtol_N, atol_N)`
//! in that norm (the round-off floor, as [`Newton`](crate::Newton)). It has failed when `Θ_k ≥ 0.99`, when the contraction cannot reach the
//! tolerance within the iteration limit (`Θ^{k_max−k}/(1 − Θ) ‖Δ_k‖ > κ`), or at the
//! limit. A failure with a Jacobian from an earlier step refreshes the Jacobian and
//! retries the same step; a failure with a fresh Jacobian rejects the step and halves
//! it (fixed step: [`Error::NewtonFailure`]).

use crate::common::{EPS, h_min, step_toward_end};
use crate::error::Error;
use crate::system::AbsTol;

/// Safety factor of the step-size controller.
const SAFETY: f64 = 0.9;
/// Smallest and largest step-size factor.
const FAC_MIN: f64 = 0.2;
const FAC_MAX: f64 = 5.0;
/// Factors in `[1, HOLD]` keep the step (and the Newton matrix).
const HOLD: f64 = 1.2;
/// Step-size factor after a Newton failure.
const NEWTON_SHRINK: f64 = 0.5;
/// `Θ` at which the iteration is taken to diverge.
const DIVERGENT: f64 = 0.99;

/// Step-size control state between attempts.
#[derive(Debug, Clone, Default)]
pub(crate) struct Control {
    /// `Some(h)` in fixed-step mode.
    pub fixed: Option<f64>,
    pub dir: f64,
    pub h_max: f64,
    /// `|h|` of the next attempt and the signed step of the current one.
    pub absh: f64,
    pub h: f64,
    pub hmin: f64,
    /// The current attempt ends at `t_end`.
    pub last: bool,
    /// No attempt of the current step failed yet.
    pub no_failed: bool,
    /// Fixed-step mode: the start time and the steps taken (`t0 + k h`).
    pub t0: f64,
    pub steps: usize,
}

impl Control {
    /// A run from `t0` toward `t_end` with first step `absh`.
    pub fn start(&mut self, t0: f64, t_end: f64, absh: f64, h_max: Option<f64>) {
        let span = (t_end - t0).abs();
        self.dir = crate::common::direction(t0, t_end);
        self.h_max = h_max.unwrap_or(span).min(span);
        self.absh = self.fixed.unwrap_or(absh);
        self.t0 = t0;
        self.steps = 0;
        self.no_failed = true;
    }

    /// The attempt from `t` toward `t_end`: its signed step and its end time.
    pub fn begin(&mut self, t: f64, t_end: f64) -> (f64, f64) {
        self.hmin = h_min(t);
        let adaptive = self.fixed.is_none().then_some((self.hmin, self.h_max));
        self.last = step_toward_end(&mut self.absh, (t_end - t).abs(), adaptive);
        self.h = self.dir * self.absh;
        let t_new = if self.last {
            t_end
        } else if let Some(h) = self.fixed {
            self.t0 + self.dir * h * (self.steps + 1) as f64
        } else {
            t + self.h
        };
        (self.h, t_new)
    }

    /// An accepted step with error `err` (≤ 1): the next step.
    pub fn accept(&mut self, err: f64) {
        self.steps += 1;
        if let Some(h) = self.fixed {
            self.absh = h;
        } else {
            let mut fac = if err > 0.0 {
                (SAFETY * err.powf(-1.0 / 3.0)).clamp(FAC_MIN, FAC_MAX)
            } else {
                FAC_MAX
            };
            if !self.no_failed {
                fac = fac.min(1.0);
            }
            if (1.0..=HOLD).contains(&fac) {
                fac = 1.0;
            }
            self.absh *= fac;
        }
        self.no_failed = true;
    }

    /// A rejected attempt at `t`: by the error test (`Some(err)`, `err > 1` or not
    /// finite) or by Newton (`None`). Fails below the smallest step.
    pub fn reject(&mut self, t: f64, err: Option<f64>) -> Result<(), Error> {
        if self.absh <= self.hmin {
            return Err(Error::StepSizeUnderflow {
                t,
                h: self.absh,
                h_min: self.hmin,
            });
        }
        let fac = match err {
            Some(e) if e.is_finite() && self.no_failed => {
                (SAFETY * e.powf(-1.0 / 3.0)).max(FAC_MIN)
            }
            Some(_) => FAC_MIN,
            None => NEWTON_SHRINK,
        };
        self.absh = (self.absh * fac).max(self.hmin);
        self.no_failed = false;
        Ok(())
    }
}

/// Inverse error weights `1/max(rtol |y_i|, atol_i)` (the error test, as `ode45`) and
/// `1/(atol_N + rtol_N |y_i|)` (the Newton tolerances) of a state.
#[derive(Debug, Clone)]
pub(crate) struct Weights {
    pub error: Vec<f64>,
    pub newton: Vec<f64>,
}

impl Weights {
    pub fn new(n: usize) -> Self {
        Self {
            error: vec![0.0; n],
            newton: vec![0.0; n],
        }
    }

    /// The weights at `y` (a state `[x, v]` may come in two parts, `y` then `z`).
    pub fn set(&mut self, rtol: f64, atol: &AbsTol, newton: (f64, f64), parts: [&[f64]; 2]) {
        let mut i = 0;
        for part in parts {
            for &y in part {
                let a = y.abs();
                self.error[i] = 1.0 / (rtol * a).max(atol.get(i)).max(f64::MIN_POSITIVE);
                self.newton[i] = 1.0 / (newton.1 + newton.0 * a).max(f64::MIN_POSITIVE);
                i += 1;
            }
        }
    }
}

/// `max_i |e_i| w_i` over consecutive parts with their weights from `offset`, and the
/// index of the largest term.
pub(crate) fn weighted_max(e: &[f64], w: &[f64], offset: usize, acc: &mut (f64, usize)) {
    for (i, (&ei, &wi)) in e.iter().zip(&w[offset..]).enumerate() {
        let r = (ei * wi).abs();
        // NaN propagates as a failure
        if r > acc.0 || r.is_nan() {
            *acc = (if r.is_nan() { f64::INFINITY } else { r }, offset + i);
        }
    }
}

/// What one Newton iteration's correction says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    Converged,
    Continue,
    Failed,
}

/// The Newton convergence monitor of the module documentation.
#[derive(Debug, Clone, Default)]
pub(crate) struct Monitor {
    /// `κ` of the adaptive test; `None` in fixed-step mode.
    pub kappa: Option<f64>,
    pub max_iterations: usize,
    /// The round-off floor in the Newton norm: `√ε / max(rtol_N, atol_N)`.
    floor: f64,
    /// `η` of the last converged iteration.
    pub eta_old: f64,
    /// Norms of the previous correction (error and Newton weights).
    prev: f64,
    prev_newton: f64,
    eta: f64,
    /// Iterations of the current attempt and the last correction in the Newton norm.
    pub iterations: usize,
    pub last: f64,
}

impl Monitor {
    /// `rtol` of the error test (adaptive steps), the iteration limit and the Newton
    /// tolerances.
    pub fn new(rtol: Option<f64>, max_iterations: usize, newton: (f64, f64)) -> Self {
        Self {
            kappa: rtol.map(|r| (10.0 * EPS / r).max(0.03f64.min(r.sqrt()))),
            max_iterations,
            floor: EPS.sqrt() / newton.0.max(newton.1).max(f64::MIN_POSITIVE),
            eta_old: 1.0,
            ..Self::default()
        }
    }

    /// Start an attempt.
    pub fn begin(&mut self) {
        self.iterations = 0;
        self.prev = f64::INFINITY;
        self.prev_newton = f64::INFINITY;
        self.eta = self.eta_old.max(EPS).powf(0.8);
        self.last = f64::NAN;
    }

    /// The correction of one iteration: `err` its norm in the error weights, `newton`
    /// in the Newton weights. Besides the tests of the module documentation, corrections
    /// that no longer halve after one below the round-off floor of the right-hand side
    /// (`√ε` relative, what a forward-difference Jacobian resolves; as
    /// [`Newton`](crate::Newton)) have converged: they are noise.
    pub fn check(&mut self, err: f64, newton: f64) -> Verdict {
        self.iterations += 1;
        self.last = newton;
        if !err.is_finite() || !newton.is_finite() {
            return Verdict::Failed;
        }
        let stalled = newton >= 0.5 * self.prev_newton && self.prev_newton <= self.floor;
        self.prev_newton = newton;
        if newton <= 1.0 || stalled {
            self.eta_old = self.eta;
            return Verdict::Converged;
        }
        let Some(kappa) = self.kappa else {
            let theta = newton / self.prev;
            self.prev = newton;
            return if self.iterations >= self.max_iterations
                || (self.iterations >= 2 && theta >= DIVERGENT)
            {
                Verdict::Failed
            } else {
                Verdict::Continue
            };
        };
        if self.iterations >= 2 {
            let theta = err / self.prev;
            if theta >= DIVERGENT {
                return Verdict::Failed;
            }
            self.eta = theta / (1.0 - theta);
            let left = self.max_iterations.saturating_sub(self.iterations) as i32;
            if theta.powi(left) / (1.0 - theta) * err > kappa {
                return Verdict::Failed;
            }
        }
        self.prev = err;
        if self.eta * err <= kappa {
            self.eta_old = self.eta;
            Verdict::Converged
        } else if self.iterations >= self.max_iterations {
            Verdict::Failed
        } else {
            Verdict::Continue
        }
    }
}
