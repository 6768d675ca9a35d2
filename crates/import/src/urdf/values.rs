//! Checked numbers of a URDF: every value the parser passes on is finite, and the
//! errors name the element, the attribute and the value as read.
//!
//! URDF poses (`<origin xyz rpy>`, wiki.ros.org/urdf/XML/joint and …/link) are a
//! translation `xyz` and fixed-axis roll, pitch, yaw `rpy`: R = R_z(yaw) R_y(pitch)
//! R_x(roll).

use nalgebra::{Isometry3, Rotation3, Translation3, UnitQuaternion, Vector3};

use crate::ImportError;

/// `value` if it is finite, else an [`ImportError::InvalidValue`] naming `element` and
/// `attribute`.
pub(super) fn finite(value: f64, element: &str, attribute: &str) -> Result<f64, ImportError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(invalid(
            element,
            attribute,
            value,
            "must be a finite number",
        ))
    }
}

/// A finite three-vector (`xyz`, `rpy`, `size`, `scale`, `axis`).
pub(super) fn finite3(
    v: &[f64; 3],
    element: &str,
    attribute: &str,
) -> Result<Vector3<f64>, ImportError> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(Vector3::new(v[0], v[1], v[2]))
    } else {
        Err(ImportError::InvalidValue {
            element: element.into(),
            attribute: attribute.into(),
            value: format!("\"{} {} {}\"", v[0], v[1], v[2]),
            requirement: "must be three finite numbers".into(),
        })
    }
}

/// A finite value ≥ 0 (mass, damping, friction, radius, …).
pub(super) fn non_negative(value: f64, element: &str, attribute: &str) -> Result<f64, ImportError> {
    let value = finite(value, element, attribute)?;
    if value >= 0.0 {
        Ok(value)
    } else {
        Err(invalid(element, attribute, value, "must be ≥ 0"))
    }
}

/// The pose `<origin xyz rpy>` as the isometry it describes (see the module doc).
pub(super) fn pose(p: &urdf_rs::Pose, element: &str) -> Result<Isometry3<f64>, ImportError> {
    let xyz = finite3(&p.xyz, element, "origin xyz")?;
    let rpy = finite3(&p.rpy, element, "origin rpy")?;
    let rotation = Rotation3::from_euler_angles(rpy.x, rpy.y, rpy.z);
    Ok(Isometry3::from_parts(
        Translation3::from(xyz),
        UnitQuaternion::from_rotation_matrix(&rotation),
    ))
}

/// An [`ImportError::InvalidValue`].
pub(super) fn invalid(
    element: &str,
    attribute: &str,
    value: impl std::fmt::Display,
    requirement: &str,
) -> ImportError {
    ImportError::InvalidValue {
        element: element.into(),
        attribute: attribute.into(),
        value: value.to_string(),
        requirement: requirement.into(),
    }
}
