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

use crate::handles::{Node, Plan};

/// Disassembly of one node.
pub(crate) fn vector_down(n: &mut Node, parent: Option<&Node>) {
    let (e6, h6) = (6 * n.ne, 6 * n.nh);
    let a = n.a.as_mut_slice();
    if let Some(p) = parent {
        let pa_all = p.a.as_slice();
        for (k, &pa) in n.up_map.iter().enumerate() {
            a[e6 + 6 * k..e6 + 6 * k + 6].copy_from_slice(&pa_all[6 * pa..6 * pa + 6]);
        }
    }
    // a_E = y_E − X a_H, column by column of X.
    let (ae, ah) = a.split_at_mut(e6);
    ae.copy_from_slice(&n.r.as_slice()[..e6]);
    let x = n.x.as_slice();
    for j in 0..h6 {
        let f = ah[j];
        if f != 0.0 {
            for (y, xv) in ae.iter_mut().zip(&x[j * e6..(j + 1) * e6]) {
                *y -= f * xv;
            }
        }
    }
}

/// Copies every body's solution from the node that eliminated it into `out`
/// (6 per body).
pub(crate) fn gather(plan: &Plan, out: &mut [f64]) {
    for (b, &(node, k)) in plan.elim.iter().enumerate() {
        let a = &plan.nodes[node].a;
        out[6 * b..6 * b + 6].copy_from_slice(&a.as_slice()[6 * k..6 * k + 6]);
    }
}
