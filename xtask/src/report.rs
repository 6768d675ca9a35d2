//! The benchmark report: tables (with the papers' figures beside ours), plots, notes;
//! written as `REPORT.md` and `results.json`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::findings::{self, Finding};

/// Cell text of a run whose method is not available in this build.
pub const NOT_IMPLEMENTED: &str = "not available";

/// One table.
#[derive(Clone, Debug, Serialize)]
pub struct Table {
    /// Short id (also the key in results.json).
    pub id: String,
    /// Title (with the paper's table/figure number).
    pub title: String,
    /// Column headers.
    pub columns: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
    /// Notes printed under the table.
    pub notes: Vec<String>,
}

impl Table {
    pub fn new(id: &str, title: &str, columns: &[&str]) -> Self {
        Self {
            id: id.into(),
            title: title.into(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    pub fn note(&mut self, n: impl Into<String>) {
        self.notes.push(n.into());
    }

    fn markdown(&self, out: &mut String) {
        let _ = writeln!(out, "#### {}\n", self.title);
        let head: Vec<String> = self.columns.iter().map(|c| c.replace('|', "\\|")).collect();
        let _ = writeln!(out, "| {} |", head.join(" | "));
        let _ = writeln!(out, "|{}", "---|".repeat(self.columns.len()));
        for r in &self.rows {
            let cells: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        out.push('\n');
        for n in &self.notes {
            let _ = writeln!(out, "- {n}");
        }
        if !self.notes.is_empty() {
            out.push('\n');
        }
    }
}

/// A plot written as PNG and SVG.
#[derive(Clone, Debug, Serialize)]
pub struct Plot {
    pub title: String,
    pub png: String,
    pub svg: String,
}

/// Whether a suite ran.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every run of the suite had its front-end.
    Complete,
    /// Some runs had no front-end yet (their cells say "not implemented").
    Partial,
    /// No front-end of the suite exists yet.
    NotImplemented,
    /// Not measured in this run, for this reason, which names the command that makes
    /// it run (a suite not selected, the Python environment not installed, …).
    NotMeasured(String),
}

/// One suite of BENCHMARKS.md.
#[derive(Clone, Debug, Serialize)]
pub struct Suite {
    pub name: String,
    pub title: String,
    pub status: Status,
    pub wall_time_s: f64,
    pub tables: Vec<Table>,
    pub plots: Vec<Plot>,
    pub notes: Vec<String>,
    /// Machine-readable numbers of the suite (free form).
    pub data: serde_json::Value,
    /// Verdicts on the paper's items (tables, figures, claims).
    pub findings: Vec<Finding>,
    /// 1-, 5- and 15-minute load averages at the start and at the end of the suite.
    pub load_average: Option<[[f64; 3]; 2]>,
}

impl Suite {
    pub fn new(name: &str, title: &str) -> Self {
        Self {
            name: name.into(),
            title: title.into(),
            status: Status::Complete,
            wall_time_s: 0.0,
            tables: Vec::new(),
            plots: Vec::new(),
            notes: Vec::new(),
            data: serde_json::Value::Object(Default::default()),
            findings: Vec::new(),
            load_average: None,
        }
    }

    pub fn finding(&mut self, f: Finding) {
        self.findings.push(f);
    }

    /// Sets the status from the cells: every table cell "not implemented" → not
    /// implemented; some → partial.
    pub fn settle_status(&mut self) {
        let cells: Vec<&String> = self
            .tables
            .iter()
            .flat_map(|t| t.rows.iter().flatten())
            .collect();
        let ni = cells.iter().filter(|c| c.contains(NOT_IMPLEMENTED)).count();
        let rows = self.tables.iter().map(|t| t.rows.len()).sum::<usize>();
        let ni_rows = self
            .tables
            .iter()
            .flat_map(|t| t.rows.iter())
            .filter(|r| r.iter().any(|c| c.contains(NOT_IMPLEMENTED)))
            .count();
        self.status = if rows == 0 || ni_rows == rows {
            Status::NotImplemented
        } else if ni > 0 {
            Status::Partial
        } else {
            Status::Complete
        };
    }

    pub fn set(&mut self, key: &str, v: serde_json::Value) {
        if let serde_json::Value::Object(m) = &mut self.data {
            m.insert(key.into(), v);
        }
    }
}

/// The machine the report was made on.
#[derive(Clone, Debug, Serialize)]
pub struct Machine {
    pub nproc: usize,
    pub rayon_threads: usize,
    pub os: String,
    pub kernel: String,
    pub cpu: String,
    pub profile: String,
    pub date_utc: String,
    pub rustc: String,
}

impl Machine {
    pub fn detect() -> Self {
        let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
        let os = read("/etc/os-release")
            .lines()
            .find_map(|l| {
                l.strip_prefix("PRETTY_NAME=")
                    .map(|s| s.trim_matches('"').to_string())
            })
            .unwrap_or_else(|| std::env::consts::OS.to_string());
        let cpu = read("/proc/cpuinfo")
            .lines()
            .find_map(|l| {
                l.strip_prefix("model name")
                    .and_then(|s| s.split(':').nth(1))
                    .map(|s| s.trim().to_string())
            })
            .unwrap_or_else(|| std::env::consts::ARCH.to_string());
        let rustc =
            std::process::Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
                .arg("--version")
                .output()
                .ok()
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
                .unwrap_or_default();
        Self {
            nproc: std::thread::available_parallelism().map_or(1, |n| n.get()),
            rayon_threads: rayon::current_num_threads(),
            os,
            kernel: read("/proc/sys/kernel/osrelease").trim().to_string(),
            cpu,
            profile: if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            }
            .into(),
            date_utc: date_utc(),
            rustc,
        }
    }
}

/// Current UTC date and time, `YYYY-MM-DD HH:MM:SS UTC` (civil-from-days, H. Hinnant).
fn date_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The 1-, 5- and 15-minute load averages (Linux `/proc/loadavg`), if available.
pub fn load_averages() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut it = text.split_whitespace().map(|v| v.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub quick: bool,
    pub machine: Machine,
    pub command: String,
    pub wall_time_s: f64,
    /// Output sampling inside the timed integrations of the suites run.
    pub sampling: Option<crate::runner::SamplingShare>,
    pub suites: Vec<Suite>,
}

impl Report {
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let m = &self.machine;
        let _ = writeln!(s, "# mbs benchmark report\n");
        let _ = writeln!(
            s,
            "Generated by `{}` on {}{}.\n",
            self.command,
            m.date_utc,
            if self.quick {
                " in **quick mode** (shorter end times, fewer tolerances and sizes)"
            } else {
                ""
            }
        );
        let _ = writeln!(s, "| machine | |\n|---|---|");
        let _ = writeln!(s, "| CPUs (nproc) | {} |", m.nproc);
        let _ = writeln!(s, "| rayon threads | {} |", m.rayon_threads);
        let _ = writeln!(s, "| CPU | {} |", m.cpu);
        let _ = writeln!(s, "| OS | {} (kernel {}) |", m.os, m.kernel);
        let _ = writeln!(s, "| build profile | {} |", m.profile);
        let _ = writeln!(s, "| compiler | {} |", m.rustc);
        let _ = writeln!(s, "| total wall time | {:.1} s |\n", self.wall_time_s);
        let all: Vec<&Finding> = self.suites.iter().flat_map(|x| &x.findings).collect();
        findings::summary_markdown(&all, &mut s);
        let _ = writeln!(
            s,
            "Every run is measured by the facade the same way: energies and constraint norms \
             ‖Φ‖, ‖Φ̇‖, ‖Φ̈‖ (joint and driver rows; Euler-parameter normalization excluded) are \
             computed from the states each method reports. Paper figures are copied from the \
             publications listed in `docs/REFERENCES.md`; \"—\" means the paper gives no number (figures only). \
             Wall times are medians of repeated runs (at least 5 runs or 0.5 s per cell) with \
             the minimum and maximum beside them; the load average of the machine is given per suite.\n"
        );
        if let Some(x) = &self.sampling {
            let _ = writeln!(
                s,
                "Wall times are the integration alone: inside it an output sample is only collected \
                 (dense output and a copy), its derived quantities are computed afterwards. Output \
                 sampling took a median {:.2} % and at most {:.1} % ({}) of the {} timed integrations \
                 of this report (median over each run's repeats); {} of them at 5 % or more (aimed at: \
                 none). {} runs whose samples took {:.0} % or more of the integration (samples every \
                 millisecond of a cheap run, for the figures) are timed with {} output intervals: their \
                 steps do not depend on the output times. The complete cost of samples to a user is in \
                 the guide suite's sampling-cost table.\n",
                100.0 * x.median,
                100.0 * x.max,
                x.max_run,
                x.runs,
                x.above_5_percent,
                x.retimed,
                100.0 * crate::runner::DENSE_SAMPLING_SHARE,
                crate::runner::TIMING_INTERVALS
            );
        }
        let _ = writeln!(
            s,
            "## Suites\n\n| suite | status | wall time | load average (1, 5, 15 min) at start → end |\n|---|---|---|---|"
        );
        for su in &self.suites {
            let failed = su
                .tables
                .iter()
                .flat_map(|t| t.rows.iter().flatten())
                .filter(|c| c.starts_with("failed"))
                .count()
                .max(
                    su.notes
                        .iter()
                        .filter(|n| n.starts_with("Failed run"))
                        .count(),
                );
            let mut st = match &su.status {
                Status::Complete => "ran".to_string(),
                Status::Partial => "ran in part (some methods not available)".to_string(),
                Status::NotImplemented => NOT_IMPLEMENTED.to_string(),
                Status::NotMeasured(why) => format!("not measured: {why}"),
            };
            if failed > 0 {
                st.push_str(&format!(
                    "; {failed} failed run(s) or cell(s), see the suite's notes"
                ));
            }
            let load = su.load_average.map_or("—".into(), |[a, b]| {
                format!(
                    "{:.2}, {:.2}, {:.2} → {:.2}, {:.2}, {:.2}",
                    a[0], a[1], a[2], b[0], b[1], b[2]
                )
            });
            let _ = writeln!(
                s,
                "| [`{}`](#suite-{}) | {st} | {:.1} s | {load} |",
                su.name, su.name, su.wall_time_s
            );
        }
        s.push('\n');
        for su in &self.suites {
            let _ = writeln!(
                s,
                "<a id=\"suite-{}\"></a>\n## Suite `{}`: {}\n",
                su.name, su.name, su.title
            );
            match &su.status {
                Status::NotImplemented => {
                    let _ = writeln!(
                        s,
                        "**Status: {NOT_IMPLEMENTED}** — its methods are not available in this build.\n"
                    );
                }
                Status::NotMeasured(why) => {
                    let _ = writeln!(s, "**Status: not measured** — {why}.\n");
                }
                Status::Complete | Status::Partial => {}
            }
            for n in &su.notes {
                let _ = writeln!(s, "{n}\n");
            }
            findings::table_markdown(&su.findings, &mut s);
            for t in &su.tables {
                t.markdown(&mut s);
            }
            if !su.plots.is_empty() {
                let _ = writeln!(s, "Plots:\n");
                for p in &su.plots {
                    let _ = writeln!(s, "- {} — [PNG]({}) · [SVG]({})", p.title, p.png, p.svg);
                }
                s.push('\n');
                for p in &su.plots {
                    let _ = writeln!(s, "![{}]({})\n", p.title, p.png);
                }
            }
        }
        s
    }

    pub fn write(&self, dir: &Path) -> Result<(PathBuf, PathBuf), String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let md = dir.join("REPORT.md");
        std::fs::write(&md, self.markdown()).map_err(|e| format!("{}: {e}", md.display()))?;
        let js = dir.join("results.json");
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        std::fs::write(&js, text).map_err(|e| format!("{}: {e}", js.display()))?;
        Ok((md, js))
    }
}
