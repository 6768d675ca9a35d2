//! Time per right-hand-side evaluation of natural partitioning, recursive vs dense
//! tree solve, on the open chain (revolute), the closed loop and a random tree
//! (several branches), with 1 and 2 threads (median of 0.3 s of evaluations at the
//! initial state) and the set-up (construction) time. The dense solver is skipped where one evaluation would take
//! more than `dense_max` bodies (default 1024).
//!
//! `cargo run --release -p mbs-complement --example natural_scaling -- [n …] [--dense-max N]`

use std::sync::Arc;
use std::time::Instant;

use mbs_complement::{NaturalParams, NaturalPartitioning, TreeSolver};
use mbs_linalg::Par;
use mbs_mechanisms::generators::{ChainJoint, closed_loop, open_chain, random_tree};
use mbs_model::Model;

fn median_us(np: &mut NaturalPartitioning) -> f64 {
    let y = np.initial_state();
    let nq = np.n_q();
    let mut a = vec![0.0; np.n_v()];
    np.accelerations(0.0, &y[..nq], &y[nq..], &mut a)
        .expect("evaluation");
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 5 || (start.elapsed().as_secs_f64() < 0.3 && times.len() < 1000) {
        let t0 = Instant::now();
        np.accelerations(0.0, &y[..nq], &y[nq..], &mut a)
            .expect("evaluation");
        times.push(t0.elapsed().as_secs_f64() * 1e6);
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut sizes: Vec<usize> = Vec::new();
    let mut dense_max = 1024;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--dense-max" {
            dense_max = it.next().and_then(|v| v.parse().ok()).unwrap_or(dense_max);
        } else if let Ok(n) = a.parse() {
            sizes.push(n);
        }
    }
    if sizes.is_empty() {
        sizes = vec![256, 1024, 4096];
    }
    type Gen = fn(usize) -> Model;
    let families: [(&str, Gen); 3] = [
        ("open chain", |n| {
            open_chain(n, ChainJoint::Revolute).unwrap()
        }),
        ("closed loop", |n| closed_loop(n).unwrap()),
        ("random tree", |n| random_tree(7, n).unwrap()),
    ];
    println!(
        "{:12} {:>6} {:>9} {:>8} {:>14} {:>10} {:>10}",
        "mechanism", "n", "solver", "threads", "µs / rhs", "branches", "set-up s"
    );
    for (fam, generate) in families {
        for &n in &sizes {
            let model = Arc::new(generate(n));
            for solver in [TreeSolver::Recursive, TreeSolver::Dense] {
                if solver == TreeSolver::Dense && n > dense_max {
                    continue;
                }
                for threads in [1, 2] {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .expect("pool");
                    let (us, branches, setup) = pool.install(|| {
                        let params = NaturalParams {
                            solver,
                            par: Par::Rayon,
                            ..Default::default()
                        };
                        let t0 = Instant::now();
                        let mut np =
                            NaturalPartitioning::new(model.clone(), params).expect("front-end");
                        let setup = t0.elapsed().as_secs_f64();
                        (median_us(&mut np), np.stats().n_branches, setup)
                    });
                    println!(
                        "{fam:12} {n:>6} {:>9} {threads:>8} {us:>14.1} {branches:>10} {setup:>10.3}",
                        format!("{solver:?}").to_lowercase()
                    );
                }
            }
        }
    }
}
