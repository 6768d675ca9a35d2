//! Bad URDF input gives an error naming the element and the value, never a panic.

use std::path::{Path, PathBuf};

use mbs_import::{ImportError, ImportOptions, urdf};

fn parse_text(text: &str) -> Result<mbs_import::LinkGraph, ImportError> {
    urdf::parse_str(
        text,
        Path::new("test.urdf"),
        Path::new("."),
        &ImportOptions::default(),
    )
}

/// The message of the error of `body` (links and joints inside `<robot>`).
fn message(body: &str) -> (ImportError, String) {
    let text = format!("<?xml version=\"1.0\"?>\n<robot name=\"r\">\n{body}\n</robot>");
    let e = parse_text(&text).expect_err("must be refused");
    let m = e.to_string();
    (e, m)
}

const INERTIA: &str = r#"<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>"#;

fn link(name: &str) -> String {
    format!(r#"<link name="{name}"><inertial><mass value="1"/>{INERTIA}</inertial></link>"#)
}

fn revolute(name: &str, parent: &str, child: &str, extra: &str) -> String {
    format!(
        r#"<joint name="{name}" type="revolute"><parent link="{parent}"/><child link="{child}"/>
           <limit lower="-1" upper="1" effort="1" velocity="1"/>{extra}</joint>"#
    )
}

#[test]
fn malformed_xml_names_the_file() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/malformed.urdf");
    let e = urdf::parse(&path, &ImportOptions::default()).unwrap_err();
    assert!(matches!(e, ImportError::Syntax { .. }), "{e:?}");
    let m = e.to_string();
    // the XML reader's message, with the place: `<link>` opened on line 3 is closed
    // by `</robot>` on line 4
    assert!(
        m.contains("malformed.urdf") && m.contains("XML:") && m.contains("</robot>"),
        "{m}"
    );
    assert!(m.contains("line 4"), "{m}");
}

#[test]
fn well_formed_xml_that_is_not_urdf_names_the_file() {
    // <link> without a name: urdf-rs's message
    let e = parse_text("<robot name=\"r\"><link/></robot>").unwrap_err();
    assert!(matches!(e, ImportError::Syntax { .. }), "{e:?}");
    let m = e.to_string();
    assert!(
        m.contains("test.urdf") && m.contains("URDF:") && m.contains("name"),
        "{m}"
    );
}

#[test]
fn absurd_nesting_is_refused_not_a_stack_overflow() {
    let n = 200_000;
    let text = format!(
        "<robot name=\"deep\"><link name=\"a\"/>{}{}</robot>",
        "<x>".repeat(n),
        "</x>".repeat(n)
    );
    let m = parse_text(&text).unwrap_err().to_string();
    assert!(m.contains("nested deeper than 64"), "{m}");
}

#[test]
fn missing_file_is_an_io_error() {
    let e = urdf::parse(
        &PathBuf::from("/nonexistent/robot.urdf"),
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(e, ImportError::Io { .. }), "{e:?}");
    assert!(e.to_string().contains("/nonexistent/robot.urdf"));
}

#[test]
fn joint_to_a_missing_link() {
    let (e, m) = message(&format!("{}{}", link("a"), revolute("j", "a", "ghost", "")));
    assert!(matches!(e, ImportError::Missing { .. }), "{e:?}");
    assert!(
        m.contains("joint `j`") && m.contains("child link `ghost`"),
        "{m}"
    );
    let (e, m) = message(&format!(
        "{}{}",
        link("a"),
        revolute("j", "nobody", "a", "")
    ));
    assert!(matches!(e, ImportError::Missing { .. }), "{e:?}");
    assert!(m.contains("parent link `nobody`"), "{m}");
}

#[test]
fn negative_mass() {
    let (e, m) = message(&format!(
        r#"<link name="heavy"><inertial><mass value="-2.5"/>{INERTIA}</inertial></link>"#
    ));
    assert!(matches!(e, ImportError::InvalidValue { .. }), "{e:?}");
    assert!(
        m.contains("link `heavy`") && m.contains("mass") && m.contains("-2.5") && m.contains("≥ 0"),
        "{m}"
    );
}

#[test]
fn non_finite_numbers() {
    let (_, m) = message(&format!(
        r#"<link name="a"><inertial><mass value="nan"/>{INERTIA}</inertial></link>"#
    ));
    assert!(
        m.contains("link `a`") && m.contains("mass") && m.contains("NaN") && m.contains("finite"),
        "{m}"
    );
    let (_, m) = message(
        r#"<link name="a"><inertial><mass value="1"/><inertia ixx="inf" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>"#,
    );
    assert!(
        m.contains("link `a`") && m.contains("ixx") && m.contains("inf"),
        "{m}"
    );
    let (_, m) = message(&format!(
        r#"{}{}{}"#,
        link("a"),
        link("b"),
        r#"<joint name="j" type="fixed"><origin xyz="0 nan 0"/><parent link="a"/><child link="b"/></joint>"#
    ));
    assert!(
        m.contains("joint `j`") && m.contains("origin xyz") && m.contains("NaN"),
        "{m}"
    );
    let (_, m) = message(&format!(
        "{}{}{}",
        link("a"),
        link("b"),
        revolute("j", "a", "b", r#"<dynamics damping="inf"/>"#)
    ));
    assert!(
        m.contains("joint `j`") && m.contains("damping") && m.contains("inf"),
        "{m}"
    );
    let (_, m) = message(
        r#"<link name="a"><visual><origin rpy="0 0 -inf"/><geometry><sphere radius="1"/></geometry></visual></link>"#,
    );
    assert!(
        m.contains("link `a` visual") && m.contains("origin rpy"),
        "{m}"
    );
}

#[test]
fn inertia_not_positive_semi_definite() {
    // ixy larger than the diagonal: eigenvalues 1 ± 2
    let (e, m) = message(
        r#"<link name="odd"><inertial><mass value="1"/><inertia ixx="1" ixy="2" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>"#,
    );
    assert!(matches!(e, ImportError::InvalidValue { .. }), "{e:?}");
    assert!(
        m.contains("link `odd`") && m.contains("ixy 2") && m.contains("positive semi-definite"),
        "{m}"
    );
    let (_, m) = message(
        r#"<link name="neg"><inertial><mass value="1"/><inertia ixx="-1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>"#,
    );
    assert!(
        m.contains("link `neg`") && m.contains("ixx -1") && m.contains("semi-definite"),
        "{m}"
    );
}

#[test]
fn two_parent_joints() {
    let (e, m) = message(&format!(
        "{}{}{}{}{}",
        link("a"),
        link("b"),
        link("c"),
        revolute("j1", "a", "c", ""),
        revolute("j2", "b", "c", "")
    ));
    assert!(matches!(e, ImportError::InvalidValue { .. }), "{e:?}");
    assert!(
        m.contains("link `c`") && m.contains("`j1` and `j2`") && m.contains("tree"),
        "{m}"
    );
}

#[test]
fn cycle() {
    let (_, m) = message(&format!(
        "{}{}{}{}{}{}",
        link("root"),
        link("a"),
        link("b"),
        revolute("ab", "a", "b", ""),
        revolute("ba", "b", "a", ""),
        ""
    ));
    assert!(
        m.contains("cycle") && m.contains("`ab`") && m.contains("`ba`"),
        "{m}"
    );
    // a cycle through every link: no root at all
    let (_, m) = message(&format!(
        "{}{}{}{}",
        link("a"),
        link("b"),
        revolute("ab", "a", "b", ""),
        revolute("ba", "b", "a", "")
    ));
    assert!(m.contains("cycle"), "{m}");
}

#[test]
fn several_roots_and_duplicates() {
    let (_, m) = message(&format!("{}{}", link("a"), link("b")));
    assert!(m.contains("root links") && m.contains("`a`, `b`"), "{m}");
    let (_, m) = message(&format!("{}{}", link("a"), link("a")));
    assert!(m.contains("link `a`") && m.contains("unique"), "{m}");
    let (_, m) = message(&format!(
        "{}{}{}{}{}",
        link("a"),
        link("b"),
        link("c"),
        revolute("j", "a", "b", ""),
        revolute("j", "a", "c", "")
    ));
    assert!(m.contains("joint `j`") && m.contains("unique"), "{m}");
    let (_, m) = message("");
    assert!(
        m.contains("robot `r`") && m.contains("at least one <link>"),
        "{m}"
    );
}

#[test]
fn zero_axis_and_bad_limits_and_mimic() {
    let (e, m) = message(&format!(
        "{}{}{}",
        link("a"),
        link("b"),
        revolute("j", "a", "b", r#"<axis xyz="0 0 0"/>"#)
    ));
    assert!(matches!(e, ImportError::InvalidValue { .. }), "{e:?}");
    assert!(
        m.contains("joint `j`")
            && m.contains("axis xyz")
            && m.contains("\"0 0 0\"")
            && m.contains("nonzero"),
        "{m}"
    );
    let (_, m) = message(&format!(
        "{}{}{}",
        link("a"),
        link("b"),
        r#"<joint name="j" type="prismatic"><parent link="a"/><child link="b"/><limit lower="1" upper="-1" effort="1" velocity="1"/></joint>"#
    ));
    assert!(
        m.contains("joint `j`") && m.contains("limit upper") && m.contains("-1"),
        "{m}"
    );
    // a mimic of a joint that does not exist is dropped with a note, not an error
    let text = format!(
        "<robot name=\"r\">{}{}{}</robot>",
        link("a"),
        link("b"),
        revolute("j", "a", "b", r#"<mimic joint="nope"/>"#)
    );
    let g = parse_text(&text).unwrap();
    assert!(g.joints.iter().all(|j| j.mimic.is_none()));
    assert!(
        g.notes.iter().any(|n| n.element == "joint `j`"
            && n.note.contains("\"nope\"")
            && n.note.contains("ignored")),
        "{:?}",
        g.notes
    );
}

#[test]
fn not_urdf_at_all() {
    for text in [
        "",
        "not xml",
        "<robot",
        "<mujoco/>",
        "<robot><link/></robot>",
    ] {
        let e = parse_text(text).expect_err(text);
        assert!(!e.to_string().is_empty());
    }
}
