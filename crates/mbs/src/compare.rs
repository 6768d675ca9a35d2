//! `mbs compare`: the same run with several methods, one table.

use std::fmt;

use crate::error::Error;
use crate::method::Method;
use crate::simulation::Simulation;
use crate::trajectory::Trajectory;

/// The outcome of one method in a [`Comparison`].
#[derive(Debug)]
pub enum Outcome {
    /// The run reached t_end.
    Done(Trajectory),
    /// The run failed; the partial trajectory is kept.
    Failed {
        /// What happened.
        message: String,
        /// The samples before the failure.
        partial: Trajectory,
    },
    /// The method could not be run (not implemented, unsupported settings).
    Skipped(String),
}

/// Several methods on one simulation.
#[derive(Debug)]
pub struct Comparison {
    /// The methods, in the order given, with their outcome.
    pub runs: Vec<(Method, Outcome)>,
}

/// Runs `sim` with each of `methods`.
///
/// ```
/// let sim = mbs::Simulation::builtin("five-bar")?.t_end(0.1).samples(10);
/// let methods = ["alf-index1".parse()?, "alf-dca-proj".parse()?, "hdca".parse()?];
/// let cmp = mbs::compare(&sim, &methods)?;
/// assert_eq!(cmp.completed().count(), 3);
/// let (d, _, _) = cmp.max_disagreement().unwrap();
/// assert!(d < 1e-4);
/// println!("{cmp}");
/// # Ok::<(), mbs::Error>(())
/// ```
/// Bad settings common to all runs (e.g. an invalid
/// end time) are returned as an error; a method that cannot run or fails is recorded in
/// its row.
pub fn compare(sim: &Simulation, methods: &[Method]) -> Result<Comparison, Error> {
    compare_with_progress(sim, methods, |_, _| {})
}

/// [`compare`] calling `progress(k, p)` during the run of method `k`.
pub fn compare_with_progress(
    sim: &Simulation,
    methods: &[Method],
    mut progress: impl FnMut(usize, crate::Progress),
) -> Result<Comparison, Error> {
    sim.output_times()?;
    let mut runs = Vec::new();
    for (k, m) in methods.iter().enumerate() {
        let run = sim
            .clone()
            .method(m.clone())
            .run_with_progress(|p| progress(k, p));
        let outcome = match run {
            Ok(t) => Outcome::Done(t),
            Err(Error::SimulationFailed(f)) => Outcome::Failed {
                message: f.error.to_string(),
                partial: f.trajectory,
            },
            Err(Error::Interrupted { reason, trajectory }) => Outcome::Failed {
                message: trajectory
                    .failure
                    .clone()
                    .unwrap_or_else(|| format!("interrupted by {reason}")),
                partial: *trajectory,
            },
            Err(e) => Outcome::Skipped(e.to_string()),
        };
        runs.push((m.clone(), outcome));
    }
    Ok(Comparison { runs })
}

impl Comparison {
    /// The trajectories that reached t_end.
    pub fn completed(&self) -> impl Iterator<Item = (&Method, &Trajectory)> {
        self.runs.iter().filter_map(|(m, o)| match o {
            Outcome::Done(t) => Some((m, t)),
            _ => None,
        })
    }

    /// The largest position/Euler-parameter difference between any two completed runs,
    /// with the pair of methods.
    pub fn max_disagreement(&self) -> Option<(f64, String, String)> {
        let done: Vec<_> = self.completed().collect();
        let mut best: Option<(f64, String, String)> = None;
        for i in 0..done.len() {
            for j in i + 1..done.len() {
                let d = done[i].1.max_position_difference(done[j].1);
                if best.as_ref().is_none_or(|b| d > b.0 || b.0.is_nan()) {
                    best = Some((d, done[i].0.to_string(), done[j].0.to_string()));
                }
            }
        }
        best
    }

    /// Whether every run reached t_end.
    pub fn all_completed(&self) -> bool {
        self.runs.iter().all(|(_, o)| matches!(o, Outcome::Done(_)))
    }
}

pub use mbs_integrators::general;

/// Formats a number for the tables (`n/a` for NaN).
pub fn sci(v: f64) -> String {
    if v.is_nan() {
        "n/a".into()
    } else {
        format!("{v:.2e}")
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<28} {:>10} {:>9} {:>9} {:>10} {:>10} {:>10} {:>10}  status",
            "method", "wall [s]", "RHS", "steps", "max ‖Φ‖", "max ‖Φ̇‖", "max ‖Φ̈‖", "ΔE max"
        )?;
        for (m, o) in &self.runs {
            let (t, status) = match o {
                Outcome::Done(t) => (Some(t), "ok".to_string()),
                Outcome::Failed { message, partial } => {
                    (Some(partial), format!("FAILED: {message}"))
                }
                Outcome::Skipped(why) => (None, format!("skipped: {why}")),
            };
            match t {
                Some(t) => writeln!(
                    f,
                    "{:<28} {:>10.4} {:>9} {:>9} {:>10} {:>10} {:>10} {:>10}  {status}",
                    m.to_string(),
                    t.wall_time,
                    t.stats.rhs_evals,
                    t.stats.accepted_steps,
                    sci(t.max_phi()),
                    sci(t.max_phi_dot()),
                    sci(t.max_phi_ddot()),
                    sci(t.energy_drift()),
                )?,
                None => writeln!(
                    f,
                    "{:<28} {:>10} {:>9} {:>9} {:>10} {:>10} {:>10} {:>10}  {status}",
                    m.to_string(),
                    "-",
                    "-",
                    "-",
                    "-",
                    "-",
                    "-",
                    "-"
                )?,
            }
        }
        match self.max_disagreement() {
            Some((d, a, b)) => writeln!(
                f,
                "largest disagreement of positions: {} ({a} vs {b})",
                sci(d)
            ),
            None => writeln!(
                f,
                "largest disagreement of positions: n/a (fewer than two completed runs)"
            ),
        }
    }
}
