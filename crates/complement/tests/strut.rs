//! Acceptance 2 (test-sized): on both McPherson struts every method ×
//! stabilization runs the paper's 10 s at the loosest paper tolerance (RK45
//! 1e-3), in Euler parameters and in Euler angles. The full sweep over 1e-10,
//! 1e-8, 1e-6, 1e-3 is `tests/common/strut.rs`'s `sweep` (bench `complement`, example `strut_sweep`).

mod common;

use std::sync::Arc;

use common::strut::{PAPER_T_END, sweep};
use mbs_complement::{Coordinates, EulerSequence, NullSpaceMethod};
use mbs_mechanisms::{McPhersonParams, mcpherson_overconstrained, mcpherson_simplified};

#[test]
fn every_method_and_stabilization_runs_10_s_on_both_struts() {
    let p = McPhersonParams::default();
    for model in [
        mcpherson_simplified(&p).unwrap(),
        mcpherson_overconstrained(&p).unwrap(),
    ] {
        let model = Arc::new(model);
        for coordinates in [
            Coordinates::EulerParams,
            Coordinates::EulerAngles(EulerSequence::Zyx),
        ] {
            let runs = sweep(
                model.clone(),
                coordinates,
                &NullSpaceMethod::ALL,
                &[1e-3],
                1e-8,
                PAPER_T_END,
                true,
            );
            assert_eq!(runs.len(), 24);
            for r in runs {
                assert!(
                    r.completed() && r.t_reached == PAPER_T_END,
                    "{} {} {} {}: {:?}",
                    model.name(),
                    coordinates.name(),
                    r.params.method.name(),
                    r.params.stabilization.name(),
                    r.error
                );
                if let mbs_complement::Stabilization::NewtonRaphson { tol } = r.params.stabilization
                {
                    assert!(
                        r.max_position_violation <= tol,
                        "{:e}",
                        r.max_position_violation
                    );
                }
            }
        }
    }
}

#[test]
fn best_euler_sequence_avoids_the_struts_gimbal_lock() {
    let model = Arc::new(mcpherson_simplified(&McPhersonParams::default()).unwrap());
    let seq = mbs_complement::best_euler_sequence(&model);
    assert_ne!(seq, EulerSequence::Zxz);
    let params = mbs_complement::ComplementParams {
        coordinates: Coordinates::EulerAngles(seq),
        ..Default::default()
    };
    assert!(mbs_complement::Complement::new(model, params).is_ok());
}
