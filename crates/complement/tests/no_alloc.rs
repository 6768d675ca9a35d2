//! After one warm-up evaluation, right-hand-side evaluations of [`Complement`]
//! allocate nothing, for every null-space method × stabilization × coordinate
//! set on the over-constrained McPherson strut (redundant constraints), and so
//! do the Newton–Raphson projection and the `mbs-linalg` `null_space_into`
//! kernels. A counting global allocator counts the allocations of every thread
//! between two marks (this binary holds a single test, so no other test thread
//! allocates meanwhile; a kernel that allocated on a rayon worker is counted too).
//!
//! The natural-partitioning front-end is checked the same way with its branches
//! solved sequentially (`par: Par::Seq`); with `par: Par::Rayon` the rayon task
//! scheduling may allocate (documented, not asserted).
//!
//! Documented exceptions (not on these paths, so not exercised here): the SVD
//! fallback of `min_norm_solve_into` when `A_r A_rᵀ` is too ill-conditioned for
//! Cholesky, and the messages of errors.

// A `GlobalAlloc` implementation needs `unsafe`; it is confined to this test
// binary and only forwards to the system allocator.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mbs_complement::{
    Complement, ComplementParams, Coordinates, CutTreatment, EulerSequence, NaturalParams,
    NaturalPartitioning, NullSpaceMethod, Stabilization,
};
use mbs_integrators::{EmbeddedRk, OdeSystem, RkParams};
use mbs_linalg::Par;
use mbs_linalg::nullspace::{NullSpaceParams, NullSpaceWorkspace, null_space_into};
use mbs_mechanisms::{McPhersonParams, mcpherson_overconstrained};

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
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = ALLOCS.load(Ordering::SeqCst);
    let r = f();
    (ALLOCS.load(Ordering::SeqCst) - before, r)
}

/// Number of evaluations counted after the warm-up.
const N: usize = 25;

/// A generic state of the strut: 0.2 s of motion from the initial one.
fn moving_state(model: &Arc<mbs_model::Model>, coordinates: Coordinates) -> Vec<f64> {
    let mut sys = Complement::new(
        model.clone(),
        ComplementParams {
            coordinates,
            ..Default::default()
        },
    )
    .unwrap();
    let y0 = sys.initial_state();
    let mut rk = EmbeddedRk::rk45(y0.len(), RkParams::with_tol(1e-8, 1e-8));
    rk.integrate(&mut sys, 0.0, &y0, 0.2, &[], &mut ()).unwrap();
    rk.y().to_vec()
}

#[test]
fn rhs_and_projection_do_not_allocate() {
    // the sanity checks that the counter works, also through library code
    let (count, v) = allocations(|| vec![1.0_f64; 8]);
    assert!(count >= 1 && v.len() == 8);

    let model = Arc::new(mcpherson_overconstrained(&McPhersonParams::default()).unwrap());
    let mut failures = Vec::new();
    for coordinates in [
        Coordinates::EulerParams,
        Coordinates::EulerAngles(EulerSequence::Zyx),
    ] {
        let y = moving_state(&model, coordinates);
        for method in NullSpaceMethod::ALL {
            for stabilization in [
                Stabilization::None,
                Stabilization::PAPER_BAUMGARTE,
                Stabilization::NewtonRaphson { tol: 1e-10 },
            ] {
                let params = ComplementParams {
                    method,
                    coordinates,
                    stabilization,
                    ..Default::default()
                };
                let mut c = Complement::new(model.clone(), params).unwrap();
                let mut dy = vec![0.0; c.dim()];
                let mut yk = y.clone();
                let mut proj = y.clone();
                c.rhs(0.2, &y, &mut dy).unwrap(); // warm-up
                let (count, ()) = allocations(|| {
                    for k in 0..N {
                        // small changes of the state between evaluations, as in a step
                        let h = 1e-4 * k as f64;
                        for (yi, (y0, d)) in yk.iter_mut().zip(y.iter().zip(&dy)) {
                            *yi = y0 + h * d;
                        }
                        c.rhs(0.2 + h, &yk, &mut dy).unwrap();
                    }
                    // the projection hook (Newton–Raphson moves q and q̇ back)
                    proj.copy_from_slice(&yk);
                    c.project(0.2 + 1e-4 * N as f64, &mut proj).unwrap();
                });
                assert!(dy.iter().all(|x| x.is_finite()));
                if count != 0 {
                    failures.push(format!(
                        "{} {} {}: {count} allocations",
                        coordinates.name(),
                        method.name(),
                        stabilization.name()
                    ));
                }
                if let Stabilization::NewtonRaphson { .. } = stabilization {
                    assert!(c.stats().position_corrections >= 1);
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    // negative control: a fresh front-end per evaluation allocates
    let y = moving_state(&model, Coordinates::EulerParams);
    let (count, _) = allocations(|| {
        mbs_complement::accelerations_at(model.clone(), ComplementParams::default(), 0.2, &y)
            .unwrap()
    });
    assert!(count > 0);

    // natural partitioning (sequential branches), cut joints by every
    // null-space method and by penalty, every stabilization
    let mut cuts: Vec<CutTreatment> = NullSpaceMethod::ALL
        .iter()
        .map(|&method| CutTreatment::NullSpace { method })
        .collect();
    cuts.push(CutTreatment::Penalty {
        alpha: 1e7,
        xi: 1.0,
        omega: 10.0,
    });
    let mut failures = Vec::new();
    for cut in cuts {
        for stabilization in [
            Stabilization::None,
            Stabilization::PAPER_BAUMGARTE,
            Stabilization::NewtonRaphson { tol: 1e-10 },
        ] {
            let params = NaturalParams {
                cut,
                stabilization,
                par: Par::Seq,
                ..Default::default()
            };
            let mut np = NaturalPartitioning::new(model.clone(), params).unwrap();
            let y = np.initial_state();
            let mut dy = vec![0.0; np.dim()];
            let mut yk = y.clone();
            let mut proj = y.clone();
            np.rhs(0.0, &y, &mut dy).unwrap(); // warm-up
            // the Newton–Raphson buffers are made at the first correction
            np.project(0.0, &mut y.clone()).unwrap();
            let (count, ()) = allocations(|| {
                for k in 0..N {
                    let h = 1e-4 * k as f64;
                    for (yi, (y0, d)) in yk.iter_mut().zip(y.iter().zip(&dy)) {
                        *yi = y0 + h * d;
                    }
                    np.rhs(h, &yk, &mut dy).unwrap();
                }
                // positions moved off the constraint manifold
                proj.copy_from_slice(&yk);
                for (i, x) in proj[..np.n_q()].iter_mut().enumerate() {
                    *x += 1e-6 * ((i % 5) as f64 - 2.0);
                }
                np.project(1e-4 * N as f64, &mut proj).unwrap();
            });
            assert!(dy.iter().all(|x| x.is_finite()));
            assert!(np.stats().n_cut > 0, "the strut has loops: cut joints");
            if let Stabilization::NewtonRaphson { .. } = stabilization {
                assert!(np.stats().position_corrections >= 1);
            }
            if count != 0 {
                failures.push(format!("natural {cut:?} {}: {count}", stabilization.name()));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");

    // the mbs-linalg kernels on their own, on the strut's (redundant) Jacobian
    let mut c = Complement::new(model.clone(), ComplementParams::default()).unwrap();
    let y = c.initial_state();
    let mut dy = vec![0.0; c.dim()];
    c.rhs(0.0, &y, &mut dy).unwrap();
    let eq = &c.evaluator().eq;
    let mut mass = eq.mass.clone();
    for i in 0..mass.nrows() {
        mass[(i, i)] += 1.0; // any SPD matrix for Wang–Huston
    }
    let (m, n) = eq.phi_q.shape();
    let mut ws = NullSpaceWorkspace::new(m, n);
    let params = NullSpaceParams::default();
    for method in NullSpaceMethod::ALL {
        null_space_into(method, &eq.phi_q, Some(&mass), &params, &mut ws).unwrap();
        let (count, r) = allocations(|| {
            for _ in 0..3 {
                null_space_into(method, &eq.phi_q, Some(&mass), &params, &mut ws).unwrap();
            }
            ws.rank()
        });
        assert_eq!(count, 0, "{}", method.name());
        assert!(
            r < m,
            "{}: the strut's Jacobian is redundant",
            method.name()
        );
    }
}
