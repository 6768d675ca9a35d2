//! The standard plots of a run (`mbs run --plot`) and of a comparison
//! (`mbs compare --plot`), as charts that tests can inspect and as files.

use std::path::{Path, PathBuf};

use mbs_model::Model;

use super::{LineChart, Series};
use crate::chart::columns::{Column, Outputs, Source};
use crate::error::Error;
use crate::joints::{JointResults, MultiplierSource};
use crate::trajectory::Trajectory;

/// x and y of the first body, or nothing without bodies.
fn default_columns(traj: &Trajectory) -> Vec<Column> {
    let Some(b) = traj.body_names.first() else {
        return Vec::new();
    };
    (0..2)
        .map(|component| Column {
            name: format!("{b}.{}", crate::trajectory::COMPONENTS[component]),
            unit: "m".into(),
            source: Source::Body { body: 0, component },
        })
        .collect()
}

/// The y-axis label of a chart of `columns`: `value [units]`, the distinct units.
fn value_label(columns: &[Column]) -> String {
    let mut units: Vec<&str> = Vec::new();
    for c in columns {
        if !units.contains(&c.unit.as_str()) {
            units.push(&c.unit);
        }
    }
    format!("value [{}]", units.join(", "))
}

/// The values of `column` in `outputs`, or an error naming the column when they need
/// joint results that were not given.
fn values(outputs: &Outputs, column: &Column) -> Result<Vec<f64>, Error> {
    outputs.values(column).ok_or_else(|| {
        Error::param(
            "plot",
            "coords",
            "needs the joint results of the run (mbs::joints::JointResults in Outputs)",
            &column.name,
        )
    })
}

/// The charts of [`write_plots`] with their file stems: `energy_error`, `energy`,
/// `constraints` and `coordinates` (the chosen columns).
pub fn run_charts<'a>(
    outputs: impl Into<Outputs<'a>>,
    columns: &[Column],
) -> Result<Vec<(String, LineChart)>, Error> {
    let outputs = outputs.into();
    let traj = outputs.traj;
    let title = format!("{} — {} — {}", traj.model, traj.method, traj.integrator);
    let t = &traj.t;
    let series = |label: &str, y: &[f64]| Series::new(label, t.clone(), y.to_vec());
    let energy = LineChart::new(format!("Energy error: {title}"), "t [s]", "E(t) − E(0) [J]")
        .with(series("E − E₀", &traj.energy_error()));
    let energies = LineChart::new(format!("Energies: {title}"), "t [s]", "energy [J]")
        .with(series("kinetic T", &traj.kinetic_energy))
        .with(series("potential V", &traj.potential_energy))
        .with(series("total E", &traj.total_energy));
    let cons = LineChart::new(
        format!("Constraint violations: {title}"),
        "t [s]",
        "norm (log scale)",
    )
    .with(series("‖Φ‖", &traj.phi_norm))
    .with(series("‖dΦ/dt‖", &traj.phi_dot_norm))
    .with(series("‖d²Φ/dt²‖", &traj.phi_ddot_norm))
    .log();
    let default;
    let columns = if columns.is_empty() {
        default = default_columns(traj);
        &default[..]
    } else {
        columns
    };
    let mut chosen = LineChart::new(
        format!("Chosen columns: {title}"),
        "t [s]",
        value_label(columns),
    );
    for c in columns {
        chosen = chosen.with(Series::new(c.label(), t.clone(), values(&outputs, c)?));
    }
    Ok(vec![
        ("energy_error".into(), energy),
        ("energy".into(), energies),
        ("constraints".into(), cons),
        ("coordinates".into(), chosen),
    ])
}

/// The standard plots of a run, each as PNG and SVG in `dir`: `energy_error`,
/// `energy` (T, V, E), `constraints` (‖Φ‖, ‖Φ̇‖, ‖Φ̈‖ on a log scale; legends spelled
/// dΦ/dt because the rasterizer does not compose combining dots) and `coordinates`
/// (`columns`, or x and y of the first body when empty; joint columns need
/// `Outputs::joints`). Returns the files written.
pub fn write_plots<'a>(
    outputs: impl Into<Outputs<'a>>,
    dir: &Path,
    columns: &[Column],
) -> Result<Vec<PathBuf>, Error> {
    let mut files = Vec::new();
    for (stem, chart) in run_charts(outputs, columns)? {
        files.extend(chart.write_png_svg(dir, &stem)?);
    }
    Ok(files)
}

/// A file stem from a column name (`pivot.force_x` → `pivot_force_x`).
fn stem_of(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The charts of [`write_comparison_plots`] with their file stems. Joint columns are
/// computed per completed run from `model`.
pub fn comparison_charts(
    cmp: &crate::compare::Comparison,
    model: &Model,
    columns: &[Column],
) -> Result<Vec<(String, LineChart)>, Error> {
    let done: Vec<(String, &Trajectory)> =
        cmp.completed().map(|(m, t)| (m.to_string(), t)).collect();
    let mut charts = Vec::new();
    let Some((ref_name, reference)) = done.first().cloned() else {
        return Ok(charts);
    };
    let joints: Vec<Option<JointResults>> = if columns.iter().any(Column::needs_joints) {
        done.iter()
            .map(|(_, t)| JointResults::compute(model, t, MultiplierSource::Recovered).map(Some))
            .collect::<Result<_, _>>()?
    } else {
        vec![None; done.len()]
    };
    let default;
    let columns = if columns.is_empty() {
        default = default_columns(reference);
        &default[..]
    } else {
        columns
    };
    let name = &reference.model;
    for c in columns {
        let label = c.label();
        let q_ref = values(
            &Outputs {
                traj: reference,
                joints: joints[0].as_ref(),
            },
            c,
        )?;
        let mut overlay = LineChart::new(format!("{name}: {} by method", c.name), "t [s]", &label);
        let mut diff = LineChart::new(
            format!("{name}: {}, distance from {ref_name}", c.name),
            "t [s]",
            format!("|{0} − {0}({ref_name})| [{1}] (log scale)", c.name, c.unit),
        )
        .log();
        for ((m, t), jr) in done.iter().zip(&joints) {
            let q = values(
                &Outputs {
                    traj: t,
                    joints: jr.as_ref(),
                },
                c,
            )?;
            if m != &ref_name && t.t.len() == reference.t.len() {
                let d = q.iter().zip(&q_ref).map(|(a, r)| (a - r).abs()).collect();
                diff = diff.with(Series::new(m.clone(), t.t.clone(), d));
            }
            overlay = overlay.with(Series::new(m.clone(), t.t.clone(), q));
        }
        let stem = format!("compare_{}", stem_of(&c.name));
        charts.push((format!("{stem}_difference"), diff));
        charts.push((stem, overlay));
    }
    let mut energy = LineChart::new(
        format!("{name}: energy error by method"),
        "t [s]",
        "|E(t) − E(0)| [J] (log scale)",
    )
    .log();
    let mut cons = LineChart::new(
        format!("{name}: constraint violation by method"),
        "t [s]",
        "‖Φ‖ (log scale)",
    )
    .log();
    for (m, t) in &done {
        let de = t.energy_error().iter().map(|e| e.abs()).collect();
        energy = energy.with(Series::new(m.clone(), t.t.clone(), de));
        cons = cons.with(Series::new(m.clone(), t.t.clone(), t.phi_norm.clone()));
    }
    charts.push(("compare_energy".into(), energy));
    charts.push(("compare_constraints".into(), cons));
    Ok(charts)
}

/// The plots of a [`crate::compare::Comparison`] of runs of `model`, each as PNG and
/// SVG in `dir`: per column (`columns`, or x and y of the first body when empty) the
/// methods' curves overlaid (`compare_<name>`, dots of the name as `_`) and, because
/// converged methods overlay exactly, each method's distance |q − q_ref| from the
/// first completed method on a log scale (`compare_<name>_difference`); the energy
/// error |E − E₀| (`compare_energy`) and ‖Φ‖ (`compare_constraints`) of every method,
/// log scale. Runs that did not reach t_end are left out; a chart with nothing to
/// show is not written. Returns the files written.
pub fn write_comparison_plots(
    cmp: &crate::compare::Comparison,
    model: &Model,
    dir: &Path,
    columns: &[Column],
) -> Result<Vec<PathBuf>, Error> {
    let mut files = Vec::new();
    for (stem, chart) in comparison_charts(cmp, model, columns)? {
        if chart.has_data() {
            files.extend(chart.write_png_svg(dir, &stem)?);
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::ticks::Tick;

    /// Distinct labels, 0 labelled "0", and no label that reads as a round-off zero.
    fn check_ticks(what: &str, ticks: &[Tick]) {
        let labels: Vec<&str> = ticks.iter().map(|t| t.label.as_str()).collect();
        let mut distinct = labels.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), labels.len(), "{what}: {labels:?}");
        let range = ticks
            .iter()
            .map(|t| t.value)
            .fold(0.0_f64, |m, v| m.max(v.abs()));
        for t in ticks {
            let v: f64 = t.label.parse().unwrap();
            assert!(
                v == 0.0 || v.abs() >= 1e-9 * range,
                "{what}: {labels:?} has a round-off zero"
            );
            assert_eq!(t.value == 0.0, t.label == "0", "{what}: {labels:?}");
        }
    }

    /// Every chart of `mbs run --plot` and `mbs compare --plot` (five-bar): no two
    /// series share colour and marker, tick labels are distinct and zero is "0", and
    /// there are at least two ticks on each axis of a chart with data.
    #[test]
    fn every_chart_has_distinct_styles_and_tick_labels() {
        let sim = crate::Simulation::builtin("five-bar")
            .unwrap()
            .t_end(0.3)
            .samples(60);
        let methods: Vec<crate::Method> = ["alf-dca-proj", "alf-index1", "lagrange-baumgarte"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let cmp = crate::compare(&sim, &methods).unwrap();
        let (_, traj) = cmp.completed().next().unwrap();
        let model = sim.model();
        let joint = &model.joints()[0].name;
        let columns = crate::chart::columns::Catalog::of_model(model)
            .parse(&format!(
                "{joint}.force_x,{joint}.force_y,body1.x,total_energy"
            ))
            .unwrap();
        let jr = JointResults::compute(model, traj, MultiplierSource::Recovered).unwrap();
        let outputs = Outputs {
            traj,
            joints: Some(&jr),
        };
        let mut charts = run_charts(outputs, &columns).unwrap();
        charts.extend(comparison_charts(&cmp, model, &columns[..1]).unwrap());
        assert!(charts.len() >= 8);
        for (stem, chart) in &charts {
            let styles = chart.styles();
            let set: std::collections::HashSet<_> = styles.iter().collect();
            assert_eq!(set.len(), styles.len(), "{stem}: {styles:?}");
            let (xt, yt) = chart.axis_ticks();
            check_ticks(&format!("{stem} x"), &xt);
            check_ticks(&format!("{stem} y"), &yt);
            assert!(xt.len() >= 2, "{stem}: {xt:?}");
            if chart.shown().contains(&super::super::Shown::Drawn) {
                assert!(yt.len() >= 2, "{stem}: {yt:?}");
            }
        }
        // the energy error straddles 0: its zero tick reads "0"
        let (_, energy) = &charts[0];
        assert!(energy.axis_ticks().1.iter().any(|t| t.label == "0"));
    }
}
