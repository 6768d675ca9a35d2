//! The binary assembly tree of the divide-and-conquer front-ends (ALF-DCA paper
//! sec 2, Fig. 1; HDCA paper Fig. 3).
//!
//! Leaves are bodies. An internal node is the assembly of its two children: the
//! joints connecting a body of the first child to a body of the second are eliminated
//! there (eqs 17–32 of the ALF-DCA paper: the multipliers λ between sets A and B), so
//! each joint between two moving bodies is *handled* at the lowest node containing
//! both of its bodies, loop-closing (cut) joints included: that is the coupled-loop
//! reduction of eqs 78–86, where the joints 6 and 10 of the lower loop are handled
//! together once the loop and body 3 are in one assembly. Joints to ground are
//! handled at the root, as the boundary conditions of eqs 35–40.
//!
//! # Construction: recursive bisection
//! The set of bodies of a node is ordered by a breadth-first search of the joint
//! graph restricted to the set (ground removed), started at a pseudo-peripheral body
//! (George–Liu: repeat "start at the farthest body of the last search" while the
//! eccentricity grows, starting from the smallest id; ties go to the smallest id).
//! The first ⌈n/2⌉ bodies of that order form the first child, the rest the second.
//! Every prefix of a breadth-first order of a connected graph is connected, so the
//! first child is always connected when its parent is; for chains and single loops
//! the second child is connected too (a chain is split in the middle). A
//! disconnected set is ordered component by component (by smallest body id).
//! Everything is deterministic: no hashing, ties broken by id.
//!
//! # Properties
//! - Every body is the leaf of exactly one node; node i's bodies are
//!   `order[nodes[i].range]`, a contiguous range, and the two children's ranges
//!   split their parent's.
//! - Sizes split as ⌈n/2⌉ + ⌊n/2⌋, so the height is ⌈log₂ n⌉ for *any* graph
//!   (chains included) and a level-by-level sweep needs ⌈log₂ n⌉ + 1 steps.
//! - Every joint appears exactly once in a `joints` list or in `ground_joints`.
//! - `nodes` is in post-order: children before parents, root last, so a forward
//!   sweep is a valid assembly order and a backward sweep a valid disassembly order;
//!   [`AssemblyTree::levels`] groups nodes by height for parallel sweeps (nodes of
//!   one level have disjoint bodies).

use std::ops::Range;

use crate::ids::{BodyId, BodyRef, JointId};

/// One node of the [`AssemblyTree`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssemblyNode {
    /// The node's bodies: `tree.order[range]`.
    pub range: Range<usize>,
    /// The two sub-assemblies (indices into `nodes`); `None` for a leaf.
    pub children: Option<[usize; 2]>,
    /// The node this one is assembled into; `None` for the root.
    pub parent: Option<usize>,
    /// 0 for a leaf, 1 + the larger child height otherwise.
    pub height: usize,
    /// Distance from the root.
    pub depth: usize,
    /// Joints handled here: each connects a body of the first child to a body of the
    /// second (empty for leaves), by increasing id.
    pub joints: Vec<JointId>,
    /// The joints through which this sub-assembly is attached to the rest of the
    /// mechanism: one end inside, the other outside or on ground (its "handles"), by
    /// increasing id. The root's boundary is [`AssemblyTree::ground_joints`].
    pub boundary: Vec<JointId>,
}

impl AssemblyNode {
    /// Whether the node is a single body.
    pub fn is_leaf(&self) -> bool {
        self.children.is_none()
    }

    /// Number of bodies in the node.
    pub fn n_bodies(&self) -> usize {
        self.range.len()
    }
}

/// The binary assembly tree, as plain data (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct AssemblyTree {
    /// Bodies in leaf order (left to right).
    pub order: Vec<BodyId>,
    /// The nodes, children before parents; the root is last.
    pub nodes: Vec<AssemblyNode>,
    /// Per body, the index of its leaf.
    pub leaf_of: Vec<usize>,
    /// Joints between a body and ground, handled at the root, by increasing id.
    pub ground_joints: Vec<JointId>,
    /// Node indices grouped by height: `levels[0]` are the leaves, the last level is
    /// the root alone.
    pub levels: Vec<Vec<usize>>,
}

impl AssemblyTree {
    /// Builds the tree (see the module documentation). `adjacency` is indexed by node
    /// (0 = ground, 1 + i = body i).
    pub(crate) fn new(
        n_bodies: usize,
        joint_bodies: &[(BodyRef, BodyRef)],
        adjacency: &[Vec<(JointId, BodyRef)>],
    ) -> Self {
        if n_bodies == 0 {
            return Self {
                ground_joints: (0..joint_bodies.len()).map(JointId).collect(),
                ..Self::default()
            };
        }
        let mut b = Bisection {
            adjacency,
            in_set: vec![0; n_bodies],
            seen: vec![0; n_bodies],
            done: vec![0; n_bodies],
            level: vec![0; n_bodies],
            stamp: 0,
            order: Vec::with_capacity(n_bodies),
            nodes: Vec::with_capacity(2 * n_bodies - 1),
        };
        let root = b.build((0..n_bodies).map(BodyId).collect());
        let Bisection {
            order, mut nodes, ..
        } = b;

        // Depths, top-down (parents come after their children).
        for i in (0..nodes.len()).rev() {
            if let Some([l, r]) = nodes[i].children {
                let d = nodes[i].depth + 1;
                nodes[l].depth = d;
                nodes[r].depth = d;
            }
        }
        let mut leaf_of = vec![0; n_bodies];
        for (i, n) in nodes.iter().enumerate() {
            if n.is_leaf() {
                leaf_of[order[n.range.start].0] = i;
            }
        }
        let mut pos = vec![0; n_bodies];
        for (k, b) in order.iter().enumerate() {
            pos[b.0] = k;
        }

        // Each joint: handled at the lowest common node of its two bodies; a boundary
        // joint of every node strictly below that on both sides. Ground joints are
        // boundary joints all the way up and handled at the root.
        let mut ground_joints = Vec::new();
        for (k, &(a, c)) in joint_bodies.iter().enumerate() {
            let j = JointId(k);
            match (a, c) {
                (BodyRef::Body(x), BodyRef::Ground) | (BodyRef::Ground, BodyRef::Body(x)) => {
                    let mut n = Some(leaf_of[x.0]);
                    while let Some(i) = n {
                        nodes[i].boundary.push(j);
                        n = nodes[i].parent;
                    }
                    ground_joints.push(j);
                }
                (BodyRef::Body(x), BodyRef::Body(y)) => {
                    let mut climb = |from: BodyId, other: usize| {
                        let mut i = leaf_of[from.0];
                        while !nodes[i].range.contains(&other) {
                            nodes[i].boundary.push(j);
                            // The root contains every body, so the climb stops there.
                            i = nodes[i].parent.unwrap_or(root);
                        }
                        i
                    };
                    let lca = climb(x, pos[y.0]);
                    climb(y, pos[x.0]);
                    nodes[lca].joints.push(j);
                }
                // Ground to ground: rejected by validation; nothing to assemble.
                (BodyRef::Ground, BodyRef::Ground) => ground_joints.push(j),
            }
        }

        let height = nodes[root].height;
        let mut levels = vec![Vec::new(); height + 1];
        for (i, n) in nodes.iter().enumerate() {
            levels[n.height].push(i);
        }
        Self {
            order,
            nodes,
            leaf_of,
            ground_joints,
            levels,
        }
    }

    /// Index of the root (the last node); `None` for a model without bodies.
    pub fn root(&self) -> Option<usize> {
        self.nodes.len().checked_sub(1)
    }

    /// Height of the tree: the root's height (⌈log₂ n_bodies⌉); 0 without bodies.
    pub fn height(&self) -> usize {
        self.root().map_or(0, |r| self.nodes[r].height)
    }

    /// The bodies of a node.
    pub fn bodies(&self, node: usize) -> &[BodyId] {
        &self.order[self.nodes[node].range.clone()]
    }

    /// The body of a leaf; `None` for an internal node.
    pub fn leaf_body(&self, node: usize) -> Option<BodyId> {
        let n = &self.nodes[node];
        n.is_leaf().then(|| self.order[n.range.start])
    }

    /// Node indices grouped by height, leaves first (the same as the `levels` field).
    pub fn levels(&self) -> &[Vec<usize>] {
        &self.levels
    }
}

/// Scratch of the recursive bisection. Sets are marked with stamps so that no
/// per-call clearing is needed.
struct Bisection<'a> {
    adjacency: &'a [Vec<(JointId, BodyRef)>],
    in_set: Vec<u64>,
    seen: Vec<u64>,
    done: Vec<u64>,
    level: Vec<usize>,
    stamp: u64,
    order: Vec<BodyId>,
    nodes: Vec<AssemblyNode>,
}

impl Bisection<'_> {
    fn next_stamp(&mut self) -> u64 {
        self.stamp += 1;
        self.stamp
    }

    /// Builds the subtree of `set` (non-empty); returns its node index.
    fn build(&mut self, set: Vec<BodyId>) -> usize {
        if set.len() == 1 {
            let k = self.order.len();
            self.order.push(set[0]);
            return self.push(k..k + 1, None, 0);
        }
        let mut first = self.bfs_order(set);
        let second = first.split_off(first.len().div_ceil(2));
        let l = self.build(first);
        let r = self.build(second);
        let range = self.nodes[l].range.start..self.nodes[r].range.end;
        let height = 1 + self.nodes[l].height.max(self.nodes[r].height);
        let i = self.push(range, Some([l, r]), height);
        self.nodes[l].parent = Some(i);
        self.nodes[r].parent = Some(i);
        i
    }

    fn push(&mut self, range: Range<usize>, children: Option<[usize; 2]>, height: usize) -> usize {
        self.nodes.push(AssemblyNode {
            range,
            children,
            parent: None,
            height,
            depth: 0,
            joints: Vec::new(),
            boundary: Vec::new(),
        });
        self.nodes.len() - 1
    }

    /// The bodies of `set` in breadth-first order from pseudo-peripheral starts,
    /// component by component.
    fn bfs_order(&mut self, mut set: Vec<BodyId>) -> Vec<BodyId> {
        let set_stamp = self.next_stamp();
        for b in &set {
            self.in_set[b.0] = set_stamp;
        }
        set.sort_unstable();
        let mut out = Vec::with_capacity(set.len());
        for &s in &set {
            if self.done[s.0] == set_stamp {
                continue;
            }
            // George–Liu pseudo-peripheral start.
            let mut start = s;
            let mut visit = self.bfs(start, set_stamp);
            loop {
                let ecc = self.level[visit.last().expect("start is visited").0];
                let far = visit
                    .iter()
                    .filter(|b| self.level[b.0] == ecc)
                    .min()
                    .copied()
                    .expect("a farthest body exists");
                if far == start {
                    break;
                }
                let far_visit = self.bfs(far, set_stamp);
                let far_ecc = self.level[far_visit.last().expect("start is visited").0];
                if far_ecc > ecc {
                    start = far;
                    visit = far_visit;
                } else {
                    // keep `start`; its levels were overwritten, the order was not
                    break;
                }
            }
            for b in &visit {
                self.done[b.0] = set_stamp;
            }
            out.extend(visit);
        }
        out
    }

    /// Breadth-first order of the component of `start` within the set marked
    /// `set_stamp`; fills `level` with the distances.
    fn bfs(&mut self, start: BodyId, set_stamp: u64) -> Vec<BodyId> {
        let seen = self.next_stamp();
        self.seen[start.0] = seen;
        self.level[start.0] = 0;
        let mut visit = vec![start];
        let mut head = 0;
        while head < visit.len() {
            let u = visit[head];
            head += 1;
            for &(_, v) in &self.adjacency[u.0 + 1] {
                let BodyRef::Body(v) = v else { continue };
                if self.in_set[v.0] == set_stamp && self.seen[v.0] != seen {
                    self.seen[v.0] = seen;
                    self.level[v.0] = self.level[u.0] + 1;
                    visit.push(v);
                }
            }
        }
        visit
    }
}
