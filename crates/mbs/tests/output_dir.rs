//! `--out` directories are checked before the run, never half-written or mixed,
//! locked against a second writer, and keep the work of an interrupted run.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn mbs_cmd(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mbs"));
    c.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn mbs(args: &[&str]) -> Output {
    mbs_cmd(args).output().expect("spawn mbs")
}

fn spawn(args: &[&str]) -> Child {
    mbs_cmd(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mbs")
}

/// `mbs run five-bar --t-end T --out OUT -q`.
fn five_bar_into(out: &str, t_end: &str) -> Output {
    mbs(&["run", "five-bar", "--t-end", t_end, "--out", out, "-q"])
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh, empty scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mbs-outdir-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

/// The directory is one run's complete output: the manifest lists exactly the files
/// present, every CSV has rows of its header's width, every JSON parses; returns the
/// manifest's status.
fn assert_whole(dir: &Path) -> String {
    let m = manifest(dir);
    let mut listed: Vec<String> = m["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["file"].as_str().unwrap().to_string())
        .collect();
    listed.sort();
    assert_eq!(
        listed,
        names_in(dir),
        "manifest vs directory {}",
        dir.display()
    );
    for f in &listed {
        let path = dir.join(f);
        if f.ends_with(".csv") {
            let text = std::fs::read_to_string(&path).unwrap();
            let mut rows = text.lines().map(|l| l.split(',').count());
            let width = rows.next().unwrap();
            assert!(rows.all(|w| w == width), "{f}: rows of other widths");
        } else if f.ends_with(".json") {
            let _: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
                    .unwrap_or_else(|e| panic!("{f}: {e}"));
        }
    }
    let status = m["status"].as_str().unwrap().to_string();
    let traj: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("trajectory.json")).unwrap())
            .unwrap();
    assert_eq!(traj["status"], status.as_str());
    assert_eq!(traj["t_reached"], m["t_reached"]);
    status
}

/// No hidden staging, fallback or lock entries beside `dir` once no run holds it.
fn assert_no_leftovers(dir: &Path) {
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let left: Vec<String> = names_in(dir.parent().unwrap())
        .into_iter()
        .filter(|n| n.starts_with(&format!(".{name}.")))
        .collect();
    assert!(left.is_empty(), "left beside {}: {left:?}", dir.display());
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill {sig}");
}

/// A run long enough to be signalled while it integrates (stopped by every test).
const LONG: &[&str] = &[
    "run",
    "chain:n=24",
    "--method",
    "alf-index1",
    "--t-end",
    "1000",
    "-q",
];

fn long_run(out: &Path, extra: &[&str]) -> Child {
    let mut args: Vec<&str> = LONG.to_vec();
    args.extend(["--out", out.to_str().unwrap()]);
    args.extend(extra);
    spawn(&args)
}

fn lock_of(out: &Path) -> PathBuf {
    let name = out.file_name().unwrap().to_string_lossy().into_owned();
    out.with_file_name(format!(".{name}.mbs-lock"))
}

#[test]
fn a_file_in_the_way_is_refused_before_the_run() {
    let d = scratch("file");
    let f = d.join("f");
    std::fs::write(&f, "mine").unwrap();
    let o = five_bar_into(f.to_str().unwrap(), "1000");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("is not a directory") && e.contains(f.to_str().unwrap()),
        "{e}"
    );
    assert!(
        !String::from_utf8_lossy(&o.stdout).contains("wall time"),
        "nothing was simulated"
    );
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "mine");
}

#[test]
fn an_unwritable_place_is_refused_before_the_run() {
    // /proc refuses new entries even to root (tests run as root in CI)
    let o = five_bar_into("/proc/mbs-out", "1000");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("/proc/mbs-out"), "{}", stderr(&o));
    assert!(!String::from_utf8_lossy(&o.stdout).contains("wall time"));
}

#[test]
fn a_directory_of_other_files_is_refused_and_left_alone() {
    let d = scratch("foreign");
    std::fs::write(d.join("thesis.tex"), "keep me").unwrap();
    let o = five_bar_into(d.to_str().unwrap(), "0.01");
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("thesis.tex") && e.contains("did not write"),
        "{e}"
    );
    assert_eq!(names_in(&d), ["thesis.tex"]);
}

#[test]
fn a_used_directory_is_replaced_whole() {
    let d = scratch("reuse");
    let out = d.join("out");
    let o = mbs(&[
        "run",
        "five-bar",
        "--t-end",
        "0.05",
        "--plot",
        "--animate",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(names_in(&out).iter().any(|n| n.ends_with(".png")));
    assert!(names_in(&out).iter().any(|n| n == "animation.html"));
    assert_eq!(assert_whole(&out), "complete");
    // second run: no plots, another mechanism
    let o = mbs(&[
        "run",
        "double-pendulum",
        "--t-end",
        "0.05",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let names = names_in(&out);
    assert!(
        !names
            .iter()
            .any(|n| n.ends_with(".png") || n.ends_with(".html")),
        "{names:?}"
    );
    assert_eq!(assert_whole(&out), "complete");
    assert_eq!(manifest(&out)["model"], "double-pendulum");
    assert_no_leftovers(&out);
}

#[test]
fn a_failed_run_says_so_in_the_manifest() {
    let d = scratch("failed");
    let out = d.join("out");
    // the step limit stops it at once
    let o = mbs(&[
        "run",
        "five-bar",
        "--integrator",
        "rk45",
        "--rtol",
        "1e-10",
        "--t-end",
        "10",
        "--max-steps",
        "20",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(assert_whole(&out), "failed");
    let m = manifest(&out);
    assert!(m["reason"].as_str().unwrap().contains("step limit"), "{m}");
    assert!(m["t_reached"].as_f64().unwrap() < 10.0);
}

#[test]
fn a_second_writer_is_refused_and_sigint_keeps_the_work() {
    let d = scratch("lock");
    let out = d.join("out");
    let mut first = long_run(&out, &[]);
    let lock = lock_of(&out);
    wait_for("the first run's lock", || {
        std::fs::read_to_string(&lock).is_ok_and(|s| s.contains("pid"))
    });
    std::thread::sleep(Duration::from_millis(300)); // let it integrate a little
    let second = five_bar_into(out.to_str().unwrap(), "0.01");
    assert_eq!(second.status.code(), Some(2), "{}", stderr(&second));
    let e = stderr(&second);
    assert!(
        e.contains(&format!("pid {}", first.id())),
        "names the other process: {e}"
    );
    assert!(!out.exists(), "nothing appears before the first run ends");

    signal(&first, "-INT");
    let status = first.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_eq!(assert_whole(&out), "interrupted");
    let m = manifest(&out);
    let t = m["t_reached"].as_f64().unwrap();
    assert!(t > 0.0 && t < 1000.0, "t_reached {t}");
    assert!(m["reason"].as_str().unwrap().contains("SIGINT"), "{m}");
    assert_no_leftovers(&out);
}

#[test]
fn sigterm_keeps_the_work_too() {
    let d = scratch("term");
    let out = d.join("out");
    let mut run = long_run(&out, &[]);
    let lock = lock_of(&out);
    wait_for("the lock", || {
        std::fs::read_to_string(&lock).is_ok_and(|s| s.contains("pid"))
    });
    std::thread::sleep(Duration::from_millis(300));
    signal(&run, "-TERM");
    assert_eq!(run.wait().unwrap().code(), Some(143));
    assert_eq!(assert_whole(&out), "interrupted");
}

#[test]
fn sigkill_leaves_the_previous_output_whole_and_the_next_run_cleans_up() {
    let d = scratch("kill");
    let out = d.join("out");
    let o = five_bar_into(out.to_str().unwrap(), "0.01");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let before = std::fs::read(out.join("trajectory.csv")).unwrap();
    let mut run = long_run(&out, &[]);
    let lock = lock_of(&out);
    wait_for("the lock", || {
        std::fs::read_to_string(&lock).is_ok_and(|s| s.contains("pid"))
    });
    std::thread::sleep(Duration::from_millis(200));
    run.kill().unwrap(); // SIGKILL: no chance to write anything
    run.wait().unwrap();
    assert_eq!(assert_whole(&out), "complete");
    assert_eq!(std::fs::read(out.join("trajectory.csv")).unwrap(), before);
    let o = five_bar_into(out.to_str().unwrap(), "0.02");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(assert_whole(&out), "complete");
    assert_no_leftovers(&out);
}

#[test]
fn compare_output_is_staged_and_has_a_manifest() {
    let d = scratch("compare");
    let out = d.join("cmp");
    let o = mbs(&[
        "compare",
        "five-bar",
        "--methods",
        "alf-index1,hdca",
        "--t-end",
        "0.05",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let m = manifest(&out);
    assert_eq!(m["status"], "complete");
    let mut listed: Vec<String> = m["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    listed.sort();
    assert_eq!(listed, names_in(&out));
    for sub in ["alf-index1", "hdca"] {
        assert_eq!(assert_whole(&out.join(sub)), "complete");
    }
    assert_no_leftovers(&out);
}
