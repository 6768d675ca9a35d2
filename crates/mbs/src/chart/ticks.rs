//! Axis ticks and their labels, for every chart of the workspace (the PNG/SVG plots of
//! the CLI and of the bench report, and the panels of the animation page, which get
//! their ticks from here): nice positions (1, 2 or 5 × 10ᵏ apart on a linear axis,
//! decades or 1-2-5 mantissas on a logarithmic one) and one label formatter,
//! [`tick_labels`].

use serde::Serialize;

/// One tick of an axis: its position and its label.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tick {
    /// Position (data units).
    pub value: f64,
    /// Label, from [`tick_labels`].
    pub label: String,
}

/// At most `max` (≥ 2) ticks inside `[lo, hi]` (a logarithmic axis needs `lo > 0`;
/// one more when no nice step gives 2 to `max`), labelled by [`tick_labels`]. Empty
/// when the range is not finite.
///
/// ```
/// let t = mbs::chart::ticks::ticks(-2.3e-6, 1.1e-6, false, 8);
/// let labels: Vec<&str> = t.iter().map(|t| t.label.as_str()).collect();
/// assert_eq!(labels, ["-2e-6", "-1.5e-6", "-1e-6", "-5e-7", "0", "5e-7", "1e-6"]);
/// ```
pub fn ticks(lo: f64, hi: f64, log: bool, max: usize) -> Vec<Tick> {
    let max = max.max(2);
    if !(lo.is_finite() && hi.is_finite()) || (log && lo <= 0.0) {
        return Vec::new();
    }
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    let values = if log {
        log_values(lo, hi, max)
    } else {
        linear_values(lo, hi, max)
    };
    let labels = tick_labels(&values, log);
    values
        .into_iter()
        .zip(labels)
        .map(|(value, label)| Tick { value, label })
        .collect()
}

/// The ticks of a horizontal axis `length_px` long whose labels are `char_px` wide per
/// character: the most (up to 10) whose labels keep at least `gap_px` between
/// neighbours, so that no two run together.
pub fn fit_horizontal(
    lo: f64,
    hi: f64,
    log: bool,
    length_px: f64,
    char_px: f64,
    gap_px: f64,
) -> Vec<Tick> {
    let pos = |v: f64| {
        let (a, b, v) = if log {
            (lo.log10(), hi.log10(), v.log10())
        } else {
            (lo, hi, v)
        };
        if b > a {
            length_px * (v - a) / (b - a)
        } else {
            0.0
        }
    };
    let mut best = ticks(lo, hi, log, 2);
    for max in (3..=10).rev() {
        let t = ticks(lo, hi, log, max);
        let fits = t.windows(2).all(|w| {
            let half = |t: &Tick| 0.5 * char_px * t.label.chars().count() as f64;
            pos(w[1].value) - pos(w[0].value) >= half(&w[0]) + half(&w[1]) + gap_px
        });
        if fits {
            best = t;
            break;
        }
    }
    best
}

/// The range of `values` padded for drawing: ×/÷ 1.6 on a log axis, 5 % on a linear
/// one (a constant c: c ± |c|/2, or ±1 around 0; on a log axis ×/÷ 3). Non-finite
/// values (and on a log axis non-positive ones) must be filtered out by the caller;
/// without values: (0, 1), or (1e-3, 1) on a log axis.
pub fn padded_range(values: &mut dyn Iterator<Item = f64>, log: bool) -> (f64, f64) {
    let (mut a, mut b) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        (a, b) = (a.min(v), b.max(v));
    }
    if !a.is_finite() {
        return if log { (1e-3, 1.0) } else { (0.0, 1.0) };
    }
    if log {
        if b > a * 1.000001 {
            (a / 1.6, b * 1.6)
        } else {
            (a / 3.0, a * 3.0)
        }
    } else {
        let pad = if b > a {
            0.05 * (b - a)
        } else if a != 0.0 {
            0.5 * a.abs()
        } else {
            1.0
        };
        (a - pad, b + pad)
    }
}

/// 10ᵈ, exactly as the decimal literal reads.
fn pow10(d: i32) -> f64 {
    format!("1e{d}").parse().unwrap_or(f64::NAN)
}

/// `k × m × 10ᵉ` computed so that decimal ticks come out as their literals (0.3, not
/// 0.30000000000000004) and zero as exactly 0.
fn multiple(k: i64, m: i64, e: i32) -> f64 {
    let n = (k * m) as f64;
    if e < 0 { n / pow10(-e) } else { n * pow10(e) }
}

fn linear_values(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    if hi <= lo {
        return vec![lo];
    }
    let e0 = (hi - lo).log10().floor() as i32;
    // candidate steps from fine to coarse: the finest with 2 to `max` ticks, else the
    // one with the fewest ticks above 1
    let mut fewest: Option<(i64, i64, i64, i32)> = None;
    for e in e0 - 2..=e0 + 1 {
        for m in [1, 2, 5] {
            let step = multiple(1, m, e);
            let (k0, k1) = ((lo / step).ceil() as i64, (hi / step).floor() as i64);
            let count = k1 - k0 + 1;
            if count >= 2 && count as usize <= max {
                return (k0..=k1).map(|k| multiple(k, m, e)).collect();
            }
            if count >= 2 && fewest.is_none_or(|f| count < f.1 - f.0 + 1) {
                fewest = Some((k0, k1, m, e));
            }
        }
    }
    match fewest {
        Some((k0, k1, m, e)) => (k0..=k1).map(|k| multiple(k, m, e)).collect(),
        None => vec![lo, hi],
    }
}

fn log_values(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    let (a, b) = (lo.log10(), hi.log10());
    let d0 = (a - 1e-9).ceil() as i32;
    let d1 = (b + 1e-9).floor() as i32;
    let decades = (d1 - d0 + 1).max(0) as usize;
    if decades >= 2 {
        // every `stride`-th decade, aligned on multiples of the stride
        let stride = decades.div_ceil(max) as i32;
        let v: Vec<f64> = (d0..=d1)
            .filter(|d| d.rem_euclid(stride) == 0)
            .map(pow10)
            .collect();
        if decades * 3 <= max {
            return mantissas(lo, hi, d0 - 1, d1);
        }
        if v.len() >= 2 {
            return v;
        }
        return (d0..=d1).step_by(stride as usize).map(pow10).collect();
    }
    let v = mantissas(lo, hi, d0 - 1, d1.max(d0));
    if v.len() >= 2 && v.len() <= max {
        v
    } else {
        linear_values(lo, hi, max)
    }
}

/// 1, 2 and 5 × 10ᵈ for d in `d0..=d1`, inside `[lo, hi]`.
fn mantissas(lo: f64, hi: f64, d0: i32, d1: i32) -> Vec<f64> {
    (d0..=d1)
        .flat_map(|d| [1, 2, 5].map(|m| multiple(1, m, d)))
        .filter(|v| *v >= lo * (1.0 - 1e-12) && *v <= hi * (1.0 + 1e-12))
        .collect()
}

/// The labels of ticks at `values` (ascending): the one tick-label formatter.
///
/// On a linear axis the number of significant digits follows the spacing of the
/// ticks, values closer to 0 than 1e-9 × the range are 0, and labels are fixed-point
/// (`0.25`, `1500`) or, for very small or large numbers, scientific (`1.5e-6`); on a
/// logarithmic axis each label has the fewest digits that give its value. Labels are
/// distinct whenever the values are, and 0 is always `0`.
///
/// ```
/// use mbs::chart::ticks::tick_labels;
/// assert_eq!(tick_labels(&[-4e-6, -2e-6, -4e-22, 2e-6], false), ["-4e-6", "-2e-6", "0", "2e-6"]);
/// assert_eq!(tick_labels(&[0.0, 0.25, 0.5], false), ["0", "0.25", "0.5"]);
/// assert_eq!(tick_labels(&[1e-10, 1e-5, 1.0, 100.0], true), ["1e-10", "1e-5", "1", "100"]);
/// ```
pub fn tick_labels(values: &[f64], log: bool) -> Vec<String> {
    if log {
        // 10000 next to 1e5 reads badly: fixed-point below 1e4 when scientific is needed
        let upper = if values.iter().any(|v| v.abs() >= 1e5) {
            1e4
        } else {
            1e5
        };
        return values.iter().map(|&v| shortest(v, upper)).collect();
    }
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    let (min, max) = finite
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        });
    let range = max - min;
    let snapped: Vec<f64> = values
        .iter()
        .map(|&v| if v.abs() < 1e-9 * range { 0.0 } else { v })
        .collect();
    let mut sorted = snapped.clone();
    sorted.retain(|v| v.is_finite());
    sorted.sort_by(f64::total_cmp);
    let step = sorted
        .windows(2)
        .map(|w| w[1] - w[0])
        .filter(|d| *d > 0.0)
        .fold(f64::INFINITY, f64::min);
    let largest = finite.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let step = if step.is_finite() { step } else { largest };
    if step == 0.0 || !step.is_finite() {
        return snapped.iter().map(|&v| shortest(v, 1e5)).collect();
    }
    // the decimal position of the spacing's last significant digit
    let mut r = step.log10().floor() as i32;
    for _ in 0..3 {
        let q = step / 10f64.powi(r);
        if (q - q.round()).abs() <= 1e-6 * q {
            break;
        }
        r -= 1;
    }
    for extra in 0..17 {
        let labels: Vec<String> = snapped
            .iter()
            .map(|&v| at_resolution(v, r - extra, largest))
            .collect();
        let mut uniq = labels.clone();
        uniq.sort();
        uniq.dedup();
        if uniq.len() == labels.len() {
            return labels;
        }
    }
    snapped.iter().map(|&v| shortest(v, 1e5)).collect()
}

/// `v` rounded at 10^r, fixed-point when the axis' numbers are of ordinary size
/// (the largest in [1e-3, 1e5), resolution at least 1e-9), else scientific.
fn at_resolution(v: f64, r: i32, largest: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    let fixed = (1e-3..1e5).contains(&largest) && r >= -9;
    let s = if fixed {
        format!("{:.*}", (-r).max(0) as usize, v)
    } else {
        let ev = if v == 0.0 {
            r
        } else {
            v.abs().log10().floor() as i32
        };
        format!("{:.*e}", (ev - r).max(0) as usize, v)
    };
    tidy(&s)
}

/// The fewest significant digits that give `v` back to 1e-9 (relative); fixed-point
/// in [1e-3, `upper`), else scientific.
fn shortest(v: f64, upper: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return if v == 0.0 { "0".into() } else { String::new() };
    }
    let a = v.abs();
    for d in 1..=17 {
        let s = if (1e-3..upper).contains(&a) {
            let e = a.log10().floor() as i32;
            format!("{:.*}", (d - 1 - e).max(0) as usize, v)
        } else {
            format!("{:.*e}", (d - 1) as usize, v)
        };
        if s.parse::<f64>().is_ok_and(|p| (p - v).abs() <= 1e-9 * a) {
            return tidy(&s);
        }
    }
    format!("{v:e}")
}

/// Trailing zeros of the fraction removed (`2.50` → `2.5`, `2.0e-6` → `2e-6`), and
/// `-0` → `0`.
fn tidy(s: &str) -> String {
    let (mantissa, exp) = match s.split_once('e') {
        Some((m, e)) => (m, Some(e)),
        None => (s, None),
    };
    let mantissa = if mantissa.contains('.') {
        mantissa.trim_end_matches('0').trim_end_matches('.')
    } else {
        mantissa
    };
    let mantissa = if mantissa.trim_start_matches('-').chars().all(|c| c == '0') {
        "0"
    } else {
        mantissa
    };
    match exp {
        Some(e) if mantissa != "0" => format!("{mantissa}e{e}"),
        _ => mantissa.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(t: &[Tick]) -> Vec<&str> {
        t.iter().map(|t| t.label.as_str()).collect()
    }

    fn distinct(l: &[&str]) -> bool {
        let mut u = l.to_vec();
        u.sort();
        u.dedup();
        u.len() == l.len()
    }

    /// The energy error of five-bar (±1e-6 J with round-off at 0) and a coordinate
    /// range with 1e-17 for zero: distinct labels, zero is "0".
    #[test]
    fn labels_are_distinct_and_zero_is_zero() {
        for (lo, hi) in [
            (-2.6e-6, 4e-7),
            (-1.3e-17, 1.1),
            (-0.98, 0.73),
            (9.80, 9.8000004),
            (1e3, 1.2e5),
            (-3.0, -2.99999),
            (0.0, 1e-12),
        ] {
            for max in 2..=10 {
                let t = ticks(lo, hi, false, max);
                let l = labels(&t);
                assert!(
                    t.len() >= 2 && t.len() <= max.max(3),
                    "{lo}..{hi} ({max}): {l:?}"
                );
                assert!(distinct(&l), "{lo}..{hi} ({max}): {l:?}");
                for tk in &t {
                    assert!(tk.value >= lo && tk.value <= hi, "{lo}..{hi}: {l:?}");
                    assert_eq!(tk.value == 0.0, tk.label == "0", "{lo}..{hi}: {l:?}");
                    assert_ne!(tk.label, "-0", "{l:?}");
                    let back: f64 = tk.label.parse().unwrap();
                    assert!((back - tk.value).abs() <= 1e-9 * (hi - lo), "{l:?}");
                }
            }
        }
        let l = tick_labels(&[-2e-6, -1.5e-6, -1e-6, -5e-7, -4e-22, 5e-7], false);
        assert_eq!(l, ["-2e-6", "-1.5e-6", "-1e-6", "-5e-7", "0", "5e-7"]);
        assert_eq!(
            tick_labels(&[-0.5, 1e-17, 0.5], false),
            ["-0.5", "0", "0.5"]
        );
        assert_eq!(
            tick_labels(&[0.0, 0.1, 0.2, 0.30000000000000004], false)[3],
            "0.3"
        );
    }

    #[test]
    fn log_ticks_are_decades_or_mantissas_with_short_labels() {
        let t = ticks(3e-17, 2e-3, true, 8);
        let l = labels(&t);
        assert!(t.len() >= 2 && t.len() <= 8, "{l:?}");
        assert!(l.iter().all(|s| s.starts_with("1e-")), "{l:?}");
        assert!(distinct(&l), "{l:?}");
        assert_eq!(labels(&ticks(0.8, 110.0, true, 8)), ["1", "10", "100"]);
        assert_eq!(labels(&ticks(0.8, 11.0, true, 8)), ["1", "2", "5", "10"]);
        let narrow = ticks(1.2, 1.9, true, 5);
        assert!(
            narrow.len() >= 2 && distinct(&labels(&narrow)),
            "{narrow:?}"
        );
    }

    /// 90 and 100 on a log axis 40 px apart do not fit side by side: fewer ticks.
    #[test]
    fn horizontal_labels_never_run_together() {
        for (lo, hi, log) in [
            (10.0, 4096.0, true),
            (1e-6, 1e-1, true),
            (0.0, 10.0, false),
            (-2.5e-6, 1e-6, false),
        ] {
            for length in [150.0, 300.0, 700.0] {
                let t = fit_horizontal(lo, hi, log, length, 9.0, 12.0);
                assert!(t.len() >= 2, "{t:?}");
                let pos = |v: f64| {
                    if log {
                        length * (v.log10() - lo.log10()) / (hi.log10() - lo.log10())
                    } else {
                        length * (v - lo) / (hi - lo)
                    }
                };
                for w in t.windows(2) {
                    let need = 4.5 * (w[0].label.len() + w[1].label.len()) as f64;
                    assert!(
                        pos(w[1].value) - pos(w[0].value) >= need,
                        "{lo}..{hi} in {length} px: {t:?}"
                    );
                }
            }
        }
    }
}
