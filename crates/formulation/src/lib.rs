//! The seam between the `mbs` facade and the formulation crates (`mbs-alf`,
//! `mbs-dca`, `mbs-hdca`, `mbs-complement`).
//!
//! - [`params`]: each formulation's parameters described once (key, meaning,
//!   parsing and validation, the method names that preset them), from which the
//!   `name:key=value` syntax, its text form and the listing of every parameter with
//!   its default derive;
//! - [`Sample`], [`SampleSink`], [`RunStats`]: what a running formulation delivers
//!   (states in absolute coordinates with Euler parameters, [`SAMPLE_LAYOUT`], with
//!   multipliers and accelerations where the formulation has them);
//! - [`FormulationError`]: when, where and what went wrong, with the statistics up
//!   to the failure;
//! - [`Formulation`]: what the facade runs, given a [`RunSpec`] (initial state,
//!   integrator, output times, limits); each formulation crate builds its own from an
//!   `Arc<Model>` and its params ([`Params::build`]);
//! - [`Runner`]: one runner for the formulations that integrate their own
//!   coordinates ([`OdeFormulation`]), over [`drive`]'s integrator plumbing;
//! - [`DivergenceCheck`]: the one check that stops a diverging run, naming the body.
//!
//! Layering: below the formulation crates, above `mbs-integrators` and `mbs-model`.

mod divergence;
/// Integrator plumbing shared by the formulations' runners (`drive::newton`,
/// `drive::integrate_ode`, …): a namespace, since the names read as verbs of it.
pub mod drive;
mod error;
mod formulation;
pub mod memory;
/// Method parameters: [`Params`] and its `key=value` helpers (`params::preset`,
/// `params::display`, …), a namespace since the helpers' names read as verbs of it.
pub mod params;
pub mod projection;
mod runner;
mod sample;
mod spec;

pub use divergence::DivergenceCheck;
pub use error::{FormulationError, FormulationErrorKind};
pub use formulation::{Formulation, Linearization};
pub use params::{Key, MethodEntry, MethodParams, ParamError, ParamSpec, Params, Preset, Problem};
pub use runner::{OdeFormulation, Runner, StepCheck, finite_check, qdd_from_omega_dot};
pub use sample::{RunStats, SAMPLE_LAYOUT, Sample, SampleSink};
pub use spec::{DEFAULT_MAX_STEPS, RunSpec};
