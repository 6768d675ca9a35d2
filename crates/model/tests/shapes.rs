//! Shapes and densities: the inertia of every primitive against textbook formulas and
//! against a finite sum over a grid of points; a composite body against a hand
//! computation; `origin = "reference"`; JSON/TOML round trips; errors that name the
//! body, the shape and the value.

use std::f64::consts::PI;

use approx::assert_relative_eq;
use mbs_kinematics::euler_params::{from_axis_angle, rotation};
use mbs_model::of_shapes;
use mbs_model::{Body, Geometry, Model, ModelError, Shape};
use nalgebra::{Matrix3, Vector3};

const RHO: f64 = 2700.0;

fn one(shape: Shape) -> mbs_model::MassProperties {
    of_shapes("b", &[shape.with_density(RHO)], None).unwrap()
}

#[test]
fn box_matches_the_textbook() {
    // a × b × c box (full lengths): m = ρabc, Jxx = m(b² + c²)/12, …
    let (a, b, c) = (0.4, 0.1, 0.06);
    let mp = one(Shape::new(Geometry::Box {
        half_extents: Vector3::new(a, b, c) / 2.0,
    }));
    let m = RHO * a * b * c;
    assert_relative_eq!(mp.mass, m, max_relative = 1e-14);
    let j = Matrix3::from_diagonal(&Vector3::new(b * b + c * c, a * a + c * c, a * a + b * b))
        * (m / 12.0);
    assert_relative_eq!(mp.inertia_about_origin, j, max_relative = 1e-13);
}

#[test]
fn cylinder_matches_the_textbook() {
    let (r, l) = (0.05, 0.3);
    let mp = one(Shape::new(Geometry::Cylinder {
        radius: r,
        length: l,
    }));
    let m = RHO * PI * r * r * l;
    assert_relative_eq!(mp.mass, m, max_relative = 1e-14);
    let jt = m * (3.0 * r * r + l * l) / 12.0;
    let j = Matrix3::from_diagonal(&Vector3::new(jt, jt, m * r * r / 2.0));
    assert_relative_eq!(mp.inertia_about_origin, j, max_relative = 1e-13);
}

#[test]
fn sphere_matches_the_textbook() {
    let r = 0.07;
    let mp = one(Shape::new(Geometry::Sphere { radius: r }));
    let m = RHO * 4.0 / 3.0 * PI * r.powi(3);
    assert_relative_eq!(mp.mass, m, max_relative = 1e-14);
    assert_relative_eq!(
        mp.inertia_about_origin,
        Matrix3::from_diagonal_element(0.4 * m * r * r),
        max_relative = 1e-13
    );
}

#[test]
fn capsule_is_a_cylinder_plus_a_sphere_split_in_two() {
    // Hand computation with the hemisphere's centroid 3r/8 from its flat face:
    // J_hemi about its own centroid = (2/5 − 9/64) m_h r² (per transverse axis).
    let (r, l) = (0.04, 0.2);
    let mp = one(Shape::new(Geometry::Capsule {
        radius: r,
        length: l,
    }));
    let mc = RHO * PI * r * r * l;
    let mh = RHO * 2.0 / 3.0 * PI * r.powi(3);
    assert_relative_eq!(mp.mass, mc + 2.0 * mh, max_relative = 1e-14);
    let d = l / 2.0 + 3.0 * r / 8.0;
    let jt =
        mc * (3.0 * r * r + l * l) / 12.0 + 2.0 * ((0.4 - 9.0 / 64.0) * mh * r * r + mh * d * d);
    let jz = mc * r * r / 2.0 + 2.0 * 0.4 * mh * r * r;
    let j = Matrix3::from_diagonal(&Vector3::new(jt, jt, jz));
    assert_relative_eq!(mp.inertia_about_origin, j, max_relative = 1e-12);
}

/// Whether the point `x` (shape frame) is inside `g`.
fn inside(g: &Geometry, x: &Vector3<f64>) -> bool {
    match *g {
        Geometry::Box { half_extents: h } => {
            x.x.abs() <= h.x && x.y.abs() <= h.y && x.z.abs() <= h.z
        }
        Geometry::Cylinder { radius, length } => {
            x.x * x.x + x.y * x.y <= radius * radius && x.z.abs() <= length / 2.0
        }
        Geometry::Sphere { radius } => x.norm_squared() <= radius * radius,
        Geometry::Capsule { radius, length } => {
            let z = x.z.clamp(-length / 2.0, length / 2.0);
            (x - Vector3::new(0.0, 0.0, z)).norm_squared() <= radius * radius
        }
        Geometry::Mesh { .. } => false,
    }
}

/// Mass, first moment and inertia about the body origin by a midpoint sum over an
/// n³ grid on each shape's bounding box (independent of the closed-form formulas).
fn grid_sum(shapes: &[Shape], n: usize) -> (f64, Vector3<f64>, Matrix3<f64>) {
    let (mut m, mut s, mut j) = (0.0, Vector3::zeros(), Matrix3::zeros());
    for sh in shapes {
        let h = sh.geometry.half_extents();
        let cell = 2.0 * h / n as f64;
        let dm = sh.density.unwrap() * cell.x * cell.y * cell.z;
        let r = rotation(&sh.orientation);
        for i in 0..n {
            for k in 0..n {
                for l in 0..n {
                    let local = Vector3::new(
                        -h.x + (i as f64 + 0.5) * cell.x,
                        -h.y + (k as f64 + 0.5) * cell.y,
                        -h.z + (l as f64 + 0.5) * cell.z,
                    );
                    if !inside(&sh.geometry, &local) {
                        continue;
                    }
                    let p = sh.position + r * local;
                    m += dm;
                    s += dm * p;
                    j += dm * (Matrix3::identity() * p.norm_squared() - p * p.transpose());
                }
            }
        }
    }
    (m, s, j)
}

#[test]
fn every_primitive_offset_and_turned_agrees_with_a_grid_sum() {
    let turn = from_axis_angle(&Vector3::new(1.0, 2.0, -0.5), 0.7);
    let offset = Vector3::new(0.3, -0.2, 0.1);
    for g in [
        Geometry::Box {
            half_extents: Vector3::new(0.2, 0.05, 0.03),
        },
        Geometry::Cylinder {
            radius: 0.05,
            length: 0.3,
        },
        Geometry::Sphere { radius: 0.08 },
        Geometry::Capsule {
            radius: 0.04,
            length: 0.2,
        },
    ] {
        let kind = g.kind();
        let shape = Shape::new(g).at(offset).oriented(turn).with_density(RHO);
        let mp = of_shapes("b", std::slice::from_ref(&shape), None).unwrap();
        let (m, s, j) = grid_sum(&[shape], 160);
        assert_relative_eq!(mp.mass, m, max_relative = 1e-2);
        assert!(
            (mp.centre_of_mass - s / m).norm() < 1e-3 * offset.norm(),
            "{kind}"
        );
        // inertia about the origin: centroidal + parallel-axis part, both checked here
        let err = (mp.inertia_about_origin - j).abs().max() / j.abs().max();
        assert!(err < 1.5e-2, "{kind}: relative inertia error {err:e}");
    }
}

#[test]
fn a_dumbbell_against_a_hand_computation() {
    // Two spheres (radius r, centres at ±d on x) on a rod (radius a, length 2d) along x.
    let (r, d, a) = (0.05, 0.25, 0.01);
    let rod_axis = from_axis_angle(&Vector3::y(), PI / 2.0); // shape z → body x
    let shapes = vec![
        Shape::new(Geometry::Sphere { radius: r }).at(Vector3::new(d, 0.0, 0.0)),
        Shape::new(Geometry::Sphere { radius: r }).at(Vector3::new(-d, 0.0, 0.0)),
        Shape::new(Geometry::Cylinder {
            radius: a,
            length: 2.0 * d,
        })
        .oriented(rod_axis),
    ];
    let body = Body::from_shapes("dumbbell", shapes, Some(RHO)).unwrap();
    let ms = RHO * 4.0 / 3.0 * PI * r.powi(3);
    let mr = RHO * PI * a * a * 2.0 * d;
    assert_relative_eq!(body.mass, 2.0 * ms + mr, max_relative = 1e-14);
    let jx = 2.0 * 0.4 * ms * r * r + mr * a * a / 2.0;
    let jy = 2.0 * (0.4 * ms * r * r + ms * d * d) + mr * (3.0 * a * a + 4.0 * d * d) / 12.0;
    let expected = Matrix3::from_diagonal(&Vector3::new(jx, jy, jy));
    assert!(
        (body.inertia - expected).abs().max() < 1e-12 * jy,
        "{}",
        body.inertia
    );
}

const CRANK: &str = r##"
name = "crank"
gravity = [0.0, -9.81, 0.0]

# A crank of steel: a bar from the pivot (the file origin) to x = 0.2 and a counterweight
# at x = -0.05; its centre of mass is computed and the body frame moved there.
[[bodies]]
name = "crank"
density = 7850.0
origin = "reference"
position = [1.0, 2.0, 0.0]
orientation = { axis = [0.0, 0.0, 1.0], angle = 0.5 }
omega = [0.0, 0.0, 3.0]

[[bodies.shapes]]
type = "box"
size = [0.2, 0.02, 0.01]
position = [0.1, 0.0, 0.0]
color = "#C04030"

[[bodies.shapes]]
type = "cylinder"
radius = 0.03
length = 0.01
position = [-0.05, 0.0, 0.0]
density = 11340.0

[[markers]]
name = "pivot.ground"
body = "ground"
position = [1.0, 2.0, 0.0]

[[markers]]
name = "pivot.crank"
body = "crank"

[[joints]]
type = "revolute"
name = "pivot"
marker_i = "pivot.ground"
marker_j = "pivot.crank"
"##;

#[test]
fn reference_origin_moves_the_body_frame_to_the_centre_of_mass() {
    let model = Model::from_toml_str(CRANK).unwrap();
    let b = &model.bodies()[0];
    let (m_bar, m_cw) = (
        7850.0 * 0.2 * 0.02 * 0.01,
        11340.0 * PI * 0.03 * 0.03 * 0.01,
    );
    let c = Vector3::new((m_bar * 0.1 - m_cw * 0.05) / (m_bar + m_cw), 0.0, 0.0);
    assert_relative_eq!(b.mass, m_bar + m_cw, max_relative = 1e-14);
    // the pivot marker is now at −c, the shapes shifted alike
    let pivot = &model.markers()[1];
    assert!((pivot.position + c).norm() < 1e-15, "{}", pivot.position);
    assert!((b.shapes[0].position - (Vector3::new(0.1, 0.0, 0.0) - c)).norm() < 1e-15);
    // the centre of mass in global coordinates, and its velocity ω × (A c)
    let ac = rotation(&b.initial.orientation) * c;
    assert!((b.initial.position - (Vector3::new(1.0, 2.0, 0.0) + ac)).norm() < 1e-15);
    assert!((b.initial.velocity - Vector3::new(0.0, 0.0, 3.0).cross(&ac)).norm() < 1e-14);
    assert_eq!(b.shapes[0].color, Some([0xc0, 0x40, 0x30]));
    // the inertia about the centre of mass equals the grid sum about it
    let shapes: Vec<Shape> = b
        .shapes
        .iter()
        .cloned()
        .map(|s| {
            let rho = s.density.unwrap_or(7850.0);
            s.with_density(rho)
        })
        .collect();
    let (m, s, j) = grid_sum(&shapes, 120);
    assert!(
        (s / m).norm() < 2e-3 * c.norm(),
        "centre of mass at {}",
        s / m
    );
    let err = (b.inertia - j).abs().max() / j.abs().max();
    assert!(err < 2e-2, "relative inertia error {err:e}");
}

#[test]
fn shapes_round_trip_through_json_and_toml() {
    let model = Model::from_toml_str(CRANK).unwrap();
    let json = model.to_json_string();
    assert!(
        json.contains("\"density\"") && !json.contains("\"mass\""),
        "{json}"
    );
    assert_eq!(Model::from_json_str(&json).unwrap(), model, "{json}");
    let toml = model.to_toml_string();
    assert_eq!(Model::from_toml_str(&toml).unwrap(), model, "{toml}");
    // explicit mass with drawn shapes keeps its numbers and its shapes
    let visual = CRANK
        .replace(
            "density = 7850.0\norigin = \"reference\"",
            "mass = 2.0\ninertia = [0.001, 0.002, 0.003]",
        )
        .replace("density = 11340.0\n", "axis = [1.0, 1.0, 0.0]\n");
    let model = Model::from_toml_str(&visual).unwrap();
    assert_eq!(model.bodies()[0].mass, 2.0);
    assert_eq!(model.bodies()[0].shapes.len(), 2);
    let z = rotation(&model.bodies()[0].shapes[1].orientation)
        .column(2)
        .into_owned();
    assert!((z - Vector3::new(1.0, 1.0, 0.0) / 2f64.sqrt()).norm() < 1e-15);
    assert_eq!(
        Model::from_json_str(&model.to_json_string()).unwrap(),
        model
    );
    assert_eq!(
        Model::from_toml_str(&model.to_toml_string()).unwrap(),
        model
    );
}

/// The error of `text`, after checking its message contains every needle.
fn error_of(text: &str, needles: &[&str]) -> ModelError {
    let err = Model::from_toml_str(text).expect_err("must be rejected");
    let msg = err.to_string();
    for n in needles {
        assert!(msg.contains(n), "{msg:?} does not contain {n:?}");
    }
    err
}

#[test]
fn bad_shapes_are_named_errors() {
    let sub = |from: &str, to: &str| {
        assert!(CRANK.contains(from), "{from}");
        CRANK.replacen(from, to, 1)
    };
    error_of(
        &sub("radius = 0.03", "radius = -0.03"),
        &["body `crank` shape 2 (cylinder)", "radius", "-0.03"],
    );
    error_of(
        &sub("density = 11340.0", "density = 0.0"),
        &["body `crank` shape 2", "density", "got 0"],
    );
    error_of(
        &sub("density = 7850.0\n", "density = -1.0\n"),
        &["body `crank`", "density", "-1"],
    );
    error_of(
        &sub("density = 7850.0\n", ""),
        &["body `crank` shape 1 (box)", "no density"],
    );
    error_of(
        &sub(
            "density = 7850.0\n",
            "mass = 1.0\ninertia = [1.0, 1.0, 1.0]\ndensity = 1.0\n",
        ),
        &["body `crank`", "give one or the other"],
    );
    error_of(
        &sub("density = 7850.0\n", "mass = 1.0\n"),
        &["body `crank`", "both `mass` and `inertia`"],
    );
    error_of(
        &sub("color = \"#C04030\"", "color = \"red\""),
        &["body `crank` shape 1 (box)", "#rrggbb", "red"],
    );
    error_of(
        &sub(
            "size = [0.2, 0.02, 0.01]",
            "size = [0.2, 0.02, 0.01]\nradius = 1.0",
        ),
        &["shape 1 (box)", "a box has no `radius`"],
    );
    error_of(
        &sub(
            "length = 0.01",
            "length = 0.01\norientation = [1.0, 0.0, 0.0, 0.0]\naxis = [0.0, 0.0, 1.0]",
        ),
        &["shape 2", "`axis` or `orientation`"],
    );
    error_of(
        &sub(
            "size = [0.2, 0.02, 0.01]",
            "half_extents = [0.1, 0.0, 0.01]",
        ),
        &["shape 1 (box)", "half_extents", "got 0"],
    );
    error_of(
        &sub(
            "type = \"cylinder\"\nradius = 0.03",
            "type = \"sphere\"\nradius = 0.03",
        ),
        &["shape 2 (sphere)", "a sphere has no `length`"],
    );
    error_of(
        &sub(
            "orientation = { axis = [0.0, 0.0, 1.0], angle = 0.5 }",
            "orientation = [1.0, 0.0, 0.0, 0.0]\ncentre_of_mass = [0.0, 0.0, 0.0]",
        ),
        &["body `crank`", "`centre_of_mass` is computed"],
    );
    // without `origin = "reference"` the off-centre shapes are reported with the shift
    let err = error_of(
        &sub("origin = \"reference\"\n", ""),
        &[
            "body `crank`",
            "centre of mass of its shapes",
            "origin = \"reference\"",
        ],
    );
    assert!(matches!(err, ModelError::Unsupported { .. }));
    // neither mass nor density, no shapes
    let bare = "[[bodies]]\nname = \"lump\"\n";
    error_of(
        bare,
        &[
            "body `lump`",
            "neither `mass` and `inertia` nor shapes with a `density`",
        ],
    );
    error_of(
        "[[bodies]]\nname = \"lump\"\ndensity = 1000.0\n",
        &["body `lump`", "no shapes"],
    );
}

#[test]
fn builder_bodies_with_densities_must_match_their_shapes() {
    let shape = Shape::new(Geometry::Sphere { radius: 0.1 }).with_density(1000.0);
    let mut body = Body::from_shapes("ball", vec![shape], None).unwrap();
    let mut b = mbs_model::ModelBuilder::new("ball");
    b.add_body(body.clone());
    b.build().unwrap();
    body.mass *= 2.0;
    let mut b = mbs_model::ModelBuilder::new("ball");
    b.add_body(body);
    let err = b.build().unwrap_err().to_string();
    assert!(
        err.contains("body `ball`") && err.contains("differ from those of its shapes"),
        "{err}"
    );
}

#[test]
fn explicit_origin_reference_needs_a_centre_of_mass() {
    let text = CRANK
        .replace(
            "density = 7850.0\n",
            "mass = 1.0\ninertia = [0.1, 0.1, 0.1]\n",
        )
        .replace("density = 11340.0\n", "");
    error_of(&text, &["body `crank`", "needs `centre_of_mass`"]);
    let with_c = text.replace(
        "origin = \"reference\"\n",
        "origin = \"reference\"\ncentre_of_mass = [0.05, 0.0, 0.0]\n",
    );
    let model = Model::from_toml_str(&with_c).unwrap();
    assert!((model.markers()[1].position - Vector3::new(-0.05, 0.0, 0.0)).norm() < 1e-15);
}

#[test]
fn the_example_with_shapes_loads_and_round_trips() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/models/pendulum_with_shapes.toml");
    let model = Model::load(&path).unwrap();
    let arm = &model.bodies()[0];
    // bar + two pins of steel
    let pins = 2.0 * 7850.0 * PI * 0.012 * 0.012 * 0.05;
    assert_relative_eq!(
        arm.mass,
        7850.0 * 0.5 * 0.04 * 0.02 + pins,
        max_relative = 1e-14
    );
    // the bob's frame moved to the centre of mass of rod and sphere, on the x axis
    let (m_rod, m_ball) = (
        2700.0 * PI * 0.008 * 0.008 * 0.4,
        8500.0 * 4.0 / 3.0 * PI * 0.05f64.powi(3),
    );
    let c = (m_rod * 0.2 + m_ball * 0.4) / (m_rod + m_ball);
    let bob = &model.bodies()[1];
    assert_relative_eq!(bob.initial.position.x, 0.5 + c, max_relative = 1e-14);
    let pivot = model.marker(model.marker_by_name("A.bob").unwrap());
    assert_relative_eq!(pivot.position.x, -c, max_relative = 1e-14);
    assert_eq!(
        Model::from_json_str(&model.to_json_string()).unwrap(),
        model
    );
    assert_eq!(
        Model::from_toml_str(&model.to_toml_string()).unwrap(),
        model
    );
}
