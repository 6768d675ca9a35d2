//! Named bad inputs through the real `mbs` binary: each must end with the documented
//! exit code (0 ok, 1 failed simulation or output, 2 bad input) and a message that
//! names the element and the value, within the time limit, without a crash.

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::{Run, mbs, scratch};

/// The double pendulum example as text (every file case below edits one line of it).
fn pendulum() -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/models/double_pendulum.toml");
    fs::read_to_string(path).expect("examples/models/double_pendulum.toml")
}

/// The pendulum with `from` replaced by `to` (which must occur).
fn pendulum_with(from: &str, to: &str) -> String {
    let text = pendulum();
    assert!(text.contains(from), "`{from}` not in the example");
    text.replacen(from, to, 1)
}

/// Writes `text` to a scratch file `name` of test `test`.
fn model_file(test: &str, name: &str, text: &str) -> PathBuf {
    let path = scratch(test).join(name);
    fs::write(&path, text).expect("write model");
    path
}

/// `mbs check FILE` and `mbs run FILE` (short) on `file`.
fn check_and_run(file: &Path) -> [Run; 2] {
    let f = file.to_str().unwrap();
    let out = file.with_extension("out");
    [
        mbs(&["check", f]),
        mbs(&[
            "run",
            f,
            "--t-end",
            "0.01",
            "--samples",
            "2",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ]),
    ]
}

/// Exit code `code`, no crash, and stderr containing every one of `words`
/// (case-insensitively).
fn assert_error(r: &Run, code: i32, words: &[&str]) {
    assert!(!r.crashed(), "crashed or hung: {}", r.describe());
    assert_eq!(r.code, Some(code), "{}", r.describe());
    let err = r.stderr.to_lowercase();
    for w in words {
        assert!(
            err.contains(&w.to_lowercase()),
            "the message does not name `{w}`: {}",
            r.describe()
        );
    }
}

/// Exit code 2 from both `check` and `run` of a model file naming `words`.
fn assert_bad_model(test: &str, text: &str, words: &[&str]) {
    let file = model_file(test, "model.toml", text);
    for r in check_and_run(&file) {
        assert_error(&r, 2, words);
    }
}

/// `mbs run MODEL -q EXTRA…` with `--t-end 0.01 --samples 2 --out SCRATCH` where
/// `extra` does not set them.
fn short_run(model: &str, extra: &[&str]) -> Run {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let out = scratch(&format!("short-run-{}", N.fetch_add(1, Ordering::Relaxed))).join("out");
    let out = out.to_str().unwrap().to_string();
    let mut args = vec!["run", model, "-q"];
    args.extend_from_slice(extra);
    for (key, value) in [
        ("--t-end", "0.01"),
        ("--samples", "2"),
        ("--out", out.as_str()),
    ] {
        if !extra.contains(&key) {
            args.extend([key, value]);
        }
    }
    mbs(&args)
}

// ---- output directory --------------------------------------------------------------

#[test]
fn out_pointing_at_a_regular_file_is_refused_before_the_run() {
    let file = scratch("out-file").join("taken.txt");
    fs::write(&file, "keep me").unwrap();
    let r = short_run("double-pendulum", &["--out", file.to_str().unwrap()]);
    assert_error(&r, 2, &["taken.txt"]);
    assert_eq!(fs::read_to_string(&file).unwrap(), "keep me");
}

#[test]
fn out_in_an_unwritable_place_is_an_output_error_naming_it() {
    // Root may write anywhere but /proc, where no directory can be made.
    let r = short_run("double-pendulum", &["--out", "/proc/mbs-adversarial-out"]);
    assert!(!r.crashed(), "{}", r.describe());
    assert!(matches!(r.code, Some(1 | 2)), "{}", r.describe());
    assert!(
        // the directory, or its staging directory beside it
        r.stderr.contains("mbs-adversarial-out"),
        "{}",
        r.describe()
    );
}

// ---- sizes that would exhaust memory ----------------------------------------------

#[test]
fn a_billion_samples_is_refused_naming_samples() {
    let r = short_run("double-pendulum", &["--samples", "1000000000"]);
    assert_error(&r, 2, &["samples", "1000000000"]);
}

#[test]
fn a_billion_link_chain_is_refused_naming_n() {
    let r = mbs(&["check", "chain:n=1000000000"]);
    assert_error(&r, 2, &["n", "1000000000"]);
}

#[test]
fn dev_zero_as_a_model_is_refused_without_reading_forever() {
    let r = mbs(&["check", "/dev/zero"]);
    assert_error(&r, 2, &["/dev/zero"]);
}

#[test]
fn a_model_file_linked_to_dev_zero_is_refused_without_reading_forever() {
    let dir = scratch("dev-zero-link");
    let link = dir.join("endless.toml");
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    let r = mbs(&["check", link.to_str().unwrap()]);
    assert_error(&r, 2, &["endless.toml"]);
}

// ---- model files -------------------------------------------------------------------

#[test]
fn a_nan_euler_parameter_is_refused_naming_the_body() {
    let text = pendulum_with(
        "orientation = [1.0, 0.0, 0.0, 0.0]",
        "orientation = [nan, 0.0, 0.0, 0.0]",
    );
    assert_bad_model("nan-euler", &text, &["link1", "nan"]);
}

#[test]
fn all_zero_euler_parameters_are_refused_naming_the_body() {
    let text = pendulum_with(
        "orientation = [1.0, 0.0, 0.0, 0.0]",
        "orientation = [0.0, 0.0, 0.0, 0.0]",
    );
    assert_bad_model("zero-euler", &text, &["link1", "orientation"]);
}

#[test]
fn vectors_of_the_wrong_length_are_refused_naming_the_key() {
    let cases = [
        (
            "position = [0.5, 0.0, 0.0]",
            "position = [0.5, 0.0, 0.0, 1.0]",
            "position",
        ),
        (
            "position = [0.5, 0.0, 0.0]",
            "position = [0.5, 0.0, 0.0, 1.0, 2.0]",
            "position",
        ),
        (
            "gravity = [0.0, -9.81, 0.0]",
            "gravity = [0.0, -9.81, 0.0, 0.0]",
            "gravity",
        ),
        (
            "gravity = [0.0, -9.81, 0.0]",
            "gravity = [0.0, -9.81, 0.0, 0.0, 0.0]",
            "gravity",
        ),
        (
            "orientation = [1.0, 0.0, 0.0, 0.0]",
            "orientation = [1.0, 0.0, 0.0, 0.0, 0.0]",
            "orientation",
        ),
        (
            "orientation = [1.0, 0.0, 0.0, 0.0]",
            "orientation = [1.0, 0.0, 0.0]",
            "orientation",
        ),
    ];
    for (from, to, key) in cases {
        assert_bad_model("vector-length", &pendulum_with(from, to), &[key, "length"]);
    }
}

#[test]
fn vectors_of_the_wrong_length_are_refused_with_their_line() {
    let text = pendulum_with(
        "position = [0.5, 0.0, 0.0]",
        "position = [0.5, 0.0, 0.0, 1.0]",
    );
    let line = 1 + text
        .lines()
        .position(|l| l.contains("position = [0.5, 0.0, 0.0, 1.0]"))
        .unwrap();
    assert_bad_model("vector-length-line", &text, &[&format!("line {line}")]);
}

#[test]
fn an_empty_model_file_is_refused_naming_what_is_missing() {
    for name in ["empty.toml", "empty.json"] {
        let file = model_file("empty", name, "");
        for r in check_and_run(&file) {
            assert!(!r.crashed(), "{}", r.describe());
            assert_eq!(r.code, Some(2), "{name}: {}", r.describe());
            let e = r.stderr.to_lowercase();
            assert!(
                e.contains("empty") || e.contains("bodies") || e.contains("line 1"),
                "{name}: {}",
                r.describe()
            );
        }
    }
}

#[test]
fn a_model_without_bodies_is_refused_naming_bodies() {
    assert_bad_model(
        "no-bodies",
        "name = \"nothing\"\nbodies = []\n",
        &["bodies"],
    );
}

#[test]
fn a_negative_mass_is_refused_naming_body_and_value() {
    let text = pendulum_with("mass = 1.0", "mass = -2.5");
    assert_bad_model("negative-mass", &text, &["link1", "mass", "-2.5"]);
}

#[test]
fn an_inertia_that_is_not_positive_definite_is_refused_naming_the_body() {
    let text = pendulum_with(
        "inertia = [0.001, 0.08333333333333333, 0.08333333333333333]",
        "inertia = [-0.001, 0.08333333333333333, 0.08333333333333333]",
    );
    assert_bad_model("inertia", &text, &["link1", "inertia"]);
}

#[test]
fn a_marker_on_a_missing_body_is_refused_naming_both() {
    let text = pendulum_with("body = \"link1\"", "body = \"link9\"");
    assert_bad_model("missing-body", &text, &["O.link1", "link9"]);
}

#[test]
fn a_joint_on_a_missing_marker_is_refused_naming_both() {
    let text = pendulum_with("marker_j = \"A.link2\"", "marker_j = \"A.link7\"");
    assert_bad_model("missing-marker", &text, &["`A`", "A.link7"]);
}

#[test]
fn inconsistent_initial_conditions_are_reported_naming_the_joint() {
    // link2 moved 0.3 m off the end of link1: joint A is violated.
    let text = pendulum_with("position = [1.5, 0.0, 0.0]", "position = [1.8, 0.4, 0.0]");
    let file = model_file("inconsistent", "model.toml", &text);
    let [check, run] = check_and_run(&file);
    assert!(!check.crashed() && !run.crashed());
    // check: the model is valid, its initial state is not (exit 1).
    assert_eq!(check.code, Some(1), "{}", check.describe());
    assert!(check.stdout.contains('A'), "{}", check.describe());
    // run: assembled and run (0), or refused naming the joint (2).
    match run.code {
        Some(0) => {}
        Some(2) => assert!(run.stderr.contains("`A`"), "{}", run.describe()),
        _ => panic!("{}", run.describe()),
    }
}

#[test]
fn natural_partitioning_with_a_duplicated_revolute_names_the_joint() {
    let text = format!(
        "{}\n[[joints]]\ntype = \"revolute\"\nname = \"A-again\"\nmarker_i = \"A.link1\"\nmarker_j = \"A.link2\"\n",
        pendulum()
    );
    let file = model_file("natural-dup", "model.toml", &text);
    let out = file.with_extension("out");
    let r = mbs(&[
        "run",
        file.to_str().unwrap(),
        "--method",
        "natural-partitioning",
        "--t-end",
        "0.01",
        "--samples",
        "2",
        "-q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!r.crashed(), "{}", r.describe());
    assert!(matches!(r.code, Some(1 | 2)), "{}", r.describe());
    assert!(
        r.stderr.contains("`A`") || r.stderr.contains("A-again"),
        "{}",
        r.describe()
    );
}

// ---- generators and parameters -----------------------------------------------------

#[test]
fn a_nan_length_is_refused_naming_length() {
    let r = mbs(&["check", "chain:n=4,length=nan"]);
    assert_error(&r, 2, &["length", "nan"]);
}

#[test]
fn a_nan_length_in_a_generator_file_is_refused_naming_length_and_nan() {
    let file = model_file(
        "nan-length",
        "gen.toml",
        "generator = \"chain\"\n[parameters]\nn = 4\nlength = nan\n",
    );
    assert_error(
        &mbs(&["check", file.to_str().unwrap()]),
        2,
        &["length", "nan"],
    );
}

#[test]
fn colon_separated_generator_parameters_are_accepted() {
    let r = mbs(&["check", "chain:n=8:length=0.2"]);
    assert_eq!(r.code, Some(0), "{}", r.describe());
}

#[test]
fn alf_with_alpha_and_kappa_names_the_conflict() {
    let r = short_run("double-pendulum", &["--method", "alf:alpha=1:kappa=1e4"]);
    assert_error(&r, 2, &["alpha", "kappa"]);
}

#[test]
fn a_repeated_method_parameter_is_refused_naming_it() {
    let r = short_run("double-pendulum", &["--method", "alf:kappa=1:kappa=2"]);
    assert_error(&r, 2, &["kappa"]);
}

#[test]
fn an_unknown_method_is_refused_listing_the_valid_ones() {
    let r = short_run("double-pendulum", &["--method", "alf-index7"]);
    assert_error(&r, 2, &["alf-index7", "valid methods", "lagrange"]);
}

#[test]
fn an_unknown_integrator_is_refused_listing_the_valid_ones() {
    let r = short_run("double-pendulum", &["--integrator", "rk99"]);
    assert_error(&r, 2, &["rk99", "rk45"]);
}

#[test]
fn a_tiny_end_time_runs_or_is_refused_naming_it() {
    let r = short_run(
        "double-pendulum",
        &["--t-end", "1e-300", "--samples", "200"],
    );
    assert!(!r.crashed(), "{}", r.describe());
    match r.code {
        Some(0) => {}
        Some(2) => {
            let e = r.stderr.to_lowercase();
            assert!(
                e.contains("t_end") || e.contains("t-end"),
                "{}",
                r.describe()
            );
        }
        _ => panic!("{}", r.describe()),
    }
}
