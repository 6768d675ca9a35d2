//! The peers' side: a virtual environment under `target/peers-venv` with the pinned
//! wheels of `xtask/peers/requirements.txt`, and the project's scripts
//! `xtask/peers/<engine>_peer.py` run on a case file.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;

/// The engines, as named by their scripts (`<engine>_peer.py`) and in the table.
pub const ENGINES: [(&str, &str); 3] = [
    ("pinocchio", "Pinocchio"),
    ("mujoco", "MuJoCo"),
    ("exudyn", "Exudyn"),
];

/// One timed configuration of a peer on one case (the script's JSON).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct PeerRun {
    pub variant: String,
    pub status: String,
    #[serde(default)]
    pub reason: Option<String>,
    #[serde(default)]
    pub median_s: Option<f64>,
    #[serde(default)]
    pub min_s: Option<f64>,
    #[serde(default)]
    pub max_s: Option<f64>,
    #[serde(default)]
    pub cpu_median_s: Option<f64>,
    #[serde(default)]
    pub repeats: Option<usize>,
    #[serde(default)]
    pub energy_error: Option<f64>,
    #[serde(default)]
    pub max_violation: Option<f64>,
    #[serde(default)]
    pub positions: Option<Vec<Vec<f64>>>,
    #[serde(default)]
    pub load_before: Option<f64>,
    #[serde(default)]
    pub stats: serde_json::Value,
    /// Time per call of the engine's dynamics function (a `per_call` variant only).
    #[serde(default)]
    pub per_call: Option<PerCall>,
}

/// Time of one call of a peer's dynamics function (Pinocchio's `constraintDynamics`)
/// at states along its own trajectory, from Python: median over timed batches.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct PerCall {
    /// Median time per call of a batch \[µs\], the Python loop and call included.
    pub raw_us: f64,
    /// Median time per call of the same loop calling an empty Python function with
    /// the same arguments \[µs\].
    pub overhead_us: f64,
    /// `raw_us - overhead_us` \[µs\].
    pub corrected_us: f64,
    /// Fastest and slowest batch, raw \[µs per call\].
    #[serde(default)]
    pub min_us: f64,
    #[serde(default)]
    pub max_us: f64,
    #[serde(default)]
    pub batches: usize,
    #[serde(default)]
    pub calls_per_batch: usize,
    /// Distinct states the calls cycle through.
    #[serde(default)]
    pub states: usize,
    /// Force elements of the model left out (their values do not change the cost).
    #[serde(default)]
    pub ignored: Vec<String>,
}

/// What a script reported for one case.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct PeerResult {
    #[serde(default)]
    pub version: String,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub runs: Vec<PeerRun>,
}

/// The repository root (the parent of `xtask/`).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target"))
}

/// The environment's Python, creating the environment and installing the pinned
/// requirements if it is missing or its requirements changed. The error says why
/// (with the end of pip's log).
pub fn ensure_venv() -> Result<PathBuf, String> {
    let venv = target_dir().join("peers-venv");
    let python = venv.join("bin").join("python");
    let req_path = repo_root()
        .join("xtask")
        .join("peers")
        .join("requirements.txt");
    let req =
        std::fs::read_to_string(&req_path).map_err(|e| format!("{}: {e}", req_path.display()))?;
    let stamp = venv.join("mbs-requirements.txt");
    if python.is_file() && std::fs::read_to_string(&stamp).ok().as_deref() == Some(req.as_str()) {
        return Ok(python);
    }
    let log = target_dir().join("peers").join("pip.log");
    if let Some(d) = log.parent() {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    eprintln!(
        "  creating {} and installing {}",
        venv.display(),
        req_path.display()
    );
    let python3 = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    run_logged(Command::new(&python3).args(["-m", "venv"]).arg(&venv), &log)
        .map_err(|e| format!("`{python3} -m venv` failed: {e}"))?;
    run_logged(
        Command::new(&python)
            .args(["-m", "pip", "install", "--disable-pip-version-check", "-r"])
            .arg(&req_path),
        &log,
    )
    .map_err(|e| format!("pip install failed: {e}"))?;
    std::fs::write(&stamp, req).map_err(|e| format!("{}: {e}", stamp.display()))?;
    Ok(python)
}

/// Runs `cmd` with its output appended to `log`; the error ends with the log's tail.
fn run_logged(cmd: &mut Command, log: &Path) -> Result<(), String> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .map_err(|e| format!("{}: {e}", log.display()))?;
    let err = file.try_clone().map_err(|e| e.to_string())?;
    let status = cmd
        .stdout(Stdio::from(file))
        .stderr(Stdio::from(err))
        .status()
        .map_err(|e| e.to_string())?;
    if status.success() {
        Ok(())
    } else {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(3).collect();
        Err(format!(
            "{status}; {} (log: {})",
            tail.into_iter().rev().collect::<Vec<_>>().join(" / "),
            log.display()
        ))
    }
}

/// Runs `engine`'s script on `case_file`, writing `out_file`, within `timeout`.
pub fn run_script(
    python: &Path,
    engine: &str,
    case_file: &Path,
    out_file: &Path,
    timeout: Duration,
) -> Result<PeerResult, String> {
    let script = repo_root()
        .join("xtask")
        .join("peers")
        .join(format!("{engine}_peer.py"));
    // the script runs in its own directory: give it absolute paths
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let (case_file, out_file) = (abs(case_file), abs(out_file));
    let _ = std::fs::remove_file(&out_file);
    let mut child = Command::new(python)
        .arg(&script)
        .arg(&case_file)
        .arg(&out_file)
        .current_dir(script.parent().unwrap_or(Path::new(".")))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", python.display()))?;
    // the script's progress lines go to our stderr as they come
    let stderr = child.stderr.take();
    let echo = std::thread::spawn(move || {
        use std::io::BufRead;
        let mut last = Vec::new();
        if let Some(s) = stderr {
            for line in std::io::BufReader::new(s).lines().map_while(Result::ok) {
                eprintln!("  {line}");
                last.push(line);
                if last.len() > 4 {
                    last.remove(0);
                }
            }
        }
        last.join(" / ")
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(s) => break s,
            None if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("timed out after {} s", timeout.as_secs()));
            }
            None => std::thread::sleep(Duration::from_millis(200)),
        }
    };
    let tail = echo.join().unwrap_or_default();
    if !status.success() {
        return Err(format!("{}: {tail}", exit_reason(&status)));
    }
    let text =
        std::fs::read_to_string(&out_file).map_err(|e| format!("{}: {e}", out_file.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", out_file.display()))
}

/// The exit status in words: a SIGKILL we did not send (our time limit returns
/// before this) comes from the kernel's out-of-memory killer.
fn exit_reason(status: &std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if status.signal() == Some(9) {
            return format!(
                "{status}: killed by the kernel, most likely out of memory (see `dmesg`)"
            );
        }
    }
    status.to_string()
}
