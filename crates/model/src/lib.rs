//! What a multibody mechanism *is*: bodies, markers, joints, force elements, drivers,
//! their topology, the layouts of a state, and model files (JSON and TOML).
//!
//! A [`Model`] is immutable and validated; elements are addressed by typed ids
//! ([`BodyId`], [`MarkerId`], [`JointId`], …). Build one with [`ModelBuilder`], or
//! read one from a JSON or TOML file ([`mod@file`], schema in `crates/model/SCHEMA.md`):
//! [`Model::load`], [`Model::from_toml_str`], [`Model::from_json_str`]. Every model
//! carries its [`Topology`] (spanning tree, cut joints, loops, Grübler count and the
//! binary [`AssemblyTree`] of the divide-and-conquer front-ends).

pub mod body;
pub mod body_coords;
pub mod builder;
pub mod driver;
pub mod error;
pub mod euler_angle_state;
pub mod file;
pub mod force;
pub mod ids;
pub mod joint;
pub mod marker;
pub mod mass_properties;
pub mod model;
pub mod shape;
pub mod state;
pub mod time_function;
pub mod topology;
pub mod validate;
mod validate_point_mass;
mod validate_shapes;

pub use body::{Body, BodyInitial, nominal_point_inertia};
pub use builder::ModelBuilder;
pub use driver::{Driver, DriverKind};
pub use error::ModelError;
pub use euler_angle_state::EulerAngleState;
pub use file::FileFormat;
pub use force::{ForceElement, LoadFrame};
pub use ids::{BodyId, BodyRef, DriverId, ForceId, JointId, MarkerId};
pub use joint::{Joint, JointKind};
pub use marker::{Marker, frame_from_z};
pub use model::{Model, ModelParts};
pub use shape::{Geometry, Rgb, Shape};
pub use state::{Layout, State, StateView};
pub use time_function::TimeFunction;
pub use topology::{AssemblyNode, AssemblyTree, Component, Topology};
