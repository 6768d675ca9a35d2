//! The three sweeps of the articulated-body algorithm (Featherstone 2008, Table 7.1;
//! module docs of [`crate::Aba`] for the form at the origin). Sweep 1 does all of a
//! body's outward work (pose, H⁰, V, Ḣ⁰, c, q̇, Iᴬ, pᴬ) in one visit, so each sweep
//! streams the per-body data once.

use mbs_linalg::small::{cholesky_forward, cholesky_in_place, cholesky_solve};
use nalgebra::Vector6;

use super::spatial::{cross_force, inertia_at_origin, twist_at_centre};
use super::{Aba, AbaError};
use crate::joint::{self, JointCoords, ang3, lin3, motion_at_origin, motion_at_origin_dot, sv};

impl Aba {
    /// y' = f(t, y) (the same as [`mbs_integrators::OdeSystem::rhs`], typed error).
    pub fn derivative(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), AbaError> {
        let (nq, nu) = (self.n_coords(), self.n_velocities());
        if y.len() != nq + nu || dydt.len() != nq + nu {
            return Err(crate::HdcaError::Dimension {
                expected: nq + nu,
                got: if y.len() != nq + nu {
                    y.len()
                } else {
                    dydt.len()
                },
            }
            .into());
        }
        self.stats.rhs_evaluations += 1;
        let (q, u) = y.split_at(nq);
        let (qd, ud) = dydt.split_at_mut(nq);
        self.outward(q, u, Some(qd));
        // the applied loads about the origin (force elements, gravity): they read
        // every body's twist, so they follow sweep 1
        self.tree.loads(t)?;
        self.articulated_inertias(t)?;
        self.accelerations_pass(ud);
        if let Some(x) = dydt.iter().position(|x| !x.is_finite()) {
            return Err(AbaError::NonFinite {
                t,
                place: self.tree.state_owner(x),
                what: if x < nq {
                    "joint-coordinate rate"
                } else {
                    "joint acceleration"
                },
            });
        }
        Ok(())
    }

    /// Sweep 1 (root → tip), one body at a time: its pose, H⁰ and V = V_p + H⁰ u
    /// (with the centre-of-mass twist the loads read); with `qd` also the joint's
    /// coordinate rates q̇, Ḣ⁰, the bias acceleration c = Ḣ⁰ u, Iᴬ = I_O and
    /// pᴬ = V ×* (I_O V) (the loads are taken off in sweep 2).
    pub(crate) fn outward(&mut self, q: &[f64], u: &[f64], mut qd: Option<&mut [f64]>) {
        let Self {
            tree: h,
            art,
            cols,
            scratch,
            ..
        } = self;
        for i in 0..h.tree_order.len() {
            let b = h.tree_order[i];
            h.place_body(b, q);
            let k = h.parent_joint[b];
            let (nf, u_off) = (h.joints[k].nf, h.joints[k].u_off);
            let mut v = h.parent_body[b].map_or_else(Vector6::zeros, |p| art[p].v);
            if nf > 0 {
                // the columns at the new poses (their rates are redone below, once
                // this body's twist is known)
                h.tree_columns(k, scratch);
                for a in 0..nf {
                    let col = &mut cols[u_off + a];
                    col.h = motion_at_origin(&scratch.hl[a], &scratch.point);
                    v += col.h * u[u_off + a];
                }
            }
            art[b].v = v;
            h.vel[b] = twist_at_centre(&v, &h.bodies[b].r);
            let Some(qd) = qd.as_deref_mut() else {
                continue;
            };
            let mut c = Vector6::zeros();
            if nf > 0 {
                h.tree_columns(k, scratch);
                for a in 0..nf {
                    let col = &mut cols[u_off + a];
                    col.h_dot = motion_at_origin_dot(
                        &scratch.hl[a],
                        &scratch.hr[a],
                        &scratch.point,
                        &scratch.point_dot,
                    );
                    c += col.h_dot * u[u_off + a];
                }
                let j = &h.joints[k];
                let (_, ap) = h.body_pose(j.minus);
                let n = j.kind.n_coords();
                joint::coord_rates(
                    j,
                    &q[j.q_off..j.q_off + n],
                    &u[u_off..u_off + nf],
                    &ap,
                    &mut qd[j.q_off..j.q_off + n],
                );
            }
            let be = &h.bodies[b];
            let m = h.model().bodies()[b].mass;
            let ab = &mut art[b];
            ab.c = c;
            ab.ia = inertia_at_origin(m, &be.r, &be.jg);
            // momentum about the origin [m ṙ; J_g ω + r × m ṙ]
            let cm = &h.vel[b];
            let l = m * lin3(cm);
            let p = sv(&l, &(be.jg * ang3(cm) + be.r.cross(&l)));
            ab.pa = cross_force(&v, &p);
        }
    }

    /// Sweep 2 (tip → root): the body's load taken off pᴬ, then U, D = L Lᵀ, u_j, and
    /// the articulated inertia and bias force passed to the parent.
    fn articulated_inertias(&mut self, t: f64) -> Result<(), AbaError> {
        let Self {
            tree: h,
            art,
            cols,
            chol,
            chol_off,
            ..
        } = self;
        for &b in h.tree_order.iter().rev() {
            let k = h.parent_joint[b];
            let (nf, u_off) = (h.joints[k].nf, h.joints[k].u_off);
            let ab = &mut art[b];
            ab.pa -= h.acc[b];
            let cs = &mut cols[u_off..u_off + nf];
            for col in cs.iter_mut() {
                col.u = ab.ia * col.h;
                col.uj = -col.h.dot(&ab.pa);
            }
            let l = &mut chol[chol_off[b]..chol_off[b] + nf * nf];
            for a in 0..nf {
                for r in a..nf {
                    l[r + nf * a] = cs[r].h.dot(&cs[a].u);
                }
            }
            if cholesky_in_place(l, nf, nf, 0.0).is_err() {
                return Err(AbaError::SingularJointInertia {
                    t,
                    joint: h.model().joints().get(k).map_or_else(
                        || format!("free joint of body `{}`", h.model().bodies()[b].name),
                        |jt| jt.name.clone(),
                    ),
                });
            }
            let Some(p) = h.parent_body[b] else {
                continue;
            };
            // U D⁻¹ Uᵀ = G Gᵀ with G = U L⁻ᵀ (row r of G: L⁻¹ times row r of U),
            // U D⁻¹ u_j = G (L⁻¹ u_j)
            let mut g = [Vector6::zeros(); 6];
            let mut row = [0.0; 6];
            for r in 0..6 {
                for a in 0..nf {
                    row[a] = cs[a].u[r];
                }
                cholesky_forward(l, nf, nf, &mut row);
                for a in 0..nf {
                    g[a][r] = row[a];
                }
            }
            let mut z = [0.0; 6];
            for a in 0..nf {
                z[a] = cs[a].uj;
            }
            cholesky_forward(l, nf, nf, &mut z);
            let mut ia = ab.ia;
            let mut pa = ab.pa;
            for a in 0..nf {
                ia -= g[a] * g[a].transpose();
                pa += g[a] * z[a];
            }
            pa += ia * ab.c;
            let parent = &mut art[p];
            parent.ia += ia;
            parent.pa += pa;
        }
        Ok(())
    }

    /// Sweep 3 (root → tip): A = A_p + c, u̇ = D⁻¹ (u_j − Uᵀ A), A += H⁰ u̇.
    fn accelerations_pass(&mut self, ud: &mut [f64]) {
        let h = &self.tree;
        for &b in &h.tree_order {
            let k = h.parent_joint[b];
            let (nf, u_off) = (h.joints[k].nf, h.joints[k].u_off);
            let mut acc = h.parent_body[b].map_or_else(Vector6::zeros, |p| self.art[p].a);
            acc += self.art[b].c;
            let cs = &self.cols[u_off..u_off + nf];
            let mut x = [0.0; 6];
            for a in 0..nf {
                x[a] = cs[a].uj - cs[a].u.dot(&acc);
            }
            let off = self.chol_off[b];
            cholesky_solve(&self.chol[off..off + nf * nf], nf, nf, &mut x);
            for a in 0..nf {
                acc += cs[a].h * x[a];
                ud[u_off + a] = x[a];
            }
            self.art[b].a = acc;
        }
    }
}
