//! Accuracy figures of sec 3.2: total-energy error and loop-closure errors at the
//! velocity and position level along an RK45 run.

use std::ops::ControlFlow;
use std::sync::Arc;

use mbs_constraints::{SystemLayout, Workspace};
use mbs_integrators::{EmbeddedRk, RkParams as Params};
use mbs_model::{Layout, Model};

use mbs_hdca::{Hdca, HdcaError, HdcaParams};

/// Result of [`run_report`].
#[derive(Clone, Debug, PartialEq)]
pub struct HdcaRunReport {
    /// Sample times.
    pub t: Vec<f64>,
    /// Total energy error E(t) − E(0).
    pub energy_error: Vec<f64>,
    /// Velocity-level constraint violation ‖Φ̇‖∞ of the absolute state.
    pub phi_dot: Vec<f64>,
    /// Position-level constraint violation ‖Φ‖∞ of the absolute state.
    pub phi: Vec<f64>,
    /// max |E − E₀|.
    pub max_energy_error: f64,
    /// max ‖Φ̇‖∞.
    pub max_phi_dot: f64,
    /// max ‖Φ‖∞.
    pub max_phi: f64,
    /// max |σ| over the samples (the cut impulses σ_c = ∫λ_c dt grow without bound
    /// when a reaction keeps its sign, sec 3.4).
    pub max_abs_sigma: f64,
    /// Right-hand-side evaluations.
    pub rhs_evaluations: u64,
    /// Accepted steps.
    pub steps: usize,
}

struct Collect {
    t: Vec<f64>,
    y: Vec<Vec<f64>>,
}

impl mbs_integrators::Observer for Collect {
    fn step(&mut self, _t: f64, _y: &[f64]) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    fn sample(&mut self, t: f64, y: &[f64]) {
        self.t.push(t);
        self.y.push(y.to_vec());
    }
}

/// Integrates `model` by HDCA with RK45 (rtol = atol = `tol`) from its initial state
/// to `t_end`, sampling `n_samples + 1` equally spaced times, and reports the energy
/// error and the loop closure (Φ, Φ̇ of `mbs-constraints` on the absolute state).
pub fn run_report(
    model: Arc<Model>,
    t_end: f64,
    tol: f64,
    n_samples: usize,
) -> Result<HdcaRunReport, HdcaError> {
    let mut h = Hdca::new(model.clone(), HdcaParams::default())?;
    let y0 = h.initial_state();
    let n = y0.len();
    let t_out: Vec<f64> = (0..=n_samples)
        .map(|k| t_end * k as f64 / n_samples as f64)
        .collect();
    let mut rk = EmbeddedRk::rk45(n, Params::with_tol(tol, tol));
    let mut obs = Collect {
        t: Vec::new(),
        y: Vec::new(),
    };
    let info = rk
        .integrate(&mut h, 0.0, &y0, t_end, &t_out, &mut obs)
        .map_err(|e| HdcaError::Integration(e.to_string()))?;
    let sys = SystemLayout::new(&model, Layout::EulerParamsPdot);
    let mut ws = Workspace::new(&sys);
    let mut out = HdcaRunReport {
        t: obs.t.clone(),
        energy_error: Vec::new(),
        phi_dot: Vec::new(),
        phi: Vec::new(),
        max_energy_error: 0.0,
        max_phi_dot: 0.0,
        max_phi: 0.0,
        max_abs_sigma: 0.0,
        rhs_evaluations: h.stats().rhs_evaluations,
        steps: info.accepted_steps,
    };
    let mut e0 = None;
    let mut phi = vec![0.0; sys.n_rows()];
    let mut phid = vec![0.0; sys.n_rows()];
    for (t, y) in obs.t.iter().zip(&obs.y) {
        let e = h.energy(*t, y)?;
        out.max_abs_sigma = out.max_abs_sigma.max(h.stats().max_abs_sigma);
        let e0v = *e0.get_or_insert(e);
        let s = h.to_state(*t, y)?;
        ws.evaluate(&model, &sys, &s)
            .map_err(|e| HdcaError::Loads {
                t: *t,
                message: e.to_string(),
            })?;
        ws.phi(&sys, &mut phi).map_err(|e| HdcaError::Loads {
            t: *t,
            message: e.to_string(),
        })?;
        ws.phi_dot(&sys, &mut phid).map_err(|e| HdcaError::Loads {
            t: *t,
            message: e.to_string(),
        })?;
        let nh = sys.n_holonomic();
        let skip = sys.normalization_start().unwrap_or(nh);
        let pmax = phi[..skip].iter().fold(0.0_f64, |m, x| m.max(x.abs()));
        let vmax = phid[..skip].iter().fold(0.0_f64, |m, x| m.max(x.abs()));
        out.energy_error.push(e - e0v);
        out.phi.push(pmax);
        out.phi_dot.push(vmax);
        out.max_energy_error = out.max_energy_error.max((e - e0v).abs());
        out.max_phi = out.max_phi.max(pmax);
        out.max_phi_dot = out.max_phi_dot.max(vmax);
    }
    Ok(out)
}
