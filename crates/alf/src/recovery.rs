//! Multipliers recovered at a state: for front-ends without multipliers (reduced and
//! coordinate methods, HDCA), or whose multipliers are scaled differently (penalty
//! forces Φ/ε, ALF's λ*), the Lagrange multipliers of the exact constrained equations
//! of motion at (q, q̇, t) (Bayo–Ledesma eq 4, NOTATION.md signs):
//!
//! ```text
//!   [ M    Φ_qᵀ ] [ q̈ ]   [ Q ]
//!   [ Φ_q  0    ] [ λ  ] = [ γ ]
//! ```
//!
//! solved by [`LagrangeAccelerations`] without stabilization, in the pseudo-inverse
//! sense (min-norm backend), so that redundant rows share the reaction with the
//! least-norm λ rather than fail. Rows are those of `mbs-constraints` in the
//! [ṙ, ṗ] layout (joints, drivers, custom, normalization, then nonholonomic).

use std::sync::Arc;

use mbs_model::{Layout, Model, State};
use nalgebra::DVector;

use crate::descriptor::{Descriptor, Level};
use crate::error::AlfError;
use crate::lagrange::LagrangeAccelerations;
use crate::mechanism::MechanismDescriptor;

/// Workspace of the multiplier recovery of one model.
#[derive(Debug)]
pub struct MultiplierRecovery {
    desc: MechanismDescriptor,
    lagrange: LagrangeAccelerations,
    qdd: DVector<f64>,
    lambda: DVector<f64>,
}

impl MultiplierRecovery {
    /// Storage for `model`.
    pub fn new(model: Arc<Model>) -> Self {
        let desc = MechanismDescriptor::new(model);
        let (n, m) = (desc.n(), desc.m());
        Self {
            desc,
            lagrange: LagrangeAccelerations::new(n, m, None, true),
            qdd: DVector::zeros(n),
            lambda: DVector::zeros(m),
        }
    }

    /// The model's constraint assembly (row ranges of λ).
    pub fn layout(&self) -> &mbs_constraints::SystemLayout {
        self.desc.layout()
    }

    /// λ (one per row of [`Self::layout`]) and q̈ at `state` (any layout).
    pub fn solve(&mut self, state: &State) -> Result<(&[f64], &[f64]), AlfError> {
        let converted;
        let s = if state.layout == Layout::EulerParamsPdot {
            state
        } else {
            converted = state.to_layout(Layout::EulerParamsPdot);
            &converted
        };
        let (q, v) = (s.q.as_slice(), s.v.as_slice());
        self.desc.evaluate(s.t, q, v, Level::Full)?;
        self.lagrange.solve(s.t, &self.desc, v, &mut self.qdd)?;
        self.lambda.copy_from(&self.lagrange.multipliers());
        Ok((self.lambda.as_slice(), self.qdd.as_slice()))
    }
}
