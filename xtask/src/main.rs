//! `cargo xtask`: project automation (benchmark suites and reports).
//!
//! `cargo xtask bench [--suite NAME[,NAME…]]… [--quick] [--out DIR]` runs the paper
//! reproductions and method comparisons in-process through the `mbs` facade and writes
//! `target/bench-report/REPORT.md`, `results.json` and `plots/*.{png,svg}`.

/// Test fixtures of mbs-alf that the paper suites need, shared with its tests (not
/// part of the library's API).
#[allow(dead_code)] // each user takes part of them
#[path = "../../crates/alf/tests/common/analytic.rs"]
mod analytic;
/// Chiou's bowling ball in the thesis' geometric-centre form, mbs-alf's test fixture.
#[allow(dead_code)]
#[path = "../../crates/alf/tests/common/bowling_ball.rs"]
mod bowling_ball;
mod findings;
mod report;
mod runner;
mod suites;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use report::{Machine, Report, Suite};
use runner::Ctx;

const HELP: &str = "\
cargo xtask <COMMAND>

Commands:
  bench [--suite dca|hdca|alf|chiou|complement|scaling|consistency|guide|conformance|sweep|stiff|peers|stiff-peers]… [--quick] [--out DIR]
        run the paper reproductions and method comparisons; write
        target/bench-report/REPORT.md, results.json and plots/ (PNG and SVG).
        --suite may be repeated or comma-separated (default: every suite but
        peers); --quick shortens end times and sweeps (CI; a few minutes on 2 cores).
        --suite peers compares with Pinocchio, MuJoCo and Exudyn (installed into
        target/peers-venv from PyPI on first use; MBS_PEERS_CASES=five-bar,chain-16
        restricts the cases, MBS_PEERS_BUDGET=<s> sets the repeat budget (120),
        MBS_PEERS_RUN_LIMIT=<s> skips a peer configuration whose run is predicted
        longer from the smaller cases (600)).
        --suite stiff-peers runs SciPy's Radau/BDF and Exudyn's generalized-α on
        the stiff suite's mechanisms beside mbs (same environment).
  help  print this message
";

fn main() -> ExitCode {
    // `cargo xtask bench -- --quick` passes a literal `--`: skip it.
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--").collect();
    match args.first().map(String::as_str) {
        None | Some("help" | "--help" | "-h") => {
            print!("{HELP}");
            ExitCode::SUCCESS
        }
        Some("bench") => match parse_bench(&args[1..]) {
            Ok(opts) => bench(opts),
            Err(e) => {
                eprintln!("error: {e}\n\n{HELP}");
                ExitCode::from(2)
            }
        },
        Some(other) => {
            eprintln!("unknown command `{other}`\n\n{HELP}");
            ExitCode::from(2)
        }
    }
}

struct BenchOpts {
    suites: Vec<String>,
    quick: bool,
    out: PathBuf,
}

fn default_out() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join("target")
        });
    target.join("bench-report")
}

fn parse_bench(args: &[String]) -> Result<BenchOpts, String> {
    let names: Vec<&str> = suites::ALL
        .iter()
        .chain(&suites::OPTIONAL)
        .map(|(n, _)| *n)
        .collect();
    let mut opts = BenchOpts {
        suites: Vec::new(),
        quick: false,
        out: default_out(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        match flag {
            "--quick" => opts.quick = true,
            "--suite" | "-s" => {
                let v = inline
                    .or_else(|| it.next().cloned())
                    .ok_or("--suite needs a name")?;
                for n in v.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    if !names.contains(&n) {
                        return Err(format!("unknown suite `{n}`; suites: {}", names.join(", ")));
                    }
                    opts.suites.push(n.to_string());
                }
            }
            "--out" | "-o" => {
                opts.out = PathBuf::from(
                    inline
                        .or_else(|| it.next().cloned())
                        .ok_or("--out needs a directory")?,
                )
            }
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    if opts.suites.is_empty() {
        opts.suites = suites::ALL.iter().map(|(n, _)| n.to_string()).collect();
    }
    Ok(opts)
}

fn bench(opts: BenchOpts) -> ExitCode {
    let start = Instant::now();
    let mut ctx = Ctx::new(opts.quick, opts.out.clone());
    let mut out = Vec::new();
    for (name, run) in suites::ALL.iter().chain(&suites::OPTIONAL) {
        if opts.suites.iter().any(|s| s == name) {
            eprintln!("suite `{name}`{}", if opts.quick { " (quick)" } else { "" });
            let t = Instant::now();
            let load0 = report::load_averages();
            let mut s = run(&mut ctx);
            s.wall_time_s = t.elapsed().as_secs_f64();
            s.load_average = load0.zip(report::load_averages()).map(|(a, b)| [a, b]);
            for f in ctx.failures.drain(..) {
                s.notes.push(format!("Failed run — {f}"));
            }
            eprintln!("suite `{name}`: {:?} in {:.1} s", s.status, s.wall_time_s);
            out.push(s);
        } else {
            let mut s = Suite::new(name, "not run in this invocation");
            s.status = report::Status::NotMeasured(format!(
                "not selected in this invocation (`cargo xtask bench --suite {name}` runs it)"
            ));
            s.title = "not run in this invocation".into();
            out.push(s);
        }
    }
    let mut command = String::from("cargo xtask bench");
    if opts.quick {
        command.push_str(" --quick");
    }
    let defaults: Vec<&str> = suites::ALL.iter().map(|(n, _)| *n).collect();
    if opts.suites != defaults {
        command.push_str(&format!(" --suite {}", opts.suites.join(",")));
    }
    let report = Report {
        quick: opts.quick,
        machine: Machine::detect(),
        command,
        wall_time_s: start.elapsed().as_secs_f64(),
        sampling: ctx.sampling_share(),
        suites: out,
    };
    match report.write(&opts.out) {
        Ok((md, js)) => {
            let abs = |p: PathBuf| std::fs::canonicalize(&p).unwrap_or(p);
            println!("report: {}", abs(md).display());
            println!("data:   {}", abs(js).display());
            println!("plots:  {}", abs(opts.out.clone()).join("plots").display());
            if ctx.errors.is_empty() {
                ExitCode::SUCCESS
            } else {
                eprintln!("{} run(s) could not be set up:", ctx.errors.len());
                for e in &ctx.errors {
                    eprintln!("  {e}");
                }
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("error: cannot write the report: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn bench_options() {
        let o = parse_bench(&args("--quick --suite alf,dca --suite=scaling")).unwrap();
        assert!(o.quick);
        assert_eq!(o.suites, ["alf", "dca", "scaling"]);
        let o = parse_bench(&[]).unwrap();
        assert_eq!(o.suites.len(), suites::ALL.len());
        assert!(o.out.ends_with("bench-report"));
        assert!(!o.suites.iter().any(|s| s == "peers"));
        let o = parse_bench(&args("--suite peers")).unwrap();
        assert_eq!(o.suites, ["peers"]);
        let e = parse_bench(&args("--suite nope")).err().unwrap();
        assert!(
            e.contains("nope") && e.contains("consistency") && e.contains("peers"),
            "{e}"
        );
        assert!(parse_bench(&args("--fast")).is_err());
    }

    #[test]
    fn drift_and_slope() {
        let lin: Vec<f64> = (0..100).map(|k| k as f64).collect();
        let quad: Vec<f64> = (0..100).map(|k| (k * k) as f64).collect();
        let flat: Vec<f64> = (0..100).map(|k| (k as f64).sin()).collect();
        assert_eq!(runner::drift_type(&lin, 1e-12), "linear");
        assert_eq!(runner::drift_type(&quad, 1e-12), "quadratic");
        assert_eq!(runner::drift_type(&flat, 1e-12), "none (bounded)");
        let x = [1.0, 10.0, 100.0];
        let y = [2.0, 200.0, 20000.0];
        assert!((runner::loglog_slope(&x, &y) - 2.0).abs() < 1e-12);
    }

    /// A quick-mode report of one suite.
    fn quick_report(s: Suite) -> Report {
        Report {
            quick: true,
            machine: Machine::detect(),
            command: "cargo xtask bench --quick".into(),
            wall_time_s: 0.0,
            sampling: None,
            suites: vec![s],
        }
    }

    #[test]
    fn a_suite_not_measured_says_why_and_not_that_methods_are_missing() {
        let mut s = Suite::new("sweep", "x");
        s.status = report::Status::NotMeasured(
            "the Python environment is not installed; `bash scripts/setup/python.sh` installs it"
                .into(),
        );
        let r = quick_report(s);
        let md = r.markdown();
        assert!(
            md.contains("| [`sweep`](#suite-sweep) | not measured: the Python environment is not installed; `bash scripts/setup/python.sh` installs it |")
                && md.contains("**Status: not measured** — the Python environment")
                && !md.contains("not available in this build"),
            "{md}"
        );
    }

    #[test]
    fn report_lists_every_suite_even_when_not_implemented() {
        let mut s = Suite::new("hdca", "x");
        let mut t = report::Table::new("t", "T", &["a", "b"]);
        t.row(vec!["m".into(), report::NOT_IMPLEMENTED.into()]);
        s.tables.push(t);
        s.settle_status();
        assert_eq!(s.status, report::Status::NotImplemented);
        let r = quick_report(s);
        let md = r.markdown();
        assert!(
            md.contains("| [`hdca`](#suite-hdca) | not available |"),
            "{md}"
        );
        assert!(
            md.contains("CPUs (nproc)")
                && md.contains("build profile")
                && md.contains("rayon threads")
        );
    }
}
