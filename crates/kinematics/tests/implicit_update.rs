//! Property tests of the closed-form implicit midpoint update (thesis sec 5.5.4).

mod common;

use common::*;
use mbs_kinematics::euler_params::{self, from_rotation_vector, product, rotation_unit};
use mbs_kinematics::implicit_update::*;
use nalgebra::{Matrix4, Vector3};
use proptest::prelude::*;

/// Error after integrating constant ω' over [0, 1] with n steps, against the exact
/// p(1) = p0 ⊗ exp(ω'/2).
fn body_error(p0: &euler_params::EulerParams, w: &Vector3<f64>, n: usize) -> f64 {
    let h = 1.0 / n as f64;
    let mut p = *p0;
    for _ in 0..n {
        p = midpoint_update_body(&p, w, h);
    }
    params_dist(&p, &product(p0, &from_rotation_vector(w)))
}

fn global_error(p0: &euler_params::EulerParams, w: &Vector3<f64>, n: usize) -> f64 {
    let h = 1.0 / n as f64;
    let mut p = *p0;
    for _ in 0..n {
        p = midpoint_update(&p, w, h);
    }
    params_dist(&p, &product(&from_rotation_vector(w), p0))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    /// The closed form (eqs 5.5.4.5–5.5.4.6) solves the implicit midpoint equations
    /// (eq 5.5.4.4) (I − h/2 Ω) p_{n+1} = (I + h/2 Ω) p_n, for both forms of Ω.
    #[test]
    fn solves_the_midpoint_equations(p in any_params(), w in vec3(20.0), h in 1e-4..0.5f64) {
        for (omega, next) in [
            (omega_matrix_body(&w), midpoint_update_body(&p, &w, h)),
            (omega_matrix(&w), midpoint_update(&p, &w, h)),
        ] {
            let i = Matrix4::identity();
            let lhs = (i - 0.5 * h * omega) * next;
            let rhs = (i + 0.5 * h * omega) * p;
            prop_assert!((lhs - rhs).norm() < 1e-14 * (1.0 + h * w.norm()));
            prop_assert!((omega + omega.transpose()).norm() == 0.0, "Ω is skew-symmetric");
        }
        // Ω(ω') p = ½ Gᵀ ω' (thesis eq 2.8.7) and Ω(ω) p = ½ Eᵀ ω.
        prop_assert!((omega_matrix_body(&w) * p - euler_params::pdot_from_omega_body(&p, &w)).norm() < 1e-13);
        prop_assert!((omega_matrix(&w) * p - euler_params::pdot_from_omega(&p, &w)).norm() < 1e-13);
    }

    /// ‖p‖ = 1 to 1e-14 over 10⁴ steps with a varying ω.
    #[test]
    fn keeps_unit_norm(p0 in any_params(), w0 in vec3(20.0), w1 in vec3(20.0), h in 1e-4..0.1f64) {
        let (mut p, mut q) = (p0, p0);
        let mut worst: f64 = 0.0;
        for k in 0..10_000 {
            let s = (k as f64 * 0.01).sin();
            let w = w0 + s * w1;
            p = midpoint_update_body(&p, &w, h);
            q = midpoint_update(&q, &w, h);
            worst = worst.max((p.norm() - 1.0).abs()).max((q.norm() - 1.0).abs());
        }
        prop_assert!(worst < 1e-14, "norm drift {worst:e}");
    }

    /// Body and global forms agree: c(ω) ⊗ p = p ⊗ c(Aᵀω).
    #[test]
    fn body_and_global_forms_agree(p in any_params(), w in vec3(20.0), h in 1e-4..0.5f64) {
        let wb = rotation_unit(&p).transpose() * w;
        prop_assert!((midpoint_update(&p, &w, h) - midpoint_update_body(&p, &wb, h)).norm() < 1e-14);
    }

    /// Second order against the exact rotation for constant ω: halving h divides the
    /// error by 4; and the one-step error is (h|ω|)³/48-ish in angle.
    #[test]
    fn second_order_for_constant_omega(p0 in any_params(), u in unit3(), speed in 0.5..5.0f64) {
        let w = speed * u;
        for err in [body_error as fn(&_, &_, usize) -> f64, global_error] {
            let (e1, e2) = (err(&p0, &w, 64), err(&p0, &w, 128));
            prop_assert!(e1 > 0.0 && e1 < 1e-3);
            let ratio = e1 / e2;
            prop_assert!((ratio - 4.0).abs() < 0.05, "ratio {ratio}, errors {e1:e} {e2:e}");
            // Leading term: angle error n (h|ω|)³/48 → ‖Δp‖ ≈ ½ |ω|³ h² / 48.
            let h = 1.0 / 64.0;
            let predicted = 0.5 * speed.powi(3) * h * h / 48.0;
            prop_assert!((e1 / predicted - 1.0).abs() < 0.01, "{e1:e} vs {predicted:e}");
        }
    }
}
