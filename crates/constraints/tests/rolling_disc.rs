//! The rolling-disc joint against its geometry, independently of the formulas of
//! `joints::rolling_disc`: the holonomic row is the height above the plane of the
//! lowest point of the rim (found by sampling the rim and refining), the two
//! nonholonomic rows are the tangential velocity of the material point there; the flat
//! disc is refused with an error naming the joint and the value.

mod common;

use common::{Draw, random_state};
use mbs_constraints::{ConstraintError, SystemLayout, Workspace};
use mbs_model::{BodyRef, JointKind, Layout, Model, ModelBuilder, State};
use nalgebra::{Matrix3, Vector3};

fn disc_model(d: &mut Draw, radius: f64) -> Model {
    let mut b = ModelBuilder::new("disc");
    let disc = b.body("disc", 1.0, Matrix3::identity());
    let (pi, ri, pj, rj) = (d.vec3(0.5), d.rot(), d.vec3(1.0), d.rot());
    let mi = b.marker("centre", BodyRef::Body(disc), pi, ri);
    let mj = b.marker("plane", BodyRef::Ground, pj, rj);
    b.joint("wheel", JointKind::RollingDisc { radius }, mi, mj);
    b.build().expect("valid model")
}

/// The lowest rim point (global) of the disc of marker 0 above the plane of marker 1,
/// by sampling the rim at 3600 angles and refining with a golden-section search.
fn lowest_rim_point(model: &Model, ws: &Workspace, radius: f64) -> Vector3<f64> {
    let (mi, mj) = (&model.markers()[0], &model.markers()[1]);
    let f = ws.frame(mi.body);
    let centre = f.r + f.a * mi.position;
    let axes = f.a * mi.orientation;
    let n = mj.orientation.column(2).into_owned();
    let rim = |th: f64| {
        centre + radius * (th.cos() * axes.column(0) + th.sin() * axes.column(1)).into_owned()
    };
    let h = |th: f64| n.dot(&rim(th));
    let k = 3600;
    let step = std::f64::consts::TAU / k as f64;
    let best = (0..k)
        .map(|i| i as f64 * step)
        .min_by(|a, b| h(*a).total_cmp(&h(*b)))
        .unwrap();
    let (mut a, mut b) = (best - step, best + step);
    let g = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..80 {
        let (c, e) = (b - g * (b - a), a + g * (b - a));
        if h(c) < h(e) {
            b = e;
        } else {
            a = c;
        }
    }
    rim(0.5 * (a + b))
}

#[test]
fn rows_are_the_height_and_slip_velocity_of_the_lowest_rim_point() {
    let mut checked = 0;
    for case in 0..200 {
        let mut d = Draw::new(
            (0..64)
                .map(|k| ((k * 31 + case * 7) as f64 * 0.7123).sin())
                .collect(),
        );
        let radius = d.range(0.1, 1.1);
        let model = disc_model(&mut d, radius);
        for layout in [Layout::EulerParamsOmega, Layout::EulerParamsPdot] {
            let sys = SystemLayout::new(&model, layout);
            let mut ws = Workspace::new(&sys);
            let state = random_state(&mut d, layout, 1);
            ws.update_frames(&model, &sys, &state).unwrap();
            let (mi, mj) = (&model.markers()[0], &model.markers()[1]);
            let z = ws.frame(mi.body).a * mi.orientation.column(2);
            let n = mj.orientation.column(2).into_owned();
            if z.cross(&n).norm() < 0.2 {
                continue;
            }
            ws.evaluate_constraints(&model, &sys, &state).unwrap();
            let blk = ws.block(0);
            let c = lowest_rim_point(&model, &ws, radius);
            let height = n.dot(&(c - mj.position));
            assert!(
                (blk.phi[0] - height).abs() < 1e-9,
                "case {case}: Φ = {} vs lowest rim point height {height}",
                blk.phi[0]
            );
            let f = ws.frame(mi.body);
            let v_c = f.rdot + f.omega.cross(&(c - f.r));
            let slip = (v_c - n * n.dot(&v_c)).norm();
            let rows = (blk.phi[1].powi(2) + blk.phi[2].powi(2)).sqrt();
            assert!(
                (rows - slip).abs() < 1e-7 * (1.0 + slip),
                "case {case}: ‖no-slip rows‖ = {rows} vs tangential contact velocity {slip}"
            );
            checked += 1;
        }
    }
    assert!(checked > 200, "only {checked} poses away from flat");
}

#[test]
fn a_flat_disc_is_refused_naming_the_joint_and_the_value() {
    let mut b = ModelBuilder::new("flat");
    let disc = b.body("disc", 1.0, Matrix3::identity());
    let mi = b.marker(
        "centre",
        BodyRef::Body(disc),
        Vector3::zeros(),
        Matrix3::identity(),
    );
    let mj = b.marker(
        "plane",
        BodyRef::Ground,
        Vector3::zeros(),
        Matrix3::identity(),
    );
    b.joint("wheel", JointKind::RollingDisc { radius: 0.1 }, mi, mj);
    let model = b.build().unwrap();
    for layout in [Layout::EulerParamsOmega, Layout::EulerParamsPdot] {
        let sys = SystemLayout::new(&model, layout);
        let mut ws = Workspace::new(&sys);
        let state = State::initial(&model, layout);
        let err = ws.evaluate(&model, &sys, &state).unwrap_err();
        match &err {
            ConstraintError::DegenerateJoint { joint, value, .. } => {
                assert_eq!(joint, "wheel");
                assert_eq!(*value, 0.0);
            }
            other => panic!("expected DegenerateJoint, got {other:?}"),
        }
        let msg = err.to_string();
        assert!(msg.contains("`wheel`") && msg.contains("flat"), "{msg}");
    }
}
