//! MJCF (MuJoCo XML) parsing into a [`LinkGraph`], following the MuJoCo XML reference
//! (<https://mujoco.readthedocs.io/en/stable/XMLreference.html>).
//!
//! Read: `<include>`, `<compiler angle eulerseq inertiafromgeom inertiagrouprange
//! autolimits meshdir>` (MuJoCo's default angle unit is the degree), `<option
//! gravity>` and `<flag gravity>`, `<default>` classes with `class`/`childclass`, the
//! `<worldbody>` tree (bodies, frames, inertials, joints, geoms, sites), mesh and
//! material assets, and `<equality>` `connect`/`weld`. Everything else (contacts,
//! tendons, actuators, sensors, keyframes, cameras, lights, joint limits, armature,
//! friction loss, solver settings) is named in [`LinkGraph::notes`].
//!
//! Joint positions are MuJoCo's `qpos`: a hinge or slide at q = `ref` (its qpos0) puts
//! the body where the file does, a free joint's q is the body's world pose. The
//! defaults of the joints not in [`ImportOptions::q0`] are MuJoCo's qpos0
//! ([`MjcfModel::qpos0`]); [`MjcfModel::options`] gives the options the builder needs.

mod assets;
mod attrs;
mod bodies;
mod compiler;
mod defaults;
mod equality;
mod frame;
mod geom;
mod inertia;
mod joint;
mod notes;
mod xml;

use std::collections::BTreeMap;
use std::path::Path;

use crate::{ImportError, ImportOptions, JointMotion, LinkGraph};

/// A parsed MJCF model: the link graph and MuJoCo's initial joint positions.
#[derive(Clone, Debug)]
pub struct MjcfModel {
    /// The mechanism.
    pub graph: LinkGraph,
    /// qpos0 by joint name: `ref` (hinge, slide), (1, 0, 0, 0) (ball), the body's pose
    /// in the file as (x, y, z, w, x, y, z) (free). Fixed joints have none.
    pub qpos0: BTreeMap<String, Vec<f64>>,
}

impl MjcfModel {
    /// `options` with qpos0 for every joint whose initial position it does not give.
    pub fn options(&self, options: &ImportOptions) -> ImportOptions {
        let mut out = options.clone();
        for (name, q) in &self.qpos0 {
            out.q0.entry(name.clone()).or_insert_with(|| q.clone());
        }
        out
    }
}

/// Parses the MJCF file at `path` into a link graph (initial positions not given in
/// `options` are MuJoCo's qpos0: see [`read`]).
pub fn parse(path: &Path, options: &ImportOptions) -> Result<LinkGraph, ImportError> {
    Ok(read(path, options)?.graph)
}

/// Parses the MJCF file at `path`; checks the joint names and value counts of
/// `options.q0` and `options.v0`.
pub fn read(path: &Path, options: &ImportOptions) -> Result<MjcfModel, ImportError> {
    let root = xml::read_model(path)?;
    let dir = path.parent().unwrap_or(Path::new(""));
    let mut notes = Vec::new();
    let c = compiler::Compiler::from_root(&root, dir, &mut notes)?;
    let opt = compiler::Options::from_root(&root, &mut notes)?;
    let d = defaults::Defaults::from_root(&root)?;
    let assets = assets::Assets::from_root(&root, &c, &d)?;
    let mut tree = bodies::read_tree(&root, &c, &d, &assets)?;
    notes.append(&mut tree.notes);
    let closures = equality::read_equalities(&root, &d, &tree, &mut notes)?;
    notes::section_notes(&root, &mut notes);
    let graph = LinkGraph {
        name: root.attr("model").unwrap_or("MuJoCo Model").to_string(),
        gravity: opt.gravity,
        links: tree.links,
        joints: tree.joints,
        closures,
        world_visuals: tree.world_visuals,
        notes,
    };
    check_initial(&graph, options)?;
    Ok(MjcfModel {
        graph,
        qpos0: tree.qpos0,
    })
}

/// The numbers of position and velocity values of a joint (MuJoCo's nq, nv).
fn sizes(motion: &JointMotion) -> (usize, usize) {
    match motion {
        JointMotion::Fixed => (0, 0),
        JointMotion::Revolute { .. } | JointMotion::Prismatic { .. } => (1, 1),
        JointMotion::Planar { .. } => (3, 3),
        JointMotion::Ball => (4, 3),
        JointMotion::Floating => (7, 6),
    }
}

/// Every name in `options.q0`/`v0` is a moving joint and has its count of values.
fn check_initial(graph: &LinkGraph, options: &ImportOptions) -> Result<(), ImportError> {
    for (which, map) in [("q0", &options.q0), ("v0", &options.v0)] {
        for (name, values) in map {
            let Some(j) = graph.joints.iter().find(|j| &j.name == name) else {
                return Err(ImportError::Missing {
                    element: format!("initial {which}"),
                    target: format!("joint `{name}`"),
                });
            };
            let (nq, nv) = sizes(&j.motion);
            let n = if which == "q0" { nq } else { nv };
            if values.len() != n || values.iter().any(|v| !v.is_finite()) {
                return Err(ImportError::InvalidValue {
                    element: format!("joint `{name}`"),
                    attribute: which.into(),
                    value: format!("{values:?}"),
                    requirement: format!("must be {n} finite number(s) for this joint"),
                });
            }
        }
    }
    Ok(())
}
