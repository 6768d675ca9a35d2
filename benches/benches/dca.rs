//! Suite `dca` (BENCHMARKS.md, ALF-DCA paper sec 4) and the ALF-DCA part of suite
//! `scaling`:
//!
//! * `dca/rhs/{chain,loop,ladder}/n`: one right-hand-side evaluation (assembly of the
//!   matrices, ≤ 10 multiplier iterations of vector passes, disassembly) for n = 16 …
//!   4096 bodies, with 1 and 2 rayon threads;
//! * `dca/paper/{five-bar,double-loop}/{with,without}-projections`: the 10-s runs of
//!   sec 4 (RK45, rtol = atol = 1e-6, the paper's parameters).

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use mbs_dca::{AlfDca, DcaParams};
use mbs_integrators::{EmbeddedRk, OdeSystem, RkParams};
use mbs_mechanisms::{
    AlfDcaParams, ChainJoint, closed_loop, double_loop, five_bar, loop_ladder, open_chain,
};
use mbs_model::Model;

const SIZES: [usize; 5] = [16, 64, 256, 1024, 4096];

fn family(name: &str, n: usize) -> Arc<Model> {
    let m = match name {
        "chain" => open_chain(n, ChainJoint::Revolute),
        "loop" => closed_loop(n),
        _ => loop_ladder((n / 3).max(1)),
    };
    Arc::new(m.expect("mechanism"))
}

fn rhs(c: &mut Criterion) {
    let mut group = c.benchmark_group("dca/rhs");
    group.sample_size(10);
    for name in ["chain", "loop", "ladder"] {
        for n in SIZES {
            let model = family(name, n);
            for threads in [1usize, 2] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("pool");
                let mut dca = AlfDca::new(model.clone(), DcaParams::default());
                let y = dca.initial_state();
                let mut dy = vec![0.0; y.len()];
                let id = BenchmarkId::new(format!("{name}/{threads}t"), model.n_bodies());
                group.bench_function(id, |b| {
                    let mut t = 0.0;
                    pool.install(|| {
                        b.iter(|| {
                            // a new time each call: no cached matrices are reused
                            t += 1e-9;
                            dca.rhs(black_box(t), black_box(&y), &mut dy).expect("rhs");
                        })
                    })
                });
            }
        }
    }
    group.finish();
}

fn paper(c: &mut Criterion) {
    let mut group = c.benchmark_group("dca/paper");
    group.sample_size(10);
    let p = AlfDcaParams::default();
    for (name, model) in [("five-bar", five_bar(&p)), ("double-loop", double_loop(&p))] {
        let model = Arc::new(model.expect("mechanism"));
        for projections in [true, false] {
            let label = if projections {
                "with-projections"
            } else {
                "without-projections"
            };
            group.bench_function(format!("{name}/{label}"), |b| {
                b.iter(|| {
                    let mut dca = AlfDca::new(
                        model.clone(),
                        DcaParams {
                            projections,
                            ..DcaParams::default()
                        },
                    );
                    let y0 = dca.initial_state();
                    let mut rk = EmbeddedRk::rk45(dca.dim(), RkParams::with_tol(1e-6, 1e-6));
                    black_box(
                        rk.integrate(&mut dca, 0.0, &y0, 10.0, &[], &mut ())
                            .expect("run"),
                    )
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, rhs, paper);
criterion_main!(benches);
