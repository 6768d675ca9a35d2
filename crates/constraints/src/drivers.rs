//! Drivers: rheonomic constraints Φ(q, t) = 0 prescribing a joint angle, a joint
//! translation or a point coordinate as a function of time f(t) (thesis sec 7.6, the
//! space crane's time-driven tip; `mbs_model::DriverKind`).
//!
//! - Joint angle θ about zᵢ from xᵢ to xⱼ: with c = xⱼ·yᵢ = sin θ, s = xⱼ·xᵢ = cos θ,
//!   Φ = c cos f − s sin f = sin(θ − f) (smooth for every angle, no wrap-around).
//!   Φ_t = −(c sin f + s cos f) ḟ;
//!   Φ̈ = c̈ cos f − 2ċ ḟ sin f − c (ḟ² cos f + f̈ sin f) − s̈ sin f − 2ṡ ḟ cos f
//!   − s (f̈ cos f − ḟ² sin f) (product and chain rules).
//! - Joint translation: Φ = zᵢ·d − f(t) (a dot-2 condition minus f), Φ_t = −ḟ,
//!   γ = −(z̈ᵢ·d + 2żᵢ·ḋ + zᵢ·d̈) + f̈.
//! - Point coordinate: Φ = Pₖ − f(t), Φ_q = [eₖᵀ, −eₖᵀ A s̃'], Φ_t = −ḟ,
//!   γ = −(ω × (ω × A s'))ₖ + f̈.

use mbs_model::{Driver, DriverKind, Model};

use crate::block::ConstraintBlock;
use crate::frame::BodyFrame;
use crate::joints::MarkerPair;
use crate::primitives::{Kin1, Slot, dot2, marker_point};

/// Evaluates the one row of `driver` at time `t` into `block`.
pub fn evaluate_driver(
    model: &Model,
    driver: &Driver,
    frames: &[BodyFrame],
    ground: &BodyFrame,
    t: f64,
    block: &mut ConstraintBlock,
) {
    let f = Kin1::time(driver.function.eval(t));
    let phi = match &driver.kind {
        DriverKind::JointAngle { joint } => {
            let jt = model.joint(*joint);
            let m = MarkerPair::new(model, frames, ground, jt.marker_i, jt.marker_j);
            let xj = m.axis_j(0);
            let c = xj.dot(&m.axis_i(1));
            let s = xj.dot(&m.axis_i(0));
            let (sf, cf) = f.v().sin_cos();
            let cos_f = f.chain([cf, -sf, -cf]);
            let sin_f = f.chain([sf, cf, -sf]);
            c.mul(&cos_f).sub(&s.mul(&sin_f))
        }
        DriverKind::JointTranslation { joint } => {
            let jt = model.joint(*joint);
            let m = MarkerPair::new(model, frames, ground, jt.marker_i, jt.marker_j);
            dot2(&m.axis_i(2), &m.d()).sub(&f)
        }
        DriverKind::PointCoordinate { marker, axis } => {
            let mk = model.marker(*marker);
            let fr = crate::frame::frame_of(frames, ground, mk.body);
            let moving = mk.body != mbs_model::BodyRef::Ground;
            marker_point(fr, mk, Slot::I, moving).row(*axis).sub(&f)
        }
    };
    block.set_rows(0, &phi);
}

/// The bodies (i, j) a driver's Jacobian blocks refer to.
pub fn driver_bodies(model: &Model, driver: &Driver) -> (mbs_model::BodyRef, mbs_model::BodyRef) {
    match &driver.kind {
        DriverKind::JointAngle { joint } | DriverKind::JointTranslation { joint } => {
            model.joint_bodies(*joint)
        }
        DriverKind::PointCoordinate { marker, .. } => {
            (model.marker(*marker).body, mbs_model::BodyRef::Ground)
        }
    }
}
