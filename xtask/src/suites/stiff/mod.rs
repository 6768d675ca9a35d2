//! Suite `stiff` (issue #31, acceptance 3 and the measurement side of 4): explicit
//! and implicit integrators side by side on stiff mechanisms — Andrew's squeezer
//! with a 1e8 N/m spring, a chain with stiff rotational bushings, the penalty
//! formulation with a small ε, the vehicle with stiff tyres — and on non-stiff
//! controls.
//!
//! For each case, every integrator of [`integrators::INTEGRATORS`] runs the same
//! formulation at rtol = atol = 1e-6 (steps, rejected steps, RHS and Jacobian
//! evaluations, Newton iterations, median wall time, final position error against a
//! tight-tolerance DOP853 reference, and the ratios DOP853 / this in RHS and time)
//! and along a tolerance ladder for the work–precision diagrams (error against wall
//! time and against RHS, log–log). The integrator list is data: an integrator this
//! build cannot parse yet (Radau IIA, BDF, generalized-α before they are merged)
//! gives "not available" rows. Then: the cheapest run of each integrator reaching
//! DOP853's accuracy at 1e-6 (acceptance 4 on the non-stiff controls: at most 3×),
//! and the targets on the stiff squeezer (≥ 50× fewer RHS, ≥ 20× less time
//! than DOP853 at rtol 1e-6).
//!
//! Last, Andrew's squeezer in the IVP Test Set's index-3 formulation: mbs's RADAU5
//! with the mass matrix beside Hairer's Fortran RADAU5 ([`andrews_dae`]; its rows
//! are left out with a note when gfortran is missing).
//!
//! The comparison with SciPy's `Radau`/`BDF` and Exudyn's generalized-α on the same
//! mechanisms is the optional suite `stiff-peers` ([`peers`]).

mod andrews_dae;
mod cases;
mod integrators;
pub mod peers;
mod points;

use std::sync::Arc;

use mbs::plot::{LineChart, Series};
use mbs::{IntegratorChoice, Model, Sampling};

use crate::report::{NOT_IMPLEMENTED, Suite, Table};
use crate::runner::{Ctx, Run, duration, sci};
use cases::{
    CASES, StiffCase, TARGET_BOUND_MODEL, TARGET_CASE, TARGET_NONSTIFF_RATIO, TARGET_RHS_RATIO,
    TARGET_TIME_RATIO,
};
use integrators::{Accuracy, EXPLICIT_DEFAULT, Family, INTEGRATORS, IntegratorSpec};
use points::{Point, cheapest_within, final_error, ratio};

/// The tolerance of the main table (the targets are stated at it).
pub const TOL: f64 = 1e-6;

/// "The same accuracy" of acceptance 4: final position error of every body \[m\]
/// (the method guide's target, `guide::TARGET`).
pub const ACCURACY: f64 = crate::suites::guide::TARGET;

/// Tolerance of the reference runs (DOP853, rtol = atol), full and quick mode.
const REFERENCE_TOL: (f64, f64) = (1e-10, 1e-9);

/// A setting whose predicted run time exceeds this is not run (full, quick) \[s\].
const RUN_BUDGET_S: (f64, f64) = (90.0, 5.0);

fn ladder(quick: bool) -> Vec<f64> {
    if quick {
        vec![1e-4, 1e-7]
    } else {
        vec![1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8]
    }
}

fn main_table() -> Table {
    Table::new(
        "stiff_at_tol",
        &format!(
            "Stiff suite — every integrator at rtol = atol = {TOL:.0e} (fixed-step rules at their middle step), same formulation per case"
        ),
        &[
            "case",
            "integrator",
            "family",
            "setting",
            "steps",
            "rejected",
            "RHS",
            "Jacobians",
            "LU",
            "Newton iterations",
            "wall time",
            "final position error [m]",
            "RHS: DOP853 / this",
            "time: DOP853 / this",
        ],
    )
}

fn accuracy_table() -> Table {
    Table::new(
        "stiff_same_accuracy",
        &format!(
            "Cost at the same accuracy — the fastest run of each integrator's ladder with final position error ≤ {ACCURACY:.0e} m"
        ),
        &[
            "case",
            "stiff",
            "accuracy asked [m]",
            "integrator",
            "cheapest setting",
            "final error [m]",
            "wall time",
            "RHS",
            "wall: this / DOP853's fastest",
        ],
    )
}

fn targets_table() -> Table {
    Table::new(
        "stiff_targets",
        "Issue #31's targets",
        &["target", "case", "integrator", "measured", "verdict"],
    )
}

/// What one case measured, for the tables after it.
struct CaseRuns {
    case: StiffCase,
    points: Vec<Point>,
    /// Integrators without a run in this build, with the reason.
    unavailable: Vec<(&'static str, String)>,
}

impl CaseRuns {
    fn at_tol(&self, integrator: &str) -> Option<&Point> {
        let spec = INTEGRATORS.iter().find(|s| s.label == integrator)?;
        let v = spec.at(TOL).value;
        self.points
            .iter()
            .find(|p| p.integrator == integrator && p.value == v)
    }
}

pub fn run(ctx: &mut Ctx) -> Suite {
    let mut s = Suite::new(
        "stiff",
        "Stiff mechanisms — explicit and implicit integrators side by side (issue #31)",
    );
    let quick = ctx.quick;
    let ref_tol = ctx.pick(REFERENCE_TOL.0, REFERENCE_TOL.1);
    s.notes.push(format!(
        "Every run of a case integrates the same formulation (the case's method); only the integrator differs. Reference: the same formulation with DOP853 at rtol = atol = {ref_tol:.0e}; final position error: the largest distance between a body's position at the end time and the reference's. Ratios \"DOP853 / this\" above 1: this integrator needs fewer RHS evaluations or less time than DOP853 at the same tolerance. Wall times: median of repeated runs (at least 5 or 0.5 s), output at the start and the end only."
    ));
    let mut main = main_table();
    let mut same = accuracy_table();
    let mut targets = targets_table();
    let mut all: Vec<CaseRuns> = Vec::new();
    let mut data = serde_json::Map::new();
    for (ci, case) in CASES.iter().enumerate() {
        if quick && !case.quick {
            continue;
        }
        let Some(runs) = measure_case(ctx, &mut s, &mut main, ci, case, ref_tol) else {
            continue;
        };
        data.insert(
            case.id.into(),
            serde_json::json!({
                "model": case.model,
                "method": case.method,
                "t_end": ctx.pick(case.t_end.0, case.t_end.1),
                "points": runs.points,
                "unavailable": runs.unavailable,
            }),
        );
        same_accuracy_rows(&mut same, &runs);
        all.push(runs);
    }
    target_rows(&mut targets, &all);
    if let Some(sq) = all.iter().find(|r| r.case.id == TARGET_CASE) {
        bound_row(ctx, &mut targets, sq);
    }
    main.note("Library default rows integrate the library's default method for the model (what `mbs run MODEL` does), which need not be the case's formulation: their ratios compare formulations as well as integrators.");
    main.note("Not available: the integrator does not parse in this build (the implicit integrators of issue #31 are merged separately); the suite measures it as soon as it does.");
    for c in CASES.iter().filter(|c| !quick || c.quick) {
        main.note(format!(
            "{}: `{}` with `{}` — {}.",
            c.id, c.model, c.method, c.why
        ));
    }
    same.note(format!(
        "Acceptance 4: on the non-stiff controls an implicit integrator should cost at most {TARGET_NONSTIFF_RATIO}× the explicit default (DOP853) at the same accuracy, so that choosing it is safe. The accuracy asked is a final position error of at most {ACCURACY:.0e} m (the method guide's target); the ratio divides by DOP853's fastest run reaching it; \"none\": no point of the ladder reached it."
    ));
    s.tables.push(targets);
    s.tables.push(main);
    s.tables.push(same);
    s.tables.push(andrews_dae::andrews_table());
    s.data = data.into();
    s.settle_status();
    s
}

/// Runs the reference and every integrator's ladder on one case; fills the main
/// table and writes the case's work–precision diagrams.
fn measure_case(
    ctx: &mut Ctx,
    s: &mut Suite,
    main: &mut Table,
    ci: usize,
    case: &StiffCase,
    ref_tol: f64,
) -> Option<CaseRuns> {
    let t_end = ctx.pick(case.t_end.0, case.t_end.1);
    let model = match ctx.model(case.model) {
        Ok(m) => m,
        Err(e) => {
            ctx.errors.push(format!("stiff / {}: {e}", case.id));
            return None;
        }
    };
    let reference = ctx.run_model(
        &model,
        case.method,
        IntegratorChoice::Dop853 {
            rtol: ref_tol,
            atol: ref_tol,
        },
        t_end,
        Sampling::Intervals(1),
    );
    let Some(reference) = reference.traj().cloned() else {
        s.notes.push(format!(
            "{}: the reference run failed ({}); the case is left out.",
            case.id,
            reference.cell(|_| String::new())
        ));
        return None;
    };
    let budget = ctx.pick(RUN_BUDGET_S.0, RUN_BUDGET_S.1);
    let mut runs = CaseRuns {
        case: *case,
        points: Vec::new(),
        unavailable: Vec::new(),
    };
    let mut left_out = Vec::new();
    let tols = ladder(ctx.quick);
    for spec in INTEGRATORS {
        let mut settings = spec.ladder(&tols);
        let main_setting = spec.at(TOL);
        if !settings.iter().any(|x| x.value == main_setting.value) {
            settings.push(main_setting.clone());
        }
        // loose to tight: a run over the budget stops the tighter ones
        settings.sort_by(|a, b| b.value.total_cmp(&a.value));
        let growth = match spec.accuracy {
            Accuracy::Tolerance => 2.0,
            Accuracy::Steps(_) => 10.0,
        };
        let mut last_wall = 0.0;
        for setting in settings {
            let choice = match setting.choice {
                Ok(c) => c,
                Err(why) => {
                    runs.unavailable.push((spec.label, why.clone()));
                    main.row(unavailable_row(case, &spec, &main_setting.text, &why));
                    break;
                }
            };
            if last_wall * growth > budget {
                left_out.push(format!(
                    "{} from {} on (the previous setting took {}; limit {})",
                    spec.label,
                    setting.text,
                    duration(last_wall),
                    duration(budget)
                ));
                if setting.value == main_setting.value {
                    main.row(skipped_row(case, &spec, &setting.text));
                }
                break;
            }
            let r = ctx.run_model(&model, case.method, choice, t_end, Sampling::Intervals(1));
            let is_main = setting.value == main_setting.value;
            match &r {
                Run::Done(t) => {
                    last_wall = t.wall_time;
                    let p = Point::new(
                        spec.label,
                        spec.family,
                        setting.value,
                        t,
                        final_error(t, &reference),
                    );
                    runs.points.push(p);
                }
                other => {
                    let why = other.cell(|_| String::new());
                    if is_main {
                        let mut row = vec![
                            case.id.to_string(),
                            spec.label.into(),
                            spec.family.label().into(),
                            setting.text.clone(),
                            why,
                        ];
                        row.resize(main.columns.len(), "—".into());
                        main.row(row);
                    } else {
                        left_out.push(format!("{} at {}: {why}", spec.label, setting.text));
                    }
                    // a failure at one setting does not stop the tighter ones (a
                    // looser tolerance can fail where a tighter one succeeds)
                    last_wall = 0.0;
                    continue;
                }
            }
            if is_main {
                let dop = runs.at_tol(EXPLICIT_DEFAULT).cloned();
                let p = runs.points.last().cloned().expect("pushed above");
                main.row(main_row(case, &spec, &setting.text, &p, dop.as_ref()));
            }
        }
    }
    library_default_row(ctx, main, case, &model, t_end, &reference, &runs);
    if !left_out.is_empty() {
        s.notes.push(format!(
            "{}: not run or failed: {}.",
            case.id,
            left_out.join("; ")
        ));
    }
    plots(ctx, s, ci, case, t_end, &runs.points);
    Some(runs)
}

fn unavailable_row(
    case: &StiffCase,
    spec: &IntegratorSpec,
    setting: &str,
    why: &str,
) -> Vec<String> {
    let mut row = vec![
        case.id.to_string(),
        spec.label.into(),
        spec.family.label().into(),
        setting.into(),
        format!("{NOT_IMPLEMENTED} (`{}`: {why})", spec.text(TOL)),
    ];
    row.resize(main_table().columns.len(), "—".into());
    row
}

fn skipped_row(case: &StiffCase, spec: &IntegratorSpec, setting: &str) -> Vec<String> {
    let mut row = vec![
        case.id.to_string(),
        spec.label.into(),
        spec.family.label().into(),
        setting.into(),
        "not run: a looser setting took too long (see notes)".into(),
    ];
    row.resize(main_table().columns.len(), "—".into());
    row
}

fn main_row(
    case: &StiffCase,
    spec: &IntegratorSpec,
    setting: &str,
    p: &Point,
    dop: Option<&Point>,
) -> Vec<String> {
    vec![
        case.id.to_string(),
        spec.label.into(),
        spec.family.label().into(),
        setting.into(),
        p.steps.to_string(),
        p.rejected.to_string(),
        p.rhs.to_string(),
        p.jacobians.to_string(),
        p.lu.to_string(),
        p.newton.to_string(),
        duration(p.wall),
        sci(p.error),
        dop.map_or("—".into(), |d| ratio(d.rhs as f64, p.rhs as f64)),
        dop.map_or("—".into(), |d| ratio(d.wall, p.wall)),
    ]
}

/// The library's default method and integrator for the model (what `mbs run MODEL`
/// does) at [`TOL`], when it differs from the case's formulation with DOP853.
fn library_default_row(
    ctx: &mut Ctx,
    main: &mut Table,
    case: &StiffCase,
    model: &Model,
    t_end: f64,
    reference: &mbs::Trajectory,
    runs: &CaseRuns,
) {
    let rec = mbs::recommend::recommend(&Arc::new(model.clone()));
    let method = rec.method.to_string();
    // RADAU5 when the linearized spectrum is stiff over the case's interval
    let (kind, _) = rec.integrator_for(t_end);
    let choice = kind.with_tol(TOL);
    if method == case.method && matches!(choice, IntegratorChoice::Dop853 { .. }) {
        return;
    }
    let family = if matches!(kind, mbs::recommend::IntegratorKind::Radau5) {
        Family::Implicit
    } else {
        Family::Explicit
    };
    let label = format!("library default: {method} / {}", kind.name());
    let r = ctx.run_model(model, &method, choice, t_end, Sampling::Intervals(1));
    match r.traj() {
        Some(t) => {
            let p = Point::new("library default", family, TOL, t, final_error(t, reference));
            let mut row = main_row(
                case,
                &INTEGRATORS[0],
                &format!("rtol = atol = {TOL:.0e}"),
                &p,
                runs.at_tol(EXPLICIT_DEFAULT),
            );
            row[1] = label;
            main.row(row);
        }
        None => {
            let mut row = vec![
                case.id.to_string(),
                label,
                "explicit".into(),
                format!("rtol = atol = {TOL:.0e}"),
                r.cell(|_| String::new()),
            ];
            row.resize(main.columns.len(), "—".into());
            main.row(row);
        }
    }
}

fn same_accuracy_rows(t: &mut Table, runs: &CaseRuns) {
    let asked = ACCURACY;
    let dop = cheapest_within(&runs.points, EXPLICIT_DEFAULT, asked);
    for spec in INTEGRATORS {
        let mut row = vec![
            runs.case.id.to_string(),
            if runs.case.stiff { "yes" } else { "no" }.into(),
            sci(asked),
            spec.label.into(),
        ];
        if let Some((_, why)) = runs.unavailable.iter().find(|(l, _)| *l == spec.label) {
            row.push(format!("{NOT_IMPLEMENTED} ({why})"));
        } else {
            match cheapest_within(&runs.points, spec.label, asked) {
                Some(p) => row.extend([
                    spec.setting(p.value).text,
                    sci(p.error),
                    duration(p.wall),
                    p.rhs.to_string(),
                    ratio(p.wall, dop.map_or(f64::NAN, |d| d.wall)),
                ]),
                None => row.push("none".into()),
            }
        }
        row.resize(t.columns.len(), "—".into());
        t.row(row);
    }
}

fn target_rows(t: &mut Table, all: &[CaseRuns]) {
    let implicit: Vec<&IntegratorSpec> = INTEGRATORS
        .iter()
        .filter(|s| s.family == Family::Implicit && s.accuracy == Accuracy::Tolerance)
        .collect();
    if let Some(sq) = all.iter().find(|r| r.case.id == TARGET_CASE) {
        let dop = sq.at_tol(EXPLICIT_DEFAULT);
        for spec in &implicit {
            let p = sq.at_tol(spec.label);
            for (what, goal, measured) in [
                (
                    format!("RHS: DOP853 / implicit ≥ {TARGET_RHS_RATIO}× at rtol {TOL:.0e}"),
                    TARGET_RHS_RATIO,
                    dop.zip(p).map(|(d, p)| d.rhs as f64 / p.rhs as f64),
                ),
                (
                    format!("time: DOP853 / implicit ≥ {TARGET_TIME_RATIO}× at rtol {TOL:.0e}"),
                    TARGET_TIME_RATIO,
                    dop.zip(p).map(|(d, p)| d.wall / p.wall),
                ),
            ] {
                t.row(target_row(
                    what,
                    TARGET_CASE,
                    spec.label,
                    measured,
                    |r| r >= goal,
                    sq,
                ));
            }
        }
    }
    for runs in all.iter().filter(|r| !r.case.stiff) {
        let Some(dop) = cheapest_within(&runs.points, EXPLICIT_DEFAULT, ACCURACY) else {
            continue;
        };
        for spec in &implicit {
            let measured =
                cheapest_within(&runs.points, spec.label, ACCURACY).map(|p| p.wall / dop.wall);
            t.row(target_row(
                format!(
                    "non-stiff: implicit / DOP853 wall ≤ {TARGET_NONSTIFF_RATIO}× at final error ≤ {ACCURACY:.0e} m"
                ),
                runs.case.id,
                spec.label,
                measured,
                |r| r <= TARGET_NONSTIFF_RATIO,
                runs,
            ));
        }
    }
    t.note("Measured here, never asserted by tests. The same-motion check of the stiff squeezer is the final position error column of the main table (against the DOP853 reference).");
}

/// What the stiffness costs the explicit method on the target case: DOP853 at
/// [`TOL`] on the same mechanism with its rod (no stiff element), same formulation
/// and interval. An integrator that resolves the squeezer's own motion needs at
/// least a fair share of that rigid run's work, so DOP853 (stiff) / DOP853 (rigid)
/// bounds what any method can gain there.
fn bound_row(ctx: &mut Ctx, t: &mut Table, sq: &CaseRuns) {
    let Some(stiff) = sq.at_tol(EXPLICIT_DEFAULT) else {
        return;
    };
    let t_end = ctx.pick(sq.case.t_end.0, sq.case.t_end.1);
    let rigid = match ctx.model(TARGET_BOUND_MODEL) {
        Ok(m) => ctx.run_model(
            &m,
            sq.case.method,
            IntegratorChoice::Dop853 {
                rtol: TOL,
                atol: TOL,
            },
            t_end,
            Sampling::Intervals(1),
        ),
        Err(e) => {
            ctx.errors.push(format!("stiff / bound: {e}"));
            return;
        }
    };
    let Some(rigid) = rigid.traj() else {
        t.note(format!(
            "Bound: the rigid squeezer's DOP853 run failed ({}).",
            rigid.cell(|_| String::new())
        ));
        return;
    };
    let share = stiff.rhs as f64 / rigid.stats.rhs_evals as f64;
    t.row(vec![
        format!("bound: DOP853 RHS, stiff / rigid squeezer, at rtol {TOL:.0e}"),
        TARGET_CASE.into(),
        EXPLICIT_DEFAULT.into(),
        format!("{share:.2}×"),
        "measured (no target)".into(),
    ]);
    t.note(format!(
        "Bound: DOP853 at rtol {TOL:.0e} on `{TARGET_BOUND_MODEL}` (rod GE rigid, nothing stiff), same formulation and {t_end} s: {} steps, {} RHS, against {} steps, {} RHS with the 1e8 N/m spring. The spring costs the explicit method {share:.1}× its work on the rigid mechanism; an implicit method that takes {TARGET_RHS_RATIO}× fewer RHS than DOP853 on the stiff model would have to integrate the squeezer's own motion with {:.1}× fewer RHS than DOP853 does without any stiffness. Over 1 s the crank turns ≈ 160 times and speeds up: an implicit method's step is then set by the mechanism's motion, not by the spring (compare the implicit rows' steps with DOP853's on the rigid model).",
        rigid.stats.accepted_steps,
        rigid.stats.rhs_evals,
        stiff.steps,
        stiff.rhs,
        TARGET_RHS_RATIO / share,
    ));
}

fn target_row(
    what: String,
    case: &str,
    integrator: &str,
    measured: Option<f64>,
    met: impl Fn(f64) -> bool,
    runs: &CaseRuns,
) -> Vec<String> {
    let (m, verdict) = match measured {
        Some(r) if r.is_finite() => (
            format!("{r:.2}×"),
            if met(r) { "met" } else { "missed" }.to_string(),
        ),
        _ => match runs.unavailable.iter().find(|(l, _)| *l == integrator) {
            Some(_) => ("—".into(), NOT_IMPLEMENTED.to_string()),
            None => ("—".into(), "no run (see notes)".into()),
        },
    };
    vec![what, case.into(), integrator.into(), m, verdict]
}

/// The case's work–precision diagrams: final error against wall time and against
/// RHS evaluations, one line per integrator (explicit and implicit markers).
fn plots(ctx: &Ctx, s: &mut Suite, ci: usize, case: &StiffCase, t_end: f64, points: &[Point]) {
    for (by_rhs, what) in [(false, "wall time [s]"), (true, "RHS evaluations")] {
        let mut chart = LineChart::new(
            format!(
                "{} ({} s, {}) — final position error vs {}",
                case.id,
                t_end,
                case.method,
                what.split(" [").next().unwrap_or(what)
            ),
            what,
            "final position error [m]",
        )
        .log_log();
        for spec in INTEGRATORS {
            let pts: Vec<&Point> = points
                .iter()
                .filter(|p| p.integrator == spec.label)
                .collect();
            if pts.is_empty() {
                continue;
            }
            let x = pts
                .iter()
                .map(|p| if by_rhs { p.rhs as f64 } else { p.wall })
                .collect();
            let y = pts.iter().map(|p| p.error).collect();
            chart = chart.with(
                Series::new(format!("{} ({})", spec.label, spec.family.label()), x, y)
                    .grouped(spec.label, spec.family.label()),
            );
        }
        let stem = format!("stiff_{ci}_{}", if by_rhs { "rhs" } else { "wall" });
        ctx.plot(s, &stem, chart);
    }
}
