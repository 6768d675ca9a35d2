//! `mbs convert`: any model the facade loads (a URDF or MJCF file, a built-in
//! mechanism, a generator spec, a model file) written as an mbs model file that a user
//! can read and edit. The file reads back to the same model, bit for bit
//! ([`Model::to_toml_string`](mbs_model::Model::to_toml_string) writes every number in its shortest round-trip form).
//!
//! A TOML file starts with comments naming its source and, for an import, the link →
//! body map and every element of the source that the model does not honour (the same
//! list as `mbs check`), so the edit starts from what was dropped. JSON has no
//! comments: the CLI prints that list on standard error.

use std::io::Write as _;
use std::path::Path;

use mbs_model::FileFormat;

use crate::error::Error;
use crate::import::LoadedModel;

/// The text of `loaded` as a model file in `format`; `source` is what it was loaded
/// from (named in the TOML header).
pub fn model_file_text(loaded: &LoadedModel, source: &str, format: FileFormat) -> String {
    let body = loaded.model.to_string_as(format);
    match format {
        FileFormat::Json => body,
        FileFormat::Toml => {
            let mut head = format!(
                "# mbs model converted from {source} by `mbs convert` (mbs {})\n",
                env!("CARGO_PKG_VERSION")
            );
            if let Some(report) = &loaded.import {
                for line in report.to_string().lines() {
                    head.push_str("# ");
                    head.push_str(line);
                    head.push('\n');
                }
            }
            head.push('\n');
            head + &body
        }
    }
}

/// Writes `text` to `path` without ever leaving a partial file: the text goes to a
/// temporary file in the same directory, which is synced and then renamed onto `path`.
/// An existing `path` is refused unless `overwrite` (so a mistyped output name never
/// replaces someone's model); a missing directory is an error naming it.
pub fn write_file_atomically(path: &Path, text: &str, overwrite: bool) -> Result<(), Error> {
    if path.is_dir() {
        return Err(Error::output(path, "is a directory; give a file name"));
    }
    if path.exists() && !overwrite {
        return Err(Error::output(
            path,
            "exists; not replaced (pass --force to replace it)",
        ));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(Error::output(
            path,
            format!("directory {} does not exist", dir.display()),
        ));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.partial", std::process::id()));
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::output(path, e)
    })
}
