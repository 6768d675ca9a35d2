//! The result of a simulation: samples of states with derived quantities (energies,
//! constraint violations), multipliers, statistics and wall time; CSV and JSON writers.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use mbs_model::State;
use nalgebra::{Vector3, Vector4};
use serde::Serialize;

use crate::error::Error;
use crate::frontend::RunStats;
use crate::numfmt::{SciBuf, write_row};

/// A simulated trajectory. Sample `k` is at time `t[k]`; every per-sample vector has
/// `t.len()` entries. Quantities a method cannot provide are `None` (per sample) or NaN.
///
/// ```
/// let traj = mbs::Simulation::builtin("double-pendulum")?
///     .method("alf-index3".parse()?)
///     .integrator("trapezoidal:h=0.01".parse()?)
///     .t_end(0.2)
///     .samples(20)
///     .run()?;
/// let tip = traj.body_index("link2").unwrap();
/// assert!(traj.position(20, tip).y < 0.0);               // it falls
/// assert!(traj.multipliers[20].is_some());                // ALF-INDEX3 gives λ*
/// let dir = std::env::temp_dir().join("mbs-doc-trajectory");
/// let files = traj.write_all(&dir)?;                       // CSV, JSON, multipliers
/// assert!(files.iter().all(|f| f.exists()));
/// # Ok::<(), mbs::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Trajectory {
    /// Model name.
    pub model: String,
    /// Method (as `Method`'s `Display`).
    pub method: String,
    /// Integrator with its settings (as `IntegratorChoice`'s `Display`).
    pub integrator: String,
    /// Body names, in body order.
    pub body_names: Vec<String>,
    /// Sample times.
    pub t: Vec<f64>,
    /// States (absolute coordinates, layout `EulerParamsPdot`).
    pub states: Vec<State>,
    /// Kinetic energy T.
    pub kinetic_energy: Vec<f64>,
    /// Potential energy V (gravity and springs).
    pub potential_energy: Vec<f64>,
    /// Total energy T + V.
    pub total_energy: Vec<f64>,
    /// ‖Φ‖₂ (holonomic constraints, Euler-parameter normalization excluded).
    pub phi_norm: Vec<f64>,
    /// ‖Φ̇‖₂ = ‖Φ_q q̇ + Φ_t‖₂ (holonomic and nonholonomic rows).
    pub phi_dot_norm: Vec<f64>,
    /// ‖Φ̈‖₂ = ‖Φ_q q̈ − γ‖₂ with the method's accelerations, or by a finite
    /// difference of Φ̇ between samples (NaN where neither is possible).
    pub phi_ddot_norm: Vec<f64>,
    /// Multipliers λ per sample, where the method yields them.
    pub multipliers: Vec<Option<Vec<f64>>>,
    /// Integrator statistics.
    pub stats: RunStats,
    /// Wall time of the integration in seconds (excluding the facade's measurements).
    pub wall_time: f64,
    /// How the run ended (complete, interrupted, failed).
    pub status: RunStatus,
    /// Why the run stopped early, if it did.
    pub failure: Option<String>,
    /// How far the initial state was moved onto the constraint manifold, if it was
    /// inconsistent (see [`crate::Simulation::run`]).
    pub initial_assembly: Option<String>,
    /// Passes near singular configurations of the constraint Jacobian seen at the
    /// samples (see `crate::guard`).
    pub singular_passes: Vec<crate::guard::SingularPass>,
    /// Energy balance (works of drivers, dampers and applied forces), if it could be
    /// evaluated; [`Trajectory::energy_error`] is its residual.
    pub energy_balance: Option<crate::energy_balance::EnergyBalance>,
}

/// How a run ended, as written to `manifest.json` and `trajectory.json` (`"status"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RunStatus {
    /// The run reached its end time.
    #[default]
    Complete,
    /// The run was stopped on request (a signal, [`crate::StopHandle`]); the samples
    /// go up to the time it reached.
    Interrupted,
    /// The run failed (the reason is in [`Trajectory::failure`]); the samples go up
    /// to the failure.
    Failed,
}

impl RunStatus {
    /// The name written to the output files.
    pub fn name(self) -> &'static str {
        match self {
            RunStatus::Complete => "complete",
            RunStatus::Interrupted => "interrupted",
            RunStatus::Failed => "failed",
        }
    }
}

impl Trajectory {
    /// The last sample time (the time the run reached), if any sample was recorded.
    pub fn t_reached(&self) -> Option<f64> {
        self.t.last().copied()
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.t.len()
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.t.is_empty()
    }

    /// Number of bodies.
    pub fn n_bodies(&self) -> usize {
        self.body_names.len()
    }

    /// Index of a body by name.
    pub fn body_index(&self, name: &str) -> Option<usize> {
        self.body_names.iter().position(|n| n == name)
    }

    /// Position of body `body` at sample `k`.
    pub fn position(&self, k: usize, body: usize) -> Vector3<f64> {
        self.states[k].position(body)
    }

    /// Euler parameters of body `body` at sample `k`.
    pub fn euler_params(&self, k: usize, body: usize) -> Vector4<f64> {
        self.states[k].euler_params(body)
    }

    /// Velocity ṙ of body `body` at sample `k`.
    pub fn velocity(&self, k: usize, body: usize) -> Vector3<f64> {
        self.states[k].velocity(body)
    }

    /// Global angular velocity ω of body `body` at sample `k`.
    pub fn omega(&self, k: usize, body: usize) -> Vector3<f64> {
        self.states[k].omega(body)
    }

    /// The energy balance residual E(t) − E(t₀) − W(t) for every sample, W the work of
    /// drivers, dampers and applied forces (`crate::energy_balance`); E(t) − E(t₀)
    /// when there is no balance.
    pub fn energy_error(&self) -> Vec<f64> {
        if let Some(b) = &self.energy_balance {
            return b.residual.clone();
        }
        let e0 = self.total_energy.first().copied().unwrap_or(0.0);
        self.total_energy.iter().map(|e| e - e0).collect()
    }

    /// One line when the explicit run's step was held by stability (Hairer's test of
    /// RK45/DOP853 fired, [`RunStats::stiffness`], see
    /// [`mbs_integrators::stiffness`]), suggesting the implicit integrator; `None`
    /// otherwise.
    pub fn stiffness_note(&self) -> Option<String> {
        let r = self.stats.stiffness?;
        let name = self.integrator.split(':').next().unwrap_or("");
        let test = if name == "dop853" { "DOP853" } else { "DOPRI5" };
        Some(format!(
            "stiff: step limited by stability from t = {} s ({test} stiffness test, \
             h·|λ| ≈ {:.3} > {} on {} steps); try --integrator radau5",
            crate::sci(r.first_t),
            r.h_lambda,
            r.boundary,
            r.steps_at_boundary
        ))
    }

    /// max |E(t) − E(t₀) − W(t)| (the energy drift of a conservative system, the
    /// balance residual of any).
    pub fn energy_drift(&self) -> f64 {
        max_finite(self.energy_error().iter().map(|e| e.abs()))
    }

    /// Largest energy error as a percentage of the largest kinetic energy (Bayo–Ledesma
    /// Table 1).
    pub fn energy_error_percent_of_max_kinetic(&self) -> f64 {
        let tmax = max_finite(self.kinetic_energy.iter().copied());
        100.0 * self.energy_drift() / tmax
    }

    /// max ‖Φ‖ over the samples.
    pub fn max_phi(&self) -> f64 {
        max_finite(self.phi_norm.iter().copied())
    }
    /// max ‖Φ̇‖ over the samples.
    pub fn max_phi_dot(&self) -> f64 {
        max_finite(self.phi_dot_norm.iter().copied())
    }
    /// max ‖Φ̈‖ over the samples (NaN entries skipped).
    pub fn max_phi_ddot(&self) -> f64 {
        max_finite(self.phi_ddot_norm.iter().copied())
    }

    /// The largest difference of body positions and Euler parameters between two
    /// trajectories at their common samples (max over samples and coordinates).
    pub fn max_position_difference(&self, other: &Trajectory) -> f64 {
        let n = self.len().min(other.len());
        let mut d: f64 = 0.0;
        for k in 0..n {
            if (self.t[k] - other.t[k]).abs() > 1e-9 * (1.0 + self.t[k].abs()) {
                break;
            }
            let (a, b) = (&self.states[k].q, &other.states[k].q);
            if a.len() != b.len() {
                return f64::NAN;
            }
            d = d.max((a - b).amax());
        }
        d
    }

    /// Writes the samples as CSV: `t`, energies, violation norms, then per body
    /// `<body>.x,y,z,e0,e1,e2,e3,vx,vy,vz,wx,wy,wz` (ω global).
    pub fn write_csv(&self, path: &Path) -> Result<(), Error> {
        let out = |e: csv::Error| Error::output(path, e);
        let mut w = csv::Writer::from_path(path).map_err(out)?;
        let mut header: Vec<String> = SCALAR_COLUMNS.iter().map(|s| s.to_string()).collect();
        for b in &self.body_names {
            for c in COMPONENTS {
                header.push(format!("{b}.{c}"));
            }
        }
        w.write_record(&header).map_err(out)?;
        let mut buf = SciBuf::default();
        for k in 0..self.len() {
            let scalars = [
                self.t[k],
                self.kinetic_energy[k],
                self.potential_energy[k],
                self.total_energy[k],
                self.phi_norm[k],
                self.phi_dot_norm[k],
                self.phi_ddot_norm[k],
            ];
            let bodies = (0..self.n_bodies()).flat_map(|i| self.body_row(k, i));
            write_row(&mut w, &mut buf, scalars.into_iter().chain(bodies)).map_err(out)?;
        }
        w.flush().map_err(|e| Error::output(path, e))
    }

    /// Writes the multipliers as CSV (`t, lambda_0, …`), if the method yields them;
    /// returns whether a file was written.
    pub fn write_multipliers_csv(&self, path: &Path) -> Result<bool, Error> {
        let m = self
            .multipliers
            .iter()
            .flatten()
            .map(Vec::len)
            .max()
            .unwrap_or(0);
        if m == 0 {
            return Ok(false);
        }
        let out = |e: csv::Error| Error::output(path, e);
        let mut w = csv::Writer::from_path(path).map_err(out)?;
        let mut header = vec!["t".to_string()];
        header.extend((0..m).map(|i| format!("lambda_{i}")));
        w.write_record(&header).map_err(out)?;
        let mut buf = SciBuf::default();
        for (k, lam) in self.multipliers.iter().enumerate() {
            // a missing multiplier is an empty field, as a non-finite one
            let values = (0..m).map(|i| {
                lam.as_ref()
                    .and_then(|l| l.get(i))
                    .copied()
                    .unwrap_or(f64::NAN)
            });
            write_row(&mut w, &mut buf, std::iter::once(self.t[k]).chain(values)).map_err(out)?;
        }
        w.flush().map_err(|e| Error::output(path, e))?;
        Ok(true)
    }

    /// The machine-readable form written by [`Trajectory::write_json`].
    pub fn to_json_value(&self) -> serde_json::Value {
        serde_json::to_value(self.json()).unwrap_or(serde_json::Value::Null)
    }

    /// The document of [`Trajectory::to_json_value`], serialized straight from the
    /// trajectory's arrays (no tree of values in between); its keys are in the
    /// order of the value's (sorted) maps, so the text is the same.
    fn json(&self) -> JsonTrajectory<'_> {
        let bodies: Vec<JsonBody> = self
            .body_names
            .iter()
            .enumerate()
            .map(|(i, name)| JsonBody {
                name,
                position: (0..self.len())
                    .map(|k| self.position(k, i).into())
                    .collect(),
                euler_params: (0..self.len())
                    .map(|k| self.euler_params(k, i).into())
                    .collect(),
                velocity: (0..self.len())
                    .map(|k| self.velocity(k, i).into())
                    .collect(),
                omega: (0..self.len()).map(|k| self.omega(k, i).into()).collect(),
            })
            .collect();
        JsonTrajectory {
            model: &self.model,
            method: &self.method,
            integrator: &self.integrator,
            wall_time_s: self.wall_time,
            // a map with sorted keys, as every object of the document
            stats: serde_json::to_value(self.stats).unwrap_or(serde_json::Value::Null),
            status: self.status,
            t_reached: self.t_reached(),
            failure: self.failure.as_deref(),
            initial_assembly: self.initial_assembly.as_deref(),
            summary: JsonSummary {
                samples: self.len(),
                energy_drift: self.energy_drift(),
                max_phi: self.max_phi(),
                max_phi_dot: self.max_phi_dot(),
                max_phi_ddot: self.max_phi_ddot(),
            },
            t: &self.t,
            kinetic_energy: &self.kinetic_energy,
            potential_energy: &self.potential_energy,
            total_energy: &self.total_energy,
            phi_norm: &self.phi_norm,
            phi_dot_norm: &self.phi_dot_norm,
            phi_ddot_norm: &self.phi_ddot_norm,
            bodies,
            multipliers: &self.multipliers,
        }
    }

    /// Writes the whole trajectory as JSON (non-finite numbers as `null`).
    pub fn write_json(&self, path: &Path) -> Result<(), Error> {
        let f = File::create(path).map_err(|e| Error::output(path, e))?;
        let mut w = BufWriter::new(f);
        serde_json::to_writer(&mut w, &self.json()).map_err(|e| Error::output(path, e))?;
        w.flush().map_err(|e| Error::output(path, e))
    }

    /// Writes `trajectory.csv`, `trajectory.json` and (if any) `multipliers.csv` into
    /// `dir` (created if needed); returns the files written.
    pub fn write_all(&self, dir: &Path) -> Result<Vec<std::path::PathBuf>, Error> {
        std::fs::create_dir_all(dir).map_err(|e| Error::output(dir, e))?;
        let csv = dir.join("trajectory.csv");
        let json = dir.join("trajectory.json");
        self.write_csv(&csv)?;
        self.write_json(&json)?;
        let mut files = vec![csv, json];
        let lam = dir.join("multipliers.csv");
        if self.write_multipliers_csv(&lam)? {
            files.push(lam);
        }
        Ok(files)
    }

    fn body_row(&self, k: usize, i: usize) -> [f64; 13] {
        let (r, p, v, w) = (
            self.position(k, i),
            self.euler_params(k, i),
            self.velocity(k, i),
            self.omega(k, i),
        );
        [
            r.x, r.y, r.z, p[0], p[1], p[2], p[3], v.x, v.y, v.z, w.x, w.y, w.z,
        ]
    }

    /// A coordinate of a body over time, by component name (`x`, `y`, `z`, `e0`…`e3`,
    /// `vx`, `vy`, `vz`, `wx`, `wy`, `wz`).
    pub fn coordinate(&self, body: usize, component: &str) -> Option<Vec<f64>> {
        let c = COMPONENTS.iter().position(|c| *c == component)?;
        Some((0..self.len()).map(|k| self.body_row(k, body)[c]).collect())
    }
}

/// The columns of the CSV before the per-body ones, in order.
pub const SCALAR_COLUMNS: [&str; 7] = [
    "t",
    "kinetic_energy",
    "potential_energy",
    "total_energy",
    "phi_norm",
    "phi_dot_norm",
    "phi_ddot_norm",
];

/// The per-body columns of the CSV, in order.
pub const COMPONENTS: [&str; 13] = [
    "x", "y", "z", "e0", "e1", "e2", "e3", "vx", "vy", "vz", "wx", "wy", "wz",
];

pub(crate) fn max_finite(it: impl Iterator<Item = f64>) -> f64 {
    let mut m = f64::NAN;
    for v in it.filter(|v| v.is_finite()) {
        m = if m.is_nan() { v } else { m.max(v) };
    }
    m
}

/// `trajectory.json`; the fields in sorted order (the order of
/// [`Trajectory::to_json_value`]'s maps, which keep their keys sorted).
#[derive(Serialize)]
struct JsonTrajectory<'a> {
    bodies: Vec<JsonBody<'a>>,
    failure: Option<&'a str>,
    initial_assembly: Option<&'a str>,
    integrator: &'a str,
    kinetic_energy: &'a [f64],
    method: &'a str,
    model: &'a str,
    multipliers: &'a [Option<Vec<f64>>],
    phi_ddot_norm: &'a [f64],
    phi_dot_norm: &'a [f64],
    phi_norm: &'a [f64],
    potential_energy: &'a [f64],
    stats: serde_json::Value,
    status: RunStatus,
    summary: JsonSummary,
    t: &'a [f64],
    t_reached: Option<f64>,
    total_energy: &'a [f64],
    wall_time_s: f64,
}

/// Fields in sorted order (see [`JsonTrajectory`]).
#[derive(Serialize)]
struct JsonSummary {
    energy_drift: f64,
    max_phi: f64,
    max_phi_ddot: f64,
    max_phi_dot: f64,
    samples: usize,
}

/// Fields in sorted order (see [`JsonTrajectory`]).
#[derive(Serialize)]
struct JsonBody<'a> {
    euler_params: Vec<[f64; 4]>,
    name: &'a str,
    omega: Vec<[f64; 3]>,
    position: Vec<[f64; 3]>,
    velocity: Vec<[f64; 3]>,
}
