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

/// Root-mean-square norm `sqrt(Σ (x_i / s_i)² / n)` (RADAU5's and SciPy's norm).
#[inline]
pub(crate) fn rms(x: &[f64], scale: &[f64]) -> f64 {
    let n = x.len().max(1);
    let s: f64 = x.iter().zip(scale).map(|(x, s)| (x / s) * (x / s)).sum();
    (s / n as f64).sqrt()
}

/// First step of the implicit adaptive integrators, as SciPy's
/// `select_initial_step` (Hairer, Nørsett & Wanner I, sec II.4, "starting step
/// size"): with `sc = atol + rtol |y₀|`, `d₀ = ‖y₀‖`, `d₁ = ‖f₀‖`,
/// `h₀ = 0.01 d₀/d₁` (`1e-6` when either is below `1e-5`), one explicit Euler
/// step to estimate `d₂ = ‖f(t₀ + h₀, y₀ + h₀ f₀) − f₀‖ / h₀`, and
/// `h = min(100 h₀, (0.01 / max(d₁, d₂))^{1/(p+1)}, h_max)` for an error estimate
/// of order `p`. Uses `y1`, `f1` as work space; one right-hand side.
pub(crate) fn initial_step<S: crate::OdeSystem + ?Sized>(
    sys: &mut S,
    (t0, y0, f0): (f64, &[f64], &[f64]),
    dir: f64,
    h_max: f64,
    order: usize,
    scale: &[f64],
    (y1, f1): (&mut [f64], &mut [f64]),
) -> Result<f64, Error> {
    use crate::error::AtTime;
    let d0 = rms(y0, scale);
    let d1 = rms(f0, scale);
    let h0 = if d0 < 1e-5 || d1 < 1e-5 {
        1e-6
    } else {
        0.01 * d0 / d1
    }
    .min(h_max);
    for i in 0..y0.len() {
        y1[i] = y0[i] + dir * h0 * f0[i];
    }
    let t1 = t0 + dir * h0;
    sys.rhs(t1, y1, f1).at(t1)?;
    for i in 0..y0.len() {
        y1[i] = f1[i] - f0[i];
    }
    let d2 = rms(y1, scale) / h0;
    let h1 = if d1 <= 1e-15 && d2 <= 1e-15 {
        (h0 * 1e-3).max(1e-6)
    } else {
        (0.01 / d1.max(d2)).powf(1.0 / (order as f64 + 1.0))
    };
    let h = (100.0 * h0).min(h1).min(h_max);
    Ok(if h.is_finite() && h > 0.0 {
        h
    } else {
        h_max.min(1e-6)
    })
}

/// The error for a system in mass-matrix form
/// ([`OdeSystem::mass_matrix`](crate::OdeSystem::mass_matrix)) given to an
/// integrator of `y' = f(t, y)` only (all but [`crate::Radau5`]).
pub(crate) fn no_mass_matrix<S: crate::OdeSystem + ?Sized>(
    who: &str,
    sys: &S,
) -> Result<(), Error> {
    if sys.mass_matrix().is_some() {
        return Err(Error::InvalidInput(format!(
            "{who}: the system has a mass matrix (M y' = f); only radau5 integrates it"
        )));
    }
    Ok(())
}
