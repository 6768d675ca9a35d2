//! Planar front-end (method `planar`): bodies in the x–y plane with coordinates
//! q = (x, y, θ) per body and only in-plane constraint rows — a revolute joint about
//! z gives 2 rows, a prismatic joint along an in-plane axis 2 rows, a driver 1 —
//! after Nikravesh (*Computer-Aided Analysis of Mechanical Systems*, 1988, ch. 6–7)
//! and Haug (*Computer Aided Kinematics and Dynamics of Mechanical Systems*, 1989,
//! ch. 3 and 6). The equations M q̈ + Φ_qᵀλ = Q, Φ_q q̈ = γ are integrated as
//! algorithm ALF-INDEX1 (Bayo & Ledesma 1996) with `mbs-alf`'s kernels.
//!
//! - `planar_model`: the planar view of a [`mbs_model::Model`], refusing (with
//!   [`PlanarError`], naming the element and the value) whatever is not planar: a
//!   joint axis off z, a prismatic axis off the plane, a body turned out of the plane,
//!   out-of-plane initial velocities, gravity along z, a spherical or other joint;
//! - `rows`: Φ, Φ_q, Φ_t, γ of each in-plane constraint;
//! - `descriptor`: the [`mbs_alf::Descriptor`] in (x, y, θ);
//! - `state_map`: (x, y, θ) ↔ the 3-D state (Euler parameters about z);
//! - `method`: [`PlanarParams`], the method as the facade runs it.

mod descriptor;
mod error;
mod method;
mod planar_model;
mod rows;
mod state_map;

pub use descriptor::PlanarDescriptor;
pub use error::PlanarError;
pub use method::PlanarParams;
pub use planar_model::{PlanarConstraint, PlanarModel};
