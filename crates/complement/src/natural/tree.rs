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
use nalgebra::{DMatrix, DVector, Matrix6, Vector6};

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

/// A branch's splits (eq 5.4.1.5) and, for the dense solver, its part of A and of
/// the particular acceleration, with its reduced mass matrix and right-hand side;
/// preallocated once per branch (the sizes are fixed by the tree:
/// `s_g = Σ (6 − rows of the tree joint)`) and refilled by [`split_branch_into`]
/// and [`build_branch_into`] without allocating. Without the dense solver the
/// matrices are empty (A_g alone would be 6 n_g × s_g).
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
    /// The per-body splits of the last evaluation.
    pub splits: Vec<Split>,
    /// Column of the first independent velocity of each body in A_g.
    pub offsets: Vec<usize>,
    /// s_g.
    pub n_independent: usize,
    /// M_b A_b (6 × s_g).
    mab: DMatrix<f64>,
}

impl BranchSystem {
    /// Storage for `branch` of the assembly `sys`, with the dense matrices when
    /// `dense`.
    pub fn new(branch: &Branch, sys: &SystemLayout, dense: bool) -> Self {
        let mut offsets = Vec::with_capacity(branch.links.len());
        let mut s_g = 0;
        for l in &branch.links {
            offsets.push(s_g);
            let r = l.joint.map_or(0, |(k, _)| sys.entries()[k].rows().min(6));
            s_g += 6 - r;
        }
        let ng = branch.links.len();
        let (nd, sd) = if dense { (ng, s_g) } else { (0, 0) };
        Self {
            a: DMatrix::zeros(6 * nd, sd),
            udd_p: DVector::zeros(6 * nd),
            mass: DMatrix::zeros(sd, sd),
            rhs: DVector::zeros(sd),
            splits: vec![Split::default(); ng],
            offsets,
            n_independent: s_g,
            mab: DMatrix::zeros(6, sd),
        }
    }
}

/// Per-body split of the tree joint (eq 5.4.1.5), on the stack (r ≤ 6).
#[derive(Clone, Debug, Default)]
pub struct Split {
    /// Rows of the tree joint (dependent velocities).
    pub(crate) r: usize,
    /// Dependent columns (first r), ascending.
    pub(crate) dep: [usize; 6],
    /// Independent columns (first 6 − r), ascending.
    pub(crate) indep: [usize; 6],
    /// (B^d)⁻¹ B^i (r × (6 − r), top-left).
    pub(crate) x: Matrix6<f64>,
    /// (B^d)⁻¹ B_kp (r × 6); only with a body parent.
    pub(crate) y: Matrix6<f64>,
    pub(crate) has_y: bool,
    /// (B^d)⁻¹ Γ̄_k (first r).
    pub(crate) z: Vector6<f64>,
}

/// LU with partial pivoting of the top-left `r × r` block of `a` (in place;
/// `perm[k]`: the row swapped with row `k` at step `k`).
fn lu6(a: &mut Matrix6<f64>, r: usize, perm: &mut [usize; 6]) {
    for k in 0..r {
        let mut piv = k;
        for i in k + 1..r {
            if a[(i, k)].abs() > a[(piv, k)].abs() {
                piv = i;
            }
        }
        perm[k] = piv;
        if piv != k {
            a.swap_rows(k, piv);
        }
        let d = a[(k, k)];
        if d == 0.0 {
            continue;
        }
        for i in k + 1..r {
            a[(i, k)] /= d;
        }
        for j in k + 1..r {
            let akj = a[(k, j)];
            for i in k + 1..r {
                a[(i, j)] -= a[(i, k)] * akj;
            }
        }
    }
}

/// Solves with [`lu6`]'s factors for the first `c` columns of `b` (rows 0..r);
/// `false` if a pivot is zero.
fn lu6_solve(
    lu: &Matrix6<f64>,
    r: usize,
    perm: &[usize; 6],
    b: &mut Matrix6<f64>,
    c: usize,
) -> bool {
    if (0..r).any(|i| lu[(i, i)] == 0.0) {
        return false;
    }
    for col in 0..c {
        for k in 0..r {
            b.swap((k, col), (perm[k], col));
        }
        for k in 0..r {
            let xk = b[(k, col)];
            for i in k + 1..r {
                b[(i, col)] -= lu[(i, k)] * xk;
            }
        }
        for k in (0..r).rev() {
            b[(k, col)] /= lu[(k, k)];
            let xk = b[(k, col)];
            for i in 0..k {
                b[(i, col)] -= lu[(i, k)] * xk;
            }
        }
    }
    true
}

/// Chooses the dependent columns of the child block by Gauss elimination with
/// complete pivoting; fails on rank loss (pivot ≤ tol · max|B|).
#[allow(clippy::too_many_arguments)]
fn split(
    t: f64,
    model: &Model,
    ws: &Workspace,
    sys: &SystemLayout,
    link: &TreeLink,
    gamma_bar: &DVector<f64>,
    tol: f64,
    sp: &mut Split,
) -> Result<(), ComplementError> {
    let Some((k, slot)) = link.joint else {
        sp.r = 0;
        sp.indep = [0, 1, 2, 3, 4, 5];
        sp.has_y = false;
        return Ok(());
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
    let mut w = Matrix6::<f64>::zeros();
    for i in 0..r {
        for j in 0..6 {
            w[(i, j)] = bc[(i, j)];
        }
    }
    let mut scale = 0.0_f64;
    for i in 0..r {
        for j in 0..6 {
            scale = scale.max(bc[(i, j)].abs());
        }
    }
    let mut row_used = [false; 6];
    let mut col_used = [false; 6];
    let mut min_piv = f64::INFINITY;
    for nd in 0..r {
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
                rank: nd,
                rows: r,
                pivot: min_piv,
            });
        }
        row_used[pi] = true;
        col_used[pj] = true;
        sp.dep[nd] = pj;
        let piv = w[(pi, pj)];
        let mut prow = [0.0; 6];
        for (j, pr) in prow.iter_mut().enumerate() {
            *pr = w[(pi, j)] / piv;
        }
        for i in (0..r).filter(|&i| !row_used[i]) {
            let f = w[(i, pj)];
            if f != 0.0 {
                for (j, pr) in prow.iter().enumerate() {
                    w[(i, j)] -= f * pr;
                }
            }
        }
    }
    sp.r = r;
    sp.dep[..r].sort_unstable();
    let mut ni = 0;
    for j in 0..6 {
        if !sp.dep[..r].contains(&j) {
            sp.indep[ni] = j;
            ni += 1;
        }
    }
    let mut lu = Matrix6::<f64>::zeros();
    for i in 0..r {
        for j in 0..r {
            lu[(i, j)] = bc[(i, sp.dep[j])];
        }
    }
    let mut perm = [0usize; 6];
    lu6(&mut lu, r, &mut perm);
    let singular = || ComplementError::RankLoss {
        t,
        joint: sys.source_name(model, e.source),
        body: model.bodies()[link.body].name.clone(),
        rank: r.saturating_sub(1),
        rows: r,
        pivot: min_piv,
    };
    for i in 0..r {
        for j in 0..ni {
            sp.x[(i, j)] = bc[(i, sp.indep[j])];
        }
    }
    if !lu6_solve(&lu, r, &perm, &mut sp.x, ni) {
        return Err(singular());
    }
    sp.has_y = parent_is_body;
    if parent_is_body {
        for i in 0..r {
            for j in 0..6 {
                sp.y[(i, j)] = bp[(i, j)];
            }
        }
        lu6_solve(&lu, r, &perm, &mut sp.y, 6);
    }
    let mut g = Matrix6::<f64>::zeros();
    for i in 0..r {
        g[(i, 0)] = gamma_bar[e.global_row(i)];
    }
    lu6_solve(&lu, r, &perm, &mut g, 1);
    for i in 0..r {
        sp.z[i] = g[(i, 0)];
    }
    Ok(())
}

/// The splits (eq 5.4.1.5) of every body of one branch into `out.splits`;
/// allocation-free (except for the message of an error).
#[allow(clippy::too_many_arguments)]
pub fn split_branch_into(
    t: f64,
    model: &Model,
    ws: &Workspace,
    sys: &SystemLayout,
    branch: &Branch,
    gamma_bar: &DVector<f64>,
    tol: f64,
    out: &mut BranchSystem,
) -> Result<(), ComplementError> {
    for (link, sp) in branch.links.iter().zip(out.splits.iter_mut()) {
        split(t, model, ws, sys, link, gamma_bar, tol, sp)?;
    }
    Ok(())
}

/// Builds A_g, ü_p,g, A_gᵀM_gA_g and A_gᵀ(F_g − M_g ü_p,g) of one branch into
/// storage made by [`BranchSystem::new`] (dense) for the same branch, after
/// [`split_branch_into`]; allocation-free. O(n_g s_g²): the dense solver.
pub fn build_branch_into(
    sys: &SystemLayout,
    branch: &Branch,
    forces: &DVector<f64>,
    out: &mut BranchSystem,
) -> Result<(), ComplementError> {
    let a = &mut out.a;
    let udd_p = &mut out.udd_p;
    a.fill(0.0);
    udd_p.fill(0.0);
    let s_g = a.ncols();
    for (l, (link, sp)) in branch.links.iter().zip(&out.splits).enumerate() {
        let off = out.offsets[l];
        let ni = 6 - sp.r;
        for c in 0..ni {
            a[(6 * l + sp.indep[c], off + c)] = 1.0;
        }
        // u̇_c^d = −X u̇_c^i − Y u̇_p ;  ü_c^d = z − Y ü_p
        for d in 0..sp.r {
            let row = sp.dep[d];
            for c in 0..ni {
                a[(6 * l + row, off + c)] -= sp.x[(d, c)];
            }
            udd_p[6 * l + row] = sp.z[d];
        }
        if let (true, Some(pl)) = (sp.has_y, link.parent_local) {
            // the parent's rows (6 pl..) precede the child's (6 l..)
            for d in 0..sp.r {
                let row = 6 * l + sp.dep[d];
                for c in 0..s_g {
                    let mut acc = sp.y[(d, 0)] * a[(6 * pl, c)];
                    for j in 1..6 {
                        acc += sp.y[(d, j)] * a[(6 * pl + j, c)];
                    }
                    a[(row, c)] -= acc;
                }
                let mut acc = 0.0;
                for j in 0..6 {
                    acc += sp.y[(d, j)] * udd_p[6 * pl + j];
                }
                udd_p[row] -= acc;
            }
        }
    }
    // Σ_b A_bᵀ M_b A_b and Σ_b A_bᵀ (F_b − M_b ü_p,b)  (sec 6.3, eq 6.3.2)
    out.mass.fill(0.0);
    out.rhs.fill(0.0);
    for (l, link) in branch.links.iter().enumerate() {
        let b = link.body;
        let mut mb = Matrix6::zeros();
        mb.fixed_view_mut::<3, 3>(0, 0).fill_diagonal(sys.mass(b));
        mb.fixed_view_mut::<3, 3>(3, 3).copy_from(sys.inertia(b));
        let ab = a.rows(6 * l, 6);
        // M_b A_b (6 × s_g), column by column on the stack
        for c in 0..s_g {
            let col = mb * ab.fixed_view::<6, 1>(0, c);
            out.mab.column_mut(c).copy_from(&col);
        }
        out.mass.gemm_tr(1.0, &ab, &out.mab, 1.0);
        let fb = forces.fixed_rows::<6>(mbs_model::body_coords::v_range(b).start)
            - mb * udd_p.fixed_rows::<6>(6 * l);
        out.rhs.gemv_tr(1.0, &ab, &fb, 1.0);
    }
    Ok(())
}
