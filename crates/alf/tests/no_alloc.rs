//! Right-hand-side evaluations allocate nothing once the front-end is built.
// A counting global allocator needs `unsafe impl GlobalAlloc`; it only forwards to
// `System`. The workspace denies unsafe code elsewhere.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mbs_alf::{
    AlfParams, Formulation, Index1, MechanismDescriptor, Projection, ProjectionParams, SparseAlf,
    SparseLagrange,
};
use mbs_integrators::descriptor::DescriptorRule;
use mbs_integrators::descriptor::StepControl;
use mbs_integrators::{OdeSystem, Stepper};
use mbs_mechanisms::alf_dca::{AlfDcaParams, five_bar};

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn count(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    f();
    ALLOCATIONS.load(Ordering::SeqCst) - before
}

#[test]
fn rhs_and_projection_do_not_allocate() {
    let model = Arc::new(five_bar(&AlfDcaParams::default()).unwrap());
    for f in [
        Formulation::Alf(AlfParams::default()),
        Formulation::Lagrange {
            baumgarte: Some(Default::default()),
            min_norm: false,
        },
    ] {
        let desc = MechanismDescriptor::new(model.clone());
        let (q, v) = desc.initial();
        let mut y: Vec<f64> = q.iter().chain(v.iter()).copied().collect();
        let min_norm = matches!(f, Formulation::Lagrange { .. });
        let f = if min_norm {
            Formulation::Lagrange {
                baumgarte: Some(Default::default()),
                min_norm: true,
            }
        } else {
            f
        };
        let mut sys = Index1::new(
            desc,
            f,
            Projection::AugmentedLagrangian(ProjectionParams::default()),
        );
        let mut dy = vec![0.0; y.len()];
        sys.rhs(0.0, &y, &mut dy).unwrap(); // warm-up
        let n = count(|| sys.rhs(0.1, &y, &mut dy).unwrap());
        assert_eq!(n, 0, "{f:?}: {n} allocations in rhs");
        y[0] += 1e-6;
        let n = count(|| {
            sys.project(0.1, &mut y).unwrap();
        });
        assert_eq!(n, 0, "{f:?}: {n} allocations in project");
    }
    let (q, v) = MechanismDescriptor::new(model.clone()).initial();
    // ALF-INDEX3 through the descriptor integrator: a step with its projections
    // and the trapezoidal rule or generalized-α (with its force tangent)
    for (rule, h) in [
        (DescriptorRule::Trapezoidal, 0.01),
        (DescriptorRule::GeneralizedAlpha { rho_inf: 0.9 }, 0.01),
    ] {
        let desc = MechanismDescriptor::new(model.clone());
        let mut st = mbs_alf::AlfIndex3::new(desc, Default::default());
        let mut integ = st.integrator(rule, StepControl::Fixed { h });
        let y0 = [q.clone(), v.clone()].concat();
        Stepper::init(&mut integ, &st, 0.0, &y0).unwrap();
        integ.start(&mut st, 1.0).unwrap();
        let mut step = |st: &mut mbs_alf::AlfIndex3<MechanismDescriptor>| {
            integ.step(st, 1.0).unwrap();
            integ.project(st).unwrap();
            integ.complete(st).unwrap();
        };
        step(&mut st);
        let n = count(|| step(&mut st));
        assert_eq!(n, 0, "ALF-INDEX3 {rule:?}: {n} allocations in a step");
    }
    let mut sp = SparseAlf::new(model.clone(), AlfParams::default()).unwrap();
    let y = sp.initial_state();
    let mut dy = vec![0.0; y.len()];
    sp.rhs(0.0, &y, &mut dy).unwrap();
    let n = count(|| sp.rhs(0.1, &y, &mut dy).unwrap());
    assert_eq!(n, 0, "sparse ALF: {n} allocations in rhs");
    // the sparse ALF-INDEX1: rhs and the mass-orthogonal projections
    let mut sp = SparseAlf::with_projections(
        model.clone(),
        AlfParams::default(),
        Some(ProjectionParams::default()),
    )
    .unwrap();
    let mut y = sp.initial_state();
    sp.rhs(0.0, &y, &mut dy).unwrap();
    y[0] += 1e-6;
    sp.project(0.0, &mut y).unwrap();
    let n = count(|| sp.rhs(0.1, &y, &mut dy).unwrap());
    assert_eq!(n, 0, "sparse ALF-INDEX1: {n} allocations in rhs");
    y[0] += 1e-6;
    let n = count(|| {
        sp.project(0.1, &mut y).unwrap();
    });
    assert_eq!(n, 0, "sparse ALF-INDEX1: {n} allocations in project");
    // the sparse Lagrange KKT solve (a chain: independent rows), with Baumgarte
    let chain = Arc::new(
        mbs_mechanisms::generators::open_chain(8, mbs_mechanisms::generators::ChainJoint::Revolute)
            .unwrap(),
    );
    let mut sl = SparseLagrange::new(chain, Some(Default::default()), false).unwrap();
    let (q, v) = sl.initial_state();
    let y: Vec<f64> = q.iter().chain(v.iter()).copied().collect();
    let mut dy = vec![0.0; y.len()];
    sl.rhs(0.0, &y, &mut dy).unwrap();
    let n = count(|| sl.rhs(0.1, &y, &mut dy).unwrap());
    assert_eq!(n, 0, "sparse Lagrange: {n} allocations in rhs");
}
