//! Parameters of the ABA front-end (none yet: the algorithm has no tuning knob).

/// Options of [`crate::Aba`]: the articulated-body algorithm has no parameters; the
/// type exists for the facade's `name:key=value` syntax.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AbaParams {}
