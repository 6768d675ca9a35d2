//! Notes on the MJCF sections the import does not honour (MuJoCo XML reference:
//! "contact", "tendon", "actuator", "sensor", "keyframe", …), each element by name.

use super::xml::Element;
use crate::ImportNote;

/// The top-level sections read by the parser itself.
const READ: [&str; 7] = [
    "compiler",
    "option",
    "default",
    "asset",
    "worldbody",
    "equality",
    "include",
];

/// Sections without effect on rigid-body dynamics, noted once each.
const PRESENTATION: [&str; 4] = ["visual", "statistic", "size", "custom"];

/// One note per unread element: `actuator `motor1``, `sensor `touch``, …
pub(crate) fn section_notes(root: &Element, notes: &mut Vec<ImportNote>) {
    for section in root
        .children
        .iter()
        .filter(|s| !READ.contains(&s.name.as_str()))
    {
        let name = section.name.as_str();
        if PRESENTATION.contains(&name) {
            notes.push(ImportNote {
                element: name.into(),
                note: "rendering and memory settings not used".into(),
            });
            continue;
        }
        let why = match name {
            "contact" => "not modelled: mbs has no contact",
            "tendon" => "not modelled: no tendons in mbs",
            "actuator" => "not applied: the model runs unactuated",
            "sensor" => "not evaluated",
            "keyframe" => "not used: initial positions come from qpos0 and --q0/--v0",
            "deformable" => "not modelled: mbs has rigid bodies only",
            _ => "not used",
        };
        if section.children.is_empty() {
            notes.push(ImportNote {
                element: name.into(),
                note: why.into(),
            });
        }
        for e in &section.children {
            notes.push(ImportNote {
                element: format!("{name} {}", e.label()),
                note: why.into(),
            });
        }
    }
}
