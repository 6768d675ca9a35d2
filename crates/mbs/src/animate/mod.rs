//! A self-contained HTML page that plays a trajectory in 3-D: bodies drawn as their
//! shapes, meshes included (their triangles embedded, see `meshes.rs`), (or as sticks from the centre of mass to the markers when they have none),
//! ground markers, play/pause, a time slider, a speed control, a camera orbited with the
//! mouse, and plots of chosen output columns (energy and ‖Φ‖ by default) with a cursor
//! at the current time. The panels' ticks, labels, colours and markers come from
//! [`crate::chart`], as those of the PNG/SVG plots do; a log panel with nothing
//! positive says "exactly 0".
//!
//! The page needs no network: three.js (MIT licence, vendored in
//! `crates/mbs/assets/three/` with its licence, which is also copied into the page) and
//! the trajectory are embedded. Body poses and plotted values are stored as
//! little-endian `f32` arrays in base64. The page honours a URL fragment
//! `#t=1.5&paused&speed=2` (start time, paused, playback speed); errors in the page
//! are shown in an element `#errors` and flagged by `data-errors` on `<body>`, and
//! `data-ready` is set on `<body>` once the first frame is drawn (what the browser
//! test reads).
//!
//! ```
//! let traj = mbs::Simulation::builtin("double-pendulum")?
//!     .integrator("rk45:rtol=1e-6".parse()?)
//!     .t_end(0.5)
//!     .samples(25)
//!     .run()?;
//! let model = mbs::builtin("double-pendulum")?;
//! let html = mbs::animate::html(&traj, &model, &mbs::animate::AnimateOptions::default())?;
//! assert!(html.starts_with("<!DOCTYPE html>") && html.contains("three.js authors"));
//! # Ok::<(), mbs::Error>(())
//! ```

mod encode;
mod meshes;
mod scene;

pub use meshes::MAX_TRIANGLES;

use std::path::Path;

use mbs_model::Model;
use serde::Serialize;

use crate::chart::columns::{Column, Outputs};
use crate::chart::style::{Marker, StyleKey, marker_indices, styles};
use crate::chart::ticks::{Tick, fit_horizontal, padded_range, ticks};
use crate::error::Error;
use crate::joints::{JointResults, MultiplierSource};
use crate::trajectory::Trajectory;

const TEMPLATE: &str = include_str!("../../assets/animation.html");
const APP_JS: &str = include_str!("../../assets/animation.js");
const THREE_JS: &str = include_str!("../../assets/three/three.min.js");
const THREE_LICENSE: &str = include_str!("../../assets/three/LICENSE");
const THREE_VERSION: &str = include_str!("../../assets/three/VERSION");

/// The file name `mbs run --animate` writes in the output directory.
pub const FILE_NAME: &str = "animation.html";

/// What to plot beside the 3-D view.
#[derive(Clone, Debug, Default)]
pub struct AnimateOptions<'a> {
    /// Output columns to plot, one panel each (see [`crate::chart::columns::Catalog`]);
    /// empty: energies and ‖Φ‖.
    pub columns: Vec<Column>,
    /// The run's joint results, if already computed (joint columns are computed from
    /// the model otherwise).
    pub joints: Option<&'a JointResults>,
}

/// One panel: a title, a log scale or not, its series, the y axis, and a note in
/// place of the curves when there is nothing to draw ("exactly 0").
#[derive(Serialize, Debug)]
struct Plot {
    title: String,
    log: bool,
    series: Vec<PlotSeries>,
    /// y range (data units) and ticks.
    lo: f64,
    hi: f64,
    ticks: Vec<Tick>,
    note: Option<String>,
}

#[derive(Serialize, Debug)]
struct PlotSeries {
    label: String,
    /// base64 of little-endian f32 (NaN where missing).
    values: String,
    /// `#rrggbb` and marker shape, from the shared palette.
    color: String,
    marker: Marker,
    /// The samples that get a marker.
    markers: Vec<usize>,
}

/// Everything the page reads (embedded as JSON).
#[derive(Serialize, Debug)]
struct PageData<'a> {
    model: &'a str,
    method: &'a str,
    integrator: &'a str,
    failure: Option<&'a str>,
    /// base64 of little-endian f32 sample times.
    t: String,
    /// Ticks of the time axis of the panels.
    time_ticks: Vec<Tick>,
    /// base64 of little-endian f32: per sample, per body x, y, z, qx, qy, qz, qw.
    poses: String,
    #[serde(flatten)]
    scene: scene::Scene,
    plots: Vec<Plot>,
}

/// Width of a panel's data area [px] and of a tick-label character (11 px font).
const PANEL_WIDTH_PX: f64 = 290.0;
const PANEL_CHAR_PX: f64 = 6.8;
/// Ticks on a panel's y axis at most (the panels are 170 px high).
const PANEL_Y_TICKS: usize = 5;

/// A panel of `series` (label, values): its y range and ticks from the finite values
/// (positive ones on a log scale), styles from the shared palette, and "exactly 0" (or
/// "no data") when a log panel has nothing to draw.
fn panel(title: String, log: bool, series: Vec<(String, Vec<f64>)>) -> Plot {
    let keys = vec![StyleKey::default(); series.len()];
    let styles = styles(&keys);
    let drawn = |v: &f64| v.is_finite() && (!log || *v > 0.0);
    let mut vals = series
        .iter()
        .flat_map(|(_, v)| v.iter().copied().filter(drawn));
    let (lo, hi) = padded_range(&mut vals, log);
    let any_drawn = series.iter().any(|(_, v)| v.iter().any(drawn));
    let any_finite = series.iter().any(|(_, v)| v.iter().any(|x| x.is_finite()));
    let note = match (any_drawn, any_finite) {
        (true, _) => None,
        (false, true) => Some("exactly 0".to_string()),
        (false, false) => Some("no data".to_string()),
    };
    let ticks = if note.is_some() {
        Vec::new()
    } else {
        ticks(lo, hi, log, PANEL_Y_TICKS)
    };
    let series = series
        .into_iter()
        .zip(styles)
        .enumerate()
        .map(|(i, ((label, v), style))| PlotSeries {
            label,
            markers: marker_indices(v.len(), i),
            values: encode::f32_base64(v.into_iter()),
            color: style.hex(),
            marker: style.marker,
        })
        .collect();
    Plot {
        title,
        log,
        series,
        lo,
        hi,
        ticks,
        note,
    }
}

fn plots(traj: &Trajectory, model: &Model, options: &AnimateOptions) -> Result<Vec<Plot>, Error> {
    if options.columns.is_empty() {
        return Ok(vec![
            panel(
                "energy [J]".into(),
                false,
                vec![
                    ("kinetic T".into(), traj.kinetic_energy.clone()),
                    ("potential V".into(), traj.potential_energy.clone()),
                    ("total E".into(), traj.total_energy.clone()),
                ],
            ),
            panel(
                "constraint violation ‖Φ‖ (log scale)".into(),
                true,
                vec![("‖Φ‖".into(), traj.phi_norm.clone())],
            ),
        ]);
    }
    let computed;
    let joints = match options.joints {
        Some(j) => Some(j),
        None if options.columns.iter().any(Column::needs_joints) => {
            computed = JointResults::compute(model, traj, MultiplierSource::Recovered)?;
            Some(&computed)
        }
        None => None,
    };
    let outputs = Outputs { traj, joints };
    options
        .columns
        .iter()
        .map(|c| {
            let values = outputs.values(c).ok_or_else(|| {
                Error::param(
                    "animation",
                    "column",
                    "must be a column of the trajectory or its joint results",
                    &c.name,
                )
            })?;
            Ok(panel(c.label(), false, vec![(c.name.clone(), values)]))
        })
        .collect()
}

/// The page for `traj`, a trajectory of `model` (same bodies in the same order).
pub fn html(traj: &Trajectory, model: &Model, options: &AnimateOptions) -> Result<String, Error> {
    Ok(page(traj, model, options)?.html)
}

/// A page and what it could not draw as given.
#[derive(Clone, Debug)]
pub struct Page {
    /// The HTML text.
    pub html: String,
    /// Notes: mesh files that could not be read (not drawn), meshes decimated to
    /// [`MAX_TRIANGLES`]. The page shows them too.
    pub notes: Vec<String>,
}

/// The page for `traj` with its notes (see [`html`]).
pub fn page(traj: &Trajectory, model: &Model, options: &AnimateOptions) -> Result<Page, Error> {
    let names: Vec<&str> = model.bodies().iter().map(|b| b.name.as_str()).collect();
    if names
        != traj
            .body_names
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
    {
        return Err(Error::param(
            "animation",
            "model",
            format!(
                "must have the trajectory's bodies ({})",
                traj.body_names.join(", ")
            ),
            names.join(", "),
        ));
    }
    if traj.is_empty() {
        return Err(Error::param(
            "animation",
            "trajectory",
            "must have at least one sample",
            0,
        ));
    }
    let data = PageData {
        model: &traj.model,
        method: &traj.method,
        integrator: &traj.integrator,
        failure: traj.failure.as_deref(),
        t: encode::f32_base64(traj.t.iter().copied()),
        time_ticks: fit_horizontal(
            traj.t[0],
            traj.t[traj.len() - 1],
            false,
            PANEL_WIDTH_PX,
            PANEL_CHAR_PX,
            10.0,
        ),
        poses: encode::f32_base64(scene::poses(traj).into_iter().map(f64::from)),
        scene: scene::Scene::new(model, traj),
        plots: plots(traj, model, options)?,
    };
    let json = serde_json::to_string(&data)
        .map_err(|e| Error::param("animation", "data", "must serialize", e))?;
    let notes = data.scene.notes;
    let title = format!("{} — {} — {}", traj.model, traj.method, traj.integrator);
    let html = encode::fill(
        TEMPLATE,
        &[
            ("TITLE", &encode::escape_html(&title)),
            ("THREE_VERSION", THREE_VERSION.trim()),
            ("THREE_LICENSE", &encode::escape_html(THREE_LICENSE)),
            ("THREE_LICENSE_COMMENT", &THREE_LICENSE.replace("--", "- -")),
            ("THREE_JS", &encode::escape_script(THREE_JS)),
            ("APP_JS", &encode::escape_script(APP_JS)),
            ("DATA", &encode::escape_script(&json)),
        ],
    );
    Ok(Page { html, notes })
}

/// Writes [`html`] to `path`; returns the page's notes ([`Page::notes`]).
pub fn write_html(
    traj: &Trajectory,
    model: &Model,
    path: &Path,
    options: &AnimateOptions,
) -> Result<Vec<String>, Error> {
    let page = page(traj, model, options)?;
    std::fs::write(path, page.html).map_err(|e| Error::output(path, e))?;
    Ok(page.notes)
}
