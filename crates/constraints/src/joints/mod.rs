//! Joint equations, composed from the primitives (thesis ch. 4; the table of
//! `mbs_model::joint`). With Pᵢ, Pⱼ the marker origins, (xᵢ, yᵢ, zᵢ), (xⱼ, yⱼ, zⱼ) the
//! marker axes in global components and d = Pⱼ − Pᵢ:
//!
//! | kind | rows (in this order) | primitives |
//! |---|---|---|
//! | spherical (4.2.1) | d = 0 | point |
//! | universal (4.3.1) | d = 0, zᵢ·zⱼ = 0 | point, dot-1 |
//! | revolute (4.4.8) | d = 0, zⱼ·xᵢ = 0, zⱼ·yᵢ = 0 | point, 2 × dot-1 |
//! | cylindrical (4.5.1) | zⱼ·xᵢ = zⱼ·yᵢ = 0, xᵢ·d = yᵢ·d = 0 | 2 × dot-1, 2 × dot-2 |
//! | prismatic | cylindrical, yⱼ·xᵢ = 0 | 3 × dot-1, 2 × dot-2 |
//! | rigid (4.6.1, holonomic form) | d = 0, zⱼ·xᵢ = zⱼ·yᵢ = yⱼ·xᵢ = 0 | point, 3 × dot-1 |
//! | distance | dᵀd − L² = 0 | distance |
//! | rolling sphere (sec 7.4) | see [`rolling`] | dot-2 + no-slip rows |
//! | rolling disc | see [`rolling_disc`] | dot-2, chain rule on dot-1 + no-slip rows |
//! | sine path (eq 7.4.9) | see [`sine_path`] | chain rule on two dot-2 |
//!
//! The relative motions each kind leaves free (the complement of its rows) are
//! [`Freedoms`].
//!
//! The thesis writes the rigid joint's rotational part at velocity level
//! (ωᵢ − ωⱼ = 0, eq 4.6.1); we use the three holonomic dot-1 rows so that Φ exists at
//! position level and the row count (6) is the same.

mod freedoms;
pub mod rolling;
pub mod rolling_disc;
pub mod rows;
pub mod sine_path;

pub use freedoms::{Freedoms, NoFreedoms, Rotation, Translation};

use mbs_model::{BodyRef, Joint, JointKind, Marker, Model};

use crate::block::ConstraintBlock;
use crate::error::ConstraintError;
use crate::frame::{BodyFrame, frame_of};
use crate::primitives::{
    Kin3, Slot, distance, dot1, dot2, marker_axis, marker_point, point_coincidence, separation,
};

/// Two markers with the frames of their bodies: the input of every joint, driver and
/// two-point force element.
#[derive(Clone, Copy, Debug)]
pub struct MarkerPair<'a> {
    /// Marker i.
    pub mi: &'a Marker,
    /// Marker j.
    pub mj: &'a Marker,
    /// Frame of body i.
    pub fi: &'a BodyFrame,
    /// Frame of body j.
    pub fj: &'a BodyFrame,
    /// Body i moves (is not ground).
    pub moving_i: bool,
    /// Body j moves.
    pub moving_j: bool,
}

impl<'a> MarkerPair<'a> {
    /// The pair of markers `i`, `j` of a model, with frames from `frames` / `ground`.
    pub fn new(
        model: &'a Model,
        frames: &'a [BodyFrame],
        ground: &'a BodyFrame,
        i: mbs_model::MarkerId,
        j: mbs_model::MarkerId,
    ) -> Self {
        let (mi, mj) = (model.marker(i), model.marker(j));
        Self {
            mi,
            mj,
            fi: frame_of(frames, ground, mi.body),
            fj: frame_of(frames, ground, mj.body),
            moving_i: mi.body != BodyRef::Ground,
            moving_j: mj.body != BodyRef::Ground,
        }
    }
    /// Origin Pᵢ.
    pub fn pi(&self) -> Kin3 {
        marker_point(self.fi, self.mi, Slot::I, self.moving_i)
    }
    /// Origin Pⱼ.
    pub fn pj(&self) -> Kin3 {
        marker_point(self.fj, self.mj, Slot::J, self.moving_j)
    }
    /// d = Pⱼ − Pᵢ.
    pub fn d(&self) -> Kin3 {
        separation(&self.pi(), &self.pj())
    }
    /// Axis k (0 = x, 1 = y, 2 = z) of marker i.
    pub fn axis_i(&self, k: usize) -> Kin3 {
        marker_axis(self.fi, self.mi, k, Slot::I, self.moving_i)
    }
    /// Axis k of marker j.
    pub fn axis_j(&self, k: usize) -> Kin3 {
        marker_axis(self.fj, self.mj, k, Slot::J, self.moving_j)
    }
}

const X: usize = 0;
const Y: usize = 1;
const Z: usize = 2;

/// Evaluates the equations of `joint` into `block` (shape set by the caller:
/// `kind.rows()` rows, `kind.holonomic_rows()` holonomic).
///
/// Fails only where a joint's equations are undefined at the state (a rolling disc
/// lying flat), with an error naming the joint and the offending value.
pub fn evaluate_joint(
    joint: &Joint,
    m: &MarkerPair<'_>,
    block: &mut ConstraintBlock,
) -> Result<(), ConstraintError> {
    match joint.kind {
        JointKind::Spherical => block.set_rows(0, &point_coincidence(&m.pi(), &m.pj())),
        JointKind::Universal => {
            block.set_rows(0, &point_coincidence(&m.pi(), &m.pj()));
            block.set_rows(3, &dot1(&m.axis_i(Z), &m.axis_j(Z)));
        }
        JointKind::Revolute => {
            let (xi, yi, zj) = (m.axis_i(X), m.axis_i(Y), m.axis_j(Z));
            block.set_rows(0, &point_coincidence(&m.pi(), &m.pj()));
            block.set_rows(3, &dot1(&xi, &zj));
            block.set_rows(4, &dot1(&yi, &zj));
        }
        JointKind::Cylindrical | JointKind::Prismatic => {
            let (xi, yi, zj, d) = (m.axis_i(X), m.axis_i(Y), m.axis_j(Z), m.d());
            block.set_rows(0, &dot1(&xi, &zj));
            block.set_rows(1, &dot1(&yi, &zj));
            block.set_rows(2, &dot2(&xi, &d));
            block.set_rows(3, &dot2(&yi, &d));
            if joint.kind == JointKind::Prismatic {
                block.set_rows(4, &dot1(&xi, &m.axis_j(Y)));
            }
        }
        JointKind::Planar => {
            let (xi, yi, zi, zj, d) = (m.axis_i(X), m.axis_i(Y), m.axis_i(Z), m.axis_j(Z), m.d());
            block.set_rows(0, &dot1(&xi, &zj));
            block.set_rows(1, &dot1(&yi, &zj));
            block.set_rows(2, &dot2(&zi, &d));
        }
        JointKind::Rigid => {
            let (xi, yi, yj, zj) = (m.axis_i(X), m.axis_i(Y), m.axis_j(Y), m.axis_j(Z));
            block.set_rows(0, &point_coincidence(&m.pi(), &m.pj()));
            block.set_rows(3, &dot1(&xi, &zj));
            block.set_rows(4, &dot1(&yi, &zj));
            block.set_rows(5, &dot1(&xi, &yj));
        }
        JointKind::Distance { length } => block.set_rows(0, &distance(&m.d(), length)),
        JointKind::RollingSphere { radius } => rolling::evaluate(m, radius, block),
        JointKind::RollingDisc { radius } => {
            return rolling_disc::evaluate(&joint.name, m, radius, block);
        }
        JointKind::SinePath {
            amplitude,
            wavenumber,
        } => sine_path::evaluate(m, amplitude, wavenumber, block),
    }
    Ok(())
}
