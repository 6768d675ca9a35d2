//! A step allocates nothing: a counting global allocator sees zero
//! allocations during whole integrations (workspace is allocated by `new`).
#![allow(unsafe_code)]

mod common;
use common::*;
use mbs_integrators::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator, only counting calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn count<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = ALLOCS.load(Ordering::SeqCst);
    let r = f();
    (r, ALLOCS.load(Ordering::SeqCst) - before)
}

/// The only test in this binary, so no other test thread allocates meanwhile.
#[test]
fn integrations_do_not_allocate() {
    let y0 = Kepler::initial(0.6);
    let t_out: Vec<f64> = (0..50).map(|i| i as f64 * 0.1).collect();
    let mut sys = Kepler::default();

    let mut rk45 = EmbeddedRk::rk45(4, RkParams::with_tol(1e-8, 1e-8));
    let mut rk23 = EmbeddedRk::rk23(4, RkParams::with_tol(1e-6, 1e-6));
    let mut dop853 = EmbeddedRk::dop853(4, RkParams::with_tol(1e-10, 1e-10));
    let mut abm = Adams::new(4, AdamsParams::with_tol(1e-8, 1e-8));
    let mut abm_fixed = Adams::new(
        4,
        AdamsParams {
            fixed: Some((0.01, 6)),
            ..Default::default()
        },
    );
    let mut mid = ImplicitIntegrator::new(4, ImplicitParams::new(ImplicitRule::Midpoint, 0.01));
    let mut trap = ImplicitIntegrator::new(4, ImplicitParams::new(ImplicitRule::Trapezoidal, 0.01));
    let mut radau = Radau5::new(4, Radau5Params::with_tol(1e-8, 1e-8));
    let mut bdf = Bdf::new(4, BdfParams::with_tol(1e-8, 1e-8));
    let mut cd = CentralDifference::new(2, 2, StaggeredParams::new(0.01));
    let mut ts = TwoStageStaggered::new(2, 2, StaggeredParams::new(0.01));
    let mut ga2 = GeneralizedAlpha::new(2, 2, GeneralizedAlphaParams::with_tol(0.5, 1e-6, 1e-6));
    let mut ga1 = GeneralizedAlphaOde::new(4, GeneralizedAlphaParams::with_tol(0.5, 1e-6, 1e-6));

    let checks: Vec<(&str, usize, usize)> = vec![
        {
            let (i, n) = count(|| {
                rk45.integrate(&mut sys, 0.0, &y0, 6.0, &t_out, &mut ())
                    .unwrap()
            });
            ("rk45", n, i.accepted_steps)
        },
        {
            let (i, n) = count(|| {
                rk23.integrate(&mut sys, 0.0, &y0, 6.0, &t_out, &mut ())
                    .unwrap()
            });
            ("rk23", n, i.accepted_steps)
        },
        {
            // With output times inside steps: the dense output's extra stages.
            let (i, n) = count(|| {
                dop853
                    .integrate(&mut sys, 0.0, &y0, 6.0, &t_out, &mut ())
                    .unwrap()
            });
            ("dop853", n, i.accepted_steps)
        },
        {
            let (i, n) = count(|| {
                abm.integrate(&mut sys, 0.0, &y0, 6.0, &t_out, &mut ())
                    .unwrap()
            });
            ("adams", n, i.accepted_steps)
        },
        {
            let (i, n) = count(|| {
                abm_fixed
                    .integrate(&mut sys, 0.0, &y0, 6.0, &t_out, &mut ())
                    .unwrap()
            });
            ("adams fixed", n, i.accepted_steps)
        },
        {
            let (i, n) = count(|| {
                mid.integrate(&mut sys, 0.0, &y0, 6.0, &t_out, &mut ())
                    .unwrap()
            });
            ("midpoint", n, i.accepted_steps)
        },
        {
            let (i, n) = count(|| {
                trap.integrate(&mut sys, 0.0, &y0, 6.0, &t_out, &mut ())
                    .unwrap()
            });
            ("trapezoidal", n, i.accepted_steps)
        },
        {
            // dense LU, finite-difference Jacobians, dense output between steps
            let (i, n) = count(|| {
                radau
                    .integrate(&mut sys, 0.0, &y0, 6.0, &t_out, &mut ())
                    .unwrap()
            });
            ("radau5", n, i.accepted_steps)
        },
        {
            let (i, n) = count(|| {
                bdf.integrate(&mut sys, 0.0, &y0, 6.0, &t_out, &mut ())
                    .unwrap()
            });
            ("bdf", n, i.accepted_steps)
        },
        {
            let (i, n) = count(|| {
                cd.integrate(
                    &mut KeplerPartitioned,
                    0.0,
                    &y0[..2],
                    &y0[2..],
                    6.0,
                    &t_out,
                    &mut (),
                )
                .unwrap()
            });
            ("central difference", n, i.accepted_steps)
        },
        {
            let (i, n) = count(|| {
                ts.integrate(
                    &mut KeplerPartitioned,
                    0.0,
                    &y0[..2],
                    &y0[2..],
                    6.0,
                    &t_out,
                    &mut (),
                )
                .unwrap()
            });
            ("two-stage", n, i.accepted_steps)
        },
        {
            // with output times inside steps (dense output) and rejected steps
            let (i, n) = count(|| {
                ga2.integrate(
                    &mut KeplerPartitioned,
                    0.0,
                    &y0[..2],
                    &y0[2..],
                    6.0,
                    &t_out,
                    &mut (),
                )
                .unwrap()
            });
            ("generalized-α", n, i.accepted_steps)
        },
        {
            let (i, n) = count(|| {
                ga1.integrate(&mut sys, 0.0, &y0, 6.0, &t_out, &mut ())
                    .unwrap()
            });
            ("generalized-α first order", n, i.accepted_steps)
        },
    ];
    // The counter does see allocations.
    let (v, n) = count(|| vec![1.0f64; 10]);
    assert!(n >= 1 && v.len() == 10);
    for (name, allocs, steps) in checks {
        assert!(steps > 10, "{name}: only {steps} steps");
        assert_eq!(allocs, 0, "{name}: {allocs} allocations in {steps} steps");
    }
}
