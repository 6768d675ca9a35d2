//! Markers: a point and a triad of axes fixed in a body (or in ground). Joints and
//! force elements connect markers.

use nalgebra::{Matrix3, Vector3};
use serde::{Deserialize, Serialize};

use crate::ids::BodyRef;

/// A frame fixed in a body: origin `position` and axes `orientation` (columns are the
/// marker's x, y, z axes), both expressed in the body frame (centre-of-mass origin).
/// For ground markers, both are expressed in the global frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Marker {
    /// Unique name.
    pub name: String,
    /// The body the marker is fixed in.
    pub body: BodyRef,
    /// Origin of the marker in the body frame.
    pub position: Vector3<f64>,
    /// Rotation from marker axes to body axes (orthonormal, det +1).
    pub orientation: Matrix3<f64>,
}

impl Marker {
    /// The marker's x axis in the body frame.
    pub fn x_axis(&self) -> Vector3<f64> {
        self.orientation.column(0).into_owned()
    }
    /// The marker's y axis in the body frame.
    pub fn y_axis(&self) -> Vector3<f64> {
        self.orientation.column(1).into_owned()
    }
    /// The marker's z axis in the body frame (the joint axis by convention).
    pub fn z_axis(&self) -> Vector3<f64> {
        self.orientation.column(2).into_owned()
    }
}

/// An orthonormal right-handed triad whose third column is `z` (normalised), with the
/// first column as close as possible to `x_hint` (or to an arbitrary perpendicular when
/// `x_hint` is parallel to `z` or absent). Returns `None` for a zero or non-finite `z`.
pub fn frame_from_z(z: &Vector3<f64>, x_hint: Option<&Vector3<f64>>) -> Option<Matrix3<f64>> {
    let zn = z.norm();
    if !(zn.is_finite() && zn > 1e-12) {
        return None;
    }
    let z = z / zn;
    let project = |v: &Vector3<f64>| {
        let w = v - z * z.dot(v);
        let n = w.norm();
        (n > 1e-9).then(|| w / n)
    };
    let x = x_hint.and_then(project).or_else(|| {
        // the global axis least aligned with z
        let i = z.iamin();
        let mut e = Vector3::zeros();
        e[i] = 1.0;
        project(&e)
    })?;
    let y = z.cross(&x);
    Some(Matrix3::from_columns(&[x, y, z]))
}
