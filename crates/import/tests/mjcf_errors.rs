//! Bad MJCF input is refused with a message naming the element and the value, never
//! with a panic.

mod mjcf_common;

use mjcf_common::{error_of, write};

fn body(inner: &str) -> String {
    format!(
        r#"<mujoco><worldbody><body name="b"><joint name="j"/>{inner}</body></worldbody></mujoco>"#
    )
}

#[test]
fn malformed_xml_gives_line_and_column() {
    let e = error_of("<mujoco>\n  <worldbody>\n    <body name=\"a\">\n  </worldbody>\n</mujoco>");
    assert!(e.contains("malformed XML") && e.contains("4:"), "{e}");
    let e = error_of("<robot name=\"r\"/>");
    assert!(e.contains("<robot>") && e.contains("<mujoco>"), "{e}");
}

#[test]
fn bad_numbers_name_the_count_and_the_value() {
    let e = error_of(&body(r#"<geom name="g" size="0.1" pos="1 2"/>"#));
    assert!(
        e.contains("geom `g`: pos = \"1 2\" must be 3 numbers (has 2)"),
        "{e}"
    );
    let e = error_of(&body(r#"<geom name="g" size="0.1 x"/>"#));
    assert!(e.contains("geom `g`") && e.contains("`x` is not"), "{e}");
    let e = error_of(&body(r#"<geom name="g" size="nan"/>"#));
    assert!(e.contains("size") && e.contains("finite"), "{e}");
    let e = error_of(&body(r#"<geom name="g" size="0.1" mass="-1"/>"#));
    assert!(e.contains("geom `g`: mass = \"-1\" must be ≥ 0"), "{e}");
    let e = error_of(&body(r#"<geom name="g" size="0.1" quat="0 0 0 0"/>"#));
    assert!(e.contains("quat") && e.contains("nonzero"), "{e}");
    let e = error_of(&body(
        r#"<geom name="g" size="0.1" quat="1 0 0 0" euler="0 0 0"/>"#,
    ));
    assert!(e.contains("at most one orientation"), "{e}");
    let e = error_of(
        r#"<mujoco><worldbody><body name="b"><joint name="j" axis="0 0 0"/><geom size="1"/></body></worldbody></mujoco>"#,
    );
    assert!(
        e.contains("joint `j`: axis") && e.contains("nonzero"),
        "{e}"
    );
    let e = error_of(
        r#"<mujoco><worldbody><body name="b"><joint name="j" range="1 -1"/><geom size="1"/></body></worldbody></mujoco>"#,
    );
    assert!(
        e.contains("joint `j`: range") && e.contains("lower < upper"),
        "{e}"
    );
    let e = error_of(r#"<mujoco><compiler angle="gradian"/><worldbody/></mujoco>"#);
    assert!(
        e.contains("compiler") && e.contains("gradian") && e.contains("degree, radian"),
        "{e}"
    );
    let e = error_of(r#"<mujoco><compiler eulerseq="xyw"/><worldbody/></mujoco>"#);
    assert!(e.contains("eulerseq") && e.contains("xyw"), "{e}");
    let e = error_of(r#"<mujoco><option gravity="0 0"/><worldbody/></mujoco>"#);
    assert!(e.contains("gravity"), "{e}");
}

#[test]
fn geometry_the_import_cannot_handle_is_named() {
    let e = error_of(&body(r#"<geom name="g" type="cone" size="1"/>"#));
    assert!(e.contains("geom `g`: type = \"cone\""), "{e}");
    let e = error_of(&body(r#"<geom name="g" type="sphere"/>"#));
    assert!(
        e.contains("geom `g`: size") && e.contains("positive"),
        "{e}"
    );
    let e = error_of(&body(
        r#"<geom name="g" type="sphere" size="1" fromto="0 0 0 1 0 0"/>"#,
    ));
    assert!(e.contains("fromto") && e.contains("sphere"), "{e}");
    let e = error_of(&body(
        r#"<geom name="g" type="capsule" size="1" fromto="0 0 0 0 0 0"/>"#,
    ));
    assert!(e.contains("fromto") && e.contains("distinct"), "{e}");
    let e = error_of(&body(r#"<geom name="h" type="hfield" hfield="terrain"/>"#));
    assert!(e.contains("geom `h`") && e.contains("<inertial>"), "{e}");
    let e = error_of(&body(r#"<composite type="grid" count="2 2 1"/>"#));
    assert!(
        e.contains("composite") && e.contains("not supported"),
        "{e}"
    );
    let e = error_of(&body(r#"<geom size="1" shellinertia="true" name="s"/>"#));
    assert!(e.contains("geom `s`") && e.contains("shellinertia"), "{e}");
    let e = error_of(r#"<mujoco><compiler coordinate="global"/><worldbody/></mujoco>"#);
    assert!(e.contains("global"), "{e}");
}

#[test]
fn includes_that_are_missing_or_circular_are_named() {
    let e = error_of(r#"<mujoco><include file="nowhere.xml"/><worldbody/></mujoco>"#);
    assert!(e.contains("nowhere.xml") && e.contains("not found"), "{e}");
    let path = write(
        r#"<mujoco><include file="a.xml"/><worldbody/></mujoco>"#,
        &[
            ("a.xml", r#"<mujoco><include file="b.xml"/></mujoco>"#),
            ("b.xml", r#"<mujoco><include file="a.xml"/></mujoco>"#),
        ],
    );
    let e = mbs_import::mjcf::parse(&path, &Default::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("a.xml") && e.contains("cycle"), "{e}");
}

#[test]
fn duplicate_body_names_and_world_joints_are_refused() {
    let e = error_of(
        r#"<mujoco><worldbody><body name="a"><geom size="1"/></body><body name="a"><geom size="1"/></body></worldbody></mujoco>"#,
    );
    assert!(e.contains("\"a\"") && e.contains("another body"), "{e}");
    let e = error_of(r#"<mujoco><worldbody><joint name="w"/></worldbody></mujoco>"#);
    assert!(e.contains("joint `w`"), "{e}");
}

#[test]
fn deep_nesting_is_refused_before_the_recursive_readers() {
    let nested = |n: usize| {
        format!(
            "<mujoco><worldbody>{}{}</worldbody></mujoco>",
            r#"<body><joint/><geom size="0.1"/>"#.repeat(n),
            "</body>".repeat(n)
        )
    };
    let e = error_of(&nested(100_000));
    assert!(e.contains("nested deeper than 1024 levels"), "{e}");
    // a chain of 1000 bodies is read and built whatever the caller's stack: here a
    // thread of 256 KiB (the import runs on a thread of its own)
    let text = nested(1000);
    let built = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            let m = mjcf_common::parse_ok(&text);
            let path = mjcf_common::write(&text, &[]);
            let imported = mbs_import::load(&path, &Default::default()).map_err(|e| e.to_string());
            (m.links.len(), imported.map(|i| i.model.n_bodies()))
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(built, (1000, Ok(1000)));
}
