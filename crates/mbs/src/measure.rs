//! The facade's own measurements of a state with `mbs-constraints`: energies and
//! constraint violations, the same for every method.
//!
//! The violations exclude the Euler-parameter normalization rows pᵀp − 1 (some methods
//! renormalize, others constrain; joints and drivers are what a reader compares):
//!
//! ```text
//!   ‖Φ‖  = ‖Φ(q, t)‖₂                 holonomic joint and driver rows
//!   ‖Φ̇‖  = ‖Φ_q q̇ + Φ_t‖₂             holonomic and nonholonomic rows
//!   ‖Φ̈‖  = ‖Φ_q q̈ − γ‖₂               same rows, when the method gives q̈
//! ```

use mbs_constraints::{SystemLayout, Workspace};
use mbs_model::{Model, State};
use nalgebra::DVector;

use crate::frontend::SAMPLE_LAYOUT;

/// The measurements of one state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measures {
    /// Kinetic energy T.
    pub kinetic: f64,
    /// Potential energy V (gravity and springs).
    pub potential: f64,
    /// ‖Φ‖₂ of the holonomic constraints.
    pub phi: f64,
    /// ‖Φ̇‖₂.
    pub phi_dot: f64,
    /// ‖Φ_q q̈ − γ‖₂ when accelerations were given, NaN otherwise.
    pub phi_ddot: f64,
}

/// Evaluates [`Measures`] for states of one model (layout `EulerParamsPdot`); reuses
/// its storage between calls.
#[derive(Debug)]
pub struct Meter {
    model: Model,
    sys: SystemLayout,
    ws: Workspace,
    /// Rows measured (normalization rows excluded).
    rows: Vec<usize>,
    holonomic_rows: usize,
    buf_a: Vec<f64>,
    buf_b: Vec<f64>,
    phi_dot: Option<DVector<f64>>,
}

impl Meter {
    /// A meter for `model`.
    pub fn new(model: &Model) -> Self {
        let sys = SystemLayout::new(model, SAMPLE_LAYOUT);
        let ws = Workspace::new(&sys);
        let nh = sys.n_holonomic();
        let (ns, nb) = (sys.normalization_start(), sys.n_bodies());
        let is_norm = |r: usize| ns.is_some_and(|s| r >= s && r < s + nb);
        let rows: Vec<usize> = (0..sys.n_rows()).filter(|r| !is_norm(*r)).collect();
        let holonomic_rows = rows.iter().filter(|r| **r < nh).count();
        let m = sys.n_rows();
        Self {
            model: model.clone(),
            sys,
            ws,
            rows,
            holonomic_rows,
            buf_a: vec![0.0; m],
            buf_b: vec![0.0; m],
            phi_dot: None,
        }
    }

    /// The Φ̇ vector (measured rows) of the last [`Meter::measure`] call, if the
    /// constraints could be evaluated.
    pub fn last_phi_dot(&self) -> Option<&DVector<f64>> {
        self.phi_dot.as_ref()
    }

    /// All measures of `s` (converted to the sample layout if needed);
    /// `accelerations` = q̈ (7 per body) if the method gave them.
    pub fn measure(&mut self, s: &State, accelerations: Option<&DVector<f64>>) -> Measures {
        let converted;
        let s = if s.layout == SAMPLE_LAYOUT {
            s
        } else {
            converted = s.to_layout(SAMPLE_LAYOUT);
            &converted
        };
        self.phi_dot = None;
        let nan = Measures {
            kinetic: f64::NAN,
            potential: f64::NAN,
            phi: f64::NAN,
            phi_dot: f64::NAN,
            phi_ddot: f64::NAN,
        };
        if self.ws.evaluate(&self.model, &self.sys, s).is_err() {
            return nan;
        }
        let kinetic = self.ws.kinetic_energy(&self.sys);
        let potential = self.ws.potential_energy();
        let sel = |buf: &[f64], rows: &[usize]| {
            rows.iter().fold(0.0, |a, r| a + buf[*r] * buf[*r]).sqrt()
        };
        // Φ (holonomic prefix of the measured rows)
        let phi = match self.ws.phi(&self.sys, &mut self.buf_a) {
            Ok(()) => sel(&self.buf_a, &self.rows[..self.holonomic_rows]),
            Err(_) => f64::NAN,
        };
        // Φ̇ = Φ_q q̇ + Φ_t
        let phi_dot = if self
            .ws
            .phi_q_mul(&self.sys, s.v.as_slice(), &mut self.buf_a)
            .is_ok()
            && self.ws.phi_t(&self.sys, &mut self.buf_b).is_ok()
        {
            let v = DVector::from_iterator(
                self.rows.len(),
                self.rows.iter().map(|r| self.buf_a[*r] + self.buf_b[*r]),
            );
            let n = v.norm();
            self.phi_dot = Some(v);
            n
        } else {
            f64::NAN
        };
        // Φ̈ = Φ_q q̈ − γ
        let phi_ddot = match accelerations {
            Some(a)
                if a.len() == self.sys.n_v()
                    && self
                        .ws
                        .phi_q_mul(&self.sys, a.as_slice(), &mut self.buf_a)
                        .is_ok()
                    && self.ws.gamma(&self.sys, &mut self.buf_b).is_ok() =>
            {
                self.rows
                    .iter()
                    .map(|r| (self.buf_a[*r] - self.buf_b[*r]).powi(2))
                    .sum::<f64>()
                    .sqrt()
            }
            _ => f64::NAN,
        };
        Measures {
            kinetic,
            potential,
            phi,
            phi_dot,
            phi_ddot,
        }
    }
}

/// ‖Φ‖₂ and ‖Φ̇‖₂ of a state (as [`Meter::measure`]); NaN where they cannot be
/// evaluated.
pub fn violations(model: &Model, s: &State) -> (f64, f64) {
    let m = Meter::new(model).measure(s, None);
    (m.phi, m.phi_dot)
}
