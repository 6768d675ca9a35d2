//! Output directories that are never half-written, never mixed, and checked before
//! any work is done.
//!
//! [`OutputDir::prepare`] is called before the simulation starts. It
//! - refuses a path that is a file, a directory that holds anything but an earlier
//!   `mbs` output (a `manifest.json`), or a place that cannot be written, at once;
//! - takes the directory's lock ([`DirLock`]): a second run into a directory that a
//!   running `mbs` holds is refused at once, naming that process;
//! - creates a staging directory beside it, `.NAME.mbs-staging-PID`, where every file
//!   is written.
//!
//! [`OutputDir::finish`] then swaps the complete staging directory into place with one
//! atomic `renameat2(RENAME_EXCHANGE)` (two renames where the file system lacks it) and
//! removes what was there before — an earlier run's files are replaced as a whole,
//! none is left beside the new ones. A process killed at any moment leaves either the
//! previous complete directory or the new one (between the two renames of the
//! fallback: none), never a mix; leftover staging directories are hidden and removed
//! by the next run into the same directory.
//!
//! ```
//! let dir = std::env::temp_dir().join(format!("mbs-doc-output-{}", std::process::id()));
//! let out = mbs::output::OutputDir::prepare(&dir)?;
//! std::fs::write(out.path().join("manifest.json"), "{}").unwrap();
//! assert!(!dir.exists());                 // nothing is visible before it is complete
//! let dir2 = out.finish()?;
//! assert!(dir2.join("manifest.json").exists());
//! # std::fs::remove_dir_all(&dir2).unwrap();
//! # Ok::<(), mbs::Error>(())
//! ```

mod lock;

use std::path::{Path, PathBuf};

pub use lock::DirLock;

use crate::error::Error;

/// The name of a hidden sibling of `dir`: `parent/.NAME.suffix`.
fn sibling(dir: &Path, suffix: &str) -> PathBuf {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    dir.with_file_name(format!(".{name}.{suffix}"))
}

/// An output directory being written: files go to [`OutputDir::path`] (the staging
/// directory) and appear at the target only complete.
#[derive(Debug)]
pub struct OutputDir {
    /// Where the files appear (absolute; symbolic links resolved).
    target: PathBuf,
    /// The path the user gave, for messages.
    given: PathBuf,
    /// Where they are written until then.
    staging: PathBuf,
    _lock: DirLock,
}

impl OutputDir {
    /// Checks `dir` and prepares to write it (see the module docs); fails at once,
    /// with [`Error::OutputDir`], when it cannot be used.
    pub fn prepare(dir: &Path) -> Result<Self, Error> {
        let target = resolve(dir)?;
        check_contents(dir, &target)?;
        let lock = DirLock::acquire(&target)?;
        remove_stale_staging(&target);
        let staging = staging_path(&target);
        std::fs::create_dir(&staging).map_err(|e| {
            Error::output_dir(
                dir,
                format!("cannot write in `{}`: {e}", parent_of(&target).display()),
            )
        })?;
        Ok(Self {
            target,
            given: dir.to_path_buf(),
            staging,
            _lock: lock,
        })
    }

    /// The directory to write the files into (the staging directory).
    pub fn path(&self) -> &Path {
        &self.staging
    }

    /// The directory the files will appear in.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The directory as the user gave it.
    pub fn given(&self) -> &Path {
        &self.given
    }

    /// Puts the files in place and releases the directory; returns its path (as
    /// given).
    pub fn finish(mut self) -> Result<PathBuf, Error> {
        self.swap_in()?;
        Ok(self.given.clone())
    }

    /// Moves the staging directory to the target; what was at the target is removed.
    fn swap_in(&mut self) -> Result<(), Error> {
        let io = |e: std::io::Error| Error::output(&self.target, e);
        if std::fs::symlink_metadata(&self.target).is_err() {
            return std::fs::rename(&self.staging, &self.target).map_err(io);
        }
        match rustix::fs::renameat_with(
            rustix::fs::CWD,
            &self.staging,
            rustix::fs::CWD,
            &self.target,
            rustix::fs::RenameFlags::EXCHANGE,
        ) {
            Ok(()) => {
                // the former contents are now at the staging path
                std::fs::remove_dir_all(&self.staging).map_err(|e| Error::output(&self.staging, e))
            }
            Err(_) => {
                // no atomic exchange on this file system: two renames
                let old = sibling(&self.target, &format!("mbs-old-{}", std::process::id()));
                std::fs::rename(&self.target, &old).map_err(io)?;
                std::fs::rename(&self.staging, &self.target).map_err(io)?;
                std::fs::remove_dir_all(&old).map_err(|e| Error::output(&old, e))
            }
        }
    }
}

impl Drop for OutputDir {
    fn drop(&mut self) {
        // an unfinished run leaves the target as it was
        if self.staging.exists() {
            let _ = std::fs::remove_dir_all(&self.staging);
        }
    }
}

/// The parent directory of an absolute path (`/` for `/x`).
fn parent_of(path: &Path) -> &Path {
    path.parent().unwrap_or(Path::new("/"))
}

/// `dir` as an absolute path with its parent created and symbolic links resolved.
fn resolve(dir: &Path) -> Result<PathBuf, Error> {
    if dir.as_os_str().is_empty() {
        return Err(Error::output_dir(dir, "an empty path; name a directory"));
    }
    if let Ok(real) = std::fs::canonicalize(dir) {
        if real.parent().is_none() {
            return Err(Error::output_dir(
                dir,
                "the root directory cannot be an output directory",
            ));
        }
        return Ok(real);
    }
    let abs = if dir.is_absolute() {
        dir.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| Error::output_dir(dir, format!("no current directory: {e}")))?
            .join(dir)
    };
    let name = match abs.file_name() {
        Some(n) if !matches!(n.to_str(), Some(".") | Some("..")) => n.to_os_string(),
        _ => {
            return Err(Error::output_dir(
                dir,
                "the path does not end in a directory name",
            ));
        }
    };
    let parent = parent_of(&abs);
    std::fs::create_dir_all(parent).map_err(|e| {
        Error::output_dir(
            dir,
            format!("cannot create its parent `{}`: {e}", parent.display()),
        )
    })?;
    let parent = std::fs::canonicalize(parent)
        .map_err(|e| Error::output_dir(dir, format!("its parent `{}`: {e}", parent.display())))?;
    Ok(parent.join(name))
}

/// An existing target must be a directory that is empty or holds an earlier `mbs`
/// output (its `manifest.json`), and must be writable.
fn check_contents(given: &Path, target: &Path) -> Result<(), Error> {
    let meta = match std::fs::metadata(target) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::output_dir(given, e)),
    };
    if !meta.is_dir() {
        return Err(Error::output_dir(
            given,
            "exists and is not a directory; name a new directory (it is created) or an earlier mbs output directory",
        ));
    }
    let entries: Vec<String> = std::fs::read_dir(target)
        .map_err(|e| Error::output_dir(given, e))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    if !entries.is_empty() && !entries.iter().any(|e| e == crate::manifest::FILE_NAME) {
        let mut shown: Vec<&str> = entries.iter().take(3).map(String::as_str).collect();
        shown.sort_unstable();
        let more = entries.len().saturating_sub(shown.len());
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        return Err(Error::output_dir(
            given,
            format!(
                "holds files that mbs did not write ({}{more}); mbs replaces only empty directories and earlier mbs output (with a {}), so choose a new or empty directory",
                shown.join(", "),
                crate::manifest::FILE_NAME
            ),
        ));
    }
    // the earlier output is removed when the new one is in place: it must be writable
    let probe = target.join(format!(".mbs-probe-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .map_err(|e| Error::output_dir(given, format!("cannot replace its contents: {e}")))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// This process's staging directory for `target`.
fn staging_path(target: &Path) -> PathBuf {
    sibling(target, &format!("mbs-staging-{}", std::process::id()))
}

/// Removes staging and fallback directories that killed runs left beside `target`
/// (called with the lock held: no live process owns them).
fn remove_stale_staging(target: &Path) {
    let Some(name) = target.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return;
    };
    let prefixes = [format!(".{name}.mbs-staging-"), format!(".{name}.mbs-old-")];
    let Ok(entries) = std::fs::read_dir(parent_of(target)) else {
        return;
    };
    for e in entries.filter_map(|e| e.ok()) {
        let file = e.file_name().to_string_lossy().into_owned();
        if prefixes.iter().any(|p| file.starts_with(p.as_str())) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}
