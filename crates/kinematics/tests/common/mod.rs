//! Shared proptest strategies and helpers for the kinematics property tests.
#![allow(dead_code)]

use mbs_kinematics::EulerParams;
use nalgebra::{Matrix3, Vector3, Vector4};
use proptest::prelude::*;

/// Number of cases per property (acceptance: at least 256).
pub const CASES: u32 = 256;

pub fn vec3(r: f64) -> impl Strategy<Value = Vector3<f64>> {
    (-r..r, -r..r, -r..r).prop_map(|(x, y, z)| Vector3::new(x, y, z))
}

/// A unit vector (uniform enough for testing).
pub fn unit3() -> impl Strategy<Value = Vector3<f64>> {
    vec3(1.0)
        .prop_filter("non-degenerate axis", |v| v.norm() > 0.1)
        .prop_map(|v| v.normalize())
}

/// Generic unit Euler parameters, with either sign of e0.
pub fn general_params() -> impl Strategy<Value = EulerParams> {
    (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64)
        .prop_map(|(a, b, c, d)| Vector4::new(a, b, c, d))
        .prop_filter("non-degenerate", |p| p.norm() > 0.1)
        .prop_map(|p| p.normalize())
}

/// 180° rotations: e0 = 0 exactly, about a random or a coordinate axis.
pub fn half_turn_params() -> impl Strategy<Value = EulerParams> {
    prop_oneof![
        unit3().prop_map(|u| Vector4::new(0.0, u.x, u.y, u.z)),
        (0usize..3, prop::bool::ANY).prop_map(|(k, neg)| {
            let mut p = Vector4::zeros();
            p[k + 1] = if neg { -1.0 } else { 1.0 };
            p
        }),
    ]
}

/// Rotations close to the identity (tiny vector part), including exactly the identity.
pub fn near_identity_params() -> impl Strategy<Value = EulerParams> {
    prop_oneof![
        Just(Vector4::new(1.0, 0.0, 0.0, 0.0)),
        vec3(1e-7).prop_map(|e| Vector4::new(1.0, e.x, e.y, e.z).normalize()),
    ]
}

/// Every kind of rotation: generic, 180°, near-identity.
pub fn any_params() -> impl Strategy<Value = EulerParams> {
    prop_oneof![6 => general_params(), 2 => half_turn_params(), 1 => near_identity_params()]
}

pub fn max_abs3(m: &Matrix3<f64>) -> f64 {
    m.abs().max()
}

/// Distance between two Euler parameters as rotations: min(‖p − q‖, ‖p + q‖).
pub fn params_dist(p: &EulerParams, q: &EulerParams) -> f64 {
    (p - q).norm().min((p + q).norm())
}

/// Angle difference wrapped to (−π, π].
pub fn angle_diff(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(std::f64::consts::TAU);
    if d > std::f64::consts::PI {
        d - std::f64::consts::TAU
    } else {
        d
    }
}
