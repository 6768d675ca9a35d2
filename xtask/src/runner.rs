//! Running cases through the `mbs` facade and turning trajectories into table cells.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use mbs::model::{BodyRef, Model};
use mbs::plot::LineChart;
use mbs::{Error, IntegratorChoice, Method, Sampling, Simulation, Trajectory};
use nalgebra::Vector3;

use crate::report::{NOT_IMPLEMENTED, Plot, Suite};

/// The outcome of one run.
#[derive(Debug)]
pub enum Run {
    Done(Trajectory),
    Failed(String, Trajectory),
    NotImplemented(String),
    Error(String),
}

impl Run {
    pub fn traj(&self) -> Option<&Trajectory> {
        match self {
            Run::Done(t) => Some(t),
            _ => None,
        }
    }

    /// A cell: `f` of the trajectory, or why there is none.
    pub fn cell(&self, f: impl Fn(&Trajectory) -> String) -> String {
        match self {
            Run::Done(t) => f(t),
            Run::Failed(_, p) => match p.t.last() {
                Some(t) => format!("failed after t = {t} (see notes)"),
                None => "failed at the start (see notes)".into(),
            },
            Run::NotImplemented(_) => NOT_IMPLEMENTED.into(),
            Run::Error(m) => format!("error: {m}"),
        }
    }

    pub fn is_not_implemented(&self) -> bool {
        matches!(self, Run::NotImplemented(_))
    }
}

/// Shared state of a benchmark session.
#[derive(Debug)]
pub struct Ctx {
    pub quick: bool,
    pub dir: PathBuf,
    /// Runs that could not be set up (a bug of the suite, not of a method).
    pub errors: Vec<String>,
    /// Runs that failed (the method's failure), drained into the suite's notes.
    pub failures: Vec<String>,
    models: HashMap<String, Model>,
    /// Repeat timings of the runs, by [`timing_key`].
    timings: HashMap<String, Timing>,
    /// Share of each timed run's integration spent on output samples, by run label.
    sampling: Vec<(String, f64)>,
    /// Runs timed again with [`TIMING_INTERVALS`] output intervals.
    retimed: usize,
}

/// Share of a run's integration spent on its samples from which the run is timed
/// with [`TIMING_INTERVALS`] output intervals instead (issue #16: below 5 %).
pub const DENSE_SAMPLING_SHARE: f64 = 0.02;
/// Output intervals of the timing repeats of a densely sampled run.
pub const TIMING_INTERVALS: usize = 100;

/// How much of the timed integrations went to output samples (issue #16: below 5 %).
#[derive(Clone, Debug, serde::Serialize)]
pub struct SamplingShare {
    /// Timed runs whose sampling time was measured.
    pub runs: usize,
    /// Median share over the runs.
    pub median: f64,
    /// Largest share and its run.
    pub max: f64,
    pub max_run: String,
    /// Runs whose share is 5 % or more.
    pub above_5_percent: usize,
    /// Runs timed with [`TIMING_INTERVALS`] output intervals (their own sampling took
    /// [`DENSE_SAMPLING_SHARE`] or more of the integration).
    pub retimed: usize,
}

/// Wall times of the repeats of one run \[s\].
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Timing {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub repeats: usize,
}

/// Repeats: at least this many runs, unless their total reaches [`REPEAT_BUDGET_S`].
pub const REPEATS: usize = 5;
pub const REPEAT_BUDGET_S: f64 = 0.5;
/// Wall times below this are not resolved by the measurement (timer and scheduler).
pub const TIME_RESOLUTION_S: f64 = 1e-5;

fn timing_key(t: &Trajectory) -> String {
    format!(
        "{}|{}|{}|{:e}|{}",
        t.model,
        t.method,
        t.integrator,
        t.t.last().copied().unwrap_or(0.0),
        t.len()
    )
}

/// A duration \[s\] with three significant digits in s, ms or µs, or "< 0.01 ms" below the
/// resolution.
pub fn duration(s: f64) -> String {
    if !s.is_finite() {
        "n/a".into()
    } else if s < TIME_RESOLUTION_S {
        "< 0.01 ms".into()
    } else if s < 1e-3 {
        format!("{} µs", sig3(s * 1e6))
    } else if s < 1.0 {
        format!("{} ms", sig3(s * 1e3))
    } else {
        format!("{} s", sig3(s))
    }
}

fn sig3(v: f64) -> String {
    let d = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else if v >= 1.0 {
        2
    } else {
        3
    };
    format!("{v:.d$}")
}

impl Ctx {
    pub fn new(quick: bool, dir: PathBuf) -> Self {
        Self {
            quick,
            dir,
            errors: Vec::new(),
            failures: Vec::new(),
            models: HashMap::new(),
            timings: HashMap::new(),
            sampling: Vec::new(),
            retimed: 0,
        }
    }

    /// The sampling share over every timed run so far (`None` without one).
    pub fn sampling_share(&self) -> Option<SamplingShare> {
        let mut v: Vec<f64> = self.sampling.iter().map(|(_, x)| *x).collect();
        v.sort_by(f64::total_cmp);
        let (run, max) = self.sampling.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
        Some(SamplingShare {
            runs: v.len(),
            median: v[v.len() / 2],
            max: *max,
            max_run: run.clone(),
            above_5_percent: v.iter().filter(|x| **x >= 0.05).count(),
            retimed: self.retimed,
        })
    }

    /// A built-in model (cached).
    pub fn model(&mut self, name: &str) -> Result<Model, String> {
        if let Some(m) = self.models.get(name) {
            return Ok(m.clone());
        }
        let m = mbs::builtin(name).map_err(|e| e.to_string())?;
        self.models.insert(name.into(), m.clone());
        Ok(m)
    }

    /// `full` normally, `quick` in quick mode.
    pub fn pick<T>(&self, full: T, quick: T) -> T {
        if self.quick { quick } else { full }
    }

    /// Runs `method` on `model` (a model value) and reports progress on stderr.
    pub fn run_model(
        &mut self,
        model: &Model,
        method: &str,
        integrator: IntegratorChoice,
        t_end: f64,
        sampling: Sampling,
    ) -> Run {
        let method: Method = match method.parse() {
            Ok(m) => m,
            Err(e) => return Run::Error(e.to_string()),
        };
        let label = format!(
            "{} / {method} / {integrator} / t_end = {t_end}",
            model.name()
        );
        // the paper reproductions measure and report energy drift themselves (an
        // unstabilized formulation's drift is a result here, not a failure): the
        // wrong-motion guard is for users' runs and the conformance suite
        let sim = Simulation::new(model.clone())
            .method(method)
            .integrator(integrator)
            .t_end(t_end)
            .sampling(sampling)
            .guard(false);
        let start = Instant::now();
        let r = match sim.run() {
            Ok(t) => Run::Done(self.repeat(&sim, t)),
            Err(Error::SimulationFailed(f)) => Run::Failed(f.error.to_string(), f.trajectory),
            Err(e @ Error::NotImplemented { .. }) => Run::NotImplemented(e.to_string()),
            Err(e) => Run::Error(e.to_string()),
        };
        let what = match &r {
            Run::Done(_) => "ok".to_string(),
            Run::Failed(m, _) => {
                self.failures.push(format!("{label}: {m}"));
                format!("FAILED ({m})")
            }
            Run::NotImplemented(_) => NOT_IMPLEMENTED.to_string(),
            Run::Error(m) => {
                self.errors.push(format!("{label}: {m}"));
                format!("ERROR ({m})")
            }
        };
        eprintln!("  {label}: {what} [{:.2} s]", start.elapsed().as_secs_f64());
        r
    }

    /// Times `sim` again until [`REPEATS`] runs or [`REPEAT_BUDGET_S`] of runs, and
    /// returns `first` with the median wall time (min, max kept for [`Ctx::wall`]).
    fn repeat(&mut self, sim: &Simulation, mut first: Trajectory) -> Trajectory {
        // share of each run's integration spent on samples (median over the repeats:
        // one run's ratio of two short timings a preemption can spoil)
        let share = |t: &Trajectory| match (t.stats.integration_seconds, t.stats.sampling_seconds) {
            (Some(total), Some(sampling)) if total > 0.0 => Some(sampling / total),
            _ => None,
        };
        // a run whose samples took a visible share of its integration (samples every
        // millisecond over a cheap run) is timed with TIMING_INTERVALS output intervals:
        // the steps do not depend on the output times, so the time is the method's
        let dense = share(&first).is_some_and(|x| x >= DENSE_SAMPLING_SHARE);
        let timed = if dense {
            self.retimed += 1;
            sim.clone().samples(TIMING_INTERVALS)
        } else {
            sim.clone()
        };
        let mut shares: Vec<f64> = Vec::new();
        let mut times = Vec::new();
        if !dense {
            shares.extend(share(&first));
            times.push(first.wall_time);
        }
        while times.len() < REPEATS && times.iter().sum::<f64>() < REPEAT_BUDGET_S {
            match timed.run() {
                Ok(t) => {
                    times.push(t.wall_time);
                    shares.extend(share(&t));
                }
                Err(_) => break,
            }
        }
        if times.is_empty() {
            times.push(first.wall_time);
        }
        if !shares.is_empty() {
            shares.sort_by(f64::total_cmp);
            let label = format!("{} / {} / {}", first.model, first.method, first.integrator);
            self.sampling.push((label, shares[shares.len() / 2]));
        }
        times.sort_by(f64::total_cmp);
        let timing = Timing {
            median: times[times.len() / 2],
            min: times[0],
            max: times[times.len() - 1],
            repeats: times.len(),
        };
        first.wall_time = timing.median;
        self.timings.insert(timing_key(&first), timing);
        first
    }

    /// The repeat timing of a run made by this context.
    pub fn timing(&self, t: &Trajectory) -> Option<Timing> {
        self.timings.get(&timing_key(t)).copied()
    }

    /// Wall-time cell: median of the repeats with min–max, e.g. "12.3 ms (12.0–13.1, 5×)".
    pub fn wall(&self, t: &Trajectory) -> String {
        match self.timing(t) {
            Some(x) if x.repeats > 1 => format!(
                "{} ({}–{}, {}×)",
                duration(x.median),
                duration(x.min),
                duration(x.max),
                x.repeats
            ),
            _ => duration(t.wall_time),
        }
    }

    /// Runs `method` on the built-in `model`.
    pub fn run(
        &mut self,
        model: &str,
        method: &str,
        integrator: IntegratorChoice,
        t_end: f64,
        sampling: Sampling,
    ) -> Run {
        match self.model(model) {
            Ok(m) => self.run_model(&m, method, integrator, t_end, sampling),
            Err(e) => {
                self.errors.push(format!("{model}: {e}"));
                Run::Error(e)
            }
        }
    }

    /// Writes a chart as PNG and SVG under `plots/` and lists it in the suite (only if
    /// it has data).
    pub fn plot(&self, suite: &mut Suite, stem: &str, chart: LineChart) {
        if !chart.has_data() {
            return;
        }
        let dir = self.dir.join("plots");
        match chart.write_png_svg(&dir, stem) {
            Ok(_) => suite.plots.push(Plot {
                title: chart.title.clone(),
                png: format!("plots/{stem}.png"),
                svg: format!("plots/{stem}.svg"),
            }),
            Err(e) => suite
                .notes
                .push(format!("plot `{stem}` could not be written: {e}")),
        }
    }
}

/// Position and velocity of a marker over a trajectory.
pub fn marker_track(
    model: &Model,
    traj: &Trajectory,
    marker: &str,
) -> Option<(Vec<Vector3<f64>>, Vec<Vector3<f64>>)> {
    let id = model.marker_by_name(marker)?;
    let mk = model.marker(id);
    let BodyRef::Body(b) = mk.body else {
        return None;
    };
    let mut pos = Vec::with_capacity(traj.len());
    let mut vel = Vec::with_capacity(traj.len());
    for k in 0..traj.len() {
        let a = mbs::kinematics::euler_params::rotation(&traj.euler_params(k, b.0));
        let s = a * mk.position;
        pos.push(traj.position(k, b.0) + s);
        vel.push(traj.velocity(k, b.0) + traj.omega(k, b.0).cross(&s));
    }
    Some((pos, vel))
}

/// Rotation angle about the global z axis of each body over time (planar mechanisms).
pub fn planar_angles(traj: &Trajectory, body: usize) -> Vec<f64> {
    let mut out: Vec<f64> = (0..traj.len())
        .map(|k| {
            let p = traj.euler_params(k, body);
            2.0 * p[3].atan2(p[0])
        })
        .collect();
    // unwrap
    for k in 1..out.len() {
        while out[k] - out[k - 1] > std::f64::consts::PI {
            out[k] -= 2.0 * std::f64::consts::PI;
        }
        while out[k] - out[k - 1] < -std::f64::consts::PI {
            out[k] += 2.0 * std::f64::consts::PI;
        }
    }
    out
}

/// Drift of an error history: compares the largest |error| over the first half with the
/// largest over the whole run (ratio ≈ 1 bounded, ≈ 2 linear, ≈ 4 quadratic).
pub fn drift_type(err: &[f64], floor: f64) -> &'static str {
    let n = err.len();
    if n < 4 {
        return "—";
    }
    let m = |s: &[f64]| {
        s.iter()
            .filter(|v| v.is_finite())
            .fold(0.0f64, |a, v| a.max(v.abs()))
    };
    let (half, all) = (m(&err[..n / 2]), m(err));
    if all <= floor {
        return "none";
    }
    let r = all / half.max(floor);
    if r < 1.4 {
        "none (bounded)"
    } else if r < 2.8 {
        "linear"
    } else {
        "quadratic"
    }
}

pub fn sci(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.2e}")
    } else {
        "n/a".into()
    }
}

pub fn fixed(v: f64, digits: usize) -> String {
    if v.is_finite() {
        format!("{v:.digits$}")
    } else {
        "n/a".into()
    }
}

/// Least-squares slope of log(y) against log(x) (scaling exponent).
pub fn loglog_slope(x: &[f64], y: &[f64]) -> f64 {
    let pts: Vec<(f64, f64)> = x
        .iter()
        .zip(y)
        .filter(|(a, b)| **a > 0.0 && **b > 0.0 && b.is_finite())
        .map(|(a, b)| (a.ln(), b.ln()))
        .collect();
    let n = pts.len() as f64;
    if pts.len() < 2 {
        return f64::NAN;
    }
    let (sx, sy) = pts.iter().fold((0.0, 0.0), |(a, b), p| (a + p.0, b + p.1));
    let (mx, my) = (sx / n, sy / n);
    let (num, den) = pts.iter().fold((0.0, 0.0), |(a, b), p| {
        (a + (p.0 - mx) * (p.1 - my), b + (p.0 - mx).powi(2))
    });
    num / den
}

/// Trajectory-level summary cells used by several suites.
pub fn summary_json(r: &Run) -> serde_json::Value {
    match r {
        Run::Done(t) | Run::Failed(_, t) => serde_json::json!({
            "status": if matches!(r, Run::Done(_)) { "ok" } else { "failed" },
            "method": t.method,
            "integrator": t.integrator,
            "wall_time_s": t.wall_time,
            "stats": t.stats,
            "max_phi": t.max_phi(),
            "max_phi_dot": t.max_phi_dot(),
            "max_phi_ddot": t.max_phi_ddot(),
            "energy_drift": t.energy_drift(),
            "failure": t.failure,
        }),
        Run::NotImplemented(m) => serde_json::json!({"status": "not_implemented", "message": m}),
        Run::Error(m) => serde_json::json!({"status": "error", "message": m}),
    }
}

/// Why `method` cannot build a front-end for `model` (e.g. `aba` on a closed loop:
/// open trees only), or `None`. A suite lists such a method as not applicable instead
/// of running it into an error.
pub fn not_applicable(method: &mbs::Method, model: &mbs::Model) -> Option<String> {
    match mbs::registry::build_front_end(method, &std::sync::Arc::new(model.clone())) {
        Err(mbs::Error::Unsupported { message, .. }) => Some(format!("not applicable: {message}")),
        _ => None,
    }
}
