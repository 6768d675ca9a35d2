//! Acceptance 5: once a solver is built, `factor` + `solve` allocate nothing.
//!
//! A counting global allocator (this test binary only) counts the allocations made
//! by the current thread between two marks.

// A `GlobalAlloc` implementation needs `unsafe`; it is confined to this test
// binary and only forwards to the system allocator.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use mbs_linalg::dense::{DenseCholesky, DenseKkt, DenseKktParams, DenseLdlt, DenseLu, KktMode};
use mbs_linalg::pcg::{PcgParams, PcgSolver, Preconditioner};
use mbs_linalg::sparse::{
    SparseCholesky, SparseCholeskyParams, SparseKkt, SparseKktParams, SparsePattern,
};
use mbs_linalg::{KktSolver, SpdSolver};
use mbs_mechanisms::synthetic::ChainSystem;

struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = ALLOCS.with(|c| c.get());
    let r = f();
    (ALLOCS.with(|c| c.get()) - before, r)
}

#[test]
fn solves_do_not_allocate() {
    let sys = ChainSystem::closed_loop(24, 5);
    let (n, m) = (sys.n(), sys.m());
    let mass = sys.dense_mass();
    let jac = sys.dense_jacobian();
    let aug = &mass + jac.transpose() * &jac * 100.0;
    let mut rhs_n: Vec<f64> = (0..n).map(|i| (i as f64).sin()).collect();
    let mut rhs_nm: Vec<f64> = (0..n + m).map(|i| (i as f64).cos()).collect();

    // the sanity check that the counter works
    let (count, v) = allocations(|| vec![1.0_f64; 8]);
    assert!(count >= 1 && v.len() == 8);

    let mut chol = DenseCholesky::new(n);
    let mut ldlt = DenseLdlt::new(n);
    let mut lu = DenseLu::new(n);
    let mut kkt = DenseKkt::new(n, m, DenseKktParams::default());
    let mut kkt_mn = DenseKkt::new(
        n,
        m,
        DenseKktParams {
            mode: KktMode::MinNorm,
            ..Default::default()
        },
    );
    let (aug_e, aug_v) = sys.augmented_triplets(100.0);
    let mut schol = SparseCholesky::new(
        SparsePattern::symmetric_lower(n, &aug_e).unwrap(),
        SparseCholeskyParams::default(),
    )
    .unwrap();
    let (me, mv) = sys.mass_triplets();
    let (je, jv) = sys.jacobian_triplets();
    let mut skkt = SparseKkt::new(n, m, &me, &je, SparseKktParams::default()).unwrap();
    let mut pcgs: Vec<PcgSolver> = [
        Preconditioner::None,
        Preconditioner::Diagonal,
        Preconditioner::Scaled,
    ]
    .into_iter()
    .map(|pre| {
        PcgSolver::new(
            sys.arrowhead(1e-8, 1.0).unwrap(),
            PcgParams {
                preconditioner: pre,
                ..Default::default()
            },
        )
        .unwrap()
    })
    .collect();
    let c: Vec<f64> = (0..n).map(|i| (i as f64 * 0.1).sin()).collect();
    let d: Vec<f64> = (0..m).map(|i| (i as f64 * 0.2).cos()).collect();
    let mut b = vec![0.0; m];
    let mut lambda = vec![0.0; m];
    let mut udd = vec![0.0; n];

    let mut cycle = || {
        SpdSolver::factor(&mut chol, aug.as_slice()).unwrap();
        SpdSolver::solve_in_place(&mut chol, &mut rhs_n).unwrap();
        ldlt.factor(aug.as_slice()).unwrap();
        ldlt.solve_in_place(&mut rhs_n).unwrap();
        lu.factor(aug.as_slice()).unwrap();
        lu.solve_in_place(&mut rhs_n).unwrap();
        KktSolver::factor(&mut kkt, mass.as_slice(), jac.as_slice()).unwrap();
        kkt.solve_in_place(&mut rhs_nm).unwrap();
        KktSolver::factor(&mut kkt_mn, mass.as_slice(), jac.as_slice()).unwrap();
        kkt_mn.solve_in_place(&mut rhs_nm).unwrap();
        schol.factorize(&aug_v).unwrap();
        schol.solve(&mut rhs_n).unwrap();
        skkt.factorize(&mv, &jv).unwrap();
        skkt.solve(&mut rhs_nm).unwrap();
        for pcg in pcgs.iter_mut() {
            pcg.refresh_preconditioner();
            pcg.schur_rhs(&c, &d, &mut b).unwrap();
            lambda.iter_mut().for_each(|v| *v = 0.0);
            pcg.solve(&b, &mut lambda).unwrap();
            pcg.accelerations(&lambda, &c, &mut udd).unwrap();
        }
        // keep magnitudes bounded across cycles
        let s = rhs_n.iter().fold(0.0_f64, |a, v| a.max(v.abs()));
        rhs_n.iter_mut().for_each(|v| *v /= s);
        let s = rhs_nm.iter().fold(0.0_f64, |a, v| a.max(v.abs()));
        rhs_nm.iter_mut().for_each(|v| *v /= s);
    };
    cycle();
    let (count, ()) = allocations(|| {
        for _ in 0..3 {
            cycle();
        }
    });
    assert_eq!(count, 0, "allocations inside factor/solve");
}
