//! Step-size control of the adaptive generalized-α: the first step and the step
//! factor from the local error estimate of the positions (order 2, error O(h³):
//! the exponent 1/3; Hairer–Nørsett–Wanner I, sec II.4, eq 4.13 with safety 0.9 and
//! the factor limited to [0.2, 5], no growth right after a rejection).

use crate::common::h_min;
use crate::error::Error;

/// The step factor for the scaled error `err` (≤ 1: accepted).
pub(crate) fn factor(err: f64, after_rejection: bool) -> f64 {
    let f = if err.is_finite() && err > 0.0 {
        0.9 * err.powf(-1.0 / 3.0)
    } else if err == 0.0 {
        5.0
    } else {
        0.2
    };
    let f = f.clamp(0.2, 5.0);
    if after_rejection { f.min(1.0) } else { f }
}

/// A first step from the time scales of the initial state: with T the smaller of
/// ‖q‖/‖q̇‖ and √(‖q‖/‖q̈‖) (‖q‖ floored at atol/rtol), a third-order local error
/// h³‖q⃛‖ ≈ (h/T)³‖q‖ within rtol‖q‖ gives h ≈ rtol^{1/3} T; halved, and at most a
/// tenth of the span.
pub(crate) fn initial_step(
    q: &[f64],
    v: &[f64],
    qdd: &[f64],
    rtol: f64,
    atol: f64,
    span: f64,
) -> f64 {
    let amax = |x: &[f64]| x.iter().fold(0.0f64, |m, y| m.max(y.abs()));
    let qn = amax(q) + atol / rtol;
    let (vn, an) = (amax(v), amax(qdd));
    let mut tau = span;
    if vn > 0.0 {
        tau = tau.min(qn / vn);
    }
    if an > 0.0 {
        tau = tau.min((qn / an).sqrt());
    }
    (0.5 * rtol.cbrt() * tau)
        .min(0.1 * span)
        .max(16.0 * f64::EPSILON * span)
}

/// [`Error::StepSizeUnderflow`] when the next step `h` is below 16 ε |t|.
pub(crate) fn check_underflow(t: f64, h: f64) -> Result<(), Error> {
    let h_min = h_min(t);
    if h < h_min {
        Err(Error::StepSizeUnderflow { t, h, h_min })
    } else {
        Ok(())
    }
}
