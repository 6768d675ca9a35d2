//! Property tests of Rodrigues parameters (thesis sec 2.5).

mod common;

use common::*;
use mbs_kinematics::KinematicsError;
use mbs_kinematics::euler_params::{self, rotation_unit};
use mbs_kinematics::rodrigues::*;
use mbs_kinematics::unskew;
use nalgebra::{Vector3, Vector4};
use proptest::prelude::*;
use std::f64::consts::PI;

const TOL: f64 = DEFAULT_SINGULARITY_TOL;

#[test]
fn half_turn_is_a_typed_error_with_the_value() {
    let p = Vector4::new(0.0, 0.0, 1.0, 0.0);
    match from_euler_params(&p, TOL) {
        Err(KinematicsError::RodriguesSingular {
            cos_half_angle,
            tolerance,
        }) => {
            assert_eq!(cos_half_angle, 0.0);
            assert_eq!(tolerance, TOL);
        }
        other => panic!("unexpected {other:?}"),
    }
    let a = rotation_unit(&p);
    assert!(matches!(
        from_rotation(&a, TOL),
        Err(KinematicsError::RodriguesSingular { .. })
    ));
    let err = from_axis_angle(&Vector3::x(), PI, TOL).unwrap_err();
    assert!(err.to_string().contains("e0"), "{err}");
    assert!(matches!(
        from_axis_angle(&Vector3::zeros(), 1.0, TOL),
        Err(KinematicsError::ZeroAxis { .. })
    ));
    assert!(from_euler_params(&Vector4::from_element(f64::NAN), TOL).is_err());
    // Just inside the tolerance.
    let p = euler_params::from_axis_angle(&Vector3::z(), PI - 1e-3);
    match from_euler_params(&p, 1e-2) {
        Err(KinematicsError::RodriguesSingular { cos_half_angle, .. }) => {
            assert!((cos_half_angle - (0.5e-3f64).sin()).abs() < 1e-12)
        }
        other => panic!("unexpected {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    /// g ↔ p ↔ A away from φ = ±π; A(g) of eq 2.5.7 equals A(p).
    #[test]
    fn round_trips(u in unit3(), phi in -(PI - 1e-3)..(PI - 1e-3)) {
        let g = from_axis_angle(&u, phi, TOL).unwrap();
        prop_assert!((g - u * (0.5 * phi).tan()).norm() < 1e-10 * (1.0 + g.norm()));
        let p = to_euler_params(&g);
        prop_assert!(p[0] > 0.0 && (p.norm() - 1.0).abs() < 1e-15);
        let a = rotation(&g);
        prop_assert!(max_abs3(&(a - rotation_unit(&p))) < 1e-13);
        prop_assert!(max_abs3(&(a - rotation_unit(&euler_params::from_axis_angle(&u, phi)))) < 1e-13);
        let rel = 1e-12 * (1.0 + g.norm_squared());
        prop_assert!((from_euler_params(&p, TOL).unwrap() - g).norm() < rel);
        prop_assert!((from_euler_params(&-p, TOL).unwrap() - g).norm() < rel);
        prop_assert!((from_rotation(&a, TOL).unwrap() - g).norm() < 1e-10 * (1.0 + g.norm_squared()));
        let (v, psi) = to_axis_angle(&g);
        prop_assert!((psi - phi.abs()).abs() < 1e-12);
        if phi.abs() > 1e-6 {
            prop_assert!((v - u * phi.signum()).norm() < 1e-10);
        }
    }

    /// Any rotation away from ±π: A → g → A.
    #[test]
    fn matrix_round_trip(p in general_params()) {
        prop_assume!(p[0].abs() > 1e-3);
        let a = rotation_unit(&p);
        let g = from_rotation(&a, TOL).unwrap();
        prop_assert!(max_abs3(&(rotation(&g) - a)) < 1e-10);
    }

    /// ω = 2(I + g̃)ġ/(1 + gᵀg), ω' = 2(I − g̃)ġ/(1 + gᵀg): against ω̃ = ȦAᵀ by central
    /// differences, and the inverses.
    #[test]
    fn rates(g in vec3(3.0), gdot in vec3(3.0)) {
        check_rates(g, gdot)?;
    }
}

/// Ȧ by the fourth-order central difference (truncation O(h⁴|ġ|⁵), round-off
/// ≈ ε/h): the second-order one with h = 1e-5 has a truncation error h²|ġ|³/6·c that
/// reached 1e-8 at g = 0, |ġ| ≈ 3.8.
fn rotation_rate(g: &Vector3<f64>, gdot: &Vector3<f64>) -> nalgebra::Matrix3<f64> {
    let h = 1e-4;
    let at = |s: f64| rotation(&(g + s * h * gdot));
    (8.0 * (at(1.0) - at(-1.0)) - (at(2.0) - at(-2.0))) / (12.0 * h)
}

fn check_rates(g: Vector3<f64>, gdot: Vector3<f64>) -> Result<(), TestCaseError> {
    let a = rotation(&g);
    let adot = rotation_rate(&g, &gdot);
    let w = omega_from_rates(&g, &gdot);
    let wb = omega_body_from_rates(&g, &gdot);
    prop_assert!((unskew(&(adot * a.transpose())) - w).norm() < 1e-8);
    prop_assert!((unskew(&(a.transpose() * adot)) - wb).norm() < 1e-8);
    let inverse_tol = 1e-12 * (1.0 + g.norm_squared()) * (1.0 + gdot.norm());
    prop_assert!((rates_from_omega(&g, &w) - gdot).norm() < inverse_tol);
    prop_assert!((rates_from_omega_body(&g, &wb) - gdot).norm() < inverse_tol);
    Ok(())
}

/// The case a random seed found: no rotation, fast rates (the second-order difference
/// was 1e-8 off there).
#[test]
fn rates_at_zero_rotation() {
    check_rates(Vector3::zeros(), Vector3::new(2.57, 0.0, 2.80)).unwrap();
    check_rates(Vector3::zeros(), Vector3::new(-3.0, 3.0, -3.0)).unwrap();
}
