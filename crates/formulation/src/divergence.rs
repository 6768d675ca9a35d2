//! The divergence check: a coordinate or velocity that is not finite or beyond a
//! limit stops a run, naming the body.

use mbs_model::{Model, State};

use crate::error::FormulationError;
use crate::sample::SAMPLE_LAYOUT;

/// Names the first body whose coordinates or velocities are non-finite or beyond
/// the limit (positions and velocities 7 per body, the [`SAMPLE_LAYOUT`]).
#[derive(Debug, Clone)]
pub struct DivergenceCheck {
    names: Vec<String>,
    limit: f64,
}

impl DivergenceCheck {
    /// A check for `model`'s bodies with `limit`.
    pub fn new(model: &Model, limit: f64) -> Self {
        Self {
            names: model.bodies().iter().map(|b| b.name.clone()).collect(),
            limit,
        }
    }

    /// `Some(error)` if (q, q̇) at `t` diverged: the first bad position coordinate,
    /// else the first bad velocity, names its body (index / 7).
    pub fn check(&self, t: f64, q: &[f64], v: &[f64]) -> Option<FormulationError> {
        let bad = |x: &f64| !x.is_finite() || x.abs() > self.limit;
        let (i, x) = q
            .iter()
            .position(bad)
            .map(|i| (i, q[i]))
            .or_else(|| v.iter().position(bad).map(|i| (i, v[i])))?;
        let body = self
            .names
            .get(i / SAMPLE_LAYOUT.q_per_body())
            .map_or("?", String::as_str);
        Some(
            FormulationError::failed(
                t,
                format!(
                    "simulation diverged: a coordinate or velocity reached {x:e} (limit {:e})",
                    self.limit
                ),
            )
            .at(format!("body `{body}`")),
        )
    }

    /// [`DivergenceCheck::check`] of a state in the [`SAMPLE_LAYOUT`].
    pub fn check_state(&self, s: &State) -> Option<FormulationError> {
        self.check(s.t, s.q.as_slice(), s.v.as_slice())
    }
}
