//! The branch guard (`BranchGuard`) watches the rank of Φ_q only where it can drop:
//! an open tree of lower pairs without drivers has full row rank everywhere (block
//! triangular Φ_q), closed loops are watched.

use std::sync::Arc;

use mbs_alf::BranchGuard;
use mbs_constraints::mobility;
use mbs_mechanisms::generators::{ChainJoint, closed_loop, open_chain, random_tree};
use mbs_model::{Layout, State};

/// Random trees (revolute, spherical, universal, cylindrical and prismatic joints at
/// random points and axes, random orientations) are not watched, and indeed have
/// Φ_q of full row rank at their configurations (the claim the exemption rests on).
#[test]
fn random_trees_are_exempt_and_have_full_rank() {
    for seed in 0..12 {
        let model = random_tree(seed, 12).unwrap();
        let state = State::initial(&model, Layout::EulerParamsPdot);
        let m = mobility(&model, &state, 1e-9).unwrap();
        assert_eq!(
            m.rank, m.rows,
            "random tree {seed}: Φ_q rank {} of {}",
            m.rank, m.rows
        );
        let guard = BranchGuard::new(Arc::new(model), "lagrange").unwrap();
        assert!(!guard.watches(), "random tree {seed} is watched");
    }
    for joint in [ChainJoint::Revolute, ChainJoint::Spherical] {
        let guard = BranchGuard::new(Arc::new(open_chain(64, joint).unwrap()), "penalty").unwrap();
        assert!(!guard.watches());
    }
}

/// Closed loops are watched, and the exempt guard of a tree accepts any state.
#[test]
fn closed_loops_are_watched() {
    let guard = BranchGuard::new(Arc::new(closed_loop(8).unwrap()), "lagrange").unwrap();
    assert!(guard.watches());
    let model = open_chain(4, ChainJoint::Revolute).unwrap();
    let q = State::initial(&model, Layout::EulerParamsPdot)
        .q
        .as_slice()
        .to_vec();
    let mut tree = BranchGuard::new(Arc::new(model), "lagrange").unwrap();
    assert!(tree.check(0.0, &q).is_ok());
}
