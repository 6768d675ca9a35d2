//! Where models come from: the built-in mechanisms of `mbs-mechanisms`, or a JSON/TOML
//! model file.

use std::path::Path;

use mbs_model::Model;

use crate::error::Error;

/// A built-in mechanism: its name (as given to `mbs run NAME`) and a one-line
/// description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Builtin {
    /// Name.
    pub name: String,
    /// One-line description.
    pub description: String,
}

/// The built-in mechanisms of `mbs-mechanisms`, in registry order.
pub fn builtins() -> Vec<Builtin> {
    mbs_mechanisms::builtin()
        .iter()
        .map(|b| Builtin {
            name: b.name.to_string(),
            description: b.description.to_string(),
        })
        .collect()
}

/// The built-in mechanism called `name`.
pub fn builtin(name: &str) -> Result<Model, Error> {
    match mbs_mechanisms::find(name) {
        Some(b) => Ok((b.build)()?),
        None => Err(Error::UnknownMechanism {
            name: name.to_string(),
            valid: builtins()
                .iter()
                .map(|b| b.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

/// A model from a built-in name or a model file path (`.json` or `.toml`). An existing
/// file, or a name with one of those extensions, is read as a file; anything else is a
/// built-in name.
pub fn load_model(spec: &str) -> Result<Model, Error> {
    let path = Path::new(spec);
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if path.is_file() || matches!(ext.as_deref(), Some("json" | "toml")) {
        return Ok(Model::load(path)?);
    }
    builtin(spec)
}
