//! Plots to PNG and SVG with plotters, without system fonts or libraries: DejaVu Sans
//! (embedded by the `dejavu` crate; Bitstream Vera / DejaVu font licence) is registered
//! as "sans-serif" before the first plot.

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

use crate::error::Error;
use crate::trajectory::Trajectory;

static FONT: Once = Once::new();

/// Registers the embedded font (idempotent).
pub fn register_fonts() {
    FONT.call_once(|| {
        // DejaVu Sans is a valid TrueType font; registration cannot fail.
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            dejavu::sans::regular(),
        );
        let _ = plotters::style::register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold());
    });
}

/// One line of a plot.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend label.
    pub label: String,
    /// Abscissae.
    pub x: Vec<f64>,
    /// Ordinates (non-finite points are skipped; on a log axis, non-positive ones too).
    pub y: Vec<f64>,
}

impl Series {
    /// A series.
    pub fn new(label: impl Into<String>, x: Vec<f64>, y: Vec<f64>) -> Self {
        Self {
            label: label.into(),
            x,
            y,
        }
    }
}

/// A line chart: title, axis labels, series, linear or logarithmic y axis.
///
/// ```
/// use mbs::plot::{LineChart, Series};
/// let t: Vec<f64> = (0..50).map(|k| k as f64 * 0.1).collect();
/// let chart = LineChart::new("decay", "t [s]", "‖Φ‖")
///     .with(Series::new("exp", t.clone(), t.iter().map(|t| (-t).exp()).collect()))
///     .log();
/// let dir = std::env::temp_dir().join("mbs-doc-plot");
/// let files = chart.write_png_svg(&dir, "decay")?;  // no system fonts needed
/// assert_eq!(files.len(), 2);
/// # Ok::<(), mbs::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LineChart {
    /// Title.
    pub title: String,
    /// x-axis label.
    pub x_label: String,
    /// y-axis label.
    pub y_label: String,
    /// Lines.
    pub series: Vec<Series>,
    /// Logarithmic y axis.
    pub log_y: bool,
}

const COLORS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

type Points = Vec<Vec<(f64, f64)>>;

impl LineChart {
    /// A chart with no series yet.
    pub fn new(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
    ) -> Self {
        Self {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            series: Vec::new(),
            log_y: false,
        }
    }

    /// Adds a series.
    pub fn with(mut self, s: Series) -> Self {
        self.series.push(s);
        self
    }

    /// Uses a logarithmic y axis.
    pub fn log(mut self) -> Self {
        self.log_y = true;
        self
    }

    fn points(&self) -> (Points, (f64, f64), (f64, f64)) {
        let keep = |y: f64| y.is_finite() && (!self.log_y || y > 0.0);
        let pts: Points = self
            .series
            .iter()
            .map(|s| {
                s.x.iter()
                    .zip(&s.y)
                    .filter(|(x, y)| x.is_finite() && keep(**y))
                    .map(|(x, y)| (*x, *y))
                    .collect()
            })
            .collect();
        let (mut x0, mut x1, mut y0, mut y1) = (
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
        );
        for p in pts.iter().flatten() {
            x0 = x0.min(p.0);
            x1 = x1.max(p.0);
            y0 = y0.min(p.1);
            y1 = y1.max(p.1);
        }
        if !x0.is_finite() {
            (x0, x1) = (0.0, 1.0);
        }
        if !y0.is_finite() {
            (y0, y1) = if self.log_y {
                (1e-16, 1.0)
            } else {
                (-1.0, 1.0)
            };
        }
        if x1 <= x0 {
            x1 = x0 + 1.0;
        }
        if self.log_y {
            y0 /= 2.0;
            y1 *= 2.0;
        } else {
            let pad = if y1 > y0 {
                0.05 * (y1 - y0)
            } else {
                0.5 * y0.abs().max(1e-12)
            };
            y0 -= pad;
            y1 += pad;
        }
        (pts, (x0, x1), (y0, y1))
    }

    /// Writes the chart to `path`: PNG or SVG by the extension.
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        register_fonts();
        let size = (960, 600);
        let svg = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
        let res = if svg {
            self.draw(SVGBackend::new(path, size).into_drawing_area())
        } else {
            self.draw(BitMapBackend::new(path, size).into_drawing_area())
        };
        res.map_err(|m| Error::output(path, m))
    }

    /// Writes `<stem>.png` and `<stem>.svg` into `dir`; returns both paths.
    pub fn write_png_svg(&self, dir: &Path, stem: &str) -> Result<Vec<PathBuf>, Error> {
        std::fs::create_dir_all(dir).map_err(|e| Error::output(dir, e))?;
        let mut out = Vec::new();
        for ext in ["png", "svg"] {
            let p = dir.join(format!("{stem}.{ext}"));
            self.write(&p)?;
            out.push(p);
        }
        Ok(out)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: DrawingArea<DB, plotters::coord::Shift>,
    ) -> Result<(), String>
    where
        DB::ErrorType: 'static,
    {
        let (pts, xr, yr) = self.points();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        if self.log_y {
            self.draw_in(&root, &pts, xr, (yr.0..yr.1).log_scale())?;
        } else {
            self.draw_in(&root, &pts, xr, yr.0..yr.1)?;
        }
        root.present().map_err(|e| e.to_string())
    }

    fn draw_in<DB: DrawingBackend, Y>(
        &self,
        root: &DrawingArea<DB, plotters::coord::Shift>,
        pts: &Points,
        xr: (f64, f64),
        y: Y,
    ) -> Result<(), String>
    where
        DB::ErrorType: 'static,
        Y: AsRangedCoord<Value = f64>,
        Y::CoordDescType: ValueFormatter<f64>,
    {
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 24))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(90)
            .build_cartesian_2d(xr.0..xr.1, y)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 18))
            .y_label_formatter(&|v| fmt_tick(*v))
            .x_label_formatter(&|v| fmt_tick(*v))
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, (s, p)) in self.series.iter().zip(pts).enumerate() {
            let color = COLORS[i % COLORS.len()];
            chart
                .draw_series(LineSeries::new(p.iter().copied(), color.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(s.label.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
        }
        if self.series.len() > 1 || self.series.first().is_some_and(|s| !s.label.is_empty()) {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(("sans-serif", 15))
                .position(SeriesLabelPosition::UpperRight)
                .draw()
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

fn fmt_tick(v: f64) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".into()
    } else if !(1e-3..1e4).contains(&a) {
        format!("{v:.0e}")
    } else {
        let s = format!("{v:.4}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        s.to_string()
    }
}

/// A coordinate to plot: body index and component name (see
/// [`crate::trajectory::COMPONENTS`]).
pub type Coordinate = (usize, String);

/// Parses `body.component` names (e.g. `link1.x`) against a trajectory.
pub fn parse_coordinates(traj: &Trajectory, spec: &str) -> Result<Vec<Coordinate>, Error> {
    parse_coordinates_of(&traj.body_names, spec)
}

/// [`parse_coordinates`] against a list of body names (e.g. a model's, so that a
/// misspelt `--coords` is reported before the run, not after it).
pub fn parse_coordinates_of<S: AsRef<str>>(
    body_names: &[S],
    spec: &str,
) -> Result<Vec<Coordinate>, Error> {
    let mut out = Vec::new();
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (b, c) = item.rsplit_once('.').unwrap_or((item, ""));
        let body = body_names
            .iter()
            .position(|n| n.as_ref() == b)
            .ok_or_else(|| {
                let names: Vec<&str> = body_names.iter().map(AsRef::as_ref).collect();
                Error::param(
                    "plot",
                    "coordinate",
                    format!("must name a body ({})", names.join(", ")),
                    item,
                )
            })?;
        if !crate::trajectory::COMPONENTS.contains(&c) {
            return Err(Error::param(
                "plot",
                "coordinate",
                format!(
                    "must end in one of .{}",
                    crate::trajectory::COMPONENTS.join(", .")
                ),
                item,
            ));
        }
        out.push((body, c.to_string()));
    }
    Ok(out)
}

/// The standard plots of a trajectory, each as PNG and SVG in `dir`: `energy`
/// (E − E₀, T, V), `constraints` (‖Φ‖, ‖Φ̇‖, ‖Φ̈‖ on a log scale; legends spelled dΦ/dt because the
/// rasterizer does not compose combining dots) and `coordinates`
/// (`coords`, or x and y of the first body when empty). Returns the files written.
pub fn write_plots(
    traj: &Trajectory,
    dir: &Path,
    coords: &[Coordinate],
) -> Result<Vec<PathBuf>, Error> {
    let title = format!("{} — {} — {}", traj.model, traj.method, traj.integrator);
    let t = traj.t.clone();
    let mut files = Vec::new();
    let energy = LineChart::new(format!("Energy error: {title}"), "t [s]", "E(t) − E(0) [J]")
        .with(Series::new("E − E₀", t.clone(), traj.energy_error()));
    files.extend(energy.write_png_svg(dir, "energy_error")?);
    let energies = LineChart::new(format!("Energies: {title}"), "t [s]", "energy [J]")
        .with(Series::new(
            "kinetic T",
            t.clone(),
            traj.kinetic_energy.clone(),
        ))
        .with(Series::new(
            "potential V",
            t.clone(),
            traj.potential_energy.clone(),
        ))
        .with(Series::new("total E", t.clone(), traj.total_energy.clone()));
    files.extend(energies.write_png_svg(dir, "energy")?);
    let cons = LineChart::new(
        format!("Constraint violations: {title}"),
        "t [s]",
        "norm (log scale)",
    )
    .with(Series::new("‖Φ‖", t.clone(), traj.phi_norm.clone()))
    .with(Series::new("‖dΦ/dt‖", t.clone(), traj.phi_dot_norm.clone()))
    .with(Series::new(
        "‖d²Φ/dt²‖",
        t.clone(),
        traj.phi_ddot_norm.clone(),
    ))
    .log();
    files.extend(cons.write_png_svg(dir, "constraints")?);
    let default;
    let coords = if coords.is_empty() && traj.n_bodies() > 0 {
        default = vec![(0, "x".to_string()), (0, "y".to_string())];
        &default[..]
    } else {
        coords
    };
    let mut chart = LineChart::new(
        format!("Coordinates: {title}"),
        "t [s]",
        "coordinate [m, 1, m/s, rad/s]",
    );
    for (b, c) in coords {
        if let Some(y) = traj.coordinate(*b, c) {
            chart = chart.with(Series::new(
                format!("{}.{c}", traj.body_names[*b]),
                t.clone(),
                y,
            ));
        }
    }
    files.extend(chart.write_png_svg(dir, "coordinates")?);
    Ok(files)
}
