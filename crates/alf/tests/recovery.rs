//! The multiplier recovery's sparse solve (models of at least `SPARSE_FROM_BODIES`
//! bodies without dependent rows) against the dense min-norm solve on the same states,
//! and the dense solve chosen where rows are dependent.

use std::sync::Arc;

use mbs_alf::{Descriptor, Level, MechanismDescriptor, MultiplierRecovery, SPARSE_FROM_BODIES};
use mbs_mechanisms::{ChainJoint, closed_loop, loop_ladder, open_chain, random_loop_mechanism};
use mbs_model::{Layout, State};
use proptest::prelude::*;

/// λ and q̈ of both solves at the initial pose with a velocity field that exercises γ.
fn compare(model: mbs_model::Model) -> (bool, f64, f64) {
    let model = Arc::new(model);
    let mut state = State::initial(&model, Layout::EulerParamsPdot);
    for (i, x) in state.v.iter_mut().enumerate() {
        *x = 0.3 * (0.7 * i as f64).sin();
    }
    let mut sparse = MultiplierRecovery::new(model.clone());
    let mut dense = MultiplierRecovery::dense(model);
    let (l_s, a_s) = {
        let (l, a) = sparse.solve(&state).expect("sparse recovery");
        (l.to_vec(), a.to_vec())
    };
    let (l_d, a_d) = dense.solve(&state).expect("dense recovery");
    let rel = |x: &[f64], y: &[f64]| {
        let scale = y.iter().fold(0.0_f64, |m, v| m.max(v.abs())).max(1.0);
        x.iter()
            .zip(y)
            .fold(0.0_f64, |m, (a, b)| m.max((a - b).abs()))
            / scale
    };
    (sparse.is_sparse(), rel(&l_s, l_d), rel(&a_s, a_d))
}

#[test]
fn sparse_recovery_equals_the_dense_one_on_a_long_chain() {
    for joint in [ChainJoint::Revolute, ChainJoint::Spherical] {
        let (is_sparse, dl, da) = compare(open_chain(SPARSE_FROM_BODIES + 8, joint).unwrap());
        assert!(is_sparse, "{joint:?}: a chain has no dependent row");
        assert!(
            dl < 1e-9 && da < 1e-9,
            "{joint:?}: λ {dl:.2e}, q̈ {da:.2e} (relative)"
        );
    }
}

#[test]
fn small_models_keep_the_dense_solve() {
    let small = MultiplierRecovery::new(Arc::new(open_chain(8, ChainJoint::Revolute).unwrap()));
    assert!(!small.is_sparse());
    let small_loop = MultiplierRecovery::new(Arc::new(closed_loop(8).unwrap()));
    assert!(!small_loop.is_sparse());
}

/// `v` made consistent with the constraints: its orthogonal projection onto
/// null(Φ_q) (dense pseudo-inverse; a test-sized model), so that γ lies in range(Φ_q)
/// as on a trajectory.
fn consistent_velocity(model: &Arc<mbs_model::Model>, state: &mut State) {
    let mut desc = MechanismDescriptor::new(model.clone());
    let q = state.q.as_slice().to_vec();
    desc.evaluate(state.t, &q, state.v.as_slice(), Level::Full)
        .expect("evaluation");
    let j = desc.phi_q().clone();
    let pinv = j.clone().pseudo_inverse(1e-12).expect("pseudo-inverse");
    let correction = &pinv * (&j * &state.v);
    state.v -= correction;
}

/// `model` with gravity tilted out of the generators' x–y plane, so that the
/// redundant (out-of-plane) rows carry load and the basic λ (0 on the dependent rows)
/// differs from the minimum-norm one.
fn out_of_plane_gravity(model: mbs_model::Model, tilt: f64) -> Arc<mbs_model::Model> {
    let mut parts = model.to_parts();
    parts.gravity = nalgebra::Vector3::new(0.0, -9.81, 9.81 * tilt);
    Arc::new(mbs_model::Model::from_parts(parts).expect("same model"))
}

/// λ and q̈ of the sparse min-norm solve and the dense one at a state, relative.
fn compare_at(model: &Arc<mbs_model::Model>, state: &State) -> (usize, f64, f64) {
    let mut sparse = MultiplierRecovery::sparse(model.clone());
    assert!(sparse.is_sparse(), "the sparse solve serves the model");
    let mut dense = MultiplierRecovery::dense(model.clone());
    let (l_s, a_s) = {
        let (l, a) = sparse.solve(state).expect("sparse recovery");
        (l.to_vec(), a.to_vec())
    };
    let (l_d, a_d) = dense.solve(state).expect("dense recovery");
    let rel = |x: &[f64], y: &[f64]| {
        let scale = y.iter().fold(0.0_f64, |m, v| m.max(v.abs())).max(1.0);
        x.iter()
            .zip(y)
            .fold(0.0_f64, |m, (a, b)| m.max((a - b).abs()))
            / scale
    };
    (
        sparse.dependent_rows().len(),
        rel(&l_s, l_d),
        rel(&a_s, a_d),
    )
}

#[test]
fn min_norm_recovery_equals_the_dense_one_on_a_long_loop() {
    // a planar loop of revolute joints in 3-D: three dependent rows per loop
    let model = out_of_plane_gravity(closed_loop(SPARSE_FROM_BODIES + 4).unwrap(), 0.5);
    let mut state = State::initial(&model, Layout::EulerParamsPdot);
    for (i, x) in state.v.iter_mut().enumerate() {
        *x = 0.3 * (0.7 * i as f64).sin();
    }
    consistent_velocity(&model, &mut state);
    let mut rec = MultiplierRecovery::new(model.clone());
    assert!(rec.is_sparse() && !rec.dependent_rows().is_empty());
    rec.solve(&state).expect("sparse min-norm recovery");
    let (dependent, dl, da) = compare_at(&model, &state);
    assert!(dependent > 0);
    assert!(dl < 1e-9 && da < 1e-9, "λ {dl:.2e}, q̈ {da:.2e} (relative)");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// On random small loops, ladders of loops and random loop mechanisms, with a
    /// random velocity field, the sparse min-norm λ is the dense pseudo-inverse one.
    #[test]
    fn min_norm_recovery_equals_the_dense_one(
        kind in 0usize..3,
        size in 3usize..10,
        seed in 0u64..1000,
        amp in 0.0f64..1.0,
        tilt in -1.0f64..1.0,
    ) {
        let model = match kind {
            0 => closed_loop(size + 1).unwrap(),
            1 => loop_ladder(size / 2 + 1).unwrap(),
            _ => random_loop_mechanism(seed, size + 3).unwrap(),
        };
        let model = out_of_plane_gravity(model, tilt);
        let mut state = State::initial(&model, Layout::EulerParamsPdot);
        for (i, x) in state.v.iter_mut().enumerate() {
            *x = amp * (0.7 * i as f64 + seed as f64).sin();
        }
        consistent_velocity(&model, &mut state);
        let probe = MultiplierRecovery::sparse(model.clone());
        prop_assume!(probe.is_sparse());
        let (_, dl, da) = compare_at(&model, &state);
        prop_assert!(dl < 1e-8 && da < 1e-8, "λ {:.2e}, q̈ {:.2e} (relative)", dl, da);
    }
}

/// The rank probe of the sparse Lagrange front-end measures Φ_q alone: a 4096-link
/// chain (819 m long, whose base-joint multiplier pivot with the mass matrix in the
/// KKT block is ≈ 1e-9 of the largest entry) has no dependent rows, while a planar
/// loop in 3-D has them (its out-of-plane rows are redundant).
#[test]
fn the_sparse_rank_probe_does_not_flag_long_chains() {
    let probe = |model: mbs_model::Model| {
        let mut sys = mbs_alf::SparseLagrange::new(Arc::new(model), None, true).unwrap();
        let (q, v) = sys.initial_state();
        sys.dependent_constraints(0.0, &q, &v).unwrap()
    };
    assert!(probe(open_chain(4096, ChainJoint::Revolute).unwrap()).is_none());
    let e = probe(closed_loop(16).unwrap()).expect("a planar loop in 3-D has redundant rows");
    assert!(e.to_string().contains("rank"), "{e}");
}
