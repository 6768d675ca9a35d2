//! Models from URDF and MJCF files ([`mbs_import`]) with the user's initial joint
//! values, and what the import could not honour.
//!
//! Initial joint values come from the command line (`--q0 shoulder=0.3,elbow=-0.7`,
//! several values of one joint in a row: `--q0 base=0,0,1,1,0,0,0`) or from a TOML
//! side file (`--initial init.toml`) with the same names:
//!
//! ```toml
//! [q0]
//! shoulder = 0.3
//! base = [0, 0, 1, 1, 0, 0, 0]
//! [v0]
//! shoulder = 1.0
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mbs_import::{ImportNote, ImportOptions, SourceFormat};
use mbs_model::Model;
use serde::Serialize;

use crate::error::Error;

/// A model with, for an imported one, what the import reports.
#[derive(Clone, Debug)]
pub struct LoadedModel {
    /// The model.
    pub model: Model,
    /// `Some` for a URDF or MJCF file.
    pub import: Option<ImportReport>,
}

/// What an import reports besides the model.
#[derive(Clone, Debug, Serialize)]
pub struct ImportReport {
    /// `urdf` or `mjcf`.
    pub format: &'static str,
    /// Each source link and the body it belongs to (`null`: fixed to the world, or a
    /// massless frame folded into a joint).
    pub links: Vec<(String, Option<String>)>,
    /// What is kept only as data or ignored, by element.
    pub notes: Vec<Note>,
}

/// One note of an import.
#[derive(Clone, Debug, Serialize)]
pub struct Note {
    /// The element.
    pub element: String,
    /// What happened to it.
    pub note: String,
}

impl From<&ImportNote> for Note {
    fn from(n: &ImportNote) -> Self {
        Note {
            element: n.element.clone(),
            note: n.note.clone(),
        }
    }
}

impl std::fmt::Display for ImportReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bodies: std::collections::BTreeSet<&str> = self
            .links
            .iter()
            .filter_map(|(_, b)| b.as_deref())
            .collect();
        writeln!(
            f,
            "imported from {}: {} links → {} bodies",
            self.format.to_uppercase(),
            self.links.len(),
            bodies.len()
        )?;
        for (link, body) in &self.links {
            match body {
                Some(b) if b != link => writeln!(f, "  link {link} → body {b}")?,
                None => writeln!(
                    f,
                    "  link {link} → fixed to the world or folded into a joint"
                )?,
                _ => {}
            }
        }
        if self.notes.is_empty() {
            return writeln!(f, "not honoured: nothing");
        }
        writeln!(f, "not honoured ({}):", self.notes.len())?;
        for n in &self.notes {
            writeln!(f, "  {}: {}", n.element, n.note)?;
        }
        Ok(())
    }
}

/// Whether `spec` names a URDF or MJCF file.
pub fn is_import(spec: &str) -> bool {
    SourceFormat::of(Path::new(spec)).is_some()
}

/// Loads `spec` (a built-in, a generator, a model file, or a URDF/MJCF file imported
/// with `options`).
pub fn load_model_with(spec: &str, options: &ImportOptions) -> Result<LoadedModel, Error> {
    let path = Path::new(spec);
    let Some(format) = SourceFormat::of(path) else {
        if *options != ImportOptions::default() {
            return Err(Error::InvalidParameter {
                element: format!("model `{spec}`"),
                parameter: "q0/v0/package-path/floating-base".into(),
                requirement: "applies to URDF and MJCF files only".into(),
                value: spec.into(),
            });
        }
        return Ok(LoadedModel {
            model: crate::models::load_model(spec)?,
            import: None,
        });
    };
    let imported = mbs_import::load(path, options)?;
    Ok(LoadedModel {
        model: imported.model,
        import: Some(ImportReport {
            format: match format {
                SourceFormat::Urdf => "urdf",
                SourceFormat::Mjcf => "mjcf",
            },
            links: imported.link_bodies,
            notes: imported.notes.iter().map(Note::from).collect(),
        }),
    })
}

/// Joint values from `name=v[,v…][,name=v…]` (the values of a joint run until the next
/// `name=`).
pub fn parse_joint_values(flag: &str, text: &str) -> Result<BTreeMap<String, Vec<f64>>, Error> {
    let bad = |value: &str, requirement: &str| Error::InvalidParameter {
        element: "command line".into(),
        parameter: flag.into(),
        requirement: requirement.into(),
        value: value.into(),
    };
    let mut out: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for token in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let value = match token.split_once('=') {
            Some((name, value)) => {
                let name = name.trim().to_string();
                if name.is_empty() {
                    return Err(bad(token, "needs a joint name before `=`"));
                }
                if out.contains_key(&name) {
                    return Err(bad(token, "names a joint twice"));
                }
                out.insert(name.clone(), Vec::new());
                current = Some(name);
                value.trim()
            }
            None => token,
        };
        let Some(name) = &current else {
            return Err(bad(token, "must start with `joint=value`"));
        };
        let x: f64 = value
            .parse()
            .map_err(|_| bad(token, "must be a number (joint=value[,value…])"))?;
        if !x.is_finite() {
            return Err(bad(token, "must be finite"));
        }
        out.get_mut(name).expect("inserted above").push(x);
    }
    Ok(out)
}

/// The `[q0]` and `[v0]` tables of a TOML side file.
pub fn read_initial_file(
    path: &Path,
) -> Result<(BTreeMap<String, Vec<f64>>, BTreeMap<String, Vec<f64>>), Error> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        #[serde(default)]
        q0: BTreeMap<String, Values>,
        #[serde(default)]
        v0: BTreeMap<String, Values>,
    }
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Values {
        One(f64),
        Many(Vec<f64>),
    }
    let text = mbs_model::read_model_file(path).map_err(Error::Model)?;
    let file: File = toml::from_str(&text).map_err(|e| Error::InvalidParameter {
        element: format!("initial values file `{}`", path.display()),
        parameter: "q0/v0".into(),
        requirement: format!(
            "must be TOML tables [q0] and [v0] of joint = number or [numbers] ({})",
            e.message()
        ),
        value: e.span().map(|s| text[s].to_string()).unwrap_or_default(),
    })?;
    let flat = |m: BTreeMap<String, Values>| {
        m.into_iter()
            .map(|(k, v)| {
                (
                    k,
                    match v {
                        Values::One(x) => vec![x],
                        Values::Many(x) => x,
                    },
                )
            })
            .collect()
    };
    Ok((flat(file.q0), flat(file.v0)))
}

/// Import options from the command line's pieces: a side file first, then `--q0` and
/// `--v0` (which override the file's values joint by joint).
pub fn options_from(
    q0: Option<&str>,
    v0: Option<&str>,
    initial: Option<&Path>,
    package_path: &[PathBuf],
    floating_base: bool,
) -> Result<ImportOptions, Error> {
    let (mut q, mut v) = match initial {
        Some(p) => read_initial_file(p)?,
        None => Default::default(),
    };
    if let Some(text) = q0 {
        q.extend(parse_joint_values("--q0", text)?);
    }
    if let Some(text) = v0 {
        v.extend(parse_joint_values("--v0", text)?);
    }
    Ok(ImportOptions {
        q0: q,
        v0: v,
        package_path: package_path.to_vec(),
        floating_base,
    })
}
