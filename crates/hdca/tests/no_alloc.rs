//! A right-hand-side evaluation of every front-end of the crate allocates nothing:
//! HDCA (sequential sweeps; rayon's scheduler is outside our control and is not
//! counted), ABA (per-body storage on the stack or in buffers made by `Aba::new`)
//! and `alf-joint` (its evaluations and projections; buffers made by
//! `JointAlf::new`).
//!
//! The counting allocator needs `unsafe` (GlobalAlloc); it is confined to this test.
//! It counts the allocations of the measuring thread only (a thread-local counter):
//! every evaluation here runs sequentially on that thread (`Par::Seq`), and the
//! harness's or an idle rayon worker's allocations on other threads — which made a
//! process-wide count fail at random in CI — are not the front-end's. The tests still
//! take one lock each and run one after the other.
#![allow(unsafe_code)]

#[path = "common/trees.rs"]
mod trees;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::{Arc, Mutex};

use mbs_hdca::{Aba, AbaParams, Hdca, HdcaParams, JointAlf, JointAlfParams};
use mbs_integrators::OdeSystem;
use mbs_linalg::Par;
use mbs_mechanisms::{AlfDcaParams, HdcaParams as CaseParams, double_loop, hdca_case3};
use mbs_model::JointKind;

struct Counting;

thread_local! {
    /// Allocations made by this thread (const-initialized: reading it never allocates).
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

/// Allocations made by the calling thread so far.
fn allocs() -> usize {
    ALLOCS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // `try_with`: no count (and no panic) while a thread's locals are torn down
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// One test at a time (the counter sees every thread).
static SERIAL: Mutex<()> = Mutex::new(());

#[test]
fn hdca_rhs_does_not_allocate() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
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
    let before = allocs();
    for _ in 0..10 {
        h.rhs(0.1, &y, &mut dy).unwrap();
    }
    let after = allocs();
    assert_eq!(after - before, 0, "allocations in 10 RHS evaluations");
}

#[test]
fn aba_rhs_does_not_allocate() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
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
    let before = allocs();
    for _ in 0..10 {
        aba.rhs(0.1, &y, &mut dy).unwrap();
    }
    let after = allocs();
    assert_eq!(after - before, 0, "allocations in 10 RHS evaluations");
}

#[test]
fn alf_joint_rhs_and_projection_do_not_allocate() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
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
    let before = allocs();
    for _ in 0..10 {
        j.rhs(0.1, &y, &mut dy).unwrap();
    }
    yp.copy_from_slice(&y);
    let moved = j.project(0.1, &mut yp).unwrap();
    let after = allocs();
    assert!(moved);
    assert_eq!(
        after - before,
        0,
        "allocations in 10 RHS evaluations and a projection"
    );
    y.copy_from_slice(&yp);
    j.rhs(0.1, &y, &mut dy).unwrap();
}
