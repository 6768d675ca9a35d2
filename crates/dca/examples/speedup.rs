//! Speed-up of one ALF-DCA right-hand side from 1 to 2 threads on open chains and
//! closed loops (the figure the scaling suite of `cargo xtask bench` reports):
//! `cargo run --release -p mbs-dca --example speedup [n ...]`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mbs_dca::{AlfDca, DcaParams};
use mbs_integrators::{OdeSystem, SystemError};
use mbs_mechanisms::generators::{ChainJoint, closed_loop, open_chain};
use mbs_model::Model;

/// Mean wall time of one right-hand-side evaluation (accelerations with the
/// multiplier iterations of `params`) at the model's initial state, over `evals`
/// evaluations after one warm-up. The time is advanced by 1e-9 per call so that no
/// cached matrices are reused (every evaluation does the full assembly).
fn time_per_rhs(
    model: Arc<Model>,
    params: DcaParams,
    evals: usize,
) -> Result<Duration, SystemError> {
    let mut dca = AlfDca::new(model, params);
    let y = dca.initial_state();
    let mut dy = vec![0.0; dca.dim()];
    let mut run = |t: f64| dca.rhs(t, &y, &mut dy);
    run(0.0)?;
    let start = Instant::now();
    for k in 0..evals.max(1) {
        run(1e-9 * (k + 1) as f64)?;
    }
    Ok(start.elapsed() / evals.max(1) as u32)
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![1024, 4096]
    } else {
        sizes
    };
    for n in sizes {
        for (family, model) in [
            ("open chain", open_chain(n, ChainJoint::Revolute)),
            ("closed loop", closed_loop(n)),
        ] {
            let model = Arc::new(model.expect("generated model"));
            let time = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("thread pool");
                pool.install(|| {
                    // best of 5 batches of 20 evaluations
                    (0..5)
                        .map(|_| time_per_rhs(model.clone(), DcaParams::without_projections(), 20))
                        .map(|r| r.expect("evaluation").as_secs_f64())
                        .fold(f64::INFINITY, f64::min)
                })
            };
            let (t1, t2) = (time(1), time(2));
            println!(
                "{family:>11} n = {n:5}: 1 thread {:9.1} µs, 2 threads {:9.1} µs, speed-up {:.2}",
                t1 * 1e6,
                t2 * 1e6,
                t1 / t2
            );
        }
    }
}
