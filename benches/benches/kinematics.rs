//! Micro-benchmarks of the per-body rotation kernels of `mbs-kinematics`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mbs_kinematics::{EulerSequence, euler_angles, euler_params, implicit_update};
use nalgebra::Vector3;

fn kinematics(c: &mut Criterion) {
    let p = euler_params::from_axis_angle(&Vector3::new(0.3, -0.5, 0.8), 2.1);
    let a = euler_params::rotation_unit(&p);
    let w = Vector3::new(0.4, -1.3, 2.2);
    let angles = Vector3::new(0.3, 1.1, -0.7);

    c.bench_function("euler_params::rotation", |b| {
        b.iter(|| euler_params::rotation(black_box(&p)))
    });
    c.bench_function("euler_params::from_rotation", |b| {
        b.iter(|| euler_params::from_rotation(black_box(&a)))
    });
    c.bench_function("euler_params::pddot_from_omega_body_dot", |b| {
        b.iter(|| euler_params::pddot_from_omega_body_dot(black_box(&p), &w, &w))
    });
    c.bench_function("implicit_update::midpoint_update_body", |b| {
        b.iter(|| implicit_update::midpoint_update_body(black_box(&p), black_box(&w), 1e-3))
    });
    c.bench_function("euler_angles::from_rotation ZXZ", |b| {
        b.iter(|| euler_angles::from_rotation(EulerSequence::Zxz, black_box(&a), 1e-8))
    });
    c.bench_function("euler_angles::rates_from_omega ZXZ", |b| {
        b.iter(|| euler_angles::rates_from_omega(EulerSequence::Zxz, black_box(&angles), &w, 1e-8))
    });
}

criterion_group!(benches, kinematics);
criterion_main!(benches);
