//! `<equality>` `connect` and `weld` as loop closures (MuJoCo XML reference,
//! "equality"): the closure frames coincide in the file's configuration; `relpose`
//! is body2's pose in body1; inactive and other equalities are noted; missing bodies
//! are named.

mod mjcf_common;

use approx::assert_relative_eq;
use mbs_import::{ClosureKind, LinkGraph, LinkRef, LoopClosure};
use mjcf_common::{error_of, parse_data, parse_ok, world_poses};
use nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion, Vector3};

fn world_frames(m: &LinkGraph, c: &LoopClosure) -> (Isometry3<f64>, Isometry3<f64>) {
    let x = world_poses(m, &[]);
    let at = |l: LinkRef| match l {
        LinkRef::World => Isometry3::identity(),
        LinkRef::Link(i) => x[i],
    };
    (at(c.link_a) * c.frame_a, at(c.link_b) * c.frame_b)
}

#[test]
fn the_fourbar_closes_at_the_coupler_end() {
    let m = parse_data("fourbar.xml");
    assert_eq!(m.closures.len(), 1);
    let c = &m.closures[0];
    assert_eq!(c.name, "C");
    assert_eq!(c.kind, ClosureKind::Point);
    let (a, b) = world_frames(&m, c);
    assert_relative_eq!(a.to_homogeneous(), b.to_homogeneous(), epsilon = 1e-15);
    // the anchor: C = (0.3016…, 0, 0.24999…) in the world, the rocker's tip
    assert_relative_eq!(
        a.translation.vector,
        Vector3::new(0.3016007650436934, 0.0, 0.24999487505001955),
        epsilon = 1e-15
    );
    assert_relative_eq!(
        c.frame_b.translation.vector,
        Vector3::new(0.0016007650436933862, 0.0, 0.24999487505001955),
        epsilon = 1e-15
    );
}

#[test]
fn the_spatial_linkage_closes_at_its_sites() {
    let m = parse_data("spatial_rusr.xml");
    let c = &m.closures[0];
    assert_eq!(c.kind, ClosureKind::Point);
    let (a, b) = world_frames(&m, c);
    assert_relative_eq!(a.to_homogeneous(), b.to_homogeneous(), epsilon = 1e-15);
    // the coupler is 0.3 m from its universal joint to C
    assert_relative_eq!(c.frame_a.translation.vector.norm(), 0.3, epsilon = 1e-15);
}

#[test]
fn weld_relpose_is_body2_in_body1_and_defaults_to_the_file_pose() {
    let m = parse_ok(
        r#"<mujoco><worldbody>
          <body name="a" pos="0.3 0.2 0.1" euler="0 0 90"><joint/><geom size="0.05"/></body>
          <body name="b" pos="1 1 1"><joint type="slide"/><geom size="0.05"/></body></worldbody>
          <equality>
            <weld name="given" body1="a" body2="b" relpose="0.1 0 0 1 1 0 0" anchor="0 0 0.5"/>
            <weld name="file" body1="a" body2="b"/>
            <weld name="world" body1="b"/>
          </equality></mujoco>"#,
    );
    let given = &m.closures[0];
    assert_eq!(given.kind, ClosureKind::Weld);
    // frame_a = relpose · frame_b, frame_b = the anchor in body2
    let rel = Isometry3::from_parts(
        Translation3::new(0.1, 0.0, 0.0),
        UnitQuaternion::from_quaternion(Quaternion::new(1.0, 1.0, 0.0, 0.0)),
    );
    assert_relative_eq!(
        given.frame_b.translation.vector,
        Vector3::new(0.0, 0.0, 0.5)
    );
    assert_relative_eq!(
        given.frame_a.to_homogeneous(),
        (rel * given.frame_b).to_homogeneous(),
        epsilon = 1e-15
    );
    let file = &m.closures[1];
    let (a, b) = world_frames(&m, file);
    assert_relative_eq!(a.to_homogeneous(), b.to_homogeneous(), epsilon = 1e-15);
    let world = &m.closures[2];
    assert_eq!(world.link_b, LinkRef::World);
    let (a, b) = world_frames(&m, world);
    assert_relative_eq!(a.to_homogeneous(), b.to_homogeneous(), epsilon = 1e-15);
}

#[test]
fn inactive_and_other_equalities_are_noted_not_dropped() {
    let m = parse_ok(
        r#"<mujoco><worldbody>
          <body name="a"><joint name="ja"/><geom size="0.05"/></body>
          <body name="b" pos="1 0 0"><joint name="jb"/><geom size="0.05"/></body></worldbody>
          <equality>
            <connect name="off" body1="a" body2="b" anchor="1 0 0" active="false"/>
            <joint name="couple" joint1="ja" joint2="jb"/>
          </equality>
          <contact><exclude body1="a" body2="b"/></contact>
          <actuator><motor name="m" joint="ja"/></actuator>
          <sensor><jointpos name="s" joint="ja"/></sensor>
          <tendon><fixed name="t"><joint joint="ja" coef="1"/></fixed></tendon>
          <keyframe><key name="home" qpos="0 0"/></keyframe></mujoco>"#,
    );
    assert!(m.closures.is_empty());
    let notes: Vec<String> = m
        .notes
        .iter()
        .map(|n| format!("{}: {}", n.element, n.note))
        .collect();
    for want in [
        "connect `off`",
        "joint `couple`",
        "contact exclude",
        "actuator motor `m`",
        "sensor jointpos `s`",
        "tendon fixed `t`",
        "keyframe key `home`",
    ] {
        assert!(
            notes.iter().any(|n| n.contains(want)),
            "no note on {want}: {notes:#?}"
        );
    }
}

#[test]
fn a_missing_body_or_site_is_named() {
    let world = r#"<worldbody><body name="a"><joint/><geom size="0.05"/></body></worldbody>"#;
    let e = error_of(&format!(
        r#"<mujoco>{world}<equality><connect name="c" body1="a" body2="ghost" anchor="0 0 0"/></equality></mujoco>"#
    ));
    assert!(
        e.contains("connect `c`") && e.contains("body2 `ghost`"),
        "{e}"
    );
    let e = error_of(&format!(
        r#"<mujoco>{world}<equality><weld site1="s" site2="t"/></equality></mujoco>"#
    ));
    assert!(
        e.contains("weld at model.xml:1") && e.contains("site1 `s`"),
        "{e}"
    );
    let e = error_of(&format!(
        r#"<mujoco>{world}<equality><connect body1="a" anchor="0 0"/></equality></mujoco>"#
    ));
    assert!(
        e.contains("anchor") && e.contains("must be 3 numbers (has 2)"),
        "{e}"
    );
}
