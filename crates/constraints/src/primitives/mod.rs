//! Primitive conditions the joints are composed from (STYLE.md "joints from
//! primitives"): point coincidence, dot-1 (axis ⟂ axis), dot-2 (axis ⟂ d), distance,
//! all written on the kinematic-expression algebra of `kin`.

mod distance;
mod dot1;
mod dot2;
mod kin;
mod marker;
mod point;

pub use distance::distance;
pub use dot1::dot1;
pub use dot2::dot2;
pub use kin::{Kin, Kin1, Kin3, Slot};
pub use marker::{marker_axis, marker_point};
pub use point::{point_coincidence, separation};
