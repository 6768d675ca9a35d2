//! A body's mass properties (MuJoCo XML reference, "body/inertial" and
//! `compiler/inertiafromgeom`): the explicit `<inertial>` rotated into body axes, or
//! the sum of the body's geoms in `compiler/inertiagrouprange`; mesh, height-field and
//! other geoms without a solid formula are refused by name when they would count.

use nalgebra::{Isometry3, Matrix3, UnitQuaternion};

use super::attrs::{invalid, real, reals_n, vec3};
use super::compiler::Compiler;
use super::defaults::Attrs;
use super::frame::orientation;
use super::geom::{Geom, Shape};
use super::inertia::{GeomMass, combine, geom_mass};
use super::xml::Element;
use crate::{ImportError, Inertial};

/// Mass properties from the geoms in `compiler/inertiagrouprange`.
pub(crate) fn geoms_inertial(
    c: &Compiler,
    body: &str,
    geoms: &[Geom],
) -> Result<Option<Inertial>, ImportError> {
    let mut parts = Vec::new();
    for g in geoms {
        if g.group < c.inertia_groups.0 || g.group > c.inertia_groups.1 {
            continue;
        }
        match &g.shape {
            Shape::Solid(s) => parts.push(GeomMass {
                solid: *s,
                mass: geom_mass(s, g.mass, g.density),
                pose: g.pose,
            }),
            Shape::Plane => {}
            Shape::Mesh(m) => {
                return Err(ImportError::Unsupported {
                    element: g.label.clone(),
                    reason: format!(
                        "the mass properties of mesh `{m}` are not computed by the import; \
                         give body `{body}` an <inertial> (or put the geom in a group outside \
                         compiler inertiagrouprange)"
                    ),
                });
            }
            Shape::Other(t) => {
                return Err(ImportError::Unsupported {
                    element: g.label.clone(),
                    reason: format!(
                        "no mass properties for a {t} geom; give body `{body}` an <inertial>"
                    ),
                });
            }
        }
    }
    Ok(combine(&parts))
}

/// `<inertial pos quat|euler|… mass diaginertia|fullinertia>`, inertia rotated into
/// the body axes.
pub(crate) fn explicit_inertial(
    c: &Compiler,
    e: &Element,
    frame: &Isometry3<f64>,
) -> Result<Option<Inertial>, ImportError> {
    let a = Attrs::plain(e);
    let Some(pos) = e.attr("pos") else {
        return Err(invalid(e, "pos", "", "is required"));
    };
    let pos = vec3(e, "pos", pos)?;
    let Some(mass_text) = e.attr("mass") else {
        return Err(invalid(e, "mass", "", "is required"));
    };
    let mass = real(e, "mass", mass_text)?;
    if mass < 0.0 {
        return Err(invalid(e, "mass", mass_text, "must be ≥ 0"));
    }
    let rot: UnitQuaternion<f64> = orientation(&a, c)?;
    let inertia = match (e.attr("diaginertia"), e.attr("fullinertia")) {
        (Some(_), Some(_)) => {
            return Err(invalid(
                e,
                "diaginertia, fullinertia",
                "(both)",
                "give only one",
            ));
        }
        (Some(t), None) => {
            let d = reals_n(e, "diaginertia", t, 3)?;
            if d.iter().any(|&x| x < 0.0) {
                return Err(invalid(e, "diaginertia", t, "must be ≥ 0"));
            }
            let r = rot.to_rotation_matrix();
            r.matrix()
                * Matrix3::from_diagonal(&nalgebra::Vector3::new(d[0], d[1], d[2]))
                * r.matrix().transpose()
        }
        (None, Some(t)) => {
            if e.attrs.iter().any(|(k, _)| {
                ["quat", "euler", "axisangle", "xyaxes", "zaxis"].contains(&k.as_str())
            }) {
                return Err(invalid(
                    e,
                    "fullinertia",
                    t,
                    "cannot be combined with an orientation (MuJoCo XML reference, inertial)",
                ));
            }
            let v = reals_n(e, "fullinertia", t, 6)?;
            Matrix3::new(v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2])
        }
        (None, None) => return Err(invalid(e, "diaginertia", "", "or fullinertia is required")),
    };
    if mass == 0.0 {
        return Ok(None);
    }
    let r = frame.rotation.to_rotation_matrix();
    Ok(Some(Inertial {
        mass,
        com: (frame * nalgebra::Point3::from(pos)).coords,
        inertia: r.matrix() * inertia * r.matrix().transpose(),
    }))
}
