//! Property tests of spatial vectors, shift matrices and spatial inertia (HDCA paper
//! eqs 9, 14, 48–53).

mod common;

use common::*;
use mbs_kinematics::euler_params::{from_rotation_vector, product, rotation_unit};
use mbs_kinematics::spatial::*;
use nalgebra::{Matrix3, Matrix6, Vector3, Vector6};
use proptest::prelude::*;

fn vec6(r: f64) -> impl Strategy<Value = Vector6<f64>> {
    (vec3(r), vec3(r)).prop_map(|(a, b)| spatial_vector(&a, &b))
}

/// A random symmetric positive-definite centroidal inertia R diag(j) Rᵀ satisfying the
/// triangle inequalities.
fn inertia() -> impl Strategy<Value = Matrix3<f64>> {
    (any_params(), 0.5..2.0f64, 0.5..2.0f64, 0.5..2.0f64).prop_map(|(p, a, b, c)| {
        // principal moments of a box-like mass distribution: always physical.
        let j = Vector3::new(b + c, a + c, a + b);
        let r = rotation_unit(&p);
        r * Matrix3::from_diagonal(&j) * r.transpose()
    })
}

fn mat6_max(m: &Matrix6<f64>) -> f64 {
    m.abs().max()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    /// eq 49: S₁₂⁻¹ = S₂₁ = shift(−l₁₂); eq 58: S₁₃ = S₁₂ S₂₃.
    #[test]
    fn shift_inverse_and_composition(l12 in vec3(5.0), l23 in vec3(5.0)) {
        let s = shift(&l12);
        prop_assert!(mat6_max(&(s * shift_inverse(&l12) - Matrix6::identity())) < 1e-14);
        prop_assert!(mat6_max(&(shift_inverse(&l12) * s - Matrix6::identity())) < 1e-14);
        prop_assert_eq!(shift_inverse(&l12), shift(&-l12));
        prop_assert!(mat6_max(&(shift(&(l12 + l23)) - s * shift(&l23))) < 1e-14);
    }

    /// Forces move with S₁₂, velocities with S₁₂ᵀ; power is the same at both points.
    #[test]
    fn forces_velocities_and_power(l12 in vec3(5.0), f2 in vec6(5.0), v1 in vec6(5.0)) {
        let s = shift(&l12);
        let f1 = shift_force(&l12, &f2);
        let v2 = shift_velocity(&l12, &v1);
        prop_assert!((f1 - s * f2).norm() < 1e-13);
        prop_assert!((v2 - s.transpose() * v1).norm() < 1e-13);
        // rigid body: v₂ = v₁ + ω × l₁₂; n₁ = n₂ + l₁₂ × f.
        prop_assert!((linear_part(&v2) - (linear_part(&v1) + angular_part(&v1).cross(&l12))).norm() < 1e-13);
        prop_assert!((angular_part(&f1) - (angular_part(&f2) + l12.cross(&linear_part(&f2)))).norm() < 1e-13);
        prop_assert!((v1.dot(&f1) - v2.dot(&f2)).abs() < 1e-11);
    }

    /// eq 9 = S_OC diag(mI, J_C) S_OCᵀ; P_C = S_CO P_O (eq 48) with V_C = S_OCᵀ V_O;
    /// kinetic energy ½ VᵀMV is the same at O and C; M_O is symmetric positive definite.
    #[test]
    fn spatial_inertia_at_a_point(m in 0.1..10.0f64, jc in inertia(), l_oc in vec3(3.0), v_o in vec6(3.0)) {
        let m_o = spatial_inertia_from_centroidal(m, &l_oc, &jc);
        let m_c = spatial_inertia(m, &Vector3::zeros(), &jc);
        let s_oc = shift(&l_oc);
        prop_assert!(mat6_max(&(m_o - s_oc * m_c * s_oc.transpose())) < 1e-12);
        prop_assert!(mat6_max(&(m_o - spatial_inertia(m, &l_oc, &inertia_at_point(m, &jc, &l_oc)))) < 1e-14);
        prop_assert!(mat6_max(&(m_o - m_o.transpose())) < 1e-12);
        prop_assert!(m_o.cholesky().is_some());
        let v_c = shift_velocity(&l_oc, &v_o);
        let p_o = m_o * v_o;
        let p_c = m_c * v_c;
        prop_assert!((shift_force(&-l_oc, &p_o) - p_c).norm() < 1e-11);
        prop_assert!((v_o.dot(&p_o) - v_c.dot(&p_c)).abs() < 1e-10);
        // parallel axes: J_O = J_C + m(|l|²I − l lᵀ).
        let jo = jc + m * (l_oc.norm_squared() * Matrix3::identity() - l_oc * l_oc.transpose());
        prop_assert!(max_abs3(&(inertia_at_point(m, &jc, &l_oc) - jo)) < 1e-12);
    }

    /// eq 50: Ṡ by central differences, S Ṡ = Ṡ S = Ṡ; eqs 51–53: Ṡ_CO P_O = Ṡ_O P_O.
    #[test]
    fn shift_derivatives(l in vec3(3.0), ldot in vec3(3.0), m in 0.1..10.0f64, jc in inertia(), v_o in vec6(3.0)) {
        let h = 1e-5;
        let fd = (shift(&(l + h * ldot)) - shift(&(l - h * ldot))) / (2.0 * h);
        let sd = shift_dot(&ldot);
        prop_assert!(mat6_max(&(fd - sd)) < 1e-9);
        prop_assert!(mat6_max(&(shift(&l) * sd - sd)) < 1e-14);
        prop_assert!(mat6_max(&(sd * shift(&l) - sd)) < 1e-14);
        // With l_OC = l: v_C = v_O + ω × l_OC and l̇_CO = v_O − v_C.
        let p_o = spatial_inertia_from_centroidal(m, &l, &jc) * v_o;
        let v_c = linear_part(&shift_velocity(&l, &v_o));
        let lco_dot = linear_part(&v_o) - v_c;
        let lhs = shift_dot(&lco_dot) * p_o;
        let rhs = shift_dot_point(&linear_part(&v_o)) * p_o;
        prop_assert!((lhs - rhs).norm() < 1e-10 * (1.0 + p_o.norm() * v_o.norm()));
    }

    /// eq 52 on a moving body: with Q_C = Ṗ_C (eq 47) and Q_O = S_OC Q_C (eq 48),
    /// Ṗ_O + Ṡ_O P_O = Q_O, all derivatives by central differences.
    #[test]
    fn equation_of_motion_about_a_moving_point(
        m in 0.1..10.0f64, jb in inertia(), s_body in vec3(2.0), p0 in any_params(),
        w0 in vec3(2.0), w1 in vec3(2.0), r1 in vec3(2.0), r2 in vec3(2.0),
    ) {
        // Orientation p(t) = p0 ⊗ exp((w0 t + w1 t²)/2), centre of mass r_C = r1 t + r2 t².
        let orient = |t: f64| rotation_unit(&product(&p0, &from_rotation_vector(&(w0 * t + w1 * (t * t)))));
        let omega = |t: f64| {
            let hh = 1e-6;
            let a = orient(t);
            mbs_kinematics::unskew(&((orient(t + hh) - orient(t - hh)) / (2.0 * hh) * a.transpose()))
        };
        let v_c = |t: f64| r1 + 2.0 * t * r2;
        // Point O fixed in the body at s_body from C: l_OC = −A s'.
        let l_oc = |t: f64| -(orient(t) * s_body);
        let j_c = |t: f64| inertia_to_global(&orient(t), &jb);
        let p_c = |t: f64| spatial_vector(&(m * v_c(t)), &(j_c(t) * omega(t)));
        let v_o = |t: f64| {
            let w = omega(t);
            spatial_vector(&(v_c(t) + w.cross(&-l_oc(t))), &w)
        };
        let p_o = |t: f64| spatial_inertia_from_centroidal(m, &l_oc(t), &j_c(t)) * v_o(t);
        let h = 1e-4;
        let q_c = (p_c(h) - p_c(-h)) / (2.0 * h);
        let q_o = shift(&l_oc(0.0)) * q_c;
        let pdot_o = (p_o(h) - p_o(-h)) / (2.0 * h);
        let lhs = pdot_o + shift_dot_point(&linear_part(&v_o(0.0))) * p_o(0.0);
        prop_assert!((shift_force(&-l_oc(0.0), &p_o(0.0)) - p_c(0.0)).norm() < 1e-9);
        prop_assert!((lhs - q_o).norm() < 1e-5 * (1.0 + q_o.norm()), "{lhs} vs {q_o}");
    }
}
