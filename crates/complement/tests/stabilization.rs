//! Acceptance 3: Newton–Raphson stabilization keeps ‖Φ‖ below its tolerance at
//! every accepted step; Baumgarte and no stabilization show their drift. Also
//! the monitoring and re-selection of coordinate partitioning.

mod common;

use std::sync::Arc;

use common::strut::run;
use mbs_complement::{
    Complement, ComplementParams, Coordinates, EulerSequence, NullSpaceMethod, Stabilization,
};
use mbs_integrators::{EmbeddedRk, OdeSystem, RkParams};
use mbs_mechanisms::{McPhersonParams, mcpherson_simplified};
use mbs_model::{BodyRef, JointKind, ModelBuilder};
use nalgebra::{DVector, Matrix3, Vector3};

const NR_TOL: f64 = 1e-8;

fn strut() -> Arc<mbs_model::Model> {
    Arc::new(mcpherson_simplified(&McPhersonParams::default()).unwrap())
}

#[test]
fn newton_raphson_bounds_drift_baumgarte_and_none_show_it() {
    for coordinates in [
        Coordinates::EulerParams,
        Coordinates::EulerAngles(EulerSequence::Zyx),
    ] {
        let mut max = Vec::new();
        for stabilization in Stabilization::paper_cases(NR_TOL) {
            let params = ComplementParams {
                method: NullSpaceMethod::Qr,
                coordinates,
                stabilization,
                ..ComplementParams::default()
            };
            let r = run(strut(), params, 1e-4, 3.0, true);
            assert!(r.completed(), "{:?}: {:?}", params, r.error);
            eprintln!(
                "{} {:15} max‖Φ‖ = {:.2e}, max‖Φ̇‖ = {:.2e}, corrections {}",
                coordinates.name(),
                stabilization.name(),
                r.max_position_violation,
                r.max_velocity_violation,
                r.stats.position_corrections
            );
            max.push(r.max_position_violation);
        }
        let (none, baumgarte, nr) = (max[0], max[1], max[2]);
        assert!(nr <= NR_TOL, "Newton–Raphson: {nr:e} > {NR_TOL:e}");
        assert!(
            none > 1e2 * NR_TOL,
            "no stabilization should drift: {none:e}"
        );
        assert!(
            baumgarte > NR_TOL && baumgarte < none,
            "Baumgarte {baumgarte:e}, none {none:e}"
        );
    }
}

/// A pendulum swinging through large angles: the partition chosen at the start
/// (dependent x, y of the centre of mass, say) degrades, is re-selected, and the
/// accelerations stay those of QR.
#[test]
fn coordinate_partitioning_reselects_and_stays_correct() {
    let mut b = ModelBuilder::new("pendulum");
    b.gravity(Vector3::new(0.0, -9.81, 0.0));
    let link = b.body("link", 1.0, Matrix3::from_diagonal_element(0.1));
    b.set_initial_pose(
        link,
        Vector3::new(0.5, 0.0, 0.0),
        mbs_kinematics::euler_params::identity(),
    );
    b.set_initial_velocity(
        link,
        Vector3::new(0.0, 3.0, 0.0),
        Vector3::new(0.0, 0.0, 6.0),
    );
    b.joint_at(
        "pivot",
        JointKind::Revolute,
        BodyRef::Ground,
        BodyRef::Body(link),
        Vector3::zeros(),
        Vector3::z(),
    );
    let model = Arc::new(b.build().unwrap());
    let params = ComplementParams {
        method: NullSpaceMethod::CoordinatePartitioning,
        stabilization: Stabilization::NewtonRaphson { tol: 1e-9 },
        ..ComplementParams::default()
    };
    let mut sys = Complement::new(model.clone(), params).unwrap();
    let y0 = sys.initial_state();
    let mut rk = EmbeddedRk::rk45(y0.len(), RkParams::with_tol(1e-8, 1e-8));
    rk.integrate(&mut sys, 0.0, &y0, 3.0, &[], &mut ()).unwrap();
    let stats = sys.stats();
    assert!(stats.reselections >= 1, "{stats:?}");
    // still the QR accelerations at the final state
    let y = rk.y().to_vec();
    let mut a = vec![0.0; y.len()];
    sys.rhs(rk.t(), &y, &mut a).unwrap();
    let mut qr = Complement::new(model, ComplementParams::default()).unwrap();
    let mut b2 = vec![0.0; y.len()];
    qr.rhs(rk.t(), &y, &mut b2).unwrap();
    let d = common::rel(&DVector::from_vec(a), &DVector::from_vec(b2));
    assert!(d < 1e-9, "{d:e}");
}

#[test]
fn errors_name_time_and_body() {
    // identity orientations: ZXZ is at gimbal lock
    let model = strut();
    let params = ComplementParams {
        coordinates: Coordinates::EulerAngles(EulerSequence::Zxz),
        ..ComplementParams::default()
    };
    let e = Complement::new(model, params).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("gimbal lock") && msg.contains("body"), "{msg}");
    assert_eq!(e.time(), Some(0.0));
}

/// A pendulum swinging about the global y axis turns its ZYX middle angle β
/// through 90°: the integration stops with a gimbal-lock error naming the
/// body and a time after the start.
#[test]
fn gimbal_lock_during_integration_is_reported() {
    let mut b = ModelBuilder::new("pendulum-y");
    b.gravity(Vector3::new(0.0, 0.0, -9.81));
    let link = b.body("swinging-link", 1.0, Matrix3::from_diagonal_element(0.1));
    b.set_initial_pose(
        link,
        Vector3::new(0.5, 0.0, 0.0),
        mbs_kinematics::euler_params::identity(),
    );
    b.joint_at(
        "hinge",
        JointKind::Revolute,
        BodyRef::Ground,
        BodyRef::Body(link),
        Vector3::zeros(),
        Vector3::y(),
    );
    let model = Arc::new(b.build().unwrap());
    let params = ComplementParams {
        coordinates: Coordinates::EulerAngles(EulerSequence::Zyx),
        ..ComplementParams::default()
    };
    let mut sys = Complement::new(model, params).unwrap();
    let y0 = sys.initial_state();
    let mut rk = EmbeddedRk::rk45(y0.len(), RkParams::with_tol(1e-8, 1e-8));
    let err = rk
        .integrate(&mut sys, 0.0, &y0, 2.0, &[], &mut ())
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("gimbal lock") && msg.contains("swinging-link"),
        "{msg}"
    );
    assert!(rk.t() > 0.1, "stopped at {}", rk.t());
}
