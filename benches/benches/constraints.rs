//! Benchmarks of `mbs-constraints`: one full evaluation (frames, joint blocks, forces)
//! and the global fills of a spatial chain of n links joined by revolutes, in both
//! velocity layouts.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use mbs_constraints::{SystemLayout, Workspace};
use mbs_model::{BodyRef, JointKind, Layout, Model, ModelBuilder, State};
use nalgebra::{Matrix3, Vector3};

/// A chain of `n` unit links along x, hinged about alternating z and y axes.
fn chain(n: usize) -> Model {
    let mut b = ModelBuilder::new("chain");
    b.gravity(Vector3::new(0.0, -9.81, 0.0));
    let mut prev = BodyRef::Ground;
    for k in 0..n {
        let link = b.body(
            format!("link{k}"),
            1.0,
            Matrix3::from_diagonal(&Vector3::new(0.01, 0.1, 0.1)),
        );
        b.set_initial_pose(
            link,
            Vector3::new(k as f64 + 0.5, 0.0, 0.0),
            mbs_kinematics::euler_params::identity(),
        );
        let axis = if k % 2 == 0 {
            Vector3::z()
        } else {
            Vector3::y()
        };
        b.joint_at(
            format!("j{k}"),
            JointKind::Revolute,
            prev,
            BodyRef::Body(link),
            Vector3::new(k as f64, 0.0, 0.0),
            axis,
        );
        prev = BodyRef::Body(link);
    }
    b.build().expect("valid chain")
}

fn constraints(c: &mut Criterion) {
    let mut group = c.benchmark_group("constraints");
    for n in [10usize, 100] {
        let model = chain(n);
        for layout in [Layout::EulerParamsOmega, Layout::EulerParamsPdot] {
            let sys = SystemLayout::new(&model, layout);
            let mut ws = Workspace::new(&sys);
            let state = State::initial(&model, layout);
            let tag = format!("{layout:?}/{n}");
            group.bench_function(BenchmarkId::new("evaluate", &tag), |b| {
                b.iter(|| {
                    ws.evaluate(&model, &sys, black_box(&state))
                        .expect("evaluate")
                })
            });
            let mut values = vec![0.0; sys.pattern().nnz()];
            let mut gamma = vec![0.0; sys.n_rows()];
            group.bench_function(BenchmarkId::new("phi_q_values+gamma", &tag), |b| {
                b.iter(|| {
                    ws.phi_q_values(&sys, black_box(&mut values)).expect("fill");
                    ws.gamma(&sys, black_box(&mut gamma)).expect("fill");
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, constraints);
criterion_main!(benches);
