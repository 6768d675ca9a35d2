//! The disassembly phase (paper sec 2.3, eqs 21, 23, 33–40): from the root to the
//! leaves, each node receives the accelerations of its handles from its parent and
//! computes those of the bodies it eliminated,
//!
//! ```text
//!   a_E = K_EE⁻¹ r_E − X a_H,   X = K_EE⁻¹ K_EH           (eqs 21, 23)
//! ```
//!
//! At the root there are no handles: a_E = K_EE⁻¹ r_E is the solution of the boundary
//! problem, eq 35 (free floating), 37 (one side on ground: trees) or 40 (both sides on
//! ground: closed loops), the ground joints having been added as penalty terms.
//!
//! Each node then updates the multipliers of the constraints it handles (eq 17), whose
//! bodies are all in its pool, so this too runs in parallel over subtrees.

use nalgebra::Vector6;

use crate::assembly::Ctx;
use crate::handles::{Node, Plan};

/// Disassembly of one node, then the multiplier update of the constraints handled
/// here (eq 17): λ* ← λ* + α(Φ_{q_i} x_i + Φ_{q_j} x_j + c).
pub(crate) fn vector_down(n: &mut Node, parent: Option<&Node>, ctx: &Ctx) {
    let (e6, h6) = (6 * n.ne, 6 * n.nh);
    let a = n.a.as_mut_slice();
    if let Some(p) = parent {
        let pa_all = p.a.as_slice();
        for (k, &pa) in n.up_map.iter().enumerate() {
            a[e6 + 6 * k..e6 + 6 * k + 6].copy_from_slice(&pa_all[6 * pa..6 * pa + 6]);
        }
    }
    // a_E = y_E − X a_H, column by column of X (in place in r_E, which the next
    // assembly recomputes).
    let (ae, ah) = a.split_at_mut(e6);
    let ye = &mut n.r.as_mut_slice()[..e6];
    let x = n.x.as_slice();
    for j in 0..h6 {
        let f = ah[j];
        if f != 0.0 {
            for (y, xv) in ye.iter_mut().zip(&x[j * e6..(j + 1) * e6]) {
                *y -= f * xv;
            }
        }
    }
    let (mut diff, mut scale): (f64, f64) = (0.0, 0.0);
    for (old, new) in ae.iter_mut().zip(ye.iter()) {
        diff = diff.max((new - *old).abs());
        scale = scale.max(new.abs());
        *old = *new;
    }
    n.diff = diff;
    n.scale = scale;
    let a = n.a.as_slice();
    let part = |p: Option<usize>| {
        p.map_or(Vector6::zeros(), |p| {
            Vector6::from_column_slice(&a[6 * p..6 * p + 6])
        })
    };
    for (k, &(e, pi, pj)) in n.handled.iter().enumerate() {
        let blk = &ctx.blocks[e];
        let res = blk.ji * part(pi) + blk.jj * part(pj) + ctx.c[e];
        for row in 0..ctx.rows(e) {
            n.lam[k][row] += ctx.alpha[e][row] * res[row];
        }
    }
}

/// Copies every body's solution from the node that eliminated it into `out`
/// (6 per body).
pub(crate) fn gather(plan: &Plan, out: &mut [f64]) {
    for (b, &(node, k)) in plan.elim.iter().enumerate() {
        let a = &plan.nodes[node].a;
        out[mbs_model::body_coords::v_range(b)].copy_from_slice(&a.as_slice()[6 * k..6 * k + 6]);
    }
}

/// Writes the multipliers λ* of every node into `out` (one per global row of `sys`).
pub(crate) fn gather_multipliers(
    plan: &Plan,
    sys: &mbs_constraints::SystemLayout,
    out: &mut [f64],
) {
    for n in &plan.nodes {
        for (k, &(e, _, _)) in n.handled.iter().enumerate() {
            let entry = &sys.entries()[e];
            for row in 0..entry.rows() {
                out[entry.global_row(row)] = n.lam[k][row];
            }
        }
    }
}
