//! Spatial (6-D) vectors, shift matrices and spatial inertia, following the HDCA paper
//! (Chadaj, Malczyk & Frączek 2017, eqs 9, 14, 48–53).
//!
//! **Ordering: linear part first**, as in the paper's eq 9: a spatial velocity at a
//! point O is V_O = [v_O; ω], a spatial momentum P_O = [m v_C; h_O] (angular momentum
//! about O), a spatial force Q_O = [f; n_O] (moment about O). (Featherstone orders
//! [ω; v]; we do not.) All components are in the global frame.
//!
//! The shift matrix S₁₂ = [[I, 0], [l̃₁₂, I]] (eq 14, l₁₂ from O₁ to O₂) moves a force
//! or momentum applied at O₂ to the equivalent one at O₁ (n₁ = n₂ + l₁₂ × f), and its
//! transpose moves a velocity from O₁ to O₂ (v₂ = v₁ + ω × l₁₂): V₂ = S₁₂ᵀ V₁.

use nalgebra::{Matrix3, Matrix6, Vector3, Vector6};

use crate::skew::skew;

/// A spatial vector [linear; angular] (HDCA eq 9 ordering).
pub type SpatialVector = Vector6<f64>;

/// [linear; angular].
#[inline]
pub fn spatial_vector(linear: &Vector3<f64>, angular: &Vector3<f64>) -> SpatialVector {
    Vector6::new(
        linear.x, linear.y, linear.z, angular.x, angular.y, angular.z,
    )
}

/// The linear part (first three components): v, f or linear momentum.
#[inline]
pub fn linear_part(v: &SpatialVector) -> Vector3<f64> {
    v.fixed_rows::<3>(0).into_owned()
}

/// The angular part (last three components): ω, moment or angular momentum.
#[inline]
pub fn angular_part(v: &SpatialVector) -> Vector3<f64> {
    v.fixed_rows::<3>(3).into_owned()
}

/// 6×6 matrix from 3×3 blocks [[a, b], [c, d]].
#[inline]
fn blocks(a: &Matrix3<f64>, b: &Matrix3<f64>, c: &Matrix3<f64>, d: &Matrix3<f64>) -> Matrix6<f64> {
    let mut m = Matrix6::zeros();
    m.fixed_view_mut::<3, 3>(0, 0).copy_from(a);
    m.fixed_view_mut::<3, 3>(0, 3).copy_from(b);
    m.fixed_view_mut::<3, 3>(3, 0).copy_from(c);
    m.fixed_view_mut::<3, 3>(3, 3).copy_from(d);
    m
}

/// Shift matrix S₁₂ = [[I, 0], [l̃₁₂, I]] (HDCA eq 14), l₁₂ the vector from O₁ to O₂.
/// Composes as S₁₃ = S₁₂ S₂₃ (eq 58).
pub fn shift(l12: &Vector3<f64>) -> Matrix6<f64> {
    let i = Matrix3::identity();
    blocks(&i, &Matrix3::zeros(), &skew(l12), &i)
}

/// S₁₂⁻¹ = [[I, 0], [−l̃₁₂, I]] = S₂₁ (HDCA eq 49).
pub fn shift_inverse(l12: &Vector3<f64>) -> Matrix6<f64> {
    shift(&-l12)
}

/// Ṡ₁₂ = [[0, 0], [(l̇₁₂)~, 0]] (HDCA eq 50), from the rate l̇₁₂ of the shift vector
/// (for two points of one rigid body l̇₁₂ = ω × l₁₂). S₁₂ Ṡ₁₂ = Ṡ₁₂ S₁₂ = Ṡ₁₂.
pub fn shift_dot(l12_dot: &Vector3<f64>) -> Matrix6<f64> {
    let z = Matrix3::zeros();
    blocks(&z, &z, &skew(l12_dot), &z)
}

/// Ṡ_O = [[0, 0], [ṽ_O, 0]] (HDCA eq 53), v_O the global velocity of point O: the
/// equation of motion about a moving point O is Ṗ_O + Ṡ_O P_O = Q_O (eq 52).
/// (It equals Ṡ_CO of eq 51 acting on P_O, as v_C × m v_C = 0.)
pub fn shift_dot_point(v_o: &Vector3<f64>) -> Matrix6<f64> {
    shift_dot(v_o)
}

/// S₁₂ f₂ = [f; n₂ + l₁₂ × f]: a spatial force or momentum at O₂ moved to O₁
/// (HDCA eqs 12, 48).
pub fn shift_force(l12: &Vector3<f64>, f2: &SpatialVector) -> SpatialVector {
    let f = linear_part(f2);
    spatial_vector(&f, &(angular_part(f2) + l12.cross(&f)))
}

/// S₁₂ᵀ V₁ = [v₁ + ω × l₁₂; ω]: a spatial velocity at O₁ moved to O₂ on the same rigid
/// body.
pub fn shift_velocity(l12: &Vector3<f64>, v1: &SpatialVector) -> SpatialVector {
    let w = angular_part(v1);
    spatial_vector(&(linear_part(v1) + w.cross(l12)), &w)
}

/// Spatial inertia at point O (HDCA eq 9):
/// M_O = [[m I, −m l̃_OC], [m l̃_OC, J_O]], with l_OC from O to the centre of mass C
/// and J_O the inertia about O, both in the global frame; P_O = M_O V_O.
pub fn spatial_inertia(mass: f64, l_oc: &Vector3<f64>, inertia_o: &Matrix3<f64>) -> Matrix6<f64> {
    let ml = mass * skew(l_oc);
    blocks(&(mass * Matrix3::identity()), &(-ml), &ml, inertia_o)
}

/// Inertia about O from the centroidal one (parallel axes):
/// J_O = J_C − m l̃_OC l̃_OC = J_C + m (|l|² I − l lᵀ).
pub fn inertia_at_point(mass: f64, inertia_c: &Matrix3<f64>, l_oc: &Vector3<f64>) -> Matrix3<f64> {
    let l = skew(l_oc);
    inertia_c - mass * l * l
}

/// Spatial inertia at O from the centroidal inertia J_C (global frame):
/// M_O = S_OC diag(m I, J_C) S_OCᵀ, which is HDCA eq 9 with J_O from
/// [`inertia_at_point`].
pub fn spatial_inertia_from_centroidal(
    mass: f64,
    l_oc: &Vector3<f64>,
    inertia_c: &Matrix3<f64>,
) -> Matrix6<f64> {
    spatial_inertia(mass, l_oc, &inertia_at_point(mass, inertia_c, l_oc))
}

/// A body-frame inertia tensor J' expressed in the global frame: A J' Aᵀ.
pub fn inertia_to_global(a: &Matrix3<f64>, inertia_body: &Matrix3<f64>) -> Matrix3<f64> {
    a * inertia_body * a.transpose()
}
