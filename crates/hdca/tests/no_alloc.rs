//! A right-hand-side evaluation allocates nothing (sequential sweeps; rayon's
//! scheduler is outside our control and is not counted).
//!
//! The counting allocator needs `unsafe` (GlobalAlloc); it is confined to this test.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mbs_hdca::{Hdca, HdcaParams};
use mbs_integrators::OdeSystem;
use mbs_linalg::Par;
use mbs_mechanisms::{HdcaParams as CaseParams, hdca_case3};

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
    let model = Arc::new(hdca_case3(&CaseParams::default()).unwrap());
    let params = HdcaParams {
        par: Par::Seq,
        ..HdcaParams::default()
    };
    let mut h = Hdca::new(model, params).unwrap();
    let mut y = h.initial_state();
    let nq = h.n_coords();
    for (k, p) in y[nq..].iter_mut().enumerate() {
        *p = 0.1 * (k as f64).sin();
    }
    let mut dy = vec![0.0; y.len()];
    h.rhs(0.0, &y, &mut dy).unwrap();
    let before = ALLOCS.load(Ordering::SeqCst);
    for _ in 0..10 {
        h.rhs(0.1, &y, &mut dy).unwrap();
    }
    let after = ALLOCS.load(Ordering::SeqCst);
    assert_eq!(after - before, 0, "allocations in 10 RHS evaluations");
}
