//! Sparse backends of mbs-linalg on chains of 16…4096 bodies: numeric
//! factorization + solve (the symbolic analysis is done once, outside the loop).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use mbs_linalg::sparse::{
    SparseCholesky, SparseCholeskyParams, SparseKkt, SparseKktParams, SparsePattern,
};
use mbs_mechanisms::synthetic::ChainSystem;

fn sparse(c: &mut Criterion) {
    let mut g = c.benchmark_group("linalg_sparse");
    for nb in [16usize, 64, 256, 1024, 4096] {
        let sys = ChainSystem::chain(nb, 1);
        let (n, m) = (sys.n(), sys.m());
        let (ae, av) = sys.augmented_triplets(1e3);
        let mut chol = SparseCholesky::new(
            SparsePattern::symmetric_lower(n, &ae).unwrap(),
            SparseCholeskyParams::default(),
        )
        .unwrap();
        let rhs: Vec<f64> = (0..n + m).map(|i| (i as f64).sin()).collect();
        g.bench_with_input(BenchmarkId::new("cholesky", nb), &nb, |b, _| {
            let mut x = rhs[..n].to_vec();
            b.iter(|| {
                chol.factorize(&av).unwrap();
                x.copy_from_slice(&rhs[..n]);
                chol.solve(&mut x).unwrap();
                black_box(&x);
            })
        });
        let (me, mv) = sys.mass_triplets();
        let (je, jv) = sys.jacobian_triplets();
        let mut kkt = SparseKkt::new(n, m, &me, &je, SparseKktParams::default()).unwrap();
        g.bench_with_input(BenchmarkId::new("kkt_ldlt", nb), &nb, |b, _| {
            let mut x = rhs.clone();
            b.iter(|| {
                kkt.factorize(&mv, &jv).unwrap();
                x.copy_from_slice(&rhs);
                kkt.solve(&mut x).unwrap();
                black_box(&x);
            })
        });
    }
    g.finish();
}

criterion_group!(benches, sparse);
criterion_main!(benches);
