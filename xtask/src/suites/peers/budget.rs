//! How long the `peers` suite may spend: the repeat budget of a timed run and a limit
//! on one run of a peer, predicted from the same configuration on the smaller cases
//! before the peer's script is started (MuJoCo's RK4 at h = 1e-4 took 933 s on the
//! 256-link chain; on the 1024-link chain it would run for hours).
//!
//! `MBS_PEERS_BUDGET=<s>` sets the repeat budget (default [`REPEAT_BUDGET_S`]);
//! `MBS_PEERS_RUN_LIMIT=<s>` the largest predicted time of one peer run (default
//! [`RUN_LIMIT_S`]).

use std::collections::HashMap;

/// Stop repeating a timed run once its repeats took this long \[s\].
pub const REPEAT_BUDGET_S: f64 = 120.0;
/// A peer configuration predicted to take longer than this for one run \[s\] is not
/// started on the case.
pub const RUN_LIMIT_S: f64 = 600.0;
/// Exponent of the time in the number of bodies assumed from a single earlier
/// measurement (optimistic: a configuration is skipped only when even linear growth
/// exceeds the limit); two measurements give their own exponent.
const FIRST_EXPONENT: f64 = 1.0;

fn env_seconds(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v > 0.0)
        .unwrap_or(default)
}

/// The repeat budget \[s\] (`MBS_PEERS_BUDGET`).
pub fn repeat_budget() -> f64 {
    env_seconds("MBS_PEERS_BUDGET", REPEAT_BUDGET_S)
}

/// One run of a configuration: bodies, horizon \[s\], median wall time \[s\].
#[derive(Clone, Copy, Debug)]
struct Point {
    bodies: f64,
    t_end: f64,
    seconds: f64,
}

/// Predicts a peer configuration's time on the next case from its earlier cases.
#[derive(Debug, Default)]
pub struct RunPredictor {
    /// (engine, variant name) → the runs measured, in case order.
    seen: HashMap<(String, String), Vec<Point>>,
    limit: f64,
}

impl RunPredictor {
    pub fn new() -> Self {
        Self {
            seen: HashMap::new(),
            limit: env_seconds("MBS_PEERS_RUN_LIMIT", RUN_LIMIT_S),
        }
    }

    /// Records a measured run.
    pub fn record(&mut self, engine: &str, variant: &str, bodies: usize, t_end: f64, s: f64) {
        if s.is_finite() && s > 0.0 {
            self.seen
                .entry((engine.into(), variant.into()))
                .or_default()
                .push(Point {
                    bodies: bodies as f64,
                    t_end,
                    seconds: s,
                });
        }
    }

    /// The predicted time of one run \[s\] on `bodies` bodies over `t_end`, with the
    /// exponent used; `None` without an earlier measurement. Time is taken
    /// proportional to the horizon and to bodies^k, k from the last two runs
    /// (clamped to [0.5, 3]) or [`FIRST_EXPONENT`] after one.
    pub fn predict(
        &self,
        engine: &str,
        variant: &str,
        bodies: usize,
        t_end: f64,
    ) -> Option<(f64, f64)> {
        let v = self.seen.get(&(engine.to_string(), variant.to_string()))?;
        let last = *v.last()?;
        let k = match v.len() {
            0 => return None,
            1 => FIRST_EXPONENT,
            n => {
                let a = v[n - 2];
                let rate = |p: Point| p.seconds / p.t_end;
                let k = (rate(last) / rate(a)).ln() / (last.bodies / a.bodies).ln();
                if k.is_finite() {
                    k.clamp(0.5, 3.0)
                } else {
                    FIRST_EXPONENT
                }
            }
        };
        let s = last.seconds * (t_end / last.t_end) * (bodies as f64 / last.bodies).powf(k);
        Some((s, k))
    }

    /// Removes from `variants` (`{"engine": [{"name": …}, …]}`) the configurations
    /// predicted above the limit; returns a note per removed one.
    pub fn drop_too_slow(
        &self,
        variants: &mut serde_json::Value,
        bodies: usize,
        t_end: f64,
    ) -> Vec<(String, String, String)> {
        let mut notes = Vec::new();
        let Some(map) = variants.as_object_mut() else {
            return notes;
        };
        for (engine, list) in map.iter_mut() {
            let Some(list) = list.as_array_mut() else {
                continue;
            };
            list.retain(|v| {
                let name = v.get("name").and_then(|n| n.as_str()).unwrap_or_default();
                match self.predict(engine, name, bodies, t_end) {
                    Some((s, k)) if s > self.limit => {
                        notes.push((
                            engine.clone(),
                            name.to_string(),
                            format!(
                                "not run: predicted {s:.0} s for one run (time ∝ horizon × bodies^{k:.2} from its smaller cases) > the limit {:.0} s (MBS_PEERS_RUN_LIMIT)",
                                self.limit
                            ),
                        ));
                        false
                    }
                    _ => true,
                }
            });
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prediction_uses_the_measured_exponent_and_the_horizon() {
        let mut p = RunPredictor {
            seen: HashMap::new(),
            limit: 100.0,
        };
        assert!(p.predict("e", "v", 64, 10.0).is_none());
        p.record("e", "v", 16, 10.0, 1.0);
        let (s, k) = p.predict("e", "v", 64, 10.0).unwrap();
        assert!((k - 1.0).abs() < 1e-12 && (s - 4.0).abs() < 1e-12);
        p.record("e", "v", 64, 10.0, 16.0);
        // quadratic from the two runs; a tenth of the horizon
        let (s, k) = p.predict("e", "v", 256, 1.0).unwrap();
        assert!((k - 2.0).abs() < 1e-12, "{k}");
        assert!((s - 25.6).abs() < 1e-9, "{s}");
        let mut v = serde_json::json!({"e": [{"name": "v"}, {"name": "w"}]});
        assert!(p.drop_too_slow(&mut v, 256, 1.0).is_empty());
        let notes = p.drop_too_slow(&mut v, 1024, 10.0);
        assert_eq!(notes.len(), 1);
        assert_eq!(v["e"].as_array().unwrap().len(), 1);
        assert_eq!(v["e"][0]["name"], "w");
    }
}
