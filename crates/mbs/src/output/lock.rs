//! One writer per output directory: an advisory lock (`flock`) on a hidden file beside
//! the directory, `.NAME.mbs-lock`, that names the process holding it.
//!
//! The kernel releases the lock when the process ends, however it ends (SIGKILL
//! included), so a lock is never stale. The holder removes the file before it releases
//! the lock; a process that locked a file which was removed meanwhile notices it (the
//! path no longer leads to the file it locked) and tries again, so two processes never
//! both hold the lock of one directory.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::error::Error;

/// The lock of one output directory, held until dropped.
#[derive(Debug)]
pub struct DirLock {
    path: PathBuf,
    file: File,
}

/// How often [`DirLock::acquire`] retries when the lock file it locked was replaced.
const RETRIES: usize = 20;

impl DirLock {
    /// The lock file's path for the output directory `dir` (`parent/.NAME.mbs-lock`).
    pub fn path_for(dir: &Path) -> PathBuf {
        super::sibling(dir, "mbs-lock")
    }

    /// Takes the lock of `dir` at once, or fails naming the process that holds it.
    pub fn acquire(dir: &Path) -> Result<Self, Error> {
        let path = Self::path_for(dir);
        for _ in 0..RETRIES {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(|e| {
                    Error::output_dir(
                        dir,
                        format!("cannot create its lock file `{}`: {e}", path.display()),
                    )
                })?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    let mut holder = String::new();
                    let _ = file.read_to_string(&mut holder);
                    let holder = holder.trim();
                    let who = if holder.is_empty() {
                        "another process".to_string()
                    } else {
                        format!("another mbs process ({holder})")
                    };
                    return Err(Error::output_dir(
                        dir,
                        format!(
                            "{who} is writing it right now (lock `{}`); wait for it to finish or choose another --out",
                            path.display()
                        ),
                    ));
                }
                Err(TryLockError::Error(e)) => {
                    return Err(Error::output_dir(
                        dir,
                        format!("cannot lock `{}`: {e}", path.display()),
                    ));
                }
            }
            // The file we locked must still be the one at `path` (its holder may have
            // removed it between our open and our lock).
            let same = match (file.metadata(), std::fs::metadata(&path)) {
                (Ok(a), Ok(b)) => a.ino() == b.ino() && a.dev() == b.dev(),
                _ => false,
            };
            if !same {
                continue;
            }
            let me = format!("pid {}: {}", std::process::id(), command_line());
            let _ = file.set_len(0);
            let _ = file.rewind();
            let _ = file.write_all(me.as_bytes());
            let _ = file.flush();
            return Ok(Self { path, file });
        }
        Err(Error::output_dir(
            dir,
            format!(
                "its lock file `{}` keeps being replaced by other processes",
                path.display()
            ),
        ))
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        // Remove the file while still holding the lock (see the module docs), then
        // release it.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// This process's command line, for the message of a second writer.
fn command_line() -> String {
    let args: Vec<String> = std::env::args().collect();
    let mut s = args.join(" ");
    if s.len() > 200 {
        let mut cut = 200;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push('…');
    }
    s
}
