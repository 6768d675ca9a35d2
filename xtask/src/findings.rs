//! Verdicts as data: each table cell, figure or stated claim of a paper gets a finding
//! whose verdict is computed from measured numbers by a stated criterion.

use std::fmt::Write as _;

use serde::Serialize;

/// The five reference papers (docs/REFERENCES.md), in report order.
pub const PAPERS: [&str; 5] = [
    BAYO_LEDESMA,
    MALCZYK_FRACZEK,
    CHADAJ_ET_AL,
    CHIOU,
    PEKAL_FRACZEK,
];
pub const BAYO_LEDESMA: &str = "Bayo & Ledesma (1996)";
pub const MALCZYK_FRACZEK: &str = "Malczyk & Frączek (2012)";
pub const CHADAJ_ET_AL: &str = "Chadaj, Malczyk & Frączek (2017)";
pub const CHIOU: &str = "Chiou (1990)";
pub const PEKAL_FRACZEK: &str = "Pękal & Frączek (2016)";

/// How a paper's item compares with our measurement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The measurement meets the stated criterion.
    Reproduced,
    /// Same qualitative outcome, different numbers; the reason is measured.
    Differs,
    /// The measurement contradicts the paper's claim.
    NotReproduced,
    /// No measurement: the figure or table is not produced (the reason is given).
    Missing,
}

impl Verdict {
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Reproduced => "reproduced",
            Verdict::Differs => "differs",
            Verdict::NotReproduced => "not reproduced",
            Verdict::Missing => "missing",
        }
    }
}

/// One paper item with its verdict.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    pub paper: &'static str,
    /// Table, figure or section of the paper.
    pub item: String,
    /// What the paper states or shows.
    pub claim: String,
    /// The criterion the verdict applies to the measurement.
    pub criterion: String,
    /// What we measured.
    pub measured: String,
    pub verdict: Verdict,
    /// For "differs" and "not reproduced": the measured reason or evidence; for
    /// "missing": why the item is not produced.
    pub reason: String,
}

impl Finding {
    /// An item judged by `criterion` (call [`Finding::judge`] next).
    pub fn new(
        paper: &'static str,
        item: impl Into<String>,
        claim: impl Into<String>,
        criterion: impl Into<String>,
    ) -> Self {
        Self {
            paper,
            item: item.into(),
            claim: claim.into(),
            criterion: criterion.into(),
            measured: "—".into(),
            verdict: Verdict::NotReproduced,
            reason: String::new(),
        }
    }

    /// The verdict: reproduced when `ok`, otherwise `on_fail` (differs or not
    /// reproduced) with `reason`; `ok = None` (no measurement, e.g. a failed run) gives
    /// "not reproduced" with the reason.
    pub fn judge(
        mut self,
        measured: impl Into<String>,
        ok: Option<bool>,
        on_fail: Verdict,
        reason: impl Into<String>,
    ) -> Self {
        self.measured = measured.into();
        (self.verdict, self.reason) = match ok {
            Some(true) => (Verdict::Reproduced, String::new()),
            Some(false) => (on_fail, reason.into()),
            None => (
                Verdict::NotReproduced,
                format!("no measurement: {}", reason.into()),
            ),
        };
        self
    }

    /// An item of the paper that this report does not produce, and why.
    pub fn missing(
        paper: &'static str,
        item: impl Into<String>,
        claim: impl Into<String>,
        why: impl Into<String>,
    ) -> Self {
        Self {
            paper,
            item: item.into(),
            claim: claim.into(),
            criterion: "—".into(),
            measured: "—".into(),
            verdict: Verdict::Missing,
            reason: why.into(),
        }
    }
}

/// Counts of verdicts: reproduced, differs, not reproduced, missing.
pub fn counts<'a>(fs: impl IntoIterator<Item = &'a Finding>) -> [usize; 4] {
    let mut c = [0; 4];
    for f in fs {
        c[f.verdict as usize] += 1;
    }
    c
}

/// The findings summary that opens the report: counts per paper, then every item that
/// differs or is not reproduced, with its evidence.
pub fn summary_markdown(all: &[&Finding], out: &mut String) {
    let _ = writeln!(
        out,
        "## Findings\n\nEach row of the papers' tables, each figure and each stated claim \
         has a verdict computed from our measurements by the criterion shown beside it \
         (suite sections, \"Verdicts\" tables): **reproduced** (criterion met), **differs** \
         (same qualitative result, other numbers; the measured reason is given), **not \
         reproduced** (the measurement contradicts the claim; evidence given), **missing** \
         (not produced; why).\n"
    );
    let _ = writeln!(
        out,
        "| paper | reproduced | differs | not reproduced | missing |\n|---|---|---|---|---|"
    );
    for p in PAPERS {
        let c = counts(all.iter().copied().filter(|f| f.paper == p));
        let _ = writeln!(out, "| {p} | {} | {} | {} | {} |", c[0], c[1], c[2], c[3]);
    }
    let c = counts(all.iter().copied());
    let _ = writeln!(out, "| all | {} | {} | {} | {} |\n", c[0], c[1], c[2], c[3]);
    for p in PAPERS {
        let bad: Vec<&&Finding> = all
            .iter()
            .filter(|f| {
                f.paper == p && matches!(f.verdict, Verdict::NotReproduced | Verdict::Differs)
            })
            .collect();
        if bad.is_empty() {
            continue;
        }
        let _ = writeln!(out, "**{p}** — what differs or is not reproduced:\n");
        for f in bad {
            let _ = writeln!(
                out,
                "- {} ({}): paper — {}; measured — {}. {}",
                f.item,
                f.verdict.label(),
                f.claim,
                f.measured,
                f.reason
            );
        }
        out.push('\n');
    }
}

/// The verdicts table of one suite.
pub fn table_markdown(fs: &[Finding], out: &mut String) {
    if fs.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "#### Verdicts\n\n| paper item | paper | criterion | measured | verdict | reason / evidence |\n|---|---|---|---|---|---|"
    );
    for f in fs {
        let cells = [
            &f.item,
            &f.claim,
            &f.criterion,
            &f.measured,
            &f.verdict.label().to_string(),
            &f.reason,
        ]
        .map(|c| c.replace('|', "\\|"));
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
}
