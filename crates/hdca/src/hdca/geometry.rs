//! Positions along the spanning tree (joint coordinates → body poses), H and D of
//! every joint at the current state with their rates, and subtree sums.

use mbs_constraints::joints::Translation;
use mbs_kinematics::euler_params::{self, rotation};
use nalgebra::{Matrix3, Vector3, Vector6};

use super::Hdca;
use crate::assembly::JointEval;
use crate::joint::{
    self, JointCoords, ang3, force_at_origin, force_at_origin_dot, lin3, local_columns,
    motion_at_origin, motion_at_origin_dot,
};

/// Which part of the joint geometry [`Hdca::joint_geometry`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    /// Columns H, D (position only).
    Positions,
    /// Their rates from the current twists.
    Rates,
}

/// Poses and twists at a joint (parent = minus side, child = plus side).
struct JointFrame {
    rm: Vector3<f64>,
    am: Matrix3<f64>,
    ap: Matrix3<f64>,
    /// The parent marker axes (turned by a distance joint's link rotation).
    axes: Matrix3<f64>,
    /// The handle point (child marker origin) and its velocity.
    point: Vector3<f64>,
    point_dot: Vector3<f64>,
    vm: Vector6<f64>,
    vp: Vector6<f64>,
}

/// Joints per task of the parallel joint geometry.
const JOINT_CHUNK: usize = 32;

/// A tree joint's H and D columns at its handle point and their rates.
pub(crate) struct TreeColumns {
    pub nf: usize,
    nc: usize,
    pub point: Vector3<f64>,
    pub point_dot: Vector3<f64>,
    pub hl: [Vector6<f64>; 6],
    pub hr: [Vector6<f64>; 6],
    dl: [Vector6<f64>; 6],
    dr: [Vector6<f64>; 6],
}

impl TreeColumns {
    pub(crate) fn zeroed() -> Self {
        let z = [Vector6::zeros(); 6];
        Self {
            nf: 0,
            nc: 0,
            point: Vector3::zeros(),
            point_dot: Vector3::zeros(),
            hl: z,
            hr: z,
            dl: z,
            dr: z,
        }
    }
}

impl Hdca {
    /// Body poses from the joint coordinates, along the spanning tree.
    pub(crate) fn positions(&mut self, q: &[f64]) {
        for i in 0..self.tree_order.len() {
            self.place_body(self.tree_order[i], q);
        }
    }

    /// The pose of body `b` from its parent's pose and its tree joint's coordinates
    /// (one step of [`Hdca::positions`]: the parent must be placed).
    pub(crate) fn place_body(&mut self, b: usize, q: &[f64]) {
        let j = &self.joints[self.parent_joint[b]];
        let (rp, ep, ap) = match self.parent_body[b] {
            None => (
                Vector3::zeros(),
                euler_params::identity(),
                Matrix3::identity(),
            ),
            Some(p) => (self.bodies[p].r, self.bodies[p].e, self.bodies[p].a),
        };
        let qj = &q[j.q_off..j.q_off + j.kind.n_coords()];
        let axis = j.axes_minus.column(2).into_owned();
        let rel = joint::relative_rotation(j.kind, &axis, &j.axis_child0, qj);
        let e = euler_params::product(&euler_params::product(&ep, &rel), &j.b0);
        let a = rotation(&e);
        let link = joint::link_rotation(j.kind, qj);
        let point =
            rp + ap * (j.rho_minus + joint::offset(j.kind, &j.axes_minus, &j.delta0, &link, qj));
        self.link_rot[self.parent_joint[b]] = link;
        let r = point - a * j.rho_plus;
        let body = &self.model.bodies()[b];
        let jg = a * body.inertia * a.transpose();
        let be = &mut self.bodies[b];
        be.e = e;
        be.a = a;
        be.r = r;
        be.jg = jg;
        if self.assembly_inertias {
            let bi = &mut self.inertia[b];
            bi.r = r;
            bi.jinv = a * self.jinv_body[b] * a.transpose();
        }
    }

    pub(crate) fn body_pose(&self, b: Option<usize>) -> (Vector3<f64>, Matrix3<f64>) {
        match b {
            None => (Vector3::zeros(), Matrix3::identity()),
            Some(b) => (self.bodies[b].r, self.bodies[b].a),
        }
    }

    pub(super) fn twist(&self, b: Option<usize>) -> Vector6<f64> {
        b.map_or(Vector6::zeros(), |b| self.vel[b])
    }

    /// H, D at the origin ([`Pass::Positions`]) or, from the current twists, the
    /// rates Ḣ, Ḋ ([`Pass::Rates`], after a positions pass at the same poses; the
    /// position-only columns are then not recomputed). Cut joints get both in
    /// either pass.
    ///
    /// Joints are independent here: with [`crate::HdcaParams::par`] and at least
    /// `parallel_min_bodies` joints, chunks of them run on the rayon pool (each
    /// joint's arithmetic is the same either way, so the result does not depend on
    /// the thread count).
    pub(crate) fn joint_geometry(&mut self, pass: Pass) {
        let mut jev = std::mem::take(&mut self.jev);
        let par = self
            .params
            .par
            .for_size(jev.len(), self.params.parallel_min_bodies.max(2));
        let this = &*self;
        par.for_each_chunk(&mut jev, JOINT_CHUNK, |c, chunk| {
            for (i, je) in chunk.iter_mut().enumerate() {
                this.joint_eval(c * JOINT_CHUNK + i, pass, je);
            }
        });
        self.jev = jev;
    }

    /// [`Hdca::joint_geometry`] of joint `k` into `je`.
    fn joint_eval(&self, k: usize, pass: Pass, je: &mut JointEval) {
        let j = &self.joints[k];
        if !j.tree {
            let JointFrame {
                rm,
                am,
                ap,
                axes,
                point,
                point_dot,
                vm,
                vp,
            } = self.joint_frame(k);
            let wm = ang3(&vm);
            let mut cols = [Vector6::zeros(); 6];
            let mut rates = [Vector6::zeros(); 6];
            let wp = ang3(&vp);
            let pi = rm + am * j.rho_minus;
            let pi_dot = lin3(&vm) + wm.cross(&(pi - rm));
            let (nc, two_point) = joint::cut_columns(
                j.kind,
                &axes,
                &(ap * j.axes_plus),
                &wm,
                &wp,
                &(point - pi),
                &(point_dot - pi_dot),
                &mut cols,
                &mut rates,
            );
            let (pm, pm_dot) = if two_point {
                (pi, pi_dot)
            } else {
                (point, point_dot)
            };
            je.nf = 0;
            je.nc = nc;
            je.point = point;
            je.point_dot = point_dot;
            je.point_minus = pm;
            for a in 0..nc {
                je.dl[a] = cols[a];
                je.d[a] = force_at_origin(&cols[a], &point);
                je.d_dot[a] = force_at_origin_dot(&cols[a], &rates[a], &point, &point_dot);
                je.d_minus[a] = force_at_origin(&cols[a], &pm);
                je.d_minus_dot[a] = force_at_origin_dot(&cols[a], &rates[a], &pm, &pm_dot);
            }
            return;
        }
        let mut c = TreeColumns::zeroed();
        self.tree_columns(k, &mut c);
        let TreeColumns {
            nf,
            nc,
            point,
            point_dot,
            hl,
            hr,
            dl,
            dr,
        } = c;
        je.nf = nf;
        je.nc = nc;
        je.point_dot = point_dot;
        match pass {
            Pass::Positions => {
                je.point = point;
                je.point_minus = point;
                je.hl = hl;
                je.dl = dl;
                for a in 0..nf {
                    je.h[a] = force_at_origin(&hl[a], &point);
                    je.hm[a] = motion_at_origin(&hl[a], &point);
                }
                for a in 0..nc {
                    je.d[a] = force_at_origin(&dl[a], &point);
                    je.d_minus[a] = je.d[a];
                }
            }
            Pass::Rates => {
                for a in 0..nf {
                    je.hm_dot[a] = motion_at_origin_dot(&hl[a], &hr[a], &point, &point_dot);
                }
                for a in 0..nc {
                    je.d_dot[a] = force_at_origin_dot(&dl[a], &dr[a], &point, &point_dot);
                    je.d_minus_dot[a] = je.d_dot[a];
                }
            }
        }
    }

    /// Poses, handle point and twists at joint `k` (the common start of its columns).
    fn joint_frame(&self, k: usize) -> JointFrame {
        let j = &self.joints[k];
        let (rm, am) = self.body_pose(j.minus);
        let (rp, ap) = self.body_pose(j.plus);
        let point = rp + ap * j.rho_plus;
        let vp = self.twist(j.plus);
        JointFrame {
            rm,
            am,
            ap,
            axes: am * self.link_rot[k] * j.axes_minus,
            point,
            point_dot: lin3(&vp) + ang3(&vp).cross(&(point - rp)),
            vm: self.twist(j.minus),
            vp,
        }
    }

    /// H and D of tree joint `k` at its handle point, with their rates, into `c`
    /// (filled in place: the columns are not copied).
    pub(crate) fn tree_columns(&self, k: usize, c: &mut TreeColumns) {
        let j = &self.joints[k];
        let JointFrame {
            rm,
            ap,
            axes,
            point,
            point_dot,
            vm,
            vp,
            ..
        } = self.joint_frame(k);
        let mut wm = ang3(&vm);
        if j.kind.translation == Translation::Sphere {
            // the link frame turns with ω_p + ω_L, ω_L = n × Δv_P / L (module `joint`)
            let parent_at_point = lin3(&vm) + wm.cross(&(point - rm));
            let n: Vector3<f64> = axes.column(2).into_owned();
            wm += n.cross(&(point_dot - parent_at_point)) / j.delta0.norm();
        }
        c.point = point;
        c.point_dot = point_dot;
        (c.nf, c.nc) = local_columns(
            j.kind,
            &axes,
            &(ap * j.axes_plus),
            &wm,
            &ang3(&vp),
            &mut c.hl,
            &mut c.hr,
            &mut c.dl,
            &mut c.dr,
        );
    }

    /// Subtree sums of `acc` along the spanning tree (children into parents).
    pub(super) fn accumulate(&mut self) {
        for &b in self.tree_order.iter().rev() {
            if let Some(p) = self.parent_body[b] {
                let a = self.acc[b];
                self.acc[p] += a;
            }
        }
    }
}
