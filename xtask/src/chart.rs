//! Scatter-and-line charts for the method comparisons: logarithmic x and y axes, a
//! distinct colour and marker per series, the legend in its own panel right of the
//! data (never over it). PNG and SVG.

use std::path::Path;

use mbs::plot::Series;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

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

const SIZE: (u32, u32) = (1180, 620);
const LEGEND_WIDTH: u32 = 360;

/// Colour and marker shape (0–4) of series `i`: no two of the first 50 share both.
fn style(i: usize) -> (RGBColor, usize) {
    (COLORS[i % 10], (i + i / 10) % 5)
}

/// A chart of series drawn as markers joined by lines.
#[derive(Clone, Debug)]
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    pub log_x: bool,
    pub log_y: bool,
}

type Pts = Vec<Vec<(f64, f64)>>;

impl Chart {
    pub fn new(title: impl Into<String>, x: impl Into<String>, y: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            x_label: x.into(),
            y_label: y.into(),
            series: Vec::new(),
            log_x: false,
            log_y: false,
        }
    }

    pub fn log_log(mut self) -> Self {
        (self.log_x, self.log_y) = (true, true);
        self
    }

    pub fn with(mut self, s: Series) -> Self {
        self.series.push(s);
        self
    }

    /// Whether any series has a point to draw.
    pub fn has_data(&self) -> bool {
        self.points().0.iter().any(|p| !p.is_empty())
    }

    fn points(&self) -> (Pts, (f64, f64), (f64, f64)) {
        let ok = |v: f64, log: bool| v.is_finite() && (!log || v > 0.0);
        let pts: Pts = self
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
        let range = |vals: &mut dyn Iterator<Item = f64>, log: bool| {
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
        };
        let xr = range(&mut pts.iter().flatten().map(|p| p.0), self.log_x);
        let yr = range(&mut pts.iter().flatten().map(|p| p.1), self.log_y);
        (pts, xr, yr)
    }

    /// Writes `<stem>.png` and `<stem>.svg` into `dir`.
    pub fn write_png_svg(&self, dir: &Path, stem: &str) -> Result<(), String> {
        mbs::plot::register_fonts();
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let png = dir.join(format!("{stem}.png"));
        self.draw(BitMapBackend::new(&png, SIZE).into_drawing_area())?;
        let svg = dir.join(format!("{stem}.svg"));
        self.draw(SVGBackend::new(&svg, SIZE).into_drawing_area())
    }

    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<(), String>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (plot, legend) = root.split_horizontally(SIZE.0 - LEGEND_WIDTH);
        let (pts, (x0, x1), (y0, y1)) = self.points();
        match (self.log_x, self.log_y) {
            (true, true) => self.draw_in(&plot, &pts, (x0..x1).log_scale(), (y0..y1).log_scale()),
            (true, false) => self.draw_in(&plot, &pts, (x0..x1).log_scale(), y0..y1),
            (false, true) => self.draw_in(&plot, &pts, x0..x1, (y0..y1).log_scale()),
            (false, false) => self.draw_in(&plot, &pts, x0..x1, y0..y1),
        }?;
        self.draw_legend(&legend)?;
        root.present().map_err(|e| e.to_string())
    }

    fn draw_in<DB: DrawingBackend, X, Y>(
        &self,
        area: &DrawingArea<DB, Shift>,
        pts: &Pts,
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
            .caption(&self.title, ("sans-serif", 21))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(80)
            .build_cartesian_2d(x, y)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 16))
            .x_label_formatter(&|v| tick(*v))
            .y_label_formatter(&|v| tick(*v))
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, p) in pts.iter().enumerate() {
            let (color, shape) = style(i);
            chart
                .draw_series(LineSeries::new(p.iter().copied(), color.stroke_width(2)))
                .map_err(|e| e.to_string())?;
            // markers only where they stay readable (work–precision, scaling)
            if p.len() <= 60 {
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

    fn draw_legend<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String>
    where
        DB::ErrorType: 'static,
    {
        let row = 22i32;
        for (i, s) in self.series.iter().enumerate() {
            let (color, shape) = style(i);
            let y = 50 + row * i as i32;
            area.draw(&PathElement::new(
                vec![(8, y), (36, y)],
                color.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?;
            with_marker!(shape, (22, y), color, |m| area
                .draw(&m)
                .map_err(|e| e.to_string()))?;
            area.draw(&Text::new(s.label.clone(), (44, y - 8), ("sans-serif", 14)))
                .map_err(|e| e.to_string())?;
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

fn tick(v: f64) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".into()
    } else if !(1e-3..1e4).contains(&a) {
        format!("{v:.0e}")
    } else {
        let s = format!("{v:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}
