//! A self-contained HTML page that plays a trajectory in 3-D: bodies drawn as their
//! shapes (or as sticks from the centre of mass to the markers when they have none),
//! ground markers, play/pause, a time slider, a speed control, a camera orbited with the
//! mouse, and plots of chosen coordinates (energy and ‖Φ‖ by default) with a cursor at
//! the current time.
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
mod scene;

use std::path::Path;

use mbs_model::Model;
use serde::Serialize;

use crate::error::Error;
use crate::trajectory::Trajectory;

const TEMPLATE: &str = include_str!("../../assets/animation.html");
const APP_JS: &str = include_str!("../../assets/animation.js");
const THREE_JS: &str = include_str!("../../assets/three/three.min.js");
const THREE_LICENSE: &str = include_str!("../../assets/three/LICENSE");
const THREE_VERSION: &str = include_str!("../../assets/three/VERSION");

/// The file name `mbs run --animate` writes in the output directory.
pub const FILE_NAME: &str = "animation.html";

/// What to plot beside the 3-D view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnimateOptions {
    /// Coordinates to plot, as (body index, component) with the components of
    /// [`crate::trajectory::COMPONENTS`]; empty: energies and ‖Φ‖.
    pub coords: Vec<(usize, String)>,
}

/// One plot: a title, a log scale or not, and its series.
#[derive(Serialize, Debug)]
struct Plot {
    title: String,
    log: bool,
    series: Vec<PlotSeries>,
}

#[derive(Serialize, Debug)]
struct PlotSeries {
    label: String,
    /// base64 of little-endian f32 (NaN where missing).
    values: String,
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
    /// base64 of little-endian f32: per sample, per body x, y, z, qx, qy, qz, qw.
    poses: String,
    #[serde(flatten)]
    scene: scene::Scene,
    plots: Vec<Plot>,
}

/// The unit of a trajectory component, for plot titles.
fn unit(component: &str) -> &'static str {
    match component {
        "x" | "y" | "z" => "m",
        "vx" | "vy" | "vz" => "m/s",
        "wx" | "wy" | "wz" => "rad/s",
        _ => "1",
    }
}

fn plots(traj: &Trajectory, options: &AnimateOptions) -> Result<Vec<Plot>, Error> {
    let series = |label: &str, v: &[f64]| PlotSeries {
        label: label.to_string(),
        values: encode::f32_base64(v.iter().copied()),
    };
    if options.coords.is_empty() {
        return Ok(vec![
            Plot {
                title: "energy [J]".into(),
                log: false,
                series: vec![
                    series("kinetic T", &traj.kinetic_energy),
                    series("potential V", &traj.potential_energy),
                    series("total E", &traj.total_energy),
                ],
            },
            Plot {
                title: "constraint violation ‖Φ‖ (log scale)".into(),
                log: true,
                series: vec![series("‖Φ‖", &traj.phi_norm)],
            },
        ]);
    }
    options
        .coords
        .iter()
        .map(|(body, component)| {
            let name = traj.body_names.get(*body).ok_or_else(|| {
                Error::param(
                    "animation",
                    "coordinate",
                    "must name a body of the trajectory",
                    format!("body #{body}"),
                )
            })?;
            let values = traj.coordinate(*body, component).ok_or_else(|| {
                Error::param(
                    "animation",
                    "coordinate",
                    format!(
                        "must end in one of .{}",
                        crate::trajectory::COMPONENTS.join(", .")
                    ),
                    format!("{name}.{component}"),
                )
            })?;
            let label = format!("{name}.{component}");
            Ok(Plot {
                title: format!("{label} [{}]", unit(component)),
                log: false,
                series: vec![series(&label, &values)],
            })
        })
        .collect()
}

/// The page for `traj`, a trajectory of `model` (same bodies in the same order).
pub fn html(traj: &Trajectory, model: &Model, options: &AnimateOptions) -> Result<String, Error> {
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
        poses: encode::f32_base64(scene::poses(traj).into_iter().map(f64::from)),
        scene: scene::Scene::new(model, traj),
        plots: plots(traj, options)?,
    };
    let json = serde_json::to_string(&data)
        .map_err(|e| Error::param("animation", "data", "must serialize", e))?;
    let title = format!("{} — {} — {}", traj.model, traj.method, traj.integrator);
    Ok(encode::fill(
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
    ))
}

/// Writes [`html`] to `path`.
pub fn write_html(
    traj: &Trajectory,
    model: &Model,
    path: &Path,
    options: &AnimateOptions,
) -> Result<(), Error> {
    let page = html(traj, model, options)?;
    std::fs::write(path, page).map_err(|e| Error::output(path, e))
}
