//! The divide-and-conquer velocity pass (sec 2.2): assembly (eqs 17–36), base-body
//! connection (eqs 37–46) and disassembly, over the model's binary
//! [`mbs_model::AssemblyTree`] with any number of handles per (compound) body.
//!
//! Every body has one twist V_C = [ṙ; ω] at its centre of mass and one spatial
//! inertia M_C = diag(m I, J_C); a handle force D_k σ_k at its point P_k is moved to C
//! by the shift matrix S_CPk (eq 14). After projection on the constrained directions
//! of its boundary joints, the integral form of the equations of motion (eqs 15–16,
//! one row per handle, any number of handles) of a sub-assembly is
//!
//! ```text
//! Dᵀ_h s_h V_h = Σ_k R_hk σ_k + r_h        (h, k: boundary handles)
//! ```
//!
//! (R does not depend on the reference point, so no origin-sized lever arm enters),
//! with s_h = +1 on the plus side of joint h, −1 on the minus side; the jump of a
//! joint's velocity is w = s V (plus side) + s V (minus side), and Dᵀw = 0 (eq 24).
//! Assembly of A and B with the joints J handled between them (eqs 26–36):
//!
//! ```text
//! K = R^A_JJ + R^B_JJ,  σ_J = −K⁺ (R_JE σ_E + r_J)        (eqs 26, 29)
//! R^C = R_EE − R_EJ K⁺ R_JE,  r^C = r_E − R_EJ K⁺ r_J      (eqs 34–36)
//! ```
//!
//! and at the root (base body, eqs 43, 45) σ_E = −R⁺ r over the ground joints. A
//! leaf (eq 12 with eq 10) has R_hk = s_h s_k (S_CPh D_h)ᵀ M_C⁻¹ S_CPk D_k and
//! r_h = s_h (S_CPh D_h)ᵀ M_C⁻¹ Σ_k s_k S_CPk H_k p_k. K⁺ is K⁻¹ through a Cholesky
//! factor where K is positive definite and the pseudo-inverse of
//! `mbs_linalg::small::pinv_psd` otherwise (module `condense`).

use mbs_linalg::Par;
use nalgebra::{Matrix3, Vector3, Vector6};

mod condense;

use crate::joint::{ang3, lin3, sv};

/// A handle: one boundary joint of a sub-assembly.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Handle {
    pub joint: usize,
    pub sign: f64,
    pub off: usize,
    pub m: usize,
}

/// Where a scalar σ of a child's boundary goes in its parent.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Slot {
    J(usize),
    E(usize),
}

/// Per-evaluation joint data at the origin.
#[derive(Clone, Debug, Default)]
pub(crate) struct JointEval {
    pub nf: usize,
    pub nc: usize,
    pub point: Vector3<f64>,
    pub point_dot: Vector3<f64>,
    /// The minus side's handle point (differs from `point` for point-coincidence
    /// cut joints that have drifted).
    pub point_minus: Vector3<f64>,
    /// H and D at their handle points (global components, paper's orthonormal form
    /// for tree joints).
    pub hl: [Vector6<f64>; 6],
    pub dl: [Vector6<f64>; 6],
    /// H, force type at the origin.
    pub h: [Vector6<f64>; 6],
    /// H, motion type at the origin, and its rate.
    pub hm: [Vector6<f64>; 6],
    pub hm_dot: [Vector6<f64>; 6],
    /// D, force type at the origin, and its rate (plus side).
    pub d: [Vector6<f64>; 6],
    pub d_dot: [Vector6<f64>; 6],
    /// D of the minus side (a cut joint's minus handle may sit at another point).
    pub d_minus: [Vector6<f64>; 6],
    pub d_minus_dot: [Vector6<f64>; 6],
}

/// Inverse centroidal inertia of a body (global frame) and its centre of mass.
#[derive(Clone, Debug)]
pub(crate) struct BodyInertia {
    pub inv_mass: f64,
    pub r: Vector3<f64>,
    pub jinv: Matrix3<f64>,
}

impl BodyInertia {
    /// M_C⁻¹ t for a spatial load t at the centre of mass: [f/m; J⁻¹ n].
    #[inline]
    fn solve(&self, t: &Vector6<f64>) -> Vector6<f64> {
        sv(&(self.inv_mass * lin3(t)), &(self.jinv * ang3(t)))
    }
}

/// A force-type column at P moved to C (eq 14): [l; r + (P − C) × l].
#[inline]
fn at_com(c: &Vector6<f64>, p: &Vector3<f64>, com: &Vector3<f64>) -> Vector6<f64> {
    let l = lin3(c);
    sv(&l, &(ang3(c) + (p - com).cross(&l)))
}

/// Read-only data of one evaluation.
pub(crate) struct Ctx<'a> {
    pub jev: &'a [JointEval],
    pub u_off: &'a [usize],
    pub inertia: &'a [BodyInertia],
    pub momenta: &'a [f64],
    pub tol: f64,
    pub par: Par,
    pub par_min: usize,
}

/// One node of the assembly tree with its preallocated storage.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub n_bodies: usize,
    pub left_size: usize,
    pub body: Option<usize>,
    pub handles: Vec<Handle>,
    pub me: usize,
    pub rmat: Vec<f64>,
    pub rvec: Vec<f64>,
    pub handled: Vec<Handle>,
    pub mj: usize,
    pub map: [Vec<Slot>; 2],
    pub k: Vec<f64>,
    pub rje: Vec<f64>,
    pub ymat: Vec<f64>,
    pub yvec: Vec<f64>,
    pub scratch: Vec<f64>,
    pub sigma_e: Vec<f64>,
    pub sigma_j: Vec<f64>,
    pub v: Vector6<f64>,
    pub dropped: usize,
    /// K factored (L in `k`, S in `kscale`) rather than pseudo-inverted.
    pub chol: bool,
    pub kscale: Vec<f64>,
    pub kcopy: Vec<f64>,
    /// Leaf: the boundary columns X_c = s (S_CP D)_c at the centre of mass, W_c =
    /// M_C⁻¹ X_c, and M_C⁻¹ Σ s S_CP H p (kept for the disassembly).
    pub xcols: Vec<Vector6<f64>>,
    pub wcols: Vec<Vector6<f64>>,
    pub kb: Vector6<f64>,
    /// Per child: the scatter of its R and r into this node, built once from `map`.
    pub scatter: [Scatter; 2],
}

/// Where each entry of a child's R (column-major, `src`) and r goes in its parent:
/// (src, dst) pairs into K, R_JE, R_EE, r_J and r_E (the slot map unrolled, so the
/// assembly adds without dispatch).
#[derive(Clone, Debug, Default)]
pub(crate) struct Scatter {
    pub k: Vec<(u32, u32)>,
    pub rje: Vec<(u32, u32)>,
    pub ree: Vec<(u32, u32)>,
    pub rj: Vec<(u32, u32)>,
    pub re: Vec<(u32, u32)>,
}

impl Scatter {
    fn new(map: &[Slot], me: usize, mj: usize) -> Self {
        let mut s = Self::default();
        let cm = map.len();
        let idx = |x: usize| u32::try_from(x).expect("node size fits u32");
        for (cb, &sb) in map.iter().enumerate() {
            for (ca, &sa) in map.iter().enumerate() {
                let src = idx(ca + cb * cm);
                match (sa, sb) {
                    (Slot::J(i), Slot::J(j)) => s.k.push((src, idx(i + j * mj))),
                    (Slot::J(i), Slot::E(e)) => s.rje.push((src, idx(i + e * mj))),
                    (Slot::E(e), Slot::E(f)) => s.ree.push((src, idx(e + f * me))),
                    (Slot::E(_), Slot::J(_)) => {}
                }
            }
            match sb {
                Slot::J(i) => s.rj.push((idx(cb), idx(i))),
                Slot::E(e) => s.re.push((idx(cb), idx(e))),
            }
        }
        s
    }
}

impl Node {
    pub(crate) fn new(
        n_bodies: usize,
        left_size: usize,
        body: Option<usize>,
        handles: Vec<Handle>,
        handled: Vec<Handle>,
        map: [Vec<Slot>; 2],
    ) -> Self {
        let me = handles.iter().map(|h| h.m).sum();
        let mj = handled.iter().map(|h| h.m).sum();
        let scatter = [Scatter::new(&map[0], me, mj), Scatter::new(&map[1], me, mj)];
        Self {
            n_bodies,
            left_size,
            body,
            handles,
            me,
            rmat: vec![0.0; me * me],
            rvec: vec![0.0; me],
            handled,
            mj,
            map,
            k: vec![0.0; mj * mj],
            rje: vec![0.0; mj * me],
            ymat: vec![0.0; mj * me],
            yvec: vec![0.0; mj],
            scratch: vec![0.0; mj * mj + 2 * mj],
            sigma_e: vec![0.0; me],
            sigma_j: vec![0.0; mj],
            v: Vector6::zeros(),
            dropped: 0,
            chol: false,
            kscale: vec![0.0; mj],
            kcopy: vec![0.0; mj * mj],
            xcols: vec![Vector6::zeros(); if body.is_some() { me } else { 0 }],
            wcols: vec![Vector6::zeros(); if body.is_some() { me } else { 0 }],
            kb: Vector6::zeros(),
            scatter,
        }
    }
}

/// Σ_k s_k H_k p_k over the tree handles of a leaf (the known part of eq 10).
fn known_impulse(node: &Node, ctx: &Ctx, com: &Vector3<f64>) -> Vector6<f64> {
    let mut kb = Vector6::zeros();
    for h in &node.handles {
        let je = &ctx.jev[h.joint];
        let u = ctx.u_off[h.joint];
        if u == usize::MAX {
            continue;
        }
        let pt = side_point(je, h.sign);
        for a in 0..je.nf {
            kb += (h.sign * ctx.momenta[u + a]) * at_com(&je.hl[a], pt, com);
        }
    }
    kb
}

/// The handle point of a side.
#[inline]
fn side_point(je: &JointEval, sign: f64) -> &Vector3<f64> {
    if sign > 0.0 {
        &je.point
    } else {
        &je.point_minus
    }
}

fn leaf_up(node: &mut Node, ctx: &Ctx) {
    // Eq 12 at the centre of mass C: M_C V_C = Σ_k s_k S_CPk (D_k σ_k + H_k p_k);
    // every quantity keeps its own short lever arm (well conditioned far from the
    // origin). R = Xᵀ M_C⁻¹ X with the columns X computed once, symmetric.
    let b = node.body.expect("leaf");
    let bi = &ctx.inertia[b];
    node.kb = bi.solve(&known_impulse(node, ctx, &bi.r));
    for h in &node.handles {
        let je = &ctx.jev[h.joint];
        let pt = side_point(je, h.sign);
        for a in 0..h.m {
            let x = h.sign * at_com(&je.dl[a], pt, &bi.r);
            node.xcols[h.off + a] = x;
            node.wcols[h.off + a] = bi.solve(&x);
        }
    }
    let me = node.me;
    for j in 0..me {
        let w = &node.wcols[j];
        for i in 0..=j {
            let v = node.xcols[i].dot(w);
            node.rmat[i + j * me] = v;
            node.rmat[j + i * me] = v;
        }
        node.rvec[j] = node.xcols[j].dot(&node.kb);
    }
}

/// The assembly sweep over `nodes`, the post-ordered subtree of its last node.
pub(crate) fn up(nodes: &mut [Node], ctx: &Ctx) {
    let n = nodes.len();
    let (sub, last) = nodes.split_at_mut(n - 1);
    let node = &mut last[0];
    if node.body.is_some() {
        leaf_up(node, ctx);
        return;
    }
    let (l, r) = sub.split_at_mut(node.left_size);
    ctx.par
        .for_size(node.n_bodies, ctx.par_min)
        .join(|| up(l, ctx), || up(r, ctx));
    condense::internal_up(node, &l[l.len() - 1], &r[r.len() - 1], ctx.tol);
}

/// The disassembly sweep: σ_J from the boundary σ_E (eq 29), down to every body's
/// twist (eq 12: M⁰ V⁰ = Σ s (D σ + H p)).
pub(crate) fn down(nodes: &mut [Node], ctx: &Ctx) {
    let n = nodes.len();
    let (sub, last) = nodes.split_at_mut(n - 1);
    let node = &mut last[0];
    if node.body.is_some() {
        // the twist at the centre of mass [ṙ; ω] = M_C⁻¹ (Σ s S_CP H p + Σ X σ)
        let mut v = node.kb;
        for (w, s) in node.wcols.iter().zip(&node.sigma_e) {
            v += *s * w;
        }
        node.v = v;
        return;
    }
    condense::sigma_joint(node);
    let (l, r) = sub.split_at_mut(node.left_size);
    for (x, child) in [l.last_mut(), r.last_mut()].into_iter().enumerate() {
        let child = child.expect("non-empty subtree");
        for (c, slot) in node.map[x].iter().enumerate() {
            child.sigma_e[c] = match *slot {
                Slot::J(i) => node.sigma_j[i],
                Slot::E(e) => node.sigma_e[e],
            };
        }
    }
    ctx.par
        .for_size(node.n_bodies, ctx.par_min)
        .join(|| down(l, ctx), || down(r, ctx));
}
