//! [`Descriptor`] for an `mbs-model` [`Model`] in absolute coordinates with Euler
//! parameters and velocities q̇ = [ṙ, ṗ] (Bayo–Ledesma, Malczyk–Frączek): n = 7 per
//! body, M = diag(mI, 4GᵀJ'G) per body (singular along p), Φ including one
//! normalization row pᵀp − 1 per body so that M + Φ_qᵀαΦ_q is positive definite.
//! Every joint's equations come from `mbs-constraints`.

use std::sync::Arc;

use mbs_constraints::{ConstraintError, ConstraintSource, SystemLayout, Workspace};
use mbs_model::{Layout, Model, State, StateView};
use nalgebra::DVector;

use crate::descriptor::{Descriptor, DescriptorData, Level, check_finite};
use crate::error::AlfError;

/// A model's descriptor-form equations in the [ṙ, ṗ] layout, dense storage.
#[derive(Debug)]
pub struct MechanismDescriptor {
    model: Arc<Model>,
    sys: SystemLayout,
    ws: Workspace,
    phi_all: Vec<f64>,
    data: DescriptorData,
}

impl MechanismDescriptor {
    /// Builds the assembly of `model` in the [ṙ, ṗ] layout.
    pub fn new(model: Arc<Model>) -> Self {
        let sys = SystemLayout::new(&model, Layout::EulerParamsPdot);
        let ws = Workspace::new(&sys);
        let (n, m, m_h) = (sys.n_v(), sys.n_rows(), sys.n_holonomic());
        Self {
            model,
            sys,
            ws,
            phi_all: vec![0.0; m],
            data: DescriptorData::new(n, m, m_h),
        }
    }

    /// The model.
    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }

    /// The constraint assembly.
    pub fn layout(&self) -> &SystemLayout {
        &self.sys
    }

    /// The constraint workspace of the last evaluation (frames, blocks, energies).
    pub fn workspace(&self) -> &Workspace {
        &self.ws
    }

    /// The model's initial state as (q, q̇).
    pub fn initial(&self) -> (Vec<f64>, Vec<f64>) {
        let s = State::initial(&self.model, Layout::EulerParamsPdot);
        (s.q.as_slice().to_vec(), s.v.as_slice().to_vec())
    }

    /// The state (t, q, q̇) as a `State` in the [ṙ, ṗ] layout.
    pub fn to_state(&self, t: f64, q: &[f64], v: &[f64]) -> State {
        State {
            layout: Layout::EulerParamsPdot,
            t,
            q: DVector::from_column_slice(q),
            v: DVector::from_column_slice(v),
        }
    }

    fn error(&self, t: f64, e: ConstraintError) -> AlfError {
        AlfError::Evaluation {
            t,
            message: e.to_string(),
        }
    }

    /// A non-finite state, mass-matrix entry or (at [`Level::Full`]) applied force
    /// stops the evaluation with an error naming the body and coordinate, before a
    /// solver meets it (where it could only say "non-finite right-hand side").
    fn check_finite(&self, t: f64, q: &[f64], v: &[f64], level: Level) -> Result<(), AlfError> {
        let label = |i: usize| self.coordinate_label(i);
        check_finite(t, "coordinate", q, label)?;
        check_finite(t, "velocity", v, label)?;
        let n = self.sys.n_v();
        check_finite(t, "mass matrix entry", self.data.mass.as_slice(), |k| {
            label(k % n)
        })?;
        if level == Level::Full {
            let f = self.data.forces.as_slice();
            if let Some(i) = f.iter().position(|x| !x.is_finite()) {
                return Err(AlfError::NonFiniteForce {
                    t,
                    location: label(i),
                    value: f[i],
                });
            }
        }
        Ok(())
    }
}

impl Descriptor for MechanismDescriptor {
    fn n(&self) -> usize {
        self.sys.n_v()
    }
    fn m(&self) -> usize {
        self.sys.n_rows()
    }
    fn m_holonomic(&self) -> usize {
        self.sys.n_holonomic()
    }

    fn evaluate(&mut self, t: f64, q: &[f64], v: &[f64], level: Level) -> Result<(), AlfError> {
        let state = StateView::new(Layout::EulerParamsPdot, t, q, v);
        let r = (|| {
            self.ws
                .evaluate_constraints(&self.model, &self.sys, state)?;
            let d = &mut self.data;
            self.ws.mass_dense(&self.sys, &mut d.mass)?;
            self.ws.phi(&self.sys, &mut self.phi_all)?;
            self.ws.phi_q_dense(&self.sys, &mut d.phi_q)?;
            if level != Level::Positions {
                self.ws.phi_t(&self.sys, d.phi_t.as_mut_slice())?;
            }
            if level == Level::Full {
                self.ws.gamma(&self.sys, d.gamma.as_mut_slice())?;
                self.ws.evaluate_forces(&self.model);
                self.ws
                    .generalized_forces(&self.sys, d.forces.as_mut_slice())?;
            }
            Ok(())
        })();
        r.map_err(|e| self.error(t, e))?;
        self.check_finite(t, q, v, level)?;
        let m_h = self.data.phi.len();
        self.data
            .phi
            .as_mut_slice()
            .copy_from_slice(&self.phi_all[..m_h]);
        Ok(())
    }

    fn data(&self) -> &DescriptorData {
        &self.data
    }

    fn row_label(&self, row: usize) -> String {
        let m = &self.model;
        match self.sys.source_of_row(row) {
            Some(ConstraintSource::Joint(id)) => format!("joint `{}`", m.joint(id).name),
            Some(ConstraintSource::Driver(id)) => format!("driver `{}`", m.driver(id).name),
            Some(ConstraintSource::Normalization(b)) => {
                format!("Euler-parameter normalization of body `{}`", m.body(b).name)
            }
            Some(ConstraintSource::Custom(c)) => format!("custom constraint #{c}"),
            None => format!("constraint row {row}"),
        }
    }

    fn coordinate_label(&self, i: usize) -> String {
        const NAMES: [&str; 7] = ["x", "y", "z", "e0", "e1", "e2", "e3"];
        let (b, c) = (i / 7, i % 7);
        match self.model.bodies().get(b) {
            Some(body) => format!("body `{}` coordinate {}", body.name, NAMES[c]),
            None => format!("coordinate {i}"),
        }
    }
}
