//! Model files in JSON and TOML. The full schema is in `crates/model/SCHEMA.md`;
//! in short:
//!
//! - top level: `name`, `gravity` (3-array), and arrays `bodies`, `markers`,
//!   `joints`, `forces`, `drivers` (each optional, default empty);
//! - elements refer to each other by **name**; the fixed frame is the body `"ground"`
//!   (so no body may be called `ground`);
//! - vectors are arrays of 3 numbers; matrices are arrays of 3 rows;
//! - a body has `name`, `mass` and `inertia` (3 principal moments or a 3×3 tensor) or
//!   `shapes` (box, cylinder, sphere, capsule, each with a pose in the body frame) with
//!   densities from which mass and inertia are computed, and optional initial
//!   conditions in the global frame: `position`, `orientation` (Euler parameters
//!   `[e0, e1, e2, e3]` or `{ axis = [..], angle = φ }`), `velocity`, `omega` (global
//!   angular velocity); `origin = "reference"` lets a body with densities be placed by
//!   a point other than its centre of mass;
//! - a marker has `name`, `body`, `position` (body frame) and its axes: nothing
//!   (identity), a `z` axis with an optional `x` hint, or a full `orientation` matrix
//!   whose columns are the marker's x, y, z axes in the body frame;
//! - joints, forces, drivers and time functions are tables tagged by `type`
//!   (`"revolute"`, `"spring_damper"`, `"joint_angle"`, `"harmonic"`, …); a bare
//!   number where a time function is expected is a constant.
//!
//! A file may instead name a parametric generator (`generator = "chain"` and a
//! `parameters` table): [`generator_reference`] reads that reference.
//!
//! Unknown fields are rejected. Syntax and type errors are [`ModelError::Parse`] with
//! the line and column; a name that does not exist is [`ModelError::UnknownReference`]
//! naming the referring element; the model is then validated as any other
//! ([`crate::validate`]).
//!
//! Writing then reading gives an equal [`Model`]: every number is written with the
//! shortest decimal form that parses back to the same `f64` (serde_json with
//! `float_roundtrip`, and Rust's float formatting in toml), and marker axes and
//! inertias are written as full matrices unless they are exactly the identity or
//! diagonal.
//!
//! ```
//! use mbs_model::Model;
//! let model = Model::from_toml_str(r#"
//!     name = "pendulum"
//!     gravity = [0.0, -9.81, 0.0]
//!
//!     [[bodies]]
//!     name = "link"
//!     mass = 1.0
//!     inertia = [0.01, 0.09, 0.09]
//!     position = [0.5, 0.0, 0.0]
//!
//!     [[markers]]
//!     name = "pivot.ground"
//!     body = "ground"
//!
//!     [[markers]]
//!     name = "pivot.link"
//!     body = "link"
//!     position = [-0.5, 0.0, 0.0]
//!
//!     [[joints]]
//!     type = "revolute"
//!     name = "pivot"
//!     marker_i = "pivot.ground"
//!     marker_j = "pivot.link"
//! "#).unwrap();
//! assert_eq!(model.n_bodies(), 1);
//! assert_eq!(Model::from_json_str(&model.to_json_string()).unwrap(), model);
//! ```

mod body;
mod convert;
mod exact;
mod generator;
mod read;
mod spec;

use std::path::Path;

use crate::error::ModelError;
use crate::model::Model;

pub(crate) use convert::{GROUND, reserved_ground};
pub use generator::{GeneratorRef, generator_reference};
pub use read::{MAX_FILE_BYTES, read_model_file};

/// The two model-file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileFormat {
    /// JSON (`.json`).
    Json,
    /// TOML (`.toml`).
    Toml,
}

impl FileFormat {
    /// The format named by a path's extension (`.json` or `.toml`, any case).
    pub fn from_path(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "json" => Some(FileFormat::Json),
            "toml" => Some(FileFormat::Toml),
            _ => None,
        }
    }

    /// "JSON" or "TOML", as in [`ModelError::Parse`].
    pub fn label(self) -> &'static str {
        match self {
            FileFormat::Json => "JSON",
            FileFormat::Toml => "TOML",
        }
    }
}

impl Model {
    /// Reads and validates a model from JSON text.
    pub fn from_json_str(text: &str) -> Result<Model, ModelError> {
        let file: spec::ModelFile = serde_json::from_str(text).map_err(json_error)?;
        Model::from_parts(convert::file_to_parts(&file)?)
    }

    /// Reads and validates a model from TOML text.
    pub fn from_toml_str(text: &str) -> Result<Model, ModelError> {
        let file: spec::ModelFile = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        Model::from_parts(convert::file_to_parts(&file)?)
    }

    /// Reads and validates a model from text in `format`.
    pub fn from_str_as(text: &str, format: FileFormat) -> Result<Model, ModelError> {
        match format {
            FileFormat::Json => Model::from_json_str(text),
            FileFormat::Toml => Model::from_toml_str(text),
        }
    }

    /// The model as pretty-printed JSON (reads back to an equal model).
    pub fn to_json_string(&self) -> String {
        // Cannot fail: the file types hold only strings, numbers, arrays and structs.
        let pretty = serde_json::to_string_pretty(&convert::model_to_file(self))
            .expect("model file types serialize to JSON");
        compact_number_arrays(&pretty)
    }

    /// The model as TOML (reads back to an equal model).
    pub fn to_toml_string(&self) -> String {
        // Cannot fail: no `None` inside arrays, no non-string keys, no bare values at
        // the top level.
        toml::to_string(&convert::model_to_file(self)).expect("model file types serialize to TOML")
    }

    /// The model as text in `format`.
    pub fn to_string_as(&self, format: FileFormat) -> String {
        match format {
            FileFormat::Json => self.to_json_string(),
            FileFormat::Toml => self.to_toml_string(),
        }
    }

    /// Reads a model file, choosing the format by the extension (`.json` or `.toml`);
    /// only a regular file of at most [`MAX_FILE_BYTES`] is read ([`read_model_file`]).
    pub fn load(path: impl AsRef<Path>) -> Result<Model, ModelError> {
        let path = path.as_ref();
        let format = format_of(path)?;
        let text = read_model_file(path)?;
        Model::from_str_as(&text, format)
    }

    /// Writes the model to a file, choosing the format by the extension.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), ModelError> {
        let path = path.as_ref();
        let format = format_of(path)?;
        std::fs::write(path, self.to_string_as(format)).map_err(|e| io_error(path, "write", &e))
    }
}

/// Puts every JSON array of plain numbers on one line (`[0.0, -9.81, 0.0]`), leaving
/// the text of each number untouched.
fn compact_number_arrays(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut rest = json;
    let mut in_string = false;
    while let Some(c) = rest.chars().next() {
        if in_string {
            // copy through the end of the string, honouring escapes
            let mut escaped = false;
            let end = rest
                .char_indices()
                .find(|&(_, ch)| {
                    let close = ch == '"' && !escaped;
                    escaped = ch == '\\' && !escaped;
                    close
                })
                .map_or(rest.len(), |(i, _)| i + 1);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            in_string = false;
            continue;
        }
        if c == '"' {
            out.push('"');
            rest = &rest[1..];
            in_string = true;
            continue;
        }
        if c == '['
            && let Some(close) = rest.find(']')
            && is_number_list(&rest[1..close])
        {
            let items: Vec<&str> = rest[1..close].split(',').map(str::trim).collect();
            out.push('[');
            out.push_str(&items.join(", "));
            out.push(']');
            rest = &rest[close + 1..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Whether the inside of a JSON array holds only numbers (at least one).
fn is_number_list(inner: &str) -> bool {
    inner.chars().any(|ch| ch.is_ascii_digit())
        && inner
            .chars()
            .all(|ch| ch.is_ascii_digit() || "+-.eE,".contains(ch) || ch.is_whitespace())
}

fn format_of(path: &Path) -> Result<FileFormat, ModelError> {
    FileFormat::from_path(path).ok_or_else(|| ModelError::Unsupported {
        element: format!("model file `{}`", path.display()),
        reason: "the extension must be .json or .toml".into(),
    })
}

fn io_error(path: &Path, action: &str, e: &std::io::Error) -> ModelError {
    ModelError::Io {
        path: path.display().to_string(),
        message: format!("cannot {action}: {e}"),
    }
}

fn json_error(e: serde_json::Error) -> ModelError {
    let (line, column) = (e.line(), e.column());
    let mut message = e.to_string();
    // serde_json appends " at line L column C"; the position has its own fields.
    let suffix = format!(" at line {line} column {column}");
    if let Some(stripped) = message.strip_suffix(&suffix) {
        message = stripped.to_string();
    }
    ModelError::Parse {
        format: "JSON",
        message,
        line: (line > 0).then_some(line),
        column: (line > 0).then_some(column),
    }
}

fn toml_error(text: &str, e: &toml::de::Error) -> ModelError {
    let (line, column) = match e.span() {
        Some(span) => {
            let (l, c) = line_column(text, span.start);
            (Some(l), Some(c))
        }
        None => (None, None),
    };
    let mut message = e.message().trim().to_string();
    // a wrong value (a vector of 4 for a position) is reported by its position only:
    // name the key of its `key = value` line too
    if let Some(key) = e.span().and_then(|span| key_at(text, span.start))
        && !message.contains(&format!("`{key}`"))
    {
        message = format!("`{key}`: {message}");
    }
    ModelError::Parse {
        format: "TOML",
        message,
        line,
        column,
    }
}

/// The key of the `key = value` line holding byte `offset` of `text`, if the offset
/// lies in its value.
fn key_at(text: &str, offset: usize) -> Option<&str> {
    let offset = offset.min(text.len());
    let start = text.get(..offset)?.rfind('\n').map_or(0, |i| i + 1);
    let line = &text[start..];
    let line = &line[..line.find('\n').unwrap_or(line.len())];
    let eq = line.find('=')?;
    if start + eq >= offset {
        return None;
    }
    let key = line[..eq].trim().trim_matches('"');
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    plain.then_some(key)
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_arrays_are_compacted() {
        let v = serde_json::json!({"a [1]": [1.0, -2.5e-300, 3], "b": [[1, 2], [3, 4]], "c": [], "d": ["x,]", 1]});
        let pretty = serde_json::to_string_pretty(&v).unwrap();
        let compact = compact_number_arrays(&pretty);
        assert!(compact.contains("[1.0, -2.5e-300, 3]"), "{compact}");
        assert!(compact.contains("[1, 2]"), "{compact}");
        let back: serde_json::Value = serde_json::from_str(&compact).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn line_column_counts_characters() {
        let t = "ab\ncdé\nf";
        assert_eq!(line_column(t, 0), (1, 1));
        assert_eq!(line_column(t, 3), (2, 1));
        assert_eq!(line_column(t, 8), (3, 1));
        assert_eq!(line_column(t, 100), (3, 2));
        // inside the two-byte é: clamped to its start
        assert_eq!(line_column(t, 6), (2, 3));
    }
}
