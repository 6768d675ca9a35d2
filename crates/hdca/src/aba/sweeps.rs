//! The three sweeps of the articulated-body algorithm (Featherstone 2008, Table 7.1;
//! module docs of [`crate::Aba`] for the form at the origin).

use mbs_linalg::small::{cholesky_forward, cholesky_in_place, cholesky_solve};
use nalgebra::Vector6;

use super::spatial::{cross_force, inertia_at_origin, twist_at_centre};
use super::{Aba, AbaError};
use crate::joint::{self, JointCoords, ang3, lin3, sv};

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
        self.kinematics(t, y)?;
        let (q, u) = y.split_at(nq);
        let (qd, ud) = dydt.split_at_mut(nq);
        let h = &self.tree;
        for j in h.joints.iter().filter(|j| j.tree && j.nf > 0) {
            let (_, ap) = h.body_pose(j.minus);
            let n = j.kind.n_coords();
            joint::coord_rates(
                j,
                &q[j.q_off..j.q_off + n],
                &u[j.u_off..j.u_off + j.nf],
                &ap,
                &mut qd[j.q_off..j.q_off + n],
            );
        }
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

    /// Sweep 1 (root → tip): poses, H⁰, velocities V, the geometry's rates Ḣ⁰, the
    /// bias accelerations c, the loads Q and the bodies' Iᴬ = I_O, pᴬ = V ×* I_O V − Q.
    pub(super) fn kinematics(&mut self, t: f64, y: &[f64]) -> Result<(), AbaError> {
        let nq = self.n_coords();
        let (q, u) = y.split_at(nq);
        self.velocities(q, u);
        let h = &mut self.tree;
        h.motion_subspaces(true);
        h.loads(t)?;
        for &b in &h.tree_order {
            let k = h.parent_joint[b];
            let (j, je) = (&h.joints[k], &h.jev[k]);
            let mut c = Vector6::zeros();
            for a in 0..j.nf {
                c += je.hm_dot[a] * u[j.u_off + a];
            }
            let be = &h.bodies[b];
            let m = h.model().bodies()[b].mass;
            let ab = &mut self.art[b];
            ab.c = c;
            ab.ia = inertia_at_origin(m, &be.r, &be.jg);
            // momentum about the origin [m ṙ; J_g ω + r × m ṙ]
            let cm = &h.vel[b];
            let l = m * lin3(cm);
            let p = sv(&l, &(be.jg * ang3(cm) + be.r.cross(&l)));
            ab.pa = cross_force(&ab.v, &p) - h.acc[b];
        }
        Ok(())
    }

    /// Poses, H⁰ and the spatial velocities V (and the centre-of-mass twists the
    /// geometry's rates and the loads read) from (q, u).
    pub(super) fn velocities(&mut self, q: &[f64], u: &[f64]) {
        let h = &mut self.tree;
        h.positions(q);
        h.motion_subspaces(false);
        for &b in &h.tree_order {
            let k = h.parent_joint[b];
            let (j, je) = (&h.joints[k], &h.jev[k]);
            let mut v = h.parent_body[b].map_or_else(Vector6::zeros, |p| self.art[p].v);
            for a in 0..j.nf {
                v += je.hm[a] * u[j.u_off + a];
            }
            self.art[b].v = v;
            h.vel[b] = twist_at_centre(&v, &h.bodies[b].r);
        }
    }

    /// Sweep 2 (tip → root): U, D = L Lᵀ, u_j, and the articulated inertia and bias
    /// force passed to the parent.
    fn articulated_inertias(&mut self, t: f64) -> Result<(), AbaError> {
        let h = &self.tree;
        for &b in h.tree_order.iter().rev() {
            let k = h.parent_joint[b];
            let (nf, je) = (h.joints[k].nf, &h.jev[k]);
            let ab = &mut self.art[b];
            for a in 0..nf {
                ab.u[a] = ab.ia * je.hm[a];
                ab.uj[a] = -je.hm[a].dot(&ab.pa);
                for r in a..nf {
                    ab.l[r + 6 * a] = je.hm[r].dot(&ab.u[a]);
                }
            }
            if cholesky_in_place(&mut ab.l, 6, nf, 0.0).is_err() {
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
                    row[a] = ab.u[a][r];
                }
                cholesky_forward(&ab.l, 6, nf, &mut row);
                for a in 0..nf {
                    g[a][r] = row[a];
                }
            }
            let mut z = ab.uj;
            cholesky_forward(&ab.l, 6, nf, &mut z);
            let mut ia = ab.ia;
            let mut pa = ab.pa;
            for a in 0..nf {
                ia -= g[a] * g[a].transpose();
                pa += g[a] * z[a];
            }
            pa += ia * ab.c;
            let parent = &mut self.art[p];
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
            let (j, je) = (&h.joints[k], &h.jev[k]);
            let mut acc = h.parent_body[b].map_or_else(Vector6::zeros, |p| self.art[p].a);
            let ab = &mut self.art[b];
            acc += ab.c;
            let mut x = [0.0; 6];
            for a in 0..j.nf {
                x[a] = ab.uj[a] - ab.u[a].dot(&acc);
            }
            cholesky_solve(&ab.l, 6, j.nf, &mut x);
            for a in 0..j.nf {
                acc += je.hm[a] * x[a];
                ud[j.u_off + a] = x[a];
            }
            ab.a = acc;
        }
    }
}
