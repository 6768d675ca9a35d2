//! Suite `stiff-peers` (issue #31, acceptance 3): SciPy's `solve_ivp` with `Radau`
//! and `BDF` on the stiff squeezer (Hairer & Wanner's angles, rod GE a 1e8 N/m
//! spring) and on the bushing chain (joint coordinates), and Exudyn's
//! generalized-α on the bushing chain, beside mbs's explicit and implicit
//! integrators on the same mechanisms: wall time, the peers' counts, and the
//! agreement of the bodies' centres of mass at the end time with mbs's
//! tight-tolerance reference.
//!
//! Optional (`cargo xtask bench --suite stiff-peers`): it uses the `peers` suite's
//! environment `target/peers-venv` (created on first use) and the scripts
//! `xtask/peers/{scipy,exudyn}_stiff_peer.py` with the models of
//! `xtask/peers/stiff_models.py`.

use std::time::Duration;

use mbs::{IntegratorChoice, Sampling, Trajectory};
use serde::Deserialize;

use super::integrators::{Accuracy, INTEGRATORS};
use super::points::ratio;
use super::{TOL, final_error};
use crate::report::{NOT_IMPLEMENTED, Suite, Table};
use crate::runner::{Ctx, duration, sci};
use crate::suites::peers::python::{ensure_venv, run_script};

/// A peer script is stopped after this long on one case.
const SCRIPT_TIMEOUT: Duration = Duration::from_secs(1800);

/// One mechanism of the comparison.
struct PeerCase {
    id: &'static str,
    /// mbs model (built-in or generator spec) and formulation.
    model: &'static str,
    method: &'static str,
    /// The peers' model (`stiff_models.py`) and its parameters.
    peer_model: &'static str,
    params: serde_json::Value,
    t_end: f64,
    /// Peer engines (script `<engine>_peer.py`) and their variants.
    variants: serde_json::Value,
}

fn cases() -> Vec<PeerCase> {
    let scipy = |tols: &[f64]| -> serde_json::Value {
        let mut v = Vec::new();
        for m in ["Radau", "BDF"] {
            for t in tols {
                v.push(serde_json::json!({"name": format!("{m} rtol = atol = {t:.0e}"), "method": m, "rtol": t, "atol": t}));
            }
        }
        v.into()
    };
    vec![
        PeerCase {
            id: "stiff squeezer, 0.03 s",
            model: "andrews-squeezer-stiff-spring",
            method: "alf-dca-proj",
            peer_model: "stiff-squeezer",
            params: serde_json::json!({"k": 1e8, "baumgarte": 1e3}),
            // Hairer & Wanner's interval (the IVP Test Set's): SciPy's Python RHS
            // makes 1 s a matter of tens of minutes
            t_end: 0.03,
            variants: serde_json::json!({"scipy_stiff": scipy(&[1e-6])}),
        },
        PeerCase {
            id: "bushing chain, 1 s",
            model: "bushing-chain:n=8:k=1e6:c=10",
            method: "aba",
            peer_model: "bushing-chain",
            params: serde_json::json!({"n": 8, "k": 1e6, "c": 10.0}),
            t_end: 1.0,
            variants: serde_json::json!({
                "scipy_stiff": scipy(&[1e-6]),
                "exudyn_stiff": [
                    {"name": "generalized-α ρ∞ = 0.8, h = 1e-3", "h": 1e-3, "spectral_radius": 0.8},
                    {"name": "generalized-α ρ∞ = 0.8, h = 1e-4", "h": 1e-4, "spectral_radius": 0.8}
                ]
            }),
        },
    ]
}

/// The peer engines: script stem and label.
const ENGINES: [(&str, &str); 2] = [("scipy_stiff", "SciPy"), ("exudyn_stiff", "Exudyn")];

#[derive(Debug, Default, Deserialize)]
struct StiffPeerResult {
    #[serde(default)]
    version: String,
    #[serde(default)]
    runs: Vec<StiffPeerRun>,
}

#[derive(Debug, Default, Deserialize)]
struct StiffPeerRun {
    variant: String,
    status: String,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    median_s: Option<f64>,
    #[serde(default)]
    repeats: Option<usize>,
    #[serde(default)]
    positions: Option<Vec<Vec<f64>>>,
    #[serde(default)]
    bodies: Vec<String>,
    #[serde(default)]
    stats: serde_json::Value,
}

fn table() -> Table {
    Table::new(
        "stiff_peers",
        "Stiff mechanisms beside SciPy (Radau, BDF) and Exudyn (generalized-α)",
        &[
            "case",
            "engine",
            "configuration",
            "wall time",
            "counts",
            "Δr at t_end vs mbs reference [m]",
            "wall: mbs DOP853 / this",
            "wall: mbs Radau IIA / this",
        ],
    )
}

/// Largest distance between the peer's centres of mass (x, y) and the reference's
/// at its last sample, body by body (by name) \[m\].
fn peer_difference(reference: &Trajectory, bodies: &[String], positions: &[Vec<f64>]) -> f64 {
    let k = reference.len().saturating_sub(1);
    let mut worst = 0.0f64;
    for (name, p) in bodies.iter().zip(positions) {
        let Some(i) = reference.body_index(name) else {
            return f64::NAN;
        };
        let r = reference.position(k, i);
        if p.len() < 2 {
            return f64::NAN;
        }
        worst = worst.max(((r.x - p[0]).powi(2) + (r.y - p[1]).powi(2)).sqrt());
    }
    worst
}

pub fn run(ctx: &mut Ctx) -> Suite {
    let mut s = Suite::new(
        "stiff-peers",
        "Stiff mechanisms — mbs beside SciPy's Radau/BDF and Exudyn's generalized-α (issue #31)",
    );
    s.notes.push("Peers: SciPy `solve_ivp` on the planar models of `xtask/peers/stiff_models.py` (the squeezer in Hairer & Wanner's angles without body 6, rod GE a spring between G on body 7 and E on body 2, index-1 with Baumgarte stabilization ω = 1e3 1/s; the chain in joint coordinates; finite-difference Jacobians, Python right-hand sides), Exudyn's `SolveDynamic` (generalized-α, fixed step: its step control reacts to Newton failures, not to an error estimate) on the chain as rigid bodies with revolute joints and torsional spring–dampers. Δr: largest distance of a body's centre of mass (x, y) at the end time from mbs's reference (DOP853 at rtol = atol = 1e-10, same formulation as the mbs rows). Ratios above 1: the peer is faster.".into());
    let python = ensure_venv();
    if let Err(e) = &python {
        s.notes.push(format!("Peers not installed: {e}"));
    }
    let dir = ctx.dir.join("stiff-peers");
    let mut t = table();
    let mut data = serde_json::Map::new();
    for case in cases() {
        let model = match ctx.model(case.model) {
            Ok(m) => m,
            Err(e) => {
                ctx.errors.push(format!("stiff-peers / {}: {e}", case.id));
                continue;
            }
        };
        let reference = ctx.run_model(
            &model,
            case.method,
            IntegratorChoice::Dop853 {
                rtol: 1e-10,
                atol: 1e-10,
            },
            case.t_end,
            Sampling::Intervals(1),
        );
        let Some(reference) = reference.traj().cloned() else {
            s.notes.push(format!(
                "{}: the mbs reference run failed; left out.",
                case.id
            ));
            continue;
        };
        // mbs: every adaptive integrator of the stiff suite at TOL
        let mut dop_wall = None;
        let mut radau_wall = None;
        for spec in INTEGRATORS
            .iter()
            .filter(|x| x.accuracy == Accuracy::Tolerance)
        {
            let setting = spec.at(TOL);
            let mut row = vec![
                case.id.to_string(),
                "mbs".into(),
                format!("{} / {} {}", case.method, spec.label, setting.text),
            ];
            match setting.choice {
                Err(why) => row.push(format!("{NOT_IMPLEMENTED} ({why})")),
                Ok(choice) => {
                    let r = ctx.run_model(
                        &model,
                        case.method,
                        choice,
                        case.t_end,
                        Sampling::Intervals(1),
                    );
                    match r.traj() {
                        Some(tr) => {
                            if spec.label == super::integrators::EXPLICIT_DEFAULT {
                                dop_wall = Some(tr.wall_time);
                            }
                            if spec.label.starts_with("Radau") {
                                radau_wall = Some(tr.wall_time);
                            }
                            row.extend([
                                duration(tr.wall_time),
                                format!(
                                    "{} steps, {} RHS, {} Jacobians",
                                    tr.stats.accepted_steps,
                                    tr.stats.rhs_evals,
                                    tr.stats.jacobian_evals
                                ),
                                sci(final_error(tr, &reference)),
                            ]);
                        }
                        None => row.push(r.cell(|_| String::new())),
                    }
                }
            }
            row.resize(t.columns.len(), "—".into());
            t.row(row);
        }
        let case_json = serde_json::json!({
            "case": case.id,
            "model": case.peer_model,
            "params": case.params,
            "t_end": case.t_end,
            "repeats": 3,
            "budget_s": 120.0,
            "variants": case.variants,
        });
        let stem = case.peer_model;
        let path = dir.join(format!("{stem}.json"));
        if let Err(e) =
            std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, case_json.to_string()))
        {
            ctx.errors.push(format!("{}: {e}", path.display()));
            continue;
        }
        let mut case_data = serde_json::Map::new();
        for (engine, label) in ENGINES {
            if case.variants.get(engine).is_none() {
                continue;
            }
            let out = dir.join(format!("{stem}.{engine}.out.json"));
            let res: Result<StiffPeerResult, String> = match &python {
                Ok(py) => run_script(py, engine, &path, &out, SCRIPT_TIMEOUT).and_then(|_| {
                    let text = std::fs::read_to_string(&out).map_err(|e| e.to_string())?;
                    serde_json::from_str(&text).map_err(|e| e.to_string())
                }),
                Err(e) => Err(format!("not installed: {e}")),
            };
            match res {
                Err(e) => {
                    let mut row = vec![case.id.to_string(), label.into(), format!("failed: {e}")];
                    row.resize(t.columns.len(), "—".into());
                    t.row(row);
                }
                Ok(r) => {
                    for v in &r.runs {
                        let ok = v.status == "ok";
                        let wall = v.median_s.filter(|_| ok);
                        t.row(vec![
                            case.id.to_string(),
                            format!("{label} {}", r.version),
                            v.variant.clone(),
                            match wall {
                                Some(w) => format!("{} ({}×)", duration(w), v.repeats.unwrap_or(1)),
                                None => format!(
                                    "{}: {}",
                                    v.status,
                                    v.reason.clone().unwrap_or_default()
                                ),
                            },
                            counts(&v.stats),
                            v.positions.as_ref().map_or("—".into(), |p| {
                                sci(peer_difference(&reference, &v.bodies, p))
                            }),
                            wall.map_or("—".into(), |w| ratio(dop_wall.unwrap_or(f64::NAN), w)),
                            wall.map_or("—".into(), |w| ratio(radau_wall.unwrap_or(f64::NAN), w)),
                        ]);
                    }
                    case_data.insert(
                        engine.into(),
                        serde_json::json!({"version": r.version, "runs": r.runs.iter().map(|v| serde_json::json!({
                            "variant": v.variant, "status": v.status, "median_s": v.median_s, "stats": v.stats,
                            "positions": v.positions})).collect::<Vec<_>>()}),
                    );
                }
            }
        }
        data.insert(case.id.into(), case_data.into());
    }
    s.tables.push(t);
    s.data = data.into();
    s.settle_status();
    s
}

/// The peer's counters as "key value" pairs.
fn counts(stats: &serde_json::Value) -> String {
    match stats.as_object() {
        Some(m) if !m.is_empty() => m
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", "),
        _ => "—".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_case_files_name_known_engines_and_models() {
        for c in cases() {
            let v = c.variants.as_object().unwrap();
            assert!(!v.is_empty(), "{}", c.id);
            for k in v.keys() {
                assert!(ENGINES.iter().any(|(e, _)| e == k), "{}: {k}", c.id);
            }
            assert!(["stiff-squeezer", "bushing-chain"].contains(&c.peer_model));
            assert!(mbs::builtin(c.model).is_ok(), "{}", c.model);
        }
        assert_eq!(counts(&serde_json::json!({"nfev": 3})), "nfev 3");
        assert_eq!(counts(&serde_json::json!({})), "—");
    }
}
