//! The mechanisms of the `peers` suite and the case files that mbs and the peer
//! scripts read: one JSON file per case holding the mbs model file (so both simulate
//! the same bodies and joints), the horizon, the sampling and each peer's settings.

use std::path::{Path, PathBuf};

use mbs::Model;
use serde_json::json;

/// Link data of every case: the ALF-DCA test cases' bodies (Malczyk & Frączek 2012,
/// sec 4.1): a = 0.2 m, m = 1 kg, J′ = 0.25·I kg m², gravity 9.81 m/s² along −y.
pub const LINKS: &str = "length=0.2,mass=1,inertia=0.25,gravity=9.81";

/// One mechanism of the comparison.
#[derive(Clone, Debug)]
pub struct Case {
    /// Id (row label and file name).
    pub id: String,
    /// Built-in name or generator spec the model comes from.
    pub spec: String,
    /// Horizon \[s\].
    pub t_end: f64,
    /// Energy-error target \[J\] (the accuracy the mbs run shown must meet).
    pub target_energy: f64,
    /// Constraint-violation target (‖Φ‖), where the case has loops.
    pub target_phi: Option<f64>,
}

/// Sampling of energy and violation \[s\] (positions are compared at t = 1 s).
pub const T_SAMPLE: f64 = 0.1;
/// Time at which positions are compared with mbs's most accurate run \[s\].
pub const T_POSITIONS: f64 = 1.0;

/// Every case, or those listed in `MBS_PEERS_CASES` (comma-separated ids).
pub fn cases() -> Vec<Case> {
    let chain = |n: usize, t_end: f64| Case {
        id: format!("chain-{n}"),
        spec: format!("chain:n={n},{LINKS}"),
        t_end,
        target_energy: 1e-6,
        target_phi: None,
    };
    let all = vec![
        Case {
            id: "five-bar".into(),
            spec: "five-bar".into(),
            t_end: 10.0,
            target_energy: 1e-8,
            target_phi: Some(1e-12),
        },
        chain(16, 10.0),
        chain(64, 10.0),
        chain(256, 10.0),
        // the largest chain over 1 s only: the peers need minutes per simulated second
        chain(1024, 1.0),
        Case {
            id: "ladder-8".into(),
            spec: format!("ladder:n=8,{LINKS}"),
            t_end: 10.0,
            target_energy: 1e-6,
            target_phi: Some(1e-10),
        },
    ];
    all.into_iter().filter(|c| wanted(&c.id)).collect()
}

/// Whether case `id` is wanted: every case, or those listed in `MBS_PEERS_CASES`
/// (comma-separated ids; the per-RHS table's cases are filtered the same way).
pub fn wanted(id: &str) -> bool {
    match std::env::var("MBS_PEERS_CASES") {
        Ok(list) if !list.trim().is_empty() => list.split(',').any(|w| w.trim() == id),
        _ => true,
    }
}

/// The settings each peer runs with on `case` (the scripts document the keys).
pub fn variants(case: &Case) -> serde_json::Value {
    let loops = case.target_phi.is_some();
    let mut pinocchio = vec![json!({"name": "DOP853 rtol=atol=1e-10", "rtol": 1e-10})];
    let mut mujoco =
        vec![json!({"name": "RK4 h=1e-4, connect solref 2h", "integrator": "RK4", "h": 1e-4})];
    let mut exudyn = vec![json!({"name": "generalized-α h=1e-3", "h": 1e-3})];
    if case.id == "five-bar" {
        pinocchio.push(json!({"name": "DOP853 rtol=atol=1e-8", "rtol": 1e-8}));
        mujoco.push(json!({"name": "RK4 h=1e-4, default soft connect", "integrator": "RK4", "h": 1e-4, "solref": "default"}));
        exudyn.push(json!({"name": "generalized-α h=1e-4", "h": 1e-4}));
    }
    if !loops {
        // a tree: MuJoCo has no equality constraint to stiffen
        mujoco[0] = json!({"name": "RK4 h=1e-4", "integrator": "RK4", "h": 1e-4});
    }
    json!({"pinocchio": pinocchio, "mujoco": mujoco, "exudyn": exudyn})
}

/// Writes the case file of `case` with `model` and the peers' `variants` under `dir`
/// (repeats stop after `budget_s` seconds); returns its path.
pub fn write_case_file(
    dir: &Path,
    case: &Case,
    model: &Model,
    variants: &serde_json::Value,
    budget_s: f64,
) -> Result<PathBuf, String> {
    let file = json!({
        "case": case.id,
        "model": model_json(model)?,
        "t_end": case.t_end,
        "t_sample": T_SAMPLE,
        "t_positions": T_POSITIONS,
        "repeats": 5,
        "budget_s": budget_s,
        "variants": variants,
    });
    write_json(dir, &case.id, &file)
}

/// The mbs model file of `model` as JSON (the `"model"` of a case file).
pub fn model_json(model: &Model) -> Result<serde_json::Value, String> {
    serde_json::from_str(&model.to_json_string()).map_err(|e| e.to_string())
}

/// Writes `file` as `<dir>/<id>.json` (creating `dir`); returns its path.
pub fn write_json(dir: &Path, id: &str, file: &serde_json::Value) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("{id}.json"));
    let text = serde_json::to_string_pretty(file).map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// The model mbs runs: read back from the case file, so that it is the mechanism the
/// peers read.
pub fn read_case_model(path: &Path) -> Result<Model, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let model = v.get("model").ok_or("case file without `model`")?;
    Model::from_json_str(&model.to_string()).map_err(|e| e.to_string())
}
