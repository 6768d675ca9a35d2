//! The null space of the open-tree Jacobian built body by body (Chiou sec 5.4.1–
//! 5.4.2), in the [ṙ, ω'] velocities u̇ of each body.
//!
//! For the tree joint k between body c and its parent p (ground: no term),
//! `B_kc u̇_c + B_kp u̇_p = 0`. The child block is split by pivoting into
//! dependent and independent columns, `B_kc = [B^d | B^i]` (eq 5.4.1.3), and
//!
//! ```text
//!   u̇_c^d = −(B^d)⁻¹ (B^i u̇_c^i + B_kp u̇_p)                     (5.4.1.8)
//! ```
//!
//! so that, recursively from the root of each branch, every body's velocity is a
//! combination of the independent velocities of itself and its ancestors:
//! `u̇_c = A_c u̇ⁱ` (eqs 5.4.1.9–5.4.1.14, 5.4.2.2). `(B^d)⁻¹` is at most 6 × 6
//! and is inverted per body (for the spherical joint B^d = ±I on ṙ, the
//! closed form of the thesis). The same recursion with u̇ⁱ-terms dropped gives a
//! particular acceleration (the `Ȧ u̇ⁱ` term of eq 5.2.5.11):
//!
//! ```text
//!   ü_c^d = (B^d)⁻¹ (Γ̄_k − B_kp ü_p),   ü_c^i = 0.
//! ```
//!
//! Branches hanging from ground share no column of A and no row of the reduced
//! mass matrix AᵀMA: each branch is built (and, without cut joints, solved) on
//! its own rayon task (eq 5.4.2.2 and sec 6.3: body-by-body sums Σ A_bᵀ M_b A_b).

use mbs_constraints::{SystemLayout, Workspace};
use mbs_model::{BodyRef, Model};
use nalgebra::{DMatrix, DVector, Matrix6};

use crate::error::ComplementError;

/// How body c is attached in the open tree.
#[derive(Clone, Debug)]
pub struct TreeLink {
    /// The body.
    pub body: usize,
    /// Tree-joint entry index in the constraint assembly, with the child's slot
    /// (0: marker i, 1: marker j); `None` for a free root.
    pub joint: Option<(usize, usize)>,
    /// Local index (in its branch) of the parent body; `None` for ground/root.
    pub parent_local: Option<usize>,
}

/// One branch: a ground subtree (or a free-floating component).
#[derive(Clone, Debug)]
pub struct Branch {
    /// Bodies, parents before children.
    pub links: Vec<TreeLink>,
}

/// The open-tree structure of a model, computed once.
#[derive(Clone, Debug)]
pub struct OpenTree {
    /// The branches.
    pub branches: Vec<Branch>,
    /// Constraint entries not used as tree joints (cut joints, drivers,
    /// nonholonomic joints, custom constraints).
    pub cut_entries: Vec<usize>,
}

impl OpenTree {
    /// The spanning tree of `model` (its topology) over the entries of `sys`.
    /// A tree joint with nonholonomic rows is treated as cut (its child becomes
    /// a free root of the tree).
    pub fn new(model: &Model, sys: &SystemLayout) -> Self {
        let topo = model.topology();
        let n = model.n_bodies();
        let entries = sys.entries();
        // entry index of each joint (joints come first, in model order)
        let entry_of_joint = |j: usize| {
            entries.iter().position(|e| {
                e.source == mbs_constraints::ConstraintSource::Joint(mbs_model::JointId(j))
            })
        };
        let mut tree_entry = vec![None; n];
        let mut used = vec![false; entries.len()];
        for b in 0..n {
            if let Some((_, j)) = topo.parent(mbs_model::BodyId(b))
                && let Some(k) = entry_of_joint(j.0)
            {
                let e = &entries[k];
                if e.n_nonholonomic == 0 && e.n_holonomic > 0 {
                    let slot = if e.body_i == BodyRef::Body(mbs_model::BodyId(b)) {
                        0
                    } else {
                        1
                    };
                    tree_entry[b] = Some((k, slot));
                    used[k] = true;
                }
            }
        }
        // branch of each body = its top ancestor reached through tree joints
        let mut branch_of = vec![usize::MAX; n];
        let mut branches: Vec<Branch> = Vec::new();
        let mut local = vec![0usize; n];
        for &id in topo.tree_order() {
            let b = id.0;
            let parent = match (tree_entry[b], topo.parent(id)) {
                (Some(_), Some((BodyRef::Body(p), _))) => Some(p.0),
                _ => None,
            };
            let br = match parent {
                Some(p) => branch_of[p],
                None => {
                    branches.push(Branch { links: Vec::new() });
                    branches.len() - 1
                }
            };
            branch_of[b] = br;
            local[b] = branches[br].links.len();
            branches[br].links.push(TreeLink {
                body: b,
                joint: tree_entry[b],
                parent_local: parent.map(|p| local[p]),
            });
        }
        let cut_entries = (0..entries.len()).filter(|&k| !used[k]).collect();
        Self {
            branches,
            cut_entries,
        }
    }
}

/// A branch's part of A and of the particular acceleration, with its reduced
/// mass matrix and right-hand side.
#[derive(Clone, Debug)]
pub struct BranchSystem {
    /// A_g (6 n_g × s_g), rows body by body in branch order.
    pub a: DMatrix<f64>,
    /// Particular acceleration ü_p (6 n_g).
    pub udd_p: DVector<f64>,
    /// A_gᵀ M_g A_g.
    pub mass: DMatrix<f64>,
    /// A_gᵀ (F_g − M_g ü_p).
    pub rhs: DVector<f64>,
}

/// Per-body split of the tree joint (eq 5.4.1.5).
struct Split {
    dep: Vec<usize>,
    indep: Vec<usize>,
    /// (B^d)⁻¹ B^i (r × (6 − r)).
    x: DMatrix<f64>,
    /// (B^d)⁻¹ B_kp (r × 6); empty for a ground parent.
    y: Option<DMatrix<f64>>,
    /// (B^d)⁻¹ Γ̄_k.
    z: DVector<f64>,
}

/// Chooses the dependent columns of the child block by Gauss elimination with
/// complete pivoting; fails on rank loss (pivot ≤ tol · max|B|).
fn split(
    t: f64,
    model: &Model,
    ws: &Workspace,
    sys: &SystemLayout,
    link: &TreeLink,
    gamma_bar: &DVector<f64>,
    tol: f64,
) -> Result<Split, ComplementError> {
    let Some((k, slot)) = link.joint else {
        return Ok(Split {
            dep: Vec::new(),
            indep: (0..6).collect(),
            x: DMatrix::zeros(0, 6),
            y: None,
            z: DVector::zeros(0),
        });
    };
    let e = &sys.entries()[k];
    let blk = ws.block(k);
    let r = e.rows();
    let (bc, bp) = if slot == 0 {
        (&blk.ji, &blk.jj)
    } else {
        (&blk.jj, &blk.ji)
    };
    let parent_is_body = matches!(
        if slot == 0 { e.body_j } else { e.body_i },
        BodyRef::Body(_)
    );
    let bc = DMatrix::from_fn(r, 6, |i, j| bc[(i, j)]);
    let scale = bc.amax();
    let mut w = bc.clone();
    let mut row_used = vec![false; r];
    let mut col_used = [false; 6];
    let mut dep = Vec::with_capacity(r);
    let mut min_piv = f64::INFINITY;
    for _ in 0..r {
        let mut best = (0, 0, 0.0);
        for i in (0..r).filter(|&i| !row_used[i]) {
            for j in (0..6).filter(|&j| !col_used[j]) {
                if w[(i, j)].abs() > best.2 {
                    best = (i, j, w[(i, j)].abs());
                }
            }
        }
        let (pi, pj, pv) = best;
        min_piv = min_piv.min(pv / scale.max(f64::MIN_POSITIVE));
        if pv.is_nan() || pv <= tol * scale {
            let name = |b: BodyRef| model.body_ref_name(b).to_string();
            return Err(ComplementError::RankLoss {
                t,
                joint: sys.source_name(model, e.source),
                body: name(BodyRef::Body(mbs_model::BodyId(link.body))),
                rank: dep.len(),
                rows: r,
                pivot: min_piv,
            });
        }
        row_used[pi] = true;
        col_used[pj] = true;
        dep.push(pj);
        let prow = w.row(pi).clone_owned() / w[(pi, pj)];
        for i in (0..r).filter(|&i| !row_used[i]) {
            let f = w[(i, pj)];
            if f != 0.0 {
                w.row_mut(i).zip_apply(&prow, |x, y| *x -= f * y);
            }
        }
    }
    dep.sort_unstable();
    let indep: Vec<usize> = (0..6).filter(|j| !dep.contains(j)).collect();
    let bd = DMatrix::from_fn(r, r, |i, j| bc[(i, dep[j])]);
    let lu = bd.lu();
    let singular = || ComplementError::RankLoss {
        t,
        joint: sys.source_name(model, e.source),
        body: model.bodies()[link.body].name.clone(),
        rank: r.saturating_sub(1),
        rows: r,
        pivot: min_piv,
    };
    let bi = DMatrix::from_fn(r, indep.len(), |i, j| bc[(i, indep[j])]);
    let x = lu.solve(&bi).ok_or_else(singular)?;
    let y = if parent_is_body {
        let bpm = DMatrix::from_fn(r, 6, |i, j| bp[(i, j)]);
        Some(lu.solve(&bpm).ok_or_else(singular)?)
    } else {
        None
    };
    let g = DVector::from_fn(r, |i, _| gamma_bar[e.global_row(i)]);
    let z = lu.solve(&g).ok_or_else(singular)?;
    Ok(Split {
        dep,
        indep,
        x,
        y,
        z,
    })
}

/// Builds A_g, ü_p,g, A_gᵀM_gA_g and A_gᵀ(F_g − M_g ü_p,g) of one branch.
pub fn build_branch(
    t: f64,
    model: &Model,
    ws: &Workspace,
    sys: &SystemLayout,
    branch: &Branch,
    gamma_bar: &DVector<f64>,
    forces: &DVector<f64>,
    tol: f64,
) -> Result<BranchSystem, ComplementError> {
    let splits = branch
        .links
        .iter()
        .map(|l| split(t, model, ws, sys, l, gamma_bar, tol))
        .collect::<Result<Vec<_>, _>>()?;
    let mut offsets = Vec::with_capacity(splits.len());
    let mut s_g = 0;
    for sp in &splits {
        offsets.push(s_g);
        s_g += sp.indep.len();
    }
    let ng = branch.links.len();
    let mut a = DMatrix::zeros(6 * ng, s_g);
    let mut udd_p = DVector::zeros(6 * ng);
    for (l, (link, sp)) in branch.links.iter().zip(&splits).enumerate() {
        let off = offsets[l];
        for (c, &col) in sp.indep.iter().enumerate() {
            a[(6 * l + col, off + c)] = 1.0;
        }
        // u̇_c^d = −X u̇_c^i − Y u̇_p ;  ü_c^d = z − Y ü_p
        for (d, &row) in sp.dep.iter().enumerate() {
            for c in 0..sp.indep.len() {
                a[(6 * l + row, off + c)] -= sp.x[(d, c)];
            }
            udd_p[6 * l + row] = sp.z[d];
        }
        if let (Some(y), Some(pl)) = (&sp.y, link.parent_local) {
            let ap = a.rows(6 * pl, 6).clone_owned();
            let up = udd_p.rows(6 * pl, 6).clone_owned();
            for (d, &row) in sp.dep.iter().enumerate() {
                let yr = y.row(d);
                let contrib = yr * &ap;
                a.row_mut(6 * l + row).zip_apply(&contrib, |x, y| *x -= y);
                udd_p[6 * l + row] -= yr.dot(&up.transpose());
            }
        }
    }
    // Σ_b A_bᵀ M_b A_b and Σ_b A_bᵀ (F_b − M_b ü_p,b)  (sec 6.3, eq 6.3.2)
    let mut mass = DMatrix::zeros(s_g, s_g);
    let mut rhs = DVector::zeros(s_g);
    for (l, link) in branch.links.iter().enumerate() {
        let b = link.body;
        let mut mb = Matrix6::zeros();
        mb.fixed_view_mut::<3, 3>(0, 0).fill_diagonal(sys.mass(b));
        mb.fixed_view_mut::<3, 3>(3, 3).copy_from(sys.inertia(b));
        let ab = a.rows(6 * l, 6);
        let mab = mb * ab;
        mass.gemm_tr(1.0, &ab, &mab, 1.0);
        let fb = forces.fixed_rows::<6>(6 * b) - mb * udd_p.fixed_rows::<6>(6 * l);
        rhs.gemv_tr(1.0, &ab, &fb, 1.0);
    }
    Ok(BranchSystem {
        a,
        udd_p,
        mass,
        rhs,
    })
}
