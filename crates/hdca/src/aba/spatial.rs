//! Spatial algebra at the fixed global origin in HDCA's [linear; angular] layout
//! (Featherstone, *Rigid Body Dynamics Algorithms*, 2008, ch. 2, with the halves of
//! his [angular; linear] vectors swapped): motion vectors V = [v_O; ω] (v_O the
//! velocity of the body point passing through the origin), force vectors
//! F = [f; n_O] (moment about the origin), and the per-body storage of the sweeps.

use nalgebra::{Matrix3, Matrix6, Vector3, Vector6};

use crate::joint::{ang3, lin3, sv};

/// The spatial inertia about the origin of a body of mass m with centre of mass r and
/// centroidal inertia J_g (global components), mapping V = [v_O; ω] to the momentum
/// about the origin [l; h_O] (Featherstone 2008, ch. 2: the rigid-body inertia about
/// a point other than the centre of mass):
///
/// ```text
/// I_O = [ m 1      −m [r×]         ]
///       [ m [r×]   J_g − m [r×][r×] ]
/// ```
pub(crate) fn inertia_at_origin(m: f64, r: &Vector3<f64>, jg: &Matrix3<f64>) -> Matrix6<f64> {
    let rx = r.cross_matrix();
    let mut i = Matrix6::zeros();
    i.fixed_view_mut::<3, 3>(0, 0)
        .copy_from(&Matrix3::from_diagonal_element(m));
    i.fixed_view_mut::<3, 3>(0, 3).copy_from(&(-m * rx));
    i.fixed_view_mut::<3, 3>(3, 0).copy_from(&(m * rx));
    i.fixed_view_mut::<3, 3>(3, 3)
        .copy_from(&(jg - m * rx * rx));
    i
}

/// The force cross product V ×* F (Featherstone 2008, ch. 2) in the [linear; angular]
/// layout: [ω × f; ω × n + v_O × f].
#[inline]
pub(crate) fn cross_force(v: &Vector6<f64>, f: &Vector6<f64>) -> Vector6<f64> {
    let (vo, w) = (lin3(v), ang3(v));
    let (fl, n) = (lin3(f), ang3(f));
    sv(&w.cross(&fl), &(w.cross(&n) + vo.cross(&fl)))
}

/// The motion vector at the origin [v_O; ω] of a body whose centre of mass at r moves
/// with the twist [ṙ; ω]: v_O = ṙ − ω × r.
#[inline]
pub(crate) fn twist_at_origin(cm_twist: &Vector6<f64>, r: &Vector3<f64>) -> Vector6<f64> {
    let w = ang3(cm_twist);
    sv(&(lin3(cm_twist) - w.cross(r)), &w)
}

/// The twist [ṙ; ω] of the centre of mass r from the motion vector at the origin.
#[inline]
pub(crate) fn twist_at_centre(v: &Vector6<f64>, r: &Vector3<f64>) -> Vector6<f64> {
    let w = ang3(v);
    sv(&(lin3(v) + w.cross(r)), &w)
}

/// Per-body quantities of one evaluation of the articulated-body algorithm
/// (Featherstone 2008, Table 7.1), all at the origin. The joint's columns are in
/// [`Column`]s and its Cholesky factor in a packed buffer, both sized by n_f, so
/// one body's data is a few cache lines (the sweeps stream them at n ≈ 10³–10⁴).
#[derive(Clone, Debug, Default)]
pub(crate) struct Articulated {
    /// Spatial velocity V.
    pub v: Vector6<f64>,
    /// Bias acceleration c = Ḣ⁰ u.
    pub c: Vector6<f64>,
    /// Articulated inertia Iᴬ.
    pub ia: Matrix6<f64>,
    /// Articulated bias force pᴬ.
    pub pa: Vector6<f64>,
    /// Spatial acceleration A.
    pub a: Vector6<f64>,
}

/// Per joint quasi-velocity (one column of the body's tree joint, at the index of
/// its rate in u): H⁰'s column, its rate, U = Iᴬ H⁰'s column and u_j's entry.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Column {
    /// Column of H⁰ (motion subspace at the origin).
    pub h: Vector6<f64>,
    /// Its rate Ḣ⁰.
    pub h_dot: Vector6<f64>,
    /// Column of U = Iᴬ H⁰.
    pub u: Vector6<f64>,
    /// Entry of u_j = −H⁰ᵀ pᴬ (no joint force beyond the force elements).
    pub uj: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// I_O V is the momentum about the origin [m ṙ; J_g ω + r × m ṙ], and the
    /// twist maps between the centre of mass and the origin are inverse.
    #[test]
    fn origin_inertia_gives_the_momentum_about_the_origin() {
        let (m, r) = (2.0, Vector3::new(0.3, -1.2, 0.7));
        let jg = Matrix3::new(0.5, 0.1, 0.0, 0.1, 0.4, 0.05, 0.0, 0.05, 0.3);
        let (rd, w) = (Vector3::new(0.2, 0.1, -0.4), Vector3::new(1.0, -0.5, 0.25));
        let v = twist_at_origin(&sv(&rd, &w), &r);
        let p = inertia_at_origin(m, &r, &jg) * v;
        let l = m * rd;
        let expect = sv(&l, &(jg * w + r.cross(&l)));
        assert!((p - expect).norm() < 1e-14, "{p} vs {expect}");
        let back = twist_at_centre(&v, &r);
        assert!((back - sv(&rd, &w)).norm() < 1e-15);
    }
}
