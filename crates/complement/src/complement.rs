//! [`Complement`]: the orthogonal-complement front-end as an ODE in y = [q; q̇].
//!
//! State layout (n_b bodies):
//! * [`Coordinates::EulerParams`]: `y = [q; q̇]`, q = [r, p] per body (7), q̇ =
//!   [ṙ, ṗ] per body (7); `dim = 14 n_b` — the Euler-parameter [ṙ, ṗ] `State`
//!   layout, q then v.
//! * [`Coordinates::EulerAngles`]: q = [r, θ] per body (6), q̇ = [ṙ, θ̇] per body
//!   (6); `dim = 12 n_b` (the `EulerAngleState` layout, q then v).
//!
//! All generalized coordinates are integrated (as in the paper, sec 3.3.1);
//! `ẏ = [q̇; q̈]` with q̈ from [`crate::dynamics`].

use std::sync::Arc;

use mbs_integrators::{OdeSystem, SystemError};
use mbs_linalg::nullspace::NullSpaceMethod;
use mbs_model::{Layout, Model, State};
use nalgebra::DVector;

use crate::basis::Basis;
use crate::coords::{Evaluator, Level};
use crate::dynamics::{accelerations_into, augment_normalization};
use crate::error::{ComplementError, check_len};
use crate::params::{ComplementParams, Coordinates, Stabilization};
use crate::stabilization::{CorrectionWork, correct, gamma_bar_into};
use crate::workspace::ComplementWorkspace;

/// Counters of a [`Complement`] run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ComplementStats {
    /// Acceleration evaluations.
    pub evaluations: usize,
    /// Coordinate partitioning: partition selections after the first one.
    pub reselections: usize,
    /// Numerical rank of Φ_q at the last evaluation.
    pub rank: usize,
    /// Times the rank of Φ_q differed from the previous evaluation.
    pub rank_changes: usize,
    /// Newton–Raphson position corrections applied.
    pub position_corrections: usize,
    /// Velocity corrections applied.
    pub velocity_corrections: usize,
    /// Newton iterations spent in position corrections.
    pub newton_iterations: usize,
}

/// Constraint violations at one state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Violation {
    /// ‖Φ‖₂ (holonomic rows, normalization included for Euler parameters).
    pub position: f64,
    /// ‖Φ_q q̇ + Φ_t‖₂.
    pub velocity: f64,
}

/// The orthogonal-complement formulation of Pękal–Frączek (eqs 3.1–3.42) for an
/// `mbs-model` [`Model`].
#[derive(Debug)]
pub struct Complement {
    params: ComplementParams,
    eval: Evaluator,
    basis: Basis,
    /// (row, k) of the normalization rows for Wang–Huston with Euler parameters.
    norm_rows: Vec<(usize, f64)>,
    y0: Vec<f64>,
    stats: ComplementStats,
    last_rank: Option<usize>,
    /// Euler angles: singular factor per body at the last accepted step, and
    /// its time (`None` before the first).
    last_factors: Vec<f64>,
    last_factor_t: Option<f64>,
    /// Preallocated scratch of an evaluation.
    ws: ComplementWorkspace,
    /// Preallocated scratch of the Newton–Raphson correction.
    correction: CorrectionWork,
}

impl Complement {
    /// Builds the front-end; the initial state is the model's, converted to the
    /// chosen coordinates (fails at gimbal lock of Euler angles).
    pub fn new(model: Arc<Model>, params: ComplementParams) -> Result<Self, ComplementError> {
        params.validate()?;
        let eval = Evaluator::new(model.clone(), params.coordinates, params.gimbal_tol);
        let s0 = State::initial(&model, Layout::EulerParamsPdot);
        let (q0, v0) = eval.from_state(&s0)?;
        let norm_rows = match (params.coordinates, eval.layout().normalization_start()) {
            (Coordinates::EulerParams, Some(start))
                if params.method == NullSpaceMethod::WangHuston =>
            {
                (0..model.n_bodies())
                    .map(|b| (start + b, eval.layout().inertia(b).trace() / 3.0))
                    .collect()
            }
            _ => Vec::new(),
        };
        let (n, m, m_h) = (eval.n_v(), eval.m(), eval.m_holonomic());
        Ok(Self {
            ws: ComplementWorkspace::new(n, m),
            correction: CorrectionWork::new(m, m_h, n),
            last_factors: vec![0.0; model.n_bodies()],
            last_factor_t: None,
            basis: Basis::new(params.method, params.rank_tol, params.reselect_ratio),
            params,
            eval,
            norm_rows,
            y0: [q0, v0].concat(),
            stats: ComplementStats::default(),
            last_rank: None,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &ComplementParams {
        &self.params
    }
    /// The model.
    pub fn model(&self) -> &Arc<Model> {
        self.eval.model()
    }
    /// Number of position coordinates (7 or 6 per body).
    pub fn n_q(&self) -> usize {
        self.eval.n_q()
    }
    /// Number of velocity coordinates (7 or 6 per body).
    pub fn n_v(&self) -> usize {
        self.eval.n_v()
    }
    /// The model's initial state as y = [q; q̇] (see the module docs).
    pub fn initial_state(&self) -> Vec<f64> {
        self.y0.clone()
    }
    /// y = [q; q̇] of any `State`.
    pub fn state_to_y(&self, s: &State) -> Result<Vec<f64>, ComplementError> {
        let (q, v) = self.eval.from_state(s)?;
        Ok([q, v].concat())
    }
    /// The state y at time t as a `State` in the Euler-parameter [ṙ, ṗ] layout.
    pub fn to_state(&self, t: f64, y: &[f64]) -> State {
        let n = self.n_q();
        self.eval.to_state(t, &y[..n], &y[n..])
    }
    /// Counters.
    pub fn stats(&self) -> ComplementStats {
        let mut s = self.stats;
        s.reselections = self.basis.selections().saturating_sub(1);
        s
    }
    /// The evaluator (equations of the last evaluation).
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// q̈ at (t, q, q̇) into `qdd` (length n_v), by the selected method and
    /// stabilization. Allocation-free (the evaluation runs in the preallocated
    /// [`ComplementWorkspace`]); only the error paths allocate their messages.
    pub fn accelerations(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
        qdd: &mut [f64],
    ) -> Result<(), ComplementError> {
        check_len("accelerations", self.n_v(), qdd.len())?;
        self.eval.evaluate(t, q, v, Level::Full)?;
        let eq = &self.eval.eq;
        let ws = &mut self.ws;
        gamma_bar_into(
            self.params.stabilization,
            eq,
            v,
            &mut ws.gamma_bar,
            &mut ws.phi_dot,
        );
        let tol = self.params.rank_tol;
        let method = self.params.method.name();
        let nse = |source| ComplementError::NullSpace { t, method, source };
        let (mass, forces) = if self.params.method == NullSpaceMethod::WangHuston {
            ws.mass_aug.copy_from(&eq.mass);
            ws.forces_aug.copy_from(&eq.forces);
            augment_normalization(
                &mut ws.mass_aug,
                &mut ws.forces_aug,
                &eq.phi_q,
                &ws.gamma_bar,
                &self.norm_rows,
            );
            self.basis
                .compute_into(&eq.phi_q, Some(&ws.mass_aug), &mut ws.nullspace)
                .map_err(nse)?;
            (&ws.mass_aug, &ws.forces_aug)
        } else {
            self.basis
                .compute_into(&eq.phi_q, None, &mut ws.nullspace)
                .map_err(nse)?;
            (&eq.mass, &eq.forces)
        };
        let a = accelerations_into(
            t,
            &ws.nullspace,
            mass,
            forces,
            &eq.phi_q,
            &ws.gamma_bar,
            tol,
            &mut ws.solve,
        );
        let rank = ws.nullspace.rank();
        self.note_rank(rank);
        a?;
        self.stats.evaluations += 1;
        let a = &self.ws.solve.qdd;
        if let Some(i) = a.iter().position(|x| !x.is_finite()) {
            return Err(ComplementError::NonFinite {
                t,
                quantity: "acceleration",
                location: self.eval.coordinate_label(i),
            });
        }
        qdd.copy_from_slice(a.as_slice());
        Ok(())
    }

    fn note_rank(&mut self, rank: usize) {
        if self.last_rank.is_some_and(|r| r != rank) {
            self.stats.rank_changes += 1;
        }
        self.last_rank = Some(rank);
        self.stats.rank = rank;
    }

    /// ‖Φ‖₂ and ‖Φ̇‖₂ at (t, y).
    pub fn violation(&mut self, t: f64, y: &[f64]) -> Result<Violation, ComplementError> {
        let n = self.n_q();
        self.eval.evaluate(t, &y[..n], &y[n..], Level::Velocities)?;
        Ok(Violation {
            position: self.eval.eq.phi.norm(),
            velocity: self.eval.eq.phi_dot(&y[n..]).norm(),
        })
    }

    /// The Newton–Raphson correction of [`Stabilization::NewtonRaphson`] (does
    /// nothing for the other stabilizations); `Ok(true)` if y changed.
    pub fn correct(&mut self, t: f64, y: &mut [f64]) -> Result<bool, ComplementError> {
        let Stabilization::NewtonRaphson { tol } = self.params.stabilization else {
            return Ok(false);
        };
        let n = self.n_q();
        let (q, v) = y.split_at_mut(n);
        let c = correct(
            &mut self.eval,
            &mut self.correction,
            t,
            q,
            v,
            tol,
            self.params.newton_max_iter,
            self.params.rank_tol,
        )?;
        self.stats.position_corrections += usize::from(c.position);
        self.stats.velocity_corrections += usize::from(c.velocity);
        self.stats.newton_iterations += c.iterations;
        Ok(c.position || c.velocity)
    }
}

impl Complement {
    /// Euler angles: errors when the singular factor (sin β or cos β) of a body
    /// changed sign since the last accepted step — the motion went through
    /// gimbal lock between two steps, where no evaluation came close enough to
    /// be caught by `gimbal_tol`. A new run (t not increasing) starts afresh.
    fn check_gimbal_crossing(&mut self, t: f64, y: &[f64]) -> Result<(), ComplementError> {
        let Coordinates::EulerAngles(seq) = self.params.coordinates else {
            return Ok(());
        };
        let model = self.eval.model().clone();
        let nb = model.n_bodies();
        let crossed = (0..nb).find(|&b| {
            let f1 = seq.singular_factor(y[6 * b + 4]);
            self.last_factor_t.is_some_and(|t0| t > t0) && self.last_factors[b] * f1 < 0.0
        });
        if let Some(b) = crossed {
            return Err(ComplementError::GimbalLockCrossed {
                t,
                body: model.bodies()[b].name.clone(),
                sequence: seq,
                before: self.last_factors[b],
                after: seq.singular_factor(y[6 * b + 4]),
            });
        }
        for b in 0..nb {
            self.last_factors[b] = seq.singular_factor(y[6 * b + 4]);
        }
        self.last_factor_t = Some(t);
        Ok(())
    }
}

/// Converts an error for the integrator.
pub(crate) fn system_error(e: ComplementError) -> SystemError {
    SystemError::with_source(e.to_string(), e)
}

impl OdeSystem for Complement {
    fn dim(&self) -> usize {
        self.n_q() + self.n_v()
    }

    /// ẏ = [q̇; q̈].
    fn rhs(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError> {
        let n = self.n_q();
        let (q, v) = y.split_at(n);
        let (dq, dv) = dydt.split_at_mut(n);
        dq.copy_from_slice(v);
        self.accelerations(t, q, v, dv).map_err(system_error)
    }

    /// Newton–Raphson position (and velocity) correction when selected; with
    /// Euler angles, also the check that no body passed through gimbal lock.
    fn project(&mut self, t: f64, y: &mut [f64]) -> Result<bool, SystemError> {
        let changed = self.correct(t, y).map_err(system_error)?;
        self.check_gimbal_crossing(t, y).map_err(system_error)?;
        Ok(changed)
    }
}

/// q̈ (length n_v) of `params` at (t, y) by a fresh [`Complement`] — for
/// comparisons between methods.
pub fn accelerations_at(
    model: Arc<Model>,
    params: ComplementParams,
    t: f64,
    y: &[f64],
) -> Result<DVector<f64>, ComplementError> {
    let mut c = Complement::new(model, params)?;
    let n = c.n_q();
    let mut a = DVector::zeros(c.n_v());
    c.accelerations(t, &y[..n], &y[n..], a.as_mut_slice())?;
    Ok(a)
}
