//! The penalty system allocates nothing per step after construction (dense
//! backend, and PCG with each preconditioner): a counting global allocator sees zero
//! allocations during a whole staggered integration.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mbs_alf::{LambdaBackend, PenaltyParams, PenaltySystem};
use mbs_integrators::{StaggeredParams, TwoStageStaggered};
use mbs_linalg::pcg::{PcgParams, Preconditioner};
use mbs_mechanisms::chiou;

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Count only on the test's own thread (the harness may allocate on others).
    static ON: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn note() {
    if ON.with(|on| on.get()) {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: forwards to the system allocator, only counting calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The only test in this binary, so no other test thread allocates meanwhile.
#[test]
fn staggered_penalty_steps_do_not_allocate() {
    let model = Arc::new(chiou::crank_slider(&Default::default()).unwrap());
    let pcg = |preconditioner| {
        LambdaBackend::Pcg(PcgParams {
            preconditioner,
            warm_start: true,
            tol: 1e-12,
            ..PcgParams::default()
        })
    };
    let backends = [
        LambdaBackend::Dense,
        pcg(Preconditioner::None),
        pcg(Preconditioner::Diagonal),
        pcg(Preconditioner::Scaled),
    ];
    for backend in backends {
        let mut sys = PenaltySystem::new(
            model.clone(),
            PenaltyParams {
                backend,
                ..PenaltyParams::default()
            },
        )
        .unwrap();
        let (x0, v0) = sys.initial_state();
        let mut integ = TwoStageStaggered::new(x0.len(), v0.len(), StaggeredParams::new(1e-3));
        // Warm-up run (first-call lazy initialisations), then a counted run.
        integ
            .integrate(&mut sys, 0.0, &x0, &v0, 0.01, &[], &mut ())
            .unwrap();
        sys.reset();
        let before = ALLOCS.load(Ordering::SeqCst);
        ON.with(|on| on.set(true));
        let r = integ.integrate(&mut sys, 0.0, &x0, &v0, 0.5, &[], &mut ());
        ON.with(|on| on.set(false));
        r.unwrap();
        let allocs = ALLOCS.load(Ordering::SeqCst) - before;
        assert_eq!(allocs, 0, "{backend:?}: {allocs} allocations in 500 steps");
    }
}
