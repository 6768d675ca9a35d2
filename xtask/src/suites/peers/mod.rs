//! Suite `peers` (issue 19): mbs beside Pinocchio, MuJoCo and Exudyn on the same
//! mechanisms in the same run — the ALF-DCA five-bar, N-link revolute chains and a
//! ladder of coupled loops — with wall and CPU time (median of repeats), energy error,
//! constraint violation and the agreement of positions at t = 1 s with mbs's most
//! accurate run; then the speed targets, met or missed by how much.
//!
//! Only run when asked (`cargo xtask bench --suite peers`): it creates
//! `target/peers-venv` and pip-installs the pinned peers the first time. A peer that
//! cannot be installed or fails gives rows that say so; the suite never aborts.
//! `MBS_PEERS_CASES=five-bar,chain-16` restricts the cases; the time limits (repeat
//! budget, a peer run predicted too long) are in [`budget`]. The table of µs per RHS
//! beside Pinocchio's `constraintDynamics` on small closed loops ([`per_rhs`]) is
//! measured too; `MBS_PEERS_PER_RHS=only` measures it alone, `=off` leaves it out.

mod budget;
mod cases;
mod mbs_side;
mod per_rhs;
pub mod python;
mod targets;

use std::time::Duration;

use crate::report::{Suite, Table};
use crate::runner::{Ctx, fixed, sci};
use crate::suites::scaling::load_average;
use budget::{RunPredictor, repeat_budget};
use cases::{Case, cases, read_case_model, variants, write_case_file};
use mbs_side::{
    MbsRun, candidates, fastest_meeting, most_accurate, position_difference, repeat, run_default,
};
use python::{ENGINES, PeerResult, ensure_venv, run_script};

/// Timed repeats of the runs shown (median, min–max).
const REPEATS: usize = 5;
/// A peer script is stopped after this long on one case.
const SCRIPT_TIMEOUT: Duration = Duration::from_secs(3600);

fn comparison_table() -> Table {
    Table::new(
        "peers_comparison",
        "Same mechanism, same run: mbs (one thread) beside the peers",
        &[
            "case",
            "engine",
            "configuration",
            "wall median [s] (min–max, repeats)",
            "CPU median [s]",
            "energy error [J]",
            "violation",
            "Δr at t = 1 s [m]",
            "mbs/peer wall",
            "mbs/peer CPU",
            "load before",
        ],
    )
}

fn candidates_table() -> Table {
    Table::new(
        "peers_candidates",
        "mbs candidates, one run each (one thread): the fastest meeting the case's targets is shown above",
        &[
            "case",
            "method / integrator",
            "wall [s]",
            "CPU [s]",
            "energy error [J]",
            "‖Φ‖",
            "Δr at t = 1 s [m]",
            "RHS evaluations",
            "meets targets",
        ],
    )
}

fn wall_cell(median: f64, min: f64, max: f64, n: usize) -> String {
    format!(
        "{} ({}–{}, {n})",
        fixed(median, 3),
        fixed(min, 3),
        fixed(max, 3)
    )
}

fn ratio(a: f64, b: Option<f64>) -> String {
    match b {
        Some(b) if b > 0.0 && a.is_finite() => fixed(a / b, 3),
        _ => "—".into(),
    }
}

/// Everything measured on one case.
struct CaseResult {
    best: Option<MbsRun>,
    closest: Option<MbsRun>,
    pinocchio: Option<(f64, f64)>,
    model: mbs::Model,
}

pub fn run(ctx: &mut Ctx) -> Suite {
    let mut s = Suite::new(
        "peers",
        "mbs beside Pinocchio, MuJoCo and Exudyn: same mechanisms, same run",
    );
    s.notes.push(format!(
        "Cases: the ALF-DCA five-bar and N-link revolute chains and a ladder of 8 coupled four-bar loops made of the same links ({}), horizontal or as built, from rest. Every engine reads the same case file (`{}/peers/<case>.json`, holding the mbs model file); the peers run the project's scripts `xtask/peers/*_peer.py` in `target/peers-venv` (pinned in `xtask/peers/requirements.txt`). Energy error: max |E(t) − E(0)| over samples every 0.1 s. Violation: mbs ‖Φ‖ over all joint equations; peers: the largest gap at a loop-closing joint (their trees satisfy the other joints by construction). Δr: largest distance of a body's centre of mass from mbs's most accurate run at t = 1 s. Ratios below 1: mbs faster. Load average: 1 minute, before the run (2 cores; above 1 means the timings are inflated, CPU time less so).",
        cases::LINKS,
        ctx.dir.display()
    ));
    let python = ensure_venv();
    if let Err(e) = &python {
        s.notes.push(format!("Peers not installed: {e}"));
    }
    let dir = ctx.dir.join("peers");
    let per_rhs_mode = per_rhs::mode();
    let mut per_rhs_table = per_rhs::table();
    let per_rhs_data = (per_rhs_mode != per_rhs::Mode::Off).then(|| {
        let py = python.as_ref().map(|p| p.as_path()).map_err(|e| e.as_str());
        per_rhs::fill(&mut per_rhs_table, &dir, py, &mut ctx.errors)
    });
    if per_rhs_mode == per_rhs::Mode::Only {
        s.tables.push(per_rhs_table);
        s.data = serde_json::json!({ "per_rhs_table": per_rhs_data });
        s.settle_status();
        return s;
    }
    let mut cmp = comparison_table();
    let mut cand = candidates_table();
    let mut tgt = targets::table();
    let mut data = serde_json::Map::new();
    let mut versions = std::collections::BTreeMap::new();
    let mut results: Vec<(Case, CaseResult)> = Vec::new();
    let mut slow = mbs_side::TooSlow::new();
    let mut predictor = RunPredictor::new();
    let budget = repeat_budget();
    for case in cases() {
        eprintln!("  case {} ({})", case.id, case.spec);
        let mut peer_variants = variants(&case);
        let mut not_started = Vec::new();
        let model = match mbs::builtin(&case.spec)
            .map_err(|e| e.to_string())
            .and_then(|m| {
                not_started = predictor.drop_too_slow(&mut peer_variants, m.n_bodies(), case.t_end);
                write_case_file(&dir, &case, &m, &peer_variants, budget)
            })
            .and_then(|p| read_case_model(&p).map(|m| (p, m)))
        {
            Ok(pm) => pm,
            Err(e) => {
                ctx.errors.push(format!("peers / {}: {e}", case.id));
                continue;
            }
        };
        let (path, model) = model;
        let (runs, skipped) = candidates(&case, &model, &mut slow);
        for n in skipped {
            s.notes.push(format!("{}: {n}", case.id));
        }
        let reference = most_accurate(&case, &runs).cloned();
        let ref_pos = reference.as_ref().and_then(|r| r.positions.clone());
        let dr = |p: Option<&Vec<Vec<f64>>>| -> String {
            match (&ref_pos, p) {
                (Some(r), Some(p)) => sci(position_difference(r, p)),
                _ => "—".into(),
            }
        };
        let dr_mbs = |r: &MbsRun| -> String {
            let p: Option<Vec<Vec<f64>>> = r
                .positions
                .as_ref()
                .map(|v| v.iter().map(|q| q.to_vec()).collect());
            dr(p.as_ref())
        };
        for r in &runs {
            cand.row(vec![
                case.id.clone(),
                r.label(),
                r.error
                    .as_ref()
                    .map_or_else(|| fixed(r.wall_median(), 3), |e| format!("failed: {e}")),
                fixed(r.cpu_median(), 3),
                sci(r.energy_error),
                sci(r.phi),
                dr_mbs(r),
                r.rhs_evals.to_string(),
                if r.meets(&case) { "yes" } else { "no" }.into(),
            ]);
        }
        let mut best = fastest_meeting(&case, &runs).cloned();
        if let Some(b) = &mut best {
            repeat(b, &model, case.t_end, REPEATS, budget);
        }
        let default = run_default(&model, case.t_end, REPEATS, budget);
        let best_times = best.as_ref().map(|b| (b.wall_median(), b.cpu_median()));
        let mbs_row = |who: &str, r: &MbsRun| {
            let (min, max) = r.wall_range();
            let few = if r.ok() {
                format!(
                    " ({} s CPU with samples at 0, 1 s and the end only)",
                    fixed(mbs_side::cpu_few_samples(&model, r, case.t_end), 3)
                )
            } else {
                String::new()
            };
            vec![
                case.id.clone(),
                who.into(),
                format!("{}{few}", r.label()),
                match &r.error {
                    None => wall_cell(r.wall_median(), min, max, r.wall.len()),
                    Some(e) => format!("failed: {e}"),
                },
                fixed(r.cpu_median(), 3),
                sci(r.energy_error),
                format!("‖Φ‖ {}", sci(r.phi)),
                dr_mbs(r),
                "—".into(),
                "—".into(),
                load_average().map_or("—".into(), |l| fixed(l, 1)),
            ]
        };
        match &best {
            Some(b) => cmp.row(mbs_row("mbs (fastest meeting the targets)", b)),
            None => cmp.row(vec![
                case.id.clone(),
                "mbs".into(),
                "no candidate met the targets".into(),
                "—".into(),
                "—".into(),
                "—".into(),
                "—".into(),
                "—".into(),
                "—".into(),
                "—".into(),
                "—".into(),
            ]),
        }
        cmp.row(mbs_row("mbs (default method and integrator)", &default));
        if let Some(r) = &reference {
            cmp.row(mbs_row("mbs (most accurate: the reference)", r));
        }
        let mut pinocchio = None;
        let mut case_data = serde_json::Map::new();
        for (engine, label) in ENGINES {
            for (_, variant, why) in not_started.iter().filter(|(e, _, _)| e == engine) {
                let mut row = vec![case.id.clone(), label.into(), variant.clone(), why.clone()];
                row.extend(std::iter::repeat_n("—".to_string(), 7));
                cmp.row(row);
            }
            let out = dir.join(format!("{}.{engine}.out.json", case.id));
            let res: Result<PeerResult, String> = match &python {
                Ok(py) => run_script(py, engine, &path, &out, SCRIPT_TIMEOUT),
                Err(e) => Err(format!("not installed: {e}")),
            };
            match res {
                Err(e) => {
                    let mut row = vec![case.id.clone(), label.into(), format!("failed: {e}")];
                    row.extend(std::iter::repeat_n("—".to_string(), 8));
                    cmp.row(row);
                }
                Ok(r) => {
                    versions.insert(label, r.version.clone());
                    if let Some(e) = &r.error {
                        let mut row = vec![
                            case.id.clone(),
                            label.into(),
                            format!("cannot model it: {e}"),
                        ];
                        row.extend(std::iter::repeat_n("—".to_string(), 8));
                        cmp.row(row);
                    }
                    for v in &r.runs {
                        let ok = v.status == "ok";
                        if let (true, Some(s)) = (ok, v.median_s) {
                            predictor.record(engine, &v.variant, model.n_bodies(), case.t_end, s);
                        }
                        if engine == "pinocchio" && ok && pinocchio.is_none() {
                            pinocchio = v.median_s.zip(v.cpu_median_s);
                        }
                        cmp.row(vec![
                            case.id.clone(),
                            format!("{label} {}", r.version),
                            v.variant.clone(),
                            if ok {
                                wall_cell(
                                    v.median_s.unwrap_or(f64::NAN),
                                    v.min_s.unwrap_or(f64::NAN),
                                    v.max_s.unwrap_or(f64::NAN),
                                    v.repeats.unwrap_or(0),
                                )
                            } else {
                                format!("{}: {}", v.status, v.reason.clone().unwrap_or_default())
                            },
                            v.cpu_median_s.map_or("—".into(), |c| fixed(c, 3)),
                            v.energy_error.map_or("—".into(), sci),
                            v.max_violation
                                .map_or("—".into(), |x| format!("closure {}", sci(x))),
                            dr(v.positions.as_ref()),
                            ratio(
                                best_times.map_or(f64::NAN, |b| b.0),
                                v.median_s.filter(|_| ok),
                            ),
                            ratio(
                                best_times.map_or(f64::NAN, |b| b.1),
                                v.cpu_median_s.filter(|_| ok),
                            ),
                            v.load_before.map_or("—".into(), |l| fixed(l, 1)),
                        ]);
                    }
                    case_data.insert(
                        engine.into(),
                        serde_json::to_value(r.runs.iter().map(|v| {
                            serde_json::json!({"variant": v.variant, "status": v.status, "reason": v.reason,
                                "median_s": v.median_s, "cpu_median_s": v.cpu_median_s, "energy_error": v.energy_error,
                                "max_violation": v.max_violation, "stats": v.stats})
                        }).collect::<Vec<_>>()).unwrap_or_default(),
                    );
                }
            }
        }
        let mbs_json = |r: &MbsRun| {
            serde_json::json!({"label": r.label(), "wall_s": r.wall, "cpu_s": r.cpu, "energy_error": r.energy_error,
                "phi": r.phi, "rhs_evals": r.rhs_evals, "error": r.error})
        };
        case_data.insert("mbs_candidates".into(), runs.iter().map(mbs_json).collect());
        if let Some(b) = &best {
            case_data.insert("mbs_best".into(), mbs_json(b));
        }
        case_data.insert("mbs_default".into(), mbs_json(&default));
        data.insert(case.id.clone(), case_data.into());
        let closest = runs
            .iter()
            .filter(|r| r.ok())
            .min_by(|a, b| a.energy_error.total_cmp(&b.energy_error))
            .cloned();
        results.push((
            case,
            CaseResult {
                best,
                closest,
                pinocchio,
                model,
            },
        ));
    }
    let find = |id: &str| results.iter().find(|(c, _)| c.id == id).map(|(_, r)| r);
    if let Some(r) = find("five-bar") {
        targets::five_bar(&mut tgt, r.best.as_ref(), r.closest.as_ref(), &r.model);
    }
    if let Some(r) = find("chain-256") {
        targets::chain_256(&mut tgt, r.best.as_ref(), r.pinocchio, &r.model);
    }
    // the recommended method: the one shown for the largest chain measured, else the
    // five-bar's
    let recommended = ["chain-256", "chain-64", "chain-16", "five-bar"]
        .iter()
        .find_map(|id| {
            find(id)
                .and_then(|r| r.best.as_ref())
                .map(|b| b.method.clone())
        })
        .unwrap_or_else(|| "alf-dca-proj".into());
    // the recommended method and the project's two O(n) formulations
    let mut scaled: Vec<String> = vec![recommended.clone()];
    for m in ["hdca", "alf-dca-proj"] {
        if !scaled.iter().any(|s| s == m) {
            scaled.push(m.into());
        }
    }
    for m in &scaled {
        data.insert(
            format!("per_rhs/{m}"),
            targets::per_rhs_scaling(&mut tgt, m),
        );
    }
    let speedups: Vec<(String, Result<targets::Speedup, String>)> = scaled
        .iter()
        .map(|m| (m.clone(), targets::measure_speedup(m)))
        .collect();
    for (m, sp) in &speedups {
        data.insert(
            format!("speedup/{m}"),
            targets::speedup(&mut tgt, m, sp, &speedups),
        );
    }
    tgt.note(format!(
        "Recommended method for the scaling targets: `{recommended}` (the one shown for the largest chain); HDCA and ALF-DCA are measured too. Speed targets are measured here, never asserted by tests. \"what bounds it\" splits a run's CPU time into RHS evaluations × the time of one RHS at the initial state (one thread) and the rest (integrator, projections, sampling)."
    ));
    if !versions.is_empty() {
        s.notes.push(format!(
            "Peer versions: {}.",
            versions
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    cmp.note("Horizons: 10 s, except chain-1024: 1 s (the peers need minutes per simulated second at that size).");
    cmp.note("mbs times include the facade's work at each of the 101 output samples (energies, constraint norms and, for closed loops of at most 64 bodies, the singular values of Φ_q, which the facade computes at every sample even with the guard off; open trees have no singular configuration and skip it); the CPU time with samples at 0, 1 s and the end only (beside the configuration) is the method's own cost. The peers compute their energies and closure gaps at the same 101 samples.");
    s.tables.push(tgt);
    if let Some(d) = per_rhs_data {
        data.insert("per_rhs_table".into(), d);
        s.tables.push(per_rhs_table);
    }
    s.tables.push(cmp);
    s.tables.push(cand);
    s.data = data.into();
    s.settle_status();
    s
}
