//! Positions and orientations of bodies, geoms, sites and inertial frames (MuJoCo XML
//! reference, "Frame orientations": `quat`, `axisangle`, `xyaxes`, `zaxis`, `euler`;
//! at most one of them per element).

use nalgebra::{Isometry3, Quaternion, Translation3, Unit, UnitQuaternion, Vector3};

use super::attrs::{invalid, reals_n, vec3};
use super::compiler::Compiler;
use super::defaults::Attrs;
use crate::ImportError;

/// The orientation attributes MJCF allows.
const ORIENTATIONS: [&str; 5] = ["quat", "axisangle", "xyaxes", "zaxis", "euler"];

/// The pose given by `pos` (default 0) and the orientation attributes of an element
/// (default identity). An orientation written on the element replaces one from its
/// class.
pub(crate) fn pose(a: &Attrs<'_>, c: &Compiler) -> Result<Isometry3<f64>, ImportError> {
    let pos = match a.get("pos") {
        Some(v) => vec3(a.element, "pos", v)?,
        None => Vector3::zeros(),
    };
    Ok(Isometry3::from_parts(
        Translation3::from(pos),
        orientation(a, c)?,
    ))
}

/// The orientation of an element (identity if none is given).
pub(crate) fn orientation(a: &Attrs<'_>, c: &Compiler) -> Result<UnitQuaternion<f64>, ImportError> {
    let own: Vec<&str> = ORIENTATIONS
        .iter()
        .copied()
        .filter(|k| a.element.attr(k).is_some())
        .collect();
    if own.len() > 1 {
        return Err(ImportError::InvalidValue {
            element: a.element.label(),
            attribute: own.join(", "),
            value: "(several)".into(),
            requirement: "at most one orientation may be given (MuJoCo XML reference, \
                          Frame orientations)"
                .into(),
        });
    }
    let key = own
        .first()
        .copied()
        .or_else(|| ORIENTATIONS.iter().copied().find(|k| a.get(k).is_some()));
    let Some(key) = key else {
        return Ok(UnitQuaternion::identity());
    };
    let text = a.get(key).unwrap_or_default();
    let e = a.element;
    match key {
        "quat" => {
            let q = reals_n(e, key, text, 4)?;
            let q = Quaternion::new(q[0], q[1], q[2], q[3]);
            if q.norm() < 1e-12 {
                return Err(invalid(e, key, text, "must be a nonzero quaternion"));
            }
            Ok(UnitQuaternion::from_quaternion(q))
        }
        "axisangle" => {
            let v = reals_n(e, key, text, 4)?;
            let axis = Vector3::new(v[0], v[1], v[2]);
            let axis = Unit::try_new(axis, 1e-12)
                .ok_or_else(|| invalid(e, key, text, "must have a nonzero axis"))?;
            Ok(UnitQuaternion::from_axis_angle(&axis, c.radians(v[3])))
        }
        "xyaxes" => {
            let v = reals_n(e, key, text, 6)?;
            let x = Vector3::new(v[0], v[1], v[2]);
            let y = Vector3::new(v[3], v[4], v[5]);
            let x = Unit::try_new(x, 1e-12)
                .ok_or_else(|| invalid(e, key, text, "must have a nonzero x axis"))?;
            let y = y - x.into_inner() * x.dot(&y);
            let y = Unit::try_new(y, 1e-12)
                .ok_or_else(|| invalid(e, key, text, "must have a y axis not parallel to x"))?;
            let z = x.cross(&y);
            let m = nalgebra::Matrix3::from_columns(&[x.into_inner(), y.into_inner(), z]);
            Ok(UnitQuaternion::from_rotation_matrix(
                &nalgebra::Rotation3::from_matrix_unchecked(m),
            ))
        }
        "zaxis" => {
            let z = vec3(e, key, text)?;
            z_to(z).ok_or_else(|| invalid(e, key, text, "must be a nonzero vector"))
        }
        _ => {
            let v = reals_n(e, key, text, 3)?;
            Ok(euler(
                &c.eulerseq,
                [c.radians(v[0]), c.radians(v[1]), c.radians(v[2])],
            ))
        }
    }
}

/// The rotation of MuJoCo's `eulerseq`: the i-th angle about the i-th axis, lower case
/// about the rotated (intrinsic) axes — a product on the right —, upper case about the
/// fixed (extrinsic) axes — a product on the left.
pub(crate) fn euler(seq: &[u8; 3], angles: [f64; 3]) -> UnitQuaternion<f64> {
    let mut q = UnitQuaternion::identity();
    for (s, a) in seq.iter().zip(angles) {
        let axis = match s.to_ascii_lowercase() {
            b'x' => Vector3::x_axis(),
            b'y' => Vector3::y_axis(),
            _ => Vector3::z_axis(),
        };
        let r = UnitQuaternion::from_axis_angle(&axis, a);
        q = if s.is_ascii_lowercase() { q * r } else { r * q };
    }
    q
}

/// The shortest rotation taking z to the direction of `v` (MuJoCo's `zaxis` and
/// `fromto` frames; a half turn about x for −z). `None` for a zero vector.
pub(crate) fn z_to(v: Vector3<f64>) -> Option<UnitQuaternion<f64>> {
    let n = v.norm();
    if n < 1e-12 {
        return None;
    }
    let v = v / n;
    let cross = Vector3::z().cross(&v);
    let s = cross.norm();
    let axis = if s < 1e-10 {
        Vector3::x_axis()
    } else {
        Unit::new_unchecked(cross / s)
    };
    let angle = s.atan2(v.z);
    Some(UnitQuaternion::from_axis_angle(&axis, angle))
}
