//! Drawing a [`LineChart`] with plotters: title band, data panel with the ticks of
//! [`LineChart::axis_ticks`], series in the styles of [`LineChart::styles`], legend
//! panel, and the "exactly 0" text of a log panel with nothing to draw.

use plotters::coord::Shift;
use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{
    LEGEND_CHARS, LEGEND_FONT, LEGEND_WIDTH, LineChart, MARGIN, Points, Shown, TICK_FONT,
    TITLE_CHARS, TITLE_FONT, X_LABEL_AREA, wrap,
};
use crate::chart::style::{Marker, Style, marker_indices};
use crate::chart::ticks::Tick;

/// Calls `$draw` with a marker `$marker` centred at `$c` in colour `$color`.
macro_rules! with_marker {
    ($marker:expr, $c:expr, $color:expr, $draw:expr) => {{
        let st = $color.stroke_width(2);
        let e = EmptyElement::at($c);
        match $marker {
            Marker::Circle => $draw(e + Circle::new((0, 0), 4, $color.filled())),
            Marker::Triangle => $draw(e + TriangleMarker::new((0, 0), 6, st)),
            Marker::Square => $draw(e + Rectangle::new([(-4, -4), (4, 4)], st)),
            Marker::Cross => $draw(e + Cross::new((0, 0), 5, st)),
            Marker::Diamond => {
                $draw(e + PathElement::new(vec![(0, -6), (6, 0), (0, 6), (-6, 0), (0, -6)], st))
            }
            Marker::Ring => $draw(e + Circle::new((0, 0), 5, st)),
        }
    }};
}

fn rgb(s: &Style) -> RGBColor {
    RGBColor(s.color.0, s.color.1, s.color.2)
}

/// The label of the tick nearest to `v` (the mesh asks for the labels of the key
/// points it was given).
fn label_of(ticks: &[Tick], v: f64) -> String {
    ticks
        .iter()
        .min_by(|a, b| (a.value - v).abs().total_cmp(&(b.value - v).abs()))
        .map(|t| t.label.clone())
        .unwrap_or_default()
}

/// Light grid lines of a log axis: 2…9 × 10ᵏ inside the range, when it spans few
/// enough decades for them to be told apart.
fn light_points(lo: f64, hi: f64, log: bool) -> Vec<f64> {
    if !log || hi / lo > 1e8 {
        return Vec::new();
    }
    let (d0, d1) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    (d0..=d1)
        .flat_map(|d| (2..=9).map(move |m| f64::from(m) * 10f64.powi(d)))
        .filter(|v| *v >= lo && *v <= hi)
        .collect()
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

impl LineChart {
    pub(super) fn draw<DB: DrawingBackend>(
        &self,
        root: DrawingArea<DB, Shift>,
    ) -> Result<(), String>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(err)?;
        let size = self.size();
        let (head, body) = root.split_vertically(self.title_band());
        let panel_width = size.0 - if self.has_legend() { LEGEND_WIDTH } else { 0 };
        for (k, line) in wrap(&self.title, TITLE_CHARS).iter().enumerate() {
            let style = TextStyle::from(("sans-serif", TITLE_FONT).into_font())
                .pos(Pos::new(HPos::Center, VPos::Top));
            let y = 10 + (TITLE_FONT as i32 + 6) * k as i32;
            head.draw(&Text::new(line.clone(), (panel_width as i32 / 2, y), style))
                .map_err(err)?;
        }
        let (plot, legend) = if self.has_legend() {
            let (p, l) = body.split_horizontally(panel_width);
            (p, Some(l))
        } else {
            (body, None)
        };
        let (pts, (x0, x1), (y0, y1)) = self.points();
        let (xt, yt) = self.axis_ticks();
        let nothing = pts.iter().all(Vec::is_empty);
        let x = Axis {
            lo: x0,
            hi: x1,
            log: self.log_x,
            bold: xt.iter().map(|t| t.value).collect(),
            light: light_points(x0, x1, self.log_x),
        };
        // a log panel with nothing to draw: x axis, no y ticks, and the reason
        let y = if nothing && self.log_y {
            Axis {
                lo: 0.0,
                hi: 1.0,
                log: false,
                bold: Vec::new(),
                light: Vec::new(),
            }
        } else {
            Axis {
                lo: y0,
                hi: y1,
                log: self.log_y,
                bold: yt.iter().map(|t| t.value).collect(),
                light: light_points(y0, y1, self.log_y),
            }
        };
        let axes = Axes {
            pts: &pts,
            xt: &xt,
            yt: &yt,
        };
        self.draw_in(&plot, &axes, x, y)?;
        if let Some(l) = legend {
            self.draw_legend(&l)?;
        }
        root.present().map_err(err)
    }

    fn draw_in<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        axes: &Axes,
        x: Axis,
        y: Axis,
    ) -> Result<(), String>
    where
        DB::ErrorType: 'static,
    {
        let mut chart = ChartBuilder::on(area)
            .margin(MARGIN)
            .x_label_area_size(X_LABEL_AREA)
            .y_label_area_size(self.y_label_area(axes.yt))
            .build_cartesian_2d(x, y)
            .map_err(err)?;
        let (xt, yt) = (axes.xt, axes.yt);
        let x_fmt = |v: &f64| label_of(xt, *v);
        let y_fmt = |v: &f64| label_of(yt, *v);
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .x_labels(xt.len().max(2))
            .y_labels(yt.len())
            .label_style(("sans-serif", TICK_FONT))
            .axis_desc_style(("sans-serif", 17))
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .light_line_style(RGBColor(236, 236, 236))
            .bold_line_style(RGBColor(200, 200, 200))
            .draw()
            .map_err(err)?;
        let styles = self.styles();
        for (i, p) in axes.pts.iter().enumerate() {
            let color = rgb(&styles[i]);
            chart
                .draw_series(LineSeries::new(p.iter().copied(), color.stroke_width(2)))
                .map_err(err)?;
            for k in marker_indices(p.len(), i) {
                with_marker!(styles[i].marker, p[k], color, |m| chart
                    .draw_series(std::iter::once(m))
                    .map(|_| ())
                    .map_err(err))?;
            }
        }
        if axes.pts.iter().all(Vec::is_empty) {
            let zero: Vec<&str> = self
                .series
                .iter()
                .zip(self.shown())
                .filter(|(_, s)| *s == Shown::ExactlyZero)
                .map(|(s, _)| s.label.as_str())
                .collect();
            let text = if zero.len() == 1 && self.series.len() == 1 {
                "exactly 0".to_string()
            } else {
                format!("{}: exactly 0", zero.join(", "))
            };
            let panel = chart.plotting_area().strip_coord_spec();
            let (w, h) = panel.dim_in_pixel();
            let style = TextStyle::from(("sans-serif", 22).into_font())
                .color(&RGBColor(90, 90, 90))
                .pos(Pos::new(HPos::Center, VPos::Center));
            panel
                .draw(&Text::new(text, (w as i32 / 2, h as i32 / 2), style))
                .map_err(err)?;
        }
        Ok(())
    }

    /// The legend panel: one entry per series (its line and marker), labels wrapped to
    /// the panel's width.
    fn draw_legend<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String>
    where
        DB::ErrorType: 'static,
    {
        let row = LEGEND_FONT as i32 + 7;
        let mut y = 30;
        let styles = self.styles();
        for (s, label) in styles.iter().zip(self.legend_labels()) {
            let color = rgb(s);
            area.draw(&PathElement::new(
                vec![(8, y), (36, y)],
                color.stroke_width(2),
            ))
            .map_err(err)?;
            with_marker!(s.marker, (22, y), color, |m| area.draw(&m).map_err(err))?;
            for line in wrap(&label, LEGEND_CHARS) {
                area.draw(&Text::new(line, (44, y - 8), ("sans-serif", LEGEND_FONT)))
                    .map_err(err)?;
                y += row;
            }
            y += 3;
        }
        Ok(())
    }
}

/// What the data panel draws: points and ticks.
struct Axes<'a> {
    pts: &'a Points,
    xt: &'a [Tick],
    yt: &'a [Tick],
}

/// A linear or logarithmic axis over `[lo, hi]` whose key points are the chart's
/// ticks (`bold`, labelled) and grid lines (`light`).
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
    bold: Vec<f64>,
    light: Vec<f64>,
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let f = |x: f64| {
            if self.log {
                x.max(f64::MIN_POSITIVE).log10()
            } else {
                x
            }
        };
        let (a, b) = (f(self.lo), f(self.hi));
        let t = if b > a { (f(*v) - a) / (b - a) } else { 0.5 };
        // far outside points are clipped anyway; keep the pixel in i32
        let t = if t.is_finite() {
            t.clamp(-10.0, 11.0)
        } else {
            0.0
        };
        limit.0 + (t * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}
