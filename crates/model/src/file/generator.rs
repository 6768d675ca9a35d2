//! Model files that name a parametric generator instead of listing bodies:
//!
//! ```toml
//! generator = "chain"
//! [parameters]
//! n = 256
//! length = 0.2
//! ```
//!
//! This crate only reads the reference (name and parameters as text); building the
//! model is the job of the crate that owns the generators (`mbs-mechanisms`, reached
//! through the `mbs` facade's `load_model`).

use super::{FileFormat, json_error, toml_error};
use crate::error::ModelError;

/// A generator named by a model file: its name and `key = value` parameters (values
/// as text, in file order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratorRef {
    /// Generator name (e.g. `chain`).
    pub name: String,
    /// Parameters as (key, value text).
    pub parameters: Vec<(String, String)>,
}

/// The generator a model file names, if its top level has a `generator` field; then
/// the only other field allowed is a `parameters` table of numbers, strings or
/// booleans. `Ok(None)` for an ordinary model file (which is not validated here).
pub fn generator_reference(
    text: &str,
    format: FileFormat,
) -> Result<Option<GeneratorRef>, ModelError> {
    let top: serde_json::Value = match format {
        FileFormat::Json => serde_json::from_str(text).map_err(json_error)?,
        FileFormat::Toml => {
            let t: toml::Table = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
            refuse_non_finite(&t)?;
            serde_json::to_value(t).map_err(|e| unsupported("model file", e.to_string()))?
        }
    };
    let Some(obj) = top.as_object() else {
        return Ok(None);
    };
    let Some(g) = obj.get("generator") else {
        return Ok(None);
    };
    let name = g
        .as_str()
        .ok_or_else(|| unsupported("field `generator`", format!("must be a name, got {g}")))?
        .to_string();
    let element = format!("generator `{name}`");
    if let Some(other) = obj.keys().find(|k| *k != "generator" && *k != "parameters") {
        return Err(unsupported(
            &element,
            format!("a generator file has only `generator` and `parameters`, not `{other}`"),
        ));
    }
    let mut parameters = Vec::new();
    if let Some(p) = obj.get("parameters") {
        let table = p.as_object().ok_or_else(|| {
            unsupported(&element, format!("`parameters` must be a table, got {p}"))
        })?;
        for (key, value) in table {
            let text = match value {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::Bool(b) => b.to_string(),
                other => {
                    return Err(unsupported(
                        &element,
                        format!(
                            "parameter `{key}` must be a number, a string or a boolean, got {other}"
                        ),
                    ));
                }
            };
            parameters.push((key.clone(), text));
        }
    }
    Ok(Some(GeneratorRef { name, parameters }))
}

/// TOML has `nan` and `inf`, JSON has not: converted to JSON they would become
/// `null` ("got null"). A non-finite parameter is refused here, naming it.
fn refuse_non_finite(top: &toml::Table) -> Result<(), ModelError> {
    let Some(toml::Value::Table(parameters)) = top.get("parameters") else {
        return Ok(());
    };
    for (key, value) in parameters {
        if let toml::Value::Float(x) = value
            && !x.is_finite()
        {
            let name = top.get("generator").and_then(|g| g.as_str()).unwrap_or("?");
            return Err(unsupported(
                &format!("generator `{name}`"),
                format!(
                    "parameter `{key}` must be a finite number (NaN and infinities are not allowed), got {x}"
                ),
            ));
        }
    }
    Ok(())
}

fn unsupported(element: &str, reason: String) -> ModelError {
    ModelError::Unsupported {
        element: element.to_string(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_and_json_references_read_alike() {
        let t = generator_reference(
            "generator = \"chain\"\n[parameters]\nn = 256\nlength = 0.2\njoint = \"revolute\"\n",
            FileFormat::Toml,
        )
        .unwrap()
        .unwrap();
        let j = generator_reference(
            r#"{"generator": "chain", "parameters": {"n": 256, "length": 0.2, "joint": "revolute"}}"#,
            FileFormat::Json,
        )
        .unwrap()
        .unwrap();
        assert_eq!(t.name, "chain");
        let mut tp = t.parameters.clone();
        let mut jp = j.parameters.clone();
        tp.sort();
        jp.sort();
        assert_eq!(tp, jp);
        assert!(tp.contains(&("n".into(), "256".into())));
        assert!(tp.contains(&("length".into(), "0.2".into())));
    }

    #[test]
    fn ordinary_files_are_not_references_and_mistakes_are_named() {
        assert_eq!(
            generator_reference("name = \"x\"\n", FileFormat::Toml).unwrap(),
            None
        );
        let e = generator_reference("generator = \"loop\"\nbodies = []\n", FileFormat::Toml)
            .unwrap_err()
            .to_string();
        assert!(e.contains("loop") && e.contains("`bodies`"), "{e}");
        let e = generator_reference(
            "generator = \"loop\"\n[parameters]\nn = [1, 2]\n",
            FileFormat::Toml,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("`n`") && e.contains("[1,2]"), "{e}");
        for x in ["nan", "inf", "-inf"] {
            let text = format!("generator = \"chain\"\n[parameters]\nlength = {x}\n");
            let e = generator_reference(&text, FileFormat::Toml)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("`length`") && e.contains("NaN and infinities are not allowed"),
                "{e}"
            );
        }
        let e = generator_reference("generator = 3\n", FileFormat::Toml)
            .unwrap_err()
            .to_string();
        assert!(e.contains("generator") && e.contains('3'), "{e}");
    }
}
