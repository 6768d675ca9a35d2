//! `<equality>` `connect` and `weld` as loop closures (MuJoCo XML reference,
//! "equality/connect", "equality/weld").
//!
//! - `connect body1 body2 anchor`: the point `anchor` of body1 (its frame) and the point
//!   of body2 that coincides with it in the file's configuration (qpos0) stay together
//!   (MuJoCo computes body2's anchor at qpos0 too). `connect site1 site2`: the two
//!   sites' origins stay together.
//! - `weld body1 body2 relpose anchor`: body2's frame keeps the pose `relpose`
//!   (position, then quaternion w x y z) in body1's frame; a zero quaternion (the
//!   default) means the relative pose of qpos0. `weld site1 site2`: the two site frames
//!   coincide.
//!
//! An omitted body2 is the world. `active="false"` constraints are left out with a
//! note; `joint`, `tendon`, `flex` and `distance` equalities are not honoured (noted).
//! MuJoCo's constraints are soft (`solref`, `solimp`); mbs holds closures exactly.

use std::collections::HashMap;

use nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion, Vector3};

use super::attrs::{boolean, invalid, reals_n, vec3};
use super::bodies::Tree;
use super::defaults::{Defaults, MAIN};
use super::xml::Element;
use crate::{ClosureKind, ImportError, ImportNote, LinkRef, LoopClosure};

/// Reads every `<equality>` section.
pub(crate) fn read_equalities(
    root: &Element,
    d: &Defaults,
    tree: &Tree,
    notes: &mut Vec<ImportNote>,
) -> Result<Vec<LoopClosure>, ImportError> {
    let mut closures = Vec::new();
    let mut names: HashMap<String, ()> = HashMap::new();
    let mut count = 0;
    for section in root.children_named("equality") {
        for e in &section.children {
            let index = count;
            count += 1;
            let class = e.attr("class").unwrap_or(MAIN);
            let defaults = d.class(class, e)?.get("equality");
            let get = |k: &str| {
                e.attr(k)
                    .or_else(|| defaults.and_then(|m| m.get(k)).map(String::as_str))
            };
            let kind = match e.name.as_str() {
                "connect" => ClosureKind::Point,
                "weld" => ClosureKind::Weld,
                other => {
                    notes.push(ImportNote {
                        element: e.label(),
                        note: format!("<{other}> equality not honoured (connect and weld only)"),
                    });
                    continue;
                }
            };
            let name = e
                .name_attr()
                .map(str::to_string)
                .unwrap_or_else(|| format!("{}{index}", e.name));
            if names.insert(name.clone(), ()).is_some() {
                return Err(invalid(e, "name", &name, "is used by another equality"));
            }
            if let Some(active) = get("active")
                && !boolean(e, "active", active)?
            {
                notes.push(ImportNote {
                    element: e.label(),
                    note: "active=\"false\": left out (mbs has no switchable constraints)".into(),
                });
                continue;
            }
            let (link_a, frame_a, link_b, frame_b) =
                if e.attr("site1").is_some() || e.attr("site2").is_some() {
                    let (la, fa) = site(e, "site1", tree)?;
                    let (lb, fb) = site(e, "site2", tree)?;
                    let fa = if kind == ClosureKind::Point {
                        Isometry3::from_parts(fa.translation, UnitQuaternion::identity())
                    } else {
                        fa
                    };
                    // point closure: orient frame_b so that both frames coincide at qpos0
                    let fb = if kind == ClosureKind::Point {
                        let xa = pose_of(tree, la) * fa;
                        let xb = pose_of(tree, lb);
                        let pb = xb.inverse() * xa;
                        Isometry3::from_parts(fb.translation, pb.rotation)
                    } else {
                        fb
                    };
                    (la, fa, lb, fb)
                } else {
                    let la = body(e, "body1", tree, false)?;
                    let lb = body(e, "body2", tree, true)?;
                    let xa = pose_of(tree, la);
                    let xb = pose_of(tree, lb);
                    match kind {
                        ClosureKind::Point => {
                            let anchor = match e.attr("anchor") {
                                Some(t) => vec3(e, "anchor", t)?,
                                None => Vector3::zeros(),
                            };
                            let fa = Isometry3::from_parts(
                                Translation3::from(anchor),
                                UnitQuaternion::identity(),
                            );
                            let fb = xb.inverse() * xa * fa;
                            (la, fa, lb, fb)
                        }
                        ClosureKind::Weld => {
                            let anchor = match e.attr("anchor") {
                                Some(t) => vec3(e, "anchor", t)?,
                                None => Vector3::zeros(),
                            };
                            let fb = Isometry3::from_parts(
                                Translation3::from(anchor),
                                UnitQuaternion::identity(),
                            );
                            let rel = match get("relpose") {
                                Some(t) => {
                                    let v = reals_n(e, "relpose", t, 7)?;
                                    let q = Quaternion::new(v[3], v[4], v[5], v[6]);
                                    if q.norm() < 1e-12 {
                                        xa.inverse() * xb
                                    } else {
                                        Isometry3::from_parts(
                                            Translation3::new(v[0], v[1], v[2]),
                                            UnitQuaternion::from_quaternion(q),
                                        )
                                    }
                                }
                                None => xa.inverse() * xb,
                            };
                            (la, rel * fb, lb, fb)
                        }
                    }
                };
            if link_a == link_b {
                return Err(invalid(
                    e,
                    "body2",
                    e.attr("body2").or(e.attr("site2")).unwrap_or("(world)"),
                    "must be another body than body1",
                ));
            }
            closures.push(LoopClosure {
                name,
                kind,
                link_a,
                frame_a,
                link_b,
                frame_b,
            });
        }
    }
    if !closures.is_empty() {
        notes.push(ImportNote {
            element: "equality".into(),
            note: "solref/solimp not used: mbs holds connect and weld constraints exactly".into(),
        });
    }
    Ok(closures)
}

fn pose_of(tree: &Tree, link: LinkRef) -> Isometry3<f64> {
    match link {
        LinkRef::World => Isometry3::identity(),
        LinkRef::Link(i) => tree.world_poses[i],
    }
}

fn body(e: &Element, key: &str, tree: &Tree, optional: bool) -> Result<LinkRef, ImportError> {
    match e.attr(key) {
        Some(n) => tree
            .bodies
            .get(n)
            .copied()
            .ok_or_else(|| ImportError::Missing {
                element: e.label(),
                target: format!("{key} `{n}`"),
            }),
        None if optional => Ok(LinkRef::World),
        None => Err(invalid(e, key, "", "is required (or site1 and site2)")),
    }
}

fn site(e: &Element, key: &str, tree: &Tree) -> Result<(LinkRef, Isometry3<f64>), ImportError> {
    let Some(n) = e.attr(key) else {
        return Err(invalid(
            e,
            key,
            "",
            "is required with site-based constraints",
        ));
    };
    tree.sites
        .get(n)
        .copied()
        .ok_or_else(|| ImportError::Missing {
            element: e.label(),
            target: format!("{key} `{n}`"),
        })
}
