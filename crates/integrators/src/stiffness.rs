//! Hairer's stiffness detection of the explicit Dormand–Prince codes `dopri5.f` and
//! `dop853.f` (Hairer–Nørsett–Wanner, *Solving ODEs I*, 2nd ed., sec II.10 "Stiffness
//! detection"; Hairer–Wanner, *Solving ODEs II*, sec IV.2, "Automatic stiffness
//! detection").
//!
//! Two stages with the same abscissa `c = 1` are evaluated at different arguments:
//! the last stage `g₁ = Y_{s−1}` (`f` at it is `k_{s−1}`) and the propagated
//! solution `y₁` (FSAL, `f(t + h, y₁) = k_s`). Their difference quotient estimates
//! the dominant eigenvalue of `∂f/∂y` along the step,
//! `h·|λ| ≈ h ‖k_s − k_{s−1}‖₂ / ‖y₁ − Y_{s−1}‖₂` (Hairer–Wanner II eq IV.2.26),
//! with no extra evaluation. When `h·|λ|` exceeds the boundary of the method's
//! stability domain along the negative real axis (3.25 for DOPRI5, 6.1 for DOP853)
//! on 15 accepted steps with fewer than 6 steps below it in between, the step is
//! held by stability, not accuracy: "the problem seems to become stiff at x"
//! (`dop853.f`). The codes test every `nstiff`-th step (default 1000) and then every
//! step until the counter clears; the test here costs `O(n)` per step and runs
//! after every accepted step.
//!
//! Bogacki–Shampine 3(2) (`ode23`) has only one stage at `c = 1` and Adams no stages:
//! for them stiffness is not detected ([`crate::Info::stiffness`] stays `None`).

/// Boundary of DOPRI5's stability domain on the negative real axis used by
/// `dopri5.f` (`hlamb > 3.25`).
pub const DOPRI5_BOUNDARY: f64 = 3.25;
/// Boundary of DOP853's stability domain on the negative real axis used by
/// `dop853.f` (`hlamb > 6.1`).
pub const DOP853_BOUNDARY: f64 = 6.1;
/// Steps beyond the boundary (without [`NONSTIFF_RESET`] steps below it in between)
/// after which the problem is declared stiff (`iasti == 15` in `dop853.f`).
pub const STIFF_STEPS: usize = 15;
/// Consecutive steps below the boundary that clear the count (`nonsti == 6`).
pub const NONSTIFF_RESET: usize = 6;

/// What the stiffness test of an explicit run found (in [`crate::Info::stiffness`]).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StiffnessReport {
    /// Start of the accepted step at which the test fired (the `x` of `dop853.f`'s
    /// message "the problem seems to become stiff at x").
    pub first_t: f64,
    /// Accepted steps of the whole run with `h·|λ|` beyond the boundary.
    pub steps_at_boundary: usize,
    /// Mean `h·|λ|` over those steps.
    pub h_lambda: f64,
    /// The stability boundary of the method (3.25 DOPRI5, 6.1 DOP853).
    pub boundary: f64,
}

/// The counters of Hairer's test during a run (`iasti`, `nonsti` of `dop853.f`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct StiffnessTest {
    boundary: f64,
    /// Steps beyond the boundary since the count was last cleared (`iasti`).
    beyond: usize,
    /// Consecutive steps below the boundary (`nonsti`).
    below: usize,
    /// Steps beyond the boundary over the run, and the sum of their `h·|λ|`.
    total: usize,
    sum_h_lambda: f64,
    first_t: Option<f64>,
}

impl StiffnessTest {
    /// A test against the stability `boundary`.
    pub(crate) fn new(boundary: f64) -> Self {
        Self {
            boundary,
            ..Self::default()
        }
    }

    /// One accepted step from `t` with estimate `h_lambda` (NaN or infinite
    /// estimates, e.g. from `y₁ = Y_{s−1}`, count as below the boundary).
    pub(crate) fn record(&mut self, t: f64, h_lambda: f64) {
        if h_lambda.is_finite() && h_lambda > self.boundary {
            self.below = 0;
            self.beyond += 1;
            self.total += 1;
            self.sum_h_lambda += h_lambda;
            if self.beyond >= STIFF_STEPS && self.first_t.is_none() {
                self.first_t = Some(t);
            }
        } else {
            self.below += 1;
            if self.below == NONSTIFF_RESET {
                self.beyond = 0;
            }
        }
    }

    /// The report, once the test has fired.
    pub(crate) fn report(&self) -> Option<StiffnessReport> {
        self.first_t.map(|first_t| StiffnessReport {
            first_t,
            steps_at_boundary: self.total,
            h_lambda: self.sum_h_lambda / self.total.max(1) as f64,
            boundary: self.boundary,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 14 steps beyond, 5 below, one beyond fires (the count is not cleared by
    /// fewer than 6 steps below); 6 below clear it.
    #[test]
    fn fires_after_15_steps_unless_cleared_by_6() {
        let mut s = StiffnessTest::new(DOP853_BOUNDARY);
        for i in 0..14 {
            s.record(f64::from(i), 7.0);
        }
        for i in 14..19 {
            s.record(f64::from(i), 1.0);
        }
        assert!(s.report().is_none());
        s.record(19.0, 9.0);
        let r = s.report().expect("fired");
        assert_eq!((r.first_t, r.steps_at_boundary), (19.0, 15));
        assert!((r.h_lambda - (14.0 * 7.0 + 9.0) / 15.0).abs() < 1e-12);

        let mut s = StiffnessTest::new(DOPRI5_BOUNDARY);
        for round in 0..10 {
            for i in 0..14 {
                s.record(f64::from(round * 20 + i), 4.0);
            }
            for i in 14..20 {
                s.record(f64::from(round * 20 + i), f64::NAN);
            }
        }
        assert!(s.report().is_none(), "6 steps below clear the count");
    }
}
