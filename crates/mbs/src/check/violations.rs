//! The constraints an inconsistent initial state violates most, for `mbs check`:
//! ‖Φ‖₂ and ‖Φ̇‖₂ of each joint's and driver's rows, from the sparse blocks (O(n)).

use mbs_constraints::{SystemLayout, Workspace, velocity6};
use mbs_model::{Model, State};
use serde::Serialize;

/// The violation of one joint or driver.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Violation {
    /// The joint or driver, e.g. "joint `pivot` (revolute)".
    pub constraint: String,
    /// ‖Φ‖₂ of its holonomic rows.
    pub phi: f64,
    /// ‖Φ̇‖₂ of its rows (holonomic and nonholonomic).
    pub phi_dot: f64,
}

/// How many of the worst constraints are named.
pub const NAMED: usize = 3;

/// The at most [`NAMED`] joints and drivers of `model` with the largest violation
/// at `state` above `tol` (by ‖Φ‖₂, then ‖Φ̇‖₂), worst first; empty when the
/// constraints cannot be evaluated.
pub fn worst_violations(model: &Model, state: &State, tol: f64) -> Vec<Violation> {
    let sys = SystemLayout::new(model, state.layout);
    let mut ws = Workspace::new(&sys);
    if ws.evaluate_constraints(model, &sys, state).is_err() {
        return Vec::new();
    }
    let mut all: Vec<(f64, f64, usize)> = Vec::new();
    for (k, (e, b)) in sys.entries().iter().zip(ws.blocks()).enumerate() {
        let phi = (0..e.n_holonomic)
            .map(|r| b.phi[r].powi(2))
            .sum::<f64>()
            .sqrt();
        let (vi, vj) = (velocity6(ws.frame(e.body_i)), velocity6(ws.frame(e.body_j)));
        let phi_dot = (0..e.rows())
            .map(|r| {
                (b.ji.row(r).transpose().dot(&vi) + b.jj.row(r).transpose().dot(&vj) + b.phi_t[r])
                    .powi(2)
            })
            .sum::<f64>()
            .sqrt();
        if phi > tol || phi_dot > tol {
            all.push((phi, phi_dot, k));
        }
    }
    all.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1)));
    all.into_iter()
        .take(NAMED)
        .map(|(phi, phi_dot, k)| Violation {
            constraint: sys.source_name(model, sys.entries()[k].source),
            phi,
            phi_dot,
        })
        .collect()
}
