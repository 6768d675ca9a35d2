//! `<worldbody>` and its `<body>` tree as links and joints (MuJoCo XML reference,
//! "worldbody", "body", "frame", "inertial").
//!
//! A body with pose P (relative to its parent body, `frame`s composed in) and joints
//! j₁…jₙ becomes one link and n graph joints (the first with origin P·T(p₁), see the
//! `graph` module doc); a body without joints one `Fixed` joint with origin P. Bodies
//! are numbered as MuJoCo numbers them (depth first, world = 0), which names unnamed
//! ones (`body3`).

use std::collections::{BTreeMap, HashMap, HashSet};

use nalgebra::Isometry3;

use super::assets::Assets;
use super::attrs::{invalid, real};
use super::compiler::{Compiler, InertiaFromGeom};
use super::defaults::{Attrs, Defaults, MAIN};
use super::frame::pose;
use super::geom::{Geom, parse_geom};
use super::inertial::{explicit_inertial, geoms_inertial};
use super::joint::{Kind, parse_joint};
use super::xml::Element;
use crate::{GraphJoint, ImportError, ImportNote, Link, LinkRef, Visual};

/// The tree read from `<worldbody>`.
#[derive(Debug, Default)]
pub(crate) struct Tree {
    /// Links in MuJoCo's body order.
    pub links: Vec<Link>,
    /// Graph joints, per body in the order written.
    pub joints: Vec<GraphJoint>,
    /// World geoms.
    pub world_visuals: Vec<Visual>,
    /// World pose of every link in the file's configuration (qpos0).
    pub world_poses: Vec<Isometry3<f64>>,
    /// Link of every body name (`world` included).
    pub bodies: HashMap<String, LinkRef>,
    /// Sites by name: the link (or world) and the site frame in it.
    pub sites: HashMap<String, (LinkRef, Isometry3<f64>)>,
    /// MuJoCo's qpos0 per joint name.
    pub qpos0: BTreeMap<String, Vec<f64>>,
    /// Notes.
    pub notes: Vec<ImportNote>,
    joint_names: HashSet<String>,
    site_names: Vec<String>,
    camera_names: Vec<String>,
    light_names: Vec<String>,
    geom_count: usize,
}

struct Ctx<'a> {
    c: &'a Compiler,
    d: &'a Defaults,
    assets: &'a Assets,
}

/// An element of a body with the pose of the `frame`s around it and its childclass.
struct Item<'a> {
    element: &'a Element,
    frame: Isometry3<f64>,
    class: String,
}

/// The body's own elements, `<frame>`s flattened (their poses composed).
fn items<'a>(
    cx: &Ctx<'_>,
    parent: &'a Element,
    frame: Isometry3<f64>,
    class: &str,
    out: &mut Vec<Item<'a>>,
) -> Result<(), ImportError> {
    for e in &parent.children {
        if e.name == "frame" {
            let class = match e.attr("childclass") {
                Some(cc) => {
                    cx.d.class(cc, e)?;
                    cc.to_string()
                }
                None => class.to_string(),
            };
            let a = Attrs::plain(e);
            let f = frame * pose(&a, cx.c)?;
            items(cx, e, f, &class, out)?;
        } else {
            out.push(Item {
                element: e,
                frame,
                class: class.to_string(),
            });
        }
    }
    Ok(())
}

/// Reads every `<worldbody>`.
pub(crate) fn read_tree(
    root: &Element,
    c: &Compiler,
    d: &Defaults,
    assets: &Assets,
) -> Result<Tree, ImportError> {
    let cx = Ctx { c, d, assets };
    let mut tree = Tree::default();
    tree.bodies.insert("world".into(), LinkRef::World);
    for wb in root.children_named("worldbody") {
        let mut list = Vec::new();
        items(&cx, wb, Isometry3::identity(), MAIN, &mut list)?;
        for item in &list {
            let e = item.element;
            match e.name.as_str() {
                "body" => read_body(&cx, &mut tree, item, LinkRef::World, &Isometry3::identity())?,
                "geom" => {
                    let g = parse_geom(&cx.d.resolve(e, &item.class)?, c, &assets.materials)?;
                    tree.geom_count += 1;
                    world_geom(&mut tree, &g, &item.frame, assets);
                }
                "joint" | "freejoint" | "inertial" => {
                    return Err(ImportError::Unsupported {
                        element: e.label(),
                        reason: "the world body cannot have joints or mass".into(),
                    });
                }
                _ => other_item(&cx, &mut tree, item, LinkRef::World)?,
            }
        }
    }
    if let Some(total) = c.total_mass {
        let sum: f64 = tree
            .links
            .iter()
            .filter_map(|l| l.inertial.as_ref())
            .map(|i| i.mass)
            .sum();
        if sum > 0.0 {
            let k = total / sum;
            for i in tree.links.iter_mut().filter_map(|l| l.inertial.as_mut()) {
                i.mass *= k;
                i.inertia *= k;
            }
        }
    }
    summary_notes(&mut tree);
    Ok(tree)
}

fn world_geom(tree: &mut Tree, g: &Geom, frame: &Isometry3<f64>, assets: &Assets) {
    match g.visual(&assets.meshes) {
        Some(mut v) => {
            v.origin = frame * v.origin;
            tree.world_visuals.push(v);
        }
        None => tree.notes.push(ImportNote {
            element: g.label.clone(),
            note: "not drawn (plane, height field or other shape without a visual)".into(),
        }),
    }
}

/// Sites, cameras, lights and unsupported procedural elements.
fn other_item(
    cx: &Ctx<'_>,
    tree: &mut Tree,
    item: &Item<'_>,
    link: LinkRef,
) -> Result<(), ImportError> {
    let e = item.element;
    match e.name.as_str() {
        "site" => {
            let a = cx.d.resolve(e, &item.class)?;
            let p = item.frame * pose(&a, cx.c)?;
            let name = e.name_attr().map(str::to_string);
            if let Some(n) = &name {
                tree.sites.insert(n.clone(), (link, p));
            }
            tree.site_names.push(name.unwrap_or_else(|| e.label()));
        }
        "camera" => tree.camera_names.push(
            e.name_attr()
                .map(str::to_string)
                .unwrap_or_else(|| e.label()),
        ),
        "light" => tree.light_names.push(
            e.name_attr()
                .map(str::to_string)
                .unwrap_or_else(|| e.label()),
        ),
        "composite" | "flexcomp" | "replicate" | "attach" | "plugin" | "skin" => {
            return Err(ImportError::Unsupported {
                element: e.label(),
                reason: format!(
                    "<{}> is not supported by the MJCF import (rigid bodies, joints, geoms, \
                     sites and frames only); expand it in MuJoCo and save the model with \
                     mj_saveLastXML",
                    e.name
                ),
            });
        }
        _ => tree.notes.push(ImportNote {
            element: e.label(),
            note: format!("<{}> not used", e.name),
        }),
    }
    Ok(())
}

fn read_body(
    cx: &Ctx<'_>,
    tree: &mut Tree,
    item: &Item<'_>,
    parent: LinkRef,
    parent_world: &Isometry3<f64>,
) -> Result<(), ImportError> {
    let e = item.element;
    let class = match e.attr("childclass") {
        Some(cc) => {
            cx.d.class(cc, e)?;
            cc.to_string()
        }
        None => item.class.clone(),
    };
    let p = item.frame * pose(&Attrs::plain(e), cx.c)?;
    let index = tree.links.len();
    let name = match e.name_attr() {
        Some(n) => n.to_string(),
        None => unique(&tree.bodies, format!("body{}", index + 1)),
    };
    if tree.bodies.contains_key(&name) {
        return Err(invalid(
            e,
            "name",
            &name,
            "is used by another body (names must be unique)",
        ));
    }
    tree.bodies.insert(name.clone(), LinkRef::Link(index));
    let world = parent_world * p;
    tree.links.push(Link {
        name: name.clone(),
        inertial: None,
        visuals: Vec::new(),
    });
    tree.world_poses.push(world);

    let mut list = Vec::new();
    items(cx, e, Isometry3::identity(), &class, &mut list)?;

    // joints, in the order written
    let mut joints = Vec::new();
    for item in list
        .iter()
        .filter(|i| matches!(i.element.name.as_str(), "joint" | "freejoint"))
    {
        if item.frame != Isometry3::identity() {
            return Err(ImportError::Unsupported {
                element: item.element.label(),
                reason: "joints inside a <frame> are not allowed (MuJoCo XML reference, frame)"
                    .into(),
            });
        }
        let a = if item.element.name == "freejoint" {
            Attrs::plain(item.element)
        } else {
            cx.d.resolve(item.element, &item.class)?
        };
        joints.push(parse_joint(&a, cx.c)?);
    }
    if e.attr("mocap") == Some("true") {
        tree.notes.push(ImportNote {
            element: format!("body `{name}`"),
            note: "mocap body: fixed at its pose in the file".into(),
        });
    }
    if let Some(g) = e.attr("gravcomp")
        && real(e, "gravcomp", g)? != 0.0
    {
        tree.notes.push(ImportNote {
            element: format!("body `{name}`"),
            note: format!("gravcomp=\"{g}\": gravity compensation not applied"),
        });
    }
    if joints.iter().any(|j| j.kind == Kind::Free) && (joints.len() > 1 || parent != LinkRef::World)
    {
        return Err(ImportError::Unsupported {
            element: format!("body `{name}`"),
            reason: "a free joint must be the only joint of a child of the world body".into(),
        });
    }
    if joints.is_empty() {
        let fixed = unique_joint(tree, format!("{name}_fixed"));
        tree.joints.push(GraphJoint {
            name: fixed,
            parent,
            child: index,
            origin: p,
            motion: crate::JointMotion::Fixed,
            offset: Isometry3::identity(),
            dynamics: Default::default(),
            limit: None,
            mimic: None,
        });
    }
    for (k, j) in joints.iter().enumerate() {
        let jname = match &j.name {
            Some(n) => {
                if !tree.joint_names.insert(n.clone()) {
                    return Err(invalid(
                        e,
                        "joint name",
                        n,
                        "is used by another joint (names must be unique)",
                    ));
                }
                n.clone()
            }
            None => unique_joint(tree, j.default_name(&name, k)),
        };
        let pre = if k == 0 { p } else { Isometry3::identity() };
        let (origin, motion, offset) = j.graph_frames(pre);
        tree.qpos0.insert(jname.clone(), j.qpos0(&world));
        tree.joints.push(GraphJoint {
            name: jname,
            parent,
            child: index,
            origin,
            motion,
            offset,
            dynamics: j.dynamics.clone(),
            limit: j.limit.clone(),
            mimic: None,
        });
    }

    // geoms: visuals and mass
    let mut geoms = Vec::new();
    for item in list.iter().filter(|i| i.element.name == "geom") {
        let mut g = parse_geom(
            &cx.d.resolve(item.element, &item.class)?,
            cx.c,
            &cx.assets.materials,
        )?;
        g.pose = item.frame * g.pose;
        tree.geom_count += 1;
        match g.visual(&cx.assets.meshes) {
            Some(v) => tree.links[index].visuals.push(v),
            None => tree.notes.push(ImportNote {
                element: g.label.clone(),
                note: "not drawn (plane, height field or other shape without a visual)".into(),
            }),
        }
        geoms.push(g);
    }
    let inertials: Vec<&Item<'_>> = list
        .iter()
        .filter(|i| i.element.name == "inertial")
        .collect();
    if inertials.len() > 1 {
        return Err(ImportError::Unsupported {
            element: format!("body `{name}`"),
            reason: "has more than one <inertial>".into(),
        });
    }
    let from_geoms = match cx.c.inertia_from_geom {
        InertiaFromGeom::Always => true,
        InertiaFromGeom::Never => false,
        InertiaFromGeom::Auto => inertials.is_empty(),
    };
    tree.links[index].inertial = if from_geoms {
        geoms_inertial(cx.c, &name, &geoms)?
    } else if let Some(item) = inertials.first() {
        explicit_inertial(cx.c, item.element, &item.frame)?
    } else {
        None
    };

    // children
    for item in &list {
        match item.element.name.as_str() {
            "body" => read_body(cx, tree, item, LinkRef::Link(index), &world)?,
            "joint" | "freejoint" | "geom" | "inertial" => {}
            _ => other_item(cx, tree, item, LinkRef::Link(index))?,
        }
    }
    Ok(())
}

fn unique(taken: &HashMap<String, LinkRef>, base: String) -> String {
    let mut name = base.clone();
    let mut k = 1;
    while taken.contains_key(&name) {
        name = format!("{base}_{k}");
        k += 1;
    }
    name
}

fn unique_joint(tree: &mut Tree, base: String) -> String {
    let mut name = base.clone();
    let mut k = 1;
    while tree.joint_names.contains(&name) {
        name = format!("{base}_{k}");
        k += 1;
    }
    tree.joint_names.insert(name.clone());
    name
}

fn summary_notes(tree: &mut Tree) {
    let list = |v: &[String]| {
        let shown: Vec<String> = v.iter().take(12).map(|s| format!("`{s}`")).collect();
        let more = if v.len() > 12 {
            format!(" and {} more", v.len() - 12)
        } else {
            String::new()
        };
        format!("{}{more}", shown.join(", "))
    };
    if !tree.site_names.is_empty() {
        let note = format!(
            "{} not used except by equality constraints",
            list(&tree.site_names)
        );
        tree.notes.push(ImportNote {
            element: "sites".into(),
            note,
        });
    }
    if !tree.camera_names.is_empty() {
        let note = format!("{} not used", list(&tree.camera_names));
        tree.notes.push(ImportNote {
            element: "cameras".into(),
            note,
        });
    }
    if !tree.light_names.is_empty() {
        let note = format!("{} not used", list(&tree.light_names));
        tree.notes.push(ImportNote {
            element: "lights".into(),
            note,
        });
    }
    if tree.geom_count > 0 {
        tree.notes.push(ImportNote {
            element: "contact".into(),
            note: format!(
                "{} geoms are drawn and give mass, but never collide (no contact in mbs)",
                tree.geom_count
            ),
        });
    }
}
