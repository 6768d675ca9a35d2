//! Whether a model is stiff at its initial state: the eigenvalues of the Jacobian
//! `∂f/∂y` of the recommended method's first-order right-hand side at `t₀`
//! (forward differences through the implicit integrators' Jacobian machinery,
//! [`mbs_formulation::drive::ode_jacobian`]; eigenvalues by nalgebra's real Schur
//! form).
//!
//! A linear(ized) problem `y' = J y` is stiff on `[t₀, t_end]` when its fastest mode
//! is much faster than both its slowest significant mode and the interval: an explicit
//! method's step is then bounded by `|h λ_max| ≲ 3–6` (its stability radius) long
//! after the fast modes have decayed (Hairer–Wanner, *Solving ODEs II*, sec IV.1–2;
//! Shampine & Gear's "stiffness ratio" with the interval of integration). The check:
//!
//! * **zero modes** are eigenvalues with `|λ| < `[`ZERO_FLOOR`]` · max|λ|`: free
//!   coordinates, the Euler-parameter norm, constraint drift, and a slow motion whose
//!   linearization vanishes at the initial state (a pendulum released horizontally
//!   from rest: gravity's torque is stationary there). A finite-difference Jacobian
//!   resolves them only to `≈ √ε ‖J‖` (a double zero of `q' = v, v' = 0` splits to
//!   `≈ ε^{1/4} ‖J‖^{1/2}`), so their values are discarded; they stand for motion on
//!   the scale of the interval;
//! * the **slow scale** is then `1/(t_end − t₀)` when there are zero modes, else
//!   `max(min |λ|, 1/(t_end − t₀))` (a mode slower than the interval limits nothing),
//!   and the **stiffness ratio** is `max|λ|` over it. So a lone oscillator has ratio
//!   1 (an explicit method must resolve its oscillation anyway), while the bushing
//!   chain released horizontally (bending modes 1e3–6e3 1/s, the swing a zero mode
//!   at the start) has ratio `max|λ| · (t_end − t₀)`;
//! * **stiff** when the ratio exceeds [`STIFF_RATIO`] = 1e3 *and*
//!   `max|λ| · (t_end − t₀)` exceeds [`STIFF_SPAN`] = 1e3: an explicit method of
//!   stability radius ≈ 3–6 then needs ≳ 200–300 steps for stability alone, more
//!   than the ≈ 10–100 steps per slow time scale its accuracy asks at the default
//!   tolerance, and the gap grows linearly with `max|λ|` — the implicit integrator's
//!   steps do not.
//!
//! Cost: one Jacobian (`n` right-hand sides, fewer with a declared sparsity) and an
//! `O(n³)` eigenvalue problem, once per run; skipped beyond [`MAX_STATES`] states
//! (there the eigenvalue problem would cost as much as a short run).

use std::fmt;
use std::sync::Arc;

use mbs_formulation::{Linearization, RunSpec, SAMPLE_LAYOUT};
use mbs_model::{Model, State};
use nalgebra::DMatrix;

use crate::method::Method;

/// Eigenvalues with `|λ|` below this fraction of the largest are discarded as zero
/// modes (module documentation).
pub const ZERO_FLOOR: f64 = 1e-6;
/// Stiffness ratio above which a model is stiff (module documentation).
pub const STIFF_RATIO: f64 = 1e3;
/// `max|λ| · (t_end − t₀)` above which a model is stiff (module documentation).
pub const STIFF_SPAN: f64 = 1e3;
/// States of the method's ODE beyond which the check is skipped.
pub const MAX_STATES: usize = 600;

/// The linearized spectrum of a model's ODE at its initial state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spectrum {
    /// Dimension of the ODE (the method's own coordinates and velocities).
    pub states: usize,
    /// Largest `|λ|` (1/s).
    pub largest: f64,
    /// Smallest `|λ|` at or above the floor (1/s); `None` when all are zero.
    pub smallest: Option<f64>,
    /// Eigenvalues below the floor ([`ZERO_FLOOR`]).
    pub discarded: usize,
}

impl Spectrum {
    /// The spectrum of `jac` (square): `|λ|` of its complex eigenvalues.
    pub fn of_jacobian(jac: &DMatrix<f64>) -> Self {
        let states = jac.nrows();
        let mods: Vec<f64> = if jac.iter().all(|v| v.is_finite()) && states > 0 {
            jac.clone()
                .complex_eigenvalues()
                .iter()
                .map(|l| l.norm())
                .collect()
        } else {
            Vec::new()
        };
        let largest = mods.iter().copied().fold(0.0, f64::max);
        let floor = ZERO_FLOOR * largest;
        let significant = || mods.iter().copied().filter(|m| *m >= floor && *m > 0.0);
        Self {
            states,
            largest,
            smallest: significant().reduce(f64::min),
            discarded: mods.len() - significant().count(),
        }
    }

    /// The stiffness ratio `max|λ| / slow` for an interval of length `span`, with
    /// `slow = 1/span` when there are zero modes, else `max(min |λ|, 1/span)`
    /// (module documentation).
    pub fn ratio(&self, span: f64) -> f64 {
        let interval = 1.0 / span.abs();
        let slow = match self.smallest {
            Some(s) if self.discarded == 0 => s.max(interval),
            _ => interval,
        };
        self.largest / slow
    }

    /// Stiff on an interval of length `span` (module documentation).
    pub fn is_stiff(&self, span: f64) -> bool {
        self.ratio(span) > STIFF_RATIO && self.largest * span.abs() > STIFF_SPAN
    }
}

/// Why the spectrum was not computed.
#[derive(Clone, Debug, PartialEq)]
pub enum Skipped {
    /// More states than [`MAX_STATES`].
    TooLarge {
        /// States of the method's ODE.
        states: usize,
    },
    /// The method has no linearization, or it failed (the message says which).
    Unavailable(String),
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skipped::TooLarge { states } => write!(
                f,
                "stiffness check skipped: {states} states (more than {MAX_STATES})"
            ),
            Skipped::Unavailable(why) => write!(f, "stiffness check unavailable: {why}"),
        }
    }
}

/// The spectrum of `method`'s ODE for `model` at the model's initial state.
pub fn linearized_spectrum(method: &Method, model: &Arc<Model>) -> Result<Spectrum, Skipped> {
    let mut fe = crate::registry::build_front_end(method, model)
        .map_err(|e| Skipped::Unavailable(e.to_string()))?;
    let initial = State::initial(model, SAMPLE_LAYOUT);
    let spec = RunSpec {
        initial: &initial,
        integrator: Default::default(),
        t_end: initial.t + 1.0,
        output_times: &[],
        divergence_limit: f64::INFINITY,
        max_steps: 1,
        guard: false,
    };
    match fe.linearization(&spec, MAX_STATES) {
        Ok(Linearization::Jacobian(jac)) => Ok(Spectrum::of_jacobian(&jac)),
        Ok(Linearization::TooLarge { states }) => Err(Skipped::TooLarge { states }),
        Err(e) => Err(Skipped::Unavailable(e.to_string())),
    }
}
