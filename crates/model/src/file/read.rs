//! Reading a model file's text with bounds: only regular files, at most
//! [`MAX_FILE_BYTES`], checked before anything is read (a path to `/dev/zero` or a
//! named pipe would otherwise be read until memory runs out).

use std::io::Read;
use std::path::Path;

use super::io_error;
use crate::error::ModelError;

/// Largest model file read: 1 GiB (the largest generated models take a few MB).
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// The text of the model file at `path`: refused when it is not a regular file or
/// larger than [`MAX_FILE_BYTES`], naming the path and the size.
pub fn read_model_file(path: &Path) -> Result<String, ModelError> {
    let refuse = |message: String| ModelError::Io {
        path: path.display().to_string(),
        message,
    };
    let meta = std::fs::metadata(path).map_err(|e| io_error(path, "read", &e))?;
    if !meta.is_file() {
        return Err(refuse(
            "is not a regular file (a directory, device or pipe); give a .json or .toml file"
                .into(),
        ));
    }
    let too_large = |len: u64| {
        refuse(format!(
            "is {len} bytes, more than the limit of {MAX_FILE_BYTES} bytes (1 GiB) for a model file"
        ))
    };
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_large(meta.len()));
    }
    let file = std::fs::File::open(path).map_err(|e| io_error(path, "read", &e))?;
    let mut text = String::new();
    // bounded even if the file grows after the size was read
    file.take(MAX_FILE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| io_error(path, "read", &e))?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(text.len() as u64));
    }
    Ok(text)
}
