//! Rigid groups: links attached by fixed joints move as one body. Each group's mass
//! properties are the sum of its links' (parallel-axis theorem, at the initial pose);
//! a massless group between two moving joint chains is folded into one chain (the
//! frames between the joints of a universal or ball joint written as a chain of
//! hinges, as URDF and MJCF must).

use nalgebra::{Isometry3, Matrix3, Vector3};

use super::pose::Placement;
use super::tree::Tree;
use crate::{ImportError, ImportNote, JointMotion, LinkGraph, LinkRef};

/// Links that move as one rigid body.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    /// The link whose frame gives the body's axes (the one reached by moving joints).
    pub root: usize,
    /// Every link of the group (root first).
    pub links: Vec<usize>,
    /// The moving joints from the parent group to `root`, in order.
    pub joints: Vec<usize>,
    /// The parent: a group, or `None` for the world.
    pub parent: Option<usize>,
    /// Total mass.
    pub mass: f64,
    /// Centre of mass (world, initial pose).
    pub com: Vector3<f64>,
    /// Inertia about the centre of mass in world axes (initial pose).
    pub inertia: Matrix3<f64>,
    /// Folded into a child's joint chain (massless, no body of its own).
    pub folded: bool,
}

/// The groups of a graph and, per link, its group (`None`: fixed to the world).
#[derive(Clone, Debug)]
pub(crate) struct Groups {
    /// The groups.
    pub groups: Vec<Group>,
    /// `of[link]`.
    pub of: Vec<Option<usize>>,
}

impl Groups {
    /// Groups the links of `graph` and sums their mass properties.
    pub fn of(graph: &LinkGraph, tree: &Tree, placement: &Placement) -> Groups {
        let mut groups: Vec<Group> = Vec::new();
        let mut of: Vec<Option<usize>> = vec![None; graph.links.len()];
        for &c in &tree.order {
            let moving: Vec<usize> = tree.chain[c]
                .iter()
                .copied()
                .filter(|&k| graph.joints[k].motion != JointMotion::Fixed)
                .collect();
            let parent_group = match tree.parent[c] {
                LinkRef::World => None,
                LinkRef::Link(p) => of[p],
            };
            if moving.is_empty() {
                of[c] = parent_group;
                if let Some(g) = parent_group {
                    groups[g].links.push(c);
                }
            } else {
                of[c] = Some(groups.len());
                groups.push(Group {
                    root: c,
                    links: vec![c],
                    joints: moving,
                    parent: parent_group,
                    mass: 0.0,
                    com: Vector3::zeros(),
                    inertia: Matrix3::zeros(),
                    folded: false,
                });
            }
        }
        for g in &mut groups {
            sum_mass_properties(graph, placement, g);
        }
        Groups { groups, of }
    }

    /// Folds every massless group with exactly one child group and no loop closure
    /// into that child's joint chain; notes each fold.
    pub fn fold_massless(&mut self, graph: &LinkGraph, notes: &mut Vec<ImportNote>) {
        let in_closure = |g: usize, of: &[Option<usize>]| {
            graph.closures.iter().any(|cl| {
                [cl.link_a, cl.link_b]
                    .iter()
                    .any(|l| matches!(l, LinkRef::Link(i) if of[*i] == Some(g)))
            })
        };
        for g in 0..self.groups.len() {
            if self.groups[g].mass > 0.0 || in_closure(g, &self.of) {
                continue;
            }
            let children: Vec<usize> = (0..self.groups.len())
                .filter(|&h| self.groups[h].parent == Some(g) && !self.groups[h].folded)
                .collect();
            let [h] = children[..] else { continue };
            let mut joints = self.groups[g].joints.clone();
            joints.extend(&self.groups[h].joints);
            self.groups[h].joints = joints;
            self.groups[h].parent = self.groups[g].parent;
            self.groups[g].folded = true;
            let names: Vec<&str> = self.groups[g]
                .links
                .iter()
                .map(|&l| graph.links[l].name.as_str())
                .collect();
            notes.push(ImportNote {
                element: format!("link `{}`", names.join("`, `")),
                note: format!(
                    "massless: its joints and those of link `{}` form one joint",
                    graph.links[self.groups[h].root].name
                ),
            });
        }
    }

    /// Fails on a moving group without mass or with an inertia that is not positive
    /// definite (mbs needs both for every moving body).
    pub fn check_masses(&self, graph: &LinkGraph) -> Result<(), ImportError> {
        for g in self.groups.iter().filter(|g| !g.folded) {
            let names = || {
                g.links
                    .iter()
                    .map(|&l| format!("`{}`", graph.links[l].name))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            if g.mass <= 0.0 {
                return Err(ImportError::Unsupported {
                    element: format!("link {}", names()),
                    reason: format!(
                        "moves (joint `{}`) but has no mass: every moving body needs a \
                         mass and an inertia; give the link an <inertial>",
                        graph.joints[g.joints[0]].name
                    ),
                });
            }
            let eig = g.inertia.symmetric_eigenvalues();
            let scale = eig.amax().max(f64::MIN_POSITIVE);
            if eig.min() <= 1e-12 * scale || eig.min() <= 0.0 {
                return Err(ImportError::InvalidValue {
                    element: format!("link {}", names()),
                    attribute: "inertia about the centre of mass".into(),
                    value: format!("principal moments {:?}", eig.as_slice()),
                    requirement: "must be positive definite (a moving body needs rotational \
                                  inertia about every axis)"
                        .into(),
                });
            }
        }
        Ok(())
    }
}

/// Mass, centre of mass and inertia of a group's links at their initial poses.
fn sum_mass_properties(graph: &LinkGraph, placement: &Placement, g: &mut Group) {
    let parts: Vec<(f64, Vector3<f64>, Matrix3<f64>)> = g
        .links
        .iter()
        .filter_map(|&l| {
            let inertial = graph.links[l].inertial.as_ref()?;
            let pose: Isometry3<f64> = placement.link[l];
            let r = pose.rotation.to_rotation_matrix().into_inner();
            Some((
                inertial.mass,
                pose * nalgebra::Point3::from(inertial.com),
                r * inertial.inertia * r.transpose(),
            ))
        })
        .map(|(m, c, i)| (m, c.coords, i))
        .collect();
    let mass: f64 = parts.iter().map(|p| p.0).sum();
    if mass <= 0.0 {
        return;
    }
    let com = parts.iter().map(|p| p.1 * p.0).sum::<Vector3<f64>>() / mass;
    let inertia = parts
        .iter()
        .map(|(m, c, i)| {
            let d = c - com;
            i + (Matrix3::identity() * d.norm_squared() - d * d.transpose()) * *m
        })
        .sum::<Matrix3<f64>>();
    g.mass = mass;
    g.com = com;
    g.inertia = (inertia + inertia.transpose()) * 0.5;
}
