//! The multiplier recovery's sparse solve (models of at least `SPARSE_FROM_BODIES`
//! bodies without dependent rows) against the dense min-norm solve on the same states,
//! and the dense solve chosen where rows are dependent.

use std::sync::Arc;

use mbs_alf::{MultiplierRecovery, SPARSE_FROM_BODIES};
use mbs_mechanisms::{ChainJoint, closed_loop, open_chain};
use mbs_model::{Layout, State};

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
fn small_models_and_dependent_rows_keep_the_dense_solve() {
    let small = MultiplierRecovery::new(Arc::new(open_chain(8, ChainJoint::Revolute).unwrap()));
    assert!(!small.is_sparse());
    // a planar loop of revolute joints in 3-D: three dependent rows per loop
    let (is_sparse, dl, da) = compare(closed_loop(SPARSE_FROM_BODIES + 4).unwrap());
    assert!(
        !is_sparse,
        "the loop's dependent rows need the min-norm solve"
    );
    assert!(
        dl == 0.0 && da == 0.0,
        "same solve, same numbers: {dl:e} {da:e}"
    );
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
