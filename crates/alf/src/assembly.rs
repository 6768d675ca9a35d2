//! Assembly of an initial state: inconsistent initial positions and velocities are
//! brought onto the constraint manifold by the mass-orthogonal projections of
//! Bayo–Ledesma (eqs 9–24), and the report says how far they were moved.
//!
//! The projection is the closest consistent state in the mass metric. A state from
//! which no consistent state is found within [`AssemblyParams::max_move`] (largest
//! coordinate change), or from which the projection does not converge, gives
//! [`AlfError::InconsistentInitialState`] naming the worst constraint and its
//! violation — the documented recovery is to fix the initial poses in the model.

use std::sync::Arc;

use mbs_model::{Layout, Model, State};
use nalgebra::DVector;

use crate::descriptor::{Descriptor, Level, max_abs};
use crate::error::AlfError;
use crate::mechanism::MechanismDescriptor;
use crate::params::ProjectionParams;
use crate::projection::{ProjectionKind, Projector};

/// Parameters of [`assemble`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AssemblyParams {
    /// Largest change of any coordinate (m for positions, Euler-parameter units for
    /// orientations) accepted for the positions.
    pub max_move: f64,
    /// Projection parameters (more iterations than during integration).
    pub projection: ProjectionParams,
}

impl Default for AssemblyParams {
    fn default() -> Self {
        Self {
            max_move: 0.5,
            projection: ProjectionParams {
                max_iter: 60,
                eps_q: 1e-14,
                eps_v: 1e-14,
                ..ProjectionParams::default()
            },
        }
    }
}

/// How far the assembly moved the state.
#[derive(Clone, Debug, PartialEq)]
pub struct AssemblyReport {
    /// ‖Φ‖∞ before and after.
    pub phi_before: f64,
    /// ‖Φ‖∞ after the projection.
    pub phi_after: f64,
    /// ‖Φ̇‖∞ before.
    pub phi_dot_before: f64,
    /// ‖Φ̇‖∞ after.
    pub phi_dot_after: f64,
    /// Largest change of a position coordinate.
    pub position_change: f64,
    /// Largest change of a velocity coordinate ([ṙ, ṗ] layout).
    pub velocity_change: f64,
    /// Projection iterations (positions, velocities).
    pub iterations: (usize, usize),
}

impl AssemblyReport {
    /// Whether the state needed any change beyond round-off.
    pub fn moved(&self) -> bool {
        self.position_change > 1e-12 || self.velocity_change > 1e-12
    }
}

fn violations(
    d: &mut MechanismDescriptor,
    t: f64,
    q: &[f64],
    v: &[f64],
) -> Result<(f64, f64, usize), AlfError> {
    d.evaluate(t, q, v, Level::Velocities)?;
    let phi = d.phi().amax();
    let vv = DVector::from_column_slice(v);
    let phid = d.phi_q() * vv + d.phi_t();
    let (row, _) = max_abs(d.phi().as_slice());
    Ok((phi, phid.amax(), row))
}

/// Projects `state` (any Euler-parameter layout) onto Φ = 0 and Φ̇ = 0; returns the
/// assembled state in the same layout and the report.
pub fn assemble(
    model: Arc<Model>,
    state: &State,
    params: &AssemblyParams,
) -> Result<(State, AssemblyReport), AlfError> {
    let pd = state.to_layout(Layout::EulerParamsPdot);
    let t = pd.t;
    let mut d = MechanismDescriptor::new(model);
    let (mut q, mut v) = (pd.q.as_slice().to_vec(), pd.v.as_slice().to_vec());
    // normalise the Euler parameters first (a unit-norm violation is not a motion)
    for b in 0..q.len() / 7 {
        let p = &mut q[mbs_model::body_coords::euler_params_range(b)];
        let n = p.iter().map(|x| x * x).sum::<f64>().sqrt();
        if n > 0.0 && n.is_finite() {
            p.iter_mut().for_each(|x| *x /= n);
        }
    }
    let (phi_before, phi_dot_before, _) = violations(&mut d, t, &q, &v)?;
    let (n, m, m_h) = (d.n(), d.m(), d.m_holonomic());
    let mut proj = Projector::new(
        n,
        m,
        m_h,
        ProjectionKind::AugmentedLagrangian,
        params.projection,
    );
    let inconsistent = |d: &mut MechanismDescriptor, reason: String, q: &[f64], v: &[f64]| {
        let (phi, _, row) = violations(d, t, q, v).unwrap_or((f64::NAN, f64::NAN, 0));
        AlfError::InconsistentInitialState {
            t,
            violation: phi,
            location: d.row_label(row),
            reason,
        }
    };
    let q0 = q.clone();
    let it_q = match proj.project_positions(t, &mut d, &mut q, &v) {
        Ok((it, _)) => it,
        // divergence (non-finite iterates, singular matrices) or no convergence:
        // report at the given state
        Err(e) => {
            let reason = match e {
                AlfError::NotConverged { iterations, .. } => {
                    format!("the position projection did not converge in {iterations} iterations")
                }
                other => format!("the position projection failed ({other})"),
            };
            return Err(inconsistent(&mut d, reason, &q0, &v));
        }
    };
    let position_change = q
        .iter()
        .zip(&q0)
        .fold(0.0f64, |a, (x, y)| a.max((x - y).abs()));
    if position_change > params.max_move {
        return Err(inconsistent(
            &mut d,
            format!(
                "the nearest consistent positions are {position_change:.3e} away (more than max_move = {})",
                params.max_move
            ),
            &q0,
            &v,
        ));
    }
    let v0 = v.clone();
    let (it_v, _) = proj.project_velocities(t, &mut d, &q, &mut v)?;
    let velocity_change = v
        .iter()
        .zip(&v0)
        .fold(0.0f64, |a, (x, y)| a.max((x - y).abs()));
    let (phi_after, phi_dot_after, _) = violations(&mut d, t, &q, &v)?;
    let mut out = d.to_state(t, &q, &v);
    out = out.to_layout(state.layout);
    Ok((
        out,
        AssemblyReport {
            phi_before,
            phi_after,
            phi_dot_before,
            phi_dot_after,
            position_change,
            velocity_change,
            iterations: (it_q, it_v),
        },
    ))
}
