//! What urdf-rs does not tell: whether a link has an `<inertial>` and a joint a
//! `<limit>` (urdf-rs fills in defaults), and the elements it drops
//! (`<transmission>`, `<gazebo>`, joint `<calibration>` and `<safety_controller>`;
//! wiki.ros.org/urdf/XML), which become [`ImportNote`]s. A light read-only scan with
//! roxmltree, which also checks well-formedness and depth before urdf-rs reads the
//! file.

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

/// Elements nested deeper than this are refused before urdf-rs reads the file (its
/// reader recurses, so a pathological file would overflow the stack); URDF itself
/// nests 5 deep (`robot/link/visual/geometry/mesh`).
pub(super) const MAX_DEPTH: usize = 64;

/// Scans `text` (a `<robot>` document): well-formed XML, at most [`MAX_DEPTH`] levels
/// deep. `Err` carries roxmltree's message (with line and column) or the depth.
pub(super) fn scan(text: &str) -> Result<Scan, String> {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    check_depth(text)?;
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

/// Refuses a text nested deeper than [`MAX_DEPTH`], with quick-xml's streaming reader
/// (roxmltree's and urdf-rs's readers recurse per level and would overflow the stack
/// first). XML that quick-xml cannot read is refused with its message and line.
pub(super) fn check_depth(text: &str) -> Result<(), String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(text);
    let mut depth = 0usize;
    let line_at = |at: u64| {
        let at = (at as usize).min(text.len());
        1 + text.as_bytes()[..at]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
    };
    loop {
        match reader.read_event() {
            Ok(Event::Start(_)) => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(format!(
                        "elements nested deeper than {MAX_DEPTH} levels at line {} (URDF needs 5)",
                        line_at(reader.buffer_position())
                    ));
                }
            }
            Ok(Event::End(_)) => depth = depth.saturating_sub(1),
            Ok(Event::Eof) => return Ok(()),
            Ok(_) => {}
            // refused here: past this point the depth is unknown
            Err(e) => return Err(format!("{e} (line {})", line_at(reader.error_position()))),
        }
    }
}
