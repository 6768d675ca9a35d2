//! Property tests of Euler parameters: conversions, E/G identities, derivative relations.

mod common;

use common::*;
use mbs_kinematics::euler_params::*;
use mbs_kinematics::{KinematicsError, skew, unskew};
use nalgebra::{Matrix3, Matrix4, Vector3, Vector4};
use proptest::prelude::*;
use std::f64::consts::PI;

/// A smooth trajectory p(t) = p0 ⊗ exp(θ(t)/2), θ(t) = a t + b t², for finite
/// differences of the derivative relations.
fn trajectory(p0: &EulerParams, a: &Vector3<f64>, b: &Vector3<f64>, t: f64) -> EulerParams {
    product(p0, &from_rotation_vector(&(a * t + b * (t * t))))
}

fn fd1<F: Fn(f64) -> Vector4<f64>>(f: F, h: f64) -> Vector4<f64> {
    (f(h) - f(-h)) / (2.0 * h)
}

fn fd2<F: Fn(f64) -> Vector4<f64>>(f: F, h: f64) -> Vector4<f64> {
    (f(h) - 2.0 * f(0.0) + f(-h)) / (h * h)
}

#[test]
fn identity_is_identity() {
    assert_eq!(rotation_unit(&identity()), Matrix3::identity());
    assert_eq!(from_rotation(&Matrix3::identity()), identity());
}

#[test]
fn half_turns_about_axes() {
    // 180° about x: diag(1, −1, −1) ↔ ±[0, 1, 0, 0].
    let a = Matrix3::from_diagonal(&Vector3::new(1.0, -1.0, -1.0));
    let p = from_rotation(&a);
    assert!(params_dist(&p, &Vector4::new(0.0, 1.0, 0.0, 0.0)) < 1e-15);
    let (u, phi) = to_axis_angle(&p);
    assert!((phi - PI).abs() < 1e-15 && (u.x.abs() - 1.0).abs() < 1e-15);
}

#[test]
fn zero_axis_is_a_typed_error() {
    match try_from_axis_angle(&Vector3::zeros(), 1.0) {
        Err(KinematicsError::ZeroAxis { norm }) => assert_eq!(norm, 0.0),
        other => panic!("expected ZeroAxis, got {other:?}"),
    }
    assert!(matches!(
        try_from_axis_angle(&Vector3::new(f64::NAN, 0.0, 0.0), 1.0),
        Err(KinematicsError::ZeroAxis { .. })
    ));
    assert!(try_from_axis_angle(&Vector3::z(), 1.0).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    /// p → A → p for every angle, including 180° rotations and the identity.
    #[test]
    fn matrix_round_trip(p in any_params()) {
        let a = rotation_unit(&p);
        prop_assert!(max_abs3(&(a.transpose() * a - Matrix3::identity())) < 1e-14);
        prop_assert!((a.determinant() - 1.0).abs() < 1e-14);
        let q = from_rotation(&a);
        prop_assert!(q[0] >= 0.0);
        prop_assert!((q.norm() - 1.0).abs() < 1e-15);
        prop_assert!(params_dist(&p, &q) < 1e-14, "p = {p}, q = {q}");
        prop_assert!(max_abs3(&(rotation_unit(&q) - a)) < 1e-14);
    }

    /// `rotation` does not depend on ‖p‖.
    #[test]
    fn rotation_is_scale_invariant(p in any_params(), s in 0.1..10.0f64) {
        prop_assert!(max_abs3(&(rotation(&(s * p)) - rotation_unit(&p))) < 1e-14);
    }

    /// axis–angle → p → axis–angle, for φ ∈ [0, π] including π exactly.
    #[test]
    fn axis_angle_round_trip(u in unit3(), phi in prop_oneof![0.0..PI, Just(PI), Just(0.0)], s in 0.5..2.0f64) {
        let p = from_axis_angle(&(s * u), phi);
        prop_assert!((p.norm() - 1.0).abs() < 1e-15);
        let (v, psi) = to_axis_angle(&p);
        prop_assert!((psi - phi).abs() < 1e-14);
        if phi > 1e-6 && phi < PI - 1e-6 {
            prop_assert!((v - u).norm() < 1e-12);
        }
        prop_assert!(max_abs3(&(rotation_unit(&from_axis_angle(&v, psi)) - rotation_unit(&p))) < 1e-14);
        // thesis eq 2.3.1: A = u uᵀ + cos φ (I − u uᵀ) + sin φ ũ.
        let uu = u * u.transpose();
        let a = uu + phi.cos() * (Matrix3::identity() - uu) + phi.sin() * skew(&u);
        prop_assert!(max_abs3(&(a - rotation_unit(&p))) < 1e-14);
    }

    /// Rotation vector ↔ p, for every angle.
    #[test]
    fn rotation_vector_round_trip(p in any_params()) {
        let theta = to_rotation_vector(&p);
        prop_assert!(theta.norm() <= PI + 1e-15);
        prop_assert!(params_dist(&from_rotation_vector(&theta), &p) < 1e-14);
    }

    /// E/G identities (NOTATION.md): A = E Gᵀ, E p = G p = 0, E Eᵀ = G Gᵀ = I,
    /// Eᵀ E = Gᵀ G = I − p pᵀ, Aᵀ E = G, and the Nikravesh alias L = G.
    #[test]
    fn e_g_identities(p in any_params()) {
        let (e, g) = (e_matrix(&p), g_matrix(&p));
        prop_assert!(max_abs3(&(e * g.transpose() - rotation_unit(&p))) < 1e-14);
        prop_assert!((e * p).norm() < 1e-15 && (g * p).norm() < 1e-15);
        prop_assert!(max_abs3(&(e * e.transpose() - Matrix3::identity())) < 1e-14);
        prop_assert!(max_abs3(&(g * g.transpose() - Matrix3::identity())) < 1e-14);
        let proj = Matrix4::identity() - p * p.transpose();
        prop_assert!((e.transpose() * e - proj).abs().max() < 1e-14);
        prop_assert!((g.transpose() * g - proj).abs().max() < 1e-14);
        prop_assert!((rotation_unit(&p).transpose() * e - g).abs().max() < 1e-14);
        prop_assert_eq!(l_matrix(&p), g);
    }

    /// p ⊗ q composes rotations; the conjugate inverts them.
    #[test]
    fn product_composes(p in any_params(), q in any_params()) {
        let pq = product(&p, &q);
        prop_assert!(max_abs3(&(rotation_unit(&pq) - rotation_unit(&p) * rotation_unit(&q))) < 1e-14);
        prop_assert!(params_dist(&product(&p, &conjugate(&p)), &identity()) < 1e-15);
    }

    /// ω = 2Eṗ, ω' = 2Gṗ and back; ω = A ω'; pᵀṗ = 0; Ȧ = ω̃A = Aω̃' (thesis eq 2.7.6),
    /// with Ȧ also by central differences of A(p + tṗ) (exact for a quadratic).
    #[test]
    fn angular_velocity_relations(p in any_params(), w_body in vec3(10.0)) {
        let pdot = pdot_from_omega_body(&p, &w_body);
        prop_assert!(p.dot(&pdot).abs() < 1e-14);
        prop_assert!((normalization_velocity(&p, &pdot)).abs() < 1e-13);
        prop_assert!((omega_body_from_pdot(&p, &pdot) - w_body).norm() < 1e-13);
        let a = rotation_unit(&p);
        let w = omega_from_pdot(&p, &pdot);
        prop_assert!((w - a * w_body).norm() < 1e-13);
        prop_assert!((pdot_from_omega(&p, &w) - pdot).norm() < 1e-13);
        let adot = rotation_dot(&p, &pdot);
        prop_assert!(max_abs3(&(adot - skew(&w) * a)) < 1e-12);
        prop_assert!(max_abs3(&(adot - a * skew(&w_body))) < 1e-12);
        prop_assert!((unskew(&(adot * a.transpose())) - w).norm() < 1e-12);
        let h = 1e-3;
        let fd = (rotation_unit(&(p + h * pdot)) - rotation_unit(&(p - h * pdot))) / (2.0 * h);
        prop_assert!(max_abs3(&(fd - adot)) < 1e-10);
        // thesis eq 2.8.2 remark: 4ṗᵀṗ = |ω|².
        prop_assert!((4.0 * pdot.norm_squared() - w.norm_squared()).abs() < 1e-11);
    }

    /// Ġṗ = Ėṗ = 0 for any ṗ; Ġ, Ė by central differences; Ė Gᵀ = E Ġᵀ.
    #[test]
    fn g_dot_identities(p in any_params(), pdot in (vec3(3.0), -3.0..3.0f64).prop_map(|(v, s)| Vector4::new(s, v.x, v.y, v.z))) {
        prop_assert!((g_matrix_dot(&pdot) * pdot).norm() < 1e-13);
        prop_assert!((e_matrix_dot(&pdot) * pdot).norm() < 1e-13);
        let h = 1e-3;
        let fd = (g_matrix(&(p + h * pdot)) - g_matrix(&(p - h * pdot))) / (2.0 * h);
        prop_assert!((fd - g_matrix_dot(&pdot)).abs().max() < 1e-12);
        let fd = (e_matrix(&(p + h * pdot)) - e_matrix(&(p - h * pdot))) / (2.0 * h);
        prop_assert!((fd - e_matrix_dot(&pdot)).abs().max() < 1e-12);
        let (l, r) = (e_matrix_dot(&pdot) * g_matrix(&p).transpose(), e_matrix(&p) * g_matrix_dot(&pdot).transpose());
        prop_assert!(max_abs3(&(l - r)) < 1e-12);
    }

    /// Second-derivative relations on a smooth trajectory, by finite differences:
    /// ω̇' = 2Gp̈, ω̇ = 2Ep̈, p̈ = ½Gᵀω̇' − ¼|ω'|²p (thesis eq 2.8.5) and its global form,
    /// and the normalization γ: 2pᵀp̈ = −2ṗᵀṗ.
    #[test]
    fn acceleration_relations(p0 in any_params(), a in vec3(2.0), b in vec3(2.0)) {
        let traj = |t: f64| trajectory(&p0, &a, &b, t);
        let h = 1e-4;
        let p = traj(0.0);
        let pdot = fd1(traj, h);
        let pddot = fd2(traj, 1e-3);
        let w_body_at = |t: f64| omega_body_from_pdot(&traj(t), &fd1(|s| traj(t + s), h));
        let w_at = |t: f64| omega_from_pdot(&traj(t), &fd1(|s| traj(t + s), h));
        let w_body = w_body_at(0.0);
        let w = w_at(0.0);
        let hw = 1e-3;
        let w_body_dot = (w_body_at(hw) - w_body_at(-hw)) / (2.0 * hw);
        let w_dot = (w_at(hw) - w_at(-hw)) / (2.0 * hw);
        prop_assert!((omega_body_dot_from_pddot(&p, &pddot) - w_body_dot).norm() < 1e-4);
        prop_assert!((omega_dot_from_pddot(&p, &pddot) - w_dot).norm() < 1e-4);
        let pdd_body = pddot_from_omega_body_dot(&p, &w_body, &w_body_dot);
        let pdd_glob = pddot_from_omega_dot(&p, &w, &w_dot);
        prop_assert!((pdd_body - pddot).norm() < 1e-4, "{pdd_body} vs {pddot}");
        prop_assert!((pdd_glob - pddot).norm() < 1e-4);
        // Exact (not FD) consistency of the analytic relations among themselves.
        let pdot_exact = pdot_from_omega_body(&p, &w_body);
        prop_assert!((pdot_exact - pdot).norm() < 1e-6);
        let pdd = pddot_from_omega_body_dot(&p, &w_body, &w_body_dot);
        prop_assert!(((normalization_jacobian(&p) * pdd)[0] - normalization_gamma(&pdot_exact)).abs() < 1e-12);
        prop_assert!((omega_body_dot_from_pddot(&p, &pdd) - w_body_dot).norm() < 1e-12);
        let pdd_g = pddot_from_omega_dot(&p, &(rotation_unit(&p) * w_body), &(rotation_unit(&p) * w_body_dot));
        prop_assert!((pdd_g - pdd).norm() < 1e-12, "global and body forms agree (ω̇ = Aω̇' as Ȧω' = ω̃Aω' = 0)");
    }

    /// Normalization constraint: Φᴺ, its Jacobian 2pᵀ by central differences.
    #[test]
    fn normalization_derivatives(p in general_params(), s in 0.5..1.5f64, d in general_params()) {
        let q = s * p;
        prop_assert!((normalization(&q) - (s * s - 1.0)).abs() < 1e-14);
        let h = 1e-5;
        let fd = (normalization(&(q + h * d)) - normalization(&(q - h * d))) / (2.0 * h);
        prop_assert!((fd - (normalization_jacobian(&q) * d)[0]).abs() < 1e-9);
    }

    /// ∂(A(p/‖p‖) s')/∂p by central differences, at non-unit p.
    #[test]
    fn rotated_vector_jacobian_fd(p in any_params(), scale in 0.5..2.0f64, s in vec3(2.0)) {
        let q = scale * p;
        let jac = rotated_vector_jacobian(&q, &s);
        let h = 1e-6;
        for k in 0..4 {
            let mut dq = Vector4::zeros();
            dq[k] = h;
            let fd = (rotation(&(q + dq)) * s - rotation(&(q - dq)) * s) / (2.0 * h);
            prop_assert!((fd - jac.column(k)).norm() < 1e-7, "column {k}");
        }
        prop_assert!((jac * q).norm() < 1e-13);
    }
}
