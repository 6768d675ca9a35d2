//! Acceptance 1: every null-space variant gives the same accelerations at random
//! states of random non-redundant mechanisms (1e-9 relative), in Euler parameters
//! and Euler angles, and agrees with the Lagrange/KKT solution of `mbs-alf`.

mod common;

use std::sync::Arc;

use common::{best_sequence, physical_from_angles, physical_from_pdot, random_state, rel};
use mbs_alf::{Descriptor, LagrangeAccelerations, Level, MechanismDescriptor};
use mbs_complement::{
    Complement, ComplementParams, Coordinates, NullSpaceMethod, accelerations_at,
};
use mbs_mechanisms::generators::{random_loop_mechanism, random_tree};
use mbs_mechanisms::{
    McPhersonParams, mcpherson_overconstrained, mcpherson_simplified, spatial_four_bar,
};
use mbs_model::{Model, State};
use nalgebra::DVector;

const TOL: f64 = 1e-9;

fn kkt(model: &Arc<Model>, s: &State) -> DVector<f64> {
    let mut d = MechanismDescriptor::new(model.clone());
    let (q, v) = (s.q.as_slice(), s.v.as_slice());
    d.evaluate(s.t, q, v, Level::Full).unwrap();
    let mut l = LagrangeAccelerations::new(d.n(), d.m(), None, true);
    let mut a = DVector::zeros(d.n());
    l.solve(s.t, &d, v, &mut a).unwrap();
    a
}

fn models() -> Vec<(String, Arc<Model>)> {
    let mut out: Vec<(String, Arc<Model>)> = (0..6)
        .map(|seed| {
            (
                format!("random-tree-{seed}"),
                Arc::new(random_tree(seed, 5).unwrap()),
            )
        })
        .collect();
    for seed in 0..3 {
        out.push((
            format!("random-loop-{seed}"),
            Arc::new(random_loop_mechanism(seed, 4).unwrap()),
        ));
    }
    out.push((
        "mcpherson-simplified".into(),
        Arc::new(mcpherson_simplified(&McPhersonParams::default()).unwrap()),
    ));
    out.push((
        "spatial-four-bar".into(),
        Arc::new(spatial_four_bar(&Default::default()).unwrap()),
    ));
    out
}

/// Every method, Euler parameters, against QR and against KKT.
#[test]
fn all_methods_agree_with_each_other_and_kkt_euler_params() {
    let mut worst = 0.0f64;
    for (name, model) in models() {
        for k in 0..3 {
            let s = random_state(&model, 100 * k + 7, 0.05);
            let y = [s.q.as_slice(), s.v.as_slice()].concat();
            let reference = kkt(&model, &s);
            for method in NullSpaceMethod::ALL {
                let a = accelerations_at(
                    model.clone(),
                    ComplementParams::with_method(method),
                    s.t,
                    &y,
                )
                .unwrap_or_else(|e| panic!("{name} {}: {e}", method.name()));
                let d = rel(&a, &reference);
                worst = worst.max(d);
                assert!(
                    d < TOL,
                    "{name} state {k} {}: relative difference {d:e}",
                    method.name()
                );
            }
        }
    }
    eprintln!("Euler parameters: largest relative difference to KKT {worst:e}");
}

/// Every method in Euler angles (Wang–Huston included), mapped to [r̈, ω̇'],
/// against the Euler-parameter KKT solution.
#[test]
fn all_methods_agree_in_euler_angles() {
    let mut worst = 0.0f64;
    for (name, model) in models() {
        let s = random_state(&model, 11, 0.05);
        let seq = best_sequence(&s);
        let reference = physical_from_pdot(&s, &kkt(&model, &s));
        for method in NullSpaceMethod::ALL {
            let params = ComplementParams {
                method,
                coordinates: Coordinates::EulerAngles(seq),
                ..ComplementParams::default()
            };
            let c = Complement::new(model.clone(), params).unwrap();
            let y = c.state_to_y(&s).unwrap();
            let a = accelerations_at(model.clone(), params, s.t, &y)
                .unwrap_or_else(|e| panic!("{name} {} {seq}: {e}", method.name()));
            let d = rel(&physical_from_angles(seq, &y, &a), &reference);
            worst = worst.max(d);
            assert!(
                d < TOL,
                "{name} {} {seq}: relative difference {d:e}",
                method.name()
            );
        }
    }
    eprintln!("Euler angles: largest relative difference to KKT {worst:e}");
}

/// Redundant constraints (the over-constrained strut): the accelerations are
/// still unique and every method finds them (pseudo-inverses).
#[test]
fn redundant_strut_all_methods_agree() {
    let model = Arc::new(mcpherson_overconstrained(&McPhersonParams::default()).unwrap());
    let simple = Arc::new(mcpherson_simplified(&McPhersonParams::default()).unwrap());
    let s = State::initial(&model, mbs_model::Layout::EulerParamsPdot);
    let y = [s.q.as_slice(), s.v.as_slice()].concat();
    // Same motion as the simplified strut (same bodies and loads).
    let reference = accelerations_at(simple, ComplementParams::default(), 0.0, &y).unwrap();
    for method in NullSpaceMethod::ALL {
        let a = accelerations_at(
            model.clone(),
            ComplementParams::with_method(method),
            0.0,
            &y,
        )
        .unwrap();
        let d = rel(&a, &reference);
        assert!(d < TOL, "{}: {d:e}", method.name());
    }
}
