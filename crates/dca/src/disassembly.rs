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
    if let Some(p) = parent {
        for (a, &pa) in n.up_map.iter().enumerate() {
            for i in 0..6 {
                n.a[e6 + 6 * a + i] = p.a[6 * pa + i];
            }
        }
    }
    for i in 0..e6 {
        let mut s = n.r[i];
        for j in 0..h6 {
            s -= n.x[(i, j)] * n.a[e6 + j];
        }
        n.a[i] = s;
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
