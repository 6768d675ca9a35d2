//! Suite `hdca` (BENCHMARKS.md; Chadaj, Malczyk & Frączek 2017):
//!
//! * criterion: one HDCA right-hand-side evaluation on open revolute chains and
//!   single closed loops of n = 16 … 4096 bodies (acceptance 4: time ∝ n^k, k ≤ 1.1),
//!   and on the paper's cases 1–3;
//! * criterion: one right-hand-side evaluation of the articulated-body front-end
//!   `aba` (Featherstone 2008, Table 7.1, in HDCA's joint coordinates) on the same
//!   open chains (group `aba/rhs`);
//! * criterion: one right-hand-side evaluation of `alf-joint` (ALF in the tree's
//!   joint coordinates, cut joints as constraints) on small closed loops: the
//!   five-bar, the double loop and ladders of 8 and 10 loops (group
//!   `alf-joint/rhs`);
//! * a one-shot fit of the scaling exponent (least squares of log t against log n),
//!   printed to stderr, and the sec 3.2 accuracy figures of cases 1–3 at RK45
//!   tol 1e-6 (energy error, loop closure at velocity and position level).

#[allow(dead_code)] // a shared fixture: each user takes part of it
#[path = "../../crates/hdca/tests/common/report.rs"]
mod report;

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use mbs_hdca::{Aba, AbaParams, Hdca, HdcaParams, JointAlf, JointAlfParams};
use mbs_integrators::OdeSystem;
use mbs_mechanisms::{
    AlfDcaParams, ChainJoint, HdcaParams as CaseParams, closed_loop, double_loop, five_bar,
    hdca_case1, hdca_case2, hdca_case3, loop_ladder, open_chain,
};
use mbs_model::Model;
use report::run_report;

const SIZES: [usize; 9] = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096];

fn families() -> Vec<(&'static str, fn(usize) -> Model)> {
    vec![
        ("chain", |n| {
            open_chain(n, ChainJoint::Revolute).expect("chain")
        }),
        ("loop", |n| closed_loop(n).expect("loop")),
    ]
}

/// Seconds per RHS: the best of 5 batches, each of at least 20 ms.
fn time_per_rhs(model: Arc<Model>) -> f64 {
    let mut h = Hdca::new(model, HdcaParams::default()).expect("hdca");
    let y = h.initial_state();
    let mut dy = vec![0.0; y.len()];
    h.rhs(0.0, &y, &mut dy).expect("rhs");
    let t0 = Instant::now();
    h.rhs(0.0, &y, &mut dy).expect("rhs");
    let once = t0.elapsed().as_secs_f64().max(1e-7);
    let reps = ((0.02 / once).ceil() as usize).max(3);
    (0..5)
        .map(|_| {
            let t0 = Instant::now();
            for _ in 0..reps {
                h.rhs(0.0, black_box(&y), &mut dy).expect("rhs");
            }
            t0.elapsed().as_secs_f64() / reps as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn rhs(c: &mut Criterion) {
    let mut group = c.benchmark_group("hdca/rhs");
    group.sample_size(10);
    for (name, make) in families() {
        for n in SIZES {
            let mut h = Hdca::new(Arc::new(make(n)), HdcaParams::default()).expect("hdca");
            let y = h.initial_state();
            let mut dy = vec![0.0; y.len()];
            group.bench_function(format!("{name}/{n}"), |b| {
                b.iter(|| h.rhs(0.0, black_box(&y), &mut dy).expect("rhs"))
            });
        }
    }
    let p = CaseParams::default();
    for (name, m) in [
        ("case1", hdca_case1(&p)),
        ("case2", hdca_case2(&p)),
        ("case3", hdca_case3(&p)),
    ] {
        let mut h = Hdca::new(Arc::new(m.expect("case")), HdcaParams::default()).expect("hdca");
        let y = h.initial_state();
        let mut dy = vec![0.0; y.len()];
        group.bench_function(name.to_string(), |b| {
            b.iter(|| h.rhs(0.0, black_box(&y), &mut dy).expect("rhs"))
        });
    }
    group.finish();
}

fn aba_rhs(c: &mut Criterion) {
    let mut group = c.benchmark_group("aba/rhs");
    group.sample_size(10);
    for n in SIZES {
        let model = open_chain(n, ChainJoint::Revolute).expect("chain");
        let mut a = Aba::new(Arc::new(model), AbaParams::default()).expect("aba");
        let y = a.initial_state().expect("initial state");
        let mut dy = vec![0.0; y.len()];
        group.bench_function(format!("chain/{n}"), |b| {
            b.iter(|| a.rhs(0.0, black_box(&y), &mut dy).expect("rhs"))
        });
    }
    group.finish();
}

fn alf_joint_rhs(c: &mut Criterion) {
    let mut group = c.benchmark_group("alf-joint/rhs");
    let p = AlfDcaParams::default();
    for (name, model) in [
        ("five-bar", five_bar(&p).expect("five-bar")),
        ("double-loop", double_loop(&p).expect("double loop")),
        ("ladder-8", loop_ladder(8).expect("ladder")),
        ("ladder-10", loop_ladder(10).expect("ladder")),
    ] {
        let mut j = JointAlf::new(Arc::new(model), JointAlfParams::default()).expect("alf-joint");
        let y = j.tree().initial_state().expect("initial state");
        j.resolve_alpha(0.0, &y).expect("alpha");
        let mut dy = vec![0.0; y.len()];
        group.bench_function(name, |b| {
            b.iter(|| j.rhs(0.0, black_box(&y), &mut dy).expect("rhs"))
        });
    }
    group.finish();
}

fn sweep(_c: &mut Criterion) {
    for (name, make) in families() {
        let pts: Vec<(f64, f64)> = SIZES
            .iter()
            .map(|&n| ((n as f64).ln(), time_per_rhs(Arc::new(make(n))).ln()))
            .collect();
        let m = pts.len() as f64;
        let (sx, sy) = pts.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
        let (sxx, sxy) = pts
            .iter()
            .fold((0.0, 0.0), |(a, b), (x, y)| (a + x * x, b + x * y));
        let k = (m * sxy - sx * sy) / (m * sxx - sx * sx);
        eprintln!("hdca scaling {name}: exponent {k:.3} over n = 16 … 4096");
        for (&n, (_, lt)) in SIZES.iter().zip(&pts) {
            eprintln!("  n = {n:5}: {:.3e} s per RHS", lt.exp());
        }
    }
    let p = CaseParams::default();
    for (name, m) in [
        ("case 1", hdca_case1(&p)),
        ("case 2", hdca_case2(&p)),
        ("case 3", hdca_case3(&p)),
    ] {
        let r = run_report(Arc::new(m.expect("case")), 10.0, 1e-6, 100).expect("run");
        eprintln!(
            "hdca {name}: RK45 tol 1e-6, 10 s: max |ΔE| {:.3e} J, max ‖Φ̇‖ {:.3e}, max ‖Φ‖ {:.3e}, {} RHS, {} steps",
            r.max_energy_error, r.max_phi_dot, r.max_phi, r.rhs_evaluations, r.steps
        );
    }
}

criterion_group!(benches, sweep, rhs, aba_rhs, alf_joint_rhs);
criterion_main!(benches);
