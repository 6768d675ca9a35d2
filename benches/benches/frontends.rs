//! One right-hand-side evaluation of every front-end (the state derivative an
//! integrator asks for at each stage, through `FrontEnd::accelerations`) on the
//! five-bar (one loop, 3 redundant constraints) and on a 64-body revolute chain.
//!
//! Front-ends that do not exist yet, or that expose no single RHS evaluation, are
//! listed on stderr and skipped.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mbs::SAMPLE_LAYOUT;
use mbs::mechanisms::{ChainJoint, open_chain};
use mbs::model::{Model, State};
use mbs::{Method, method_names as names, registry::build_front_end};

fn models() -> Vec<(&'static str, Model)> {
    vec![
        (
            "five-bar",
            mbs::builtin("five-bar").expect("built-in five-bar"),
        ),
        (
            "chain-64",
            open_chain(64, ChainJoint::Revolute).expect("64-body chain"),
        ),
    ]
}

fn frontends(c: &mut Criterion) {
    let mut group = c.benchmark_group("rhs");
    for (model_name, model) in models() {
        let state = State::initial(&model, SAMPLE_LAYOUT);
        let model = std::sync::Arc::new(model);
        for (name, _) in names() {
            let Ok(method) = name.parse::<Method>() else {
                continue;
            };
            let mut fe = match build_front_end(&method, &model) {
                Ok(fe) => fe,
                Err(e) => {
                    eprintln!("skip {name} on {model_name}: {e}");
                    continue;
                }
            };
            if let Err(e) = fe.accelerations(&state) {
                eprintln!("skip {name} on {model_name}: {e}");
                continue;
            }
            group.bench_function(format!("{name}/{model_name}"), |b| {
                b.iter(|| black_box(fe.accelerations(black_box(&state)).ok()))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, frontends);
criterion_main!(benches);
