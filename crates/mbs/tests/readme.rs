//! README.md, run as a user runs it: every shell block, top to bottom in one shell, in a
//! fresh copy of the repository (its tracked and new files, not `target/`), starting
//! with the documented install step and with no `mbs` on the `PATH` before it. The
//! copy's `target/` is a link to this build's target directory, so the install step's
//! `cargo build --release -p mbs` finds its work done when it is (the copy keeps the
//! files' modification times); the first run on a fresh machine compiles the release
//! program here (the Python tests need it anyway).
//!
//! Blocks are marked by an HTML comment on the line before them: `<!-- file: NAME -->`
//! (written to NAME before the shell blocks after it run), `<!-- excerpt: PATH -->`
//! (its lines occur in PATH, in order), `<!-- not run: why -->`. Python blocks are run
//! by `crates/python/tests/test_readme.py`, Rust blocks by `cargo test --doc`
//! (`mbs::ReadmeDoctests`); a block of any other language must be marked.

use std::path::{Path, PathBuf};
use std::process::Command;

/// At most this many blocks may be marked `not run` (each with its reason).
const MAX_NOT_RUN: usize = 3;

/// What the tests do with a block.
#[derive(Debug, PartialEq)]
enum Kind {
    /// Run in the shell.
    Shell,
    /// Run by the Python tests.
    Python,
    /// Run by `cargo test --doc`.
    Rust,
    /// Written to this file (relative to the repository's root).
    File(String),
    /// Lines that occur, in order, in this file of the repository.
    Excerpt(String),
    /// Not run, for this reason.
    NotRun(String),
}

/// A fenced code block of the README.
#[derive(Debug)]
struct Block {
    /// 1-based line of the opening fence.
    line: usize,
    kind: Kind,
    /// The block's text, without the fences' indentation.
    text: String,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The blocks of `readme`, or the first line that is neither run nor marked.
fn blocks(readme: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(info) = lines[i].trim_start().strip_prefix("```") else {
            i += 1;
            continue;
        };
        let indent = lines[i].len() - lines[i].trim_start().len();
        let lang = info.split_whitespace().next().unwrap_or("").to_string();
        let start = i;
        let mut text = String::new();
        i += 1;
        while i < lines.len() && lines[i].trim() != "```" {
            let l = lines[i];
            text.push_str(
                l.get(indent.min(l.len() - l.trim_start().len())..)
                    .unwrap_or(""),
            );
            text.push('\n');
            i += 1;
        }
        if i == lines.len() {
            return Err(format!(
                "README.md:{}: a code block is not closed",
                start + 1
            ));
        }
        i += 1;
        let marker = lines[..start]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .and_then(|l| l.trim().strip_prefix("<!--"))
            .and_then(|l| l.strip_suffix("-->"))
            .map(str::trim);
        let kind = match (marker, lang.as_str()) {
            (Some(m), _) if m.starts_with("not run:") => {
                Kind::NotRun(m["not run:".len()..].trim().to_string())
            }
            (Some(m), _) if m.starts_with("file:") => Kind::File(m[5..].trim().to_string()),
            (Some(m), _) if m.starts_with("excerpt:") => Kind::Excerpt(m[8..].trim().to_string()),
            (Some(m), _) => {
                return Err(format!("README.md:{start}: unknown marker `<!-- {m} -->`"));
            }
            (None, "sh" | "bash" | "shell") => Kind::Shell,
            (None, "python") => Kind::Python,
            (None, "rust") => Kind::Rust,
            (None, other) => {
                return Err(format!(
                    "README.md:{}: a ```{other} block is neither run nor marked \
                     (<!-- not run: why -->, <!-- file: NAME -->, <!-- excerpt: PATH -->)",
                    start + 1
                ));
            }
        };
        out.push(Block {
            line: start + 1,
            kind,
            text,
        });
    }
    Ok(out)
}

fn readme_blocks() -> Vec<Block> {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    blocks(&readme).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_block_is_run_or_marked_and_the_not_run_list_is_short() {
    let blocks = readme_blocks();
    let not_run: Vec<String> = blocks
        .iter()
        .filter_map(|b| match &b.kind {
            Kind::NotRun(why) => Some(format!("README.md:{}: {why}", b.line)),
            _ => None,
        })
        .collect();
    eprintln!(
        "{} blocks not run:\n  {}",
        not_run.len(),
        not_run.join("\n  ")
    );
    assert!(
        not_run.len() <= MAX_NOT_RUN,
        "{} blocks are marked `not run` (at most {MAX_NOT_RUN}):\n{}",
        not_run.len(),
        not_run.join("\n")
    );
    for b in &blocks {
        if let Kind::NotRun(why) = &b.kind {
            assert!(
                why.len() >= 10,
                "README.md:{}: say why it is not run",
                b.line
            );
        }
    }
    let count = |k: fn(&Kind) -> bool| blocks.iter().filter(|b| k(&b.kind)).count();
    assert!(count(|k| *k == Kind::Shell) >= 3, "{blocks:#?}");
    assert!(count(|k| *k == Kind::Python) >= 1 && count(|k| *k == Kind::Rust) >= 1);
}

#[test]
fn the_marker_convention_is_enforced() {
    let unmarked = "text\n\n```toml\na = 1\n```\n";
    assert!(blocks(unmarked).unwrap_err().contains("README.md:3"));
    let marked = "<!-- not run: a fragment of a file -->\n```toml\na = 1\n```\n";
    assert_eq!(
        blocks(marked).unwrap()[0].kind,
        Kind::NotRun("a fragment of a file".into())
    );
    let file = "1. step\n\n   <!-- file: m.toml -->\n   ```toml\n   a = 1\n   ```\n";
    let b = &blocks(file).unwrap()[0];
    assert_eq!(
        (&b.kind, b.text.as_str()),
        (&Kind::File("m.toml".into()), "a = 1\n")
    );
    assert!(blocks("<!-- run me -->\n```sh\nls\n```\n").is_err());
    assert!(blocks("```sh\nls\n").is_err());
}

#[test]
fn excerpts_occur_in_their_files() {
    for b in readme_blocks() {
        let Kind::Excerpt(path) = &b.kind else {
            continue;
        };
        let file = std::fs::read_to_string(root().join(path))
            .unwrap_or_else(|e| panic!("README.md:{}: {path}: {e}", b.line));
        let mut lines = file.lines();
        for want in b.text.lines() {
            assert!(
                lines.any(|l| l == want),
                "README.md:{}: the line `{want}` is not in {path} (in this order)",
                b.line
            );
        }
    }
}

/// The repository's files as a fresh clone has them, plus new files not ignored
/// (`git ls-files`), relative to the root.
fn repository_files() -> Vec<String> {
    let out = Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(root())
        .output()
        .expect("git (the README test copies the repository's files with `git ls-files`)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("UTF-8 paths")
        .split('\0')
        .filter(|p| !p.is_empty() && root().join(p).is_file())
        .map(str::to_string)
        .collect()
}

/// Copies `files` from the root to `dest`, keeping modification times (so that cargo
/// finds the copy's build up to date).
fn copy_files(files: &[String], dest: &Path) {
    for f in files {
        let (from, to) = (root().join(f), dest.join(f));
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&from, &to).unwrap_or_else(|e| panic!("{f}: {e}"));
        let modified = std::fs::metadata(&from).and_then(|m| m.modified()).unwrap();
        std::fs::File::options()
            .write(true)
            .open(&to)
            .and_then(|h| h.set_modified(modified))
            .unwrap_or_else(|e| panic!("{f}: {e}"));
    }
}

/// The target directory of this build (`…/target`, from the CLI's path).
fn target_dir() -> PathBuf {
    let exe = Path::new(env!("CARGO_BIN_EXE_mbs"));
    exe.parent().and_then(Path::parent).unwrap().to_path_buf()
}

/// The user's `PATH` without directories that hold an `mbs`: the README must install it
/// before it uses it.
fn path_without_mbs() -> String {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|d| !d.join("mbs").exists())
        .collect();
    std::env::join_paths(dirs).unwrap().into_string().unwrap()
}

/// The shell script of the README: file blocks written, shell blocks run, each preceded
/// by a line on stderr naming it.
fn script(blocks: &[Block]) -> String {
    let mut s = String::from("set -euo pipefail\n");
    for b in blocks {
        match &b.kind {
            Kind::Shell => {
                s.push_str(&format!("echo '@@ README.md:{}' >&2\n{}", b.line, b.text));
            }
            Kind::File(name) => s.push_str(&format!(
                "cat > '{name}' <<'MBS_README_EOF'\n{}MBS_README_EOF\n",
                b.text
            )),
            _ => {}
        }
    }
    s
}

#[test]
fn shell_blocks_run_top_to_bottom_in_a_fresh_copy() {
    let blocks = readme_blocks();
    let dir = std::env::temp_dir().join(format!("mbs-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let files = repository_files();
    copy_files(&files, &dir);
    std::os::unix::fs::symlink(target_dir(), dir.join("target")).unwrap();
    let out = Command::new("bash")
        .arg("-c")
        .arg(script(&blocks))
        .current_dir(&dir)
        .env("PATH", path_without_mbs())
        .output()
        .expect("bash");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        let failed = stderr
            .lines()
            .filter_map(|l| l.strip_prefix("@@ "))
            .next_back()
            .unwrap_or("before the first block");
        let tail: Vec<&str> = stderr.lines().rev().take(30).collect();
        panic!(
            "the shell block at {failed} failed ({}); in {}\nstdout:\n{}\nstderr (end):\n{}",
            out.status,
            dir.display(),
            String::from_utf8_lossy(&out.stdout),
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        );
    }
    // what the runs created is ignored by git (apart from the files the README has the
    // user write)
    let written: Vec<&str> = blocks
        .iter()
        .filter_map(|b| match &b.kind {
            Kind::File(n) => Some(n.as_str()),
            _ => None,
        })
        .collect();
    let mut created = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        let tracked = files.iter().any(|f| f.split('/').next() == Some(&name));
        if !tracked && name != "target" && !written.contains(&name.as_str()) {
            created.push(name);
        }
    }
    assert!(
        created.iter().any(|c| c == "out"),
        "the README's runs write to out/: {created:?}"
    );
    for c in &created {
        // a directory as such, so that patterns like `out/` apply
        let path = if dir.join(c).is_dir() {
            format!("{c}/")
        } else {
            c.clone()
        };
        let ignored = Command::new("git")
            .args(["check-ignore", "-q", "--no-index", &path])
            .current_dir(root())
            .status()
            .unwrap();
        assert!(
            ignored.success(),
            "`{c}`, which the README's runs create, is not in .gitignore"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
