//! Helpers shared by the integrators: output-time bookkeeping, norms, checks.

use crate::error::Error;

/// Unit roundoff `ε` of `f64`.
pub(crate) const EPS: f64 = f64::EPSILON;

/// Smallest admissible step at `t`: MATLAB's `hmin = 16 eps(t)`.
#[inline]
pub(crate) fn h_min(t: f64) -> f64 {
    16.0 * (EPS * t.abs()).max(f64::MIN_POSITIVE)
}

/// `x > 0` and finite (false for NaN).
#[inline]
pub(crate) fn positive(x: f64) -> bool {
    x > 0.0 && x.is_finite()
}

#[inline]
pub(crate) fn all_finite(y: &[f64]) -> bool {
    y.iter().all(|v| v.is_finite())
}

/// Direction of integration, `+1` or `−1`.
#[inline]
pub(crate) fn direction(t0: f64, t_end: f64) -> f64 {
    if t_end >= t0 { 1.0 } else { -1.0 }
}

/// Check the requested output times: finite, monotone in the direction of
/// integration and inside `[t0, t_end]`.
pub(crate) fn validate_span(t0: f64, t_end: f64, t_out: &[f64]) -> Result<(), Error> {
    if !t0.is_finite() || !t_end.is_finite() {
        return Err(Error::InvalidInput("t0 and t_end must be finite".into()));
    }
    let dir = direction(t0, t_end);
    let mut prev = t0;
    for &t in t_out {
        if !t.is_finite() || dir * (t - prev) < 0.0 || dir * (t - t_end) > 0.0 {
            return Err(Error::InvalidInput(format!(
                "output time {} is not monotone inside [{}, {}]",
                short(t),
                short(t0),
                short(t_end)
            )));
        }
        prev = t;
    }
    Ok(())
}

/// `x` for a message: plain for ordinary magnitudes, in exponent form otherwise (1e-300
/// would print as 300 digits).
fn short(x: f64) -> String {
    if x == 0.0 || (1e-4..1e16).contains(&x.abs()) || !x.is_finite() {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

pub(crate) fn check_dim(what: &str, got: usize, want: usize) -> Result<(), Error> {
    if got == want {
        Ok(())
    } else {
        Err(Error::InvalidInput(format!(
            "{what} has length {got}, expected {want}"
        )))
    }
}

/// Cursor over the requested output times.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct OutCursor {
    pub next: usize,
}

impl OutCursor {
    /// Output times strictly before `t_new` (in the direction `dir`) that are
    /// still pending: returns the next one and advances.
    #[inline]
    pub fn next_before(&mut self, t_out: &[f64], dir: f64, t_new: f64) -> Option<f64> {
        match t_out.get(self.next) {
            Some(&t) if dir * (t - t_new) < 0.0 => {
                self.next += 1;
                Some(t)
            }
            _ => None,
        }
    }
    /// Whether an output time up to `t_new` (in the direction `dir`) is pending.
    #[inline]
    pub fn due(&self, t_out: &[f64], dir: f64, t_new: f64) -> bool {
        t_out
            .get(self.next)
            .is_some_and(|&t| dir * (t - t_new) <= 0.0)
    }
    /// Whether an output time strictly before `t_new` is pending.
    #[inline]
    pub fn pending_before(&self, t_out: &[f64], dir: f64, t_new: f64) -> bool {
        matches!(t_out.get(self.next), Some(&t) if dir * (t - t_new) < 0.0)
    }
    /// Output times equal to `t_new` (may be repeated).
    #[inline]
    pub fn next_at(&mut self, t_out: &[f64], t_new: f64) -> Option<f64> {
        match t_out.get(self.next) {
            Some(&t) if t == t_new => {
                self.next += 1;
                Some(t)
            }
            _ => None,
        }
    }
}

/// Whether the projection hook is due after `accepted` accepted steps.
#[inline]
pub(crate) fn projection_due(project_every: usize, accepted: usize) -> bool {
    project_every > 0 && accepted.is_multiple_of(project_every)
}

/// The size `|h|` of the next step toward a final time `remaining` away, and whether
/// that step ends there (`ode45.m`): an adaptive step is clamped to `[hmin, h_max]`
/// and stretched by up to 10 % to land on the final time; a fixed step ends there
/// when at most round-off longer than what remains.
#[inline]
pub(crate) fn step_toward_end(
    absh: &mut f64,
    remaining: f64,
    adaptive: Option<(f64, f64)>,
) -> bool {
    let last = match adaptive {
        Some((hmin, h_max)) => {
            *absh = absh.min(h_max).max(hmin);
            1.1 * *absh >= remaining
        }
        None => remaining <= *absh * (1.0 + 1e-10),
    };
    if last {
        *absh = remaining;
    }
    last
}

/// Cubic Hermite interpolation on `[t, t + h]` from `(y0, f0)` at `θ = 0` and
/// `(y1, f1)` at `θ = 1`, at `θ`, into `out`.
pub(crate) fn hermite(
    theta: f64,
    h: f64,
    (y0, f0): (&[f64], &[f64]),
    (y1, f1): (&[f64], &[f64]),
    out: &mut [f64],
) {
    let th = theta;
    let h00 = (1.0 + 2.0 * th) * (1.0 - th) * (1.0 - th);
    let h10 = th * (1.0 - th) * (1.0 - th);
    let h01 = th * th * (3.0 - 2.0 * th);
    let h11 = th * th * (th - 1.0);
    for i in 0..out.len() {
        out[i] = h00 * y0[i] + h10 * h * f0[i] + h01 * y1[i] + h11 * h * f1[i];
    }
}
