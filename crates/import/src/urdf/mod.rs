//! URDF parsing into a [`LinkGraph`] (spec: wiki.ros.org/urdf/XML; elements in the
//! submodules' docs). A light roxmltree scan (`scan`) checks that the file is
//! well-formed XML of reasonable depth and collects what urdf-rs drops; urdf-rs reads
//! the URDF.
//!
//! - Links → [`crate::Link`]: `<inertial>` → [`crate::Inertial`] (inertia rotated into
//!   link axes), no `<inertial>` → `None`; `<visual>` → [`crate::Visual`] with meshes
//!   resolved (`package://`, relative paths); `<collision>` → one note (mbs has no
//!   contact).
//! - Joints → [`GraphJoint`] (`origin` = `<origin>`, `offset` = identity), in tree
//!   order.
//! - Root: a root link named `world` without `<inertial>` is the world frame
//!   ([`LinkRef::World`]; its visuals are world visuals). Any other root link gets a
//!   joint named [`ROOT_JOINT`] (`root_joint`, as Pinocchio names its root joint; if
//!   the URDF already has a joint of that name, `<root link>_root_joint`) from the
//!   world: fixed (Pinocchio's `buildModel` without a root joint), or floating with
//!   [`crate::ImportOptions::floating_base`] (Gazebo, Pinocchio with a free-flyer).
//! - Gravity (0, 0, −9.81) m/s² (URDF has none; ROS's z-up convention).
//! - Errors, never panics: malformed XML ([`ImportError::Syntax`]: the path and
//!   roxmltree's message with line and column, or urdf-rs's for malformed URDF), a joint naming a link that does not exist
//!   ([`ImportError::Missing`]), negative mass, non-finite numbers, an inertia that is
//!   not positive semi-definite, a zero axis, duplicate names, a link with two parent
//!   joints, a cycle or several roots. A `<mimic>` of a joint that does not exist is
//!   dropped with a note ([`ImportError::InvalidValue`]).

mod inertial;
mod joint;
mod scan;
mod tree;
mod values;
mod visual;

use std::path::Path;

use nalgebra::{Isometry3, Vector3};

use crate::{
    GraphJoint, ImportError, ImportNote, ImportOptions, JointDynamics, JointMotion, Link,
    LinkGraph, LinkRef,
};

/// Name of the joint that attaches a root link other than `world` to the world.
pub const ROOT_JOINT: &str = "root_joint";

/// Parses the URDF file at `path` into a link graph (see the module doc).
pub fn parse(path: &Path, options: &ImportOptions) -> Result<LinkGraph, ImportError> {
    let text = std::fs::read_to_string(path).map_err(|e| ImportError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    // urdf-rs's reader recurses once per nested element
    crate::deep::with_deep_stack(|| parse_str(&text, path, dir, options))
}

/// Parses URDF `text`; `path` names it in errors, `dir` is where relative and
/// `package://` mesh paths are looked up first.
pub fn parse_str(
    text: &str,
    path: &Path,
    dir: &Path,
    options: &ImportOptions,
) -> Result<LinkGraph, ImportError> {
    let syntax = |message: String| ImportError::Syntax {
        path: path.to_path_buf(),
        message,
    };
    // well-formed and not absurdly deep first (urdf-rs's reader recurses), then URDF
    let scan = scan::scan(text).map_err(|e| syntax(format!("XML: {e}")))?;
    let robot = urdf_rs::read_from_string(text).map_err(|e| syntax(format!("URDF: {e}")))?;
    let tree = tree::tree(&robot)?;
    let search = visual::MeshSearch {
        dir,
        package_path: &options.package_path,
    };
    let mut notes = scan.notes;

    let root = &robot.links[tree.root];
    let world_is_root = root.name == "world" && !scan.with_inertial.contains("world");
    // link index in robot.links → LinkRef
    let mut refs = Vec::with_capacity(robot.links.len());
    let mut links = Vec::with_capacity(robot.links.len());
    let mut world_visuals = Vec::new();
    let mut collisions = 0;
    for (i, l) in robot.links.iter().enumerate() {
        collisions += l.collision.len();
        let visuals = visual::visuals(&l.name, &l.visual, &robot.materials, &search, &mut notes)?;
        if world_is_root && i == tree.root {
            refs.push(LinkRef::World);
            world_visuals = visuals;
            continue;
        }
        let inertial = if scan.with_inertial.contains(&l.name) {
            Some(inertial::inertial(&l.name, &l.inertial)?)
        } else {
            None
        };
        refs.push(LinkRef::Link(links.len()));
        links.push(Link {
            name: l.name.clone(),
            inertial,
            visuals,
        });
    }
    if collisions > 0 {
        notes.push(ImportNote {
            element: "collision".into(),
            note: format!("{collisions} <collision> geometries not used: mbs has no contact"),
        });
    }

    let mut joints = Vec::with_capacity(robot.joints.len() + 1);
    if !world_is_root {
        let LinkRef::Link(child) = refs[tree.root] else {
            unreachable!("only `world` maps to LinkRef::World")
        };
        let name = if robot.joints.iter().any(|j| j.name == ROOT_JOINT) {
            format!("{}_{ROOT_JOINT}", root.name)
        } else {
            ROOT_JOINT.to_owned()
        };
        joints.push(GraphJoint {
            name,
            parent: LinkRef::World,
            child,
            origin: Isometry3::identity(),
            motion: if options.floating_base {
                JointMotion::Floating
            } else {
                JointMotion::Fixed
            },
            offset: Isometry3::identity(),
            dynamics: JointDynamics::default(),
            limit: None,
            mimic: None,
        });
    } else if options.floating_base {
        notes.push(ImportNote {
            element: "link `world`".into(),
            note: "floating base not applied: the root link `world` is the world frame".into(),
        });
    }
    for &(k, p, c) in &tree.order {
        let j = &robot.joints[k];
        let LinkRef::Link(child) = refs[c] else {
            unreachable!("the root link is no joint's child")
        };
        joints.push(joint::joint(
            j,
            refs[p],
            child,
            scan.with_limit.contains(&j.name),
        )?);
    }

    // a <mimic> of a joint the file does not have (it happens in published files;
    // urdfdom and Pinocchio without mimic support load them): dropped, with a note
    let names: std::collections::HashSet<String> = joints.iter().map(|j| j.name.clone()).collect();
    for j in &mut joints {
        if let Some(m) = &j.mimic
            && !names.contains(&m.joint)
        {
            notes.push(ImportNote {
                element: format!("joint `{}`", j.name),
                note: format!(
                    "<mimic joint=\"{}\"> names a joint that does not exist: ignored, the \
                     joint moves freely",
                    m.joint
                ),
            });
            j.mimic = None;
        }
    }

    Ok(LinkGraph {
        name: robot.name.clone(),
        gravity: Vector3::new(0.0, 0.0, -9.81),
        links,
        joints,
        closures: Vec::new(),
        world_visuals,
        notes,
        // URDF has no initial joint positions of its own
        q0: Default::default(),
    })
}
