//! The seam between the facade and the formulations, defined in `mbs-formulation`
//! and re-exported here under the facade's names: a formulation implements
//! [`FrontEnd`] (= [`mbs_formulation::Formulation`]); the facade gives it the initial
//! state, the integrator settings, the end time and the output times ([`RunSpec`]),
//! and receives [`Sample`]s through a [`SampleSink`].
//!
//! A front-end reports *states* only (absolute coordinates, Euler parameters, layout
//! [`SAMPLE_LAYOUT`], mapped from whatever coordinates it integrates), plus
//! multipliers and accelerations where it has them. The facade computes energies and
//! constraint violations from those states itself with `mbs-constraints`, so every
//! method is measured the same way.
//!
//! Adding a front-end = its crate implements [`mbs_formulation::Params`] for its
//! params type (method names, `key=value` parameters, the formulation it builds) and
//! [`crate::registry::methods`] lists that type.
//!
//! A user's own formulation plugs in the same way, through
//! [`crate::Simulation::run_front_end`]:
//!
//! ```
//! use mbs::{FrontEnd, FrontEndError, RunSpec, RunStats, Sample, SampleSink};
//! /// A "method" that never moves: every sample is the initial state.
//! struct Frozen;
//! impl FrontEnd for Frozen {
//!     fn name(&self) -> String {
//!         "frozen".into()
//!     }
//!     fn run(&mut self, spec: &RunSpec<'_>, sink: &mut dyn SampleSink) -> Result<RunStats, FrontEndError> {
//!         for &t in spec.output_times {
//!             let mut s = spec.initial.clone();
//!             s.t = t;
//!             sink.sample(Sample::new(s));
//!         }
//!         Ok(RunStats::default())
//!     }
//! }
//! let sim = mbs::Simulation::builtin("five-bar")?.t_end(1.0).samples(4);
//! let traj = sim.run_front_end(&mut Frozen, |_| {})?;
//! assert_eq!(traj.len(), 5);
//! assert!(traj.max_phi() < 1e-12 && traj.energy_drift() == 0.0);
//! # Ok::<(), mbs::Error>(())
//! ```

pub use mbs_formulation::{
    DEFAULT_MAX_STEPS, Formulation as FrontEnd, FormulationError as FrontEndError,
    FormulationErrorKind as FrontEndErrorKind, RunSpec, RunStats, SAMPLE_LAYOUT, Sample,
    SampleSink,
};
