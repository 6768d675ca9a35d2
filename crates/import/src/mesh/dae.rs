//! The scene part of a COLLADA file, read here rather than by `mesh-loader` (whose
//! composition of nested node transforms and of `<unit>` is not the specification's):
//! the unit, and for every geometry the world transforms of its instances.
//!
//! COLLADA 1.4.1 specification: `<asset><unit meter="…">` gives the length of one
//! distance unit in metres (ch. 5, "unit", default 1); a `<node>`'s transformation
//! elements (`<matrix>`, `<translate>`, `<rotate>`, `<scale>`) are post-multiplied in
//! document order and a node's frame is its parent's frame times its own (ch. 5,
//! "node", and ch. 4 "Transform Elements"); `<matrix>` is written row-major for column
//! vectors, `<rotate>` is an axis and an angle in degrees. The geometry is then read by
//! `mesh-loader` from the text with those elements removed, and transformed here.
//! `<up_axis>` is ignored, as ROS's RViz does (assimp's
//! `AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION`): robot meshes are drawn in the
//! coordinates they are written in, whatever axis they call up.

use std::collections::HashMap;
use std::ops::Range;

use nalgebra::{Matrix4, Rotation3, Unit, Vector3};

/// The text without the elements handled here, and each geometry id's world transforms
/// (metres; the unit included). Geometries of the file that no node instances are
/// absent from the map; `instanced` tells whether the file instances any at all.
pub(super) struct DaeScene {
    pub stripped: String,
    pub instances: HashMap<String, Vec<Matrix4<f64>>>,
    pub instanced: bool,
}

fn numbers(node: roxmltree::Node, want: usize) -> Result<Vec<f64>, String> {
    let text = node.text().unwrap_or("");
    let v: Vec<f64> = text
        .split_ascii_whitespace()
        .map(str::parse::<f64>)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("<{}> `{}`: {e}", node.tag_name().name(), text.trim()))?;
    if v.len() != want || v.iter().any(|x| !x.is_finite()) {
        return Err(format!(
            "<{}> needs {want} finite numbers, got `{}`",
            node.tag_name().name(),
            text.trim()
        ));
    }
    Ok(v)
}

/// The transform of one transformation element, `None` for other elements.
fn transform(e: roxmltree::Node) -> Result<Option<Matrix4<f64>>, String> {
    Ok(Some(match e.tag_name().name() {
        "matrix" => Matrix4::from_row_slice(&numbers(e, 16)?),
        "translate" => Matrix4::new_translation(&Vector3::from_row_slice(&numbers(e, 3)?)),
        "scale" => Matrix4::new_nonuniform_scaling(&Vector3::from_row_slice(&numbers(e, 3)?)),
        "rotate" => {
            let v = numbers(e, 4)?;
            let axis = Vector3::new(v[0], v[1], v[2]);
            if axis.norm() == 0.0 {
                // a zero axis is no rotation
                Matrix4::identity()
            } else {
                Rotation3::from_axis_angle(&Unit::new_normalize(axis), v[3].to_radians())
                    .to_homogeneous()
            }
        }
        _ => return Ok(None),
    }))
}

fn walk(
    node: roxmltree::Node,
    parent: &Matrix4<f64>,
    scene: &mut DaeScene,
    cut: &mut Vec<Range<usize>>,
) -> Result<(), String> {
    let mut own = *parent;
    for e in node.children().filter(|c| c.is_element()) {
        if let Some(m) = transform(e)? {
            own *= m;
            cut.push(e.range());
        }
    }
    for e in node.children().filter(|c| c.is_element()) {
        match e.tag_name().name() {
            "node" => walk(e, &own, scene, cut)?,
            "instance_geometry" => {
                let url = e.attribute("url").unwrap_or("");
                let id = url.strip_prefix('#').unwrap_or(url).to_string();
                scene.instances.entry(id).or_default().push(own);
                scene.instanced = true;
            }
            _ => {}
        }
    }
    Ok(())
}

/// Reads the unit and the node tree of the COLLADA text `text`.
pub(super) fn scene(text: &str) -> Result<DaeScene, String> {
    let doc = roxmltree::Document::parse(text).map_err(|e| e.to_string())?;
    let root = doc.root_element();
    let mut cut = Vec::new();
    let mut unit = 1.0;
    for asset in root.children().filter(|c| c.has_tag_name("asset")) {
        for u in asset.children().filter(|c| c.has_tag_name("unit")) {
            if let Some(m) = u.attribute("meter") {
                unit = m
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|m| m.is_finite() && *m > 0.0)
                    .ok_or_else(|| format!("<unit meter=\"{m}\"> is not a positive number"))?;
            }
            cut.push(u.range());
        }
    }
    let mut scene = DaeScene {
        stripped: String::new(),
        instances: HashMap::new(),
        instanced: false,
    };
    // the visual scene the <scene> instances, else every one
    let wanted = root
        .descendants()
        .find(|n| n.has_tag_name("instance_visual_scene"))
        .and_then(|n| n.attribute("url"))
        .map(|u| u.trim_start_matches('#').to_string());
    let top = Matrix4::new_scaling(unit);
    for vs in root
        .descendants()
        .filter(|n| n.has_tag_name("visual_scene"))
    {
        if wanted
            .as_deref()
            .is_some_and(|w| vs.attribute("id") != Some(w))
        {
            continue;
        }
        walk(vs, &top, &mut scene, &mut cut)?;
    }
    // without any instance, the geometries are drawn as they are, in the unit
    if !scene.instanced {
        scene.instances.clear();
    }
    cut.sort_by_key(|r| r.start);
    let mut stripped = String::with_capacity(text.len());
    let mut at = 0;
    for r in cut {
        if r.start >= at {
            stripped.push_str(&text[at..r.start]);
            at = r.end;
        }
    }
    stripped.push_str(&text[at..]);
    scene.stripped = stripped;
    if !scene.instanced {
        scene.instances.insert(String::new(), vec![top]);
    }
    Ok(scene)
}
