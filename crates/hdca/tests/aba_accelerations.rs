//! The ABA front-end's accelerations equal those of an independent formulation, the
//! absolute-coordinate Lagrange equations of mbs-alf (Index1, no projection), at the
//! same consistent state: random trees with every joint kind the catalogue expresses in
//! joint coordinates, free-floating bodies, and a spatial chain under gravity with
//! spring–dampers. Also the refusals (closed loops, drivers).

#[path = "common/trees.rs"]
mod trees;

use std::sync::Arc;

use mbs_alf::{Formulation, Index1, MechanismDescriptor, Projection};
use mbs_hdca::{Aba, AbaError, AbaParams};
use mbs_kinematics::euler_params::{self, omega_dot_from_pddot};
use mbs_model::{
    BodyId, BodyRef, DriverKind, ForceElement, JointKind, Model, ModelBuilder, TimeFunction,
};
use nalgebra::{DVector, Matrix3, Vector3, Vector4};
use proptest::prelude::*;
use trees::{Rng, random_tree};

/// Max difference between ABA's and Lagrange's body accelerations (r̈ and global ω̇)
/// at the model's initial state, relative to the largest of them (at least 1).
fn compare(model: Model) -> f64 {
    let model = Arc::new(model);
    let nb = model.n_bodies();
    let mut aba = Aba::new(model.clone(), AbaParams::default()).unwrap();
    let y = aba.initial_state().unwrap();
    let mut dy = vec![0.0; y.len()];
    aba.derivative(0.0, &y, &mut dy).unwrap();
    let mut a6 = vec![0.0; 6 * nb];
    aba.body_accelerations(&mut a6);
    let desc = MechanismDescriptor::new(model.clone());
    let (q, v) = desc.initial();
    let mut lag = Index1::new(
        desc,
        Formulation::Lagrange {
            baumgarte: None,
            min_norm: false,
        },
        Projection::None,
    );
    let mut qdd = DVector::zeros(q.len());
    lag.accelerations(0.0, &q, &v, &mut qdd).unwrap();
    let (mut err, mut scale) = (0.0_f64, 1.0_f64);
    for b in 0..nb {
        let p = Vector4::new(q[7 * b + 3], q[7 * b + 4], q[7 * b + 5], q[7 * b + 6]);
        let pdd = Vector4::new(
            qdd[7 * b + 3],
            qdd[7 * b + 4],
            qdd[7 * b + 5],
            qdd[7 * b + 6],
        );
        let acc_l = Vector3::new(qdd[7 * b], qdd[7 * b + 1], qdd[7 * b + 2]);
        let alpha_l = omega_dot_from_pddot(&p, &pdd);
        let acc_a = Vector3::new(a6[6 * b], a6[6 * b + 1], a6[6 * b + 2]);
        let alpha_a =
            euler_params::rotation(&p) * Vector3::new(a6[6 * b + 3], a6[6 * b + 4], a6[6 * b + 5]);
        err = err
            .max((acc_a - acc_l).norm())
            .max((alpha_a - alpha_l).norm());
        scale = scale.max(acc_l.norm()).max(alpha_l.norm());
    }
    err / scale
}

const EVERY_KIND: [JointKind; 7] = [
    JointKind::Revolute,
    JointKind::Prismatic,
    JointKind::Planar,
    JointKind::Cylindrical,
    JointKind::Universal,
    JointKind::Spherical,
    JointKind::Rigid,
];

#[test]
fn fifteen_body_trees_of_every_kind_match_lagrange() {
    for seed in [1, 2, 3, 4, 5] {
        let model = random_tree(seed, 15, &EVERY_KIND, false);
        let e = compare(model);
        assert!(e < 1e-9, "seed {seed}: relative error {e:e}");
    }
}

#[test]
fn a_free_floating_body_matches_lagrange() {
    // n = 1 with `free`: one body without a joint, random pose and twist, gravity
    for seed in [1, 7] {
        let model = random_tree(seed, 1, &[JointKind::Revolute], true);
        assert!(model.joints().is_empty());
        let e = compare(model);
        assert!(e < 1e-9, "seed {seed}: relative error {e:e}");
    }
}

/// A spatial chain of five links on spherical joints under gravity, with a
/// spring–damper from a ground anchor to the tip and another between links 0 and 3,
/// launched with random consistent velocities.
fn sprung_chain() -> Model {
    let mut rng = Rng(11);
    let mut b = ModelBuilder::new("sprung-chain");
    b.gravity(Vector3::new(0.0, -9.81, 0.0));
    let mut point = Vector3::zeros();
    let mut prev: Option<(BodyId, Vector3<f64>, Vector3<f64>, Vector3<f64>)> = None;
    let mut ids = Vec::new();
    for k in 0..5 {
        let half = 0.5 * Vector3::new(1.0, 0.3 * (k as f64).sin(), 0.2).normalize();
        let r = point + half;
        let id = b.body(
            format!("link{k}"),
            1.0 + 0.1 * k as f64,
            Matrix3::from_diagonal(&Vector3::new(0.01, 0.08, 0.085)),
        );
        let e = euler_params::from_axis_angle(&rng.unit(), rng.u(-1.0, 1.0));
        b.set_initial_pose(id, r, e);
        let parent = prev.map_or(BodyRef::Ground, |p| BodyRef::Body(p.0));
        b.joint_at(
            format!("j{k}"),
            JointKind::Spherical,
            parent,
            BodyRef::Body(id),
            point,
            Vector3::z(),
        );
        let (pr, pv, pw) = prev.map_or(
            (Vector3::zeros(), Vector3::zeros(), Vector3::zeros()),
            |p| (p.1, p.2, p.3),
        );
        let w = pw + 0.8 * rng.unit();
        let v = pv + pw.cross(&(point - pr)) + w.cross(&(r - point));
        b.set_initial_velocity(id, v, w);
        prev = Some((id, r, v, w));
        ids.push((id, r));
        point = r + half;
    }
    let anchor = b.marker(
        "anchor",
        BodyRef::Ground,
        Vector3::new(1.5, 1.0, 0.3),
        Matrix3::identity(),
    );
    let (last, _) = ids[4];
    let tip = b.marker_at_global("tip", BodyRef::Body(last), point, Vector3::z(), None);
    let m0 = b.marker_at_global("m0", BodyRef::Body(ids[0].0), ids[0].1, Vector3::z(), None);
    let m3 = b.marker_at_global("m3", BodyRef::Body(ids[3].0), ids[3].1, Vector3::z(), None);
    for (name, i, j, k, c, l0) in [
        ("tip-spring", anchor, tip, 40.0, 1.5, 0.8),
        ("inner", m0, m3, 25.0, 3.0, 0.5),
    ] {
        b.force(ForceElement::SpringDamper {
            name: name.into(),
            marker_i: i,
            marker_j: j,
            stiffness: k,
            damping: c,
            free_length: l0,
            actuator: TimeFunction::default(),
        });
    }
    b.build().unwrap()
}

#[test]
fn a_chain_with_gravity_and_spring_dampers_matches_lagrange() {
    let e = compare(sprung_chain());
    assert!(e < 1e-9, "relative error {e:e}");
}

#[test]
fn trees_with_free_floating_components_match_lagrange() {
    for seed in [3, 8, 21] {
        let model = random_tree(seed, 9, &EVERY_KIND, true);
        let e = compare(model);
        assert!(e < 1e-9, "seed {seed}: relative error {e:e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Random trees of every kind, distance joints included, with free-floating
    /// components.
    #[test]
    fn random_trees_match_lagrange(seed in 0u64..1_000_000, n in 1usize..10) {
        let kinds = [JointKind::Revolute, JointKind::Prismatic, JointKind::Planar, JointKind::Cylindrical, JointKind::Universal, JointKind::Spherical, JointKind::Rigid, JointKind::Distance { length: 1.0 }];
        let e = compare(random_tree(seed, n, &kinds, true));
        prop_assert!(e < 1e-9, "relative error {:e}", e);
    }
}

#[test]
fn a_closed_loop_is_refused_naming_the_cut_joint() {
    let model = Arc::new(
        mbs_mechanisms::Mechanism::from_name("five-bar")
            .unwrap()
            .build()
            .unwrap(),
    );
    let cut = model.topology().cut_joints()[0];
    let name = model.joint(cut).name.clone();
    let e = Aba::new(model, AbaParams::default()).unwrap_err();
    assert!(
        matches!(&e, AbaError::ClosedLoop { joint, .. } if *joint == name),
        "{e}"
    );
    let text = e.to_string();
    assert!(
        text.contains(&name) && text.contains("hdca") && text.contains("alf-dca-proj"),
        "{text}"
    );
}

#[test]
fn a_driver_is_refused_naming_it() {
    let mut b = ModelBuilder::new("driven");
    let link = b.body("link", 1.0, Matrix3::from_diagonal_element(0.1));
    b.set_initial_pose(link, Vector3::new(0.5, 0.0, 0.0), euler_params::identity());
    let j = b.joint_at(
        "pivot",
        JointKind::Revolute,
        BodyRef::Ground,
        BodyRef::Body(link),
        Vector3::zeros(),
        Vector3::z(),
    );
    b.driver(
        "spin",
        DriverKind::JointAngle { joint: j },
        TimeFunction::default(),
    );
    let e = Aba::new(Arc::new(b.build().unwrap()), AbaParams::default()).unwrap_err();
    assert!(
        matches!(&e, AbaError::Driver { driver } if driver == "spin"),
        "{e}"
    );
}
