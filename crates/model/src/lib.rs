//! What a multibody mechanism *is*: bodies, markers, joints, force elements, drivers,
//! their topology, the layouts of a state, and model files (JSON and TOML).
//!
//! A [`Model`] is immutable and validated; elements are addressed by typed ids
//! ([`BodyId`], [`MarkerId`], [`JointId`], …). Build one with [`ModelBuilder`], or
//! read one from a JSON or TOML file (`file`, schema in `crates/model/SCHEMA.md`):
//! [`Model::load`], [`Model::from_toml_str`], [`Model::from_json_str`]. Every model
//! carries its [`Topology`] (spanning tree, cut joints, loops, Grübler count and the
//! binary [`AssemblyTree`] of the divide-and-conquer front-ends).

mod body;
pub mod body_coords;
mod builder;
mod driver;
mod error;
mod euler_angle_state;
mod file;
mod force;
mod ids;
mod joint;
mod marker;
mod mass_properties;
pub mod memory;
mod model;
mod shape;
pub mod spec_text;
mod state;
mod time_function;
mod topology;
mod validate;
mod validate_point_mass;
mod validate_shapes;

pub use body::{Body, BodyInitial, nominal_point_inertia};
pub use builder::ModelBuilder;
pub use driver::{Driver, DriverKind};
pub use error::ModelError;
pub use euler_angle_state::EulerAngleState;
pub use file::{FileFormat, GeneratorRef, MAX_FILE_BYTES, generator_reference, read_model_file};
pub use force::{ForceElement, LoadFrame};
pub use ids::{BodyId, BodyRef, DriverId, ForceId, JointId, MarkerId};
pub use joint::{Joint, JointKind};
pub use marker::{Marker, frame_from_z};
pub use mass_properties::{MassProperties, from_densities, of_shapes};
pub use model::{Model, ModelParts};
pub use shape::{Geometry, Rgb, Shape, format_rgb};
pub use state::{Layout, State, StateView};
pub use time_function::TimeFunction;
pub use topology::{AssemblyNode, AssemblyTree, Component, Topology};
