//! The evaluation core shared by the penalty and Baumgarte front-ends: a model's
//! Newton–Euler equations in the [ṙ, ω'] layout (thesis sec 3.4, eqs 3.4.14–3.4.19),
//!
//! ```text
//!   M ü + Bᵀ λ = F,   M = diag(m I, J') per body (constant),
//!   F = [f; n' − ω̃' J' ω'] per body,     B = Φ_q with respect to [ṙ; ω'],
//! ```
//!
//! with the state split into positions x = [r, p] (7 per body) and velocities
//! v = [ṙ, ω'] (6 per body). Everything is preallocated in [`Core::new`].

use std::sync::Arc;

use mbs_constraints::{ConstraintError, ConstraintSource, SystemLayout, Workspace};
use mbs_kinematics::euler_params::pdot_from_omega_body;
use mbs_kinematics::implicit_update::midpoint_update_body;
use mbs_model::body_coords::{euler_params_range, q_range, v_range};
use mbs_model::{Layout, Model, State, StateView};
use nalgebra::{Matrix3, Vector3, Vector4};

use crate::error::AlfError;

/// The largest holonomic constraint violation `max_i |Φ_i|` and where it occurs.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// `max_i |Φ_i|` over the holonomic rows (0 without holonomic rows).
    pub max_abs: f64,
    /// The global row of that maximum.
    pub row: usize,
    /// The joint (or driver) of that row.
    pub location: String,
    /// `max_i |Φ̇_i|` over all rows (holonomic Φ̇ = Bv + Φ_t, nonholonomic Bv + b).
    pub max_abs_velocity: f64,
}

/// Model, constraint assembly and workspace in the [ṙ, ω'] layout, with the
/// per-body inverse mass data and the evaluated F, Φ, Φ_t, γ.
#[derive(Debug)]
pub(crate) struct Core {
    pub model: Arc<Model>,
    pub sys: SystemLayout,
    pub ws: Workspace,
    /// 1/m per body.
    pub inv_mass: Vec<f64>,
    /// Lower Cholesky factor L of J' = L Lᵀ per body (M⁻¹ = L⁻ᵀ L⁻¹ on ω').
    pub chol_inertia: Vec<Matrix3<f64>>,
    /// F (length n_v) at the last force evaluation.
    pub forces: Vec<f64>,
    /// Φ (holonomic rows) / B v + b (nonholonomic rows), length m.
    pub phi: Vec<f64>,
    /// Φ_t (holonomic rows) / b (nonholonomic rows), length m.
    pub phi_t: Vec<f64>,
    /// γ of B ü = γ, length m.
    pub gamma: Vec<f64>,
}

impl Core {
    pub fn new(model: Arc<Model>) -> Result<Self, AlfError> {
        let sys = SystemLayout::new(&model, Layout::EulerParamsOmega);
        let ws = Workspace::new(&sys);
        let nb = sys.n_bodies();
        let (n, m) = (sys.n_v(), sys.n_rows());
        let mut inv_mass = Vec::with_capacity(nb);
        let mut chol_inertia = Vec::with_capacity(nb);
        for b in 0..nb {
            let mass = sys.mass(b);
            if !(mass > 0.0 && mass.is_finite()) {
                return Err(AlfError::Evaluation {
                    t: 0.0,
                    message: format!(
                        "body `{}` has mass {mass}: the penalty/Baumgarte front-ends need M = diag(mI, J') positive definite",
                        model.bodies()[b].name
                    ),
                });
            }
            let chol =
                nalgebra::Cholesky::new(*sys.inertia(b)).ok_or_else(|| AlfError::Evaluation {
                    t: 0.0,
                    message: format!(
                        "body `{}`: inertia J' is not positive definite",
                        model.bodies()[b].name
                    ),
                })?;
            inv_mass.push(1.0 / mass);
            chol_inertia.push(chol.l());
        }
        Ok(Self {
            model,
            sys,
            ws,
            inv_mass,
            chol_inertia,
            forces: vec![0.0; n],
            phi: vec![0.0; m],
            phi_t: vec![0.0; m],
            gamma: vec![0.0; m],
        })
    }

    pub fn n_bodies(&self) -> usize {
        self.sys.n_bodies()
    }
    pub fn n_x(&self) -> usize {
        7 * self.sys.n_bodies()
    }
    pub fn n_v(&self) -> usize {
        self.sys.n_v()
    }
    pub fn m(&self) -> usize {
        self.sys.n_rows()
    }
    pub fn m_holonomic(&self) -> usize {
        self.sys.n_holonomic()
    }

    fn constraint_error(&self, t: f64, e: ConstraintError) -> AlfError {
        AlfError::Evaluation {
            t,
            message: e.to_string(),
        }
    }

    /// Evaluates frames and constraint blocks at (t, x, v) and fills Φ, Φ_t, γ;
    /// with `forces` also F.
    pub fn evaluate(&mut self, t: f64, x: &[f64], v: &[f64], forces: bool) -> Result<(), AlfError> {
        let state = StateView::new(Layout::EulerParamsOmega, t, x, v);
        let r = (|| {
            self.ws
                .evaluate_constraints(&self.model, &self.sys, state)?;
            self.ws.phi(&self.sys, &mut self.phi)?;
            self.ws.phi_t(&self.sys, &mut self.phi_t)?;
            self.ws.gamma(&self.sys, &mut self.gamma)?;
            if forces {
                self.ws.evaluate_forces(&self.model);
                self.ws.generalized_forces(&self.sys, &mut self.forces)?;
            }
            Ok(())
        })();
        r.map_err(|e| self.constraint_error(t, e))?;
        crate::descriptor::check_finite(t, "constraint residual Φ", &self.phi, |i| {
            self.row_label(i)
        })?;
        if forces {
            crate::descriptor::check_finite(t, "generalized force F", &self.forces, |i| {
                self.coordinate_label(i)
            })?;
        }
        Ok(())
    }

    /// y ← M⁻¹ y, body by body: 1/m on ṙ, L⁻ᵀ L⁻¹ on ω'.
    pub fn minv_in_place(&self, y: &mut [f64]) {
        for b in 0..self.n_bodies() {
            self.minv_body(b, &mut y[v_range(b)]);
        }
    }

    /// s ← M_b⁻¹ s for body b's 6 velocity coordinates [ṙ, ω'].
    fn minv_body(&self, b: usize, s: &mut [f64]) {
        for k in 0..3 {
            s[k] *= self.inv_mass[b];
        }
        let w = Vector3::new(s[3], s[4], s[5]);
        let l = &self.chol_inertia[b];
        let z = l.solve_lower_triangular(&w).unwrap_or(w);
        let z = l.tr_solve_lower_triangular(&z).unwrap_or(z);
        s[3..6].copy_from_slice(z.as_slice());
    }

    /// The diagonal of B M⁻¹ Bᵀ at the last evaluation (`out` of length m): the
    /// inverse effective mass each constraint row sees, dᵢ = Σ_b B_ib M_b⁻¹ B_ibᵀ over
    /// the (at most two) bodies of row i's joint, from the constraint blocks: O(m).
    pub fn constraint_inverse_masses(&self, out: &mut [f64]) -> Result<(), AlfError> {
        let m = self.m();
        if out.len() != m {
            return Err(AlfError::InvalidParameter {
                name: "inverse-mass output length",
                value: out.len() as f64,
                requirement: "must equal the number of constraint rows",
            });
        }
        out.iter_mut().for_each(|o| *o = 0.0);
        for (k, e) in self.sys.entries().iter().enumerate() {
            let cb = self.ws.block(k);
            for (body, jac) in [(e.body_i, &cb.ji), (e.body_j, &cb.jj)] {
                let Some(b) = body.body().map(|b| b.0) else {
                    continue;
                };
                for (r0, len, start) in [
                    (0, e.n_holonomic, e.holonomic_start),
                    (e.n_holonomic, e.n_nonholonomic, e.nonholonomic_start),
                ] {
                    for r in 0..len {
                        let mut row = [0.0; 6];
                        for (c, x) in row.iter_mut().enumerate() {
                            *x = jac[(r0 + r, c)];
                        }
                        let w = row;
                        self.minv_body(b, &mut row);
                        out[start + r] += (0..6).map(|c| w[c] * row[c]).sum::<f64>();
                    }
                }
            }
        }
        Ok(())
    }

    /// out = B y (y of length n_v).
    pub fn b_mul(&self, y: &[f64], out: &mut [f64]) -> Result<(), AlfError> {
        self.ws
            .phi_q_mul(&self.sys, y, out)
            .map_err(|e| self.constraint_error(self.ws.time(), e))
    }

    /// out = Bᵀ λ (out of length n_v).
    pub fn bt_mul(&self, lambda: &[f64], out: &mut [f64]) -> Result<(), AlfError> {
        self.ws
            .phi_q_tr_mul(&self.sys, lambda, out)
            .map_err(|e| self.constraint_error(self.ws.time(), e))
    }

    /// Φ̇ = B v + Φ_t for every row (nonholonomic rows: B v + b) at the evaluated state.
    pub fn phi_dot(&self, out: &mut [f64]) -> Result<(), AlfError> {
        self.ws
            .phi_dot(&self.sys, out)
            .map_err(|e| self.constraint_error(self.ws.time(), e))
    }

    /// Position update over a velocity: r⁺ = r + h ṙ and the closed-form implicit
    /// midpoint Euler-parameter update p⁺ = p ⊗ c(ω', h) (thesis eqs 5.5.4.4–5.5.4.7).
    pub fn advance_positions(&self, x: &[f64], v: &[f64], h: f64, out: &mut [f64]) {
        for b in 0..self.n_bodies() {
            let (xb, vb) = (&x[q_range(b)], &v[v_range(b)]);
            let ob = &mut out[q_range(b)];
            for k in 0..3 {
                ob[k] = xb[k] + h * vb[k];
            }
            let p = Vector4::new(xb[3], xb[4], xb[5], xb[6]);
            let w = Vector3::new(vb[3], vb[4], vb[5]);
            let p_new = midpoint_update_body(&p, &w, h);
            ob[3..7].copy_from_slice(p_new.as_slice());
        }
    }

    /// ẋ = [ṙ, ṗ] with ṗ = ½ Gᵀ(p) ω' (thesis eq 2.8.7), for the ODE forms.
    pub fn position_rates(&self, x: &[f64], v: &[f64], out: &mut [f64]) {
        for b in 0..self.n_bodies() {
            let (xb, vb) = (&x[q_range(b)], &v[v_range(b)]);
            let ob = &mut out[q_range(b)];
            ob[..3].copy_from_slice(&vb[..3]);
            let p = Vector4::new(xb[3], xb[4], xb[5], xb[6]);
            let pd = pdot_from_omega_body(&p, &Vector3::new(vb[3], vb[4], vb[5]));
            ob[3..7].copy_from_slice(pd.as_slice());
        }
    }

    /// Rescales every body's Euler parameters to unit length; true if any changed.
    pub fn normalize_euler_params(&self, x: &mut [f64]) -> bool {
        let mut changed = false;
        for b in 0..self.n_bodies() {
            let p = &mut x[euler_params_range(b)];
            let n = p.iter().map(|v| v * v).sum::<f64>().sqrt();
            if n > 0.0 && n != 1.0 {
                p.iter_mut().for_each(|v| *v /= n);
                changed = true;
            }
        }
        changed
    }

    /// Initial state (x, v) of the model.
    pub fn initial(&self) -> (Vec<f64>, Vec<f64>) {
        let s = State::initial(&self.model, Layout::EulerParamsOmega);
        (s.q.as_slice().to_vec(), s.v.as_slice().to_vec())
    }

    /// The violation at the last evaluation (`phi_dot_buf` of length m is scratch).
    pub fn violation(&self, phi_dot_buf: &mut [f64]) -> Result<Violation, AlfError> {
        let mh = self.m_holonomic();
        let (row, max_abs) = crate::descriptor::max_abs(&self.phi[..mh]);
        self.phi_dot(phi_dot_buf)?;
        let (_, max_abs_velocity) = crate::descriptor::max_abs(phi_dot_buf);
        Ok(Violation {
            max_abs,
            row,
            location: if mh > 0 {
                self.row_label(row)
            } else {
                "no holonomic rows".into()
            },
            max_abs_velocity,
        })
    }

    /// "joint `name` (row r)" for a global row.
    pub fn row_label(&self, row: usize) -> String {
        let m = &self.model;
        let what = match self.sys.source_of_row(row) {
            Some(ConstraintSource::Joint(id)) => format!("joint `{}`", m.joint(id).name),
            Some(ConstraintSource::Driver(id)) => format!("driver `{}`", m.driver(id).name),
            Some(ConstraintSource::Normalization(b)) => {
                format!("Euler-parameter normalization of body `{}`", m.body(b).name)
            }
            Some(ConstraintSource::Custom(c)) => format!("custom constraint #{c}"),
            None => "unknown constraint".into(),
        };
        format!("{what} (row {row})")
    }

    /// "body `name` ṙ_x" etc. for a velocity coordinate.
    pub fn coordinate_label(&self, i: usize) -> String {
        const NAMES: [&str; 6] = ["ṙ_x", "ṙ_y", "ṙ_z", "ω'_1", "ω'_2", "ω'_3"];
        match self.model.bodies().get(i / 6) {
            Some(body) => format!("body `{}` {}", body.name, NAMES[i % 6]),
            None => format!("coordinate {i}"),
        }
    }
}

/// Wraps an [`AlfError`] for the integrators' callbacks.
pub(crate) fn system_error(e: AlfError) -> mbs_integrators::SystemError {
    mbs_integrators::SystemError::with_source(e.to_string(), e)
}
