//! Evaluation and every fill allocate nothing after construction (a counting global
//! allocator; this binary holds a single test so no other thread allocates meanwhile).
//! The only `unsafe` of the crate: a `GlobalAlloc` forwarding to `System`, test-only.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use mbs_constraints::{SystemLayout, Workspace};
use mbs_kinematics::euler_params::from_axis_angle;
use mbs_model::{
    BodyRef, DriverKind, ForceElement, JointKind, Layout, ModelBuilder, State, TimeFunction,
};
use nalgebra::{DMatrix, Matrix3, Vector3};

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: AllocLayout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: AllocLayout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn evaluation_and_fills_do_not_allocate() {
    let mut b = ModelBuilder::new("slider-crank");
    b.gravity(Vector3::new(0.0, -9.81, 0.0));
    let crank = b.body("crank", 1.0, Matrix3::from_diagonal_element(0.1));
    let rod = b.body("rod", 1.0, Matrix3::from_diagonal_element(0.1));
    let ball = b.body("ball", 1.0, Matrix3::from_diagonal_element(0.1));
    b.set_initial_pose(
        ball,
        Vector3::new(3.0, 0.5, 0.0),
        from_axis_angle(&Vector3::x(), 0.3),
    );
    let hinge = b.joint_at(
        "A",
        JointKind::Revolute,
        BodyRef::Ground,
        BodyRef::Body(crank),
        Vector3::zeros(),
        Vector3::z(),
    );
    b.joint_at(
        "B",
        JointKind::Spherical,
        BodyRef::Body(crank),
        BodyRef::Body(rod),
        Vector3::new(1.0, 0.0, 0.0),
        Vector3::z(),
    );
    let mb = b.marker(
        "ball.c",
        BodyRef::Body(ball),
        Vector3::zeros(),
        Matrix3::identity(),
    );
    let floor = b.marker(
        "floor",
        BodyRef::Ground,
        Vector3::zeros(),
        Matrix3::identity(),
    );
    b.joint("roll", JointKind::RollingSphere { radius: 0.5 }, mb, floor);
    b.driver(
        "motor",
        DriverKind::JointAngle { joint: hinge },
        TimeFunction::Sum {
            terms: vec![
                TimeFunction::Polynomial {
                    coefficients: vec![0.0, 1.0],
                },
                TimeFunction::constant(0.1),
            ],
        },
    );
    b.force(ForceElement::RotationalSpringDamper {
        name: "torsion".into(),
        joint: hinge,
        stiffness: 1.0,
        damping: 0.1,
        free_angle: 0.0,
        actuator: TimeFunction::default(),
    });
    let model = b.build().unwrap();
    for layout in [Layout::EulerParamsOmega, Layout::EulerParamsPdot] {
        let sys = SystemLayout::new(&model, layout);
        let mut ws = Workspace::new(&sys);
        let state = State::initial(&model, layout);
        let (m, n) = (sys.n_rows(), sys.n_v());
        let mut v_m = vec![0.0; m];
        let mut v_n = vec![0.0; n];
        let mut vals = vec![0.0; sys.pattern().nnz()];
        let mut dense = DMatrix::zeros(m, n);
        let mut mass = DMatrix::zeros(n, n);
        let x = vec![1.0; n];
        let y = vec![1.0; m];
        ws.evaluate(&model, &sys, &state).unwrap();
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        for _ in 0..3 {
            ws.evaluate(&model, &sys, &state).unwrap();
            ws.phi(&sys, &mut v_m).unwrap();
            ws.phi_t(&sys, &mut v_m).unwrap();
            ws.phi_dot(&sys, &mut v_m).unwrap();
            ws.gamma(&sys, &mut v_m).unwrap();
            ws.phi_q_values(&sys, &mut vals).unwrap();
            ws.phi_q_dense(&sys, &mut dense).unwrap();
            ws.phi_q_mul(&sys, &x, &mut v_m).unwrap();
            ws.phi_q_tr_mul(&sys, &y, &mut v_n).unwrap();
            ws.mass_dense(&sys, &mut mass).unwrap();
            ws.mass_mul(&sys, &x, &mut v_n).unwrap();
            ws.generalized_forces(&sys, &mut v_n).unwrap();
            std::hint::black_box(ws.kinetic_energy(&sys) + ws.potential_energy());
        }
        let after = ALLOCATIONS.load(Ordering::SeqCst);
        assert_eq!(after, before, "{layout:?}: {} allocations", after - before);
    }
}
