//! The sparse rank computation of `mobility` (elimination of bodies) against the
//! dense reference `mobility_dense` (singular values and Gram–Schmidt of the dense
//! Φ_q) on random chains, trees and mechanisms with loops — planar ones, whose
//! loops make rows redundant, spatial ones, and repeated joints — and its storage
//! on long chains, trees and ladders of loops.

mod common;

use common::Draw;
use mbs_constraints::{SystemLayout, mobility_dense, mobility_limited, mobility_with};
use mbs_model::{BodyRef, JointKind, Layout, Model, ModelBuilder, State};
use nalgebra::{Matrix3, Vector3};
use proptest::prelude::*;

const TOL: f64 = 1e-9;

const KINDS: [JointKind; 6] = [
    JointKind::Spherical,
    JointKind::Universal,
    JointKind::Revolute,
    JointKind::Cylindrical,
    JointKind::Prismatic,
    JointKind::Rigid,
];

/// A random mechanism: `n` bodies, each joined to ground or an earlier body (a
/// tree), then `closures` joints between random pairs (loops), the last of them
/// repeated when `repeat`. Planar: every joint a revolute or prismatic about z at
/// a point of the plane z = 0; spatial: any lower pair, axes at random.
fn random_model(d: &mut Draw, n: usize, closures: usize, planar: bool, repeat: bool) -> Model {
    let mut b = ModelBuilder::new("random");
    let ids: Vec<_> = (0..n)
        .map(|k| {
            let id = b.body(format!("b{k}"), 1.0, Matrix3::identity());
            let mut r = d.vec3(2.0);
            let p = if planar {
                r.z = 0.0;
                mbs_kinematics::euler_params::from_rotation_vector(&Vector3::new(
                    0.0,
                    0.0,
                    d.range(-3.0, 3.0),
                ))
            } else {
                d.quat()
            };
            b.set_initial_pose(id, r, p);
            id
        })
        .collect();
    let body = |k: usize| {
        if k == 0 {
            BodyRef::Ground
        } else {
            BodyRef::Body(ids[k - 1])
        }
    };
    let joint = |b: &mut ModelBuilder, d: &mut Draw, name: String, i: usize, j: usize| {
        let (kind, point, axis) = if planar {
            let kind = if d.next() > -0.5 {
                JointKind::Revolute
            } else {
                JointKind::Prismatic
            };
            let mut p = d.vec3(2.0);
            p.z = 0.0;
            (kind, p, Vector3::z())
        } else {
            let axis = d.vec3(1.0) + Vector3::new(0.0, 0.0, 0.05);
            (KINDS[d.choose(KINDS.len())].clone(), d.vec3(2.0), axis)
        };
        b.joint_at(name, kind, body(i), body(j), point, axis);
    };
    for k in 1..=n {
        let parent = d.choose(k);
        joint(&mut b, d, format!("tree{k}"), parent, k);
    }
    let mut last = None;
    for c in 0..closures {
        let i = d.choose(n + 1);
        let j = (i + 1 + d.choose(n)) % (n + 1);
        joint(&mut b, d, format!("loop{c}"), i, j);
        last = Some((i, j));
    }
    if repeat && let Some((i, j)) = last {
        joint(&mut b, d, "repeated".into(), i, j);
    }
    b.build().unwrap()
}

fn compare(model: &Model) {
    let sys = SystemLayout::new(model, Layout::EulerParamsOmega);
    let s = State::initial(model, Layout::EulerParamsOmega);
    let sparse = mobility_with(model, &sys, &s, TOL).unwrap();
    let dense = mobility_dense(model, &sys, &s, TOL).unwrap();
    assert_eq!(
        (sparse.rank, sparse.rank_holonomic, &sparse.dependent),
        (dense.rank, dense.rank_holonomic, &dense.dependent),
        "sparse vs dense on {} bodies, {} rows",
        sys.n_bodies(),
        sys.n_rows()
    );
    assert_eq!(sparse.mobility, dense.mobility);
    assert_eq!(sparse.redundant, dense.redundant);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn sparse_rank_equals_dense_rank(
        v in prop::collection::vec(-1.0f64..1.0, 64),
        n in 1usize..9,
        closures in 0usize..5,
        planar in any::<bool>(),
        repeat in any::<bool>(),
    ) {
        let mut d = Draw::new(v);
        compare(&random_model(&mut d, n, closures, planar, repeat));
    }
}

#[test]
fn planar_loops_have_redundant_rows_and_both_find_the_same() {
    // a planar four-bar of revolutes: 3 redundant rows, named on the closing joint
    let mut d = Draw::new(vec![0.3, -0.7, 0.2, 0.9, -0.1, 0.5, -0.4, 0.8, 0.6, -0.2]);
    let m = random_model(&mut d, 3, 1, true, true);
    compare(&m);
    let sys = SystemLayout::new(&m, Layout::EulerParamsOmega);
    let s = State::initial(&m, Layout::EulerParamsOmega);
    let mb = mobility_with(&m, &sys, &s, TOL).unwrap();
    assert!(mb.redundant >= 3, "{mb:?}");
    assert!(!mb.dependent.is_empty());
}

/// A chain of `n` revolutes, each link 1 m along x.
fn chain(n: usize) -> Model {
    let mut b = ModelBuilder::new("chain");
    let mut prev = BodyRef::Ground;
    for k in 0..n {
        let id = b.body(format!("l{k}"), 1.0, Matrix3::identity());
        b.set_initial_pose(
            id,
            Vector3::new(k as f64 + 0.5, 0.0, 0.0),
            mbs_kinematics::euler_params::identity(),
        );
        b.joint_at(
            format!("j{k}"),
            JointKind::Revolute,
            prev,
            BodyRef::Body(id),
            Vector3::new(k as f64, 0.0, 0.0),
            Vector3::new(0.0, 0.3, 1.0),
        );
        prev = BodyRef::Body(id);
    }
    b.build().unwrap()
}

/// A planar ladder: two rails of `n` links joined by a rung at every node, all
/// revolutes about z (n loops, each with 3 redundant rows).
fn ladder(n: usize) -> Model {
    let mut b = ModelBuilder::new("ladder");
    let mut prev = [BodyRef::Ground, BodyRef::Ground];
    let z = Vector3::z();
    for k in 0..n {
        let x = k as f64;
        let mut rails = [BodyRef::Ground; 2];
        for (side, y) in [0.0, 1.0].into_iter().enumerate() {
            let id = b.body(format!("r{side}.{k}"), 1.0, Matrix3::identity());
            b.set_initial_pose(
                id,
                Vector3::new(x + 0.5, y, 0.0),
                mbs_kinematics::euler_params::identity(),
            );
            b.joint_at(
                format!("j{side}.{k}"),
                JointKind::Revolute,
                prev[side],
                BodyRef::Body(id),
                Vector3::new(x, y, 0.0),
                z,
            );
            rails[side] = BodyRef::Body(id);
        }
        let rung = b.body(format!("rung{k}"), 1.0, Matrix3::identity());
        b.set_initial_pose(
            rung,
            Vector3::new(x + 1.0, 0.5, 0.0),
            mbs_kinematics::euler_params::identity(),
        );
        for (side, y) in [0.0, 1.0].into_iter().enumerate() {
            b.joint_at(
                format!("rung{side}.{k}"),
                JointKind::Revolute,
                rails[side],
                BodyRef::Body(rung),
                Vector3::new(x + 1.0, y, 0.0),
                z,
            );
        }
        prev = rails;
    }
    b.build().unwrap()
}

#[test]
fn small_chains_and_ladders_agree_with_the_dense_reference() {
    compare(&chain(7));
    compare(&ladder(4));
}

#[test]
fn long_chains_and_ladders_take_storage_proportional_to_their_length() {
    // a 20 000-link chain: dense Φ_q would be 100 000 × 120 000 (96 GB)
    let n = 20_000;
    let m = chain(n);
    let sys = SystemLayout::new(&m, Layout::EulerParamsOmega);
    let s = State::initial(&m, Layout::EulerParamsOmega);
    // 60 entries per body: the 5 rows of its joint, 2 bodies × 6 columns each; the
    // elimination holds no more than the rows themselves
    let mb = mobility_limited(&m, &sys, &s, TOL, 60 * n).unwrap();
    assert_eq!((mb.rank, mb.mobility, mb.redundant), (5 * n, n as i64, 0));
    // a ladder of 2 000 loops: 3 redundant rows each
    let n = 2_000;
    let m = ladder(n);
    let sys = SystemLayout::new(&m, Layout::EulerParamsOmega);
    let s = State::initial(&m, Layout::EulerParamsOmega);
    let mb = mobility_with(&m, &sys, &s, TOL).unwrap();
    assert_eq!(mb.redundant, 3 * n, "{}", mb.redundant);
    assert_eq!(mb.dependent.len(), 3 * n);
    // 240 entries per cell in the rows (4 joints × 5 rows × 12 columns)
    assert!(mb.peak_entries <= 300 * n, "{} entries", mb.peak_entries);
}

#[test]
fn a_storage_limit_below_the_rows_is_an_error_naming_the_sizes() {
    let m = chain(50);
    let sys = SystemLayout::new(&m, Layout::EulerParamsOmega);
    let s = State::initial(&m, Layout::EulerParamsOmega);
    let e = mobility_limited(&m, &sys, &s, TOL, 100).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("250 rows") && text.contains("300 columns") && text.contains("100"),
        "{text}"
    );
}
