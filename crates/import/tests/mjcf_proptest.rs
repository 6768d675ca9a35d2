//! Random MJCF texts parse without panicking: generated body trees (joints, geoms,
//! classes, equalities, with valid and invalid values) and corrupted copies of a valid
//! file. What parses is a consistent link graph.

mod mjcf_common;

use mbs_import::{LinkGraph, LinkRef};
use mjcf_common::parse_text;
use proptest::prelude::*;

/// A positive number, now and then not one.
fn positive() -> impl Strategy<Value = String> {
    prop_oneof![
        200 => (0.01f64..1.0).prop_map(|x| format!("{x:.3}")),
        1 => prop::sample::select(vec!["-1", "x", "0"]).prop_map(str::to_string),
    ]
}

/// A sorted pair.
fn range() -> impl Strategy<Value = String> {
    prop_oneof![
        100 => (-2.0f64..0.0, 0.01f64..2.0).prop_map(|(a, b)| format!("{a:.3} {b:.3}")),
        1 => numbers(2..3),
    ]
}

fn rare(
    common: &'static [&'static str],
    rare: &'static [&'static str],
) -> impl Strategy<Value = String> {
    prop_oneof![
        60 => prop::sample::select(common.to_vec()).prop_map(str::to_string),
        1 => prop::sample::select(rare.to_vec()).prop_map(str::to_string),
    ]
}

/// A number, now and then not one.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        200 => (-2.0f64..2.0).prop_map(|x| format!("{x:.3}")),
        20 => Just("0".to_string()),
        1 => prop::sample::select(vec!["x", "nan", "inf", "", "1e999", "-1", "1,2"]).prop_map(str::to_string),
    ]
}

fn numbers(n: std::ops::Range<usize>) -> impl Strategy<Value = String> {
    prop::collection::vec(number(), n).prop_map(|v| v.join(" "))
}

fn attr(name: &'static str, value: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    prop::option::weighted(0.5, value)
        .prop_map(move |v| v.map(|v| format!(r#" {name}="{v}""#)).unwrap_or_default())
}

fn class() -> impl Strategy<Value = String> {
    attr("class", rare(&["main", "a", "b"], &["missing"]))
}

fn joint() -> impl Strategy<Value = String> {
    (
        attr(
            "type",
            rare(
                &["hinge", "slide", "ball", "hinge", "slide"],
                &["free", "weird"],
            ),
        ),
        attr("pos", numbers(3..4)),
        attr("axis", numbers(3..4)),
        attr("range", range()),
        attr("ref", numbers(1..2)),
        attr("damping", positive()),
        class(),
    )
        .prop_map(|(t, p, a, r, rf, d, c)| format!("<joint{t}{p}{a}{r}{rf}{d}{c}/>"))
}

fn geom() -> impl Strategy<Value = String> {
    (
        attr(
            "type",
            rare(
                &["sphere", "capsule", "cylinder", "box", "ellipsoid"],
                &["plane", "mesh", "hfield"],
            ),
        ),
        prop::collection::vec(positive(), 3..4).prop_map(|v| format!(r#" size="{}""#, v.join(" "))),
        prop::option::weighted(0.2, numbers(6..7))
            .prop_map(|v| v.map(|v| format!(r#" fromto="{v}""#)).unwrap_or_default()),
        attr("pos", numbers(3..4)),
        attr("euler", numbers(3..4)),
        prop::option::weighted(0.2, positive())
            .prop_map(|v| v.map(|v| format!(r#" mass="{v}""#)).unwrap_or_default()),
        class(),
    )
        .prop_map(|(t, s, f, p, e, m, c)| format!("<geom{t}{s}{f}{p}{e}{m}{c}/>"))
}

fn body_tree() -> impl Strategy<Value = String> {
    let leaf = (
        prop::collection::vec(joint(), 0..3),
        prop::collection::vec(geom(), 0..3),
        attr("pos", numbers(3..4)),
    )
        .prop_map(|(j, g, p)| format!("<body{p}>{}{}</body>", j.join(""), g.join("")));
    leaf.prop_recursive(4, 24, 3, |inner| {
        (
            prop::collection::vec(joint(), 0..3),
            prop::collection::vec(geom(), 0..2),
            prop::collection::vec(inner, 0..3),
            attr("quat", numbers(4..5)),
            attr("childclass", rare(&["a", "b"], &["nope"])),
        )
            .prop_map(|(j, g, b, q, cc)| {
                format!(
                    "<body{q}{cc}>{}{}{}</body>",
                    j.join(""),
                    g.join(""),
                    b.join("")
                )
            })
    })
}

/// Names every body `b<k>` so that equalities can refer to them.
fn name_bodies(text: &str) -> (String, usize) {
    let mut out = String::new();
    let mut k = 0;
    for (i, part) in text.split("<body").enumerate() {
        if i > 0 {
            out.push_str(&format!("<body name=\"b{k}\""));
            k += 1;
        }
        out.push_str(part);
    }
    (out, k)
}

fn model() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(body_tree(), 1..3),
        prop::sample::select(vec!["", r#"<compiler angle="radian"/>"#, r#"<compiler eulerseq="ZYX" inertiafromgeom="true"/>"#]),
        prop::collection::vec((0usize..12, 0usize..12, prop::bool::ANY), 0..2),
    )
        .prop_map(|(bodies, compiler, eqs)| {
            let (tree, n) = name_bodies(&bodies.join(""));
            let eq: String = eqs
                .iter()
                .map(|&(a, b, weld)| {
                    let kind = if weld { "weld" } else { "connect" };
                    format!(r#"<{kind} body1="b{}" body2="b{}" anchor="0 0 0"/>"#, a % (n + 1), b % (n + 1))
                })
                .collect();
            format!(
                r#"<mujoco>{compiler}<default><joint damping="0.1"/><default class="a"><geom size="0.1 0.2 0.3"/><default class="b"><joint axis="1 0 0"/></default></default></default>
                <worldbody>{tree}</worldbody><equality>{eq}</equality></mujoco>"#
            )
        })
}

fn consistent(g: &LinkGraph) {
    for (i, _) in g.links.iter().enumerate() {
        assert!(
            g.joints.iter().any(|j| j.child == i),
            "link {i} has no joint"
        );
    }
    for (k, j) in g.joints.iter().enumerate() {
        assert!(j.child < g.links.len());
        if let LinkRef::Link(p) = j.parent {
            // the parent is placed by an earlier joint
            assert!(
                g.joints[..k].iter().any(|e| e.child == p),
                "joint {} before its parent",
                j.name
            );
        }
        assert!(j.origin.translation.vector.iter().all(|x| x.is_finite()));
        assert!(
            j.offset
                .rotation
                .quaternion()
                .coords
                .iter()
                .all(|x| x.is_finite())
        );
    }
    for l in &g.links {
        if let Some(i) = &l.inertial {
            assert!(i.mass.is_finite() && i.mass > 0.0);
            assert!((i.inertia - i.inertia.transpose()).norm() <= 1e-12 * i.inertia.norm());
        }
    }
    for c in &g.closures {
        assert_ne!(c.link_a, c.link_b);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn generated_models_parse_or_are_refused_without_panic(text in model()) {
        match parse_text(&text) {
            Ok(m) => {
                consistent(&m);
                // what parses also builds, or is refused, without panic
                let _ = mbs_import::build(&m, &Default::default());
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn corrupted_files_never_panic(cuts in prop::collection::vec((0usize..4000, 0usize..6, prop::sample::select(vec!["", "<", ">", "\"", "x", "-", "<body>", "</body>", "9e9"])), 1..4)) {
        let mut text = std::fs::read_to_string(mjcf_common::data("spatial_rusr.xml")).unwrap();
        for (at, len, insert) in cuts {
            let mut at = at % (text.len() + 1);
            while !text.is_char_boundary(at) { at -= 1; }
            let mut end = (at + len).min(text.len());
            while !text.is_char_boundary(end) { end += 1; }
            text.replace_range(at..end, insert);
        }
        if let Ok(m) = parse_text(&text) {
            consistent(&m);
        }
    }
}
