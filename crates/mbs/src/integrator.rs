//! The integrator a simulation uses and its accuracy settings: tolerances for the
//! adaptive ones, the step for the fixed-step ones. The choice is plain numerics and
//! lives in `mbs-integrators` (which also builds the stepper it names); it is
//! re-exported here.

pub use mbs_integrators::{ChoiceError, DEFAULT_TOL, INTEGRATOR_NAMES, IntegratorChoice};

use crate::error::Error;

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
