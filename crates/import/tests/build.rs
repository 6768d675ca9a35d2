//! The link graph → model builder, on graphs written by hand: poses and velocities
//! from joint values against closed forms, fixed links merged with the parallel-axis
//! theorem, massless frames folded into compound joints, loop closures, and every
//! refusal naming its element. A property test places random trees and checks that
//! every joint holds at the initial state, in position and velocity.

use std::collections::BTreeMap;

use mbs_import::{
    ClosureKind, GraphJoint, ImportError, ImportOptions, Inertial, JointDynamics, JointMotion,
    Link, LinkGraph, LinkRef, LoopClosure, build,
};
use mbs_kinematics::euler_params::rotation;
use mbs_model::{Body, BodyRef, JointKind, Model};
use nalgebra::{Isometry3, Matrix3, Translation3, Unit, UnitQuaternion, Vector3};
use proptest::prelude::*;

fn link(name: &str, mass: f64, com: Vector3<f64>) -> Link {
    Link {
        name: name.into(),
        inertial: (mass > 0.0).then(|| Inertial {
            mass,
            com,
            inertia: Matrix3::from_diagonal(&Vector3::new(0.01, 0.02, 0.03)) * mass,
        }),
        visuals: vec![],
    }
}

fn joint(
    name: &str,
    parent: LinkRef,
    child: usize,
    origin: Isometry3<f64>,
    motion: JointMotion,
) -> GraphJoint {
    GraphJoint {
        name: name.into(),
        parent,
        child,
        origin,
        motion,
        offset: Isometry3::identity(),
        dynamics: JointDynamics::default(),
        limit: None,
        mimic: None,
    }
}

fn hinge(axis: Vector3<f64>) -> JointMotion {
    JointMotion::Revolute {
        axis: Unit::new_normalize(axis),
    }
}

fn at(x: f64, y: f64, z: f64) -> Isometry3<f64> {
    Isometry3::translation(x, y, z)
}

fn graph(links: Vec<Link>, joints: Vec<GraphJoint>) -> LinkGraph {
    LinkGraph {
        name: "test".into(),
        gravity: Vector3::new(0.0, 0.0, -9.81),
        links,
        joints,
        closures: vec![],
        world_visuals: vec![],
        notes: vec![],
        q0: BTreeMap::new(),
    }
}

fn options(q0: &[(&str, Vec<f64>)], v0: &[(&str, Vec<f64>)]) -> ImportOptions {
    ImportOptions {
        q0: q0.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
        v0: v0.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
        ..ImportOptions::default()
    }
}

fn body<'a>(model: &'a Model, name: &str) -> &'a Body {
    model.body(
        model
            .body_by_name(name)
            .unwrap_or_else(|| panic!("no body {name}")),
    )
}

/// World position of a marker and its world axes at the initial state.
fn marker_world(model: &Model, id: mbs_model::MarkerId) -> (Vector3<f64>, Matrix3<f64>) {
    let m = model.marker(id);
    match m.body {
        BodyRef::Ground => (m.position, m.orientation),
        BodyRef::Body(b) => {
            let init = &model.body(b).initial;
            let r = rotation(&init.orientation);
            (init.position + r * m.position, r * m.orientation)
        }
    }
}

/// Velocity of the world point `x` moving with the marker's body, and its ω.
fn point_velocity(model: &Model, body: BodyRef, x: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
    match body {
        BodyRef::Ground => (Vector3::zeros(), Vector3::zeros()),
        BodyRef::Body(b) => {
            let init = &model.body(b).initial;
            (
                init.velocity + init.omega.cross(&(x - init.position)),
                init.omega,
            )
        }
    }
}

/// The angle from xᵢ to xⱼ about zᵢ of a joint's markers.
fn joint_angle(model: &Model, name: &str) -> f64 {
    let j = model.joint(model.joint_by_name(name).unwrap());
    let (_, ai) = marker_world(model, j.marker_i);
    let (_, aj) = marker_world(model, j.marker_j);
    let (xi, yi, xj) = (ai.column(0), ai.column(1), aj.column(0));
    xj.dot(&yi).atan2(xj.dot(&xi))
}

#[test]
fn double_pendulum_poses_velocities_and_joint_angles_follow_the_joint_values() {
    // two links hanging along −z from hinges about y, centres of mass at the link middle
    let g = graph(
        vec![
            link("upper", 1.0, Vector3::new(0.0, 0.0, -0.5)),
            link("lower", 2.0, Vector3::new(0.0, 0.0, -0.5)),
        ],
        vec![
            joint(
                "shoulder",
                LinkRef::World,
                0,
                at(0.0, 0.0, 2.0),
                hinge(Vector3::y()),
            ),
            joint(
                "elbow",
                LinkRef::Link(0),
                1,
                at(0.0, 0.0, -1.0),
                hinge(Vector3::y()),
            ),
        ],
    );
    let (q1, q2, w1, w2) = (0.3, -0.7, 1.1, -0.4);
    let imported = build(
        &g,
        &options(
            &[("shoulder", vec![q1]), ("elbow", vec![q2])],
            &[("shoulder", vec![w1]), ("elbow", vec![w2])],
        ),
    )
    .unwrap();
    let model = &imported.model;
    assert_eq!(model.n_bodies(), 2);
    // rotation by q about +y maps (0,0,−l) to (−l sin q, 0, −l cos q)
    let down = |l: f64, q: f64| Vector3::new(-l * q.sin(), 0.0, -l * q.cos());
    let c1 = Vector3::new(0.0, 0.0, 2.0) + down(0.5, q1);
    let elbow = Vector3::new(0.0, 0.0, 2.0) + down(1.0, q1);
    let c2 = elbow + down(0.5, q1 + q2);
    assert!((body(model, "upper").initial.position - c1).norm() < 1e-14);
    assert!((body(model, "lower").initial.position - c2).norm() < 1e-14);
    // velocities: ω about y; v = ω × r
    let om1 = Vector3::y() * w1;
    let om2 = Vector3::y() * (w1 + w2);
    let v1 = om1.cross(&(c1 - Vector3::new(0.0, 0.0, 2.0)));
    let v2 = om1.cross(&(elbow - Vector3::new(0.0, 0.0, 2.0))) + om2.cross(&(c2 - elbow));
    assert!((body(model, "upper").initial.omega - om1).norm() < 1e-14);
    assert!((body(model, "lower").initial.omega - om2).norm() < 1e-14);
    assert!((body(model, "upper").initial.velocity - v1).norm() < 1e-14);
    assert!((body(model, "lower").initial.velocity - v2).norm() < 1e-14);
    // mbs's joint angle equals the source's joint position
    assert!((joint_angle(model, "shoulder") - q1).abs() < 1e-14);
    assert!((joint_angle(model, "elbow") - q2).abs() < 1e-14);
    assert_eq!(model.joints().len(), 2);
    assert!(model.joints().iter().all(|j| j.kind == JointKind::Revolute));
    assert_eq!(
        imported.link_bodies[1],
        ("lower".to_string(), Some("lower".to_string()))
    );
}

#[test]
fn fixed_links_merge_with_the_parallel_axis_theorem() {
    // arm (1 kg at x = 0.5) with a tool (3 kg at x = 1.5, rotated 90° about z) welded on
    let turn = Isometry3::from_parts(
        Translation3::new(1.0, 0.0, 0.0),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_2),
    );
    let g = graph(
        vec![
            link("arm", 1.0, Vector3::new(0.5, 0.0, 0.0)),
            link("tool", 3.0, Vector3::new(0.5, 0.0, 0.0)),
        ],
        vec![
            joint(
                "hinge",
                LinkRef::World,
                0,
                Isometry3::identity(),
                hinge(Vector3::z()),
            ),
            joint("weld", LinkRef::Link(0), 1, turn, JointMotion::Fixed),
        ],
    );
    let imported = build(&g, &ImportOptions::default()).unwrap();
    let model = &imported.model;
    assert_eq!(model.n_bodies(), 1);
    let arm = body(model, "arm");
    assert!((arm.mass - 4.0).abs() < 1e-15);
    // tool's centre of mass: 1 + R_z(90°)(0.5, 0, 0) = (1, 0.5, 0)
    let com = (Vector3::new(0.5, 0.0, 0.0) * 1.0 + Vector3::new(1.0, 0.5, 0.0) * 3.0) / 4.0;
    assert!((arm.initial.position - com).norm() < 1e-14);
    // inertia about the combined centre of mass, by hand
    let own = |m: f64, r: Matrix3<f64>| {
        r * Matrix3::from_diagonal(&Vector3::new(0.01, 0.02, 0.03)) * m * r.transpose()
    };
    let shift =
        |m: f64, d: Vector3<f64>| (Matrix3::identity() * d.norm_squared() - d * d.transpose()) * m;
    let rz = *turn.rotation.to_rotation_matrix().matrix();
    let expected = own(1.0, Matrix3::identity())
        + shift(1.0, Vector3::new(0.5, 0.0, 0.0) - com)
        + own(3.0, rz)
        + shift(3.0, Vector3::new(1.0, 0.5, 0.0) - com);
    assert!(
        (arm.inertia - expected).norm() < 1e-14,
        "{} vs {expected}",
        arm.inertia
    );
    assert_eq!(imported.link_bodies[1].1.as_deref(), Some("arm"));
    // the link → body map is in the model, and survives its file form
    assert_eq!(arm.links, ["arm", "tool"]);
    let again = Model::from_json_str(&model.to_json_string()).unwrap();
    assert_eq!(&again, model);
}

#[test]
fn massless_frames_fold_into_universal_and_spherical_joints() {
    // hinge x then hinge y through one point: a universal joint
    let g = graph(
        vec![
            link("cross", 0.0, Vector3::zeros()),
            link("shaft", 1.0, Vector3::new(0.0, 0.0, -0.5)),
        ],
        vec![
            joint(
                "ux",
                LinkRef::World,
                0,
                at(0.0, 0.0, 1.0),
                hinge(Vector3::x()),
            ),
            joint(
                "uy",
                LinkRef::Link(0),
                1,
                Isometry3::identity(),
                hinge(Vector3::y()),
            ),
        ],
    );
    let imported = build(&g, &options(&[("ux", vec![0.2]), ("uy", vec![0.3])], &[])).unwrap();
    let model = &imported.model;
    assert_eq!(model.n_bodies(), 1);
    assert_eq!(model.joints().len(), 1);
    assert_eq!(model.joints()[0].kind, JointKind::Universal);
    assert_eq!(model.joints()[0].name, "ux+uy");
    let (pi, ai) = marker_world(model, model.joints()[0].marker_i);
    let (pj, aj) = marker_world(model, model.joints()[0].marker_j);
    assert!((pi - pj).norm() < 1e-14 && ai.column(2).dot(&aj.column(2)).abs() < 1e-14);
    assert!(
        imported
            .notes
            .iter()
            .any(|n| n.element.contains("cross") && n.note.contains("massless"))
    );
    assert_eq!(imported.link_bodies[0].1, None);

    // three hinges (two massless frames) through one point: a spherical joint
    let g = graph(
        vec![
            link("a", 0.0, Vector3::zeros()),
            link("b", 0.0, Vector3::zeros()),
            link("ball", 2.0, Vector3::new(0.3, 0.0, 0.0)),
        ],
        vec![
            joint(
                "rz",
                LinkRef::World,
                0,
                at(1.0, 0.0, 0.0),
                hinge(Vector3::z()),
            ),
            joint(
                "ry",
                LinkRef::Link(0),
                1,
                Isometry3::identity(),
                hinge(Vector3::y()),
            ),
            joint(
                "rx",
                LinkRef::Link(1),
                2,
                Isometry3::identity(),
                hinge(Vector3::x()),
            ),
        ],
    );
    let model = build(&g, &ImportOptions::default()).unwrap().model;
    assert_eq!(model.joints().len(), 1);
    assert_eq!(model.joints()[0].kind, JointKind::Spherical);

    // two hinges at 45°: no mbs kind; the message names the chain
    let g = graph(
        vec![
            link("cross", 0.0, Vector3::zeros()),
            link("shaft", 1.0, Vector3::new(0.0, 0.0, -0.5)),
        ],
        vec![
            joint(
                "ux",
                LinkRef::World,
                0,
                Isometry3::identity(),
                hinge(Vector3::x()),
            ),
            joint(
                "uy",
                LinkRef::Link(0),
                1,
                Isometry3::identity(),
                hinge(Vector3::new(1.0, 1.0, 0.0)),
            ),
        ],
    );
    let err = build(&g, &ImportOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("ux+uy") && err.contains("perpendicular"),
        "{err}"
    );
}

#[test]
fn a_floating_body_is_free_and_starts_with_the_given_state() {
    let g = graph(
        vec![link("base", 5.0, Vector3::new(0.1, 0.0, 0.0))],
        vec![joint(
            "root",
            LinkRef::World,
            0,
            Isometry3::identity(),
            JointMotion::Floating,
        )],
    );
    let half = std::f64::consts::FRAC_PI_4;
    let q = vec![1.0, 2.0, 3.0, half.cos(), 0.0, 0.0, half.sin()]; // 90° about z
    let v = vec![0.5, 0.0, 0.0, 0.0, 0.0, 2.0]; // ω in the body frame (about z)
    let model = build(&g, &options(&[("root", q)], &[("root", v)]))
        .unwrap()
        .model;
    assert!(model.joints().is_empty());
    let base = body(&model, "base");
    // centre of mass: (1,2,3) + R_z(90°)(0.1,0,0) = (1, 2.1, 3)
    assert!((base.initial.position - Vector3::new(1.0, 2.1, 3.0)).norm() < 1e-14);
    assert!((base.initial.omega - Vector3::new(0.0, 0.0, 2.0)).norm() < 1e-14);
    // v_com = v_origin + ω × (com − origin) = (0.5,0,0) + 2 ẑ × (0, 0.1, 0)
    assert!((base.initial.velocity - Vector3::new(0.3, 0.0, 0.0)).norm() < 1e-14);
}

#[test]
fn a_loop_closure_becomes_a_spherical_joint_at_the_anchor() {
    // two links from the world meeting at (1, 0, 0)
    let mut g = graph(
        vec![
            link("left", 1.0, Vector3::new(0.5, 0.0, 0.0)),
            link("right", 1.0, Vector3::new(-0.5, 0.0, 0.0)),
        ],
        vec![
            joint(
                "a",
                LinkRef::World,
                0,
                Isometry3::identity(),
                hinge(Vector3::z()),
            ),
            joint(
                "b",
                LinkRef::World,
                1,
                at(2.0, 0.0, 0.0),
                hinge(Vector3::z()),
            ),
        ],
    );
    g.closures.push(LoopClosure {
        name: "tip".into(),
        kind: ClosureKind::Point,
        link_a: LinkRef::Link(0),
        frame_a: at(1.0, 0.0, 0.0),
        link_b: LinkRef::Link(1),
        frame_b: at(-1.0, 0.0, 0.0),
    });
    let model = build(&g, &ImportOptions::default()).unwrap().model;
    let tip = model.joint(model.joint_by_name("tip").unwrap());
    assert_eq!(tip.kind, JointKind::Spherical);
    let (pi, _) = marker_world(&model, tip.marker_i);
    let (pj, _) = marker_world(&model, tip.marker_j);
    assert!((pi - Vector3::new(1.0, 0.0, 0.0)).norm() < 1e-14 && (pj - pi).norm() < 1e-14);
    assert_eq!(model.topology().cut_joints().len(), 1);
}

#[test]
fn refusals_name_the_element_and_the_value() {
    let pendulum = || {
        graph(
            vec![link("bob", 1.0, Vector3::new(0.0, 0.0, -1.0))],
            vec![joint(
                "pivot",
                LinkRef::World,
                0,
                Isometry3::identity(),
                hinge(Vector3::y()),
            )],
        )
    };
    let msg = |g: &LinkGraph, o: &ImportOptions| build(g, o).unwrap_err().to_string();
    assert!(msg(&pendulum(), &options(&[("pivit", vec![0.1])], &[])).contains("joint `pivit`"));
    let m = msg(&pendulum(), &options(&[("pivot", vec![0.1, 0.2])], &[]));
    assert!(m.contains("joint `pivot`") && m.contains("1 value"), "{m}");
    let m = msg(&pendulum(), &options(&[("pivot", vec![f64::NAN])], &[]));
    assert!(m.contains("finite"), "{m}");
    // a massless moving leaf
    let mut g = pendulum();
    g.links[0].inertial = None;
    let m = msg(&g, &ImportOptions::default());
    assert!(m.contains("link `bob`") && m.contains("no mass"), "{m}");
    // a flat inertia
    let mut g = pendulum();
    g.links[0].inertial.as_mut().unwrap().inertia =
        Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, 0.0));
    let m = msg(&g, &ImportOptions::default());
    assert!(
        m.contains("link `bob`") && m.contains("positive definite"),
        "{m}"
    );
    // duplicate names, two parents, cycles, dangling links
    let mut g = pendulum();
    g.links.push(link("bob", 1.0, Vector3::zeros()));
    g.joints.push(joint(
        "j2",
        LinkRef::Link(0),
        1,
        Isometry3::identity(),
        hinge(Vector3::y()),
    ));
    assert!(msg(&g, &ImportOptions::default()).contains("link `bob`"));
    let mut g = pendulum();
    g.links.push(link("other", 1.0, Vector3::zeros()));
    g.joints.push(joint(
        "other",
        LinkRef::World,
        1,
        Isometry3::identity(),
        hinge(Vector3::y()),
    ));
    g.joints.push(joint(
        "again",
        LinkRef::Link(1),
        0,
        at(1.0, 0.0, 0.0),
        hinge(Vector3::y()),
    ));
    let m = msg(&g, &ImportOptions::default());
    assert!(m.contains("two parents"), "{m}");
    let mut g = pendulum();
    g.links.push(link("c", 1.0, Vector3::zeros()));
    g.links.push(link("d", 1.0, Vector3::zeros()));
    g.joints.push(joint(
        "cd",
        LinkRef::Link(1),
        2,
        Isometry3::identity(),
        hinge(Vector3::y()),
    ));
    g.joints.push(joint(
        "dc",
        LinkRef::Link(2),
        1,
        Isometry3::identity(),
        hinge(Vector3::y()),
    ));
    assert!(msg(&g, &ImportOptions::default()).contains("cycle"));
    let mut g = pendulum();
    g.links.push(link("loose", 1.0, Vector3::zeros()));
    assert!(msg(&g, &ImportOptions::default()).contains("link `loose`"));
    assert!(matches!(
        build(&g, &ImportOptions::default()),
        Err(ImportError::Unsupported { .. })
    ));
}

/// A random tree: each link hangs from an earlier one (or the world) by a hinge, a
/// slide or a ball at a random offset, with random initial values.
fn random_tree() -> impl Strategy<Value = (LinkGraph, ImportOptions)> {
    let joint_spec = (
        0usize..100,
        0u8..3,
        prop::array::uniform3(-1.0f64..1.0),
        prop::array::uniform3(-1.0f64..1.0),
        prop::array::uniform4(-1.0f64..1.0),
        prop::array::uniform3(-2.0f64..2.0),
    );
    prop::collection::vec(joint_spec, 1..7).prop_map(|specs| {
        let mut links = Vec::new();
        let mut joints = Vec::new();
        let mut q0 = BTreeMap::new();
        let mut v0 = BTreeMap::new();
        for (c, (p, kind, off, axis, q, v)) in specs.into_iter().enumerate() {
            let name = format!("j{c}");
            links.push(link(
                &format!("l{c}"),
                1.0 + c as f64,
                Vector3::new(0.1, 0.2, -0.3),
            ));
            let parent = if c == 0 || p % (c + 1) == c {
                LinkRef::World
            } else {
                LinkRef::Link(p % c)
            };
            let axis = Vector3::from(axis) + Vector3::new(0.0, 0.0, 1.5);
            let (motion, qv, vv) = match kind {
                0 => (hinge(axis), vec![q[0] * 3.0], vec![v[0]]),
                1 => (
                    JointMotion::Prismatic {
                        axis: Unit::new_normalize(axis),
                    },
                    vec![q[0]],
                    vec![v[0]],
                ),
                _ => (
                    JointMotion::Ball,
                    vec![q[0] + 2.0, q[1], q[2], q[3]],
                    v.to_vec(),
                ),
            };
            let origin = Isometry3::from_parts(
                Translation3::from(Vector3::from(off)),
                UnitQuaternion::from_scaled_axis(Vector3::from(off) * 0.7),
            );
            joints.push(joint(&name, parent, c, origin, motion));
            q0.insert(name.clone(), qv);
            v0.insert(name, vv);
        }
        (
            graph(links, joints),
            ImportOptions {
                q0,
                v0,
                ..ImportOptions::default()
            },
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn every_joint_holds_in_position_and_velocity_at_the_initial_state((g, o) in random_tree()) {
        let model = build(&g, &o).unwrap().model;
        prop_assert_eq!(model.n_bodies(), g.links.len());
        for j in model.joints() {
            let (pi, ai) = marker_world(&model, j.marker_i);
            let (pj, aj) = marker_world(&model, j.marker_j);
            let bi = model.marker(j.marker_i).body;
            let bj = model.marker(j.marker_j).body;
            let (vi, wi) = point_velocity(&model, bi, &pj);
            let (vj, wj) = point_velocity(&model, bj, &pj);
            let (zi, zj) = (ai.column(2).into_owned(), aj.column(2).into_owned());
            match j.kind {
                JointKind::Revolute => {
                    prop_assert!((pi - pj).norm() < 1e-12);
                    prop_assert!(zi.cross(&zj).norm() < 1e-12);
                    prop_assert!((vi - vj).norm() < 1e-11);
                    prop_assert!((wj - wi).cross(&zi).norm() < 1e-11);
                }
                JointKind::Prismatic => {
                    prop_assert!((pj - pi).cross(&zi).norm() < 1e-12);
                    prop_assert!((ai - aj).norm() < 1e-12);
                    prop_assert!((wj - wi).norm() < 1e-11);
                    prop_assert!((vj - vi).cross(&zi).norm() < 1e-11);
                }
                JointKind::Spherical => {
                    prop_assert!((pi - pj).norm() < 1e-12);
                    prop_assert!((vi - vj).norm() < 1e-11);
                }
                ref k => prop_assert!(false, "unexpected kind {:?}", k),
            }
        }
    }
}
