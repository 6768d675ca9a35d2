//! An ABA right-hand-side evaluation allocates nothing (the sweeps are sequential and
//! keep their per-body storage on the stack or in buffers made by `Aba::new`).
//!
//! The counting allocator needs `unsafe` (GlobalAlloc); it is confined to this test.
#![allow(unsafe_code)]

#[path = "common/trees.rs"]
mod trees;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mbs_hdca::{Aba, AbaParams};
use mbs_integrators::OdeSystem;
use mbs_model::JointKind;

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn rhs_does_not_allocate() {
    // every joint kind with joint coordinates and free-floating components
    let kinds = [
        JointKind::Revolute,
        JointKind::Prismatic,
        JointKind::Cylindrical,
        JointKind::Universal,
        JointKind::Spherical,
        JointKind::Rigid,
        JointKind::Distance { length: 1.0 },
    ];
    let model = Arc::new(trees::random_tree(5, 20, &kinds, true));
    let mut aba = Aba::new(model, AbaParams::default()).unwrap();
    let y = aba.initial_state().unwrap();
    let mut dy = vec![0.0; y.len()];
    aba.rhs(0.0, &y, &mut dy).unwrap();
    let before = ALLOCS.load(Ordering::SeqCst);
    for _ in 0..10 {
        aba.rhs(0.1, &y, &mut dy).unwrap();
    }
    let after = ALLOCS.load(Ordering::SeqCst);
    assert_eq!(after - before, 0, "allocations in 10 RHS evaluations");
}
