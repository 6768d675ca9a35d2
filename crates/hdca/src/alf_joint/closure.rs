//! The loop-closure rows of the cut joints in joint coordinates: Φ, the Jacobian
//! K = Φ_q with respect to the quasi-velocities u, and the right-hand side of
//! K u̇ = γ̂ at the current tree state.
//!
//! Each cut joint is evaluated by the constraint library (`mbs_constraints`, the same
//! equations every absolute-coordinate method uses), as blocks with respect to
//! [ṙ; ω'] of its two bodies. With the tree's twists at the origin V = [v_O; ω],
//! ṙ = v_O + ω × r and ω' = Aᵀ ω, so a row [a, b] of a block acts on V as the force
//! vector w = [a; r × a + A b], and on u through the body's path of tree columns:
//! K = Σ_bodies wᵀ J_b (J_b u = V_b), evaluated on the columns of the two paths
//! only ([`Cut::columns`]). From r̈ = a_O + ω̇ × r + ω × ṙ and ω̇' = Aᵀ ω̇,
//! the acceleration row a·r̈ + b·ω̇' = γ becomes
//!
//! ```text
//!   K u̇ = γ̂ = γ − Σ_bodies ( w · A⁰_b + a · (ω_b × ṙ_b) ),
//! ```
//!
//! A⁰_b the body's spatial acceleration at u̇ = 0 (the sum of the bias terms c = Ḣ⁰u
//! along its path; Featherstone 2008, ch. 8.1, the loop-closure constraint).

use mbs_constraints::ConstraintBlock;
use mbs_constraints::joints::{MarkerPair, evaluate_joint};
use mbs_model::BodyRef;
use nalgebra::{Vector3, Vector6};

use super::dynamics::Need;
use super::{JointAlf, JointAlfError};
use crate::hdca::Hdca;
use crate::joint::sv;

/// A cut joint closed by constraint rows.
#[derive(Clone, Debug)]
pub(super) struct Cut {
    /// Its index among the model's joints.
    pub joint: usize,
    /// Its first row.
    pub row: usize,
    /// The columns of its rows that can be non-zero, ascending, with the side
    /// whose path to the root carries them (0: marker i's body, 1: marker j's,
    /// 2: both). Entries on both paths (common ancestors) vanish on the
    /// constraint manifold only — the point-coincidence rows are global vectors,
    /// which a common rotation turns — so they are kept: K is then the exact
    /// Jacobian also off the manifold, and γ̂ its exact rate.
    pub columns: Vec<(usize, usize)>,
}

/// The tree columns on the path of body `b` (None: ground) to the root.
fn path_columns(h: &Hdca, b: Option<usize>) -> Vec<usize> {
    let mut out = Vec::new();
    let mut x = b;
    while let Some(xb) = x {
        let j = &h.joints[h.parent_joint[xb]];
        out.extend(j.u_off..j.u_off + j.nf);
        x = h.parent_body[xb];
    }
    out
}

impl Cut {
    /// The cut joint `joint` of `model` on the tree `h`, its rows from `row`.
    pub(super) fn new(h: &Hdca, joint: usize, row: usize) -> Self {
        let model = h.model();
        let jt = &model.joints()[joint];
        let body = |m| {
            model
                .marker(m)
                .body
                .body()
                .map(|id: mbs_model::BodyId| id.0)
        };
        let pi = path_columns(h, body(jt.marker_i));
        let pj = path_columns(h, body(jt.marker_j));
        let mut columns: Vec<(usize, usize)> = pi
            .iter()
            .map(|&c| (c, if pj.contains(&c) { 2 } else { 0 }))
            .chain(pj.iter().filter(|c| !pi.contains(c)).map(|&c| (c, 1)))
            .collect();
        columns.sort_unstable();
        Self {
            joint,
            row,
            columns,
        }
    }
}

impl JointAlf {
    /// Φ, K and γ̂ of every cut joint (module docs), after the tree's poses, twists,
    /// bias accelerations A⁰ and the constraint library's frames at time `t`.
    /// With `Need::Geometry` γ̂ is left as it was.
    pub(super) fn closure_rows(&mut self, t: f64, need: Need) -> Result<(), JointAlfError> {
        let dynamics = need == Need::Dynamics;
        let n = self.n;
        let h = &self.aba.tree;
        let cols = &self.aba.cols;
        let model = h.model();
        // entries outside each cut's `columns` stay zero from construction
        for cut in &self.cuts {
            let jt = &model.joints()[cut.joint];
            let (mi, mj) = (model.marker(jt.marker_i), model.marker(jt.marker_j));
            let pair = MarkerPair {
                mi,
                mj,
                fi: h.ws.frame(mi.body),
                fj: h.ws.frame(mj.body),
                moving_i: mi.body != BodyRef::Ground,
                moving_j: mj.body != BodyRef::Ground,
            };
            let mut block = ConstraintBlock::new(jt.kind.rows(), jt.kind.holonomic_rows());
            evaluate_joint(jt, &pair, &mut block).map_err(|e| JointAlfError::Closure {
                t,
                joint: jt.name.clone(),
                message: e.to_string(),
            })?;
            for r in 0..block.rows {
                let row = cut.row + r;
                let mut g = block.gamma[r];
                let mut w = [Vector6::zeros(); 3];
                for (side, (body, jac)) in [(mi.body, &block.ji), (mj.body, &block.jj)]
                    .into_iter()
                    .enumerate()
                {
                    let Some(id) = body.body() else {
                        continue;
                    };
                    let f = h.ws.frame(body);
                    let lin = Vector3::new(jac[(r, 0)], jac[(r, 1)], jac[(r, 2)]);
                    let ang = Vector3::new(jac[(r, 3)], jac[(r, 4)], jac[(r, 5)]);
                    w[side] = sv(&lin, &(f.r.cross(&lin) + f.a * ang));
                    if dynamics {
                        g -= w[side].dot(&self.a0[id.0]) + lin.dot(&f.omega.cross(&f.rdot));
                    }
                }
                w[2] = w[0] + w[1];
                let krow = &mut self.k[row * n..(row + 1) * n];
                for &(c, side) in &cut.columns {
                    krow[c] = w[side].dot(&cols[c].h);
                }
                self.phi[row] = block.phi[r];
                if dynamics {
                    self.gamma[row] = g;
                }
            }
        }
        Ok(())
    }

    /// Φ̇ = K u into `phi_dot` (scleronomic rows: no Φ_t).
    pub(super) fn closure_rates(&mut self, u: &[f64]) {
        let n = self.n;
        for (r, pd) in self.phi_dot.iter_mut().enumerate() {
            let krow = &self.k[r * n..(r + 1) * n];
            *pd = krow.iter().zip(u).map(|(a, b)| a * b).sum();
        }
    }
}
