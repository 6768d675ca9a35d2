//! Plots to PNG and SVG with plotters, without system fonts or libraries: DejaVu Sans
//! (embedded by the `dejavu` crate; Bitstream Vera / DejaVu font licence) is registered
//! as "sans-serif" before the first plot.
//!
//! One chart type serves the CLI's time histories and the bench report: linear or
//! logarithmic axes with ticks and labels from [`crate::chart::ticks`], a colour and
//! marker shape per series from [`crate::chart::style`] (markers on every point of a
//! short series, on about a dozen of a long one), the legend in its own panel right of
//! the data (never over it), titles wrapped onto a second line rather than clipped,
//! and "exactly 0" written in a log-scale panel whose series are all zero.

mod draw;
mod outputs;

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::prelude::*;

use crate::chart::style::{Style, StyleKey, styles};
use crate::chart::ticks::{Tick, fit_horizontal, padded_range as axis_range, ticks};
use crate::error::Error;

pub use outputs::{comparison_charts, run_charts, write_comparison_plots, write_plots};

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
    /// Group (series of one group share a colour) and variant (series of one variant
    /// share a marker); see [`crate::chart::style::styles`].
    pub group: Option<(String, String)>,
}

impl Series {
    /// A series.
    pub fn new(label: impl Into<String>, x: Vec<f64>, y: Vec<f64>) -> Self {
        Self {
            label: label.into(),
            x,
            y,
            group: None,
        }
    }

    /// Puts the series into `group` (one colour) as `variant` (one marker shape), e.g.
    /// a method's runs with 1 and 2 threads.
    pub fn grouped(mut self, group: impl Into<String>, variant: impl Into<String>) -> Self {
        self.group = Some((group.into(), variant.into()));
        self
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

/// Picture size [px].
const SIZE: (u32, u32) = (1180, 620);
/// Width of the legend panel right of the data [px].
const LEGEND_WIDTH: u32 = 330;
/// Title font size [px] and the characters that fit on one line of the data panel.
const TITLE_FONT: u32 = 20;
const TITLE_CHARS: usize = 76;
/// Legend font size [px] and the characters that fit on one legend line.
const LEGEND_FONT: u32 = 14;
const LEGEND_CHARS: usize = 38;
/// Tick-label font size [px] and the width of one of its characters (DejaVu Sans
/// digits are 0.64 em wide).
const TICK_FONT: u32 = 15;
const TICK_CHAR_PX: f64 = 9.6;
/// Margin around the data panel and the height of the x-label area [px].
const MARGIN: u32 = 12;
const X_LABEL_AREA: u32 = 52;

/// The points of each series that can be drawn.
type Points = Vec<Vec<(f64, f64)>>;

/// What a series shows on the chart's axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// Some points are drawn.
    Drawn,
    /// Every finite value is exactly 0 on a logarithmic axis: nothing to draw, the
    /// chart says "exactly 0".
    ExactlyZero,
    /// No finite value.
    NoData,
}

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

    /// Whether the chart has something to show: a point to draw, or a series that is
    /// exactly 0 on a log axis (the chart says so).
    pub fn has_data(&self) -> bool {
        self.shown().iter().any(|s| *s != Shown::NoData)
    }

    /// What each series shows.
    pub fn shown(&self) -> Vec<Shown> {
        let pts = self.points().0;
        self.series
            .iter()
            .zip(&pts)
            .map(|(s, p)| {
                if !p.is_empty() {
                    return Shown::Drawn;
                }
                let ys: Vec<f64> = s
                    .x
                    .iter()
                    .zip(&s.y)
                    .filter(|(x, y)| x.is_finite() && (!self.log_x || **x > 0.0) && y.is_finite())
                    .map(|(_, y)| *y)
                    .collect();
                if self.log_y && !ys.is_empty() && ys.iter().all(|y| *y == 0.0) {
                    Shown::ExactlyZero
                } else {
                    Shown::NoData
                }
            })
            .collect()
    }

    /// The style of every series: no two share colour and marker (the first 60).
    pub fn styles(&self) -> Vec<Style> {
        let keys: Vec<StyleKey> = self
            .series
            .iter()
            .map(|s| StyleKey {
                group: s.group.as_ref().map(|g| g.0.as_str()),
                variant: s.group.as_ref().map(|g| g.1.as_str()),
            })
            .collect();
        styles(&keys)
    }

    /// The drawable points of each series and the padded x and y ranges.
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
        let mut xr = axis_range(&mut pts.iter().flatten().map(|p| p.0), self.log_x);
        if pts.iter().all(Vec::is_empty) {
            // nothing drawn ("exactly 0"): the x range of the finite values
            let xs = self.series.iter().flat_map(|s| {
                s.x.iter()
                    .zip(&s.y)
                    .filter(|(x, y)| ok(**x, self.log_x) && y.is_finite())
                    .map(|(x, _)| *x)
            });
            xr = axis_range(&mut xs.collect::<Vec<_>>().into_iter(), self.log_x);
        }
        let yr = axis_range(&mut pts.iter().flatten().map(|p| p.1), self.log_y);
        (pts, xr, yr)
    }

    /// The x and y ticks the picture shows (what the tick labels read).
    pub fn axis_ticks(&self) -> (Vec<Tick>, Vec<Tick>) {
        let (pts, (x0, x1), (y0, y1)) = self.points();
        let nothing_drawn = pts.iter().all(Vec::is_empty);
        let (w, h) = self.data_area();
        let yt = if nothing_drawn && self.log_y {
            Vec::new()
        } else {
            ticks(
                y0,
                y1,
                self.log_y,
                ((h as f64) / 48.0).clamp(3.0, 10.0) as usize,
            )
        };
        let y_area = self.y_label_area(&yt);
        let length = f64::from(w.saturating_sub(y_area + 2 * MARGIN));
        let xt = fit_horizontal(x0, x1, self.log_x, length, TICK_CHAR_PX, 18.0);
        (xt, yt)
    }

    /// Width of the y-label area for labels `yt` [px].
    fn y_label_area(&self, yt: &[Tick]) -> u32 {
        let chars = yt
            .iter()
            .map(|t| t.label.chars().count())
            .max()
            .unwrap_or(1);
        (chars as f64 * TICK_CHAR_PX) as u32 + 46
    }

    /// Width and height of the data panel with its axes [px].
    fn data_area(&self) -> (u32, u32) {
        let (w, h) = self.size();
        let w = w - if self.has_legend() { LEGEND_WIDTH } else { 0 };
        (w, h - self.title_band() - X_LABEL_AREA - 2 * MARGIN)
    }

    fn title_band(&self) -> u32 {
        14 + (TITLE_FONT + 6) * wrap(&self.title, TITLE_CHARS).len() as u32
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

    /// The legend text of each series: its label, with "(exactly 0)" or "(no data)"
    /// when nothing of it is drawn.
    fn legend_labels(&self) -> Vec<String> {
        self.series
            .iter()
            .zip(self.shown())
            .map(|(s, shown)| match shown {
                Shown::Drawn => s.label.clone(),
                Shown::ExactlyZero => format!("{} (exactly 0)", s.label),
                Shown::NoData => format!("{} (no data)", s.label),
            })
            .collect()
    }

    /// Picture size: [`SIZE`], taller when the legend needs more lines than fit
    /// beside the data (the legend is never cut off).
    fn size(&self) -> (u32, u32) {
        if !self.has_legend() {
            return SIZE;
        }
        let lines: usize = self
            .legend_labels()
            .iter()
            .map(|l| wrap(l, LEGEND_CHARS).len())
            .sum();
        let legend = 30 + (LEGEND_FONT + 7) * lines as u32 + 3 * self.series.len() as u32 + 20;
        (SIZE.0, SIZE.1.max(self.title_band() + legend))
    }
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
        assert!((xr.0 - 10.0 / 3.0).abs() < 1e-12 && (yr.1 - 300.0).abs() < 1e-9);
        assert!(!LineChart::new("t", "x", "y").log().has_data());
    }

    /// A log panel whose series are all 0 has something to say ("exactly 0"), x
    /// ticks over the samples and no y ticks; a NaN-only series has no data.
    #[test]
    fn an_all_zero_log_panel_says_exactly_zero() {
        let t: Vec<f64> = (0..=10).map(|k| 0.1 * f64::from(k)).collect();
        let chart = LineChart::new("c", "t [s]", "‖Φ‖")
            .with(Series::new("‖Φ‖", t.clone(), vec![0.0; 11]))
            .with(Series::new("‖Φ̈‖", t.clone(), vec![f64::NAN; 11]))
            .log();
        assert!(chart.has_data());
        assert_eq!(chart.shown(), [Shown::ExactlyZero, Shown::NoData]);
        assert_eq!(chart.legend_labels()[0], "‖Φ‖ (exactly 0)");
        let (xt, yt) = chart.axis_ticks();
        assert!(yt.is_empty());
        assert_eq!(xt.first().map(|t| t.label.as_str()), Some("0"));
        assert_eq!(xt.last().map(|t| t.label.as_str()), Some("1"));
        let dir = std::env::temp_dir().join(format!("mbs-zero-plot-{}", std::process::id()));
        assert_eq!(chart.write_png_svg(&dir, "zero").unwrap().len(), 2);
        let svg = std::fs::read_to_string(dir.join("zero.svg")).unwrap();
        assert!(svg.contains("exactly 0"), "the panel says it");
    }
}
