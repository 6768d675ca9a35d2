//! Detection of a collapsed step size in an adaptive run, and the diagnosis of the
//! state where it happened.
//!
//! An adaptive integrator whose step is pinned by a singularity (a mechanism through
//! a singular configuration, where the loop-closure Jacobian Φ_q loses rank and a
//! front-end's constraint solve becomes ill-posed) takes steps many orders of
//! magnitude below those of the run so far and would grind toward the step limit.
//! [`StepWatch`] compares the median of the last [`WINDOW`] accepted steps with the
//! median step of the whole run (a histogram in quarter decades); when it has fallen
//! by more than [`DROP`] and the remaining time at that rate needs more steps than
//! the limit, the run stops. [`diagnose`] names the constraint rows that lost rank.

use mbs_constraints::{SystemLayout, Workspace};
use mbs_model::{Layout, Model, State};
use nalgebra::DMatrix;

/// Accepted steps whose median is compared with the run's median (a dip of fewer
/// steps, e.g. at a discontinuity, does not count).
pub const WINDOW: usize = 64;
/// The fall of the recent median step below the run's median that counts as a
/// collapse.
pub const DROP: f64 = 1e-6;
/// Histogram bins per decade and decades covered (1e-24 … 1e8).
const PER_DECADE: f64 = 4.0;
const LOW_DECADE: f64 = -24.0;
const BINS: usize = 128;

/// Watches the accepted step sizes of one run.
#[derive(Clone, Debug)]
pub struct StepWatch {
    t_prev: Option<f64>,
    hist: [u64; BINS],
    count: u64,
    recent: [f64; WINDOW],
    sorted: [f64; WINDOW],
}

/// A collapse found by [`StepWatch::step`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collapse {
    /// Median of the last [`WINDOW`] steps.
    pub h_recent: f64,
    /// Median step of the run.
    pub h_median: f64,
    /// Steps the rest of the run would take at `h_recent`.
    pub steps_needed: f64,
}

impl Default for StepWatch {
    fn default() -> Self {
        Self {
            t_prev: None,
            hist: [0; BINS],
            count: 0,
            recent: [0.0; WINDOW],
            sorted: [0.0; WINDOW],
        }
    }
}

impl StepWatch {
    /// An accepted step ending at `t`; `Some` when the step has collapsed (see the
    /// module documentation) and the rest of [t, t_end] at the recent rate needs
    /// more than `budget` steps.
    pub fn step(&mut self, t: f64, t_end: f64, budget: f64) -> Option<Collapse> {
        let t_prev = self.t_prev.replace(t)?;
        let h = (t - t_prev).abs();
        if !(h > 0.0 && h.is_finite()) {
            return None;
        }
        let bin = ((h.log10() - LOW_DECADE) * PER_DECADE).floor();
        self.hist[bin.clamp(0.0, (BINS - 1) as f64) as usize] += 1;
        self.recent[(self.count % WINDOW as u64) as usize] = h;
        self.count += 1;
        if self.count < 4 * WINDOW as u64 || !self.count.is_multiple_of(8) {
            return None;
        }
        self.sorted = self.recent;
        self.sorted.sort_by(f64::total_cmp);
        let h_recent = self.sorted[WINDOW / 2];
        let h_median = self.median();
        let steps_needed = (t_end - t).abs() / h_recent;
        (h_recent < DROP * h_median && steps_needed > budget).then_some(Collapse {
            h_recent,
            h_median,
            steps_needed,
        })
    }

    /// The run's median step (centre of the median bin).
    fn median(&self) -> f64 {
        let mut seen = 0;
        for (k, n) in self.hist.iter().enumerate() {
            seen += n;
            if 2 * seen >= self.count {
                return 10f64.powf(LOW_DECADE + (k as f64 + 0.5) / PER_DECADE);
            }
        }
        f64::INFINITY
    }
}

/// The loop-closure Jacobian Φ_q ([ṙ, ω'] layout, holonomic rows) at `at`, against
/// the reference state `reference` (the run's start): its rank deficiency there is
/// the model's generic redundancy (e.g. 3 rows per planar loop modelled in 3-D);
/// the smallest singular value beyond it at `at`, relative to the largest, and the
/// joint carrying the largest share of its left singular vector. `None` if the
/// constraints cannot be evaluated or the model has no constraint rows.
pub fn diagnose(model: &Model, reference: &State, at: &State) -> Option<String> {
    let sys = SystemLayout::new(model, Layout::EulerParamsOmega);
    let nh = sys.n_holonomic();
    if nh == 0 {
        return None;
    }
    let jac = |s: &State| -> Option<DMatrix<f64>> {
        let mut ws = Workspace::new(&sys);
        ws.evaluate_constraints(model, &sys, &s.to_layout(Layout::EulerParamsOmega))
            .ok()?;
        let mut j = DMatrix::zeros(sys.n_rows(), sys.n_v());
        ws.phi_q_dense(&sys, &mut j).ok()?;
        // joints and drivers only (normalization rows are not part of Φ_q here)
        Some(j.rows(0, nh).into_owned())
    };
    let (j0, j1) = (jac(reference)?, jac(at)?);
    let sv0 = j0.svd(false, false).singular_values;
    let scale0 = sv0.max().max(1.0);
    let rank0 = sv0.iter().filter(|&&s| s > 1e-9 * scale0).count();
    if rank0 == 0 {
        return None;
    }
    let svd = j1.svd(true, false);
    let mut order: Vec<usize> = (0..svd.singular_values.len()).collect();
    order.sort_by(|&a, &b| svd.singular_values[b].total_cmp(&svd.singular_values[a]));
    // the rank0-th largest: the smallest that was nonzero at the start
    let k = order[rank0 - 1];
    let s_max = svd.singular_values[order[0]].max(f64::MIN_POSITIVE);
    let s_min = svd.singular_values[k];
    let u = svd.u.as_ref()?.column(k).into_owned();
    let row = (0..u.len()).max_by(|&a, &b| u[a].abs().total_cmp(&u[b].abs()))?;
    let place = sys
        .source_of_row(row)
        .map_or_else(|| format!("row {row}"), |src| sys.source_name(model, src));
    Some(format!(
        "loop-closure Jacobian Φ_q: σ_min/σ_max = {:.1e} (the smallest of the {rank0} singular values that are nonzero at the start){}; its singular direction is mostly on {place}",
        s_min / s_max,
        if s_min < 1e-3 * s_max {
            ", near singular"
        } else {
            ""
        }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds steps of sizes `h(k)` from t = 0; the index of the first collapse.
    fn first_collapse(n: usize, t_end: f64, h: impl Fn(usize) -> f64) -> Option<usize> {
        let mut w = StepWatch::default();
        let mut t = 0.0;
        w.step(t, t_end, 1e6);
        for k in 0..n {
            t += h(k);
            if w.step(t, t_end, 1e6).is_some() {
                return Some(k);
            }
        }
        None
    }

    #[test]
    fn steady_and_slowly_varying_steps_never_collapse() {
        assert_eq!(first_collapse(100_000, 1e3, |_| 1e-3), None);
        // a stiff phase: steps shrinking by 1e4 over the run
        assert_eq!(
            first_collapse(50_000, 1e3, |k| 1e-3 * 10f64.powf(-4.0 * k as f64 / 5e4)),
            None
        );
    }

    #[test]
    fn a_short_dip_does_not_count_a_sustained_collapse_does() {
        // 30 tiny steps (a discontinuity), then back to normal
        let dip = |k: usize| {
            if (5000..5030).contains(&k) {
                1e-14
            } else {
                1e-3
            }
        };
        assert_eq!(first_collapse(20_000, 1e3, dip), None);
        // from step 5000 on, steps of 1e-13: found within about a window
        let k = first_collapse(20_000, 1e3, |k| if k < 5000 { 1e-3 } else { 1e-13 }).unwrap();
        assert!((5000..5000 + WINDOW + 8).contains(&k), "{k}");
    }

    #[test]
    fn a_fall_that_still_fits_the_budget_is_not_a_collapse() {
        // 1e-7 of the median, but the remaining 1e-6 s take only 1e3 steps
        let k = first_collapse(20_000, 5.000_001, |k| if k < 5000 { 1e-3 } else { 1e-10 });
        assert_eq!(k, None);
    }
}
