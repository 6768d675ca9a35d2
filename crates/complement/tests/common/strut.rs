//! The McPherson-strut study of Pękal–Frączek (sec 4, Figs 2–5): every method ×
//! stabilization × RK45 tolerance, 10 s, wall time and constraint errors. The
//! model is supplied by the caller (`mbs_mechanisms::mcpherson_simplified` /
//! `mcpherson_overconstrained`), so that this crate stays below the mechanisms
//! crate.
//!
//! Documented exceptions: none. Every method (Wang–Huston included: with Euler
//! parameters it runs on the equivalent augmented mass matrix of
//! `mbs_complement`'s dynamics) × stabilization × tolerance completes the 10 s on both
//! struts in both coordinate sets (Euler angles ZYX: the struts' bodies are far
//! from that sequence's gimbal lock; ZXZ, the paper's choice, is singular at the
//! struts' initial orientations, whose body z axes are vertical, and is rejected
//! with `ComplementError::GimbalLock`).

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mbs_integrators::{EmbeddedRk, Info, Observer, RkParams};
use mbs_linalg::nullspace::NullSpaceMethod;
use mbs_model::Model;

use mbs_complement::{
    Complement, ComplementParams, ComplementStats, Coordinates, Evaluator, Level, Stabilization,
};

/// The paper's tolerances (AbsTol = RelTol).
pub const PAPER_TOLERANCES: [f64; 4] = [1e-10, 1e-8, 1e-6, 1e-3];

/// The paper's final time (s).
pub const PAPER_T_END: f64 = 10.0;

/// The outcome of one run.
#[derive(Clone, Debug)]
pub struct StrutRun {
    /// Method, coordinates and stabilization.
    pub params: ComplementParams,
    /// RK45 tolerance (AbsTol = RelTol).
    pub tol: f64,
    /// Requested final time.
    pub t_end: f64,
    /// Time reached (`t_end` on success).
    pub t_reached: f64,
    /// Wall time of the integration (monitoring included if enabled).
    pub wall: Duration,
    /// Integrator statistics.
    pub info: Info,
    /// Front-end counters.
    pub stats: ComplementStats,
    /// Largest ‖Φ‖₂ over the accepted steps (NaN if not monitored).
    pub max_position_violation: f64,
    /// Largest ‖Φ̇‖₂ over the accepted steps (NaN if not monitored).
    pub max_velocity_violation: f64,
    /// ‖Φ‖₂ at the end.
    pub final_position_violation: f64,
    /// The error that stopped the run, if any.
    pub error: Option<String>,
}

impl StrutRun {
    /// Whether the run reached `t_end`.
    pub fn completed(&self) -> bool {
        self.error.is_none()
    }
}

/// Records ‖Φ‖ and ‖Φ̇‖ after every accepted step.
struct Monitor {
    eval: Evaluator,
    n_q: usize,
    max_pos: f64,
    max_vel: f64,
}

impl Observer for Monitor {
    fn step(&mut self, t: f64, y: &[f64]) -> ControlFlow<()> {
        let (q, v) = y.split_at(self.n_q);
        if self.eval.evaluate(t, q, v, Level::Velocities).is_ok() {
            self.max_pos = self.max_pos.max(self.eval.eq.phi.norm());
            self.max_vel = self.max_vel.max(self.eval.eq.phi_dot(v).norm());
        }
        ControlFlow::Continue(())
    }
}

/// Integrates `model` with `params` by RK45 at `tol` (AbsTol = RelTol) from its
/// initial state to `t_end`; `monitor` records the constraint violations after
/// every accepted step (costs one extra constraint evaluation per step).
pub fn run(
    model: Arc<Model>,
    params: ComplementParams,
    tol: f64,
    t_end: f64,
    monitor: bool,
) -> StrutRun {
    let mut out = StrutRun {
        params,
        tol,
        t_end,
        t_reached: 0.0,
        wall: Duration::ZERO,
        info: Info::default(),
        stats: ComplementStats::default(),
        max_position_violation: f64::NAN,
        max_velocity_violation: f64::NAN,
        final_position_violation: f64::NAN,
        error: None,
    };
    let mut sys = match Complement::new(model.clone(), params) {
        Ok(s) => s,
        Err(e) => {
            out.error = Some(e.to_string());
            return out;
        }
    };
    let y0 = sys.initial_state();
    let n = y0.len();
    let mut rk = EmbeddedRk::rk45(n, RkParams::with_tol(tol, tol));
    let mut mon = Monitor {
        eval: Evaluator::new(model, params.coordinates, params.gimbal_tol),
        n_q: sys.n_q(),
        max_pos: 0.0,
        max_vel: 0.0,
    };
    let start = Instant::now();
    let res = if monitor {
        rk.integrate(&mut sys, 0.0, &y0, t_end, &[], &mut mon)
    } else {
        rk.integrate(&mut sys, 0.0, &y0, t_end, &[], &mut ())
    };
    out.wall = start.elapsed();
    out.info = rk.info();
    out.t_reached = rk.t();
    if let Err(e) = res {
        out.error = Some(e.to_string());
    }
    if monitor {
        out.max_position_violation = mon.max_pos;
        out.max_velocity_violation = mon.max_vel;
    }
    let y = rk.y().to_vec();
    out.final_position_violation = sys
        .violation(out.t_reached, &y)
        .map_or(f64::NAN, |v| v.position);
    out.stats = sys.stats();
    out
}

/// The full sweep of Figs 2–5 for one strut: every method of `methods` × the
/// three stabilizations (Baumgarte α̂ = β̂ = 10, Newton–Raphson at `nr_tol`) ×
/// `tolerances`, in `coordinates`. Runs are sequential so that wall times are
/// comparable.
pub fn sweep(
    model: Arc<Model>,
    coordinates: Coordinates,
    methods: &[NullSpaceMethod],
    tolerances: &[f64],
    nr_tol: f64,
    t_end: f64,
    monitor: bool,
) -> Vec<StrutRun> {
    let mut runs = Vec::new();
    for &method in methods {
        for stabilization in Stabilization::paper_cases(nr_tol) {
            for &tol in tolerances {
                let params = ComplementParams {
                    method,
                    coordinates,
                    stabilization,
                    ..ComplementParams::default()
                };
                runs.push(run(model.clone(), params, tol, t_end, monitor));
            }
        }
    }
    runs
}
