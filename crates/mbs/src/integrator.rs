//! The integrator a simulation uses and its accuracy settings: tolerances for the
//! adaptive ones, the step for the fixed-step ones. The choice is plain numerics and
//! lives in `mbs-integrators` (which also builds the stepper it names); it is
//! re-exported here.

pub use mbs_integrators::{ChoiceError, DEFAULT_TOL, INTEGRATOR_NAMES, IntegratorChoice};

use crate::error::Error;

/// An integrator as a user asks for it, every part optional: a name or a
/// `name:key=value…` spec, tolerances, a step — the CLI's `--integrator`, `--rtol`,
/// `--atol`, `--h` and the arguments of the Python package's `mbs.simulate`. Both go
/// through [`crate::Simulation::choose`], so they reach the same defaults.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IntegratorRequest {
    /// A name (`rk45`) or a spec (`rk45:rtol=1e-8`, `trapezoidal:h=0.01`); `None`: the
    /// default integrator of the method ([`crate::Simulation::choose`]).
    pub spec: Option<String>,
    /// Relative tolerance (adaptive integrators).
    pub rtol: Option<f64>,
    /// Absolute tolerance (adaptive integrators; default: `rtol`).
    pub atol: Option<f64>,
    /// Step (fixed-step integrators).
    pub h: Option<f64>,
}

impl IntegratorRequest {
    /// The integrator asked for, `default_name` when no name is given: a spec is
    /// parsed as such when no separate tolerance or step is given, else the name takes
    /// them (`IntegratorChoice::from_name`); absent values take [`DEFAULT_TOL`] or the
    /// default step.
    pub fn resolve(&self, default_name: &str) -> Result<IntegratorChoice, Error> {
        let spec = self.spec.as_deref().unwrap_or(default_name);
        if self.rtol.is_none() && self.atol.is_none() && self.h.is_none() {
            Ok(spec.parse()?)
        } else {
            Ok(IntegratorChoice::from_name(
                spec, self.rtol, self.atol, self.h,
            )?)
        }
    }
}

impl From<ChoiceError> for Error {
    fn from(e: ChoiceError) -> Self {
        match e {
            ChoiceError::Unknown { name, valid } => Error::UnknownIntegrator { name, valid },
            ChoiceError::InvalidParameter {
                element,
                parameter,
                requirement,
                value,
            } => Error::InvalidParameter {
                element,
                parameter,
                requirement,
                value,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bad integrator string is the facade's error, with the same message.
    #[test]
    fn choice_errors_are_facade_errors() {
        let parse = |s: &str| -> Result<IntegratorChoice, Error> { Ok(s.parse()?) };
        let e = parse("rk99").unwrap_err();
        assert!(matches!(e, Error::UnknownIntegrator { .. }), "{e:?}");
        assert!(e.to_string().contains("rk45"), "{e}");
        let e = parse("midpoint:h=-0.1").unwrap_err();
        assert!(matches!(e, Error::InvalidParameter { .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            "integrator `midpoint`: parameter `h` must be positive, got `-0.1`"
        );
        assert_eq!(
            parse("trapezoidal:h=0.01").unwrap(),
            IntegratorChoice::Trapezoidal { h: 0.01 }
        );
    }
}
