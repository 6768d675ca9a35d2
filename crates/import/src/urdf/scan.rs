//! What urdf-rs does not tell: whether a link has an `<inertial>` and a joint a
//! `<limit>` (urdf-rs fills in defaults), and the elements it drops
//! (`<transmission>`, `<gazebo>`, joint `<calibration>` and `<safety_controller>`;
//! wiki.ros.org/urdf/XML), which become [`ImportNote`]s. A light read-only scan with
//! roxmltree; urdf-rs has already checked that the file is well-formed URDF.

use std::collections::HashSet;

use crate::ImportNote;

/// The facts of a URDF text that urdf-rs does not keep.
#[derive(Debug, Default)]
pub(super) struct Scan {
    /// Links with an `<inertial>` element.
    pub with_inertial: HashSet<String>,
    /// Joints with a `<limit>` element.
    pub with_limit: HashSet<String>,
    /// Elements not imported.
    pub notes: Vec<ImportNote>,
}

/// Scans `text` (a `<robot>` document). `Err` carries roxmltree's message.
pub(super) fn scan(text: &str) -> Result<Scan, String> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, options).map_err(|e| e.to_string())?;
    let mut out = Scan::default();
    for child in doc.root_element().children().filter(|n| n.is_element()) {
        let tag = child.tag_name().name();
        let name = child.attribute("name");
        match tag {
            "link" => {
                if child.children().any(|c| c.has_tag_name("inertial")) {
                    out.with_inertial
                        .insert(name.unwrap_or_default().to_owned());
                }
            }
            "joint" => {
                let joint = name.unwrap_or_default();
                for c in child.children().filter(|n| n.is_element()) {
                    match c.tag_name().name() {
                        "limit" => {
                            out.with_limit.insert(joint.to_owned());
                        }
                        "calibration" | "safety_controller" => out.notes.push(ImportNote {
                            element: format!("joint `{joint}`"),
                            note: format!(
                                "<{}> not used (controller data, no dynamics)",
                                c.tag_name().name()
                            ),
                        }),
                        _ => {}
                    }
                }
            }
            "material" => {}
            "transmission" => out.notes.push(ImportNote {
                element: format!("transmission `{}`", name.unwrap_or("")),
                note: "not imported: actuators and gear ratios are ROS-control data".into(),
            }),
            "gazebo" => out.notes.push(ImportNote {
                element: match child.attribute("reference") {
                    Some(r) => format!("gazebo (reference `{r}`)"),
                    None => "gazebo".into(),
                },
                note: "not imported: simulator-specific settings".into(),
            }),
            other => out.notes.push(ImportNote {
                element: match name {
                    Some(n) => format!("{other} `{n}`"),
                    None => other.to_owned(),
                },
                note: "unknown URDF element, not imported".into(),
            }),
        }
    }
    Ok(out)
}
