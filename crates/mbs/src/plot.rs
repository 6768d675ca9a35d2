//! Plots to PNG and SVG with plotters, without system fonts or libraries: DejaVu Sans
//! (embedded by the `dejavu` crate; Bitstream Vera / DejaVu font licence) is registered
//! as "sans-serif" before the first plot.
//!
//! One chart type serves the CLI's time histories and the bench report: linear or
//! logarithmic axes, a distinct colour and marker shape per series (markers drawn
//! where a series has few enough points to stay readable), the legend in its own
//! panel right of the data (never over it), and titles wrapped onto a second line
//! rather than clipped.

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::Shift;
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

/// A line chart: title, axis labels, series, linear or logarithmic axes.
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
    /// Logarithmic x axis.
    pub log_x: bool,
    /// Logarithmic y axis.
    pub log_y: bool,
}

/// Ten colours (Tableau 10), paired with five marker shapes: 50 distinct series.
const COLORS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Picture size [px].
const SIZE: (u32, u32) = (1180, 620);
/// Width of the legend panel right of the data [px].
const LEGEND_WIDTH: u32 = 330;
/// Markers are drawn on series with at most this many points.
const MARKER_POINTS: usize = 60;
/// Title font size [px] and the characters that fit on one line of the data panel.
const TITLE_FONT: u32 = 20;
const TITLE_CHARS: usize = 76;
/// Legend font size [px] and the characters that fit on one legend line.
const LEGEND_FONT: u32 = 14;
const LEGEND_CHARS: usize = 38;

/// Colour and marker shape (0–4) of series `i`: no two of the first 50 share both.
fn style(i: usize) -> (RGBColor, usize) {
    (COLORS[i % 10], (i + i / 10) % 5)
}

type Points = Vec<Vec<(f64, f64)>>;

/// `text` broken at spaces into lines of at most `width` characters (a longer word
/// stays whole on its own line).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The range of `vals` padded for drawing: ×/÷ 1.6 on a log axis, 5 % on a linear one.
fn axis_range(vals: &mut dyn Iterator<Item = f64>, log: bool) -> (f64, f64) {
    let (mut a, mut b) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in vals {
        (a, b) = (a.min(v), b.max(v));
    }
    if !a.is_finite() {
        return if log { (1e-3, 1.0) } else { (0.0, 1.0) };
    }
    if log {
        (a / 1.6, b * 1.6)
    } else {
        let pad = if b > a {
            0.05 * (b - a)
        } else {
            0.5 * a.abs().max(1e-12)
        };
        (a - pad, b + pad)
    }
}

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
            log_x: false,
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

    /// Uses logarithmic x and y axes (work–precision, scaling).
    pub fn log_log(mut self) -> Self {
        (self.log_x, self.log_y) = (true, true);
        self
    }

    /// Whether any series has a point to draw.
    pub fn has_data(&self) -> bool {
        self.points().0.iter().any(|p| !p.is_empty())
    }

    fn points(&self) -> (Points, (f64, f64), (f64, f64)) {
        let ok = |v: f64, log: bool| v.is_finite() && (!log || v > 0.0);
        let pts: Points = self
            .series
            .iter()
            .map(|s| {
                s.x.iter()
                    .zip(&s.y)
                    .filter(|(x, y)| ok(**x, self.log_x) && ok(**y, self.log_y))
                    .map(|(x, y)| (*x, *y))
                    .collect()
            })
            .collect();
        let xr = axis_range(&mut pts.iter().flatten().map(|p| p.0), self.log_x);
        let yr = axis_range(&mut pts.iter().flatten().map(|p| p.1), self.log_y);
        (pts, xr, yr)
    }

    /// Writes the chart to `path`: PNG or SVG by the extension.
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        register_fonts();
        let svg = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
        let res = if svg {
            self.draw(SVGBackend::new(path, self.size()).into_drawing_area())
        } else {
            self.draw(BitMapBackend::new(path, self.size()).into_drawing_area())
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

    fn has_legend(&self) -> bool {
        self.series.len() > 1 || self.series.first().is_some_and(|s| !s.label.is_empty())
    }

    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<(), String>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let title = wrap(&self.title, TITLE_CHARS);
        let band = 14 + (TITLE_FONT as i32 + 6) * title.len() as i32;
        let (head, body) = root.split_vertically(band);
        for (k, line) in title.iter().enumerate() {
            let style = TextStyle::from(("sans-serif", TITLE_FONT).into_font()).pos(
                plotters::style::text_anchor::Pos::new(
                    plotters::style::text_anchor::HPos::Center,
                    plotters::style::text_anchor::VPos::Top,
                ),
            );
            let x = (SIZE.0 - if self.has_legend() { LEGEND_WIDTH } else { 0 }) as i32 / 2;
            head.draw(&Text::new(
                line.clone(),
                (x, 10 + (TITLE_FONT as i32 + 6) * k as i32),
                style,
            ))
            .map_err(|e| e.to_string())?;
        }
        let (plot, legend) = if self.has_legend() {
            let (p, l) = body.split_horizontally(SIZE.0 - LEGEND_WIDTH);
            (p, Some(l))
        } else {
            (body, None)
        };
        let (pts, (x0, x1), (y0, y1)) = self.points();
        match (self.log_x, self.log_y) {
            (true, true) => self.draw_in(&plot, &pts, (x0..x1).log_scale(), (y0..y1).log_scale()),
            (true, false) => self.draw_in(&plot, &pts, (x0..x1).log_scale(), y0..y1),
            (false, true) => self.draw_in(&plot, &pts, x0..x1, (y0..y1).log_scale()),
            (false, false) => self.draw_in(&plot, &pts, x0..x1, y0..y1),
        }?;
        if let Some(l) = legend {
            self.draw_legend(&l, &pts)?;
        }
        root.present().map_err(|e| e.to_string())
    }

    fn draw_in<DB: DrawingBackend, X, Y>(
        &self,
        area: &DrawingArea<DB, Shift>,
        pts: &Points,
        x: X,
        y: Y,
    ) -> Result<(), String>
    where
        DB::ErrorType: 'static,
        X: AsRangedCoord<Value = f64>,
        X::CoordDescType: ValueFormatter<f64>,
        Y: AsRangedCoord<Value = f64>,
        Y::CoordDescType: ValueFormatter<f64>,
    {
        let mut chart = ChartBuilder::on(area)
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(90)
            .build_cartesian_2d(x, y)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 17))
            .x_label_formatter(&|v| fmt_tick(*v))
            .y_label_formatter(&|v| fmt_tick(*v))
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, p) in pts.iter().enumerate() {
            let (color, shape) = style(i);
            chart
                .draw_series(LineSeries::new(p.iter().copied(), color.stroke_width(2)))
                .map_err(|e| e.to_string())?;
            if p.len() <= MARKER_POINTS {
                for &c in p {
                    with_marker!(shape, c, color, |m| chart
                        .draw_series(std::iter::once(m))
                        .map(|_| ())
                        .map_err(|e| e.to_string()))?;
                }
            }
        }
        Ok(())
    }

    /// Picture size: [`SIZE`], taller when the legend needs more lines than fit
    /// beside the data (the legend is never cut off).
    fn size(&self) -> (u32, u32) {
        if !self.has_legend() {
            return SIZE;
        }
        let lines: usize = self
            .series
            .iter()
            .map(|s| wrap(&s.label, LEGEND_CHARS).len())
            .sum();
        let title = 14 + (TITLE_FONT + 6) * wrap(&self.title, TITLE_CHARS).len() as u32;
        let legend = 30 + (LEGEND_FONT + 7) * lines as u32 + 3 * self.series.len() as u32 + 20;
        (SIZE.0, SIZE.1.max(title + legend))
    }

    /// The legend panel: one entry per series (its line, and its marker where the
    /// data panel draws markers), labels wrapped to the panel's width.
    fn draw_legend<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        pts: &Points,
    ) -> Result<(), String>
    where
        DB::ErrorType: 'static,
    {
        let row = LEGEND_FONT as i32 + 7;
        let mut y = 30;
        for (i, s) in self.series.iter().enumerate() {
            let (color, shape) = style(i);
            area.draw(&PathElement::new(
                vec![(8, y), (36, y)],
                color.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?;
            if pts.get(i).is_some_and(|p| p.len() <= MARKER_POINTS) {
                with_marker!(shape, (22, y), color, |m| area
                    .draw(&m)
                    .map_err(|e| e.to_string()))?;
            }
            for line in wrap(&s.label, LEGEND_CHARS) {
                area.draw(&Text::new(line, (44, y - 8), ("sans-serif", LEGEND_FONT)))
                    .map_err(|e| e.to_string())?;
                y += row;
            }
            y += 3;
        }
        Ok(())
    }
}

/// Calls `$draw` with a marker of shape `$shape` (0–4) centred at `$c`.
macro_rules! with_marker {
    ($shape:expr, $c:expr, $color:expr, $draw:expr) => {{
        let st = $color.stroke_width(2);
        let e = EmptyElement::at($c);
        match $shape {
            0 => $draw(e + Circle::new((0, 0), 4, $color.filled())),
            1 => $draw(e + TriangleMarker::new((0, 0), 6, st)),
            2 => $draw(e + Rectangle::new([(-4, -4), (4, 4)], st)),
            3 => $draw(e + Cross::new((0, 0), 5, st)),
            _ => $draw(e + Circle::new((0, 0), 5, st)),
        }
    }};
}
use with_marker;

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

/// The plots of a [`crate::compare::Comparison`], each as PNG and SVG in `dir`: per
/// coordinate (`coords`, or x and y of the first body when empty) the methods' curves
/// overlaid (`compare_<body>_<c>`) and, because converged methods overlay exactly,
/// each method's distance |q − q_ref| from the first completed method on a log scale
/// (`compare_<body>_<c>_difference`); the energy error |E − E₀| (`compare_energy`)
/// and ‖Φ‖ (`compare_constraints`) of every method, log scale. Runs that did not
/// reach t_end are left out. Returns the files written.
pub fn write_comparison_plots(
    cmp: &crate::compare::Comparison,
    dir: &Path,
    coords: &[Coordinate],
) -> Result<Vec<PathBuf>, Error> {
    let done: Vec<(String, &Trajectory)> =
        cmp.completed().map(|(m, t)| (m.to_string(), t)).collect();
    let mut files = Vec::new();
    let Some((ref_name, reference)) = done.first().cloned() else {
        return Ok(files);
    };
    let default;
    let coords = if coords.is_empty() && reference.n_bodies() > 0 {
        default = vec![(0, "x".to_string()), (0, "y".to_string())];
        &default[..]
    } else {
        coords
    };
    let model = &reference.model;
    for (b, c) in coords {
        let name = format!("{}.{c}", reference.body_names[*b]);
        let Some(q_ref) = reference.coordinate(*b, c) else {
            continue;
        };
        let mut overlay =
            LineChart::new(format!("{model}: {name} by method"), "t [s]", name.clone());
        let mut diff = LineChart::new(
            format!("{model}: {name}, distance from {ref_name}"),
            "t [s]",
            format!("|{name} − {name}({ref_name})| (log scale)"),
        )
        .log();
        for (m, t) in &done {
            let Some(q) = t.coordinate(*b, c) else {
                continue;
            };
            overlay = overlay.with(Series::new(m.clone(), t.t.clone(), q.clone()));
            if m != &ref_name && t.t.len() == reference.t.len() {
                let d = q.iter().zip(&q_ref).map(|(a, r)| (a - r).abs()).collect();
                diff = diff.with(Series::new(m.clone(), t.t.clone(), d));
            }
        }
        let stem = format!("compare_{}_{c}", reference.body_names[*b]);
        files.extend(overlay.write_png_svg(dir, &stem)?);
        if diff.has_data() {
            files.extend(diff.write_png_svg(dir, &format!("{stem}_difference"))?);
        }
    }
    let mut energy = LineChart::new(
        format!("{model}: energy error by method"),
        "t [s]",
        "|E(t) − E(0)| [J] (log scale)",
    )
    .log();
    let mut cons = LineChart::new(
        format!("{model}: constraint violation by method"),
        "t [s]",
        "‖Φ‖ (log scale)",
    )
    .log();
    for (m, t) in &done {
        let de = t.energy_error().iter().map(|e| e.abs()).collect();
        energy = energy.with(Series::new(m.clone(), t.t.clone(), de));
        cons = cons.with(Series::new(m.clone(), t.t.clone(), t.phi_norm.clone()));
    }
    if energy.has_data() {
        files.extend(energy.write_png_svg(dir, "compare_energy")?);
    }
    if cons.has_data() {
        files.extend(cons.write_png_svg(dir, "compare_constraints")?);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_wraps_at_spaces_within_the_width() {
        let lines = wrap(
            "Energy error: five-bar — alf-dca-proj:mu=0 — rk45 rtol=1e-10",
            20,
        );
        assert!(lines.len() >= 3, "{lines:?}");
        assert!(lines.iter().all(|l| l.chars().count() <= 20), "{lines:?}");
        assert_eq!(
            lines.join(" "),
            "Energy error: five-bar — alf-dca-proj:mu=0 — rk45 rtol=1e-10"
        );
        assert_eq!(wrap("short", 20), vec!["short".to_string()]);
        assert_eq!(wrap("", 20), vec![String::new()]);
    }

    #[test]
    fn every_series_of_fifty_gets_its_own_colour_and_marker() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..50 {
            let (c, m) = style(i);
            assert!(
                seen.insert((c.0, c.1, c.2, m)),
                "series {i} repeats a style"
            );
        }
    }

    #[test]
    fn log_axes_skip_non_positive_points_and_pad_by_a_factor() {
        let chart = LineChart::new("t", "x", "y")
            .with(Series::new(
                "a",
                vec![0.0, 1.0, 10.0],
                vec![1.0, -1.0, 100.0],
            ))
            .log_log();
        let (pts, xr, yr) = chart.points();
        assert_eq!(pts[0], vec![(10.0, 100.0)]);
        assert!((xr.0 - 10.0 / 1.6).abs() < 1e-12 && (yr.1 - 160.0).abs() < 1e-9);
        assert!(!LineChart::new("t", "x", "y").log().has_data());
    }
}
