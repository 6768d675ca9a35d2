//! An `alf-joint` right-hand-side evaluation and a projection allocate nothing (every
//! buffer is made by `JointAlf::new`).
//!
//! The counting allocator needs `unsafe` (GlobalAlloc); it is confined to this test.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mbs_hdca::{JointAlf, JointAlfParams};
use mbs_integrators::OdeSystem;
use mbs_mechanisms::{AlfDcaParams, double_loop};

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
fn rhs_and_projection_do_not_allocate() {
    let model = Arc::new(double_loop(&AlfDcaParams::default()).unwrap());
    let mut j = JointAlf::new(model, JointAlfParams::default()).unwrap();
    let y0 = j.tree().initial_state().unwrap();
    j.resolve_alpha(0.0, &y0).unwrap();
    let mut dy = vec![0.0; y0.len()];
    j.rhs(0.0, &y0, &mut dy).unwrap();
    // a state off the closures, so that the projection iterates
    let mut y: Vec<f64> = y0
        .iter()
        .zip(&dy)
        .map(|(a, b)| a + 0.01 * b + 1e-4)
        .collect();
    let mut yp = y.clone();
    let before = ALLOCS.load(Ordering::SeqCst);
    for _ in 0..10 {
        j.rhs(0.1, &y, &mut dy).unwrap();
    }
    yp.copy_from_slice(&y);
    let moved = j.project(0.1, &mut yp).unwrap();
    let after = ALLOCS.load(Ordering::SeqCst);
    assert!(moved);
    assert_eq!(
        after - before,
        0,
        "allocations in 10 RHS evaluations and a projection"
    );
    y.copy_from_slice(&yp);
    j.rhs(0.1, &y, &mut dy).unwrap();
}
