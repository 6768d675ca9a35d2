//! Parallel traversals of the assembly tree (rayon over independent subtrees).
//!
//! The nodes are stored in post-order, so the subtree of a node is the contiguous
//! slice ending at it: [left subtree][right subtree][node]. Splitting that slice gives
//! disjoint mutable access to the two subtrees, which `rayon::join` processes in
//! parallel. Every node's arithmetic is sequential and independent of the schedule,
//! so the results are the same bit for bit for any number of threads.

use crate::handles::Node;

/// How to traverse.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Par {
    /// Use rayon.
    pub enabled: bool,
    /// Subtrees with fewer bodies are traversed sequentially.
    pub min_bodies: usize,
}

impl Par {
    fn split(&self, n: &Node) -> bool {
        self.enabled && n.n_bodies >= self.min_bodies.max(2)
    }
}

/// Children before parents (assembly). `f(node, children)`; the first error (left
/// subtree first) is returned.
pub(crate) fn up<E, F>(nodes: &mut [Node], par: Par, f: &F) -> Result<(), E>
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
            if par.split(me) {
                let (a, b) = rayon::join(|| up(l, par, f), || up(r, par, f));
                a?;
                b?;
            } else {
                up(l, par, f)?;
                up(r, par, f)?;
            }
            let kids = (
                l.last().expect("left child"),
                r.last().expect("right child"),
            );
            f(me, Some(kids))
        }
    }
}

/// Parents before children (disassembly). `f(node, parent)`.
pub(crate) fn down<F>(nodes: &mut [Node], parent: Option<&Node>, par: Par, f: &F)
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
        if par.split(me) {
            rayon::join(|| down(l, Some(me), par, f), || down(r, Some(me), par, f));
        } else {
            down(l, Some(me), par, f);
            down(r, Some(me), par, f);
        }
    }
}
