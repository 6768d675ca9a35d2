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
//! defaults of the joints not in [`ImportOptions::q0`] are MuJoCo's qpos0, in
//! [`LinkGraph::q0`]: `ref` (hinge, slide), (1, 0, 0, 0) (ball), the body's pose in
//! the file as (x, y, z, w, x, y, z) (free).

mod assets;
mod attrs;
mod bodies;
mod compiler;
mod defaults;
mod equality;
mod frame;
mod geom;
mod inertia;
mod inertial;
mod joint;
mod notes;
mod xml;

use std::path::Path;

use crate::{ImportError, ImportOptions, LinkGraph};

/// Parses the MJCF file at `path` into a link graph, MuJoCo's qpos0 in
/// [`LinkGraph::q0`] (`options` is not needed: the builder applies its initial
/// values).
pub fn parse(path: &Path, options: &ImportOptions) -> Result<LinkGraph, ImportError> {
    let _ = options;
    // the readers recurse once per nested body
    crate::deep::with_deep_stack(|| parse_file(path))
}

fn parse_file(path: &Path) -> Result<LinkGraph, ImportError> {
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
        q0: tree.qpos0,
    };
    Ok(graph)
}
