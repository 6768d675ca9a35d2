//! Reaction wrenches of joints and drivers from their multipliers, and the relative
//! coordinates of a joint's markers.
//!
//! With M v̇ + Φ_qᵀ λ = Q (NOTATION.md), the constraint force the rows of one joint or
//! driver apply is the generalized force −Φ_qᵀλ restricted to its rows. In the
//! [ṙ; ω'] columns of a body (the `ji`, `jj` blocks of [`ConstraintBlock`]) it is a
//! force F = −J_ṙᵀλ (global) and a torque n' = −J_ω'ᵀλ about the centre of mass (body
//! frame), thesis sec 3.4 (virtual work λᵀδΦ). Moved to the joint point P (the origin of
//! the body's marker): n_P = A n' − (P − r) × F.
//!
//! A joint's equations depend only on the relative pose of its two markers, so the
//! wrenches on body i and body j are equal and opposite about one point; a
//! [`Reaction`] is the wrench on **body j** (exerted through the joint by body i) about
//! **Pⱼ**, computed from body j's block, or from body i's block (negated, moved to Pⱼ)
//! when body j is ground.

use mbs_model::{BodyRef, Driver, DriverKind, MarkerId, Model};
use nalgebra::{Matrix3, Rotation3, Vector3};

use crate::block::ConstraintBlock;
use crate::frame::BodyFrame;

/// A force and a torque about a point, global components.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reaction {
    /// Force \[N\], global.
    pub force: Vector3<f64>,
    /// Torque [N·m] about the joint point Pⱼ, global.
    pub torque: Vector3<f64>,
}

impl Reaction {
    /// The same wrench in the components of the axes `axes` (columns, global).
    pub fn in_frame(&self, axes: &Matrix3<f64>) -> Reaction {
        Reaction {
            force: axes.transpose() * self.force,
            torque: axes.transpose() * self.torque,
        }
    }
}

/// Global position and axes (columns) of a marker.
pub fn marker_pose(
    model: &Model,
    frame: &BodyFrame,
    marker: MarkerId,
) -> (Vector3<f64>, Matrix3<f64>) {
    let mk = model.marker(marker);
    (frame.point(&mk.position), frame.a * mk.orientation)
}

/// Wrench on a body from `lambda` (one per block row) through its [ṙ; ω'] block `jb`,
/// about the global point `at`.
fn wrench_on(
    jb: &nalgebra::SMatrix<f64, { crate::MAX_ROWS }, 6>,
    rows: usize,
    lambda: &[f64],
    frame: &BodyFrame,
    at: &Vector3<f64>,
) -> Reaction {
    let mut f = Vector3::zeros();
    let mut n_body = Vector3::zeros();
    for (r, l) in lambda.iter().enumerate().take(rows) {
        for c in 0..3 {
            f[c] -= jb[(r, c)] * l;
            n_body[c] -= jb[(r, c + 3)] * l;
        }
    }
    let torque = frame.a * n_body - (at - frame.r).cross(&f);
    Reaction { force: f, torque }
}

/// The reaction on body j about `pj` of a constraint block with multipliers `lambda`
/// (one per block row), body frames `fi`, `fj` (module docs).
pub fn reaction(
    block: &ConstraintBlock,
    lambda: &[f64],
    (body_i, fi): (BodyRef, &BodyFrame),
    (body_j, fj): (BodyRef, &BodyFrame),
    pj: &Vector3<f64>,
) -> Reaction {
    if body_j != BodyRef::Ground {
        wrench_on(&block.jj, block.rows, lambda, fj, pj)
    } else if body_i != BodyRef::Ground {
        let w = wrench_on(&block.ji, block.rows, lambda, fi, pj);
        Reaction {
            force: -w.force,
            torque: -w.torque,
        }
    } else {
        Reaction {
            force: Vector3::zeros(),
            torque: Vector3::zeros(),
        }
    }
}

/// The markers (i, j) whose frames a driver acts between: the driven joint's markers,
/// or for a point coordinate its marker and `None` (ground at the same point).
pub fn driver_markers(model: &Model, driver: &Driver) -> (MarkerId, Option<MarkerId>) {
    match &driver.kind {
        DriverKind::JointAngle { joint } | DriverKind::JointTranslation { joint } => {
            let jt = model.joint(*joint);
            (jt.marker_i, Some(jt.marker_j))
        }
        DriverKind::PointCoordinate { marker, .. } => (*marker, None),
    }
}

/// The effort a driver exerts, from its reaction on body j about Pⱼ ([`reaction`]): for a
/// joint angle the torque about zᵢ [N·m], for a joint translation the force along zᵢ
/// \[N\], both on body j; for a point coordinate the force along the driven global axis
/// on the marker's body \[N\] (body i of the driver block, so the negated reaction).
pub fn driver_effort(driver: &Driver, r: &Reaction, axes_i: &Matrix3<f64>) -> f64 {
    match &driver.kind {
        DriverKind::JointAngle { .. } => axes_i.column(2).dot(&r.torque),
        DriverKind::JointTranslation { .. } => axes_i.column(2).dot(&r.force),
        DriverKind::PointCoordinate { axis, .. } => -r.force[*axis],
    }
}

/// The pose and motion of marker j relative to marker i, in marker i's axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RelativeMotion {
    /// d = Pⱼ − Pᵢ in marker i's axes \[m\].
    pub translation: Vector3<f64>,
    /// d/dt of `translation` (the rate seen in marker i's frame) [m/s].
    pub translation_rate: Vector3<f64>,
    /// Rotation vector (axis × angle) of Rᵢⱼ = Aᵢᵀ Aⱼ, marker i's axes \[rad\].
    pub rotation: Vector3<f64>,
    /// ωⱼ − ωᵢ in marker i's axes [rad/s].
    pub omega: Vector3<f64>,
    /// Angle about zᵢ from xᵢ to xⱼ, atan2(xⱼ·yᵢ, xⱼ·xᵢ) ∈ (−π, π] (the revolute and
    /// cylindrical joint angle, as `DriverKind::JointAngle`) \[rad\].
    pub angle: f64,
    /// zᵢ·(ωⱼ − ωᵢ) [rad/s].
    pub angle_rate: f64,
}

/// The motion of marker `mj` on frame `fj` relative to marker `mi` on frame `fi`.
pub fn relative_motion(
    model: &Model,
    (mi, fi): (MarkerId, &BodyFrame),
    (mj, fj): (MarkerId, &BodyFrame),
) -> RelativeMotion {
    let (pi, ai) = marker_pose(model, fi, mi);
    let (pj, aj) = marker_pose(model, fj, mj);
    let (si, sj) = (model.marker(mi).position, model.marker(mj).position);
    let d = pj - pi;
    let ddot = fj.point_velocity(&sj) - fi.point_velocity(&si);
    // d/dt (Aᵢᵀ d) = Aᵢᵀ (ḋ − ωᵢ × d)
    let translation_rate = ai.transpose() * (ddot - fi.omega.cross(&d));
    let rel = ai.transpose() * aj;
    let rotation = Rotation3::from_matrix_unchecked(rel).scaled_axis();
    let w = fj.omega - fi.omega;
    let xj = aj.column(0);
    RelativeMotion {
        translation: ai.transpose() * d,
        translation_rate,
        rotation,
        omega: ai.transpose() * w,
        angle: xj.dot(&ai.column(1)).atan2(xj.dot(&ai.column(0))),
        angle_rate: ai.column(2).dot(&w),
    }
}
