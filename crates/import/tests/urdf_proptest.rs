//! Random serial chains and trees as URDF text parse without panicking and keep their
//! links and joints.

use std::fmt::Write;
use std::path::Path;

use mbs_import::{ImportOptions, JointMotion, LinkRef, urdf};
use proptest::prelude::*;

const TYPES: [&str; 6] = [
    "revolute",
    "continuous",
    "prismatic",
    "fixed",
    "floating",
    "planar",
];

/// A URDF of `parents.len() + 1` links: link k+1 hangs from link `parents[k] % (k+1)`
/// by a joint of type `types[k]`.
fn urdf_text(parents: &[usize], types: &[usize], numbers: &[f64], world: bool) -> String {
    let mut s = String::from("<?xml version=\"1.0\"?>\n<robot name=\"random\">\n");
    let n = parents.len() + 1;
    let num = |i: usize| numbers[i % numbers.len()];
    for l in 0..n {
        if world && l == 0 {
            s.push_str("<link name=\"world\"/>\n");
            continue;
        }
        let m = num(l).abs() + 0.1;
        writeln!(
            s,
            r#"<link name="l{l}"><inertial><origin xyz="{} {} {}" rpy="{} {} {}"/><mass value="{m}"/><inertia ixx="{m}" ixy="0" ixz="0" iyy="{m}" iyz="0" izz="{m}"/></inertial>
               <visual><geometry><box size="0.1 0.1 0.1"/></geometry></visual></link>"#,
            num(l + 1),
            num(l + 2),
            num(l + 3),
            num(l + 4),
            num(l + 5),
            num(l + 6)
        )
        .unwrap();
    }
    for k in 0..parents.len() {
        let p = parents[k] % (k + 1);
        let parent = if world && p == 0 {
            "world".to_string()
        } else {
            format!("l{p}")
        };
        writeln!(
            s,
            r#"<joint name="j{k}" type="{}"><origin xyz="{} 0 {}" rpy="0 {} 0"/><parent link="{parent}"/><child link="l{}"/><axis xyz="{} 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>"#,
            TYPES[types[k] % TYPES.len()],
            num(k),
            num(k + 1),
            num(k + 2),
            k + 1,
            num(k + 3)
        )
        .unwrap();
    }
    s.push_str("</robot>\n");
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_trees_parse(
        parents in prop::collection::vec(0usize..1000, 0..12),
        types in prop::collection::vec(0usize..6, 12),
        numbers in prop::collection::vec(-3.0f64..3.0, 1..10),
        world in any::<bool>(),
        serial in any::<bool>(),
    ) {
        let parents: Vec<usize> = if serial { (0..parents.len()).collect() } else { parents };
        let text = urdf_text(&parents, &types, &numbers, world);
        let g = urdf::parse_str(&text, Path::new("random.urdf"), Path::new("."), &ImportOptions::default())
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let n_links = parents.len() + 1;
        let world_root = world;
        prop_assert_eq!(g.links.len(), if world_root { n_links - 1 } else { n_links });
        prop_assert_eq!(g.joints.len(), if world_root { parents.len() } else { parents.len() + 1 });
        // every link is the child of exactly one joint, applied after its parent's
        let mut seen = vec![false; g.links.len()];
        for j in &g.joints {
            prop_assert!(!seen[j.child]);
            if let LinkRef::Link(p) = j.parent { prop_assert!(seen[p]); }
            seen[j.child] = true;
        }
        prop_assert!(seen.iter().all(|s| *s));
        for j in g.joints.iter().filter(|j| j.name.starts_with('j')) {
            let k: usize = j.name[1..].parse().unwrap();
            let ty = TYPES[types[k] % TYPES.len()];
            let ok = matches!(
                (&j.motion, ty),
                (JointMotion::Revolute { .. }, "revolute" | "continuous")
                    | (JointMotion::Prismatic { .. }, "prismatic")
                    | (JointMotion::Fixed, "fixed")
                    | (JointMotion::Floating, "floating")
                    | (JointMotion::Planar { .. }, "planar")
            );
            prop_assert!(ok, "{} {:?} {}", j.name, j.motion, ty);
        }
    }

    /// Arbitrary bytes and mutations of a valid file are refused or parsed, never a panic.
    #[test]
    fn garbage_never_panics(cut in 0usize..2000, junk in "[<>/=\" a-z0-9.-]{0,40}") {
        let text = urdf_text(&[0, 0, 1, 2], &[0, 1, 2, 3], &[0.5, -1.0], false);
        let cut = cut.min(text.len());
        let mutated = format!("{}{}{}", &text[..cut], junk, &text[cut..]);
        let _ = urdf::parse_str(&mutated, Path::new("m.urdf"), Path::new("."), &ImportOptions::default());
    }
}
