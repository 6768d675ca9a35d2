//! Property tests of Euler angles for all 12 sequences.

mod common;

use common::*;
use mbs_kinematics::euler_angles::*;
use mbs_kinematics::euler_params::rotation_unit;
use mbs_kinematics::{KinematicsError, unskew};
use nalgebra::{Matrix3, Vector3};
use proptest::prelude::*;
use std::f64::consts::{FRAC_PI_2, PI};

const TOL: f64 = DEFAULT_SINGULARITY_TOL;

fn sequence() -> impl Strategy<Value = EulerSequence> {
    (0usize..12).prop_map(|i| EulerSequence::ALL[i])
}

/// A sequence with angles at least 0.05 rad away from its gimbal lock, in the
/// canonical ranges returned by `from_rotation`.
fn regular_angles() -> impl Strategy<Value = (EulerSequence, Vector3<f64>)> {
    (sequence(), -PI..PI, 0.05..(PI - 0.05), -PI..PI).prop_map(|(seq, a, b, c)| {
        let beta = if seq.is_proper() { b } else { b - FRAC_PI_2 };
        (seq, Vector3::new(a, beta, c))
    })
}

/// Any angles, with β anywhere (also at or near the singularity).
fn any_angles() -> impl Strategy<Value = (EulerSequence, Vector3<f64>)> {
    (sequence(), vec3(2.0 * PI))
}

#[test]
fn zxz_matches_thesis_eq_2_4_1() {
    // Chiou's passive elementary matrices (eq 2.4.4) and R = R(k'',γ) R(i',β) R(k,α);
    // our A must be Rᵀ.
    let (al, be, ga): (f64, f64, f64) = (0.3, 1.1, -2.0);
    let rk = |t: f64| Matrix3::new(t.cos(), t.sin(), 0.0, -t.sin(), t.cos(), 0.0, 0.0, 0.0, 1.0);
    let ri = |t: f64| Matrix3::new(1.0, 0.0, 0.0, 0.0, t.cos(), t.sin(), 0.0, -t.sin(), t.cos());
    let r = rk(ga) * ri(be) * rk(al);
    let a = rotation(EulerSequence::Zxz, &Vector3::new(al, be, ga));
    assert!(max_abs3(&(a - r.transpose())) < 1e-15);
    // eq 2.4.7 (with α and γ in the places eq 2.4.1 gives them): cos β = r33.
    assert!((a[(2, 2)] - be.cos()).abs() < 1e-15);
    let back = from_rotation(EulerSequence::Zxz, &a, TOL).unwrap();
    assert!((back - Vector3::new(al, be, ga)).norm() < 1e-14);
}

#[test]
fn names_and_kinds() {
    assert_eq!(EulerSequence::Zxz.to_string(), "ZXZ");
    assert_eq!(EulerSequence::Zyx.to_string(), "ZYX");
    assert_eq!(
        EulerSequence::ALL.iter().filter(|s| s.is_proper()).count(),
        6
    );
    let names: std::collections::HashSet<String> =
        EulerSequence::ALL.iter().map(|s| s.to_string()).collect();
    assert_eq!(names.len(), 12);
}

#[test]
fn gimbal_lock_is_a_typed_error_with_the_value() {
    // ZXZ at β = 0: the identity.
    let err = from_rotation(EulerSequence::Zxz, &Matrix3::identity(), TOL).unwrap_err();
    match err {
        KinematicsError::GimbalLock {
            sequence,
            sin_beta,
            cos_beta,
            tolerance,
        } => {
            assert_eq!(sequence, EulerSequence::Zxz);
            assert_eq!(sin_beta, 0.0);
            assert_eq!(cos_beta, 1.0);
            assert_eq!(tolerance, TOL);
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(err.to_string().contains("sin β"), "{err}");
    // Near (not at) the singularity, with a custom tolerance.
    let ang = Vector3::new(0.4, 1e-5, 0.2);
    let a = rotation(EulerSequence::Zyz, &ang);
    match from_rotation(EulerSequence::Zyz, &a, 1e-4) {
        Err(KinematicsError::GimbalLock { sin_beta, .. }) => {
            assert!((sin_beta - 1e-5).abs() < 1e-12)
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(from_rotation(EulerSequence::Zyz, &a, 1e-6).is_ok());
    // Tait–Bryan at β = π/2: cos β is the singular factor.
    let ang = Vector3::new(0.4, FRAC_PI_2, 0.2);
    let err = rates_from_omega(EulerSequence::Zyx, &ang, &Vector3::x(), TOL).unwrap_err();
    assert!(err.to_string().contains("cos β"), "{err}");
    match err {
        KinematicsError::GimbalLock {
            cos_beta, sin_beta, ..
        } => {
            assert!(cos_beta.abs() < 1e-15 && (sin_beta - 1.0).abs() < 1e-15)
        }
        other => panic!("unexpected {other:?}"),
    }
    // Non-finite input is reported, not propagated.
    let nan = Matrix3::from_element(f64::NAN);
    assert!(from_rotation(EulerSequence::Xyz, &nan, TOL).is_err());
    assert!(
        rates_from_omega_body(
            EulerSequence::Xyx,
            &Vector3::new(0.0, f64::NAN, 0.0),
            &Vector3::x(),
            TOL
        )
        .is_err()
    );
    assert!(
        accelerations_from_omega_dot(
            EulerSequence::Xyx,
            &Vector3::zeros(),
            &Vector3::zeros(),
            &Vector3::x(),
            TOL
        )
        .is_err()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    /// angles → A → angles away from the singularity, for all 12 sequences; the
    /// Euler-parameter form gives the same rotation.
    #[test]
    fn round_trip((seq, ang) in regular_angles()) {
        let a = rotation(seq, &ang);
        prop_assert!(max_abs3(&(a.transpose() * a - Matrix3::identity())) < 1e-14);
        let back = from_rotation(seq, &a, TOL).unwrap();
        for k in 0..3 {
            prop_assert!(angle_diff(back[k], ang[k]).abs() < 1e-12, "{seq}: {ang} → {back}");
        }
        let p = to_euler_params(seq, &ang);
        prop_assert!((p.norm() - 1.0).abs() < 1e-15);
        prop_assert!(max_abs3(&(rotation_unit(&p) - a)) < 1e-14);
        let back = from_euler_params(seq, &(2.0 * p), TOL).unwrap();
        prop_assert!(max_abs3(&(rotation(seq, &back) - a)) < 1e-12);
    }

    /// Any rotation (including 180° ones) → angles → the same rotation; the lenient
    /// variant never fails and reproduces the rotation even at gimbal lock.
    #[test]
    fn any_rotation_is_reproduced(seq in sequence(), p in any_params()) {
        let a = rotation_unit(&p);
        if let Ok(ang) = from_rotation(seq, &a, TOL) {
            prop_assert!(max_abs3(&(rotation(seq, &ang) - a)) < 1e-7);
        }
        let ang = from_rotation_lenient(seq, &a);
        prop_assert!(max_abs3(&(rotation(seq, &ang) - a)) < 1e-7);
    }

    /// At gimbal lock exactly (β = 0, π for proper; ±π/2 for Tait–Bryan) the checked
    /// form fails and the lenient one returns γ = 0 and the right rotation.
    #[test]
    fn lenient_at_gimbal_lock(seq in sequence(), a in -PI..PI, c in -PI..PI, which in prop::bool::ANY) {
        let beta = match (seq.is_proper(), which) {
            (true, false) => 0.0,
            (true, true) => PI,
            (false, false) => FRAC_PI_2,
            (false, true) => -FRAC_PI_2,
        };
        let m = rotation(seq, &Vector3::new(a, beta, c));
        prop_assert!(from_rotation(seq, &m, TOL).is_err());
        let ang = from_rotation_lenient(seq, &m);
        prop_assert_eq!(ang[2], 0.0);
        prop_assert!(max_abs3(&(rotation(seq, &ang) - m)) < 1e-12);
    }

    /// ω̃ = ȦAᵀ and ω̃' = AᵀȦ with Ȧ by central differences along θ + tθ̇ (thesis eq 2.7.7),
    /// for ω = Bθ̇ and ω' = B'θ̇; and the inverses away from the singularity.
    #[test]
    fn rate_matrices((seq, ang) in any_angles(), rates in vec3(3.0)) {
        let h = 1e-5;
        let a = rotation(seq, &ang);
        let adot = (rotation(seq, &(ang + h * rates)) - rotation(seq, &(ang - h * rates))) / (2.0 * h);
        let w = omega_from_rates(seq, &ang, &rates);
        let wb = omega_body_from_rates(seq, &ang, &rates);
        prop_assert!((unskew(&(adot * a.transpose())) - w).norm() < 1e-8);
        prop_assert!((unskew(&(a.transpose() * adot)) - wb).norm() < 1e-8);
        prop_assert!((a * wb - w).norm() < 1e-12);
        let det = rate_matrix(seq, &ang).determinant();
        prop_assert!((det.abs() - seq.singular_factor(ang[1]).abs()).abs() < 1e-12);
        if seq.singular_factor(ang[1]).abs() > 1e-3 {
            let r = rates_from_omega(seq, &ang, &w, TOL).unwrap();
            prop_assert!((r - rates).norm() < 1e-9 * (1.0 + rates.norm()) / seq.singular_factor(ang[1]).abs());
            let r = rates_from_omega_body(seq, &ang, &wb, TOL).unwrap();
            prop_assert!((r - rates).norm() < 1e-9 * (1.0 + rates.norm()) / seq.singular_factor(ang[1]).abs());
        }
    }

    /// Ḃ and Ḃ' by central differences along θ + tθ̇; θ̈ from ω̇ inverts ω̇ = Bθ̈ + Ḃθ̇.
    #[test]
    fn rate_matrix_derivatives((seq, ang) in any_angles(), rates in vec3(3.0), acc in vec3(3.0)) {
        let h = 1e-5;
        let fd = (rate_matrix(seq, &(ang + h * rates)) - rate_matrix(seq, &(ang - h * rates))) / (2.0 * h);
        prop_assert!(max_abs3(&(fd - rate_matrix_dot(seq, &ang, &rates))) < 1e-8);
        let fd = (rate_matrix_body(seq, &(ang + h * rates)) - rate_matrix_body(seq, &(ang - h * rates))) / (2.0 * h);
        prop_assert!(max_abs3(&(fd - rate_matrix_body_dot(seq, &ang, &rates))) < 1e-8);
        // ω̇ along θ(t) = θ + tθ̇ + ½t²θ̈ by central differences.
        let traj = |t: f64| ang + t * rates + 0.5 * t * t * acc;
        let rate_at = |t: f64| rates + t * acc;
        let wd = (omega_from_rates(seq, &traj(h), &rate_at(h)) - omega_from_rates(seq, &traj(-h), &rate_at(-h))) / (2.0 * h);
        let wbd = (omega_body_from_rates(seq, &traj(h), &rate_at(h)) - omega_body_from_rates(seq, &traj(-h), &rate_at(-h))) / (2.0 * h);
        let b = rate_matrix(seq, &ang);
        prop_assert!((b * acc + rate_matrix_dot(seq, &ang, &rates) * rates - wd).norm() < 1e-7);
        let bb = rate_matrix_body(seq, &ang);
        prop_assert!((bb * acc + rate_matrix_body_dot(seq, &ang, &rates) * rates - wbd).norm() < 1e-7);
        let f = seq.singular_factor(ang[1]).abs();
        if f > 1e-3 {
            let exact_wd = b * acc + rate_matrix_dot(seq, &ang, &rates) * rates;
            let back = accelerations_from_omega_dot(seq, &ang, &rates, &exact_wd, TOL).unwrap();
            prop_assert!((back - acc).norm() < 1e-10 * (1.0 + acc.norm() + rates.norm().powi(2)) / f);
            let exact_wbd = bb * acc + rate_matrix_body_dot(seq, &ang, &rates) * rates;
            let back = accelerations_from_omega_body_dot(seq, &ang, &rates, &exact_wbd, TOL).unwrap();
            prop_assert!((back - acc).norm() < 1e-10 * (1.0 + acc.norm() + rates.norm().powi(2)) / f);
        }
    }
}
