//! The tree structure of a [`LinkGraph`]: each link's parent and the chain of joints
//! that places it, checked (every link reached from the world exactly once, names
//! unique), and an order in which parents come before their children.

use std::collections::{HashMap, HashSet};

use crate::{ImportError, LinkGraph, LinkRef};

/// Each link's parent and joints (indices into `LinkGraph::joints`, in order), and a
/// parents-first order of the links.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    /// `parent[c]`: the link (or world) before link c's first joint.
    pub parent: Vec<LinkRef>,
    /// `chain[c]`: the joints whose child is c, in the graph's order.
    pub chain: Vec<Vec<usize>>,
    /// Links, every parent before its children.
    pub order: Vec<usize>,
}

impl Tree {
    /// Checks `graph` and builds its tree.
    pub fn of(graph: &LinkGraph) -> Result<Tree, ImportError> {
        unique("link", graph.links.iter().map(|l| l.name.as_str()))?;
        unique("joint", graph.joints.iter().map(|j| j.name.as_str()))?;
        let n = graph.links.len();
        let mut chain: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut parent = vec![None; n];
        for (k, joint) in graph.joints.iter().enumerate() {
            let c = joint.child;
            let link = graph.links.get(c).ok_or_else(|| ImportError::Missing {
                element: format!("joint `{}`", joint.name),
                target: format!("child link #{c}"),
            })?;
            if let LinkRef::Link(p) = joint.parent
                && p >= n
            {
                return Err(ImportError::Missing {
                    element: format!("joint `{}`", joint.name),
                    target: format!("parent link #{p}"),
                });
            }
            match parent[c] {
                None => parent[c] = Some(joint.parent),
                Some(first) if first != joint.parent => {
                    let first_joint = &graph.joints[chain[c][0]].name;
                    return Err(ImportError::Unsupported {
                        element: format!("link `{}`", link.name),
                        reason: format!(
                            "has two parents (joints `{first_joint}` and `{}`): a link must \
                             be the child of one joint chain; close loops with a loop \
                             closure (MJCF <equality>) instead",
                            joint.name
                        ),
                    });
                }
                Some(_) => {}
            }
            chain[c].push(k);
        }
        let parent = parent
            .into_iter()
            .enumerate()
            .map(|(c, p)| {
                p.ok_or_else(|| ImportError::Unsupported {
                    element: format!("link `{}`", graph.links[c].name),
                    reason: "is attached to nothing: no joint has it as its child".into(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let order = parents_first(graph, &parent)?;
        Ok(Tree {
            parent,
            chain,
            order,
        })
    }
}

/// A parents-first order, or the cycle's first link.
fn parents_first(graph: &LinkGraph, parent: &[LinkRef]) -> Result<Vec<usize>, ImportError> {
    let n = parent.len();
    let mut children: HashMap<LinkRef, Vec<usize>> = HashMap::new();
    for (c, p) in parent.iter().enumerate() {
        children.entry(*p).or_default().push(c);
    }
    let mut order = Vec::with_capacity(n);
    let mut stack = vec![LinkRef::World];
    while let Some(at) = stack.pop() {
        if let Some(kids) = children.get(&at) {
            for &c in kids.iter().rev() {
                order.push(c);
                stack.push(LinkRef::Link(c));
            }
        }
    }
    if order.len() < n {
        let reached: HashSet<usize> = order.iter().copied().collect();
        let first = (0..n).find(|c| !reached.contains(c)).unwrap_or(0);
        return Err(ImportError::Unsupported {
            element: format!("link `{}`", graph.links[first].name),
            reason: "is on a cycle of parent joints and never reaches the world".into(),
        });
    }
    Ok(order)
}

/// Fails on the first repeated name.
fn unique<'a>(what: &str, names: impl Iterator<Item = &'a str>) -> Result<(), ImportError> {
    let mut seen = HashSet::new();
    for name in names {
        if !seen.insert(name) {
            return Err(ImportError::InvalidValue {
                element: format!("{what} `{name}`"),
                attribute: "name".into(),
                value: name.into(),
                requirement: format!("is used twice: {what} names must be unique"),
            });
        }
    }
    Ok(())
}
