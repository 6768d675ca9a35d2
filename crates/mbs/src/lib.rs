//! `mbs`: constrained rigid multibody dynamics behind one interface.
//!
//! This facade crate re-exports the layer crates and adds what a user touches:
//!
//! - [`Simulation`]: model (built-in or file) + [`Method`] + [`IntegratorChoice`] + end
//!   time + output sampling → [`Trajectory`] (with a progress callback);
//! - [`Trajectory`]: sample times, body poses and velocities, energies, constraint
//!   violations at position, velocity and acceleration level, multipliers, integrator
//!   statistics, wall time; CSV and JSON writers;
//! - `plot` (feature `plots`, on by default): PNG/SVG plots without system libraries;
//! - [`animate`]: a self-contained HTML page that plays the motion in 3-D;
//! - [`check()`]: validation and topology report;
//! - [`compare()`]: the same run with several methods, one table;
//! - [`frontend::FrontEnd`] (`mbs_formulation::Formulation`): the seam every
//!   formulation plugs into; each formulation crate builds its own from its params
//!   ([`Method`] holds them), [`registry`] lists the methods.
//!
//! ```
//! // The built-in mechanisms and a model file read the same way.
//! let names: Vec<String> = mbs::builtins().into_iter().map(|b| b.name).collect();
//! assert!(!names.is_empty());
//! let model = mbs::load_model(&names[0])?;
//! let report = mbs::check(&model);
//! assert_eq!(report.bodies, model.n_bodies());
//! # Ok::<(), mbs::Error>(())
//! ```

pub use mbs_alf as alf;
pub use mbs_complement as complement;
pub use mbs_constraints as constraints;
pub use mbs_dca as dca;
pub use mbs_formulation as formulation;
pub use mbs_hdca as hdca;
pub use mbs_integrators as integrators;
pub use mbs_kinematics as kinematics;
pub use mbs_linalg as linalg;
pub use mbs_mechanisms as mechanisms;
pub use mbs_model as model;
pub use mbs_planar as planar;

pub mod animate;
pub mod check;
pub mod compare;
pub mod conformance;
pub mod energy_balance;
pub mod error;
pub mod frontend;
pub mod guard;
pub mod integrator;
pub mod joints;
pub mod manifest;
pub mod measure;
pub mod method;
pub mod models;
#[cfg(feature = "plots")]
pub mod plot;
pub mod recommend;
pub mod registry;
pub mod simulation;
pub mod step_watch;
pub mod trajectory;

pub use check::{CheckReport, check};
pub use compare::{Comparison, compare};
pub use error::{Error, SimulationFailure};
pub use frontend::{FrontEnd, FrontEndError, RunSpec, RunStats, Sample, SampleSink};
pub use integrator::IntegratorChoice;
pub use mbs_model::{Layout, Model, State};
pub use method::Method;
pub use models::{Builtin, GeneratorInfo, builtin, builtins, generator, generators, load_model};
pub use simulation::{Progress, Sampling, Simulation};
pub use trajectory::Trajectory;
