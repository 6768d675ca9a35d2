//! The `mbs` binary: commands, outputs and exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn mbs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mbs"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("spawn mbs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mbs-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

const EXAMPLE: &str = "examples/models/four-bar.toml";

/// A method that runs in this build, if any (front-ends are plugged in one by one).
fn working_method() -> Option<&'static str> {
    let d = tmp("probe");
    [
        "alf-index1",
        "lagrange-baumgarte",
        "alf",
        "penalty",
        "lagrange",
    ]
    .into_iter()
    .find(|m| {
        let o = mbs(&[
            "run",
            "five-bar",
            "--method",
            m,
            "--t-end",
            "0.01",
            "--samples",
            "2",
            "--out",
            d.to_str().unwrap(),
            "-q",
        ]);
        code(&o) == 0
    })
}

#[test]
fn list_shows_mechanisms_methods_and_integrators() {
    let o = mbs(&["list"]);
    let (out, _) = text(&o);
    assert_eq!(code(&o), 0);
    for s in [
        "five-bar",
        "double-pendulum",
        "andrews-squeezer",
        "alf-index3",
        "hdca",
        "rk45",
        "staggered",
    ] {
        assert!(out.contains(s), "`{s}` missing from:\n{out}");
    }
}

#[test]
fn check_builtin_and_file() {
    let o = mbs(&["check", "five-bar"]);
    let (out, err) = text(&o);
    assert_eq!(code(&o), 0, "{err}");
    assert!(out.contains("Grübler mobility     -1"), "{out}");
    assert!(out.contains("rank-based mobility  2"), "{out}");
    assert!(out.contains("redundant equations  3"), "{out}");
    assert!(out.contains("consistent"), "{out}");

    let o = mbs(&["check", EXAMPLE, "--json"]);
    let (out, err) = text(&o);
    assert_eq!(code(&o), 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["model"], "four-bar");
    assert_eq!(v["bodies"], 3);
    assert_eq!(v["rank_mobility"], 1);
    assert_eq!(v["redundant"], 3);
    assert_eq!(v["loops"], 1);
}

#[test]
fn malformed_file_is_exit_2_with_line() {
    let d = tmp("bad");
    let f = d.join("bad.toml");
    std::fs::write(
        &f,
        "name = \"x\"\n[[bodies]]\nname = \"b\"\nmass = \"heavy\"\n",
    )
    .unwrap();
    let o = mbs(&["check", f.to_str().unwrap()]);
    let (_, err) = text(&o);
    assert_eq!(code(&o), 2, "{err}");
    assert!(err.contains("TOML") && err.contains("line 4"), "{err}");

    let f = d.join("neg.json");
    std::fs::write(
        &f,
        r#"{"name":"x","bodies":[{"name":"lump","mass":-1.0,"inertia":[1,1,1]}]}"#,
    )
    .unwrap();
    let o = mbs(&["run", f.to_str().unwrap()]);
    let (_, err) = text(&o);
    assert_eq!(code(&o), 2, "{err}");
    assert!(err.contains("lump") && err.contains("-1"), "{err}");

    let o = mbs(&["check", "no/such/file.toml"]);
    let (_, err) = text(&o);
    assert_eq!(code(&o), 2, "{err}");
    assert!(err.contains("no/such/file.toml"), "{err}");
}

#[test]
fn unknown_method_mechanism_integrator_are_exit_2() {
    let o = mbs(&["run", "five-bar", "--method", "alf-index7"]);
    let (_, err) = text(&o);
    assert_eq!(code(&o), 2);
    assert!(
        err.contains("unknown method `alf-index7`") && err.contains("alf-index3"),
        "{err}"
    );

    let o = mbs(&["run", "seven-bar"]);
    let (_, err) = text(&o);
    assert_eq!(code(&o), 2);
    assert!(
        err.contains("unknown mechanism `seven-bar`") && err.contains("five-bar"),
        "{err}"
    );

    let o = mbs(&["run", "five-bar", "--integrator", "rk99"]);
    let (_, err) = text(&o);
    assert_eq!(code(&o), 2);
    assert!(err.contains("rk99") && err.contains("rk45"), "{err}");

    let o = mbs(&["run", "five-bar", "--integrator", "rk45", "--h", "0.1"]);
    assert_eq!(code(&o), 2);

    let o = mbs(&["run", "five-bar", "--method", "alf:alpha=-3"]);
    let (_, err) = text(&o);
    assert_eq!(code(&o), 2);
    assert!(err.contains("alpha") && err.contains("-3"), "{err}");

    let o = mbs(&["compare", "five-bar", "--methods", "alf,bogus"]);
    let (_, err) = text(&o);
    assert_eq!(code(&o), 2);
    assert!(err.contains("bogus"), "{err}");

    // clap usage errors are exit code 2 as well
    let o = mbs(&["run"]);
    assert_eq!(code(&o), 2);
}

#[test]
fn unsupported_model_for_a_method_is_exit_2_naming_the_joint() {
    // HDCA works in joint coordinates of revolute/prismatic/spherical/distance/…
    // joints; the crank-slider's curved-path joint `slider` has no motion subspace
    let o = mbs(&[
        "run",
        "crank-slider",
        "--method",
        "hdca",
        "--out",
        tmp("ni").to_str().unwrap(),
    ]);
    let (_, err) = text(&o);
    assert_eq!(code(&o), 2, "{err}");
    assert!(
        err.contains("hdca") && err.contains("slider") && err.contains("path"),
        "{err}"
    );
}

fn assert_outputs(dir: &Path, plot: bool) {
    for f in ["trajectory.csv", "trajectory.json"] {
        assert!(dir.join(f).is_file(), "{f} missing in {}", dir.display());
    }
    if plot {
        for f in ["energy_error", "constraints", "coordinates", "energy"] {
            for ext in ["png", "svg"] {
                let p = dir.join(format!("{f}.{ext}"));
                assert!(
                    std::fs::metadata(&p)
                        .map(|m| m.len() > 1000)
                        .unwrap_or(false),
                    "{}",
                    p.display()
                );
            }
        }
    }
}

#[test]
fn run_example_file_and_every_builtin() {
    let Some(method) = working_method() else {
        eprintln!("no front-end plugged in yet: run tests limited to error paths");
        return;
    };
    let d = tmp("example");
    let o = mbs(&[
        "run",
        EXAMPLE,
        "--method",
        method,
        "--t-end",
        "0.5",
        "--out",
        d.to_str().unwrap(),
        "--plot",
        "-q",
    ]);
    let (out, err) = text(&o);
    assert_eq!(code(&o), 0, "{out}\n{err}");
    assert!(
        out.contains("max ‖Φ‖") && out.contains("RHS evaluations"),
        "{out}"
    );
    assert_outputs(&d, true);

    for b in mbs::builtins() {
        let d = tmp(&b.name);
        let o = mbs(&[
            "run",
            &b.name,
            "--method",
            method,
            "--t-end",
            "0.02",
            "--samples",
            "4",
            "--out",
            d.to_str().unwrap(),
            "--plot",
            "-q",
        ]);
        let (out, err) = text(&o);
        // a run may fail on a hard mechanism, but it must write what it has and say why
        assert!(code(&o) == 0 || code(&o) == 1, "{}: {out}\n{err}", b.name);
        if code(&o) == 1 {
            assert!(err.contains("t = "), "{}: {err}", b.name);
        }
        assert_outputs(&d, code(&o) == 0);
    }
}

#[test]
fn compare_prints_one_table() {
    let o = mbs(&[
        "compare",
        "five-bar",
        "--methods",
        "alf,alf-index1,hdca",
        "--t-end",
        "0.05",
        "--samples",
        "5",
        "-q",
    ]);
    let (out, err) = text(&o);
    assert!(
        out.contains("method") && out.contains("wall [s]") && out.contains("largest disagreement"),
        "{out}\n{err}"
    );
    // every method ran: three rows with status ok
    for m in ["alf ", "alf-index1", "hdca"] {
        assert!(
            out.lines()
                .any(|l| l.starts_with(m) && l.trim_end().ends_with("ok")),
            "{m}: {out}"
        );
    }
    assert_eq!(code(&o), 0, "{err}");
}

#[test]
fn diverging_simulation_is_exit_1_and_writes_partial_output() {
    let Some(method) = working_method() else {
        eprintln!("no front-end plugged in yet");
        return;
    };
    let d = tmp("diverge");
    // explicit central differences with a step far beyond the stability limit of the
    // stiff spring (k = 1e8)
    let o = mbs(&[
        "run",
        "andrews-squeezer-stiff-spring",
        "--method",
        method,
        "--integrator",
        "central-difference",
        "--h",
        "0.01",
        "--t-end",
        "1",
        "--out",
        d.to_str().unwrap(),
        "-q",
    ]);
    let (out, err) = text(&o);
    assert_eq!(code(&o), 1, "{out}\n{err}");
    assert!(
        err.contains("simulation failed") && err.contains("t = "),
        "{err}"
    );
    assert!(d.join("trajectory.csv").is_file());
}

/// Stiffness in the summary (issue #31): an explicit run held by stability says so
/// and suggests RADAU5; without `--integrator` a stiff spectrum picks RADAU5 and
/// says why.
#[test]
fn run_summary_reports_stiffness_and_default_picks_radau5() {
    let d = tmp("stiff-summary");
    let o = mbs(&[
        "run",
        "andrews-squeezer-stiff-spring",
        "--method",
        "alf-dca-proj",
        "--integrator",
        "dop853",
        "--rtol",
        "1e-3",
        "--t-end",
        "0.01",
        "--out",
        d.to_str().unwrap(),
        "-q",
    ]);
    let (out, err) = text(&o);
    assert_eq!(code(&o), 0, "{out}\n{err}");
    assert!(
        out.contains("stiff: step limited by stability from t = ")
            && out.contains("DOP853 stiffness test")
            && out.contains("try --integrator radau5"),
        "{out}"
    );
    let o = mbs(&[
        "run",
        "bushing-chain:n=4:k=1e6:c=10",
        "--t-end",
        "0.2",
        "--out",
        d.to_str().unwrap(),
        "-q",
    ]);
    let (out, err) = text(&o);
    assert_eq!(code(&o), 0, "{out}\n{err}");
    assert!(
        out.contains("integrator: radau5:rtol=1e-6:atol=1e-6 (stiff spectrum: ratio"),
        "{out}"
    );
    assert!(!out.contains("stiff: step limited"), "{out}");
}

#[test]
fn plot_coordinates_are_checked_and_compare_writes_per_method() {
    let Some(method) = working_method() else {
        eprintln!("no front-end plugged in yet");
        return;
    };
    let d = tmp("coords");
    let o = mbs(&[
        "run",
        "double-pendulum",
        "--method",
        method,
        "--t-end",
        "0.05",
        "--samples",
        "5",
        "--out",
        d.to_str().unwrap(),
        "--plot",
        "--coords",
        "link9.x",
        "-q",
    ]);
    let (_, err) = text(&o);
    assert_eq!(code(&o), 2, "{err}");
    assert!(err.contains("link9.x") && err.contains("link1"), "{err}");

    let o = mbs(&[
        "run",
        "double-pendulum",
        "--method",
        method,
        "--t-end",
        "0.05",
        "--samples",
        "5",
        "--out",
        d.to_str().unwrap(),
        "--plot",
        "--coords",
        "link1.x,link2.wz",
        "-q",
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o).1);
    assert_outputs(&d, true);

    let c = tmp("compare-out");
    let o = mbs(&[
        "compare",
        "five-bar",
        "--methods",
        &format!("{method},{method}:every=0"),
        "--t-end",
        "0.05",
        "--samples",
        "5",
        "--out",
        c.to_str().unwrap(),
        "-q",
    ]);
    let (out, err) = text(&o);
    assert_eq!(code(&o), 0, "{out}\n{err}");
    let subdirs = std::fs::read_dir(&c)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().is_dir())
        .count();
    assert_eq!(subdirs, 2, "{out}");
    assert!(c.join("manifest.json").exists());
}

/// `--coords` takes any output column (trajectory.csv, joints.csv, multipliers), in
/// `run --plot`, `run --animate` and `compare --plot`; a misspelt name is refused
/// before the run with the close names.
#[test]
fn joint_columns_are_plotted_and_misspelt_ones_get_close_matches() {
    let d = tmp("joint-coords");
    let o = mbs(&[
        "run",
        "double-pendulum",
        "--coords",
        "joint1.forcex",
        "--out",
        d.to_str().unwrap(),
        "-q",
    ]);
    let (_, err) = text(&o);
    assert_eq!(code(&o), 2, "{err}");
    assert!(
        err.contains("joint1.forcex") && err.contains("joint1.force_x"),
        "{err}"
    );
    assert!(!d.join("trajectory.csv").exists(), "the run went ahead");

    let o = mbs(&[
        "run",
        "double-pendulum",
        "--t-end",
        "0.05",
        "--samples",
        "5",
        "--out",
        d.to_str().unwrap(),
        "--plot",
        "--animate",
        "--coords",
        "joint1.force_x,joint2.angle [rad],joint1.point_y,total_energy",
        "-q",
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o).1);
    assert_outputs(&d, true);
    let svg = std::fs::read_to_string(d.join("coordinates.svg")).unwrap();
    assert!(
        svg.contains("joint1.force_x [N]") && svg.contains("joint1.point_y [N]"),
        "legend of the chosen columns"
    );
    let page = std::fs::read_to_string(d.join("animation.html")).unwrap();
    assert!(page.contains("joint2.angle [rad]"), "animation panel");

    let c = tmp("compare-joint-coords");
    let o = mbs(&[
        "compare",
        "double-pendulum",
        "--methods",
        "alf-index1,lagrange-baumgarte",
        "--t-end",
        "0.05",
        "--samples",
        "5",
        "--out",
        c.to_str().unwrap(),
        "--plot",
        "--coords",
        "joint2.force_y",
        "-q",
    ]);
    let (out, err) = text(&o);
    assert_eq!(code(&o), 0, "{out}\n{err}");
    for f in [
        "compare_joint2_force_y.png",
        "compare_joint2_force_y_difference.svg",
    ] {
        assert!(c.join(f).is_file(), "{f} missing: {out}");
    }
}

#[test]
fn list_sections_show_every_parameter_with_its_default() {
    let o = mbs(&["list", "--methods"]);
    let (out, err) = text(&o);
    assert_eq!(code(&o), 0, "{err}");
    assert!(
        !out.contains("five-bar"),
        "mechanisms listed under --methods:\n{out}"
    );
    // every registered parameter of every method appears with `key=default` or
    // `key (no default)` under its method
    for m in mbs::registry::methods() {
        let at = out
            .find(&format!("  {} ", m.name))
            .unwrap_or_else(|| panic!("method {} missing:\n{out}", m.name));
        for p in m.defaults.specs() {
            let shown = match &p.default {
                Some(d) => format!("{}={d}", p.key),
                None => format!("{} (no default)", p.key),
            };
            assert!(
                out[at..].contains(&shown) && out[at..].contains(p.meaning),
                "{}: `{shown}` missing",
                m.name
            );
        }
    }
    assert!(
        out.contains("redundancy_tol=1e-8"),
        "hdca's parameters:\n{out}"
    );
    let o = mbs(&["list", "--integrators"]);
    let (out, _) = text(&o);
    assert!(out.contains("rk45") && !out.contains("alf-index1"), "{out}");
}

#[test]
fn check_names_redundant_joints_and_fails_on_an_inconsistent_state() {
    let o = mbs(&["check", "five-bar"]);
    let (out, _) = text(&o);
    assert!(
        out.contains("redundant equations  3: dependent on earlier rows: joint `"),
        "{out}"
    );
    // the example four-bar with its first link moved 0.1 m off its joint
    let file = std::fs::read_to_string(EXAMPLE).unwrap();
    let moved = file.replacen(
        "position = [0.0, 0.5, 0.0]",
        "position = [0.0, 0.6, 0.0]",
        1,
    );
    assert_ne!(moved, file, "the example's first body moved");
    let path = tmp("inconsistent").join("four-bar-moved.toml");
    std::fs::write(&path, moved).unwrap();
    let o = mbs(&["check", path.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert_eq!(code(&o), 1, "{out}{err}");
    assert!(out.contains("INCONSISTENT"), "{out}");
    // the crank's two joints are open by 0.1 m, the others hold
    for joint in ["A", "B"] {
        assert!(
            out.contains(&format!(
                "violated by joint `{joint}` (revolute): ‖Φ‖₂ = 1.000e-1"
            )),
            "{out}"
        );
    }
    assert!(!out.contains("violated by joint `C`"), "{out}");
    // `run` reports the same ‖Φ‖₂ before assembling as `check`
    let phi = out
        .split("‖Φ‖₂ = ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .unwrap()
        .to_string();
    let d = tmp("inconsistent-run");
    let o = mbs(&[
        "run",
        path.to_str().unwrap(),
        "--t-end",
        "0.01",
        "--out",
        d.to_str().unwrap(),
        "-q",
    ]);
    let (out, err) = text(&o);
    assert_eq!(code(&o), 0, "{err}");
    assert!(
        out.contains(&format!("‖Φ‖₂ {phi} →")),
        "check said {phi}:\n{out}"
    );
}

#[test]
fn coordinates_are_checked_before_the_run_and_the_summary_is_a_closed_table() {
    let d = tmp("coords-early");
    let o = mbs(&[
        "run",
        "five-bar",
        "--coords",
        "body9.x",
        "--out",
        d.to_str().unwrap(),
        "-q",
    ]);
    let (_, err) = text(&o);
    assert_eq!(code(&o), 2, "{err}");
    assert!(!d.join("trajectory.csv").exists(), "the run went ahead");

    let o = mbs(&[
        "run",
        "five-bar",
        "--t-end",
        "0.1",
        "--out",
        d.to_str().unwrap(),
        "-q",
    ]);
    let (out, err) = text(&o);
    assert_eq!(code(&o), 0, "{err}");
    let columns = |l: &str| {
        l.chars()
            .filter(|c| !matches!(*c as u32, 0x300..=0x36F))
            .count()
    };
    let table: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with('┌'))
        .take_while(|l| !l.starts_with("files"))
        .filter(|l| l.starts_with(['┌', '│', '└']))
        .collect();
    assert!(table.len() > 10, "{out}");
    let w = columns(table[0]);
    for l in &table {
        assert_eq!(columns(l), w, "ragged row `{l}` in\n{out}");
        assert!(l.ends_with(['┐', '│', '┘']), "open row `{l}`");
    }
    assert!(out.contains("max ‖Φ̇‖"), "{out}");
}

// --- careless or hostile input: every size bounded, every message naming the field ---

/// Exit code and stderr of `mbs args`.
fn refused(args: &[&str]) -> (i32, String) {
    let o = mbs(args);
    (code(&o), text(&o).1)
}

#[test]
fn sizes_beyond_memory_or_the_step_limit_are_refused_before_allocating() {
    let d = tmp("bounds");
    let out = d.to_str().unwrap();
    let (c, e) = refused(&[
        "run",
        "five-bar",
        "--samples",
        "1000000000",
        "-q",
        "-o",
        out,
    ]);
    assert!(
        c == 2 && e.contains("`samples`") && e.contains("1000000000"),
        "{c}: {e}"
    );
    assert!(e.contains("GB") && e.contains("samples fit"), "{e}");
    let (c, e) = refused(&["check", "chain:n=1000000000"]);
    assert!(
        c == 2 && e.contains("`n`") && e.contains("at most"),
        "{c}: {e}"
    );
    let (c, e) = refused(&["check", "ladder:n=1000000000:length=0.2"]);
    assert!(
        c == 2 && e.contains("`n`") && e.contains("at most"),
        "{c}: {e}"
    );
    let args = [
        "run",
        "five-bar",
        "-i",
        "trapezoidal",
        "--h",
        "1e-9",
        "--t-end",
        "10",
    ];
    let (c, e) = refused(&[&args[..], &["-q", "-o", out]].concat());
    assert!(
        c == 2 && e.contains("`h`") && e.contains("1.00e10 steps"),
        "{c}: {e}"
    );
}

#[test]
fn non_regular_and_oversized_model_files_are_refused_before_reading() {
    let d = tmp("files");
    let zero = d.join("zero.json");
    let _ = std::fs::remove_file(&zero);
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let (c, e) = refused(&["check", zero.to_str().unwrap()]);
    assert!(c == 2 && e.contains("not a regular file"), "{c}: {e}");
    // a sparse file one byte over the limit: nothing is read
    let big = d.join("big.toml");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(mbs::model::MAX_FILE_BYTES + 1)
        .unwrap();
    let (c, e) = refused(&["check", big.to_str().unwrap()]);
    assert!(
        c == 2 && e.contains("1073741825 bytes") && e.contains("1 GiB"),
        "{c}: {e}"
    );
    std::fs::remove_file(&big).unwrap();
}

#[test]
fn empty_models_are_refused_alike_by_check_and_run() {
    let d = tmp("empty");
    let empty = d.join("empty.toml");
    std::fs::write(&empty, "").unwrap();
    let named = d.join("named.json");
    std::fs::write(&named, r#"{"name": "nothing", "gravity": [0, -9.81, 0]}"#).unwrap();
    for f in [&empty, &named] {
        let f = f.to_str().unwrap();
        let (c, check) = refused(&["check", f]);
        assert!(
            c == 2 && check.contains("`bodies`: none given"),
            "{c}: {check}"
        );
        let (c, run) = refused(&["run", f, "-q", "-o", d.to_str().unwrap()]);
        assert!(c == 2 && run == check, "{c}: {run}");
    }
}

#[test]
fn non_finite_generator_parameters_in_files_are_named() {
    let d = tmp("gen-nan");
    let f = d.join("chain.toml");
    std::fs::write(
        &f,
        "generator = \"chain\"\n[parameters]\nn = 3\nlength = nan\n",
    )
    .unwrap();
    let (c, e) = refused(&["check", f.to_str().unwrap()]);
    assert!(
        c == 2 && e.contains("`length`") && e.contains("NaN and infinities are not allowed"),
        "{c}: {e}"
    );
}

#[test]
fn generator_and_method_parameters_take_both_separators() {
    let a = mbs(&["check", "chain:n=3:length=0.2", "--json"]);
    let b = mbs(&["check", "chain:n=3,length=0.2", "--json"]);
    assert_eq!(code(&a), 0, "{}", text(&a).1);
    assert_eq!(a.stdout, b.stdout);
    let (c, e) = refused(&["check", "chain:n=3:length"]);
    assert!(c == 2 && e.contains("chain:n=8,length=0.2"), "{c}: {e}");
    let (c, e) = refused(&["run", "five-bar", "-m", "alf:kappa=1:kappa=2", "-q"]);
    assert!(
        c == 2 && e.contains("kappa=1") && e.contains("twice"),
        "{c}: {e}"
    );
    let (c, e) = refused(&["run", "five-bar", "-m", "alf:alpha=1,kappa=1e4", "-q"]);
    assert!(
        c == 2 && e.contains("alpha=1") && e.contains("conflicts"),
        "{c}: {e}"
    );
}

#[test]
fn tiny_end_times_print_in_exponent_form() {
    let d = tmp("tiny");
    let o = mbs(&[
        "run",
        "double-pendulum",
        "--t-end",
        "1e-300",
        "--samples",
        "2",
        "-q",
        "-o",
        d.to_str().unwrap(),
    ]);
    let (out, err) = text(&o);
    assert!(
        !out.contains("0.000000000000") && !err.contains("0.000000000000"),
        "{out}{err}"
    );
    assert!(
        out.contains("1e-300") || err.contains("1e-300"),
        "{out}{err}"
    );
}

#[test]
fn an_unstable_explicit_scheme_is_reported_as_divergence_not_a_singular_configuration() {
    let d = tmp("unstable");
    let o = mbs(&[
        "run",
        "andrews-squeezer-stiff-spring",
        "--method",
        "lagrange-baumgarte",
        "--integrator",
        "central-difference",
        "--h",
        "1e-3",
        "-q",
        "-o",
        d.to_str().unwrap(),
    ]);
    let (_, err) = text(&o);
    assert_eq!(code(&o), 1, "{err}");
    assert!(
        err.contains("diverged") && err.contains("reduce h"),
        "{err}"
    );
    assert!(!err.contains("singular configuration:"), "{err}");
}

#[test]
fn natural_partitioning_names_a_joint_given_twice_at_the_start() {
    let d = tmp("dup-joint");
    let f = d.join("twice.toml");
    std::fs::write(
        &f,
        r#"
name = "pendulum"
gravity = [0.0, -9.81, 0.0]
[[bodies]]
name = "link"
mass = 1.0
inertia = [0.01, 0.09, 0.09]
position = [0.5, 0.0, 0.0]
[[markers]]
name = "pivot.ground"
body = "ground"
[[markers]]
name = "pivot.link"
body = "link"
position = [-0.5, 0.0, 0.0]
[[joints]]
type = "revolute"
name = "pivot"
marker_i = "pivot.ground"
marker_j = "pivot.link"
[[joints]]
type = "revolute"
name = "pivot-again"
marker_i = "pivot.ground"
marker_j = "pivot.link"
"#,
    )
    .unwrap();
    let (c, e) = refused(&[
        "run",
        f.to_str().unwrap(),
        "--method",
        "natural-partitioning",
        "-q",
        "-o",
        d.join("out").to_str().unwrap(),
    ]);
    assert!(
        c == 2 && e.contains("pivot-again") && e.contains("t = 0"),
        "{c}: {e}"
    );
}
