//! `<compiler>` and `<option>` settings (MuJoCo XML reference, "compiler", "option").

use std::path::{Path, PathBuf};

use nalgebra::Vector3;

use super::attrs::{boolean, invalid, keyword, reals_n, vec3};
use super::xml::Element;
use crate::{ImportError, ImportNote};

/// When body mass properties come from the geoms (`compiler/inertiafromgeom`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InertiaFromGeom {
    /// Only for bodies without `<inertial>` (MuJoCo's default, `auto`).
    Auto,
    /// Always, overriding `<inertial>`.
    Always,
    /// Never: a body without `<inertial>` is massless.
    Never,
}

/// The compiler settings the import uses.
#[derive(Clone, Debug)]
pub(crate) struct Compiler {
    /// Factor from the file's angles to radians: MuJoCo's default unit is the DEGREE
    /// (`angle="degree"`), `angle="radian"` gives 1.
    pub angle: f64,
    /// `eulerseq`: three of x, y, z (intrinsic, rotating axes) or X, Y, Z (extrinsic,
    /// fixed axes); default `xyz`.
    pub eulerseq: [u8; 3],
    /// `inertiafromgeom`.
    pub inertia_from_geom: InertiaFromGeom,
    /// `inertiagrouprange`: geoms of these groups give mass (default 0 5).
    pub inertia_groups: (i64, i64),
    /// `autolimits` (default true): a `range` without `limited` makes a joint limited.
    pub autolimits: bool,
    /// `settotalmass`: if positive, every body's mass and inertia are scaled so that
    /// the masses add up to it (MuJoCo's `mj_setTotalmass`).
    pub total_mass: Option<f64>,
    /// Where mesh files are looked up (`meshdir`, else `assetdir`, relative to the
    /// model file's directory).
    pub meshdir: PathBuf,
}

impl Compiler {
    /// The settings of every `<compiler>` of the model (later ones win); notes for the
    /// settings that change mass properties but are not applied.
    pub fn from_root(
        root: &Element,
        model_dir: &Path,
        notes: &mut Vec<ImportNote>,
    ) -> Result<Compiler, ImportError> {
        let mut c = Compiler {
            angle: std::f64::consts::PI / 180.0,
            eulerseq: *b"xyz",
            inertia_from_geom: InertiaFromGeom::Auto,
            inertia_groups: (0, 5),
            autolimits: true,
            total_mass: None,
            meshdir: model_dir.to_path_buf(),
        };
        let mut assetdir = None;
        let mut meshdir = None;
        for e in root.children_named("compiler") {
            if let Some(v) = e.attr("angle") {
                c.angle = match keyword(e, "angle", v, &["degree", "radian"])? {
                    "degree" => std::f64::consts::PI / 180.0,
                    _ => 1.0,
                };
            }
            if let Some(v) = e.attr("eulerseq") {
                let b = v.trim().as_bytes();
                if b.len() != 3 || !b.iter().all(|c| b"xyzXYZ".contains(c)) {
                    return Err(invalid(e, "eulerseq", v, "must be 3 characters of xyzXYZ"));
                }
                c.eulerseq = [b[0], b[1], b[2]];
            }
            if let Some(v) = e.attr("inertiafromgeom") {
                c.inertia_from_geom =
                    match keyword(e, "inertiafromgeom", v, &["auto", "true", "false"])? {
                        "true" => InertiaFromGeom::Always,
                        "false" => InertiaFromGeom::Never,
                        _ => InertiaFromGeom::Auto,
                    };
            }
            if let Some(v) = e.attr("inertiagrouprange") {
                let g = reals_n(e, "inertiagrouprange", v, 2)?;
                c.inertia_groups = (g[0] as i64, g[1] as i64);
            }
            if let Some(v) = e.attr("autolimits") {
                c.autolimits = boolean(e, "autolimits", v)?;
            }
            if let Some(v) = e.attr("coordinate")
                && v.trim() != "local"
            {
                return Err(ImportError::Unsupported {
                    element: e.label(),
                    reason: format!(
                        "coordinate=\"{v}\": only local coordinates are supported (MuJoCo \
                         removed global coordinates in 2.3.3)"
                    ),
                });
            }
            if let Some(v) = e.attr("settotalmass") {
                let m = super::attrs::real(e, "settotalmass", v)?;
                c.total_mass = (m > 0.0).then_some(m);
            }
            if let Some(v) = e.attr("meshdir") {
                meshdir = Some(v.to_string());
            }
            if let Some(v) = e.attr("assetdir") {
                assetdir = Some(v.to_string());
            }
            for attr in [
                "boundmass",
                "boundinertia",
                "balanceinertia",
                "exactmeshinertia",
                "fusestatic",
                "alignfree",
            ] {
                if let Some(v) = e.attr(attr) {
                    notes.push(ImportNote {
                        element: "compiler".into(),
                        note: format!("{attr}=\"{v}\" not applied"),
                    });
                }
            }
        }
        if let Some(d) = meshdir.or(assetdir) {
            c.meshdir = model_dir.join(d);
        }
        Ok(c)
    }

    /// An angle as written in the file, in radians.
    pub fn radians(&self, value: f64) -> f64 {
        value * self.angle
    }
}

/// `<option>` settings the import uses.
#[derive(Clone, Debug)]
pub(crate) struct Options {
    /// Gravitational acceleration (default 0 0 −9.81; zero if `<flag gravity="disable">`).
    pub gravity: Vector3<f64>,
}

impl Options {
    /// Reads every `<option>`; notes what is not used (time step, integrator, …).
    pub fn from_root(root: &Element, notes: &mut Vec<ImportNote>) -> Result<Options, ImportError> {
        let mut gravity = Vector3::new(0.0, 0.0, -9.81);
        let mut disabled = false;
        for e in root.children_named("option") {
            if let Some(v) = e.attr("gravity") {
                gravity = vec3(e, "gravity", v)?;
            }
            for (k, v) in &e.attrs {
                if k != "gravity" {
                    notes.push(ImportNote {
                        element: "option".into(),
                        note: format!(
                            "{k}=\"{v}\" not used (mbs chooses its integrator and step; \
                             no fluid, contact or solver settings)"
                        ),
                    });
                }
            }
            for flag in e.children_named("flag") {
                for (k, v) in &flag.attrs {
                    if k == "gravity" {
                        disabled = keyword(flag, k, v, &["enable", "disable"])? == "disable";
                    } else {
                        notes.push(ImportNote {
                            element: "option/flag".into(),
                            note: format!("{k}=\"{v}\" not used"),
                        });
                    }
                }
            }
        }
        if disabled {
            gravity = Vector3::zeros();
        }
        Ok(Options { gravity })
    }
}
