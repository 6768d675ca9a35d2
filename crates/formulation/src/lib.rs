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
//! - [`DivergenceCheck`]: the one check that stops a diverging run, naming the body.

pub mod divergence;
pub mod error;
pub mod params;
pub mod sample;

pub use divergence::DivergenceCheck;
pub use error::{FormulationError, FormulationErrorKind};
pub use params::{Key, MethodEntry, MethodParams, ParamError, ParamSpec, Params, Preset, Problem};
pub use sample::{RunStats, SAMPLE_LAYOUT, Sample, SampleSink};
