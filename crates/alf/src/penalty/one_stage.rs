//! The one-stage (plain central-difference) form of the penalty procedure, for
//! Chiou's stability comparison (sec 5.5.2, sec 7.4): plain central difference has no
//! implicit stage, so the constraint forces of eq 5.5.5.2 are solved at every
//! station from the lagged velocity (ω^n ≈ ω^{n−½}) before the accelerations.

use mbs_integrators::{PartitionedSystem, SystemError};

use super::PenaltySystem;

/// [`PenaltySystem`] for `mbs_integrators::CentralDifference`: every acceleration
/// evaluation first solves eq 5.5.5.2 over ϱ = h/2.
#[derive(Debug)]
pub struct OneStagePenalty {
    /// The penalty system.
    pub inner: PenaltySystem,
    /// ϱ = h/2 of the central-difference step.
    pub rho: f64,
}

impl OneStagePenalty {
    /// Wraps `inner` for central differences with step `h`.
    pub fn new(inner: PenaltySystem, h: f64) -> Self {
        Self {
            inner,
            rho: 0.5 * h,
        }
    }
}

impl PartitionedSystem for OneStagePenalty {
    fn dim_positions(&self) -> usize {
        self.inner.dim_positions()
    }
    fn dim_velocities(&self) -> usize {
        self.inner.dim_velocities()
    }
    fn accelerations(
        &mut self,
        t: f64,
        x: &[f64],
        v: &[f64],
        a: &mut [f64],
    ) -> Result<(), SystemError> {
        self.inner.implicit_stage(t, x, v, self.rho)?;
        self.inner.accelerations(t, x, v, a)
    }
    fn advance_positions(
        &mut self,
        x: &[f64],
        v_half: &[f64],
        h: f64,
        x_out: &mut [f64],
    ) -> Result<(), SystemError> {
        self.inner.advance_positions(x, v_half, h, x_out)
    }
    fn project(&mut self, t: f64, x: &mut [f64], v: &mut [f64]) -> Result<bool, SystemError> {
        self.inner.project(t, x, v)
    }
}
