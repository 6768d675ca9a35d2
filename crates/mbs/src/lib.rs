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
//!   [`chart`]: what every chart shares (ticks, series styles, plottable columns);
//! - [`animate`]: a self-contained HTML page that plays the motion in 3-D;
//! - [`check()`]: validation and topology report;
//! - [`compare()`]: the same run with several methods, one table;
//! - [`frontend::FrontEnd`] (`mbs_formulation::Formulation`): the seam every
//!   formulation plugs into; each formulation crate builds its own from its params
//!   ([`Method`] holds them), [`registry`] lists the methods.
//!
//! Everything above is at the crate root. The modules that stay public are namespaces a
//! user reaches on purpose, each with names that read well only with the module:
//! [`animate`] (`animate::write_html`), `plot` (`plot::write_plots`), [`joints`]
//! (`joints::JointResults`), [`chart`] (`chart::columns::Catalog`), [`manifest`]
//! (`manifest::write`), [`output`] (`output::OutputDir`: staged, locked, swapped into
//! place complete), [`conformance`] (the
//! method × mechanism matrix), [`recommend`] (`recommend::MechanismClass`) and
//! [`registry`] (`registry::methods`); the layer crates are re-exported under their
//! short names (`mbs::alf`, `mbs::dca`, `mbs::hdca`, `mbs::complement`, `mbs::planar`,
//! `mbs::model`, …).
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

pub mod a02;
pub mod animate;
mod bounds;
pub mod chart;
mod check;
mod compare;
pub mod conformance;
pub mod convert;
mod energy_balance;
mod error;
mod frontend;
mod guard;
pub mod import;
mod integrator;
pub mod joints;
pub mod manifest;
mod measure;
mod method;
mod models;
mod numfmt;
pub mod output;
#[cfg(feature = "plots")]
pub mod plot;
pub mod recommend;
pub mod registry;
mod simulation;
pub mod spectrum;
mod step_watch;
mod stop;
mod trajectory;

pub use check::{BodyMass, CONSISTENCY_TOL, CheckReport, MassSource, RANK_TOL, Violation, check};
pub use compare::{Comparison, Outcome, compare, compare_with_progress, general, sci};
pub use energy_balance::EnergyBalance;
pub use error::{Error, SimulationFailure};
pub use frontend::{
    DEFAULT_MAX_STEPS, FrontEnd, FrontEndError, FrontEndErrorKind, RunSpec, RunStats,
    SAMPLE_LAYOUT, Sample, SampleSink,
};
pub use guard::SingularPass;
pub use import::{ImportReport, LoadedModel, load_model_with};
pub use integrator::{INTEGRATOR_NAMES, IntegratorChoice, IntegratorRequest};
pub use mbs_hdca::{JointDofs, JointSpaceDynamics, joint_space_dynamics};
pub use mbs_import::ImportOptions;
pub use mbs_model::{Layout, Model, State};
pub use method::{
    AlphaScale, DEFAULT_EPSILON_KAPPA, DEFAULT_KAPPA, EpsilonScale, Method, names as method_names,
    split_list as split_method_list, valid_names as valid_method_names,
};
pub use models::{Builtin, GeneratorInfo, builtin, builtins, generator, generators, load_model};
pub use simulation::{Progress, Sampling, Simulation};
pub use stop::{StopHandle, StopReason};
pub use trajectory::{COMPONENTS, RunStatus, SCALAR_COLUMNS, Trajectory};

/// The README's Rust examples, compiled and run by `cargo test --doc` (its other blocks
/// are run by `tests/readme.rs` and the Python package's `tests/test_readme.py`).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
