//! Throughput of the Python package's parameter sweep (`mbs.sweep`) on a Dask
//! `LocalCluster` with 1 and 2 worker processes, beside the same sweep in-process:
//! simulations per second as a user of the Python package sees them. Runs
//! `crates/python/bench/sweep_throughput.py` in the project's Python environment
//! (`target/py-venv`, installed by `scripts/setup/python.sh`); without it the suite
//! says how to install it and measures nothing.

use std::process::Command;

use serde::Deserialize;

use crate::report::{Status, Suite, Table};
use crate::runner::Ctx;
use crate::suites::peers::python::{repo_root, target_dir};

#[derive(Deserialize)]
struct Measured {
    cases: usize,
    cpus: usize,
    load_average: f64,
    rows: Vec<Row>,
}

#[derive(Deserialize)]
struct Row {
    scheduler: String,
    wall_s: f64,
    per_simulation_s: f64,
}

pub fn run(ctx: &mut Ctx) -> Suite {
    let mut s = Suite::new(
        "sweep",
        "Python package: parameter-sweep throughput on a Dask LocalCluster",
    );
    let python = target_dir().join("py-venv").join("bin").join("python");
    if !python.is_file() {
        s.status = Status::NotMeasured(
            "the project's Python environment (`target/py-venv`) is not installed yet; `bash scripts/setup/python.sh` installs it (a few minutes), then `cargo xtask bench --suite sweep` measures this suite".into(),
        );
        return s;
    }
    let cases = if ctx.quick { 16 } else { 64 };
    let out = ctx.dir.join("sweep_throughput.json");
    if let Err(e) = std::fs::create_dir_all(&ctx.dir) {
        s.status = Status::NotMeasured(format!("{}: {e}", ctx.dir.display()));
        return s;
    }
    let script = repo_root().join("crates/python/bench/sweep_throughput.py");
    let run = Command::new(&python)
        .arg(&script)
        .args(["--cases", &cases.to_string(), "--json"])
        .arg(&out)
        .output();
    let measured = match run {
        Ok(o) if o.status.success() => std::fs::read_to_string(&out)
            .map_err(|e| format!("{}: {e}", out.display()))
            .and_then(|t| serde_json::from_str::<Measured>(&t).map_err(|e| e.to_string())),
        Ok(o) => Err(format!(
            "{} exited with {}: {}",
            script.display(),
            o.status,
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .last()
                .unwrap_or("")
        )),
        Err(e) => Err(format!("{}: {e}", python.display())),
    };
    let m = match measured {
        Ok(m) => m,
        Err(e) => {
            ctx.errors.push(format!("sweep: {e}"));
            s.status = Status::NotMeasured(format!("the measurement failed: {e}"));
            return s;
        }
    };
    let mut t = Table::new(
        "sweep_throughput",
        &format!(
            "Five-bar sweep, {} simulations (alf-index1, rk45 1e-6, t_end = 1 s, ground link scaled 0.95…1.05)",
            m.cases
        ),
        &[
            "scheduler",
            "wall time [s]",
            "simulations/s",
            "mean integration time per simulation [s]",
        ],
    );
    for r in &m.rows {
        t.row(vec![
            r.scheduler.clone(),
            format!("{:.2}", r.wall_s),
            format!("{:.1}", m.cases as f64 / r.wall_s),
            format!("{:.4}", r.per_simulation_s),
        ]);
    }
    let rate = |name: &str| {
        m.rows
            .iter()
            .find(|r| r.scheduler.contains(name))
            .map(|r| m.cases as f64 / r.wall_s)
    };
    if let (Some(one), Some(two)) = (rate("1 worker"), rate("2 workers")) {
        t.note(format!(
            "2 workers / 1 worker: {:.2}× ({} CPUs, 1-minute load average {:.1} at the end; the ideal is 2× on an otherwise idle machine with ≥ 2 cores).",
            two / one,
            m.cpus,
            m.load_average
        ));
    }
    t.note("Wall time of the whole `mbs.sweep` call as a user sees it (scheduling, transfer and the result table included), after a warm-up of one case per worker; each simulation itself releases the GIL.");
    s.set(
        "sweep_throughput",
        serde_json::json!({
            "cases": m.cases,
            "rows": m.rows.iter().map(|r| serde_json::json!({
                "scheduler": r.scheduler, "wall_s": r.wall_s,
                "simulations_per_s": m.cases as f64 / r.wall_s,
            })).collect::<Vec<_>>(),
        }),
    );
    s.tables.push(t);
    s
}
