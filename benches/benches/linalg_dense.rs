//! Dense backends of mbs-linalg on chain-structured systems: Cholesky of
//! `M + Φ_qᵀαΦ_q` and the KKT solver (strict; minimum-norm by LU of the independent
//! rows and by eigendecomposition, on the chain and on the chain with its first six
//! rows written twice, as a redundant loop closure would), factor + solve per
//! iteration.
//! Dense work is O(n³), so the sweep stops at 128 bodies (n = 768).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use mbs_linalg::dense::{DenseCholesky, DenseKkt, DenseKktParams, KktMode};
use mbs_linalg::{KktSolver, SpdSolver};
use mbs_mechanisms::synthetic::ChainSystem;

fn dense(c: &mut Criterion) {
    let mut g = c.benchmark_group("linalg_dense");
    for nb in [16usize, 32, 64, 128] {
        let sys = ChainSystem::chain(nb, 1);
        let (n, m) = (sys.n(), sys.m());
        let mass = sys.dense_mass();
        let jac = sys.dense_jacobian();
        let aug = &mass + jac.transpose() * &jac * 1e3;
        let rhs: Vec<f64> = (0..n + m).map(|i| (i as f64).sin()).collect();
        let mut chol = DenseCholesky::new(n);
        g.bench_with_input(BenchmarkId::new("cholesky", nb), &nb, |b, _| {
            let mut x = rhs[..n].to_vec();
            b.iter(|| {
                chol.factor(aug.as_slice()).unwrap();
                x.copy_from_slice(&rhs[..n]);
                chol.solve_in_place(&mut x).unwrap();
                black_box(&x);
            })
        });
        let mut kkt = DenseKkt::new(n, m, DenseKktParams::default());
        g.bench_with_input(BenchmarkId::new("kkt_strict", nb), &nb, |b, _| {
            let mut x = rhs.clone();
            b.iter(|| {
                kkt.factor(mass.as_slice(), jac.as_slice()).unwrap();
                x.copy_from_slice(&rhs);
                kkt.solve_in_place(&mut x).unwrap();
                black_box(&x);
            })
        });
        let mut redundant = nalgebra::DMatrix::zeros(m + 6, n);
        redundant.rows_mut(0, m).copy_from(&jac);
        redundant.rows_mut(m, 6).copy_from(&jac.rows(0, 6));
        let rhs_r: Vec<f64> = (0..n + m + 6).map(|i| (i as f64).sin()).collect();
        for (mode, label) in [(KktMode::MinNorm, "lu"), (KktMode::MinNormEigen, "eigen")] {
            for (phi, rows, b, case) in [
                (&jac, m, &rhs, "chain"),
                (&redundant, m + 6, &rhs_r, "redundant"),
            ] {
                let mut kkt = DenseKkt::new(
                    n,
                    rows,
                    DenseKktParams {
                        mode,
                        ..Default::default()
                    },
                );
                let id = BenchmarkId::new(format!("kkt_min_norm_{label}_{case}"), nb);
                g.bench_with_input(id, &nb, |bench, _| {
                    let mut x = b.clone();
                    bench.iter(|| {
                        kkt.factor(mass.as_slice(), phi.as_slice()).unwrap();
                        x.copy_from_slice(b);
                        kkt.solve_in_place(&mut x).unwrap();
                        black_box(&x);
                    })
                });
            }
        }
    }
    g.finish();
}

criterion_group!(benches, dense);
criterion_main!(benches);
