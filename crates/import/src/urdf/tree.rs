//! The kinematic tree of a URDF (wiki.ros.org/urdf/XML/model): every link but the root
//! is the child of exactly one joint, the joints form a tree, and names are unique.
//! Gives the root link and the joints in tree order (a parent's joint before its
//! children's), so that the link graph applies them in a valid order.

use std::collections::HashMap;

use super::values::invalid;
use crate::ImportError;

/// The checked tree of a URDF.
#[derive(Debug)]
pub(super) struct Tree {
    /// Index of the root link in `robot.links`.
    pub root: usize,
    /// For each joint of `robot.joints` in tree order: (joint index, parent link index,
    /// child link index).
    pub order: Vec<(usize, usize, usize)>,
}

/// Checks the tree of `robot` (unique names, existing links, one parent per link, no
/// cycle, one root).
pub(super) fn tree(robot: &urdf_rs::Robot) -> Result<Tree, ImportError> {
    let mut link_index = HashMap::new();
    for (i, l) in robot.links.iter().enumerate() {
        if link_index.insert(l.name.as_str(), i).is_some() {
            return Err(invalid(
                &format!("link `{}`", l.name),
                "name",
                &l.name,
                "must be unique (another <link> has it)",
            ));
        }
    }
    let mut joint_names = HashMap::new();
    let mut parent_joint: Vec<Option<usize>> = vec![None; robot.links.len()];
    let mut ends = Vec::with_capacity(robot.joints.len());
    for (k, j) in robot.joints.iter().enumerate() {
        let element = format!("joint `{}`", j.name);
        if joint_names.insert(j.name.as_str(), k).is_some() {
            return Err(invalid(
                &element,
                "name",
                &j.name,
                "must be unique (another <joint> has it)",
            ));
        }
        let find = |name: &str, role: &str| {
            link_index
                .get(name)
                .copied()
                .ok_or_else(|| ImportError::Missing {
                    element: element.clone(),
                    target: format!("{role} link `{name}`"),
                })
        };
        let p = find(&j.parent.link, "parent")?;
        let c = find(&j.child.link, "child")?;
        if p == c {
            return Err(invalid(
                &element,
                "child link",
                &j.child.link,
                "must differ from the parent link",
            ));
        }
        if let Some(other) = parent_joint[c] {
            return Err(invalid(
                &format!("link `{}`", j.child.link),
                "parent joints",
                format!("`{}` and `{}`", robot.joints[other].name, j.name),
                "must be one: a URDF is a tree (closed loops need MJCF)",
            ));
        }
        parent_joint[c] = Some(k);
        ends.push((p, c));
    }
    let roots: Vec<usize> = (0..robot.links.len())
        .filter(|&i| parent_joint[i].is_none())
        .collect();
    let root = match roots.as_slice() {
        [r] => *r,
        [] if robot.links.is_empty() => {
            return Err(invalid(
                &format!("robot `{}`", robot.name),
                "links",
                "none",
                "must be at least one <link>",
            ));
        }
        [] => return Err(cycle(robot, &parent_joint, 0)),
        _ => {
            let names: Vec<String> = roots
                .iter()
                .map(|&i| format!("`{}`", robot.links[i].name))
                .collect();
            return Err(invalid(
                &format!("robot `{}`", robot.name),
                "root links",
                names.join(", "),
                "must be one: every other link needs a parent joint",
            ));
        }
    };
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); robot.links.len()];
    for (k, &(p, _)) in ends.iter().enumerate() {
        children[p].push(k);
    }
    let mut order = Vec::with_capacity(ends.len());
    let mut stack = vec![root];
    let mut reached = vec![false; robot.links.len()];
    reached[root] = true;
    while let Some(l) = stack.pop() {
        for &k in children[l].iter().rev() {
            let (p, c) = ends[k];
            order.push((k, p, c));
            reached[c] = true;
            stack.push(c);
        }
    }
    if let Some(first) = reached.iter().position(|r| !r) {
        return Err(cycle(robot, &parent_joint, first));
    }
    Ok(Tree { root, order })
}

/// The error for a cycle through link `start` (every link on it has a parent joint).
fn cycle(robot: &urdf_rs::Robot, parent_joint: &[Option<usize>], start: usize) -> ImportError {
    let mut names = Vec::new();
    let mut seen = vec![false; robot.links.len()];
    let mut l = start;
    while !seen[l] {
        seen[l] = true;
        let Some(k) = parent_joint[l] else { break };
        names.push(format!("`{}`", robot.joints[k].name));
        let parent = &robot.joints[k].parent.link;
        l = robot
            .links
            .iter()
            .position(|x| &x.name == parent)
            .unwrap_or(l);
    }
    invalid(
        &format!("link `{}`", robot.links[start].name),
        "joints",
        names.join(" → "),
        "must not form a cycle: a URDF is a tree (closed loops need MJCF)",
    )
}
