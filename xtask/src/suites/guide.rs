//! Suite `guide`: work–precision diagrams (final position error against wall time and
//! against RHS evaluations, log–log, one line per method × integrator, one marker per
//! tolerance) on seven mechanisms, and the method for each mechanism class derived from
//! them by a stated rule (exported in results.json as `method_guide`); and the cost
//! of output sampling (`sampling_cost`).

use std::collections::BTreeMap;

use mbs::mechanisms::closed_loop;
use mbs::plot::{LineChart, Series};
use mbs::recommend::MechanismClass;
use mbs::{IntegratorChoice, Method, Model, Sampling, Trajectory};

use super::guide_defaults::{Combo, Measured, class_defaults};
use crate::report::{Suite, Table};
use crate::runner::{Ctx, Run, duration, not_applicable, sci};

/// Methods compared (one of each family).
const METHODS: [&str; 9] = [
    "aba",
    "alf-joint",
    "lagrange-projection",
    "alf-index1",
    "alf-dca-proj",
    "hdca",
    "complement-svd",
    "coordinate-partitioning",
    "penalty",
];

/// The rule's accuracy target: final position error of every body \[m\].
pub const TARGET: f64 = 1e-6;

/// The tight accuracy target of the second class table (full mode, where the
/// tolerances reach 1e-10): for which range of accuracies the defaults hold \[m\].
pub const TIGHT_TARGET: f64 = 1e-9;

/// Ties: methods within this factor of the fastest wall time count as equally fast.
const TIE: f64 = 1.1;

struct Mechanism {
    class: &'static str,
    name: &'static str,
    model: Result<Model, String>,
    t_end: f64,
    /// Reference method (RK45 at 1e-2 × the tightest tolerance).
    reference: &'static str,
    /// Methods left out in quick mode (dense O(n³) ones on the 64-body loop).
    quick_skip: &'static [&'static str],
}

/// Front-ends that factor dense n × n matrices per evaluation.
const DENSE: [&str; 4] = [
    "lagrange-projection",
    "complement-svd",
    "coordinate-partitioning",
    "penalty",
];

fn model_file(name: &str) -> Result<Model, String> {
    let path = format!("{}/../examples/models/{name}", env!("CARGO_MANIFEST_DIR"));
    mbs::load_model(&path).map_err(|e| format!("{path}: {e}"))
}

fn mechanisms(ctx: &mut Ctx) -> Vec<Mechanism> {
    let q = ctx.quick;
    let pick = |full: f64, quick: f64| if q { quick } else { full };
    vec![
        Mechanism {
            class: "planar single loop",
            name: "five-bar",
            model: ctx.model("five-bar"),
            t_end: pick(2.0, 0.5),
            reference: "lagrange-projection",
            quick_skip: &[],
        },
        Mechanism {
            class: "planar loops through singular configurations",
            name: "singular N-four-bar (N = 2)",
            model: model_file("n_four_bar.toml"),
            t_end: pick(2.0, 1.0),
            reference: "lagrange-projection",
            quick_skip: &[],
        },
        Mechanism {
            class: "spatial overconstrained loop",
            name: "Bricard",
            model: model_file("bricard.toml"),
            t_end: pick(2.0, 0.5),
            reference: "lagrange-projection",
            quick_skip: &[],
        },
        Mechanism {
            class: "stiff planar multi-loop",
            name: "Andrew's squeezer",
            model: model_file("andrews_squeezer.toml"),
            t_end: pick(0.03, 0.005),
            reference: "lagrange-projection",
            quick_skip: &[],
        },
        Mechanism {
            class: "spatial single loop",
            name: "spatial slider-crank",
            model: model_file("spatial_slider_crank.toml"),
            t_end: pick(2.0, 0.5),
            reference: "lagrange-projection",
            quick_skip: &[],
        },
        Mechanism {
            class: "open chain (16 links)",
            name: "16-link chain",
            model: ctx.model("chain:n=16"),
            t_end: pick(1.0, 0.3),
            reference: "lagrange-projection",
            quick_skip: &[],
        },
        Mechanism {
            class: "large closed loop (64 bodies)",
            name: "64-body loop",
            model: closed_loop(64).map_err(|e| e.to_string()),
            t_end: pick(1.0, 0.2),
            reference: "alf-dca-proj",
            quick_skip: &DENSE,
        },
    ]
}

/// Largest distance between the bodies' final positions in two runs \[m\].
fn final_error(a: &Trajectory, b: &Trajectory) -> f64 {
    let (ka, kb) = (a.len().saturating_sub(1), b.len().saturating_sub(1));
    if a.is_empty() || b.is_empty() || a.n_bodies() != b.n_bodies() {
        return f64::NAN;
    }
    (0..a.n_bodies())
        .map(|i| (a.position(ka, i) - b.position(kb, i)).norm())
        .fold(0.0, f64::max)
}

/// One measured point: method, integrator family, tolerance, error, wall, RHS.
struct Point {
    method: &'static str,
    integ: &'static str,
    tol: f64,
    err: f64,
    wall: f64,
    rhs: usize,
}

pub fn run(ctx: &mut Ctx) -> Suite {
    let mut s = Suite::new(
        "guide",
        "Method guide — work–precision on seven mechanisms and the method for each class",
    );
    let tols: Vec<f64> = if ctx.quick {
        vec![1e-4, 1e-7]
    } else {
        vec![1e-3, 1e-5, 1e-7, 1e-9, 1e-10]
    };
    let integrators: [(&str, fn(f64) -> IntegratorChoice); 3] = [
        ("RK45", |d| IntegratorChoice::Rk45 { rtol: d, atol: d }),
        ("DOP853", |d| IntegratorChoice::Dop853 { rtol: d, atol: d }),
        ("Adams", |d| IntegratorChoice::Adams { rtol: d, atol: d }),
    ];
    let mut guide = serde_json::Map::new();
    // per mechanism: its library class and the fastest accurate run per method × integrator
    let mut by_class: Vec<Measured> = Vec::new();
    let mut by_class_tight: Vec<Measured> = Vec::new();
    let mut choice = Table::new(
        "method_guide",
        &format!(
            "Which method for which mechanism — fastest run with final position error ≤ {TARGET:.0e} m"
        ),
        &[
            "mechanism class",
            "mechanism",
            "method",
            "integrator",
            "tolerance",
            "final error [m]",
            "wall time",
            "RHS evaluations",
            "also within 10 %",
        ],
    );
    for (mi, m) in mechanisms(ctx).into_iter().enumerate() {
        let model = match m.model {
            Ok(x) => x,
            Err(e) => {
                ctx.errors.push(format!("{}: {e}", m.name));
                continue;
            }
        };
        // the reference at 1e-2 × the tightest tolerance (1e-12 in full mode; below,
        // the round-off of the ALF solves stalls the step size, and DOP853 at 1e-12
        // ran for over 5 minutes on the 64-body loop)
        let tight = tols.iter().copied().fold(1.0, f64::min) * 1e-2;
        let reference = [m.reference, "alf-index1"].iter().find_map(|r| {
            ctx.run_model(
                &model,
                r,
                IntegratorChoice::Rk45 {
                    rtol: tight,
                    atol: tight,
                },
                m.t_end,
                Sampling::Intervals(1),
            )
            .traj()
            .cloned()
            .map(|t| (*r, t))
        });
        let Some((ref_name, reference)) = reference else {
            s.notes
                .push(format!("{}: no reference run succeeded", m.name));
            continue;
        };
        let mut points = Vec::new();
        let mut failures = Vec::new();
        let budget = ctx.pick(60.0, 2.0);
        let mut left_out = Vec::new();
        for method in METHODS {
            if ctx.quick && m.quick_skip.contains(&method) {
                left_out.push(format!("{method} (dense, full mode only)"));
                continue;
            }
            if let Some(why) = method
                .parse::<Method>()
                .ok()
                .and_then(|m| not_applicable(&m, &model))
            {
                left_out.push(format!("{method} ({why})"));
                continue;
            }
            let mut over = false;
            for (iname, make) in integrators {
                for &d in &tols {
                    if over {
                        break;
                    }
                    let r = ctx.run_model(&model, method, make(d), m.t_end, Sampling::Intervals(1));
                    if let Some(t) = r.traj()
                        && t.wall_time > budget
                    {
                        over = true;
                        left_out.push(format!(
                            "{method} after {} with {iname} at {d:.0e} (> {budget} s per run)",
                            duration(t.wall_time)
                        ));
                    }
                    match &r {
                        Run::Done(t) => points.push(Point {
                            method,
                            integ: iname,
                            tol: d,
                            err: final_error(t, &reference),
                            wall: t.wall_time,
                            rhs: t.stats.rhs_evals,
                        }),
                        other => {
                            let why = other.cell(|_| String::new());
                            failures.push(format!("{method} / {iname}: {why}"));
                            break;
                        }
                    }
                }
            }
        }
        let stem = format!("guide_{mi}");
        for (by_rhs, what) in [(false, "wall time [s]"), (true, "RHS evaluations")] {
            let mut chart = LineChart::new(
                format!(
                    "{} — final position error vs {}",
                    m.name,
                    what.split(" [").next().unwrap_or(what)
                ),
                what,
                "final position error [m]",
            )
            .log_log();
            for method in METHODS {
                for (iname, _) in integrators {
                    let pts: Vec<&Point> = points
                        .iter()
                        .filter(|p| p.method == method && p.integ == iname)
                        .collect();
                    if pts.is_empty() {
                        continue;
                    }
                    let x = pts
                        .iter()
                        .map(|p| if by_rhs { p.rhs as f64 } else { p.wall })
                        .collect();
                    let y = pts.iter().map(|p| p.err).collect();
                    chart = chart.with(
                        Series::new(format!("{method} / {iname}"), x, y).grouped(method, iname),
                    );
                }
            }
            ctx.plot(
                &mut s,
                &format!("{stem}_{}", if by_rhs { "rhs" } else { "wall" }),
                chart,
            );
        }
        // the rule
        let mut ok: Vec<&Point> = points
            .iter()
            .filter(|p| p.err.is_finite() && p.err <= TARGET)
            .collect();
        let mut fastest: BTreeMap<Combo, f64> = BTreeMap::new();
        for p in &ok {
            let w = fastest.entry((p.method, p.integ)).or_insert(f64::INFINITY);
            *w = w.min(p.wall);
        }
        by_class.push((MechanismClass::of(&model), m.name, fastest));
        let mut fastest_tight: BTreeMap<Combo, f64> = BTreeMap::new();
        for p in ok.iter().filter(|p| p.err <= TIGHT_TARGET) {
            let w = fastest_tight
                .entry((p.method, p.integ))
                .or_insert(f64::INFINITY);
            *w = w.min(p.wall);
        }
        by_class_tight.push((MechanismClass::of(&model), m.name, fastest_tight));
        ok.sort_by(|a, b| a.wall.total_cmp(&b.wall).then(a.rhs.cmp(&b.rhs)));
        // the fastest run of each other method, if within the tie factor
        let ties = |best: &Point| {
            let mut v: Vec<String> = Vec::new();
            for p in &ok {
                if p.method != best.method
                    && p.wall <= TIE * best.wall
                    && !v.iter().any(|x| x.starts_with(p.method))
                {
                    v.push(format!("{} / {}", p.method, p.integ));
                }
            }
            if v.is_empty() {
                "—".into()
            } else {
                v.join(", ")
            }
        };
        match ok.first() {
            Some(best) => {
                choice.row(vec![
                    m.class.into(),
                    m.name.into(),
                    best.method.into(),
                    best.integ.into(),
                    format!("{:.0e}", best.tol),
                    sci(best.err),
                    duration(best.wall),
                    best.rhs.to_string(),
                    ties(best),
                ]);
                guide.insert(
                    m.class.into(),
                    serde_json::json!({
                        "mechanism": m.name,
                        "method": best.method,
                        "integrator": best.integ.to_lowercase(),
                        "tolerance": best.tol,
                        "final_error_m": best.err,
                        "wall_time_s": best.wall,
                        "rhs_evals": best.rhs,
                    }),
                );
            }
            None => choice.row(vec![
                m.class.into(),
                m.name.into(),
                format!("none reached {TARGET:.0e} m"),
                "—".into(),
                "—".into(),
                "—".into(),
                "—".into(),
                "—".into(),
                "—".into(),
            ]),
        }
        let mut t = Table::new(
            &format!("guide_{mi}_points"),
            &format!(
                "{} ({}), {} s — work–precision points",
                m.name, m.class, m.t_end
            ),
            &[
                "method",
                "integrator",
                "tolerance",
                "final position error [m]",
                "wall time",
                "RHS evaluations",
            ],
        );
        for p in &points {
            t.row(vec![
                p.method.into(),
                p.integ.into(),
                format!("{:.0e}", p.tol),
                sci(p.err),
                duration(p.wall),
                p.rhs.to_string(),
            ]);
        }
        t.note(format!(
            "Reference: {ref_name} with RK45 at rtol = atol = {tight:.0e}. Error: largest distance between a body's final position and the reference's."
        ));
        if !left_out.is_empty() {
            t.note(format!("Left out: {}.", left_out.join("; ")));
        }
        if !failures.is_empty() {
            t.note(format!(
                "Stopped or not applicable: {}.",
                failures.join("; ")
            ));
        }
        s.tables.push(t);
    }
    choice.note(format!(
        "Rule: among the runs of the work–precision diagrams below whose final position error is at most {TARGET:.0e} m, the one with the smallest median wall time (ties broken by fewer RHS evaluations); methods whose fastest such run is within 10 % are listed beside it. A method that stops with an error on a mechanism is not a candidate for it. The result is exported in results.json under `method_guide` (mechanism class → method, integrator, tolerance)."
    ));
    s.tables.insert(0, choice);
    let mut defaults = class_defaults("class_defaults", &by_class, TARGET, TIE);
    if ctx.quick {
        defaults.note("Quick mode integrates 0.2–1 s (the 16-link chain 0.3 s, a run of a few hundredths of a second): there, aba + Adams against aba + RK45 on the chain has come out 1.00× and 1.23× in two runs of the same code, so a \"differs\" below ≈ 1.3× in quick mode is within its noise. The defaults were chosen for runs of seconds: the full guide integrates 1–2 s, and the peers suite (`--suite peers`, 10-s runs) measured aba + Adams as the fastest run meeting dE ≤ 1e-6 on the 16- to 1024-link chains (16 links: Adams at 1e-8 0.031 s; the fastest RK45 run meeting it, at 1e-9, 0.127 s).");
    }
    s.tables.insert(1, defaults);
    if !ctx.quick {
        // the same choice at the tight target: the accuracies for which the defaults hold
        let tight = class_defaults("class_defaults_tight", &by_class_tight, TIGHT_TARGET, TIE);
        s.tables.insert(2, tight);
    }
    super::sampling_cost::measure(ctx, &mut s);
    s.set("method_guide", serde_json::Value::Object(guide));
    s.set(
        "method_guide_rule",
        serde_json::json!({"target_final_position_error_m": TARGET, "tie_factor": TIE}),
    );
    s.settle_status();
    s
}
