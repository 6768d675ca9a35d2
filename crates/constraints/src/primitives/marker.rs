//! Marker origins and axes as kinematic expressions (thesis eqs 4.2.1–4.2.12, 4.3.2–4.3.3).
//!
//! For a marker with body coordinates s' on a body with frame (r, A, ω'):
//! - origin P = r + A s', Ṗ = ṙ + ω × (A s') = ṙ − A s̃' ω', so ∂Ṗ/∂[ṙ; ω'] = [I, −A s̃'];
//!   P̈ (r̈ = 0, ω̇' = 0) = ω × (ω × A s');
//! - axis x = A x' (x' a column of the marker orientation in body coordinates):
//!   ẋ = −A x̃' ω', ∂ẋ/∂[ṙ; ω'] = [0, −A x̃'], ẍ = ω × (ω × x).
//!
//! Ground markers are constants (zero Jacobian).

use mbs_kinematics::skew;
use mbs_model::Marker;
use nalgebra::Matrix3;

use super::kin::{Kin3, Slot};
use crate::frame::BodyFrame;

/// The origin P of `marker` on a body with frame `f` in `slot`; `moving` is false for
/// ground.
pub fn marker_point(f: &BodyFrame, marker: &Marker, slot: Slot, moving: bool) -> Kin3 {
    let s = f.a * marker.position;
    if !moving {
        return Kin3::constant(f.r + s);
    }
    Kin3::body_fixed(
        slot,
        f.r + s,
        s,
        f.rdot,
        f.omega,
        -f.a * skew(&marker.position),
        true,
    )
}

/// Axis `k` (0 = x, 1 = y, 2 = z) of `marker`, in global components.
pub fn marker_axis(f: &BodyFrame, marker: &Marker, k: usize, slot: Slot, moving: bool) -> Kin3 {
    let local = marker.orientation.column(k).into_owned();
    let x = f.a * local;
    if !moving {
        return Kin3::constant(x);
    }
    let jac: Matrix3<f64> = -f.a * skew(&local);
    Kin3::body_fixed(slot, x, x, f.rdot, f.omega, jac, false)
}
