//! `manifest.json`: what each file of an output directory holds (format, meaning, and
//! for tables every column with its unit), written by `mbs run --out DIR`.
//!
//! ```
//! let traj = mbs::Simulation::builtin("double-pendulum")?.t_end(0.1).samples(5).run()?;
//! let dir = std::env::temp_dir().join("mbs-doc-manifest");
//! let files = traj.write_all(&dir)?;
//! let model = mbs::builtin("double-pendulum")?;
//! let path = mbs::manifest::write(&dir, &traj, &model, &files)?;
//! let m: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
//! assert_eq!(m["files"][0]["file"], "trajectory.csv");
//! assert_eq!(m["files"][0]["columns"][0]["unit"], "s");
//! assert_eq!(m["bodies"][0]["name"], "link1");          // mass, centre of mass, inertia
//! assert!(m["bodies"][0]["mass"].as_f64().unwrap() > 0.0);
//! # Ok::<(), mbs::Error>(())
//! ```

use std::path::{Path, PathBuf};

use mbs_model::Model;
use serde::Serialize;

use crate::error::Error;
use crate::trajectory::{COMPONENTS, RunStatus, SCALAR_COLUMNS, Trajectory};

/// The manifest's own file name.
pub const FILE_NAME: &str = "manifest.json";

/// A column of a table: name, unit (`"1"` for numbers without unit) and meaning.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Column {
    /// Header in the file.
    pub name: String,
    /// SI unit.
    pub unit: String,
    /// What it is.
    pub meaning: String,
}

/// One file of the output directory.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Entry {
    /// File name, relative to the output directory.
    pub file: String,
    /// `csv`, `json`, `png`, `svg`, `html`.
    pub format: String,
    /// What it holds.
    pub description: String,
    /// Its columns (tables only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<Column>,
}

/// The manifest of a run's output directory.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Manifest {
    /// The program that wrote the directory and its version (`mbs 0.1.0`).
    pub written_by: String,
    /// How the run ended: `complete`, `interrupted` (stopped by a signal: the files go
    /// up to `t_reached`) or `failed` (the reason in `reason`).
    pub status: RunStatus,
    /// The last sample time in the files (`null` without samples).
    pub t_reached: Option<f64>,
    /// Why the run stopped early (failed or interrupted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Model, method and integrator of the run.
    pub model: String,
    /// Method.
    pub method: String,
    /// Integrator with its settings.
    pub integrator: String,
    /// Every file written, in order.
    pub files: Vec<Entry>,
    /// Each body's mass, centre of mass and centroidal inertia, computed from shapes
    /// or given (as `mbs check` shows them).
    pub bodies: Vec<crate::check::BodyMass>,
}

fn column(name: impl Into<String>, unit: &str, meaning: impl Into<String>) -> Column {
    Column {
        name: name.into(),
        unit: unit.into(),
        meaning: meaning.into(),
    }
}

/// Unit and meaning of a CSV column before the per-body ones.
fn scalar_column(name: &str) -> (&'static str, &'static str) {
    match name {
        "t" => ("s", "time"),
        "kinetic_energy" => ("J", "kinetic energy T"),
        "potential_energy" => ("J", "potential energy V (gravity and springs)"),
        "total_energy" => ("J", "total energy T + V"),
        "phi_norm" => (
            "mixed (m; 1 for orientation rows)",
            "‖Φ‖₂, holonomic constraint violation",
        ),
        "phi_dot_norm" => (
            "mixed (m/s; 1/s)",
            "‖Φ̇‖₂ = ‖Φ_q q̇ + Φ_t‖₂, velocity-level violation",
        ),
        "phi_ddot_norm" => (
            "mixed (m/s²; 1/s²)",
            "‖Φ̈‖₂, acceleration-level violation (empty where unknown)",
        ),
        _ => ("", ""),
    }
}

/// Unit and meaning of a per-body component.
fn component(c: &str) -> (&'static str, &'static str) {
    match c {
        "x" | "y" | "z" => ("m", "centre of mass, global frame"),
        "e0" | "e1" | "e2" | "e3" => ("1", "Euler parameter of the body orientation (e0 scalar)"),
        "vx" | "vy" | "vz" => ("m/s", "velocity of the centre of mass, global frame"),
        _ => ("rad/s", "angular velocity, global frame"),
    }
}

fn trajectory_columns(traj: &Trajectory) -> Vec<Column> {
    let mut cols: Vec<Column> = SCALAR_COLUMNS
        .iter()
        .map(|n| {
            let (unit, meaning) = scalar_column(n);
            column(*n, unit, meaning)
        })
        .collect();
    for b in &traj.body_names {
        for c in COMPONENTS {
            let (unit, meaning) = component(c);
            cols.push(column(
                format!("{b}.{c}"),
                unit,
                format!("{b}: {c}, {meaning}"),
            ));
        }
    }
    cols
}

/// The entry for a file written by `mbs`, by its name.
fn describe(traj: &Trajectory, name: &str) -> Entry {
    let format = Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_string();
    let stem = Path::new(name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("");
    let (description, columns) = match (stem, format.as_str()) {
        ("trajectory", "csv") => (
            "one row per output sample: time, energies, constraint violations, then 13 columns per body (pose, Euler parameters, velocities)".to_string(),
            trajectory_columns(traj),
        ),
        ("trajectory", "json") => (
            "the whole run: model, method, integrator, statistics, summary, the columns of trajectory.csv as arrays, per body position/euler_params/velocity/omega per sample, multipliers".to_string(),
            Vec::new(),
        ),
        ("multipliers", "csv") => (
            "Lagrange multipliers λ per sample, one column per constraint row (units those of the row's generalized force)".to_string(),
            vec![
                column("t", "s", "time"),
                column("lambda_<i>", "mixed (N, N·m, …)", "multiplier of constraint row i"),
            ],
        ),
        ("joints", "csv") => (
            "one row per output sample: per joint its coordinates and rates in the joint frame (marker i axes), the reaction force and torque on body j at marker j's origin (global and joint frame), per driver its effort; the unit of each column is in its header".to_string(),
            Vec::new(),
        ),
        ("joints", "json") => (
            "the columns of joints.csv and multipliers.csv with their meanings, as arrays".to_string(),
            Vec::new(),
        ),
        ("energy_balance", "csv") => (
            "one row per output sample: kinetic and potential energy, work of drivers, dampers and applied forces since t0, and the balance residual [J]".to_string(),
            Vec::new(),
        ),
        ("energy_error", _) => ("plot of E(t) − E(0) [J] against t [s]".to_string(), Vec::new()),
        ("energy", _) => ("plot of kinetic, potential and total energy [J] against t [s]".to_string(), Vec::new()),
        ("constraints", _) => ("plot of ‖Φ‖, ‖Φ̇‖, ‖Φ̈‖ against t [s], log scale".to_string(), Vec::new()),
        ("coordinates", _) => ("plot of the chosen body coordinates against t [s]".to_string(), Vec::new()),
        ("animation", "html") => (
            "the motion in 3-D with play/pause, time slider, speed, orbiting camera and plots; self-contained (three.js and the data embedded), opens offline in a web browser".to_string(),
            Vec::new(),
        ),
        _ => ("written by mbs".to_string(), Vec::new()),
    };
    Entry {
        file: name.to_string(),
        format,
        description,
        columns,
    }
}

/// The manifest of `files` (paths inside one output directory) of a run of `model`.
pub fn manifest(traj: &Trajectory, model: &Model, files: &[PathBuf]) -> Manifest {
    Manifest {
        written_by: format!("mbs {}", env!("CARGO_PKG_VERSION")),
        status: traj.status,
        t_reached: traj.t_reached(),
        reason: traj.failure.clone(),
        model: traj.model.clone(),
        method: traj.method.clone(),
        integrator: traj.integrator.clone(),
        files: files
            .iter()
            .filter_map(|f| f.file_name().and_then(|n| n.to_str()))
            .map(|name| describe(traj, name))
            .collect(),
        bodies: crate::check::body_masses(model),
    }
}

/// Writes `dir/manifest.json` describing `files` and itself; returns its path.
pub fn write(
    dir: &Path,
    traj: &Trajectory,
    model: &Model,
    files: &[PathBuf],
) -> Result<PathBuf, Error> {
    let path = dir.join(FILE_NAME);
    let mut m = manifest(traj, model, files);
    for e in m
        .files
        .iter_mut()
        .filter(|e| crate::joints::describes(&e.file))
    {
        e.columns = crate::joints::header_columns(&dir.join(&e.file))
            .into_iter()
            .map(|(name, unit, meaning)| column(name, &unit, meaning))
            .collect();
    }
    m.files.push(Entry {
        file: FILE_NAME.to_string(),
        format: "json".to_string(),
        description: "this list of the files in the directory and what they hold".to_string(),
        columns: Vec::new(),
    });
    let text = serde_json::to_string_pretty(&m).map_err(|e| Error::output(&path, e))?;
    std::fs::write(&path, text).map_err(|e| Error::output(&path, e))?;
    Ok(path)
}

/// One method of a comparison's manifest.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ComparisonRun {
    /// The method with its parameters.
    pub method: String,
    /// Its sub-directory (with its own manifest), if it produced samples.
    pub directory: Option<String>,
    /// How its run ended (`skipped`: it could not be run).
    pub status: String,
    /// Why it stopped early or was skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The manifest of `mbs compare --out DIR`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ComparisonManifest {
    /// The program that wrote the directory and its version.
    pub written_by: String,
    /// `complete` when every method reached t_end, `interrupted` when a signal
    /// stopped the comparison, else `failed`.
    pub status: RunStatus,
    /// The methods in the order given.
    pub runs: Vec<ComparisonRun>,
    /// The files and sub-directories at the top level.
    pub files: Vec<String>,
}

/// Writes `dir/manifest.json` for a comparison whose top-level files and
/// sub-directories are `files`; returns its path.
pub fn write_comparison(
    dir: &Path,
    cmp: &crate::compare::Comparison,
    files: &[PathBuf],
) -> Result<PathBuf, Error> {
    use crate::compare::Outcome;
    let runs: Vec<ComparisonRun> = cmp
        .runs
        .iter()
        .map(|(m, o)| {
            let sub = Some(m.to_string().replace([':', '='], "_"));
            let (directory, status, reason) = match o {
                Outcome::Done(t) => (sub, t.status.name(), None),
                Outcome::Failed { message, partial } => {
                    (sub, partial.status.name(), Some(message.clone()))
                }
                Outcome::Skipped(why) => (None, "skipped", Some(why.clone())),
            };
            ComparisonRun {
                method: m.to_string(),
                directory,
                status: status.to_string(),
                reason,
            }
        })
        .collect();
    let status = if runs.iter().all(|r| r.status == "complete") {
        RunStatus::Complete
    } else if runs.iter().any(|r| r.status == "interrupted") {
        RunStatus::Interrupted
    } else {
        RunStatus::Failed
    };
    let mut names: Vec<String> = files
        .iter()
        .filter_map(|f| f.file_name().and_then(|n| n.to_str()))
        .map(str::to_string)
        .collect();
    names.push(FILE_NAME.to_string());
    let m = ComparisonManifest {
        written_by: format!("mbs {}", env!("CARGO_PKG_VERSION")),
        status,
        runs,
        files: names,
    };
    let path = dir.join(FILE_NAME);
    let text = serde_json::to_string_pretty(&m).map_err(|e| Error::output(&path, e))?;
    std::fs::write(&path, text).map_err(|e| Error::output(&path, e))?;
    Ok(path)
}
