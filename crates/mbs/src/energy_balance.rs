//! Energy balance of a run: kinetic energy T, potential energy V (gravity and
//! springs), and the work done since t₀ by drivers, dampers and applied forces
//! (actuators, point forces, torques),
//!
//! ```text
//!   residual(t) = T + V − (T₀ + V₀) − W_drivers − W_dampers − W_applied,
//! ```
//!
//! ≈ 0 for a right motion of any model (conservative or not): the run summary's energy
//! drift is max |residual|.
//!
//! Powers at each sample: element powers from `mbs-constraints`
//! ([`mbs_constraints::ElementPowers`]); a driver's power is that of its constraint
//! force −Φ_qᵀλ on the bodies, −λᵀ(Φ_q q̇) over its row, with λ solved at the sample
//! ([`mbs_alf::MultiplierRecovery`]; only models with drivers need it).
//!
//! Works are integrated over the output samples with the cubic through the four
//! samples around each interval (integrated exactly by 2-point Gauss–Legendre;
//! quadratic at the ends), local error O(h⁵). [`EnergyBalance::quadrature_error`] is
//! the largest difference between this rule and the trapezoid rule over the run: an
//! upper estimate of the quadrature's share of the residual (the trapezoid's error
//! bounds the cubic's for smooth powers); test `energy_balance` measures both.

use std::sync::Arc;

use mbs_constraints::velocity6;
use mbs_constraints::{ConstraintSource, SystemLayout, Workspace};
use mbs_model::{Layout, Model, State};

use crate::error::Error;

/// The terms of the energy balance at every sample of a trajectory \[J\].
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct EnergyBalance {
    /// Kinetic energy T.
    pub kinetic: Vec<f64>,
    /// Potential energy V (gravity and springs).
    pub potential: Vec<f64>,
    /// Work of the drivers since t₀.
    pub work_drivers: Vec<f64>,
    /// Work of the dampers since t₀ (≤ 0).
    pub work_dampers: Vec<f64>,
    /// Work of applied forces, torques and actuators since t₀.
    pub work_applied: Vec<f64>,
    /// T + V − (T₀ + V₀) − W_drivers − W_dampers − W_applied.
    pub residual: Vec<f64>,
    /// Largest difference of the integrated works between the cubic rule and the
    /// trapezoid rule (module docs) \[J\].
    pub quadrature_error: f64,
}

/// Powers of one state [W]: (drivers, dampers, applied).
#[derive(Debug)]
pub(crate) struct PowerMeter {
    model: Arc<Model>,
    sys: SystemLayout,
    ws: Workspace,
    recovery: Option<mbs_alf::MultiplierRecovery>,
}

impl PowerMeter {
    pub(crate) fn new(model: &Arc<Model>) -> Self {
        let sys = SystemLayout::new(model, Layout::EulerParamsPdot);
        let ws = Workspace::new(&sys);
        let recovery =
            (!model.drivers().is_empty()).then(|| mbs_alf::MultiplierRecovery::new(model.clone()));
        Self {
            model: model.clone(),
            sys,
            ws,
            recovery,
        }
    }

    pub(crate) fn powers(&mut self, s: &State) -> Result<[f64; 3], Error> {
        let fail = |what: String| Error::Unsupported {
            method: "energy balance".into(),
            message: format!("at t = {}: {what}", s.t),
        };
        let s = s.to_layout(Layout::EulerParamsPdot);
        self.ws
            .evaluate(&self.model, &self.sys, &s)
            .map_err(|e| fail(e.to_string()))?;
        let p = self.ws.element_powers(&self.model);
        let mut drivers = 0.0;
        if let Some(rec) = self.recovery.as_mut() {
            let (lambda, _) = rec.solve(&s).map_err(|e| fail(e.to_string()))?;
            for (k, e) in self.sys.entries().iter().enumerate() {
                if !matches!(e.source, ConstraintSource::Driver(_)) {
                    continue;
                }
                let b = self.ws.block(k);
                let vi = velocity6(self.ws.frame(e.body_i));
                let vj = velocity6(self.ws.frame(e.body_j));
                let phi_q_v = b.ji * vi + b.jj * vj;
                for r in 0..e.rows() {
                    drivers -= lambda[e.global_row(r)] * phi_q_v[r];
                }
            }
        }
        Ok([drivers, p.damping, p.applied])
    }
}

impl EnergyBalance {
    /// The balance of the states `states` (times `state.t`) with energies `kinetic`,
    /// `potential` of a run of `model`.
    pub fn compute(
        model: &Arc<Model>,
        states: &[State],
        kinetic: &[f64],
        potential: &[f64],
    ) -> Result<Self, Error> {
        let mut meter = PowerMeter::new(model);
        let t: Vec<f64> = states.iter().map(|s| s.t).collect();
        let mut powers = [vec![], vec![], vec![]];
        for s in states {
            let p = meter.powers(s)?;
            for (series, v) in powers.iter_mut().zip(p) {
                series.push(v);
            }
        }
        let mut quadrature_error: f64 = 0.0;
        let mut works = powers.iter().map(|p| {
            let w = cumulative(&t, p);
            let trap = cumulative_trapezoid(&t, p);
            for (a, b) in w.iter().zip(&trap) {
                quadrature_error = quadrature_error.max((a - b).abs());
            }
            w
        });
        let work_drivers = works.next().unwrap_or_default();
        let work_dampers = works.next().unwrap_or_default();
        let work_applied = works.next().unwrap_or_default();
        drop(works);
        let e0 =
            kinetic.first().copied().unwrap_or(0.0) + potential.first().copied().unwrap_or(0.0);
        let residual = (0..t.len())
            .map(|k| {
                kinetic[k] + potential[k] - e0 - work_drivers[k] - work_dampers[k] - work_applied[k]
            })
            .collect();
        Ok(Self {
            kinetic: kinetic.to_vec(),
            potential: potential.to_vec(),
            work_drivers,
            work_dampers,
            work_applied,
            residual,
            quadrature_error,
        })
    }

    /// Whether any non-conservative term is present (some work is not zero).
    pub fn has_work(&self) -> bool {
        [&self.work_drivers, &self.work_dampers, &self.work_applied]
            .iter()
            .any(|w| w.iter().any(|x| *x != 0.0))
    }
}

/// ∫_{t₀}^{t_k} p dt at every sample, trapezoid rule.
pub fn cumulative_trapezoid(t: &[f64], p: &[f64]) -> Vec<f64> {
    let mut w = Vec::with_capacity(t.len());
    let mut acc = 0.0;
    for k in 0..t.len() {
        if k > 0 {
            acc += 0.5 * (t[k] - t[k - 1]) * (p[k] + p[k - 1]);
        }
        w.push(acc);
    }
    w
}

/// ∫_{t₀}^{t_k} p dt at every sample: on each interval the interpolating polynomial
/// through the (up to) four nearest samples, integrated exactly by 2-point
/// Gauss–Legendre (module docs).
pub fn cumulative(t: &[f64], p: &[f64]) -> Vec<f64> {
    let n = t.len();
    if n < 3 {
        return cumulative_trapezoid(t, p);
    }
    let g = 0.5 / 3f64.sqrt();
    let mut w = Vec::with_capacity(n);
    let mut acc = 0.0;
    w.push(acc);
    for k in 0..n - 1 {
        // nodes k−1..k+2, clipped to the samples
        let lo = k.saturating_sub(1);
        let hi = (k + 3).min(n);
        let (lo, hi) = if hi - lo < 4 && n >= 4 {
            if lo == 0 { (0, 4) } else { (n - 4, n) }
        } else {
            (lo, hi)
        };
        let (a, b) = (t[k], t[k + 1]);
        let (mid, half) = (0.5 * (a + b), b - a);
        let at = |x: f64| lagrange(&t[lo..hi], &p[lo..hi], x);
        acc += 0.5 * half * (at(mid - g * half) + at(mid + g * half));
        w.push(acc);
    }
    w
}

/// The interpolating polynomial through (xs, ys) at x.
fn lagrange(xs: &[f64], ys: &[f64], x: f64) -> f64 {
    let mut s = 0.0;
    for (i, (xi, yi)) in xs.iter().zip(ys).enumerate() {
        let mut l = 1.0;
        for (j, xj) in xs.iter().enumerate() {
            if i != j {
                l *= (x - xj) / (xi - xj);
            }
        }
        s += l * yi;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cubic_rule_is_exact_for_cubics_on_an_uneven_grid() {
        let t: Vec<f64> = (0..9).map(|k| (k as f64 * 0.37).powf(1.3)).collect();
        let p: Vec<f64> = t
            .iter()
            .map(|x| 1.0 - 2.0 * x + 3.0 * x * x - x * x * x)
            .collect();
        let w = cumulative(&t, &p);
        for (k, x) in t.iter().enumerate() {
            let exact = x - x * x + x * x * x - 0.25 * x.powi(4);
            assert!((w[k] - exact).abs() < 1e-12, "{k}: {} vs {exact}", w[k]);
        }
        let trap = cumulative_trapezoid(&t, &p);
        assert!((trap[8] - w[8]).abs() > 1e-3);
    }
}
