//! Schur-complement PCG of mbs-linalg on chains of 16…4096 bodies (Chiou ch 6):
//! one solve of `(εI + ϱ²BM⁻¹Bᵀ)λ = b` from zero, tolerance 1e-10, with the
//! diagonal and scaled preconditioners, sequential and with rayon.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use mbs_linalg::Par;
use mbs_linalg::pcg::{PcgParams, PcgSolver, Preconditioner};
use mbs_mechanisms::synthetic::ChainSystem;

fn pcg(c: &mut Criterion) {
    let mut g = c.benchmark_group("linalg_pcg");
    for nb in [16usize, 64, 256, 1024, 4096] {
        let sys = ChainSystem::chain(nb, 1);
        let m = sys.m();
        let b: Vec<f64> = (0..m)
            .map(|i| ((i * 7919) % 97) as f64 / 97.0 - 0.5)
            .collect();
        for (label, pre, par) in [
            ("diagonal_seq", Preconditioner::Diagonal, Par::Seq),
            ("scaled_seq", Preconditioner::Scaled, Par::Seq),
            ("diagonal_rayon", Preconditioner::Diagonal, Par::Rayon),
        ] {
            // ε = 1e-6, ϱ = h/2 = 5e-4: the penalty-stabilized step of Chiou sec 6.2
            let op = sys.arrowhead(1e-6, 5e-4).unwrap();
            let mut solver = PcgSolver::new(
                op,
                PcgParams {
                    preconditioner: pre,
                    par,
                    ..Default::default()
                },
            )
            .unwrap();
            g.bench_with_input(BenchmarkId::new(label, nb), &nb, |bench, _| {
                let mut x = vec![0.0; m];
                bench.iter(|| {
                    let info = solver.solve(&b, &mut x).unwrap();
                    black_box((&x, info));
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, pcg);
criterion_main!(benches);
