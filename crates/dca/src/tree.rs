//! Parallel traversals of the assembly tree (rayon over independent subtrees).
//!
//! The nodes are stored in post-order, so the subtree of a node is the contiguous
//! slice ending at it: [left subtree][right subtree][node]. Splitting that slice gives
//! disjoint mutable access to the two subtrees, which [`Par::join`] processes in
//! parallel. Every node's arithmetic is sequential and independent of the schedule,
//! so the results are the same bit for bit for any number of threads.

use mbs_linalg::Par;

use crate::handles::Node;

/// The parallelism of the subtree below `n`: `par` for subtrees of at least
/// `min_bodies` (and 2) bodies, sequential below.
fn split(par: Par, min_bodies: usize, n: &Node) -> Par {
    par.for_size(n.n_bodies, min_bodies.max(2))
}

/// Children before parents (assembly). `f(node, children)`; the first error (left
/// subtree first) is returned.
pub(crate) fn up<E, F>(nodes: &mut [Node], par: Par, min_bodies: usize, f: &F) -> Result<(), E>
where
    E: Send,
    F: Fn(&mut Node, Option<(&Node, &Node)>) -> Result<(), E> + Sync,
{
    let Some((me, rest)) = nodes.split_last_mut() else {
        return Ok(());
    };
    match me.left_len {
        None => f(me, None),
        Some(left_len) => {
            let (l, r) = rest.split_at_mut(left_len);
            let (a, b) = split(par, min_bodies, me)
                .join(|| up(l, par, min_bodies, f), || up(r, par, min_bodies, f));
            a?;
            b?;
            let kids = (
                l.last().expect("left child"),
                r.last().expect("right child"),
            );
            f(me, Some(kids))
        }
    }
}

/// Parents before children (disassembly). `f(node, parent)`.
pub(crate) fn down<F>(nodes: &mut [Node], parent: Option<&Node>, par: Par, min_bodies: usize, f: &F)
where
    F: Fn(&mut Node, Option<&Node>) + Sync,
{
    let Some((me, rest)) = nodes.split_last_mut() else {
        return;
    };
    f(me, parent);
    if let Some(left_len) = me.left_len {
        let (l, r) = rest.split_at_mut(left_len);
        let me = &*me;
        split(par, min_bodies, me).join(
            || down(l, Some(me), par, min_bodies, f),
            || down(r, Some(me), par, min_bodies, f),
        );
    }
}
