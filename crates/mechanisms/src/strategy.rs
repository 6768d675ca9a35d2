//! proptest strategies drawing random mechanisms (feature `proptest`): every crate
//! that property-tests on random mechanisms draws them from the same distribution.
//!
//! ```
//! use mbs_mechanisms::strategy::arb_random_tree;
//! use proptest::prelude::*;
//! proptest!(|(model in arb_random_tree(1..6))| {
//!     prop_assert!(model.n_bodies() >= 1);
//! });
//! ```

use std::ops::Range;

use mbs_model::Model;
use proptest::prelude::*;

use crate::generators::{random_loop_mechanism, random_tree};

/// A [`random_tree`] with a random seed and a body count in `sizes` (≥ 1).
pub fn arb_random_tree(sizes: Range<usize>) -> impl Strategy<Value = Model> {
    (any::<u64>(), sizes)
        .prop_map(|(seed, n)| random_tree(seed, n.max(1)).expect("random trees are valid"))
}

/// A [`random_loop_mechanism`] with a random seed and a body count in `sizes` (≥ 2).
pub fn arb_random_loop(sizes: Range<usize>) -> impl Strategy<Value = Model> {
    (any::<u64>(), sizes).prop_map(|(seed, n)| {
        random_loop_mechanism(seed, n.max(2)).expect("random loops are valid")
    })
}

/// Either kind, half of the time each.
pub fn arb_random_mechanism(sizes: Range<usize>) -> impl Strategy<Value = Model> {
    prop_oneof![arb_random_tree(sizes.clone()), arb_random_loop(sizes)]
}
