//! Notes on a joint's data that the model keeps out: limits, friction, rotor inertia
//! and mimic couplings.

use crate::{GraphJoint, ImportNote};

/// Notes what of `joint`'s limits, friction, armature and mimic is not honoured.
pub(crate) fn joint_data(joint: &GraphJoint, notes: &mut Vec<ImportNote>) {
    let element = || format!("joint `{}`", joint.name);
    if let Some(limit) = &joint.limit
        && (limit.lower.is_some() || limit.upper.is_some())
    {
        let show = |x: Option<f64>| x.map_or("none".to_string(), |v| format!("{v}"));
        notes.push(ImportNote {
            element: element(),
            note: format!(
                "position limits [{}, {}] ignored: no joint-limit force",
                show(limit.lower),
                show(limit.upper)
            ),
        });
    }
    let d = &joint.dynamics;
    if d.friction != 0.0 {
        notes.push(ImportNote {
            element: element(),
            note: format!(
                "friction {} ignored: Coulomb friction is not smooth",
                d.friction
            ),
        });
    }
    if d.armature != 0.0 {
        notes.push(ImportNote {
            element: element(),
            note: format!("armature (rotor inertia) {} ignored", d.armature),
        });
    }
    if let Some(m) = &joint.mimic {
        notes.push(ImportNote {
            element: element(),
            note: format!(
                "mimic of joint `{}` (multiplier {}, offset {}) ignored: the joint moves freely",
                m.joint, m.multiplier, m.offset
            ),
        });
    }
}
