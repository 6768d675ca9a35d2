//! Running the real `mbs` binary with a time limit, and the output-directory check.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Longest a single `mbs` process may run before it counts as a hang and is killed.
pub const CASE_TIMEOUT: Duration = Duration::from_secs(20);

/// How one `mbs` process ended.
#[derive(Debug)]
pub struct Run {
    /// Exit code; `None` when a signal ended it (or it was killed as a hang).
    pub code: Option<i32>,
    /// The signal that ended it, if any.
    pub signal: Option<i32>,
    /// Killed after [`CASE_TIMEOUT`].
    pub timed_out: bool,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// One line for assertion messages: how it ended and what it printed on stderr.
    pub fn describe(&self) -> String {
        format!(
            "exit code {:?}, signal {:?}, timed out {}\nstderr: {}\nstdout: {}",
            self.code,
            self.signal,
            self.timed_out,
            self.stderr.trim(),
            tail(&self.stdout, 600)
        )
    }

    /// A Rust panic (101), an abort or any other signal, or a hang: never acceptable.
    pub fn crashed(&self) -> bool {
        self.timed_out || self.signal.is_some() || matches!(self.code, Some(101) | Some(134))
    }
}

fn tail(s: &str, n: usize) -> &str {
    let start = s.len().saturating_sub(n);
    let start = (start..=s.len())
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(s.len());
    &s[start..]
}

/// A fresh, empty scratch directory for one test (removed first if a former run left it).
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mbs-adv-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).expect("create scratch directory");
    d
}

/// `mbs ARGS` started in the crate directory, its output going to files in `logs`.
pub fn spawn(args: &[&str], logs: &Path) -> Child {
    fs::create_dir_all(logs).expect("log directory");
    let out = fs::File::create(logs.join("stdout")).expect("stdout file");
    let err = fs::File::create(logs.join("stderr")).expect("stderr file");
    Command::new(env!("CARGO_BIN_EXE_mbs"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .expect("spawn mbs")
}

/// Waits for `child` at most `limit`, killing it after that.
pub fn finish(mut child: Child, logs: &Path, limit: Duration) -> Run {
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait for mbs") {
            break s;
        }
        if start.elapsed() > limit {
            timed_out = true;
            let _ = child.kill();
            break child.wait().expect("wait for killed mbs");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    use std::os::unix::process::ExitStatusExt;
    Run {
        code: status.code(),
        signal: status.signal(),
        timed_out,
        stdout: fs::read_to_string(logs.join("stdout")).unwrap_or_default(),
        stderr: String::from_utf8_lossy(&fs::read(logs.join("stderr")).unwrap_or_default())
            .into_owned(),
    }
}

/// `mbs ARGS` to its end (or killed after [`CASE_TIMEOUT`]); logs go to `logs`.
pub fn mbs_in(args: &[&str], logs: &Path) -> Run {
    finish(spawn(args, logs), logs, CASE_TIMEOUT)
}

/// `mbs ARGS` with logs in a scratch directory of its own.
pub fn mbs(args: &[&str]) -> Run {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let logs = std::env::temp_dir().join(format!(
        "mbs-adv-{}-logs-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let run = mbs_in(args, &logs);
    let _ = fs::remove_dir_all(&logs);
    run
}

/// Asserts that `dir` is absent, or a whole output directory of `mbs run`: its
/// `manifest.json` parses, has a top-level `status` of `complete`, `interrupted` or
/// `failed` (`failed` with a `reason`; each with a numeric `t_reached`), lists exactly
/// the files present (none extra, none missing; the manifest itself need not list
/// itself), every CSV has a header and rows of its width, every JSON file parses.
pub fn assert_output_dir_whole(dir: &Path) {
    if !dir.exists() {
        return;
    }
    let manifest_path = dir.join("manifest.json");
    let text = fs::read_to_string(&manifest_path)
        .unwrap_or_else(|e| panic!("{}: no readable manifest.json ({e})", dir.display()));
    let m: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{}: manifest.json does not parse: {e}", dir.display()));
    let status = m["status"]
        .as_str()
        .unwrap_or_else(|| panic!("{}: manifest.json has no string `status`", dir.display()));
    assert!(
        matches!(status, "complete" | "interrupted" | "failed"),
        "{}: status `{status}`",
        dir.display()
    );
    assert!(
        m["t_reached"].as_f64().is_some(),
        "{}: manifest.json has no numeric `t_reached`",
        dir.display()
    );
    if status == "failed" {
        assert!(
            m["reason"].as_str().is_some_and(|r| !r.is_empty()),
            "{}: status `failed` without a `reason`",
            dir.display()
        );
    }
    let mut listed: Vec<String> = m["files"]
        .as_array()
        .unwrap_or_else(|| panic!("{}: manifest.json has no `files` array", dir.display()))
        .iter()
        .map(|f| {
            f["file"]
                .as_str()
                .expect("manifest entry without `file`")
                .to_string()
        })
        .filter(|f| f != "manifest.json")
        .collect();
    listed.sort();
    let mut present: Vec<String> = files_under(dir, dir)
        .into_iter()
        .filter(|f| f != "manifest.json")
        .collect();
    present.sort();
    assert_eq!(
        listed,
        present,
        "{}: files listed in manifest.json (left) differ from the files present (right)",
        dir.display()
    );
    for f in &present {
        let path = dir.join(f);
        if f.ends_with(".csv") {
            assert_csv_rectangular(&path);
        } else if f.ends_with(".json") {
            let t = fs::read_to_string(&path).expect("read JSON output");
            serde_json::from_str::<serde_json::Value>(&t)
                .unwrap_or_else(|e| panic!("{}: does not parse: {e}", path.display()));
        }
    }
}

/// The files under `dir`, as paths relative to `root` with `/` separators.
fn files_under(root: &Path, dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).expect("read output directory").flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files_under(root, &p));
        } else {
            let rel = p.strip_prefix(root).expect("under root");
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    out
}

/// A CSV file with a header and every record as wide as the header, ending in a
/// newline (a half-written last row has none).
fn assert_csv_rectangular(path: &Path) {
    let text = fs::read_to_string(path).expect("read CSV output");
    assert!(
        text.ends_with('\n'),
        "{}: empty or last row not terminated (half-written)",
        path.display()
    );
    // `flexible` so that a record of another width is reported here, not by the reader.
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(text.as_bytes());
    let width = reader.headers().expect("CSV header").len();
    assert!(width > 0, "{}: empty header", path.display());
    for (k, rec) in reader.records().enumerate() {
        let rec = rec.unwrap_or_else(|e| panic!("{}: row {}: {e}", path.display(), k + 1));
        assert_eq!(
            rec.len(),
            width,
            "{}: row {} has another width than the header",
            path.display(),
            k + 1
        );
    }
}
