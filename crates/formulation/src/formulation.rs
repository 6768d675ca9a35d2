//! The [`Formulation`] trait: what the facade runs.

use std::fmt;

use mbs_model::State;
use nalgebra::{DMatrix, DVector};

use crate::error::FormulationError;
use crate::sample::{RunStats, SampleSink};
use crate::spec::RunSpec;

/// A formulation ready to run on one model: built by its crate from an
/// `Arc<Model>` and its params ([`crate::Params::build`]), or written by a user.
///
/// ```
/// use mbs_formulation::{Formulation, FormulationError, RunSpec, RunStats, Sample, SampleSink};
/// /// A "method" that never moves: every sample is the initial state.
/// struct Frozen;
/// impl Formulation for Frozen {
///     fn name(&self) -> String {
///         "frozen".into()
///     }
///     fn run(&mut self, spec: &RunSpec<'_>, sink: &mut dyn SampleSink) -> Result<RunStats, FormulationError> {
///         for &t in spec.output_times {
///             let mut s = spec.initial.clone();
///             s.t = t;
///             sink.sample(Sample::new(s));
///         }
///         Ok(RunStats::default())
///     }
/// }
/// assert_eq!(Frozen.name(), "frozen");
/// ```
pub trait Formulation {
    /// The method's name with its parameters (the `name:key=value` text).
    fn name(&self) -> String;

    /// Integrates from `spec.initial` to `spec.t_end`, delivering one
    /// [`crate::Sample`] per output time to `sink` (the first at `spec.initial.t`)
    /// and calling `sink.step` after accepted steps. Returns the statistics, or an
    /// error after which the samples already delivered remain valid.
    fn run(
        &mut self,
        spec: &RunSpec<'_>,
        sink: &mut dyn SampleSink,
    ) -> Result<RunStats, FormulationError>;

    /// The Jacobian `∂f/∂y` of the method's first-order right-hand side in its own
    /// coordinates y at `spec.initial` (the linearization whose spectrum says
    /// whether a model is stiff, `mbs::spectrum`), or only the dimension of y when it
    /// exceeds `max_states`. Methods without one return
    /// [`crate::FormulationErrorKind::NotImplemented`].
    fn linearization(
        &mut self,
        spec: &RunSpec<'_>,
        max_states: usize,
    ) -> Result<Linearization, FormulationError> {
        let _ = (spec, max_states);
        Err(FormulationError::not_implemented(format!(
            "{}: no linearization exposed",
            self.name()
        )))
    }

    /// One evaluation of the method's right-hand side at `state` (layout
    /// [`crate::SAMPLE_LAYOUT`]), returning the accelerations q̈ (7 per body) it
    /// implies. Used by the criterion benches (cost of one RHS evaluation) and the
    /// cross-method consistency suite. Methods without such a map return
    /// [`crate::FormulationErrorKind::NotImplemented`].
    fn accelerations(&mut self, state: &State) -> Result<DVector<f64>, FormulationError> {
        let _ = state;
        Err(FormulationError::not_implemented(format!(
            "{}: no single right-hand-side evaluation exposed",
            self.name()
        )))
    }
}

/// What [`Formulation::linearization`] gives.
#[derive(Clone, Debug, PartialEq)]
pub enum Linearization {
    /// `∂f/∂y` at the initial state.
    Jacobian(DMatrix<f64>),
    /// Not formed: y has more states than asked for.
    TooLarge {
        /// Dimension of y.
        states: usize,
    },
}

impl fmt::Debug for dyn Formulation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Formulation({})", self.name())
    }
}
