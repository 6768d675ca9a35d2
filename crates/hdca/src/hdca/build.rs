//! The assembly-tree nodes of a model with their handles and slot maps (built once).

use mbs_constraints::joints::Freedoms;
use mbs_model::Model;

use crate::assembly::{Handle, Node, Slot};
use crate::joint::JointInfo;

/// The nodes of the model's assembly tree with their handles and slot maps.
pub(super) fn build_nodes(model: &Model, joints: &[JointInfo]) -> Vec<Node> {
    let tree = model.topology().assembly_tree();
    let mut pos = vec![0; model.n_bodies()];
    for (k, b) in tree.order.iter().enumerate() {
        pos[b.0] = k;
    }
    let handles_of = |i: usize| -> Vec<Handle> {
        let n = &tree.nodes[i];
        let mut off = 0;
        n.boundary
            .iter()
            .map(|jid| {
                let j = &joints[jid.0];
                let inside = |b: Option<usize>| b.is_some_and(|b| n.range.contains(&pos[b]));
                let sign = if inside(j.plus) { 1.0 } else { -1.0 };
                let _ = inside(j.minus);
                let h = Handle {
                    joint: jid.0,
                    sign,
                    off,
                    m: j.nc,
                };
                off += j.nc;
                h
            })
            .collect()
    };
    let mut nodes = Vec::with_capacity(tree.nodes.len());
    for (i, n) in tree.nodes.iter().enumerate() {
        let mut handles = handles_of(i);
        if let Some(b) = tree.leaf_body(i) {
            // the virtual free joint of a free-floating root: no impulse (m = 0),
            // only its known momentum H p (eq 41)
            let off = handles.iter().map(|h| h.m).sum();
            for (k, j) in joints.iter().enumerate() {
                if j.kind == Freedoms::FREE && j.plus == Some(b.0) {
                    handles.push(Handle {
                        joint: k,
                        sign: 1.0,
                        off,
                        m: 0,
                    });
                }
            }
        }
        match n.children {
            None => nodes.push(Node::new(
                1,
                0,
                tree.leaf_body(i).map(|b| b.0),
                handles,
                Vec::new(),
                [Vec::new(), Vec::new()],
            )),
            Some([l, r]) => {
                let mut off = 0;
                let handled: Vec<Handle> = n
                    .joints
                    .iter()
                    .map(|jid| {
                        let h = Handle {
                            joint: jid.0,
                            sign: 1.0,
                            off,
                            m: joints[jid.0].nc,
                        };
                        off += joints[jid.0].nc;
                        h
                    })
                    .collect();
                let map_of = |c: usize| -> Vec<Slot> {
                    let mut out = Vec::new();
                    for ch in handles_of(c).into_iter().filter(|h| h.m > 0) {
                        let slot_base = handled
                            .iter()
                            .find(|h| h.joint == ch.joint)
                            .map(|h| (true, h.off))
                            .or_else(|| {
                                handles
                                    .iter()
                                    .find(|h| h.joint == ch.joint)
                                    .map(|h| (false, h.off))
                            })
                            .expect("a child's boundary joint is handled here or a boundary");
                        for a in 0..ch.m {
                            out.push(if slot_base.0 {
                                Slot::J(slot_base.1 + a)
                            } else {
                                Slot::E(slot_base.1 + a)
                            });
                        }
                    }
                    out
                };
                let left_size = 2 * tree.nodes[l].n_bodies() - 1;
                debug_assert_eq!(l + 1, i - (2 * tree.nodes[r].n_bodies() - 1));
                let map = [map_of(l), map_of(r)];
                nodes.push(Node::new(
                    n.n_bodies(),
                    left_size,
                    None,
                    handles,
                    handled,
                    map,
                ));
            }
        }
    }
    nodes
}
