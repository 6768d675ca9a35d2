//! Body mass properties from geoms, as MuJoCo's compiler computes them (MuJoCo XML
//! reference, `compiler/inertiafromgeom`, `geom/density`, `geom/mass`), checked against
//! textbook formulas written out here; explicit `<inertial>` in body axes; the compiler
//! switches; mesh geoms without `<inertial>` refused by name.

mod mjcf_common;

use std::f64::consts::PI;

use approx::assert_relative_eq;
use mbs_import::Inertial;
use mjcf_common::{error_of, link, parse_data, parse_ok};
use nalgebra::{Matrix3, Rotation3, Vector3};

fn inertial(body: &str) -> Inertial {
    let m = parse_data("primitives.xml");
    link(&m, body).inertial.clone().unwrap()
}

fn check(i: &Inertial, mass: f64, com: Vector3<f64>, inertia: Matrix3<f64>) {
    assert_relative_eq!(i.mass, mass, max_relative = 1e-14);
    assert_relative_eq!(i.com, com, epsilon = 1e-15);
    assert_relative_eq!(i.inertia, inertia, epsilon = 1e-14 * inertia.norm());
}

#[test]
fn sphere() {
    let m = 1000.0 * 4.0 / 3.0 * PI * 0.1f64.powi(3);
    let i = 2.0 / 5.0 * m * 0.01;
    check(
        &inertial("sphere"),
        m,
        Vector3::new(0.1, 0.2, 0.3),
        Matrix3::from_diagonal_element(i),
    );
}

#[test]
fn box_turned_a_quarter_about_z() {
    let m = 1000.0 * 0.2 * 0.4 * 0.6;
    let (x, y, z) = (0.2f64, 0.4f64, 0.6f64); // full sides
    let own = Vector3::new(
        m * (y * y + z * z) / 12.0,
        m * (x * x + z * z) / 12.0,
        m * (x * x + y * y) / 12.0,
    );
    // turned: the box's x is the body's y
    check(
        &inertial("box"),
        m,
        Vector3::zeros(),
        Matrix3::from_diagonal(&Vector3::new(own.y, own.x, own.z)),
    );
}

#[test]
fn cylinder_along_x() {
    let (r, l) = (0.1f64, 0.4f64);
    let m = 1000.0 * PI * r * r * l;
    let axial = m * r * r / 2.0;
    let transverse = m * (3.0 * r * r + l * l) / 12.0;
    check(
        &inertial("cylinder"),
        m,
        Vector3::zeros(),
        Matrix3::from_diagonal(&Vector3::new(axial, transverse, transverse)),
    );
}

#[test]
fn ellipsoid() {
    let (a, b, c) = (0.1f64, 0.2f64, 0.3f64);
    let m = 1000.0 * 4.0 / 3.0 * PI * a * b * c;
    let d = Vector3::new(b * b + c * c, a * a + c * c, a * a + b * b) * (m / 5.0);
    check(
        &inertial("ellipsoid"),
        m,
        Vector3::zeros(),
        Matrix3::from_diagonal(&d),
    );
}

/// A capsule as a cylinder plus two hemispheres: a solid hemisphere of mass mₕ and
/// radius r has its centroid 3r/8 from the flat face and 83/320·mₕr² about a transverse
/// axis through the centroid, 2/5·mₕr² about its axis.
fn capsule_moments(r: f64, l: f64) -> (f64, Vector3<f64>) {
    let mc = 1000.0 * PI * r * r * l;
    let mh = 1000.0 * 2.0 / 3.0 * PI * r.powi(3);
    let d = l / 2.0 + 3.0 * r / 8.0;
    let transverse =
        mc * (3.0 * r * r + l * l) / 12.0 + 2.0 * (83.0 / 320.0 * mh * r * r + mh * d * d);
    let axial = mc * r * r / 2.0 + 2.0 * (2.0 / 5.0 * mh * r * r);
    (mc + 2.0 * mh, Vector3::new(transverse, transverse, axial))
}

#[test]
fn capsule() {
    let (m, d) = capsule_moments(0.1, 0.4);
    check(
        &inertial("capsule"),
        m,
        Vector3::zeros(),
        Matrix3::from_diagonal(&d),
    );
}

#[test]
fn capsule_from_to_lies_between_its_points() {
    let (m, d) = capsule_moments(0.1, 0.4);
    check(
        &inertial("capsule_fromto"),
        m,
        Vector3::new(0.2, 0.0, 0.0),
        Matrix3::from_diagonal(&Vector3::new(d.z, d.x, d.y)),
    );
    let model = parse_data("primitives.xml");
    let v = &link(&model, "capsule_fromto").visuals[0];
    assert_eq!(
        v.geometry,
        mbs_import::VisualGeometry::Capsule {
            radius: 0.1,
            length: 0.4
        }
    );
    assert_relative_eq!(
        v.origin.rotation * Vector3::z(),
        Vector3::x(),
        epsilon = 1e-15
    );
}

#[test]
fn mass_attribute_overrides_density() {
    let m = 3.0;
    let d = Vector3::new(0.16 + 0.36, 0.04 + 0.36, 0.04 + 0.16) * (m / 12.0);
    check(
        &inertial("massive_box"),
        m,
        Vector3::zeros(),
        Matrix3::from_diagonal(&d),
    );
}

#[test]
fn several_geoms_add_about_their_common_centre_of_mass() {
    // masses 1 at x = −0.5 and 3 at x = 0.5: centre at 0.25, distances 0.75 and 0.25
    let own = |m: f64| 0.4 * m * 0.05 * 0.05;
    let transfer = 1.0 * 0.75 * 0.75 + 3.0 * 0.25 * 0.25;
    let d = Vector3::new(
        own(1.0) + own(3.0),
        own(1.0) + own(3.0) + transfer,
        own(1.0) + own(3.0) + transfer,
    );
    check(
        &inertial("dumbbell"),
        4.0,
        Vector3::new(0.25, 0.0, 0.0),
        Matrix3::from_diagonal(&d),
    );
}

#[test]
fn explicit_inertial_is_rotated_into_body_axes() {
    let m = parse_ok(
        r#"<mujoco><worldbody>
          <body name="d"><joint/><inertial pos="1 2 3" mass="2" diaginertia="1 2 3" euler="0 0 90"/></body>
          <body name="f"><joint/><inertial pos="0 0 0" mass="2" fullinertia="1 2 3 0.1 0.2 0.3"/><geom size="5"/></body>
          <body name="z"><inertial pos="0 0 0" mass="0" diaginertia="0 0 0"/></body>
        </worldbody></mujoco>"#,
    );
    let d = link(&m, "d").inertial.clone().unwrap();
    let r = Rotation3::from_axis_angle(&Vector3::z_axis(), PI / 2.0);
    let want =
        r.matrix() * Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0)) * r.matrix().transpose();
    check(&d, 2.0, Vector3::new(1.0, 2.0, 3.0), want);
    assert_relative_eq!(d.inertia[(0, 0)], 2.0, epsilon = 1e-14);
    // fullinertia: ixx iyy izz ixy ixz iyz; the geom gives no mass (auto)
    let f = link(&m, "f").inertial.clone().unwrap();
    check(
        &f,
        2.0,
        Vector3::zeros(),
        Matrix3::new(1.0, 0.1, 0.2, 0.1, 2.0, 0.3, 0.2, 0.3, 3.0),
    );
    assert!(link(&m, "z").inertial.is_none());
}

#[test]
fn inertiafromgeom_and_group_range_choose_the_source() {
    let body = r#"<worldbody><body name="b"><joint/><inertial pos="0 0 0" mass="9" diaginertia="1 1 1"/>
        <geom size="0.1" mass="2"/><geom size="0.1" mass="5" group="4"/></body>
        <body name="n"><joint/><geom size="0.1" mass="2"/></body></worldbody>"#;
    let m = parse_ok(&format!("<mujoco>{body}</mujoco>"));
    assert_eq!(link(&m, "b").inertial.as_ref().unwrap().mass, 9.0);
    assert_eq!(link(&m, "n").inertial.as_ref().unwrap().mass, 2.0);
    let m = parse_ok(&format!(
        r#"<mujoco><compiler inertiafromgeom="true"/>{body}</mujoco>"#
    ));
    assert_eq!(link(&m, "b").inertial.as_ref().unwrap().mass, 2.0 + 5.0);
    let m = parse_ok(&format!(
        r#"<mujoco><compiler inertiafromgeom="true" inertiagrouprange="0 3"/>{body}</mujoco>"#
    ));
    assert_eq!(link(&m, "b").inertial.as_ref().unwrap().mass, 2.0);
    let m = parse_ok(&format!(
        r#"<mujoco><compiler inertiafromgeom="false"/>{body}</mujoco>"#
    ));
    assert!(link(&m, "n").inertial.is_none());
}

#[test]
fn settotalmass_scales_every_body() {
    let m = parse_ok(
        r#"<mujoco><compiler settotalmass="10"/><worldbody>
          <body name="a"><joint/><geom size="0.1" mass="1"/></body>
          <body name="b"><joint/><geom size="0.1" mass="4"/></body></worldbody></mujoco>"#,
    );
    assert_relative_eq!(
        link(&m, "a").inertial.as_ref().unwrap().mass,
        2.0,
        epsilon = 1e-14
    );
    assert_relative_eq!(
        link(&m, "b").inertial.as_ref().unwrap().mass,
        8.0,
        epsilon = 1e-14
    );
}

#[test]
fn a_mesh_geom_without_inertial_is_refused_by_name() {
    let asset = r#"<asset><mesh name="hull" file="hull.stl"/></asset>"#;
    let e = error_of(&format!(
        r#"<mujoco>{asset}<worldbody><body name="boat"><joint/><geom name="hullgeom" type="mesh" mesh="hull"/></body></worldbody></mujoco>"#
    ));
    assert!(
        e.contains("geom `hullgeom`") && e.contains("mesh `hull`") && e.contains("<inertial>"),
        "{e}"
    );
    // with an inertial the mesh is only drawn
    let m = parse_ok(&format!(
        r#"<mujoco>{asset}<worldbody><body name="boat"><joint/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
        <geom type="mesh" mesh="hull"/></body></worldbody></mujoco>"#
    ));
    match &link(&m, "boat").visuals[0].geometry {
        mbs_import::VisualGeometry::Mesh { uri, path, .. } => {
            assert_eq!(uri, "hull.stl");
            assert!(path.is_none());
        }
        other => panic!("{other:?}"),
    }
}
