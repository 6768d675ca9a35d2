//! The topology of a model: the body–joint graph, its connected components, a
//! spanning tree rooted at ground with tree joints and cut joints, the independent
//! loops, Grübler's count, and the binary assembly tree of the divide-and-conquer
//! front-ends ([`AssemblyTree`]).
//!
//! # The graph
//! Nodes are ground and the moving bodies; every joint is an edge between the bodies
//! of its two markers. Drivers and force elements are not edges: a driver adds an
//! equation but does not connect anything the joints do not already connect.
//!
//! # Spanning tree and cut joints (thesis sec 5.4.3; HDCA paper sec 2.3)
//! A breadth-first search from ground, visiting the joints of a node in increasing
//! [`JointId`] order, gives each reached body a parent and a *tree joint*. A component
//! not connected to ground (a free-floating subsystem) is searched from its body of
//! smallest id, which becomes a root without parent. Every joint that closes a cycle is
//! a *cut joint*: cutting all of them leaves a forest, on which the natural
//! partitioning of Chiou builds the null space recursively from the roots, while the
//! cut joints' equations (Bᶜ u̇ = 0, thesis eq 5.4.3.3) are kept apart. The number of
//! independent loops is the number of cut joints,
//!
//! ```text
//! L = n_joints − (n_bodies + 1) + n_components      (ground counted as a node)
//! ```
//!
//! and each cut joint closes one fundamental loop: the cut joint plus the tree path
//! between its two bodies ([`Topology::fundamental_loop`]).
//!
//! # Grübler's count
//! ```text
//! w = 6 n_bodies − Σ_joints holonomic rows − n_drivers
//! ```
//! counts configuration freedom; it ignores redundancy (the five-bar of the ALF-DCA
//! paper, sec 4.2, gives 6·4 − 5·5 = −1 for a true mobility of 2). Nonholonomic rows
//! (rolling without slip) do not restrict the configuration, only the velocities:
//! they are left out of [`Topology::grubler_mobility`] and subtracted in
//! [`Topology::grubler_velocity_mobility`].

mod assembly;

use std::collections::VecDeque;

pub use assembly::{AssemblyNode, AssemblyTree};

use crate::ids::{BodyId, BodyRef, JointId};
use crate::model::ModelParts;

/// A connected component of the body–joint graph (ground counted as a node).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Component {
    /// Whether the component contains ground. Component 0 is always ground's,
    /// possibly with no moving body.
    pub grounded: bool,
    /// Its moving bodies, in spanning-tree (breadth-first) order.
    pub bodies: Vec<BodyId>,
}

/// The topology of a model, computed once by [`crate::Model::from_parts`].
#[derive(Clone, Debug, PartialEq)]
pub struct Topology {
    n_bodies: usize,
    /// Per joint, the bodies of marker i and marker j.
    joint_bodies: Vec<(BodyRef, BodyRef)>,
    /// Per node (0 = ground, 1 + i = body i): (joint, other end), by joint id.
    adjacency: Vec<Vec<(JointId, BodyRef)>>,
    components: Vec<Component>,
    component_of: Vec<usize>,
    parent: Vec<Option<(BodyRef, JointId)>>,
    /// Per node, the children in the spanning tree.
    children: Vec<Vec<BodyId>>,
    depth: Vec<usize>,
    tree_order: Vec<BodyId>,
    is_cut: Vec<bool>,
    tree_joints: Vec<JointId>,
    cut_joints: Vec<JointId>,
    holonomic_rows: usize,
    nonholonomic_rows: usize,
    assembly: AssemblyTree,
}

/// Node index of a body reference: 0 for ground, 1 + i for body i.
#[inline]
fn node(b: BodyRef) -> usize {
    match b {
        BodyRef::Ground => 0,
        BodyRef::Body(id) => id.0 + 1,
    }
}

impl Topology {
    /// The topology of validated parts (every marker and body id in range).
    pub(crate) fn new(parts: &ModelParts) -> Self {
        let n_bodies = parts.bodies.len();
        let joint_bodies: Vec<(BodyRef, BodyRef)> = parts
            .joints
            .iter()
            .map(|j| {
                (
                    parts.markers[j.marker_i.0].body,
                    parts.markers[j.marker_j.0].body,
                )
            })
            .collect();
        let mut adjacency = vec![Vec::new(); n_bodies + 1];
        for (k, &(a, b)) in joint_bodies.iter().enumerate() {
            adjacency[node(a)].push((JointId(k), b));
            adjacency[node(b)].push((JointId(k), a));
        }

        // Breadth-first spanning forest: from ground, then from each unreached body.
        let mut parent = vec![None; n_bodies];
        let mut children = vec![Vec::new(); n_bodies + 1];
        let mut depth = vec![0; n_bodies];
        let mut component_of = vec![usize::MAX; n_bodies];
        let mut reached = vec![false; n_bodies + 1];
        let mut is_tree = vec![false; joint_bodies.len()];
        let mut components = Vec::new();
        let mut tree_order = Vec::with_capacity(n_bodies);
        let roots =
            std::iter::once(BodyRef::Ground).chain((0..n_bodies).map(|i| BodyRef::Body(BodyId(i))));
        for root in roots {
            if reached[node(root)] {
                continue;
            }
            reached[node(root)] = true;
            let c = components.len();
            let mut bodies = Vec::new();
            let mut queue = VecDeque::from([root]);
            while let Some(u) = queue.pop_front() {
                if let BodyRef::Body(id) = u {
                    component_of[id.0] = c;
                    bodies.push(id);
                    tree_order.push(id);
                }
                for &(j, v) in &adjacency[node(u)] {
                    if reached[node(v)] {
                        continue;
                    }
                    // v ≠ ground: ground is the first root, reached before anything.
                    let BodyRef::Body(vid) = v else { continue };
                    reached[node(v)] = true;
                    is_tree[j.0] = true;
                    parent[vid.0] = Some((u, j));
                    children[node(u)].push(vid);
                    depth[vid.0] = match u {
                        BodyRef::Ground => 1,
                        BodyRef::Body(uid) => depth[uid.0] + 1,
                    };
                    queue.push_back(v);
                }
            }
            components.push(Component {
                grounded: root == BodyRef::Ground,
                bodies,
            });
        }
        let tree_joints = (0..joint_bodies.len())
            .filter(|&k| is_tree[k])
            .map(JointId)
            .collect();
        let cut_joints = (0..joint_bodies.len())
            .filter(|&k| !is_tree[k])
            .map(JointId)
            .collect();
        let holonomic_rows = parts
            .joints
            .iter()
            .map(|j| j.kind.holonomic_rows())
            .sum::<usize>()
            + parts.drivers.len();
        let nonholonomic_rows = parts
            .joints
            .iter()
            .map(|j| j.kind.nonholonomic_rows())
            .sum();
        let assembly = AssemblyTree::new(n_bodies, &joint_bodies, &adjacency);
        Self {
            n_bodies,
            joint_bodies,
            adjacency,
            components,
            component_of,
            parent,
            children,
            depth,
            tree_order,
            is_cut: is_tree.iter().map(|t| !t).collect(),
            tree_joints,
            cut_joints,
            holonomic_rows,
            nonholonomic_rows,
            assembly,
        }
    }

    /// Number of moving bodies.
    pub fn n_bodies(&self) -> usize {
        self.n_bodies
    }

    /// Number of joints (edges).
    pub fn n_joints(&self) -> usize {
        self.joint_bodies.len()
    }

    /// The two ends of a joint: (body of marker i, body of marker j).
    pub fn joint_bodies(&self, j: JointId) -> (BodyRef, BodyRef) {
        self.joint_bodies[j.0]
    }

    /// The joints at a node and the node at their other end, by increasing joint id.
    pub fn neighbors(&self, b: BodyRef) -> &[(JointId, BodyRef)] {
        &self.adjacency[node(b)]
    }

    /// The connected components; index 0 is ground's.
    pub fn components(&self) -> &[Component] {
        &self.components
    }

    /// The component of a body.
    pub fn component_of(&self, b: BodyId) -> usize {
        self.component_of[b.0]
    }

    /// Whether every body is connected to ground through joints.
    pub fn is_grounded(&self) -> bool {
        self.components.len() == 1
    }

    /// The parent of a body in the spanning tree and the tree joint to it; `None` for
    /// the root of a free-floating component.
    pub fn parent(&self, b: BodyId) -> Option<(BodyRef, JointId)> {
        self.parent[b.0]
    }

    /// The children of a node (ground or a body) in the spanning tree, in the order
    /// they were reached.
    pub fn children(&self, b: BodyRef) -> &[BodyId] {
        &self.children[node(b)]
    }

    /// Number of tree joints between a body and ground (or the root of its
    /// free-floating component, which has depth 0).
    pub fn depth(&self, b: BodyId) -> usize {
        self.depth[b.0]
    }

    /// Every body, parents before children (breadth-first, component by component).
    pub fn tree_order(&self) -> &[BodyId] {
        &self.tree_order
    }

    /// The joints of the spanning tree, by increasing id.
    pub fn tree_joints(&self) -> &[JointId] {
        &self.tree_joints
    }

    /// The joints cut to open every loop, by increasing id.
    pub fn cut_joints(&self) -> &[JointId] {
        &self.cut_joints
    }

    /// Whether a joint is a cut joint.
    pub fn is_cut_joint(&self, j: JointId) -> bool {
        self.is_cut[j.0]
    }

    /// Number of independent loops (= number of cut joints).
    pub fn n_loops(&self) -> usize {
        self.cut_joints.len()
    }

    /// The fundamental loop closed by a cut joint: the cut joint first, then the tree
    /// joints of the path from its body i up to the common ancestor and down to its
    /// body j. `None` if `cut` is a tree joint.
    pub fn fundamental_loop(&self, cut: JointId) -> Option<Vec<JointId>> {
        if !self.is_cut[cut.0] {
            return None;
        }
        let (mut a, mut b) = self.joint_bodies[cut.0];
        let level = |x: BodyRef| match x {
            BodyRef::Ground => 0,
            BodyRef::Body(id) => self.depth[id.0],
        };
        let up = |x: BodyRef| match x {
            BodyRef::Body(id) => self.parent[id.0],
            BodyRef::Ground => None,
        };
        let (mut from_a, mut from_b) = (Vec::new(), Vec::new());
        while a != b {
            let (climb_a, x) = if level(a) >= level(b) {
                (true, a)
            } else {
                (false, b)
            };
            // Both ends are in one component, so the climb meets at a common ancestor.
            let (p, j) = up(x)?;
            if climb_a {
                from_a.push(j);
                a = p;
            } else {
                from_b.push(j);
                b = p;
            }
        }
        let mut path = vec![cut];
        path.extend(from_a);
        path.extend(from_b.into_iter().rev());
        Some(path)
    }

    /// Σ holonomic rows of the joints plus one row per driver.
    pub fn holonomic_rows(&self) -> usize {
        self.holonomic_rows
    }

    /// Σ nonholonomic (velocity-level) rows of the joints.
    pub fn nonholonomic_rows(&self) -> usize {
        self.nonholonomic_rows
    }

    /// Grübler's count w = 6 n_bodies − Σ holonomic rows (joints and drivers).
    /// Nonholonomic rows are not counted: they do not remove configuration freedom.
    pub fn grubler_mobility(&self) -> i64 {
        6 * self.n_bodies as i64 - self.holonomic_rows as i64
    }

    /// Velocity freedom by the same count: [`Self::grubler_mobility`] minus the
    /// nonholonomic rows.
    pub fn grubler_velocity_mobility(&self) -> i64 {
        self.grubler_mobility() - self.nonholonomic_rows as i64
    }

    /// The binary assembly tree of the divide-and-conquer front-ends.
    pub fn assembly_tree(&self) -> &AssemblyTree {
        &self.assembly
    }
}
