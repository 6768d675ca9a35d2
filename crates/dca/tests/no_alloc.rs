//! Acceptance 4 (second half): an evaluation (right-hand side, projection) allocates
//! nothing, sequentially and inside rayon pools of 1 and 2 threads. A counting global
//! allocator; this file holds a single test so that no other test allocates meanwhile.
#![allow(unsafe_code)]

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use mbs_dca::{AlfDca, DcaParams};
use mbs_integrators::OdeSystem;
use mbs_linalg::Par;

struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: delegates to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn count(dca: &mut AlfDca, y: &mut [f64], dy: &mut [f64]) -> usize {
    // warm-up (first calls may size lazily-grown structures)
    for k in 0..3 {
        dca.rhs(0.01 * k as f64, y, dy).unwrap();
        dca.project_state(0.01 * k as f64, y).unwrap();
    }
    let before = ALLOCS.load(Ordering::SeqCst);
    for k in 0..20 {
        let t = 0.1 + 0.01 * k as f64;
        dca.rhs(t, y, dy).unwrap();
        dca.project(t, y).unwrap();
        dca.rhs(t, y, dy).unwrap();
    }
    ALLOCS.load(Ordering::SeqCst) - before
}

#[test]
fn evaluations_do_not_allocate() {
    // The pools live for the whole test: threads of a dropped pool exit concurrently
    // and could be counted.
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .iter()
        .map(|&k| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(k)
                .build()
                .unwrap()
        })
        .collect();
    // make sure every worker has started (thread start-up allocates)
    for pool in &pools {
        pool.broadcast(|_| ());
    }
    for (kind, n) in [(6u8, 0usize), (4, 60), (0, 200)] {
        let model = common::mechanism(kind, 0, n);
        for parallel in [false, true] {
            let params = DcaParams {
                par: Par::from_flag(parallel),
                parallel_min_bodies: 8,
                ..DcaParams::default()
            };
            let mut dca = AlfDca::new(model.clone(), params);
            let mut y = dca.initial_state();
            let mut dy = vec![0.0; dca.dim()];
            if !parallel {
                let n = count(&mut dca, &mut y, &mut dy);
                assert_eq!(n, 0, "{}: {n} allocations (sequential)", model.name());
                continue;
            }
            for (pool, threads) in pools.iter().zip([1, 2]) {
                let n = pool.install(|| count(&mut dca, &mut y, &mut dy));
                assert_eq!(
                    n,
                    0,
                    "{}: {n} allocations with {threads} threads",
                    model.name()
                );
            }
        }
    }
}
