//! MJCF default classes (MuJoCo XML reference, "default"): nested classes inherit
//! their parent's values, `childclass` applies to a body's subtree, `class` on an
//! element wins, attributes on the element win over any class; `<include>` splices
//! another file's children in place.

mod mjcf_common;

use std::f64::consts::PI;

use approx::assert_relative_eq;
use mbs_import::VisualGeometry;
use mjcf_common::{error_of, joint, link, parse_data, parse_ok};
use nalgebra::Vector3;

#[test]
fn joints_take_their_class_defaults() {
    let m = parse_data("defaults.xml");
    let g = &m;
    let j0 = joint(g, "j0");
    assert_eq!(j0.dynamics.damping, 0.5);
    assert_eq!(j0.dynamics.stiffness, 0.0);
    // the axis of `main` (0 1 0) reaches every class
    for j in ["j0", "j1", "j2"] {
        match &joint(g, j).motion {
            mbs_import::JointMotion::Revolute { axis } => {
                assert_eq!(axis.into_inner(), Vector3::y())
            }
            other => panic!("{j}: {other:?}"),
        }
    }
    // childclass `arm` of body `upper`
    assert_eq!(joint(g, "j1").dynamics.damping, 2.0);
    assert_eq!(joint(g, "j1").dynamics.stiffness, 3.0);
    // class="main" inside the `arm` subtree, damping written on the element
    assert_eq!(joint(g, "j2").dynamics.damping, 7.0);
    assert_eq!(joint(g, "j2").dynamics.stiffness, 0.0);
}

#[test]
fn geoms_take_type_size_density_and_colour_from_their_classes() {
    let m = parse_data("defaults.xml");
    let g = &m;
    // base: a box of main, density 500
    let base = link(g, "base");
    assert_relative_eq!(
        base.inertial.as_ref().unwrap().mass,
        500.0 * 0.048,
        epsilon = 1e-12
    );
    assert_eq!(
        base.visuals[0].geometry,
        VisualGeometry::Box {
            size: Vector3::new(0.2, 0.4, 0.6)
        }
    );
    assert_eq!(base.visuals[0].rgba, Some([1.0, 0.0, 0.0, 1.0]));
    // upper: two capsules of `arm` (density 500) and `heavy` (2000, inherits type and size)
    let v = PI * 0.05f64.powi(2) * 0.4 + 4.0 / 3.0 * PI * 0.05f64.powi(3);
    let upper = link(g, "upper");
    assert_relative_eq!(
        upper.inertial.as_ref().unwrap().mass,
        2500.0 * v,
        epsilon = 1e-12
    );
    for vis in &upper.visuals {
        assert_eq!(
            vis.geometry,
            VisualGeometry::Capsule {
                radius: 0.05,
                length: 0.4
            }
        );
    }
    // lower: class `light` (a child of main, not of arm): mass 0.25 beats density
    let lower = link(g, "lower");
    assert_eq!(lower.inertial.as_ref().unwrap().mass, 0.25);
    assert_eq!(
        lower.visuals[0].geometry,
        VisualGeometry::Sphere { radius: 0.1 }
    );
    assert_eq!(lower.visuals[0].rgba, Some([1.0, 0.0, 0.0, 1.0]));
}

#[test]
fn an_unknown_class_is_named() {
    let e = error_of(
        r#"<mujoco><worldbody><body name="b"><geom name="g" class="nope" size="1"/></body></worldbody></mujoco>"#,
    );
    assert!(
        e.contains("geom `g`") && e.contains("default class `nope`"),
        "{e}"
    );
    let e = error_of(
        r#"<mujoco><worldbody><body name="b" childclass="gone"><geom size="1"/></body></worldbody></mujoco>"#,
    );
    assert!(e.contains("body `b`") && e.contains("`gone`"), "{e}");
}

#[test]
fn a_class_defined_twice_or_unnamed_is_refused() {
    let e = error_of(
        r#"<mujoco><default><default class="a"/><default class="a"/></default><worldbody/></mujoco>"#,
    );
    assert!(e.contains("class") && e.contains("\"a\""), "{e}");
    let e = error_of(
        r#"<mujoco><default><default><geom size="1"/></default></default><worldbody/></mujoco>"#,
    );
    assert!(e.contains("nested <default> must name its class"), "{e}");
}

#[test]
fn a_frame_composes_its_pose_and_childclass() {
    let m = parse_ok(
        r#"<mujoco><default><default class="big"><geom size="0.5"/></default></default>
        <worldbody><body name="b"><joint name="j"/>
          <frame pos="1 0 0" euler="0 0 90" childclass="big">
            <geom name="g" pos="1 0 0"/>
            <body name="c" pos="0 1 0"><geom size="0.1"/></body>
          </frame></body></worldbody></mujoco>"#,
    );
    let b = link(&m, "b");
    assert_eq!(
        b.visuals[0].geometry,
        VisualGeometry::Sphere { radius: 0.5 }
    );
    assert_relative_eq!(
        b.visuals[0].origin.translation.vector,
        Vector3::new(1.0, 1.0, 0.0),
        epsilon = 1e-15
    );
    let x = mjcf_common::world_poses(&m, &[]);
    assert_relative_eq!(
        x[1].translation.vector,
        Vector3::new(0.0, 0.0, 0.0),
        epsilon = 1e-15
    );
}
