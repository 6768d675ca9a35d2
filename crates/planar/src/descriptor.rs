//! [`Descriptor`] of a planar model in q = (x, y, θ) per body (Nikravesh 1988 eq 6.27;
//! Haug 1989 eq 6.3.18): M = diag(m, m, J_zz) per body (constant), Φ, Φ_q, γ from
//! [`crate::rows`], and Q from the model's own force elements evaluated at the 3-D
//! state of the plane (`mbs-constraints`' loads: gravity, springs, dampers,
//! actuators, point forces, torques), keeping (F_x, F_y, n_z). A load with an
//! out-of-plane component (F_z, n_x or n_y) would need out-of-plane reactions: it
//! stops the evaluation with an error naming the body and the value. There are no
//! quadratic-velocity terms: ω̃′J′ω′ = 0 for ω′ along z and J′ without products J_xz,
//! J_yz (checked by [`PlanarModel::new`]).

use std::sync::Arc;

use mbs_alf::{AlfError, Descriptor, DescriptorData, Level};
use mbs_constraints::{SystemLayout, Workspace};
use mbs_model::{Layout, Model, State};

use crate::planar_model::{PLANAR_TOL, PlanarModel};
use crate::rows::{Rows, evaluate};
use crate::state_map::to_state;

/// The descriptor-form equations of a planar model.
#[derive(Debug)]
pub struct PlanarDescriptor {
    model: Arc<Model>,
    planar: PlanarModel,
    /// Heights z of the bodies (constant), for the 3-D state of the loads.
    heights: Vec<f64>,
    sys: SystemLayout,
    ws: Workspace,
    state3: State,
    row_of: Vec<usize>,
    data: DescriptorData,
}

impl PlanarDescriptor {
    /// The planar equations of `model` (already checked planar), with the bodies at the
    /// heights `heights`.
    pub fn new(model: Arc<Model>, planar: PlanarModel, heights: Vec<f64>) -> Self {
        let n = 3 * planar.bodies.len();
        let m = planar.rows();
        let mut data = DescriptorData::new(n, m, m);
        for (b, body) in planar.bodies.iter().enumerate() {
            data.mass[(3 * b, 3 * b)] = body.mass;
            data.mass[(3 * b + 1, 3 * b + 1)] = body.mass;
            data.mass[(3 * b + 2, 3 * b + 2)] = body.jzz;
        }
        let mut row_of = Vec::with_capacity(planar.constraints.len());
        let mut r = 0;
        for (_, c) in &planar.constraints {
            row_of.push(r);
            r += c.rows();
        }
        let sys = SystemLayout::new(&model, Layout::EulerParamsOmega);
        let ws = Workspace::new(&sys);
        let state3 = State::zeros(Layout::EulerParamsOmega, model.n_bodies());
        Self {
            model,
            planar,
            heights,
            sys,
            ws,
            state3,
            row_of,
            data,
        }
    }

    /// The planar view of the model.
    pub fn planar(&self) -> &PlanarModel {
        &self.planar
    }

    /// The model.
    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }

    /// The bodies' heights z.
    pub fn heights(&self) -> &[f64] {
        &self.heights
    }

    fn loads(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<(), AlfError> {
        to_state(&mut self.state3, &self.heights, t, q, v);
        self.ws
            .update_frames(&self.model, &self.sys, &self.state3)
            .map_err(|e| AlfError::Evaluation {
                t,
                message: e.to_string(),
            })?;
        self.ws.evaluate_forces(&self.model);
        for b in 0..self.planar.bodies.len() {
            let (f, n) = self.ws.body_load(b);
            let scale = 1.0 + f.norm() + n.norm();
            for (what, value) in [("F_z", f.z), ("n_x", n.x), ("n_y", n.y)] {
                if value.abs() > PLANAR_TOL * scale {
                    return Err(AlfError::Evaluation {
                        t,
                        message: format!(
                            "body `{}`: out-of-plane load {what} = {value:e} (the planar method needs in-plane loads)",
                            self.model.bodies()[b].name
                        ),
                    });
                }
            }
            let d = self.data.forces.as_mut_slice();
            d[3 * b] = f.x;
            d[3 * b + 1] = f.y;
            d[3 * b + 2] = n.z;
        }
        Ok(())
    }
}

impl Descriptor for PlanarDescriptor {
    fn n(&self) -> usize {
        3 * self.planar.bodies.len()
    }
    fn m(&self) -> usize {
        self.data.phi.len()
    }
    fn m_holonomic(&self) -> usize {
        self.data.phi.len()
    }

    fn evaluate(&mut self, t: f64, q: &[f64], v: &[f64], level: Level) -> Result<(), AlfError> {
        if let Some(i) = q.iter().chain(v).position(|x| !x.is_finite()) {
            return Err(AlfError::NonFinite {
                t,
                quantity: if i < q.len() {
                    "coordinate"
                } else {
                    "velocity"
                },
                location: self.coordinate_label(i % q.len().max(1)),
            });
        }
        let d = &mut self.data;
        d.phi_q.fill(0.0);
        for ((_, c), &row) in self.planar.constraints.iter().zip(&self.row_of) {
            evaluate(
                c,
                t,
                q,
                v,
                row,
                Rows {
                    phi: d.phi.as_mut_slice(),
                    jac: &mut d.phi_q,
                    phi_t: d.phi_t.as_mut_slice(),
                    gamma: d.gamma.as_mut_slice(),
                },
            );
        }
        if level == Level::Full {
            self.loads(t, q, v)?;
        }
        Ok(())
    }

    fn data(&self) -> &DescriptorData {
        &self.data
    }

    fn row_label(&self, row: usize) -> String {
        match self.row_of.iter().rposition(|&r| r <= row) {
            Some(k) => self.planar.constraints[k].0.clone(),
            None => format!("constraint row {row}"),
        }
    }

    fn coordinate_label(&self, i: usize) -> String {
        const NAMES: [&str; 3] = ["x", "y", "θ"];
        match self.model.bodies().get(i / 3) {
            Some(b) => format!("body `{}` coordinate {}", b.name, NAMES[i % 3]),
            None => format!("coordinate {i}"),
        }
    }
}
