//! The HDCA front-end: state y = [q_joint; p_joint], right-hand side by the
//! divide-and-conquer passes, and output in absolute coordinates.
//!
//! # State layout
//! `y[0..n_q]` are the joint coordinates of the spanning-tree joints, joint after
//! joint in increasing [`mbs_model::JointId`] order (1 per revolute/prismatic, 2 per
//! cylindrical [θ, s], 4 Euler parameters per spherical, 0 per rigid), all measured
//! from the model's initial configuration; `y[n_q..n_q + n_p]` are the joint canonical
//! momenta in the same joint order (n_f per joint: 3 for a spherical joint, conjugate
//! to the relative angular velocity in global components). Cut joints have no
//! coordinates and zero momenta (eq 68), so they are not stored. The virtual free
//! joints of free-floating components (one per component root, in increasing body
//! id) come after the model's joints in both parts: q = [Δr; e] (7), p conjugate to
//! [ṙ; ω] of the root's centre of mass (6).
//!
//! # Scaled momenta
//! With [`HdcaParams::scale_momenta`] (the default) y holds p̃ᵢ = pᵢ / sᵢ instead of
//! pᵢ, sᵢ the diagonal entry of the tree's joint-space mass matrix for momentum i at
//! the initial configuration ([`Hdca::momentum_scales`]): p̃ is in joint-rate units
//! (rad/s, m/s) like the velocities of the other formulations, so one absolute
//! tolerance means the same thing for every formulation. The momenta of light bodies
//! are small numbers: the spatial slider-crank's crank (0.12 kg, 6.4e-5 kg m²) has
//! p ≈ 4e-4 kg m²/s, on which Adams at atol = 1e-7 allowed a relative error of 2.5e-4
//! per step and ended 2.1e-4 away from the reference motion after 1 s (50 times
//! the other formulations' error at the same tolerance); scaled, 3.6e-6.
//!
//! # One evaluation (Pseudo-algorithm 3)
//! 1. positions of the bodies from q along the spanning tree;
//! 2. velocities and impulses σ by assembly–disassembly (module `assembly`);
//! 3. q̇ = Hᵀ(V_child − V_parent) (eq 40, 46);
//! 4. ṗ_k = Ḣ_kᵀ P̄_k + H_kᵀ Σ_{bodies b beyond k} G_b (eq 77 referred to the fixed
//!    origin, where Ṡ_O = 0 (eq 53) and the Ṡ_c D_c + S_kc Ḋ_c terms of the cut
//!    joints become the rate Ḋ⁰_c of D_c moved to the origin), with
//!    P̄_k = D_k σ_k + H_k p_k (eq 10) and G_b = Q_b − Σ_c s_c Ḋ⁰_c σ_c the applied
//!    load of body b about the origin (eqs 70–76) corrected by the cut impulses.
//!
//! Derivation of 4: p_k = H_kᵀ P̄_k and P̄_k = P_k^acc − Σ_c s_c D_c σ_c (eqs 63, 6);
//! about a fixed point d/dt P^acc = Q^acc + reactions; the reaction at k is D_k λ_k
//! (Hᵀ D = 0) and the cut reactions D_c λ_c cancel against d/dt(D_c σ_c) = Ḋ_c σ_c
//! + D_c λ_c (σ̇ = λ).

use std::sync::Arc;

use mbs_constraints::joints::Freedoms;
use mbs_constraints::{SystemLayout, Workspace};
use mbs_integrators::{OdeSystem, SystemError};
use mbs_kinematics::EulerParams;
use mbs_kinematics::euler_params::{self, rotation};
use mbs_linalg::small::pinv_psd;
use mbs_model::{BodyRef, JointKind, Layout, Model, State};
use nalgebra::{Matrix3, Vector3, Vector6};

use crate::assembly::{self, BodyInertia, Ctx, JointEval, Node};
use crate::error::HdcaError;
use crate::joint::{self, JointCoords, JointInfo, ang3, lin3, sv};
use crate::params::HdcaParams;

mod build;
mod geometry;

pub(crate) use geometry::{Pass, TreeColumns};
mod state_map;

/// Counters of an [`Hdca`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HdcaStats {
    /// Right-hand-side evaluations.
    pub rhs_evaluations: u64,
    /// Directions dropped as redundant in the last evaluation (all nodes and root).
    pub redundant_directions: usize,
    /// Largest |σ| of the last evaluation (the impulses grow like ∫λ dt for
    /// one-signed reactions, sec 3.4).
    pub max_abs_sigma: f64,
}

/// Per-body data of one evaluation.
#[derive(Clone, Debug)]
pub(crate) struct BodyEval {
    pub(crate) e: EulerParams,
    pub(crate) a: Matrix3<f64>,
    pub(crate) r: Vector3<f64>,
    /// Centroidal inertia in the global frame.
    pub(crate) jg: Matrix3<f64>,
}

/// The Hamiltonian divide-and-conquer front-end (Chadaj, Malczyk & Frączek 2017).
pub struct Hdca {
    model: Arc<Model>,
    params: HdcaParams,
    pub(crate) joints: Vec<JointInfo>,
    /// Per body: index (in `joints`) of its tree joint.
    pub(crate) parent_joint: Vec<usize>,
    /// Per body: its parent body (None = ground).
    pub(crate) parent_body: Vec<Option<usize>>,
    pub(crate) tree_order: Vec<usize>,
    /// Per body: the cut joints at it with the sign of their impulse on it.
    cut_handles: Vec<Vec<(usize, f64)>>,
    n_q: usize,
    n_p: usize,
    n_sigma: usize,
    u_off: Vec<usize>,
    nodes: Vec<Node>,
    ground_k: Vec<f64>,
    ground_scratch: Vec<f64>,
    // evaluation scratch
    pub(crate) bodies: Vec<BodyEval>,
    /// J'⁻¹ per body (body frame).
    jinv_body: Vec<Matrix3<f64>>,
    inertia: Vec<BodyInertia>,
    pub(crate) vel: Vec<Vector6<f64>>,
    pub(crate) jev: Vec<JointEval>,
    /// Per joint: R(e_L) of a distance tree joint (identity otherwise).
    link_rot: Vec<Matrix3<f64>>,
    sigma: Vec<f64>,
    /// sᵢ of the scaled momenta p̃ᵢ = pᵢ / sᵢ (all 1 without scaling).
    p_scale: Vec<f64>,
    /// Whether [`Hdca::positions`] updates the assembly's inverse inertias (the
    /// articulated-body front-end, which never assembles, turns it off).
    pub(crate) assembly_inertias: bool,
    /// The momenta p of the last evaluation (unscaled).
    p: Vec<f64>,
    u: Vec<f64>,
    pub(crate) acc: Vec<Vector6<f64>>,
    sys: SystemLayout,
    pub(crate) ws: Workspace,
    abs: State,
    stats: HdcaStats,
}

impl Hdca {
    /// Builds the front-end; errors name an unsupported joint or driver, or a body
    /// with a singular inertia.
    pub fn new(model: Arc<Model>, params: HdcaParams) -> Result<Self, HdcaError> {
        if let Some(d) = model.drivers().first() {
            return Err(HdcaError::UnsupportedDriver {
                driver: d.name.clone(),
                why: "a driver prescribes a coordinate as a function of time; in HDCA its row would be a rheonomic closure Dᵀ ΔV = −Φ_t in the assembly (eqs 24, 26, 43, 45 are scleronomic, Dᵀ ΔV = 0) whose impulse enters ṗ, which this implementation does not assemble; model the motion with a joint and an applied torque or force, or use a Lagrange/ALF front-end",
            });
        }
        let topo = model.topology();
        let nb = model.n_bodies();
        let mut parent_body = vec![None; nb];
        let mut parent_joint = vec![usize::MAX; nb];
        let mut free_roots = Vec::new();
        for b in 0..nb {
            match topo.parent(mbs_model::BodyId(b)) {
                None => free_roots.push(b),
                Some((p, j)) => {
                    parent_body[b] = p.body().map(|x| x.0);
                    parent_joint[b] = j.0;
                }
            }
        }
        let init = State::initial(&model, Layout::EulerParamsOmega);
        let pose = |b: BodyRef| -> (Vector3<f64>, EulerParams) {
            match b {
                BodyRef::Ground => (Vector3::zeros(), euler_params::identity()),
                BodyRef::Body(id) => (init.position(id.0), init.euler_params(id.0)),
            }
        };
        let mut joints = Vec::with_capacity(model.joints().len());
        let (mut n_q, mut n_p, mut n_sigma) = (0, 0, 0);
        let mut u_off = Vec::new();
        for (k, jt) in model.joints().iter().enumerate() {
            let id = mbs_model::JointId(k);
            let tree = !topo.is_cut_joint(id);
            let kind = joint::check_kind(&model, id, tree)?;
            let (mi, mj) = (model.marker(jt.marker_i), model.marker(jt.marker_j));
            // tree: minus = parent side, plus = child side; cut: minus = i, plus = j.
            let (mk_minus, mk_plus) = if tree {
                let child_is_i = mi
                    .body
                    .body()
                    .is_some_and(|b| parent_joint[b.0] == k && mj.body != BodyRef::Body(b));
                if child_is_i { (mj, mi) } else { (mi, mj) }
            } else {
                (mi, mj)
            };
            let nf = if tree { kind.n_free() } else { 0 };
            let nc = 6 - kind.n_free();
            let (q_off, uo) = if tree {
                (n_q, n_p)
            } else {
                (usize::MAX, usize::MAX)
            };
            if tree {
                n_q += kind.n_coords();
                n_p += nf;
            }
            u_off.push(uo);
            let s_off = n_sigma;
            n_sigma += nc;
            let (rm, em) = pose(mk_minus.body);
            let (rp, ep) = pose(mk_plus.body);
            let am = rotation(&em);
            let pm = rm + am * mk_minus.position;
            let pp = rp + rotation(&ep) * mk_plus.position;
            let mut delta0 = am.transpose() * (pp - pm);
            let mut axes_minus = mk_minus.orientation;
            if let (true, JointKind::Distance { length }) = (tree, &jt.kind) {
                // the link δ₀ of length L and its frame [t₁⁰ t₂⁰ n⁰] (module `joint`)
                (delta0, axes_minus) = link_frame(&jt.name, delta0, *length)?;
            }
            let b0 = euler_params::product(&euler_params::conjugate(&em), &ep);
            joints.push(JointInfo {
                kind,
                tree,
                plus: mk_plus.body.body().map(|b| b.0),
                minus: mk_minus.body.body().map(|b| b.0),
                rho_minus: mk_minus.position,
                axes_minus,
                rho_plus: mk_plus.position,
                axes_plus: mk_plus.orientation,
                nf,
                nc,
                q_off,
                u_off: uo,
                s_off,
                delta0,
                b0,
                axis_child0: rotation(&b0) * mk_plus.orientation.column(2),
            });
        }
        // Base-body case (a): a virtual 6-DOF joint from ground to the root of every
        // free-floating component, appended after the model's joints.
        for &b in &free_roots {
            parent_joint[b] = joints.len();
            u_off.push(n_p);
            let r0 = init.position(b);
            joints.push(JointInfo {
                kind: Freedoms::FREE,
                tree: true,
                plus: Some(b),
                minus: None,
                rho_minus: r0,
                axes_minus: Matrix3::identity(),
                rho_plus: Vector3::zeros(),
                axes_plus: Matrix3::identity(),
                nf: 6,
                nc: 0,
                q_off: n_q,
                u_off: n_p,
                s_off: n_sigma,
                delta0: Vector3::zeros(),
                b0: init.euler_params(b),
                axis_child0: rotation(&init.euler_params(b)).column(2).into_owned(),
            });
            n_q += 7;
            n_p += 6;
        }
        let mut cut_handles = vec![Vec::new(); nb];
        for (k, j) in joints.iter().enumerate() {
            if !j.tree {
                if let Some(b) = j.plus {
                    cut_handles[b].push((k, 1.0));
                }
                if let Some(b) = j.minus {
                    cut_handles[b].push((k, -1.0));
                }
            }
        }
        let nodes = build::build_nodes(&model, &joints);
        let inertia = model
            .bodies()
            .iter()
            .map(|b| BodyInertia {
                inv_mass: 1.0 / b.mass,
                r: Vector3::zeros(),
                jinv: Matrix3::identity(),
            })
            .collect();
        let mut jinv_body = Vec::with_capacity(nb);
        for b in model.bodies() {
            jinv_body.push(
                b.inertia
                    .try_inverse()
                    .ok_or_else(|| HdcaError::SingularInertia {
                        body: b.name.clone(),
                    })?,
            );
        }
        let root_me = nodes.last().map_or(0, |n| n.me);
        let sys = SystemLayout::new(&model, Layout::EulerParamsOmega);
        let ws = Workspace::new(&sys);
        let bodies = (0..nb)
            .map(|_| BodyEval {
                e: euler_params::identity(),
                a: Matrix3::identity(),
                r: Vector3::zeros(),
                jg: Matrix3::identity(),
            })
            .collect();
        let mut h = Self {
            tree_order: topo.tree_order().iter().map(|b| b.0).collect(),
            model,
            params,
            parent_joint,
            parent_body,
            cut_handles,
            n_q,
            n_p,
            n_sigma,
            u_off,
            nodes,
            ground_k: vec![0.0; root_me * root_me],
            ground_scratch: vec![0.0; root_me * root_me + 2 * root_me],
            bodies,
            jinv_body,
            inertia,
            vel: vec![Vector6::zeros(); nb],
            jev: vec![JointEval::default(); joints.len()],
            link_rot: vec![Matrix3::identity(); joints.len()],
            joints,
            sigma: vec![0.0; n_sigma],
            p_scale: vec![1.0; n_p],
            assembly_inertias: true,
            p: vec![0.0; n_p],
            u: vec![0.0; n_p],
            acc: vec![Vector6::zeros(); nb],
            abs: State::zeros(Layout::EulerParamsOmega, nb),
            sys,
            ws,
            stats: HdcaStats::default(),
        };
        if h.params.scale_momenta {
            h.p_scale = h.tree_mass_diagonal();
        }
        Ok(h)
    }

    /// The diagonal of the tree's joint-space mass matrix at the initial
    /// configuration, one entry per momentum: sᵢ = Hᵢᵀ P^acc(Hᵢ), the momentum
    /// conjugate to a unit rate of direction i when the bodies beyond its joint move
    /// with the twist Hᵢ (motion type at the origin) and all others rest. An entry
    /// that is not positive and finite is 1.
    fn tree_mass_diagonal(&mut self) -> Vec<f64> {
        let q0 = self.initial_coords();
        self.positions(&q0);
        self.vel.iter_mut().for_each(|v| *v = Vector6::zeros());
        self.joint_geometry(Pass::Positions);
        // P^acc of a twist (v₀, ω) over the bodies beyond a joint is linear in the
        // subtree's mass M, first moment c = Σ m r and 3×3 moment
        // K = Σ (J_g − m [r×]²): l = M v₀ + ω × c, h = c × v₀ + K ω (sum of
        // l_b = m (v₀ + ω × r_b), h_b = J_g ω + r_b × l_b). Accumulated children
        // before parents: O(n) instead of a walk to the root per body and joint.
        let nb = self.model.n_bodies();
        let mut mass = vec![0.0; nb];
        let mut first = vec![Vector3::zeros(); nb];
        let mut second = vec![Matrix3::zeros(); nb];
        for b in 0..nb {
            let be = &self.bodies[b];
            let m = self.model.bodies()[b].mass;
            let rx = be.r.cross_matrix();
            mass[b] = m;
            first[b] = m * be.r;
            second[b] = be.jg - m * rx * rx;
        }
        for &b in self.tree_order.iter().rev() {
            if let Some(p) = self.parent_body[b] {
                mass[p] += mass[b];
                let (f, k2) = (first[b], second[b]);
                first[p] += f;
                second[p] += k2;
            }
        }
        let mut child = vec![None; self.joints.len()];
        for (b, &k) in self.parent_joint.iter().enumerate() {
            if k < child.len() {
                child[k] = Some(b);
            }
        }
        let mut s = vec![1.0; self.n_p];
        for (k, j) in self.joints.iter().enumerate() {
            if !j.tree {
                continue;
            }
            for a in 0..j.nf {
                let hm = self.jev[k].hm[a];
                let (v0, w) = (lin3(&hm), ang3(&hm));
                let p_acc = child[k].map_or_else(Vector6::zeros, |c| {
                    let l = mass[c] * v0 + w.cross(&first[c]);
                    sv(&l, &(first[c].cross(&v0) + second[c] * w))
                });
                let sa = hm.dot(&p_acc);
                if sa > 0.0 && sa.is_finite() {
                    s[j.u_off + a] = sa;
                }
            }
        }
        s
    }

    /// sᵢ of the stored momenta p̃ᵢ = pᵢ / sᵢ (module docs; all 1 without
    /// [`HdcaParams::scale_momenta`]).
    pub fn momentum_scales(&self) -> &[f64] {
        &self.p_scale
    }

    /// The model.
    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }
    /// Number of joint coordinates n_q.
    pub fn n_coords(&self) -> usize {
        self.n_q
    }
    /// Number of joint momenta n_p.
    pub fn n_momenta(&self) -> usize {
        self.n_p
    }
    /// Counters.
    pub fn stats(&self) -> HdcaStats {
        self.stats
    }
    /// Constraint impulses σ of the last evaluation, joint after joint (6 − n_f each,
    /// every joint including cut joints), at the joint point in the directions D.
    pub fn impulses(&self) -> &[f64] {
        &self.sigma
    }

    /// y₀ = [q₀; p₀]: q₀ = 0 (identity Euler parameters for spherical joints) and the
    /// momenta p₀ = Hᵀ P^acc from the model's initial velocities with σ = 0 (eq 6,
    /// sec 2.1), scaled (module docs).
    pub fn initial_state(&mut self) -> Vec<f64> {
        let mut y = self.initial_coords();
        y.resize(self.n_q + self.n_p, 0.0);
        self.positions(&y[..self.n_q]);
        let init = State::initial(&self.model, Layout::EulerParamsOmega);
        self.momenta_of(&init, &mut y);
        y
    }

    /// q₀: zero joint coordinates (identity Euler parameters).
    pub(crate) fn initial_coords(&self) -> Vec<f64> {
        let mut y = vec![0.0; self.n_q];
        for j in self.joints.iter().filter(|j| j.tree) {
            for s0 in j.kind.euler_starts().into_iter().flatten() {
                y[j.q_off + s0] = 1.0;
            }
        }
        y
    }

    /// p = Hᵀ P^acc (eq 6 with σ = 0), scaled, into `y[n_q..]`, from the velocities of
    /// `s` at the poses of the last [`Self::positions`] call: P^acc_k is the momentum
    /// about the origin of the bodies beyond tree joint k.
    pub(super) fn momenta_of(&mut self, s: &State, y: &mut [f64]) {
        for b in 0..self.model.n_bodies() {
            self.vel[b] = sv(&s.velocity(b), &s.omega(b));
        }
        self.joint_geometry(Pass::Positions);
        for b in 0..self.model.n_bodies() {
            // momentum about the origin: [m ṙ; J ω + r × m ṙ]
            let be = &self.bodies[b];
            let m = self.model.bodies()[b].mass;
            let l = m * lin3(&self.vel[b]);
            self.acc[b] = sv(&l, &(be.jg * ang3(&self.vel[b]) + be.r.cross(&l)));
        }
        self.accumulate();
        for (k, j) in self.joints.iter().enumerate() {
            if j.tree {
                let c = j.plus.expect("tree child");
                let je = &self.jev[k];
                for a in 0..j.nf {
                    let i = j.u_off + a;
                    y[self.n_q + i] = je.hm[a].dot(&self.acc[c]) / self.p_scale[i];
                }
            }
        }
    }

    /// Velocities and impulses for (q, p): steps 1–3.
    fn velocities(&mut self, t: f64, y: &[f64]) -> Result<(), HdcaError> {
        let (q, p_scaled) = y.split_at(self.n_q);
        for ((p, ps), s) in self.p.iter_mut().zip(p_scaled).zip(&self.p_scale) {
            *p = ps * s;
        }
        self.positions(q);
        for b in 0..self.model.n_bodies() {
            self.vel[b] = Vector6::zeros();
        }
        // geometry with zero rates first: H and D only depend on positions.
        self.joint_geometry(Pass::Positions);
        let mut dropped = 0;
        if !self.nodes.is_empty() {
            let ctx = Ctx {
                jev: &self.jev,
                u_off: &self.u_off,
                inertia: &self.inertia,
                momenta: &self.p,
                tol: self.params.redundancy_tol,
                par: self.params.par,
                par_min: self.params.parallel_min_bodies.max(2),
            };
            assembly::up(&mut self.nodes, &ctx);
            // base body (eqs 43, 45): σ_E = −R⁺ r over the ground joints.
            let root = self.nodes.last_mut().expect("root");
            let me = root.me;
            self.ground_k.copy_from_slice(&root.rmat);
            dropped += pinv_psd(&mut self.ground_k, me, ctx.tol, &mut self.ground_scratch);
            for e in 0..me {
                root.sigma_e[e] = -(0..me)
                    .map(|f| self.ground_k[e + f * me] * root.rvec[f])
                    .sum::<f64>();
            }
            assembly::down(&mut self.nodes, &ctx);
        }
        // gather σ and twists
        let mut smax = 0.0_f64;
        for node in &self.nodes {
            dropped += node.dropped;
            for h in &node.handled {
                for a in 0..h.m {
                    self.sigma[self.joints[h.joint].s_off + a] = node.sigma_j[h.off + a];
                }
            }
            if let Some(b) = node.body {
                self.vel[b] = node.v;
                if !node.v.iter().all(|x| x.is_finite()) {
                    return Err(HdcaError::NonFinite {
                        t,
                        place: format!("body `{}`", self.model.bodies()[b].name),
                        what: "velocity",
                    });
                }
            }
        }
        if let Some(root) = self.nodes.last() {
            for h in &root.handles {
                for a in 0..h.m {
                    self.sigma[self.joints[h.joint].s_off + a] = root.sigma_e[h.off + a];
                }
            }
        }
        for s in &self.sigma {
            smax = smax.max(s.abs());
        }
        self.stats.redundant_directions = dropped;
        self.stats.max_abs_sigma = smax;
        // rates of H and D now that the twists are known
        self.joint_geometry(Pass::Rates);
        for (k, j) in self.joints.iter().enumerate() {
            if j.tree {
                let je = &self.jev[k];
                let at = |b: Option<usize>| -> Vector6<f64> {
                    b.map_or(Vector6::zeros(), |b| {
                        let v = self.vel[b];
                        let w = ang3(&v);
                        sv(&(lin3(&v) + w.cross(&(je.point - self.bodies[b].r))), &w)
                    })
                };
                let w = at(j.plus) - at(j.minus);
                for a in 0..j.nf {
                    self.u[j.u_off + a] = je.hl[a].dot(&w);
                }
            }
        }
        Ok(())
    }

    /// Applied loads of every body about the origin, into `acc`.
    pub(crate) fn loads(&mut self, t: f64) -> Result<(), HdcaError> {
        self.frames(t)?;
        self.ws.evaluate_forces(&self.model);
        for b in 0..self.model.n_bodies() {
            let (f, nb) = self.ws.body_load(b);
            let n = self.bodies[b].a * nb;
            self.acc[b] = sv(&f, &(n + self.bodies[b].r.cross(&f)));
        }
        Ok(())
    }

    /// The constraint library's body frames (`ws.frames()`) at the current poses and
    /// twists, time `t`.
    pub(crate) fn frames(&mut self, t: f64) -> Result<(), HdcaError> {
        self.abs.t = t;
        for b in 0..self.model.n_bodies() {
            let be = &self.bodies[b];
            let w = ang3(&self.vel[b]);
            let rdot = lin3(&self.vel[b]);
            self.abs.set_pose(b, &be.r, &be.e);
            self.abs.set_velocity(b, &rdot, &(be.a.transpose() * w));
        }
        self.ws
            .update_frames(&self.model, &self.sys, &self.abs)
            .map_err(|e| HdcaError::Loads {
                t,
                message: e.to_string(),
            })
    }

    /// Full evaluation into dydt.
    fn evaluate(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), HdcaError> {
        let n = self.n_q + self.n_p;
        if y.len() != n || dydt.len() != n {
            return Err(HdcaError::Dimension {
                expected: n,
                got: y.len().min(dydt.len()),
            });
        }
        self.stats.rhs_evaluations += 1;
        self.velocities(t, y)?;
        let q = &y[..self.n_q];
        let (qd, pd) = dydt.split_at_mut(self.n_q);
        for j in &self.joints {
            if j.tree && j.nf > 0 {
                let (_, ap) = self.body_pose(j.minus);
                let nq = j.kind.n_coords();
                joint::coord_rates(
                    j,
                    &q[j.q_off..j.q_off + nq],
                    &self.u[j.u_off..j.u_off + j.nf],
                    &ap,
                    &mut qd[j.q_off..j.q_off + nq],
                );
            }
        }
        self.loads(t)?;
        // G_b = Q_b − Σ_c s_c Ḋ⁰_c σ_c
        for b in 0..self.model.n_bodies() {
            for &(k, s) in &self.cut_handles[b] {
                let j = &self.joints[k];
                let je = &self.jev[k];
                let dd = if s > 0.0 { &je.d_dot } else { &je.d_minus_dot };
                for a in 0..j.nc {
                    self.acc[b] -= (s * self.sigma[j.s_off + a]) * dd[a];
                }
            }
        }
        self.accumulate();
        for (k, j) in self.joints.iter().enumerate() {
            if !j.tree {
                continue;
            }
            let je = &self.jev[k];
            let c = j.plus.expect("tree child");
            let mut pbar = Vector6::zeros();
            for a in 0..j.nc {
                pbar += self.sigma[j.s_off + a] * je.d[a];
            }
            for a in 0..j.nf {
                pbar += self.p[j.u_off + a] * je.h[a];
            }
            for a in 0..j.nf {
                let i = j.u_off + a;
                pd[i] = (je.hm_dot[a].dot(&pbar) + je.hm[a].dot(&self.acc[c])) / self.p_scale[i];
            }
        }
        if let Some(x) = dydt.iter().position(|x| !x.is_finite()) {
            return Err(HdcaError::NonFinite {
                t,
                place: self.state_owner(x),
                what: if x < self.n_q {
                    "joint-coordinate rate"
                } else {
                    "momentum rate"
                },
            });
        }
        Ok(())
    }

    /// The derivative y' = f(t, y) (same as [`OdeSystem::rhs`], typed error).
    pub fn derivative(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), HdcaError> {
        self.evaluate(t, y, dydt)
    }

    /// The absolute state (Euler-parameter layout [ṙ, ṗ]) at (t, y), velocities from
    /// the momenta by the velocity pass.
    pub fn to_state(&mut self, t: f64, y: &[f64]) -> Result<State, HdcaError> {
        let n = self.n_q + self.n_p;
        if y.len() != n {
            return Err(HdcaError::Dimension {
                expected: n,
                got: y.len(),
            });
        }
        self.velocities(t, y)?;
        let nb = self.model.n_bodies();
        let mut s = State::zeros(Layout::EulerParamsPdot, nb);
        s.t = t;
        for b in 0..nb {
            let be = &self.bodies[b];
            let w = ang3(&self.vel[b]);
            s.set_pose(b, &be.r, &be.e);
            s.set_velocity_global(b, &lin3(&self.vel[b]), &w);
        }
        Ok(s)
    }

    /// Joint quasi-velocities u (q̇ for all but spherical joints) at (t, y).
    pub fn joint_velocities(&mut self, t: f64, y: &[f64]) -> Result<Vec<f64>, HdcaError> {
        self.velocities(t, y)?;
        Ok(self.u.clone())
    }

    /// Total energy T + V at (t, y) (V: gravity and springs, from `mbs-constraints`).
    pub fn energy(&mut self, t: f64, y: &[f64]) -> Result<f64, HdcaError> {
        self.velocities(t, y)?;
        self.loads(t)?;
        let kin: f64 = (0..self.model.n_bodies())
            .map(|b| {
                let (v, w) = (lin3(&self.vel[b]), ang3(&self.vel[b]));
                let m = self.model.bodies()[b].mass;
                0.5 * m * v.norm_squared() + 0.5 * w.dot(&(self.bodies[b].jg * w))
            })
            .sum();
        Ok(kin + self.ws.potential_energy())
    }

    /// Reaction forces of the cut joints (sec 3.4): λ_c = σ̇_c, by the central
    /// difference of σ_c(y) along the flow, σ̇ ≈ [σ(y + h f) − σ(y − h f)] / 2h with
    /// f = y'(t, y) (the paper's finite-difference option; O(h²), h = `step`).
    /// `out` gets, per cut joint in increasing joint id, its 6 − n_f components: the
    /// force (and moment) that body i exerts on body j, at j's marker origin, along
    /// the columns of D listed in `crate::joint` (point rows first). Tree-joint
    /// reactions are not computed (the paper: "the method needs some extensions").
    pub fn cut_joint_reactions(
        &mut self,
        t: f64,
        y: &[f64],
        step: f64,
        out: &mut Vec<f64>,
    ) -> Result<(), HdcaError> {
        let n = y.len();
        let mut f = vec![0.0; n];
        self.evaluate(t, y, &mut f)?;
        let mut ys: Vec<f64> = y.iter().zip(&f).map(|(a, b)| a + step * b).collect();
        self.velocities(t + step, &ys)?;
        let plus: Vec<f64> = self.cut_sigmas();
        for (k, v) in ys.iter_mut().enumerate() {
            *v = y[k] - step * f[k];
        }
        self.velocities(t - step, &ys)?;
        let minus: Vec<f64> = self.cut_sigmas();
        out.clear();
        out.extend(plus.iter().zip(&minus).map(|(a, b)| (a - b) / (2.0 * step)));
        self.velocities(t, y)?;
        Ok(())
    }

    fn cut_sigmas(&self) -> Vec<f64> {
        self.joints
            .iter()
            .filter(|j| !j.tree)
            .flat_map(|j| self.sigma[j.s_off..j.s_off + j.nc].iter().copied())
            .collect()
    }

    /// Number of constraint impulses (Σ 6 − n_f over all joints).
    pub fn n_impulses(&self) -> usize {
        self.n_sigma
    }

    /// Where state component `x` of y = [q; p] lives, for error messages: the body
    /// moved by the tree joint that owns it, and the joint.
    pub(crate) fn state_owner(&self, x: usize) -> String {
        let owner = self.joints.iter().enumerate().find(|(_, j)| {
            j.tree
                && if x < self.n_q {
                    (j.q_off..j.q_off + j.kind.n_coords()).contains(&x)
                } else {
                    (j.u_off..j.u_off + j.nf).contains(&(x - self.n_q))
                }
        });
        match owner {
            Some((k, j)) => {
                let body = j.plus.map_or("ground".to_string(), |b| {
                    self.model.bodies()[b].name.clone()
                });
                format!("body `{body}` (joint `{}`)", self.model.joints()[k].name)
            }
            None => format!("state component {x} of model `{}`", self.model.name()),
        }
    }

    /// The joint coordinates' offset and count for a joint, `None` for a cut joint.
    pub fn coord_range(&self, j: mbs_model::JointId) -> Option<std::ops::Range<usize>> {
        let ji = &self.joints[j.0];
        ji.tree.then(|| ji.q_off..ji.q_off + ji.kind.n_coords())
    }

    /// The momenta's offset (within p) and count for a joint, `None` for a cut joint.
    pub fn momentum_range(&self, j: mbs_model::JointId) -> Option<std::ops::Range<usize>> {
        let ji = &self.joints[j.0];
        ji.tree.then(|| ji.u_off..ji.u_off + ji.nf)
    }
}

/// A distance tree joint's link δ₀ (the initial P − P_i in the parent frame) scaled
/// to the joint's length L, and a right-handed frame [t₁⁰ t₂⁰ n⁰] with n⁰ = δ₀/L.
fn link_frame(
    joint: &str,
    delta0: Vector3<f64>,
    length: f64,
) -> Result<(Vector3<f64>, Matrix3<f64>), HdcaError> {
    let norm = delta0.norm();
    if norm.is_nan() || norm <= 1e-12 * length {
        return Err(HdcaError::UnsupportedJoint {
            joint: joint.to_string(),
            kind: "distance",
            why: "its marker origins coincide in the initial configuration, so the link direction (the joint's constrained direction D) is undefined; start from a configuration with |P_j − P_i| = L",
        });
    }
    let n = delta0 / norm;
    let helper = if n.x.abs() < 0.9 {
        Vector3::x()
    } else {
        Vector3::y()
    };
    let t1 = helper.cross(&n).normalize();
    let t2 = n.cross(&t1);
    Ok((n * length, Matrix3::from_columns(&[t1, t2, n])))
}

impl std::fmt::Debug for Hdca {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hdca")
            .field("model", &self.model.name())
            .field("n_coords", &self.n_q)
            .field("n_momenta", &self.n_p)
            .field("n_impulses", &self.n_sigma)
            .field(
                "n_cut_joints",
                &self.joints.iter().filter(|j| !j.tree).count(),
            )
            .field("params", &self.params)
            .field("stats", &self.stats)
            .finish()
    }
}

impl OdeSystem for Hdca {
    fn dim(&self) -> usize {
        self.n_q + self.n_p
    }
    fn rhs(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) -> Result<(), SystemError> {
        self.evaluate(t, y, dydt)
            .map_err(|e| SystemError::new(e.to_string()))
    }

    /// Renormalizes the Euler parameters of spherical, free and distance joints (the exact flow keeps
    /// |e| = 1, eᵀė = 0; this removes the integrator's drift). Momenta and the other
    /// coordinates are untouched: there is no constraint to project on, the loop
    /// closure being exact at the velocity level.
    fn project(&mut self, _t: f64, y: &mut [f64]) -> Result<bool, SystemError> {
        let mut changed = false;
        for j in &self.joints {
            let starts = if j.tree {
                j.kind.euler_starts()
            } else {
                [None, None]
            };
            for s0 in starts.into_iter().flatten().map(|s0| j.q_off + s0) {
                let e = &mut y[s0..s0 + 4];
                let n = e.iter().map(|x| x * x).sum::<f64>().sqrt();
                if n > 0.0 && (n - 1.0).abs() > 0.0 {
                    e.iter_mut().for_each(|x| *x /= n);
                    changed = true;
                }
            }
        }
        Ok(changed)
    }
}
