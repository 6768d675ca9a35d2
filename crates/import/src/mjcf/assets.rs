//! `<asset>`: meshes (file, scale) and materials (colour) that geoms refer to (MuJoCo
//! XML reference, "asset/mesh", "asset/material"). A mesh without `name` is named by
//! its file name without extension; relative files are looked up in `meshdir`.

use std::collections::HashMap;

use nalgebra::Vector3;

use super::attrs::{reals_n, vec3};
use super::compiler::Compiler;
use super::defaults::{Defaults, MAIN};
use super::geom::{MeshAsset, Meshes};
use super::xml::Element;
use crate::ImportError;

/// Meshes and material colours of the model.
#[derive(Debug, Default)]
pub(crate) struct Assets {
    /// Meshes by name.
    pub meshes: Meshes,
    /// Material rgba by name.
    pub materials: HashMap<String, [f64; 4]>,
}

impl Assets {
    /// Reads every `<asset>` section.
    pub fn from_root(root: &Element, c: &Compiler, d: &Defaults) -> Result<Assets, ImportError> {
        let mut assets = Assets::default();
        for section in root.children_named("asset") {
            for e in &section.children {
                let a = d.resolve(e, MAIN)?;
                match e.name.as_str() {
                    "mesh" => {
                        let Some(file) = a.get("file") else {
                            // vertex-defined meshes have no file
                            if let Some(name) = e.name_attr() {
                                assets.meshes.insert(
                                    name.to_string(),
                                    MeshAsset {
                                        file: String::new(),
                                        path: None,
                                        scale: Vector3::repeat(1.0),
                                    },
                                );
                            }
                            continue;
                        };
                        let name = e.name_attr().map(str::to_string).unwrap_or_else(|| {
                            std::path::Path::new(file)
                                .file_stem()
                                .map(|s| s.to_string_lossy().into_owned())
                                .unwrap_or_default()
                        });
                        let scale = match a.get("scale") {
                            Some(s) => vec3(e, "scale", s)?,
                            None => Vector3::repeat(1.0),
                        };
                        let path = c.meshdir.join(file);
                        assets.meshes.insert(
                            name,
                            MeshAsset {
                                file: file.to_string(),
                                path: path.exists().then_some(path),
                                scale,
                            },
                        );
                    }
                    "material" => {
                        if let (Some(name), Some(rgba)) = (e.name_attr(), a.get("rgba")) {
                            let v = reals_n(e, "rgba", rgba, 4)?;
                            assets
                                .materials
                                .insert(name.to_string(), [v[0], v[1], v[2], v[3]]);
                        }
                    }
                    _ => {}
                }
            }
        }
        Ok(assets)
    }
}
