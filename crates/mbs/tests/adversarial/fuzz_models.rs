//! Mutated model files: thousands in-process through `mbs::load_model` and
//! `mbs::check`, a sample through the real `mbs check` and `mbs run`. Fails on a
//! panic, a crash, a hang or an unnamed error (`rule`).

use std::fs;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::mutate::{Case, Rng, byte_cases, tree_cases};
use crate::rule::is_named;
use crate::support::{mbs_in, scratch};

/// Tree mutations per seed model (each rendered as JSON and TOML).
const TREE_MUTATIONS: usize = 40;
/// Byte mutations per seed model and format.
const BYTE_MUTATIONS: usize = 8;
/// Every how many-th case also goes through the real binary.
const CLI_EVERY: usize = 90;

/// Cases that fail today for a fix under way elsewhere: (label fragment, the fix).
/// They are left out of the strict tests (run them with `run_shard(0, 1, true)`);
/// remove an entry once its fix is merged. None is pending.
const PENDING: &[(&str, &str)] = &[];

fn pending(case: &Case) -> bool {
    PENDING
        .iter()
        .any(|(fragment, _)| case.label.contains(fragment))
}

/// The seed models: the example files and every built-in mechanism written out, as
/// (name, parsed document), plus generator references.
fn seeds() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/models");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("examples/models")
        .map(|e| e.expect("directory entry").path())
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = fs::read_to_string(&f).expect("read example model");
        let doc: Value = match f.extension().and_then(|e| e.to_str()) {
            Some("json") => serde_json::from_str(&text).expect("example JSON"),
            Some("toml") => toml::from_str(&text).expect("example TOML"),
            _ => continue,
        };
        out.push((f.file_name().unwrap().to_string_lossy().into_owned(), doc));
    }
    for b in mbs::builtins() {
        let model = mbs::load_model(&b.name).expect("built-in loads");
        let doc = serde_json::from_str(&model.to_json_string()).expect("built-in as JSON");
        out.push((b.name, doc));
    }
    for g in [
        r#"{"generator": "chain", "parameters": {"n": 3, "length": 0.5}}"#,
        r#"{"generator": "loop", "parameters": {"n": 4}}"#,
    ] {
        out.push((
            format!("generator file {g}"),
            serde_json::from_str(g).unwrap(),
        ));
    }
    out
}

/// Every case, in a fixed order from a fixed seed (made once per test process).
fn cases() -> &'static [Case] {
    static CASES: std::sync::OnceLock<Vec<Case>> = std::sync::OnceLock::new();
    CASES.get_or_init(make_cases)
}

fn make_cases() -> Vec<Case> {
    let mut rng = Rng::new(0x6d62_735f_6164_7673);
    let mut out = Vec::new();
    for (name, doc) in seeds() {
        out.extend(tree_cases(&name, &doc, TREE_MUTATIONS, &mut rng));
        out.extend(byte_cases(&name, &doc, BYTE_MUTATIONS, &mut rng));
    }
    out
}

/// Writes `case` to `dir/case.EXT` and returns the path.
fn write_case(case: &Case, dir: &Path, stem: &str) -> PathBuf {
    let path = dir.join(format!("{stem}.{}", case.format.ext()));
    fs::write(&path, &case.bytes).expect("write case");
    path
}

/// What went wrong with one case, or `None`.
fn in_process(case: &Case, path: &Path) -> Option<String> {
    let spec = path.to_str().expect("UTF-8 temp path");
    let outcome = catch_unwind(AssertUnwindSafe(|| match mbs::load_model(spec) {
        Ok(model) => {
            let _ = mbs::check(&model);
            None
        }
        Err(e) => Some(e.to_string()),
    }));
    match outcome {
        Err(p) => Some(format!("PANIC: {}", panic_text(&p))),
        Ok(Some(msg)) if !is_named(&msg, &with_path(case, path)) => Some(format!("UNNAMED: {msg}")),
        Ok(_) => None,
    }
}

fn with_path(case: &Case, path: &Path) -> Vec<String> {
    let mut t = case.tokens.clone();
    t.push(path.file_name().unwrap().to_string_lossy().into_owned());
    t
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(non-string panic)".into())
}

/// Runs the cases with indices `k % shards == shard` whose [`PENDING`] status is
/// `pending_ones` in-process; fails listing every offending case.
fn run_shard(shard: usize, shards: usize, pending_ones: bool) {
    let dir = scratch(&format!("fuzz-{shard}-{pending_ones}"));
    let all = cases();
    let mut bad = Vec::new();
    let mut n = 0;
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let chosen = all.iter().skip(shard).step_by(shards);
    let mut slowest = Vec::new();
    let mut accepted = 0;
    // MBS_ADVERSARIAL_PROFILE=1: counts and the slowest cases (to keep the suite fast).
    let profile = std::env::var_os("MBS_ADVERSARIAL_PROFILE").is_some();
    for case in chosen.filter(|c| pending(c) == pending_ones) {
        n += 1;
        let path = write_case(case, &dir, "case");
        let start = std::time::Instant::now();
        let verdict = in_process(case, &path);
        slowest.push((start.elapsed(), case.label.clone()));
        if profile && verdict.is_none() {
            accepted += usize::from(mbs::load_model(path.to_str().unwrap()).is_ok());
        }
        if let Some(what) = verdict {
            bad.push(format!("{}\n    {what}", case.label));
        }
    }
    std::panic::set_hook(quiet);
    let _ = fs::remove_dir_all(&dir);
    if profile {
        eprintln!("{n} cases: {accepted} accepted, {} failed", bad.len());
        slowest.sort();
        for (t, label) in slowest.iter().rev().take(15) {
            eprintln!("{:8.1} ms  {label}", t.as_secs_f64() * 1e3);
        }
    }
    assert!(pending_ones || n > 500, "only {n} cases in shard {shard}");
    assert!(
        bad.is_empty(),
        "{} of {n} mutated models failed (panic or unnamed error):\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn mutated_models_in_process_shard_0() {
    run_shard(0, 2, false);
}

#[test]
fn mutated_models_in_process_shard_1() {
    run_shard(1, 2, false);
}

/// A sample of the cases through `mbs check FILE` and `mbs run FILE --t-end 0.01`:
/// no crash (exit 101, a signal), no hang (killed after 20 s), exit code 0, 1 or 2,
/// and the message of exit 2 named.
#[test]
fn mutated_models_through_the_cli() {
    let dir = scratch("fuzz-cli");
    let mut bad = Vec::new();
    let mut n = 0;
    let all = cases();
    let sample = all.iter().enumerate().step_by(CLI_EVERY);
    for (k, case) in sample.filter(|(_, c)| !pending(c)) {
        n += 1;
        let path = write_case(case, &dir, &format!("case{k}"));
        let file = path.to_str().unwrap();
        let out = dir.join(format!("out{k}"));
        let logs = dir.join(format!("logs{k}"));
        let runs = [
            vec!["check", file],
            vec![
                "run",
                file,
                "--t-end",
                "0.01",
                "--samples",
                "2",
                "-q",
                "--out",
                out.to_str().unwrap(),
            ],
        ];
        for args in runs {
            let r = mbs_in(&args, &logs);
            let unnamed = r.code == Some(2) && !is_named(&r.stderr, &with_path(case, &path));
            if r.crashed() || !matches!(r.code, Some(0..=2)) || unnamed {
                bad.push(format!(
                    "{} — mbs {}\n    {}",
                    case.label,
                    args[0],
                    r.describe()
                ));
            }
        }
    }
    let _ = fs::remove_dir_all(&dir);
    assert!(n >= 30, "only {n} CLI cases");
    assert!(
        bad.is_empty(),
        "{} of {n} mutated models failed through the CLI:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
