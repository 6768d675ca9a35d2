//! Joint results of a run: per joint the relative coordinates and rates of its markers
//! in the joint frame (marker i's axes), the reaction force and torque at the joint
//! (on body j, about marker j's origin; global and joint-frame components), and per
//! driver the effort it needs; plus the multipliers labelled by joint and row.
//!
//! The reactions come from the multipliers λ of the constrained equations of motion
//! M q̈ + Φ_qᵀλ = Q (NOTATION.md signs): `mbs_constraints::reactions` turns each joint's
//! rows of −Φ_qᵀλ into a force and a torque. λ is, by [`MultiplierSource`], either
//! solved at every output state ([`mbs_alf::MultiplierRecovery`]: the same for every
//! method, including those without multipliers or with scaled ones, such as penalty
//! forces or ALF's λ*), or the method's own λ when it gives one per row of the
//! [ṙ, ṗ] assembly.
//!
//! Columns are named `<joint>.<quantity>` with the unit in brackets, e.g.
//! `pivot.angle [rad]`, `pivot.force_x [N]`; which coordinates a joint has follows
//! the catalog of free relative motions (`mbs_constraints::joints::Freedoms`):
//! an angle and its rate about zᵢ (revolute, cylindrical), a translation and its rate
//! along zᵢ (prismatic, cylindrical), the rotation vector of marker j relative to
//! marker i and the relative angular velocity (spherical, universal, distance).
//!
//! ```
//! let sim = mbs::Simulation::builtin("double-pendulum")?.t_end(0.1).samples(5);
//! let traj = sim.run()?;
//! let jr = mbs::joints::JointResults::compute(sim.model(), &traj, mbs::joints::MultiplierSource::Recovered)?;
//! assert_eq!(jr.t.len(), 6);
//! let name = &sim.model().joints()[0].name;
//! assert!(jr.column(&format!("{name}.force_y [N]")).is_some());
//! # Ok::<(), mbs::Error>(())
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;

use mbs_constraints::joints::rows::{driver_row, joint_rows};
use mbs_constraints::joints::{Freedoms, Rotation, Translation};
use mbs_constraints::{ConstraintSource, SystemLayout, Workspace};
use mbs_constraints::{driver_effort, driver_markers, marker_pose, reaction, relative_motion};
use mbs_model::{Layout, Model, State};
use nalgebra::Vector3;
use rayon::prelude::*;

use crate::error::Error;
use crate::numfmt::SciBuf;
use crate::trajectory::Trajectory;

/// Where the multipliers of the joint results come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultiplierSource {
    /// Solved at every output state from the equations of motion (minimum norm for
    /// redundant rows): the physical λ whatever the method.
    Recovered,
    /// The method's own λ (error if a sample has none or their number is not the
    /// number of rows of the [ṙ, ṗ] assembly).
    Method,
}

/// One named column of results over the samples.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Series {
    /// Header, `<element>.<quantity> [unit]`.
    pub name: String,
    /// What it is.
    pub meaning: String,
    /// One value per sample.
    pub values: Vec<f64>,
}

/// Joint results and labelled multipliers of a trajectory (module docs).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct JointResults {
    /// Sample times \[s\].
    pub t: Vec<f64>,
    /// Joint coordinates, rates, reactions and driver efforts.
    pub columns: Vec<Series>,
    /// The multipliers, one column per constraint row `<joint>.<row> [unit]`.
    pub multipliers: Vec<Series>,
}

const XYZ: [&str; 3] = ["x", "y", "z"];

/// Column builder: a list of (name, meaning) fixed once, values pushed per sample.
struct Table {
    cols: Vec<Series>,
}

impl Table {
    fn add(&mut self, name: String, meaning: String) {
        self.cols.push(Series {
            name,
            meaning,
            values: Vec::new(),
        });
    }
    fn add3(&mut self, element: &str, quantity: &str, unit: &str, meaning: &str) {
        for c in XYZ {
            self.add(
                format!("{element}.{quantity}_{c} [{unit}]"),
                format!("{element}: {meaning}, {c} component"),
            );
        }
    }
}

/// The coordinates a joint's free motions call for (module docs).
fn coordinate_kinds(
    f: Result<Freedoms, mbs_constraints::joints::NoFreedoms>,
) -> (bool, bool, bool) {
    match f {
        Ok(f) => (
            f.rotation == Rotation::AboutZ,
            f.translation == Translation::AlongZ,
            matches!(f.rotation, Rotation::Free | Rotation::Pins),
        ),
        Err(_) => (false, false, false),
    }
}

impl JointResults {
    /// The joint results of `traj`, a run of `model`.
    pub fn compute(
        model: &Model,
        traj: &Trajectory,
        source: MultiplierSource,
    ) -> Result<Self, Error> {
        let sys = SystemLayout::new(model, Layout::EulerParamsPdot);
        let mut table = columns_table(model);
        let labels = row_labels(model, &sys);
        let mut multipliers: Vec<Series> = labels
            .iter()
            .map(|(name, meaning)| Series {
                name: name.clone(),
                meaning: meaning.clone(),
                values: Vec::new(),
            })
            .collect();
        // Samples are independent: fixed chunks in parallel, each with its own
        // workspace and recovery, sequential inside; the chunks do not depend on the
        // thread count, so neither do the results.
        let chunks: Vec<Result<Vec<(Vec<f64>, Vec<f64>)>, Error>> = traj
            .states
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(c, states)| {
                let mut eval = SampleEvaluator::new(model, source);
                states
                    .iter()
                    .enumerate()
                    .map(|(i, state)| eval.row(model, traj, c * CHUNK + i, state))
                    .collect()
            })
            .collect();
        for chunk in chunks {
            for (values, lambda) in chunk? {
                for (series, v) in table.cols.iter_mut().zip(values) {
                    series.values.push(v);
                }
                for (series, l) in multipliers.iter_mut().zip(lambda) {
                    series.values.push(l);
                }
            }
        }
        Ok(Self {
            t: traj.t.clone(),
            columns: table.cols,
            multipliers,
        })
    }

    /// A column by its full name (with the unit), e.g. `pivot.force_y [N]`.
    pub fn column(&self, name: &str) -> Option<&[f64]> {
        self.columns
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.values.as_slice())
    }

    /// Writes `t [s]` and the columns as CSV.
    pub fn write_csv(&self, path: &Path) -> Result<(), Error> {
        write_table(path, &self.t, &self.columns)
    }

    /// Writes the labelled multipliers as CSV.
    pub fn write_multipliers_csv(&self, path: &Path) -> Result<(), Error> {
        write_table(path, &self.t, &self.multipliers)
    }

    /// Writes everything (columns with meanings, multipliers) as JSON.
    pub fn write_json(&self, path: &Path) -> Result<(), Error> {
        use std::io::Write;
        // straight into the file, without the whole text in memory first
        let f = std::fs::File::create(path).map_err(|e| Error::output(path, e))?;
        let mut w = std::io::BufWriter::new(f);
        serde_json::to_writer(&mut w, self).map_err(|e| Error::output(path, e))?;
        w.flush().map_err(|e| Error::output(path, e))
    }
}

/// The (empty) columns of [`JointResults::compute`] for `model`, in order.
fn columns_table(model: &Model) -> Table {
    let mut table = Table { cols: Vec::new() };
    for jt in model.joints() {
        let n = &jt.name;
        let (angle, along, rotvec) = coordinate_kinds(Freedoms::of(&jt.kind));
        if angle {
            table.add(
                format!("{n}.angle [rad]"),
                format!("{n}: angle about z_i from x_i to x_j"),
            );
            table.add(
                format!("{n}.angle_rate [rad/s]"),
                format!("{n}: rate of the angle"),
            );
        }
        if along {
            table.add(
                format!("{n}.translation [m]"),
                format!("{n}: translation of P_j along z_i"),
            );
            table.add(
                format!("{n}.translation_rate [m/s]"),
                format!("{n}: rate of the translation"),
            );
        }
        if rotvec {
            table.add3(
                n,
                "rotation",
                "rad",
                "rotation vector of marker j relative to marker i, joint frame",
            );
            table.add3(
                n,
                "omega",
                "rad/s",
                "angular velocity of marker j relative to marker i, joint frame",
            );
        }
        table.add3(n, "force", "N", "reaction force on body j, global frame");
        table.add3(
            n,
            "torque",
            "N·m",
            "reaction torque on body j about P_j, global frame",
        );
        table.add3(
            n,
            "force_joint",
            "N",
            "reaction force on body j, joint frame (marker i axes)",
        );
        table.add3(
            n,
            "torque_joint",
            "N·m",
            "reaction torque on body j about P_j, joint frame",
        );
    }
    for d in model.drivers() {
        let unit = driver_row(&d.kind).unit;
        let unit = if unit == "N·m" { "N·m" } else { "N" };
        table.add(
            format!("{}.effort [{unit}]", d.name),
            format!(
                "{}: force or torque the driver applies along its driven coordinate",
                d.name
            ),
        );
    }
    table
}

/// The column names `<joint>.<quantity> [unit]` of [`JointResults::compute`] for
/// `model` (`joints.csv` after `t [s]`) and the names of its multipliers (`[ṙ, ṗ]`
/// rows, [`row_labels`]), known before a run.
pub fn column_names(model: &Model) -> (Vec<String>, Vec<String>) {
    let sys = SystemLayout::new(model, Layout::EulerParamsPdot);
    let columns = columns_table(model)
        .cols
        .into_iter()
        .map(|c| c.name)
        .collect();
    let multipliers = row_labels(model, &sys).into_iter().map(|l| l.0).collect();
    (columns, multipliers)
}

/// Samples per parallel chunk of [`JointResults::compute`].
const CHUNK: usize = 64;

/// The per-sample work of [`JointResults::compute`]: workspace and recovery.
struct SampleEvaluator {
    sys: SystemLayout,
    ws: Workspace,
    recovery: Option<mbs_alf::MultiplierRecovery>,
}

impl SampleEvaluator {
    fn new(model: &Model, source: MultiplierSource) -> Self {
        let sys = SystemLayout::new(model, Layout::EulerParamsPdot);
        let ws = Workspace::new(&sys);
        let recovery = (source == MultiplierSource::Recovered)
            .then(|| mbs_alf::MultiplierRecovery::new(Arc::new(model.clone())));
        Self { sys, ws, recovery }
    }

    /// The column values (in the order of the table's columns) and λ of sample `k`.
    fn row(
        &mut self,
        model: &Model,
        traj: &Trajectory,
        k: usize,
        state: &State,
    ) -> Result<(Vec<f64>, Vec<f64>), Error> {
        let (sys, ws) = (&self.sys, &mut self.ws);
        let converted;
        let s = if state.layout == Layout::EulerParamsPdot {
            state
        } else {
            converted = state.to_layout(Layout::EulerParamsPdot);
            &converted
        };
        let lambda: Vec<f64> = match self.recovery.as_mut() {
            Some(r) => r.solve(s).map_err(|e| failed(s.t, e))?.0.to_vec(),
            None => match traj.multipliers.get(k).and_then(|l| l.as_ref()) {
                Some(l) if l.len() == sys.n_rows() => l.clone(),
                other => {
                    return Err(failed(
                        s.t,
                        format!(
                            "the method gave {} multipliers, the model's [ṙ, ṗ] assembly has {} rows: use MultiplierSource::Recovered",
                            other.map_or(0, Vec::len),
                            sys.n_rows()
                        ),
                    ));
                }
            },
        };
        ws.evaluate_constraints(model, sys, s)
            .map_err(|e| failed(s.t, e))?;
        let mut values = Vec::new();
        let mut push = |v: f64| values.push(v);
        let push3 = |push: &mut dyn FnMut(f64), v: Vector3<f64>| v.iter().for_each(|x| push(*x));
        let mut lam = Vec::new();
        for (e, block) in sys.entries().iter().zip(ws.blocks()) {
            lam.clear();
            lam.extend((0..e.rows()).map(|r| lambda[e.global_row(r)]));
            let (fi, fj) = (ws.frame(e.body_i), ws.frame(e.body_j));
            match e.source {
                ConstraintSource::Joint(id) => {
                    let jt = model.joint(id);
                    let (angle, along, rotvec) = coordinate_kinds(Freedoms::of(&jt.kind));
                    let rel = relative_motion(model, (jt.marker_i, fi), (jt.marker_j, fj));
                    if angle {
                        push(rel.angle);
                        push(rel.angle_rate);
                    }
                    if along {
                        push(rel.translation.z);
                        push(rel.translation_rate.z);
                    }
                    if rotvec {
                        push3(&mut push, rel.rotation);
                        push3(&mut push, rel.omega);
                    }
                    let (_, axes_i) = marker_pose(model, fi, jt.marker_i);
                    let (pj, _) = marker_pose(model, fj, jt.marker_j);
                    let w = reaction(block, &lam, (e.body_i, fi), (e.body_j, fj), &pj);
                    let local = w.in_frame(&axes_i);
                    for v in [w.force, w.torque, local.force, local.torque] {
                        push3(&mut push, v);
                    }
                }
                ConstraintSource::Driver(id) => {
                    let d = model.driver(id);
                    let (mi, mj) = driver_markers(model, d);
                    let (pi, axes_i) = marker_pose(model, fi, mi);
                    let pj = mj.map_or(pi, |m| marker_pose(model, fj, m).0);
                    let w = reaction(block, &lam, (e.body_i, fi), (e.body_j, fj), &pj);
                    // drivers come after every joint, in model order
                    push(driver_effort(d, &w, &axes_i));
                }
                _ => {}
            }
        }
        Ok((values, lambda))
    }
}

fn failed(t: f64, e: impl std::fmt::Display) -> Error {
    Error::Unsupported {
        method: "joint results".into(),
        message: format!("at t = {t}: {e}"),
    }
}

/// `<element>.<row> [unit]` and the meaning of every row of the [ṙ, ṗ] assembly.
pub fn row_labels(model: &Model, sys: &SystemLayout) -> Vec<(String, String)> {
    let mut labels = vec![(String::new(), String::new()); sys.n_rows()];
    for e in sys.entries() {
        let rows = match e.source {
            ConstraintSource::Joint(id) => {
                let jt = model.joint(id);
                joint_rows(&jt.kind)
                    .into_iter()
                    .map(|r| (jt.name.clone(), r))
                    .collect()
            }
            ConstraintSource::Driver(id) => {
                let d = model.driver(id);
                vec![(d.name.clone(), driver_row(&d.kind))]
            }
            _ => Vec::new(),
        };
        for (r, (name, m)) in rows.into_iter().enumerate().take(e.rows()) {
            labels[e.global_row(r)] = (
                format!("{name}.{} [{}]", m.label, m.unit),
                format!(
                    "{}: multiplier of row `{}`",
                    sys.source_name(model, e.source),
                    m.label
                ),
            );
        }
    }
    for (r, l) in labels.iter_mut().enumerate() {
        if l.0.is_empty() {
            let src = sys.source_of_row(r);
            *l = match src {
                Some(ConstraintSource::Normalization(b)) => (
                    format!("{}.normalization [N·m]", model.body(b).name),
                    format!(
                        "multiplier of the Euler-parameter normalization of body `{}`",
                        model.body(b).name
                    ),
                ),
                Some(s) => (
                    format!("row_{r} [1]"),
                    format!("{}: multiplier of row {r}", sys.source_name(model, s)),
                ),
                None => (format!("row_{r} [1]"), format!("multiplier of row {r}")),
            };
        }
    }
    labels
}

/// The method's multipliers as labelled columns, if it gave some for every sample of one
/// of the assemblies ([ṙ, ṗ] with normalization rows, or [ṙ, ω'] without); `row_<i>`
/// labels for another count.
fn method_multipliers(model: &Model, traj: &Trajectory) -> Option<Vec<Series>> {
    let m = traj.multipliers.iter().flatten().map(Vec::len).max()?;
    if m == 0 {
        return None;
    }
    let labels = [Layout::EulerParamsPdot, Layout::EulerParamsOmega]
        .into_iter()
        .map(|l| SystemLayout::new(model, l))
        .find(|sys| sys.n_rows() == m)
        .map(|sys| row_labels(model, &sys))
        .unwrap_or_else(|| {
            (0..m)
                .map(|r| (format!("row_{r} [1]"), format!("multiplier of row {r}")))
                .collect()
        });
    Some(
        labels
            .into_iter()
            .enumerate()
            .map(|(r, (name, meaning))| Series {
                name,
                meaning,
                values: traj
                    .multipliers
                    .iter()
                    .map(|l| {
                        l.as_ref()
                            .and_then(|l| l.get(r))
                            .copied()
                            .unwrap_or(f64::NAN)
                    })
                    .collect(),
            })
            .collect(),
    )
}

fn write_table(path: &Path, t: &[f64], cols: &[Series]) -> Result<(), Error> {
    let out = |e: csv::Error| Error::output(path, e);
    let mut w = csv::Writer::from_path(path).map_err(out)?;
    let mut header = vec!["t [s]".to_string()];
    header.extend(cols.iter().map(|c| c.name.clone()));
    w.write_record(&header).map_err(out)?;
    let mut buf = SciBuf::default();
    for (k, &tk) in t.iter().enumerate() {
        // t as `{:e}` writes it (a non-finite t too); a missing or non-finite value
        // is an empty field
        w.write_field(buf.format(tk)).map_err(out)?;
        for c in cols {
            match c.values.get(k).filter(|v| v.is_finite()) {
                Some(&v) => w.write_field(buf.format(v)).map_err(out)?,
                None => w.write_field([]).map_err(out)?,
            }
        }
        w.write_record(None::<&[u8]>).map_err(out)?;
    }
    w.flush().map_err(|e| Error::output(path, e))
}

/// Writes `joints.csv`, `joints.json` (with the multipliers solved at every sample,
/// labelled), `energy_balance.csv` (if the trajectory has one) into `dir`, and, when the
/// method gave multipliers, `multipliers.csv` with the method's λ under the labels of
/// [`row_labels`] (`t [s]`, then `<joint>.<row> [unit]`); returns the files written.
pub fn write_all(dir: &Path, model: &Model, traj: &Trajectory) -> Result<Vec<PathBuf>, Error> {
    if traj.is_empty() {
        std::fs::create_dir_all(dir).map_err(|e| Error::output(dir, e))?;
        return Ok(Vec::new());
    }
    let jr = JointResults::compute(model, traj, MultiplierSource::Recovered)?;
    write_all_with(dir, model, traj, &jr)
}

/// [`write_all`] with joint results already computed (`MultiplierSource::Recovered`),
/// e.g. for plotting them too.
pub fn write_all_with(
    dir: &Path,
    model: &Model,
    traj: &Trajectory,
    jr: &JointResults,
) -> Result<Vec<PathBuf>, Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::output(dir, e))?;
    let mut files = Vec::new();
    if traj.is_empty() {
        return Ok(files);
    }
    for (name, f) in [
        (
            "joints.csv",
            JointResults::write_csv as fn(&JointResults, &Path) -> Result<(), Error>,
        ),
        ("joints.json", JointResults::write_json),
    ] {
        let path = dir.join(name);
        f(jr, &path)?;
        files.push(path);
    }
    if let Some(cols) = method_multipliers(model, traj) {
        let path = dir.join("multipliers.csv");
        write_table(&path, &traj.t, &cols)?;
        files.push(path);
    }
    if let Some(b) = &traj.energy_balance {
        let path = dir.join("energy_balance.csv");
        let series = |name: &str, meaning: &str, values: &[f64]| Series {
            name: name.to_string(),
            meaning: meaning.to_string(),
            values: values.to_vec(),
        };
        write_table(
            &path,
            &traj.t,
            &[
                series("kinetic [J]", "kinetic energy T", &b.kinetic),
                series(
                    "potential [J]",
                    "potential energy V (gravity, springs)",
                    &b.potential,
                ),
                series(
                    "work_drivers [J]",
                    "work of the drivers since t0",
                    &b.work_drivers,
                ),
                series(
                    "work_dampers [J]",
                    "work of the dampers since t0",
                    &b.work_dampers,
                ),
                series(
                    "work_applied [J]",
                    "work of applied forces, torques, actuators since t0",
                    &b.work_applied,
                ),
                series(
                    "residual [J]",
                    "T + V - (T0 + V0) - work of drivers, dampers, applied forces",
                    &b.residual,
                ),
            ],
        )?;
        files.push(path);
    }
    Ok(files)
}

/// The columns of a CSV written here, from its header: (name, unit, meaning), for
/// the manifest.
pub fn header_columns(path: &Path) -> Vec<(String, String, String)> {
    let Ok(mut r) = csv::Reader::from_path(path) else {
        return Vec::new();
    };
    let Ok(h) = r.headers() else {
        return Vec::new();
    };
    h.iter()
        .map(|name| {
            let (base, unit) = match name.rsplit_once(" [") {
                Some((b, u)) => (b, u.trim_end_matches(']')),
                None => (name, ""),
            };
            let (element, quantity) = base.rsplit_once('.').unwrap_or(("", base));
            let meaning = quantity_meaning(quantity);
            let meaning = if element.is_empty() {
                meaning.to_string()
            } else {
                format!("{element}: {meaning}")
            };
            (name.to_string(), unit.to_string(), meaning)
        })
        .collect()
}

fn quantity_meaning(q: &str) -> &'static str {
    match q.trim_end_matches(['x', 'y', 'z']).trim_end_matches('_') {
        "t" => "time",
        "angle" => "joint angle about z_i from x_i to x_j",
        "angle_rate" => "rate of the joint angle",
        "translation" => "translation of P_j along z_i",
        "translation_rate" => "rate of the translation",
        "rotation" => "rotation vector of marker j relative to marker i, joint frame",
        "omega" => "angular velocity of marker j relative to marker i, joint frame",
        "force" => "reaction force on body j, global frame",
        "torque" => "reaction torque on body j about P_j, global frame",
        "force_joint" => "reaction force on body j, joint frame (marker i axes)",
        "torque_joint" => "reaction torque on body j about P_j, joint frame",
        "effort" => "force or torque the driver applies along its coordinate",
        "normalization" => "multiplier of the Euler-parameter normalization",
        "kinetic" => "kinetic energy T",
        "potential" => "potential energy V (gravity, springs)",
        "work_drivers" => "work of the drivers since t0",
        "work_dampers" => "work of the dampers since t0",
        "work_applied" => "work of applied forces, torques, actuators since t0",
        "residual" => "energy balance residual T + V - (T0 + V0) - works",
        _ => "multiplier of this constraint row",
    }
}

/// Whether the manifest takes the columns of file `name` from its header.
pub fn describes(name: &str) -> bool {
    matches!(
        name,
        "joints.csv" | "multipliers.csv" | "energy_balance.csv"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The chunked parallel evaluation equals one sequential pass over the samples
    /// with a single workspace and recovery (to 1e-12, relative to the column's
    /// largest value), on more samples than one chunk holds.
    #[test]
    fn parallel_chunks_equal_one_sequential_pass() {
        let sim = crate::Simulation::builtin("five-bar")
            .unwrap()
            .method("alf-dca-proj".parse().unwrap())
            .t_end(0.5)
            .samples(3 * CHUNK + 7);
        let traj = sim.run().unwrap();
        let model = sim.model();
        let jr = JointResults::compute(model, &traj, MultiplierSource::Recovered).unwrap();
        let mut eval = SampleEvaluator::new(model, MultiplierSource::Recovered);
        let rows: Vec<(Vec<f64>, Vec<f64>)> = traj
            .states
            .iter()
            .enumerate()
            .map(|(k, s)| eval.row(model, &traj, k, s).unwrap())
            .collect();
        assert_eq!(jr.t.len(), rows.len());
        let check = |series: &[Series], pick: &dyn Fn(&(Vec<f64>, Vec<f64>)) -> &[f64]| {
            for (c, col) in series.iter().enumerate() {
                let scale = col.values.iter().fold(1e-300_f64, |a, v| a.max(v.abs()));
                for (k, row) in rows.iter().enumerate() {
                    let d = (col.values[k] - pick(row)[c]).abs();
                    assert!(d <= 1e-12 * scale, "{} at sample {k}: {d:e}", col.name);
                }
            }
        };
        check(&jr.columns, &|r| &r.0);
        check(&jr.multipliers, &|r| &r.1);
    }
}
