//! MJCF angle units (MuJoCo's default is the degree), `eulerseq`, and every
//! orientation form of the MuJoCo XML reference ("Frame orientations").

mod mjcf_common;

use std::f64::consts::{FRAC_PI_2, PI};

use approx::assert_relative_eq;
use mjcf_common::{joint, parse_ok};
use nalgebra::{Rotation3, UnitQuaternion, Vector3};

/// The rotation of the fixed body `b` (its joint's origin) in a one-body model.
fn body_rotation(compiler: &str, body_attrs: &str) -> Rotation3<f64> {
    let text = format!(
        r#"<mujoco>{compiler}<worldbody><body name="b" {body_attrs}><geom size="0.1"/></body></worldbody></mujoco>"#
    );
    let m = parse_ok(&text);
    joint(&m, "b_fixed").origin.rotation.to_rotation_matrix()
}

fn rx(a: f64) -> Rotation3<f64> {
    Rotation3::from_axis_angle(&Vector3::x_axis(), a)
}
fn ry(a: f64) -> Rotation3<f64> {
    Rotation3::from_axis_angle(&Vector3::y_axis(), a)
}
fn rz(a: f64) -> Rotation3<f64> {
    Rotation3::from_axis_angle(&Vector3::z_axis(), a)
}

fn close(a: &Rotation3<f64>, b: &Rotation3<f64>) {
    assert_relative_eq!(a.matrix(), b.matrix(), epsilon = 1e-14);
}

#[test]
fn euler_is_in_degrees_by_default_and_radians_on_request() {
    close(&body_rotation("", r#"euler="0 0 90""#), &rz(FRAC_PI_2));
    close(
        &body_rotation(
            r#"<compiler angle="radian"/>"#,
            r#"euler="0 0 1.5707963267948966""#,
        ),
        &rz(FRAC_PI_2),
    );
    // in radians, 90 is 90 rad
    close(
        &body_rotation(r#"<compiler angle="radian"/>"#, r#"euler="0 0 90""#),
        &rz(90.0),
    );
}

#[test]
fn eulerseq_lower_case_rotates_about_moving_axes_upper_case_about_fixed_ones() {
    let (a, b, c) = (30f64.to_radians(), 45f64.to_radians(), 60f64.to_radians());
    // default xyz: intrinsic, R = Rx(a) Ry(b) Rz(c)
    close(
        &body_rotation("", r#"euler="30 45 60""#),
        &(rx(a) * ry(b) * rz(c)),
    );
    // XYZ: extrinsic, R = Rz(c) Ry(b) Rx(a) — URDF's rpy (nalgebra's Euler angles)
    let xyz = body_rotation(r#"<compiler eulerseq="XYZ"/>"#, r#"euler="30 45 60""#);
    close(&xyz, &(rz(c) * ry(b) * rx(a)));
    close(&xyz, &Rotation3::from_euler_angles(a, b, c));
    // zyx intrinsic is ZYX... no: zyx intrinsic = Rz(a) Ry(b) Rx(c) = XYZ extrinsic of (c, b, a)
    close(
        &body_rotation(r#"<compiler eulerseq="zyx"/>"#, r#"euler="30 45 60""#),
        &(rz(a) * ry(b) * rx(c)),
    );
    // mixed: zXz → R = Rx(b) Rz(a) Rz(c)
    close(
        &body_rotation(r#"<compiler eulerseq="zXz"/>"#, r#"euler="30 45 60""#),
        &(rx(b) * rz(a) * rz(c)),
    );
}

#[test]
fn every_orientation_form_gives_the_same_quarter_turn() {
    let want = rz(FRAC_PI_2);
    close(&body_rotation("", r#"quat="1 0 0 1""#), &want); // normalised
    close(&body_rotation("", r#"axisangle="0 0 2 90""#), &want);
    close(
        &body_rotation(
            r#"<compiler angle="radian"/>"#,
            r#"axisangle="0 0 1 1.5707963267948966""#,
        ),
        &want,
    );
    close(&body_rotation("", r#"xyaxes="0 1 0 -1 0.3 0""#), &want); // y orthogonalised
    // zaxis: the shortest rotation taking z to the vector
    close(&body_rotation("", r#"zaxis="1 0 0""#), &ry(FRAC_PI_2));
    close(&body_rotation("", r#"zaxis="0 0 -1""#), &rx(PI));
    let diag = body_rotation("", r#"zaxis="0 1 1""#);
    assert_relative_eq!(
        diag * Vector3::z(),
        Vector3::new(0.0, 1.0, 1.0).normalize(),
        epsilon = 1e-15
    );
    assert_relative_eq!(diag * Vector3::x(), Vector3::x(), epsilon = 1e-15);
}

#[test]
fn hinge_angles_are_converted_slide_lengths_are_not() {
    let m = parse_ok(
        r#"<mujoco><worldbody><body name="b">
             <joint name="h" range="-90 45" ref="30" springref="10" stiffness="2"/>
             <joint name="s" type="slide" range="-0.5 0.25" ref="0.1" springref="0.2"/>
             <geom size="0.1"/></body></worldbody></mujoco>"#,
    );
    let h = joint(&m, "h");
    let l = h.limit.as_ref().unwrap();
    assert_relative_eq!(l.lower.unwrap(), -FRAC_PI_2, epsilon = 1e-15);
    assert_relative_eq!(l.upper.unwrap(), PI / 4.0, epsilon = 1e-15);
    assert_relative_eq!(h.dynamics.spring_ref, 10f64.to_radians(), epsilon = 1e-15);
    assert_relative_eq!(m.q0["h"][0], PI / 6.0, epsilon = 1e-15);
    let s = joint(&m, "s");
    assert_eq!(s.limit.as_ref().unwrap().lower, Some(-0.5));
    assert_eq!(s.dynamics.spring_ref, 0.2);
    assert_eq!(m.q0["s"], vec![0.1]);
}

#[test]
fn a_hinge_at_its_ref_leaves_the_body_where_the_file_puts_it() {
    let text = r#"<mujoco><worldbody><body name="b" pos="1 2 3" euler="10 20 30">
          <joint name="h" pos="0.1 0.2 0.3" axis="1 1 0" ref="40"/><geom size="0.1"/>
        </body></worldbody></mujoco>"#;
    let m = parse_ok(text);
    let at_ref = mjcf_common::world_poses(&m, &[])[0];
    let file = nalgebra::Isometry3::from_parts(
        nalgebra::Translation3::new(1.0, 2.0, 3.0),
        UnitQuaternion::from_rotation_matrix(
            &(rx(10f64.to_radians()) * ry(20f64.to_radians()) * rz(30f64.to_radians())),
        ),
    );
    assert_relative_eq!(
        at_ref.to_homogeneous(),
        file.to_homogeneous(),
        epsilon = 1e-14
    );
    // 10 degrees past ref: the body turned by 10° about the axis through the anchor
    let turned = mjcf_common::world_poses(&m, &[("h", vec![50f64.to_radians()])])[0];
    let rel = file.inverse() * turned;
    let axis = nalgebra::Unit::new_normalize(Vector3::new(1.0, 1.0, 0.0));
    assert_relative_eq!(
        rel.rotation.to_rotation_matrix().matrix(),
        Rotation3::from_axis_angle(&axis, 10f64.to_radians()).matrix(),
        epsilon = 1e-14
    );
    // the anchor does not move
    let anchor = nalgebra::Point3::new(0.1, 0.2, 0.3);
    assert_relative_eq!(rel * anchor, anchor, epsilon = 1e-14);
}
