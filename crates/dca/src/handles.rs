//! The sub-assemblies of the binary assembly tree with their *handles* and boundary
//! conditions (paper sec 2.2.2, Fig 3; sec 2.3; coupled loops sec 4.3).
//!
//! # Handles
//! A body of node C is a handle of C when a constraint (joint, driver) ties it to a
//! body outside C or to ground: only the accelerations of handles appear in C's
//! condensed equations (eqs 15–16 have the two handles q̈₁ᶜ, q̈₂ᶜ of a chain segment).
//! Here a node may have any number of handles, which covers trees (bodies with more
//! than two joints) and coupled loops: the loop reduction of eqs 78–86 is the case of
//! a node (the lower loop with body 3) whose cut joints 6 and 10 are handled together.
//!
//! # The pool of a node
//! Node C is assembled from the handles of its children A and B: its *pool* is
//! H_A ∪ H_B (a leaf's pool is its body). The constraints handled at C (those between
//! A and B, plus the ground joints at the root: the boundary conditions of eqs 35–40)
//! couple pool bodies; the pool bodies that are not handles of C (the set E, the
//! "inner" handles q₂ᴬ, q₁ᴮ of eqs 21 and 23) are eliminated at C, the others (H_C)
//! are kept. The root has no handles: everything left is eliminated there, whatever
//! the number of ground joints (free floating, tree, closed loop: eqs 35, 37, 40).
//!
//! Every body is eliminated at exactly one node, where the disassembly computes its
//! acceleration. Pools are ordered [E…, H…].

use mbs_constraints::SystemLayout;
use mbs_model::{BodyRef, Model};
use nalgebra::{DMatrix, DVector, Vector6};

/// One node of the assembly: its static plan and its numeric storage (preallocated).
#[derive(Clone, Debug)]
pub(crate) struct Node {
    /// Pool bodies (ids), eliminated ones first.
    pub pool: Vec<usize>,
    /// Number of eliminated pool bodies |E|.
    pub ne: usize,
    /// Number of handles |H| (pool = E ∪ H).
    pub nh: usize,
    /// Positions in the parent's pool of this node's handles (in order).
    pub up_map: Vec<usize>,
    /// Constraint entries handled here: (entry, pool position of body i, of body j),
    /// `None` for ground.
    pub handled: Vec<(usize, Option<usize>, Option<usize>)>,
    /// Number of nodes of the left child's subtree (post-order slice split); `None`
    /// for a leaf.
    pub left_len: Option<usize>,
    /// Number of bodies in the subtree.
    pub n_bodies: usize,
    /// Condensed matrix K over the pool (6|P| square). After the matrix pass the
    /// leading E block holds the Cholesky factor of K_EE and the E×H block K_EH.
    pub k: DMatrix<f64>,
    /// X = K_EE⁻¹ K_EH (6|E| × 6|H|).
    pub x: DMatrix<f64>,
    /// Condensed matrix of the handles S = K_HH − K_HE X (6|H| square): C's M_ij of
    /// eqs 27–30.
    pub s: DMatrix<f64>,
    /// Pool right-hand side; after the upward pass its E part holds y_E = K_EE⁻¹ r_E.
    pub r: DVector<f64>,
    /// Condensed right-hand side of the handles r_H − K_HE y_E: C's Q_i of eqs 31–32.
    pub rc: DVector<f64>,
    /// Pool solution (accelerations, position increments or velocities).
    pub a: DVector<f64>,
    /// Multipliers λ* of the constraints handled here (same order as `handled`),
    /// updated by the disassembly (eq 17).
    pub lam: Vec<Vector6<f64>>,
    /// max |change| of the eliminated bodies' solution in the last disassembly.
    pub diff: f64,
    /// max |solution| of the eliminated bodies in the last disassembly.
    pub scale: f64,
}

/// The nodes in post-order plus where each body is eliminated.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub nodes: Vec<Node>,
    /// Per body: (node, pool position) where it is eliminated.
    pub elim: Vec<(usize, usize)>,
}

impl Plan {
    /// Builds the plan of `model`'s assembly tree for the entries of `sys`.
    pub fn new(model: &Model, sys: &SystemLayout) -> Self {
        let tree = model.topology().assembly_tree();
        let n_bodies = model.n_bodies();
        let nn = tree.nodes.len();
        let mut pos = vec![0; n_bodies];
        for (k, b) in tree.order.iter().enumerate() {
            pos[b.0] = k;
        }
        // Handles per node and handled entries per node.
        let mut is_handle: Vec<Vec<usize>> = vec![Vec::new(); nn];
        let mut handled_at: Vec<Vec<usize>> = vec![Vec::new(); nn];
        let root = nn.saturating_sub(1);
        for (e, entry) in sys.entries().iter().enumerate() {
            match (entry.body_i, entry.body_j) {
                (BodyRef::Ground, BodyRef::Ground) => {}
                (BodyRef::Body(x), BodyRef::Ground) | (BodyRef::Ground, BodyRef::Body(x)) => {
                    let mut i = tree.leaf_of[x.0];
                    while let Some(p) = tree.nodes[i].parent {
                        is_handle[i].push(x.0);
                        i = p;
                    }
                    handled_at[root].push(e);
                }
                (BodyRef::Body(x), BodyRef::Body(y)) => {
                    let mut lca = 0;
                    for (from, other) in [(x.0, y.0), (y.0, x.0)] {
                        let mut i = tree.leaf_of[from];
                        while !tree.nodes[i].range.contains(&pos[other]) {
                            is_handle[i].push(from);
                            i = tree.nodes[i].parent.unwrap_or(root);
                        }
                        lca = i;
                    }
                    handled_at[lca].push(e);
                }
            }
        }
        for h in &mut is_handle {
            h.sort_by_key(|b| pos[*b]);
            h.dedup();
        }
        // The root keeps no handle.
        if nn > 0 {
            is_handle[root].clear();
        }

        let mut subtree = vec![1usize; nn];
        let mut nodes: Vec<Node> = Vec::with_capacity(nn);
        for (i, tn) in tree.nodes.iter().enumerate() {
            let candidates: Vec<usize> = match tn.children {
                None => vec![tree.order[tn.range.start].0],
                Some([l, r]) => {
                    subtree[i] = 1 + subtree[l] + subtree[r];
                    is_handle[l].iter().chain(&is_handle[r]).copied().collect()
                }
            };
            let hs = &is_handle[i];
            let mut pool: Vec<usize> = candidates
                .iter()
                .copied()
                .filter(|b| !hs.contains(b))
                .collect();
            let ne = pool.len();
            pool.extend(candidates.iter().copied().filter(|b| hs.contains(b)));
            let nh = pool.len() - ne;
            debug_assert_eq!(
                nh,
                hs.len(),
                "every handle of a node is a handle of a child"
            );
            let at = |b: BodyRef| {
                b.body().map(|id| {
                    pool.iter()
                        .position(|&x| x == id.0)
                        .expect("handled body in pool")
                })
            };
            let handled = handled_at[i]
                .iter()
                .map(|&e| {
                    let en = &sys.entries()[e];
                    (e, at(en.body_i), at(en.body_j))
                })
                .collect();
            let p = pool.len();
            nodes.push(Node {
                pool,
                ne,
                nh,
                up_map: Vec::new(),
                handled,
                left_len: tn.children.map(|[l, _]| subtree[l]),
                n_bodies: tn.range.len(),
                k: DMatrix::zeros(6 * p, 6 * p),
                x: DMatrix::zeros(6 * ne, 6 * nh),
                s: DMatrix::zeros(6 * nh, 6 * nh),
                r: DVector::zeros(6 * p),
                rc: DVector::zeros(6 * nh),
                a: DVector::zeros(6 * p),
                lam: vec![Vector6::zeros(); handled_at[i].len()],
                diff: 0.0,
                scale: 0.0,
            });
            if let Some([l, r]) = tn.children {
                // Post-order contiguity: [left subtree][right subtree][node].
                assert!(
                    r + 1 == i && l + subtree[r] == r,
                    "assembly tree is not in post-order"
                );
            }
        }
        for i in 0..nn {
            if let Some(p) = tree.nodes[i].parent {
                let (ne, nh) = (nodes[i].ne, nodes[i].nh);
                let map = nodes[i].pool[ne..ne + nh]
                    .iter()
                    .map(|b| {
                        nodes[p]
                            .pool
                            .iter()
                            .position(|x| x == b)
                            .expect("handle in parent pool")
                    })
                    .collect();
                nodes[i].up_map = map;
            }
        }
        let mut elim = vec![(0, 0); n_bodies];
        for (i, n) in nodes.iter().enumerate() {
            for (k, &b) in n.pool[..n.ne].iter().enumerate() {
                elim[b] = (i, k);
            }
        }
        Self { nodes, elim }
    }

    /// Largest number of handles of any node (a measure of the condensed sizes).
    pub fn max_handles(&self) -> usize {
        self.nodes.iter().map(|n| n.nh).max().unwrap_or(0)
    }
}
