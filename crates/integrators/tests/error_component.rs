//! The adaptive integrators say which state component limited the step: after a
//! step-size underflow it is the component whose error estimate made the step
//! collapse.

use mbs_integrators::*;

/// y₀' = −y₀ (harmless), y₁' = y₁², y₁(0) = 1: y₁ = 1/(1 − t) blows up at t = 1.
#[derive(Debug)]
struct BlowUpInSecond;

impl OdeSystem for BlowUpInSecond {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        d[0] = -y[0];
        d[1] = y[1] * y[1];
        Ok(())
    }
}

#[test]
fn underflow_names_the_component_that_blows_up() {
    let mut rk = EmbeddedRk::rk45(2, RkParams::with_tol(1e-8, 1e-8));
    assert_eq!(rk.error_component(), None);
    let r = rk.integrate(&mut BlowUpInSecond, 0.0, &[1.0, 1.0], 2.0, &[], &mut ());
    assert!(matches!(r, Err(Error::StepSizeUnderflow { .. })), "{r:?}");
    assert_eq!(rk.error_component(), Some(1));

    let mut ab = Adams::new(2, AdamsParams::with_tol(1e-8, 1e-8));
    assert_eq!(ab.error_component(), None);
    let r = ab.integrate(&mut BlowUpInSecond, 0.0, &[1.0, 1.0], 2.0, &[], &mut ());
    assert!(
        matches!(
            r,
            Err(Error::StepSizeUnderflow { .. }) | Err(Error::NonFinite { .. })
        ),
        "{r:?}"
    );
    assert_eq!(ab.error_component(), Some(1));
}
