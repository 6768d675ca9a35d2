//! Generators: consistent initial states, round trips, mobility formulas, determinism.

mod common;

use mbs_mechanisms::{
    ChainJoint, closed_loop, loop_ladder, open_chain, random_loop_mechanism, random_tree,
};
use mbs_model::{Layout, Model, State};
use proptest::prelude::*;

fn figures(model: &Model) -> (i64, i64, usize) {
    let state = State::initial(model, Layout::EulerParamsOmega);
    let m = mbs_constraints::mobility(model, &state, 1e-9).unwrap();
    (m.grubler, m.mobility, m.redundant)
}

#[test]
fn parametric_generators_have_the_documented_figures() {
    for n in [1usize, 2, 5, 9] {
        let m = open_chain(n, ChainJoint::Revolute).unwrap();
        common::assert_consistent("open chain", &m);
        assert_eq!(figures(&m), (n as i64, n as i64, 0));
        let m = open_chain(n, ChainJoint::Spherical).unwrap();
        common::assert_consistent("open chain", &m);
        assert_eq!(figures(&m), (3 * n as i64, 3 * n as i64, 0));
    }
    for n in [2usize, 3, 4, 8, 17] {
        let m = closed_loop(n).unwrap();
        common::assert_consistent("closed loop", &m);
        assert_eq!(
            figures(&m),
            (n as i64 - 5, n as i64 - 2, 3),
            "closed loop {n}"
        );
    }
    for k in [1usize, 2, 5] {
        let m = loop_ladder(k).unwrap();
        common::assert_consistent("ladder", &m);
        assert_eq!(figures(&m), (-2 * k as i64, k as i64, 3 * k), "ladder {k}");
    }
}

#[test]
fn large_generators_build_quickly() {
    let m = closed_loop(4096).unwrap();
    assert_eq!(m.n_bodies(), 4096);
    let m = loop_ladder(1366).unwrap();
    assert_eq!(m.n_bodies(), 4098);
    let m = open_chain(4096, ChainJoint::Spherical).unwrap();
    assert_eq!(m.topology().grubler_mobility(), 3 * 4096);
    let m = open_chain(300, ChainJoint::Spherical).unwrap();
    common::assert_consistent("open chain 300", &m);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_trees_are_consistent(seed in any::<u64>(), n in 1usize..12) {
        let m = random_tree(seed, n).unwrap();
        common::assert_consistent("random tree", &m);
        let (g, mob, red) = figures(&m);
        prop_assert_eq!(g, mob);
        prop_assert_eq!(red, 0);
        prop_assert_eq!(&m, &random_tree(seed, n).unwrap());
    }

    #[test]
    fn random_loops_are_consistent(seed in any::<u64>(), n in 2usize..10) {
        let m = random_loop_mechanism(seed, n).unwrap();
        common::assert_consistent("random loop", &m);
        prop_assert_eq!(&m, &random_loop_mechanism(seed, n).unwrap());
    }

    #[test]
    fn random_mechanisms_round_trip(seed in any::<u64>(), n in 2usize..6) {
        common::assert_round_trips("random tree", &random_tree(seed, n).unwrap());
        common::assert_round_trips("random loop", &random_loop_mechanism(seed, n).unwrap());
    }
}
