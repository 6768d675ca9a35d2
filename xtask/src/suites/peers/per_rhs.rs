//! Table `peers_per_rhs` (issue 30, acceptance 1): the cost of one right-hand-side
//! evaluation of every closed-loop method of mbs on small closed loops, beside one
//! call of Pinocchio's C++ `constraintDynamics` on the same mechanism.
//!
//! mbs: wall time / RHS evaluations of RK45 runs at rtol = atol = 1e-8 over the
//! case's horizon (integrator work included; one thread; median of repeats; the
//! helper [`rk45_per_rhs_over`] of the scaling suite). Every method of
//! `mbs::registry::methods()` that builds a front-end for the model gets a row, so a
//! method added to the registry appears by itself. Pinocchio: `pinocchio_peer.py` in
//! its `per_call` mode (median of timed batches of calls at states along its own
//! trajectory, raw and minus an empty Python call's overhead). The ratios use the
//! corrected per-call time.

use std::path::Path;
use std::sync::Arc;

use mbs::{Method, Model};
use serde_json::json;

use super::SCRIPT_TIMEOUT;
use super::cases::{LINKS, model_json, read_case_model, wanted, write_json};
use super::python::{PerCall, run_script};
use crate::report::Table;
use crate::runner::{Timing, fixed};
use crate::suites::scaling::{load_average, rk45_per_rhs_over};

/// Tolerance of the RK45 runs (rtol = atol), as in the issue's measurement.
pub const TOL: f64 = 1e-8;
/// Step limit of one timed run: a method whose steps collapse fails after a bounded
/// time instead of holding up the table.
const MAX_STEPS: usize = 100_000;
/// Target of the recommended method: at most this many times Pinocchio's per call.
pub const TARGET_RATIO: f64 = 1.0;
/// No method may be slower than this many times the recommended one …
pub const SPREAD_LIMIT: f64 = 5.0;
/// … on a mechanism with more than this many bodies.
pub const SPREAD_BODIES: usize = 10;
/// Distinct states along Pinocchio's trajectory its timed calls cycle through.
const PEER_STATES: usize = 20;

/// One mechanism of the table.
#[derive(Clone, Debug)]
pub struct PerRhsCase {
    /// Id (row label, file name, `MBS_PEERS_CASES` filter).
    pub id: String,
    /// Built-in name or generator spec.
    pub spec: String,
    /// Horizon of the timed runs \[s\].
    pub t_end: f64,
}

/// The table's cases, filtered by `MBS_PEERS_CASES` like the others. The 30-body
/// closed loop is `ladder:n=10` (30 links, 10 loops): the vehicle built-in has
/// unilateral tires and spring-dampers that the peer scripts cannot express.
pub fn per_rhs_cases() -> Vec<PerRhsCase> {
    let case = |id: &str, spec: String, t_end: f64| PerRhsCase {
        id: id.into(),
        spec,
        t_end,
    };
    [
        case("five-bar", "five-bar".into(), 1.0),
        case("double-loop", "double-loop".into(), 1.0),
        // Hairer & Wanner's horizon
        case("andrews-squeezer", "andrews-squeezer".into(), 0.03),
        case("ladder-8", format!("ladder:n=8,{LINKS}"), 1.0),
        case("ladder-10", format!("ladder:n=10,{LINKS}"), 1.0),
    ]
    .into_iter()
    .filter(|c| wanted(&c.id))
    .collect()
}

/// Whether the suite measures this table: `MBS_PEERS_PER_RHS` = `only` (this table
/// alone, none of the suite's other work), `off` (not at all), else with the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Off,
    With,
    Only,
}

/// The [`Mode`] of an `MBS_PEERS_PER_RHS` value.
pub fn mode_of(value: Option<&str>) -> Mode {
    match value.map(str::trim) {
        Some("only") => Mode::Only,
        Some("off" | "0" | "no") => Mode::Off,
        _ => Mode::With,
    }
}

/// The [`Mode`] set by the environment.
pub fn mode() -> Mode {
    mode_of(std::env::var("MBS_PEERS_PER_RHS").ok().as_deref())
}

/// `a / b` when both are finite and `b` is positive.
pub fn ratio(a: f64, b: f64) -> Option<f64> {
    (a.is_finite() && b.is_finite() && b > 0.0).then(|| a / b)
}

/// Whether a method at `ratio` × the recommended one breaks the spread target on a
/// mechanism of `n_bodies` (more than [`SPREAD_BODIES`] bodies, above [`SPREAD_LIMIT`]).
pub fn too_slow(ratio: Option<f64>, n_bodies: usize) -> bool {
    n_bodies > SPREAD_BODIES && ratio.is_some_and(|r| r > SPREAD_LIMIT)
}

/// The cell of the comparison with Pinocchio: `yes`/`no` for ≤ [`TARGET_RATIO`].
pub fn target_cell(ratio: Option<f64>) -> &'static str {
    match ratio {
        Some(r) if r <= TARGET_RATIO => "yes",
        Some(_) => "no",
        None => "—",
    }
}

/// The cell of a method's ratio to the recommended one, flagged when [`too_slow`].
pub fn spread_cell(ratio: Option<f64>, n_bodies: usize) -> String {
    match ratio {
        None => "—".into(),
        Some(r) if too_slow(Some(r), n_bodies) => format!("{} ⚠ > {SPREAD_LIMIT}×", fixed(r, 2)),
        Some(r) => fixed(r, 2),
    }
}

/// The registry's methods that build a front-end for `model` (with their defaults),
/// and the others with why not.
pub fn closed_loop_methods(model: &Model) -> (Vec<Method>, Vec<(String, String)>) {
    let shared = Arc::new(model.clone());
    let (mut ok, mut not) = (Vec::new(), Vec::new());
    for e in mbs::registry::methods() {
        match Method::from_name(e.name) {
            Err(err) => not.push((e.name.to_string(), err.to_string())),
            Ok(m) => match mbs::registry::build_front_end(&m, &shared) {
                Ok(_) => ok.push(m),
                Err(err) => not.push((e.name.to_string(), err.to_string())),
            },
        }
    }
    (ok, not)
}

/// The table with its columns.
pub fn table() -> Table {
    Table::new(
        "peers_per_rhs",
        "Closed loops: µs per RHS beside Pinocchio's constraintDynamics (RK45 rtol = atol = 1e-8, one thread; the 30-body closed loop is ladder:n=10)",
        &[
            "case",
            "method",
            "µs per RHS / per call: median (min–max, repeats)",
            "× Pinocchio",
            "≤ 1.0× Pinocchio",
            "× recommended",
            "load before",
        ],
    )
}

/// Median, min, max in µs and the repeats of `t`.
fn timing_cell(t: &Timing) -> String {
    format!(
        "{} ({}–{}, {})",
        fixed(t.median * 1e6, 2),
        fixed(t.min * 1e6, 2),
        fixed(t.max * 1e6, 2),
        t.repeats
    )
}

/// Pinocchio's per-call timing on the case file at `path`, with its version.
fn pinocchio(python: &Path, path: &Path) -> Result<(String, PerCall), String> {
    let out = path.with_extension("pinocchio.out.json");
    let r = run_script(python, "pinocchio", path, &out, SCRIPT_TIMEOUT)?;
    if let Some(e) = r.error {
        return Err(format!("cannot model it: {e}"));
    }
    let run = r.runs.into_iter().next().ok_or("no run reported")?;
    match run.per_call {
        Some(p) if run.status == "ok" => Ok((r.version, p)),
        _ => Err(format!(
            "{}: {}",
            run.status,
            run.reason.unwrap_or_else(|| "no per-call timing".into())
        )),
    }
}

/// Writes the case file of `case` (model, horizon, Pinocchio's per-call variant;
/// force elements dropped: see [`fill`]'s note) and reads the model back.
fn case_file(dir: &Path, case: &PerRhsCase) -> Result<(std::path::PathBuf, Model), String> {
    let model = mbs::builtin(&case.spec).map_err(|e| e.to_string())?;
    let file = json!({
        "case": case.id,
        "model": model_json(&model)?,
        "t_end": case.t_end,
        "t_sample": case.t_end,
        "ignore_forces": true,
        "variants": {"pinocchio": [{
            "name": "constraintDynamics per call",
            "per_call": true,
            "rtol": TOL,
            "states": PEER_STATES,
        }]},
    });
    let path = write_json(dir, &case.id, &file)?;
    let model = read_case_model(&path)?;
    Ok((path, model))
}

/// The table row of Pinocchio's per-call timing (or why there is none).
fn pinocchio_row(
    label: &str,
    peer: &Result<(String, PerCall), String>,
    load: String,
) -> Vec<String> {
    match peer {
        Ok((version, p)) => vec![
            label.into(),
            format!(
                "Pinocchio {version} constraintDynamics per call, raw {} µs − empty Python call {} µs",
                fixed(p.raw_us, 2),
                fixed(p.overhead_us, 2)
            ),
            format!(
                "{} (raw {}–{}, {} batches × {} calls, {} states)",
                fixed(p.corrected_us, 2),
                fixed(p.min_us, 2),
                fixed(p.max_us, 2),
                p.batches,
                p.calls_per_batch,
                p.states
            ),
            "1.00".into(),
            "—".into(),
            "—".into(),
            load,
        ],
        Err(e) => vec![
            label.into(),
            "Pinocchio constraintDynamics per call".into(),
            format!("failed: {e}"),
            "—".into(),
            "—".into(),
            "—".into(),
            load,
        ],
    }
}

/// A method's name, its per-RHS timing (or why not) and the load average before it.
type Timed = (String, Result<Timing, String>, String);

/// Per-RHS timing of each of `methods` on `model` over `t_end` on one thread
/// ([`rk45_per_rhs_over`] at [`TOL`]), with the load average (`load`) before each.
fn time_methods(
    methods: &[Method],
    model: &Model,
    t_end: f64,
    load: impl Fn() -> String,
) -> Vec<Timed> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build();
    methods
        .iter()
        .map(|m| {
            eprintln!("    {}", m.name());
            let before = load();
            let r = match &pool {
                Ok(p) => p.install(|| rk45_per_rhs_over(m, model, TOL, t_end, Some(MAX_STEPS))),
                Err(e) => Err(e.to_string()),
            };
            (m.name().to_string(), r, before)
        })
        .collect()
}

/// Measures every case into `t` (rows, and notes with the two targets case by case);
/// returns the JSON data. `python`: the peers' environment, or why not.
pub fn fill(
    t: &mut Table,
    dir: &Path,
    python: Result<&Path, &str>,
    errors: &mut Vec<String>,
) -> serde_json::Value {
    let mut data = serde_json::Map::new();
    let mut verdicts = Vec::new();
    let mut spread = Vec::new();
    // method → (why not, on the first case; the cases)
    let mut refused = std::collections::BTreeMap::<String, (String, Vec<String>)>::new();
    let dir = dir.join("per_rhs");
    for case in per_rhs_cases() {
        eprintln!("  per-RHS case {} ({})", case.id, case.spec);
        let (path, model) = match case_file(&dir, &case) {
            Ok(pm) => pm,
            Err(e) => {
                errors.push(format!("peers per-RHS / {}: {e}", case.id));
                continue;
            }
        };
        let n = model.n_bodies();
        let loops = model.topology().cut_joints().len();
        let label = format!(
            "{} ({n} bodies, {loops} loop{})",
            case.id,
            if loops == 1 { "" } else { "s" }
        );
        let load = || load_average().map_or("—".into(), |l| fixed(l, 1));
        let recommended = mbs::recommend::recommend(&Arc::new(model.clone()));
        let rec_name = recommended.method.name();
        let (methods, not) = closed_loop_methods(&model);
        for (m, why) in not {
            let e = refused.entry(m).or_insert_with(|| (why, Vec::new()));
            e.1.push(case.id.clone());
        }
        // Pinocchio first: its per-call time is the reference of the ratios
        let load_peer = load();
        let peer = python
            .map_err(str::to_string)
            .and_then(|py| pinocchio(py, &path));
        let peer_us = peer.as_ref().ok().map(|(_, p)| p.corrected_us);
        t.row(pinocchio_row(&label, &peer, load_peer));
        let timed = time_methods(&methods, &model, case.t_end, load);
        let rec_us = timed
            .iter()
            .find(|(name, _, _)| name == rec_name)
            .and_then(|(_, r, _)| r.as_ref().ok())
            .map(|t| t.median * 1e6);
        let mut methods_data = serde_json::Map::new();
        for (name, r, before) in &timed {
            let us = r.as_ref().map_or(f64::NAN, |t| t.median * 1e6);
            let vs_peer = peer_us.and_then(|p| ratio(us, p));
            let vs_rec = rec_us.and_then(|rec| ratio(us, rec));
            let is_rec = name == rec_name;
            if too_slow(vs_rec, n) {
                spread.push(format!(
                    "{} {name} {}×",
                    case.id,
                    fixed(vs_rec.unwrap_or(f64::NAN), 1)
                ));
            }
            t.row(vec![
                label.clone(),
                if is_rec {
                    format!("mbs {name} (recommended)")
                } else {
                    format!("mbs {name}")
                },
                match r {
                    Ok(t) => timing_cell(t),
                    Err(e) => format!("failed: {e}"),
                },
                vs_peer.map_or("—".into(), |x| fixed(x, 2)),
                target_cell(vs_peer).into(),
                spread_cell(vs_rec, n),
                before.clone(),
            ]);
            methods_data.insert(
                name.clone(),
                match r {
                    Ok(t) => json!({"median_us": t.median * 1e6, "min_us": t.min * 1e6,
                        "max_us": t.max * 1e6, "repeats": t.repeats, "x_pinocchio": vs_peer,
                        "x_recommended": vs_rec}),
                    Err(e) => json!({"error": e}),
                },
            );
        }
        let vs_peer = rec_us.zip(peer_us).and_then(|(r, p)| ratio(r, p));
        let fastest = timed
            .iter()
            .filter_map(|(name, r, _)| r.as_ref().ok().map(|t| (name, t.median * 1e6)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(String::new(), |(name, us)| {
                format!(
                    "; fastest `{name}` {} µs = {}×",
                    fixed(us, 2),
                    peer_us
                        .and_then(|p| ratio(us, p))
                        .map_or("n/a".into(), |x| fixed(x, 2))
                )
            });
        verdicts.push(format!(
            "{}: `{rec_name}` {} µs = {}× Pinocchio ({}{fastest})",
            case.id,
            rec_us.map_or("n/a".into(), |x| fixed(x, 2)),
            vs_peer.map_or("n/a".into(), |x| fixed(x, 2)),
            match target_cell(vs_peer) {
                "yes" => "met",
                "no" => "missed",
                _ => "not measured",
            }
        ));
        data.insert(
            case.id.clone(),
            json!({
                "bodies": n, "loops": loops, "t_end": case.t_end, "recommended": rec_name,
                "pinocchio": match &peer {
                    Ok((v, p)) => json!({"version": v, "raw_us": p.raw_us, "overhead_us": p.overhead_us,
                        "corrected_us": p.corrected_us, "min_us": p.min_us, "max_us": p.max_us,
                        "batches": p.batches, "calls_per_batch": p.calls_per_batch, "states": p.states,
                        "ignored_forces": p.ignored}),
                    Err(e) => json!({"error": e}),
                },
                "mbs": methods_data,
            }),
        );
    }
    t.note(format!(
        "mbs: wall time / RHS evaluations of RK45 runs at rtol = atol = {TOL:.0e} from rest over 1 s (Andrew's squeezer: 0.03 s), integrator work included, samples at the start and end only, guard off, one thread; median (min–max) over the repeats (at least 5 unless they take more than 5 s, more while under 0.2 s; at most {MAX_STEPS} steps per run). Rows: every method of `mbs::registry::methods()` that builds a front-end for the model, with its defaults (a method added to the registry appears by itself); \"recommended\": `mbs::recommend` for the model (its recommended integrator is not the one timed here: the cost per RHS is the front-end's, and RK45 is the same for all; with an integrator taking fewer RHS per step, such as Adams, the projections after each step weigh more per RHS)."
    ));
    t.note(format!(
        "Pinocchio: `xtask/peers/pinocchio_peer.py` in its `per_call` mode, the same tree of revolute-z joints and CONTACT_3D loop closures as in the comparison above: `constraintDynamics` (proximal settings, μ = 1e-12) called in a Python loop cycling through {PEER_STATES} states along its own trajectory (DOP853 at {TOL:.0e}); median time per call over 15 interleaved batches of ≈ 20 ms, minus the median per call of the same loop calling an empty Python function (both shown). The conversion of the arguments from Python to C++ is not subtracted: the corrected time bounds the C++ call from above. Ratios: mbs µs per RHS / Pinocchio's corrected µs per call; ≤ 1.0× is the issue's target for the recommended method. \"× recommended\": a method's µs / the recommended method's, flagged ⚠ above {SPREAD_LIMIT}× on mechanisms of more than {SPREAD_BODIES} bodies."
    ));
    t.note("Load before: the 1-minute load average before each row (2 cores; above 1 both sides' times are inflated, and Pinocchio's row and the methods' rows are measured at different moments, so the ratios carry that noise).");
    t.note("Andrew's squeezer: the peer scripts drop its spring-damper and driving torque (Pinocchio is timed with the same tree and closures, τ = 0 and no external force, so its states along the force-free trajectory are all the rest state); the cost of a `constraintDynamics` call does not depend on the force values (τ is a dense input either way). mbs runs the full model with its forces.");
    if !refused.is_empty() {
        t.note(format!(
            "Methods of the registry without a row (their front-end does not build the model): {}.",
            refused
                .iter()
                .map(|(m, (why, ids))| format!("`{m}` on {} ({}: {why})", ids.join(", "), ids[0]))
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    t.note(format!(
        "Target 1 (recommended ≤ {TARGET_RATIO:.1}× Pinocchio): {}.",
        verdicts.join("; ")
    ));
    t.note(if spread.is_empty() {
        format!(
            "Target 2 (no method above {SPREAD_LIMIT}× the recommended on mechanisms of more than {SPREAD_BODIES} bodies): met on the cases measured."
        )
    } else {
        format!(
            "Target 2 (no method above {SPREAD_LIMIT}× the recommended on mechanisms of more than {SPREAD_BODIES} bodies): missed by {}.",
            spread.join(", ")
        )
    });
    data.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_needs_finite_positive_reference() {
        assert_eq!(ratio(3.0, 2.0), Some(1.5));
        assert_eq!(ratio(3.0, 0.0), None);
        assert_eq!(ratio(3.0, -1.0), None);
        assert_eq!(ratio(f64::NAN, 2.0), None);
        assert_eq!(ratio(1.0, f64::INFINITY), None);
    }

    #[test]
    fn spread_flag_only_above_ten_bodies_and_five_times() {
        assert!(!too_slow(Some(6.0), 10));
        assert!(too_slow(Some(6.0), 11));
        assert!(!too_slow(Some(5.0), 30));
        assert!(!too_slow(None, 30));
        assert_eq!(spread_cell(Some(6.0), 30), "6.00 ⚠ > 5×");
        assert_eq!(spread_cell(Some(6.0), 8), "6.00");
        assert_eq!(spread_cell(None, 30), "—");
    }

    #[test]
    fn target_cell_at_and_above_one() {
        assert_eq!(target_cell(Some(1.0)), "yes");
        assert_eq!(target_cell(Some(0.4)), "yes");
        assert_eq!(target_cell(Some(1.01)), "no");
        assert_eq!(target_cell(None), "—");
    }

    #[test]
    fn mode_values() {
        assert_eq!(mode_of(None), Mode::With);
        assert_eq!(mode_of(Some("only")), Mode::Only);
        assert_eq!(mode_of(Some(" off ")), Mode::Off);
        assert_eq!(mode_of(Some("")), Mode::With);
    }

    #[test]
    fn closed_loop_methods_come_from_the_registry() {
        let model = mbs::builtin("five-bar").unwrap();
        let (ok, not) = closed_loop_methods(&model);
        let names: Vec<&str> = ok.iter().map(|m| m.name()).collect();
        // every registry entry is either measured or listed with why not
        assert_eq!(ok.len() + not.len(), mbs::registry::methods().len());
        // the recommendation for the model is among the rows; aba (trees only) is not
        let rec = mbs::recommend::recommend(&Arc::new(model.clone()));
        assert!(names.contains(&rec.method.name()));
        assert!(not.iter().any(|(n, _)| n == "aba"));
        assert!(!names.contains(&"aba"));
    }

    #[test]
    fn cases_are_the_issues_five() {
        let ids: Vec<String> = per_rhs_cases().into_iter().map(|c| c.id).collect();
        if std::env::var("MBS_PEERS_CASES").is_err() {
            assert_eq!(
                ids,
                [
                    "five-bar",
                    "double-loop",
                    "andrews-squeezer",
                    "ladder-8",
                    "ladder-10"
                ]
            );
        }
    }
}
