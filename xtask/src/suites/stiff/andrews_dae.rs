//! Table of the stiff suite (issue #31, acceptance 4): Andrew's squeezer in the IVP
//! Test Set's index-3 formulation (27 variables, `M y' = F(y)`, the problem of
//! `crates/integrators/tests/stiff_problems/andrews.rs`), mbs's RADAU5 beside
//! Hairer's Fortran RADAU5 run live by `xtask/peers/radau5_fortran_peer.py` (built
//! by `scripts/setup/radau5-fortran.sh`): steps, Jacobians, LU decompositions and
//! significant correct digits at t = 0.03 for rtol = atol = 1e-4 … 1e-10.
//!
//! The peer needs gfortran; without it (and without an earlier build of the
//! library) its rows are left out with a note, and mbs's rows stay.

use std::path::Path;
use std::process::Command;

use mbs_integrators::{Error, Info, Radau5, Radau5Params};

use crate::report::Table;
use crate::suites::peers::python::repo_root;

#[path = "../../../../crates/integrators/tests/stiff_problems/andrews.rs"]
#[allow(dead_code)]
mod andrews;
use andrews::Andrews;

/// Initial steps of the two series: `None` is h0 = rtol (the Test Set's
/// convention), `Some(1e-6)` RADAU5's default.
const SERIES: [Option<f64>; 2] = [None, Some(1e-6)];

/// Exponents k of rtol = atol = 10^-k.
const TOLS: std::ops::RangeInclusive<i32> = 4..=10;

fn table() -> Table {
    Table::new(
        "stiff_andrews_dae",
        "Andrew's squeezer, IVP Test Set index-3 formulation (27 variables, M y' = F(y)) — mbs RADAU5 beside Hairer's Fortran RADAU5",
        &[
            "rtol = atol",
            "h0",
            "code",
            "steps",
            "accepted",
            "rejected",
            "f (no Jacobian)",
            "Jacobians",
            "LU",
            "scd (q at t = 0.03)",
        ],
    )
}

/// RADAU5's defaults set explicitly (`WORK`/`IWORK` zero), dense LU.
fn ours(tol: f64, h0: f64) -> (Result<Info, Error>, Vec<f64>) {
    let p = Radau5Params {
        h0: Some(h0),
        ..Radau5Params::fortran(tol, tol)
    };
    let mut sys = Andrews::default();
    let mut r = Radau5::new(27, p);
    let res = r.integrate(&mut sys, 0.0, &Andrews::Y0, Andrews::T_END, &[], &mut ());
    (res, r.y().to_vec())
}

/// Build the peer (idempotent) and run it for one series; `Err`: why not.
fn fortran(h0: Option<f64>) -> Result<serde_json::Value, String> {
    let root = repo_root();
    let lib = root.join("target/peers/radau5/libradau5.so");
    let have_gfortran = Command::new("gfortran").arg("--version").output().is_ok();
    if !have_gfortran && !lib.exists() {
        return Err("gfortran is not installed: run `bash scripts/setup/radau5-fortran.sh` (installs it with apt-get, fetches Hairer's radau_decsol.f from the Assimulo-3.0 sdist and builds it)".into());
    }
    if have_gfortran {
        let out = Command::new("bash")
            .arg(root.join("scripts/setup/radau5-fortran.sh"))
            .output()
            .map_err(|e| format!("cannot run the setup script: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "scripts/setup/radau5-fortran.sh failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
    }
    let tols: Vec<String> = TOLS.map(|k| k.to_string()).collect();
    let mut cmd = Command::new("python3");
    cmd.arg(root.join("xtask/peers/radau5_fortran_peer.py"))
        .arg("--lib")
        .arg(&lib)
        .arg("--tols")
        .arg(tols.join(","));
    if let Some(h) = h0 {
        cmd.arg("--h0").arg(h.to_string());
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run python3: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "the peer failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("unreadable peer output: {e}"))
}

fn fortran_row(tol: f64, h0: f64, r: &serde_json::Value) -> Vec<String> {
    let int = |k: &str| r[k].as_u64().unwrap_or(0);
    let idid = r["idid"].as_i64().unwrap_or(0);
    let scd = r["scd"].as_f64();
    let head = vec![format!("{tol:.0e}"), format!("{h0:.0e}"), "Fortran".into()];
    if idid != 1 || scd.is_none() {
        let why = if idid == 1 {
            "IDID = 1 but y = NaN".to_string()
        } else {
            format!(
                "IDID = {idid} at t = {:.4e}",
                r["t"].as_f64().unwrap_or(f64::NAN)
            )
        };
        let mut row = head;
        row.push(format!("fails: {why} ({} steps)", int("steps")));
        row.extend(std::iter::repeat_n(String::new(), 6));
        return row;
    }
    let mut row = head;
    row.extend([
        int("steps").to_string(),
        int("accepted").to_string(),
        (int("steps") - int("accepted")).to_string(),
        int("f_evals").to_string(),
        int("jacobians").to_string(),
        int("lu_decompositions").to_string(),
        format!("{:.2}", scd.unwrap_or(f64::NAN)),
    ]);
    row
}

fn ours_row(tol: f64, h0: f64) -> Vec<String> {
    let mut row = vec![format!("{tol:.0e}"), format!("{h0:.0e}"), "mbs".into()];
    match ours(tol, h0) {
        (Ok(i), y) => row.extend([
            (i.accepted_steps + i.rejected_steps).to_string(),
            i.accepted_steps.to_string(),
            i.rejected_steps.to_string(),
            (i.rhs_evals - 27 * i.jacobian_evals).to_string(),
            i.jacobian_evals.to_string(),
            i.lu_decompositions.to_string(),
            format!("{:.2}", Andrews::scd(&y)),
        ]),
        (Err(e), _) => {
            row.push(format!("fails: {e}"));
            row.extend(std::iter::repeat_n(String::new(), 6));
        }
    }
    row
}

/// The table, with the peer's rows when it runs.
pub fn andrews_table() -> Table {
    let mut t = table();
    let mut skipped = None;
    for h0 in SERIES {
        let peer = match fortran(h0) {
            Ok(v) => Some(v),
            Err(why) => {
                skipped.get_or_insert(why);
                None
            }
        };
        for k in TOLS {
            let tol = 10f64.powi(-k);
            let h = h0.unwrap_or(tol);
            if let Some(r) = peer.as_ref().and_then(|p| {
                p["runs"]
                    .as_array()?
                    .iter()
                    .find(|r| r["tol"].as_f64() == Some(tol))
            }) {
                t.row(fortran_row(tol, h, r));
            }
            t.row(ours_row(tol, h));
        }
    }
    if let Some(why) = skipped {
        t.note(format!("Fortran RADAU5 rows left out: {why}."));
    }
    let compiler = repo_root().join("target/peers/radau5/compiler.txt");
    t.note(format!(
        "Fortran: Hairer's radau_decsol.f (PyPI sdist Assimulo-3.0), {}, IMAS = 1 with the diagonal M, NIND1/2/3 = 14/0/13, IJAC = 0 (its full difference Jacobian), defaults; \"f\" is its NFCN (without the difference Jacobian's right-hand sides; ours with them subtracted), \"LU\" its NDEC, \"steps\" its NSTEP (attempted). mbs: RADAU5 with OdeSystem::mass_matrix, RADAU5's defaults (thet = 0.001), dense LU. scd: −log10 of the largest relative error of the seven angles against the Test Set's reference at t = 0.03. The index-3 Newton matrix has a condition number of order h⁻³: with h0 ≤ 1e-8 neither code gets past the first step.",
        read(&compiler).unwrap_or_else(|| "compiler unknown".into())
    ));
    t
}

fn read(p: &Path) -> Option<String> {
    std::fs::read_to_string(p)
        .ok()
        .map(|s| s.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// mbs's rows: a run that reaches t = 0.03 (scd ≥ 4.5 at 1e-6, Hairer's code
    /// 5.13) and one that fails (h0 = 1e-8) as a row, not a panic.
    #[test]
    fn mbs_rows() {
        let ok = ours_row(1e-6, 1e-6);
        let scd: f64 = ok[9].parse().unwrap();
        assert!(scd >= 4.5, "{ok:?}");
        let bad = ours_row(1e-8, 1e-8);
        assert!(bad[3].starts_with("fails:"), "{bad:?}");
        assert_eq!(bad.len(), table().columns.len());
    }

    /// A failed Fortran run (IDID = 1 with y = NaN, as RADAU5 reports it) is a
    /// "fails" row of full width.
    #[test]
    fn fortran_rows() {
        let nan =
            serde_json::json!({"idid": 1, "t": 0.03, "steps": 373, "accepted": 91, "scd": null});
        let row = fortran_row(1e-8, 1e-8, &nan);
        assert_eq!(row[3], "fails: IDID = 1 but y = NaN (373 steps)");
        assert_eq!(row.len(), table().columns.len());
        let ok = serde_json::json!({"idid": 1, "t": 0.03, "steps": 452, "accepted": 432, "f_evals": 3798, "jacobians": 399, "lu_decompositions": 449, "scd": 5.126});
        let row = fortran_row(1e-6, 1e-6, &ok);
        assert_eq!(row[3..], ["452", "432", "20", "3798", "399", "449", "5.13"]);
    }

    /// The whole table, with the peer when gfortran is there (`--ignored`).
    #[test]
    #[ignore]
    fn print_table() {
        let t = andrews_table();
        for r in &t.rows {
            eprintln!("{}", r.join(" | "));
        }
        for n in &t.notes {
            eprintln!("{n}");
        }
    }
}
