//! The descriptor-form equations in the chosen coordinates (Pękal–Frączek
//! eqs 2.1–2.4): M, Qᵉ, Φ, Φ_q, Φ_t and Γ at (t, q, q̇), dense.
//!
//! Every joint's equations come from `mbs-constraints`; this module only changes
//! coordinates.
//!
//! * [`Coordinates::EulerParams`]: the [ṙ, ṗ] layout as is (Φ includes one
//!   normalization row pᵀp − 1 per body, M = diag(mI, 4GᵀJ'G)).
//! * [`Coordinates::EulerAngles`]: evaluated in the [ṙ, ω'] layout at the
//!   equivalent Euler-parameter state and mapped body by body with
//!   ω' = B'(θ) θ̇, i.e. v_ω = T v_θ with T = diag(I₃, B'):
//!
//! ```text
//!   Φ_θ = Φ_ω T                       (Jacobian, chain rule)
//!   Γ_θ = Γ_ω − Φ_ω Ṫ v_θ             (ω̇' = B' θ̈ + Ḃ' θ̇)
//!   M_θ = Tᵀ M_ω T = diag(mI, B'ᵀ J' B')
//!   Q_θ = Tᵀ (Q_ω − M_ω Ṫ v_θ)        (rotational rows B'ᵀ(n' − ω̃'J'ω' − J'Ḃ'θ̇))
//! ```
//!
//! Φ and Φ_t are unchanged (no normalization rows in the [ṙ, ω'] layout).

use std::sync::Arc;

use mbs_constraints::{SystemLayout, Workspace};
use mbs_kinematics::EulerSequence;
use mbs_kinematics::euler_angles::{rate_matrix_body, rate_matrix_body_dot, to_euler_params};
use mbs_model::body_coords::{angular, angular_range, linear, linear_range};
use mbs_model::{Layout, Model, State, StateView};
use nalgebra::{DMatrix, DVector, DVectorView, Matrix3, Vector3};

use crate::error::ComplementError;
use crate::params::Coordinates;

/// The Euler-angle sequence whose smallest singular factor (|sin β| or |cos β|)
/// over the bodies of `model` at its initial state is largest — a sequence far
/// from gimbal lock for [`Coordinates::EulerAngles`] (ties: the first in
/// [`EulerSequence::ALL`]).
pub fn best_euler_sequence(model: &Model) -> EulerSequence {
    let s = State::initial(model, Layout::EulerParamsPdot);
    let mut best = (EulerSequence::ALL[0], -1.0);
    for seq in EulerSequence::ALL {
        let worst = (0..s.n_bodies())
            .map(|b| {
                let a = mbs_kinematics::euler_params::rotation(&s.euler_params(b));
                let th = mbs_kinematics::euler_angles::from_rotation_lenient(seq, &a);
                seq.singular_factor(th[1]).abs()
            })
            .fold(f64::INFINITY, f64::min);
        if worst > best.1 {
            best = (seq, worst);
        }
    }
    best.0
}

/// What to evaluate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Φ and Φ_q.
    Positions,
    /// Φ, Φ_q and Φ_t.
    Velocities,
    /// Everything: M, Qᵉ, Φ, Φ_q, Φ_t, Γ.
    Full,
}

/// Dense descriptor-form quantities in the chosen coordinates.
#[derive(Clone, Debug)]
pub struct Equations {
    /// Mass matrix M (n × n).
    pub mass: DMatrix<f64>,
    /// Generalized forces Qᵉ (applied + quadratic velocity), length n.
    pub forces: DVector<f64>,
    /// Holonomic residual Φ, length m_h.
    pub phi: DVector<f64>,
    /// Jacobian Φ_q (m × n); rows m_h.. are nonholonomic.
    pub phi_q: DMatrix<f64>,
    /// Φ_t (length m).
    pub phi_t: DVector<f64>,
    /// Γ of Φ_q q̈ = Γ (length m).
    pub gamma: DVector<f64>,
}

impl Equations {
    fn new(n: usize, m: usize, m_h: usize) -> Self {
        Self {
            mass: DMatrix::zeros(n, n),
            forces: DVector::zeros(n),
            phi: DVector::zeros(m_h),
            phi_q: DMatrix::zeros(m, n),
            phi_t: DVector::zeros(m),
            gamma: DVector::zeros(m),
        }
    }

    /// Φ̇ = Φ_q q̇ + Φ_t (all rows).
    pub fn phi_dot(&self, v: &[f64]) -> DVector<f64> {
        let mut out = DVector::zeros(self.phi_t.len());
        self.phi_dot_into(v, &mut out);
        out
    }

    /// [`Self::phi_dot`] into `out` (length m); allocation-free.
    pub fn phi_dot_into(&self, v: &[f64], out: &mut DVector<f64>) {
        let v = DVectorView::from_slice(v, v.len());
        out.gemv(1.0, &self.phi_q, &v, 0.0);
        *out += &self.phi_t;
    }
}

/// Evaluates [`Equations`] of a model in one [`Coordinates`] choice.
#[derive(Debug)]
pub struct Evaluator {
    model: Arc<Model>,
    coords: Coordinates,
    sys: SystemLayout,
    ws: Workspace,
    state: State,
    gimbal_tol: f64,
    /// Euler angles: the [ṙ, ω'] Jacobian, Γ and Q before mapping.
    phi_q_w: DMatrix<f64>,
    gamma_w: DVector<f64>,
    forces_w: DVector<f64>,
    /// Euler angles: B' and Ḃ'θ̇ per body.
    rate: Vec<Matrix3<f64>>,
    rate_dot_v: Vec<Vector3<f64>>,
    phi_all: Vec<f64>,
    /// Euler angles: scratch m-vector.
    tmp_m: DVector<f64>,
    /// The last evaluated quantities.
    pub eq: Equations,
}

impl Evaluator {
    /// An evaluator for `model` in `coords`.
    pub fn new(model: Arc<Model>, coords: Coordinates, gimbal_tol: f64) -> Self {
        let layout = match coords {
            Coordinates::EulerParams => Layout::EulerParamsPdot,
            Coordinates::EulerAngles(_) => Layout::EulerParamsOmega,
        };
        let sys = SystemLayout::new(&model, layout);
        let ws = Workspace::new(&sys);
        let nb = model.n_bodies();
        let n = coords.v_per_body() * nb;
        let (m, m_h) = (sys.n_rows(), sys.n_holonomic());
        let state = State::zeros(layout, nb);
        Self {
            coords,
            ws,
            state,
            gimbal_tol,
            phi_q_w: DMatrix::zeros(m, 6 * nb),
            gamma_w: DVector::zeros(m),
            forces_w: DVector::zeros(6 * nb),
            rate: vec![Matrix3::identity(); nb],
            rate_dot_v: vec![Vector3::zeros(); nb],
            phi_all: vec![0.0; m],
            tmp_m: DVector::zeros(m),
            eq: Equations::new(n, m, m_h),
            sys,
            model,
        }
    }

    /// The model.
    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }
    /// The coordinates.
    pub fn coordinates(&self) -> Coordinates {
        self.coords
    }
    /// The constraint assembly (in the [ṙ, ṗ] or [ṙ, ω'] layout).
    pub fn layout(&self) -> &SystemLayout {
        &self.sys
    }
    /// The constraint workspace of the last evaluation.
    pub fn workspace(&self) -> &Workspace {
        &self.ws
    }
    /// Number of position coordinates.
    pub fn n_q(&self) -> usize {
        self.coords.q_per_body() * self.model.n_bodies()
    }
    /// Number of velocity coordinates n.
    pub fn n_v(&self) -> usize {
        self.coords.v_per_body() * self.model.n_bodies()
    }
    /// Number of constraint rows m.
    pub fn m(&self) -> usize {
        self.sys.n_rows()
    }
    /// Number of holonomic rows.
    pub fn m_holonomic(&self) -> usize {
        self.sys.n_holonomic()
    }

    /// A readable name of constraint row `row`.
    pub fn row_label(&self, row: usize) -> String {
        match self.sys.source_of_row(row) {
            Some(s) => self.sys.source_name(&self.model, s),
            None => format!("constraint row {row}"),
        }
    }

    /// A readable name of coordinate `i`.
    pub fn coordinate_label(&self, i: usize) -> String {
        let names: &[&str] = match self.coords {
            Coordinates::EulerParams => &["x", "y", "z", "e0", "e1", "e2", "e3"],
            Coordinates::EulerAngles(_) => &["x", "y", "z", "α", "β", "γ"],
        };
        let k = names.len();
        match self.model.bodies().get(i / k) {
            Some(b) => format!("body `{}` coordinate {}", b.name, names[i % k]),
            None => format!("coordinate {i}"),
        }
    }

    /// The state (t, q, q̇) in the Euler-parameter [ṙ, ṗ] layout.
    pub fn to_state(&self, t: f64, q: &[f64], v: &[f64]) -> State {
        match self.coords {
            Coordinates::EulerParams => State {
                layout: Layout::EulerParamsPdot,
                t,
                q: DVector::from_column_slice(q),
                v: DVector::from_column_slice(v),
            },
            Coordinates::EulerAngles(seq) => mbs_model::EulerAngleState {
                sequence: seq,
                t,
                q: DVector::from_column_slice(q),
                v: DVector::from_column_slice(v),
            }
            .to_state(Layout::EulerParamsPdot),
        }
    }

    /// (q, q̇) of a `State` (any layout) in these coordinates.
    pub fn from_state(&self, s: &State) -> Result<(Vec<f64>, Vec<f64>), ComplementError> {
        match self.coords {
            Coordinates::EulerParams => {
                let s = s.to_layout(Layout::EulerParamsPdot);
                Ok((s.q.as_slice().to_vec(), s.v.as_slice().to_vec()))
            }
            Coordinates::EulerAngles(seq) => {
                let e = s.to_euler_angles(seq, self.gimbal_tol).map_err(|_| {
                    // name the offending body
                    let (body, factor) = self.worst_body(s, seq);
                    ComplementError::GimbalLock {
                        t: s.t,
                        body,
                        sequence: seq,
                        factor,
                        tol: self.gimbal_tol,
                    }
                })?;
                Ok((e.q.as_slice().to_vec(), e.v.as_slice().to_vec()))
            }
        }
    }

    fn worst_body(&self, s: &State, seq: EulerSequence) -> (String, f64) {
        let mut worst = (String::from("?"), f64::INFINITY);
        for (i, b) in self.model.bodies().iter().enumerate() {
            let a = mbs_kinematics::euler_params::rotation(&s.euler_params(i));
            let th = mbs_kinematics::euler_angles::from_rotation_lenient(seq, &a);
            let f = seq.singular_factor(th[1]).abs();
            if f < worst.1 {
                worst = (b.name.clone(), f);
            }
        }
        worst
    }

    /// Evaluates the quantities of `level` at (t, q, q̇) into [`Self::eq`].
    pub fn evaluate(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
        level: Level,
    ) -> Result<(), ComplementError> {
        crate::error::check_len("positions", self.n_q(), q.len())?;
        crate::error::check_len("velocities", self.n_v(), v.len())?;
        // absolute coordinates are evaluated in place; Euler angles through the
        // absolute state they map to
        let state = match self.coords {
            Coordinates::EulerParams => StateView::new(self.state.layout, t, q, v),
            Coordinates::EulerAngles(seq) => {
                self.state.t = t;
                self.angles_to_state(t, seq, q, v)?;
                self.state.view()
            }
        };
        let ev = |e| ComplementError::Evaluation { t, source: e };
        self.ws
            .evaluate_constraints(&self.model, &self.sys, state)
            .map_err(ev)?;
        self.ws.phi(&self.sys, &mut self.phi_all).map_err(ev)?;
        let m_h = self.sys.n_holonomic();
        self.eq
            .phi
            .as_mut_slice()
            .copy_from_slice(&self.phi_all[..m_h]);
        if level >= Level::Velocities {
            self.ws
                .phi_t(&self.sys, self.eq.phi_t.as_mut_slice())
                .map_err(ev)?;
        }
        if level == Level::Full {
            self.ws.evaluate_forces(&self.model);
        }
        match self.coords {
            Coordinates::EulerParams => {
                self.ws
                    .phi_q_dense(&self.sys, &mut self.eq.phi_q)
                    .map_err(ev)?;
                if level == Level::Full {
                    self.ws
                        .gamma(&self.sys, self.eq.gamma.as_mut_slice())
                        .map_err(ev)?;
                    self.ws
                        .mass_dense(&self.sys, &mut self.eq.mass)
                        .map_err(ev)?;
                    self.ws
                        .generalized_forces(&self.sys, self.eq.forces.as_mut_slice())
                        .map_err(ev)?;
                }
            }
            Coordinates::EulerAngles(_) => {
                self.ws
                    .phi_q_dense(&self.sys, &mut self.phi_q_w)
                    .map_err(ev)?;
                self.map_jacobian();
                if level == Level::Full {
                    self.ws
                        .gamma(&self.sys, self.gamma_w.as_mut_slice())
                        .map_err(ev)?;
                    self.ws
                        .generalized_forces(&self.sys, self.forces_w.as_mut_slice())
                        .map_err(ev)?;
                    self.map_dynamics();
                }
            }
        }
        Ok(())
    }

    /// p = p(θ), ω' = B'(θ) θ̇ for every body; B' and Ḃ'θ̇ kept for the mapping.
    fn angles_to_state(
        &mut self,
        t: f64,
        seq: EulerSequence,
        q: &[f64],
        v: &[f64],
    ) -> Result<(), ComplementError> {
        for b in 0..self.model.n_bodies() {
            let (th, thd) = (angular(q, b), angular(v, b));
            let factor = seq.singular_factor(th[1]).abs();
            if factor.is_nan() || factor < self.gimbal_tol {
                return Err(ComplementError::GimbalLock {
                    t,
                    body: self.model.bodies()[b].name.clone(),
                    sequence: seq,
                    factor,
                    tol: self.gimbal_tol,
                });
            }
            let r = linear(q, b);
            self.state.set_pose(b, &r, &to_euler_params(seq, &th));
            let bp = rate_matrix_body(seq, &th);
            self.rate[b] = bp;
            self.rate_dot_v[b] = rate_matrix_body_dot(seq, &th, &thd) * thd;
            let rd = linear(v, b);
            self.state.set_velocity(b, &rd, &(bp * thd));
        }
        Ok(())
    }

    /// Φ_θ = Φ_ω T.
    fn map_jacobian(&mut self) {
        let pq = &mut self.eq.phi_q;
        pq.copy_from(&self.phi_q_w);
        for (b, bp) in self.rate.iter().enumerate() {
            let c = angular_range(b).start;
            pq.columns_mut(c, 3)
                .gemm(1.0, &self.phi_q_w.columns(c, 3), bp, 0.0);
        }
    }

    /// M_θ, Q_θ and Γ_θ (module docs).
    fn map_dynamics(&mut self) {
        self.eq.gamma.copy_from(&self.gamma_w);
        self.eq.mass.fill(0.0);
        for (b, bp) in self.rate.iter().enumerate() {
            let c = angular_range(b).start;
            // Γ_θ = Γ_ω − Φ_ω' Ḃ'θ̇
            let wd = self.rate_dot_v[b];
            self.tmp_m.gemv(1.0, &self.phi_q_w.columns(c, 3), &wd, 0.0);
            self.eq.gamma -= &self.tmp_m;
            let m = self.sys.mass(b);
            let j = self.sys.inertia(b);
            self.eq
                .mass
                .view_mut((linear_range(b).start, linear_range(b).start), (3, 3))
                .fill_diagonal(m);
            self.eq
                .mass
                .view_mut((c, c), (3, 3))
                .copy_from(&(bp.transpose() * j * bp));
            let f = self
                .forces_w
                .fixed_rows::<3>(linear_range(b).start)
                .into_owned();
            self.eq
                .forces
                .fixed_rows_mut::<3>(linear_range(b).start)
                .copy_from(&f);
            let rot = self.forces_w.fixed_rows::<3>(c).into_owned() - j * wd;
            self.eq
                .forces
                .fixed_rows_mut::<3>(c)
                .copy_from(&(bp.transpose() * rot));
        }
    }
}
