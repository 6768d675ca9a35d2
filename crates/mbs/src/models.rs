//! Where models come from: the built-in mechanisms of `mbs-mechanisms`, its parametric
//! generators by name with parameters (`chain:n=256`, `loop:n=64,length=0.2`,
//! `ladder:n=8`, `tree:seed=7`), or a JSON/TOML model file (which may itself name a
//! generator: `generator = "chain"` with a `parameters` table, see
//! `crates/model/SCHEMA.md`).

use std::path::Path;

use mbs_mechanisms::named::{self, GeneratorError};
use mbs_model::{FileFormat, Model};

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

/// A parametric generator reachable as `NAME:KEY=VALUE,…` (what `mbs list` prints).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratorInfo {
    /// Name.
    pub name: String,
    /// One-line description.
    pub description: String,
    /// Parameters: key, default (text; or what the generator chooses) and meaning.
    pub parameters: Vec<(String, String, String)>,
}

/// The parametric generators of `mbs-mechanisms`.
pub fn generators() -> Vec<GeneratorInfo> {
    named::generators()
        .iter()
        .map(|g| GeneratorInfo {
            name: g.name.to_string(),
            description: g.description.to_string(),
            parameters: g
                .params
                .iter()
                .map(|p| {
                    (
                        p.key.to_string(),
                        p.default.unwrap_or("see meaning").to_string(),
                        format!("{} ({})", p.description, p.kind.requirement()),
                    )
                })
                .collect(),
        })
        .collect()
}

/// The built-in mechanism called `name`, or the model of a generator spec
/// `NAME[:KEY=VALUE,…]` (e.g. `chain:n=256,length=0.2`).
pub fn builtin(name: &str) -> Result<Model, Error> {
    if let Some(b) = mbs_mechanisms::find(name) {
        return Ok((b.build)()?);
    }
    if named::is_generator_spec(name) {
        return named::build(name).map_err(generator_error);
    }
    Err(unknown(name))
}

/// The model of generator `name` with `key = value` parameters (values as text).
pub fn generator(name: &str, parameters: &[(String, String)]) -> Result<Model, Error> {
    named::build_with(name, parameters).map_err(generator_error)
}

fn unknown(name: &str) -> Error {
    let mut valid: Vec<String> = builtins().into_iter().map(|b| b.name).collect();
    valid.extend(
        named::generators()
            .iter()
            .map(|g| format!("{}:key=value,…", g.name)),
    );
    Error::UnknownMechanism {
        name: name.to_string(),
        valid: valid.join(", "),
    }
}

fn generator_error(e: GeneratorError) -> Error {
    match e {
        GeneratorError::Unknown { name } => unknown(&name),
        GeneratorError::UnknownParameter {
            generator,
            key,
            value,
        } => Error::InvalidParameter {
            element: format!("generator `{generator}`"),
            requirement: format!(
                "is not a parameter (parameters: {})",
                GeneratorError::valid_keys(generator)
            ),
            parameter: key,
            value,
        },
        GeneratorError::InvalidValue {
            generator,
            key,
            value,
            requirement,
        } => Error::InvalidParameter {
            element: format!("generator `{generator}`"),
            parameter: key,
            requirement,
            value,
        },
        GeneratorError::Model(m) => Error::Model(m),
    }
}

/// A model from a built-in name, a generator spec, a model file path (`.json` or
/// `.toml`) or a URDF/MJCF file (`.urdf`, `.xml`, `.mjcf`; imported with the
/// defaults of [`crate::ImportOptions`], see [`crate::load_model_with`] for initial
/// joint values). An existing file, or a name with one of those extensions, is read as
/// a file; anything else is a built-in name or generator spec.
pub fn load_model(spec: &str) -> Result<Model, Error> {
    let path = Path::new(spec);
    if crate::import::is_import(spec) {
        return Ok(crate::import::load_model_with(spec, &Default::default())?.model);
    }
    if let Some(format) = FileFormat::from_path(path).filter(|_| !named::is_generator_spec(spec)) {
        // bounded: a regular file of at most 1 GiB, refused before reading otherwise
        let text = mbs_model::read_model_file(path)?;
        if let Some(g) = mbs_model::generator_reference(&text, format)? {
            return generator(&g.name, &g.parameters);
        }
        return Ok(Model::from_str_as(&text, format)?);
    }
    if path.is_file() {
        return Ok(Model::load(path)?);
    }
    if path.exists() && !named::is_generator_spec(spec) && builtin(spec).is_err() {
        // a device, directory or file without a model extension: not a mechanism name
        return Err(Error::Model(mbs_model::ModelError::Io {
            path: spec.to_string(),
            message: "is not a model file: give a regular .json or .toml file, a built-in mechanism or a generator spec".into(),
        }));
    }
    builtin(spec)
}
