//! Sparse direct solvers: agreement with dense references (acceptance 1) and
//! symbolic-factorization reuse (acceptance 2).

mod common;

use common::*;
use mbs_linalg::SplitMix64;
use mbs_linalg::dense::{DenseKkt, DenseKktParams, KktMode};
use mbs_linalg::sparse::{
    SparseCholesky, SparseCholeskyParams, SparseKkt, SparseKktParams, SparsePattern,
};
use mbs_linalg::{KktSolver, LinalgError, SpdSolver};
use mbs_mechanisms::synthetic::ChainSystem;
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// Random sparse SPD matrix `A = GᵀG + I`, as full-symmetric triplets.
fn random_sparse_spd(
    rng: &mut SplitMix64,
    n: usize,
    density: f64,
) -> (Vec<(usize, usize)>, Vec<f64>, DMatrix<f64>) {
    let mut g = DMatrix::zeros(n, n);
    for i in 0..n {
        for j in 0..n {
            if rng.uniform(0.0, 1.0) < density {
                g[(i, j)] = rng.uniform(-1.0, 1.0);
            }
        }
    }
    let a = g.transpose() * &g + DMatrix::identity(n, n);
    let mut e = Vec::new();
    let mut v = Vec::new();
    for j in 0..n {
        for i in 0..n {
            if a[(i, j)] != 0.0 {
                e.push((i, j));
                v.push(a[(i, j)]);
            }
        }
    }
    (e, v, a)
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("proptest-regressions/sparse.txt"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn sparse_cholesky_matches_dense(n in 1usize..60, density in 0.02f64..0.3, seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let (entries, values, a) = random_sparse_spd(&mut rng, n, density);
        let pattern = SparsePattern::symmetric_lower(n, &entries).unwrap();
        let mut chol = SparseCholesky::new(pattern, SparseCholeskyParams::default()).unwrap();
        chol.factor(&values).unwrap();
        let b = DVector::from_fn(n, |_, _| rng.uniform(-1.0, 1.0));
        let reference = a.clone().cholesky().unwrap().solve(&b);
        let mut x = b.clone();
        chol.solve_in_place(x.as_mut_slice()).unwrap();
        prop_assert!(rel_err_slice(x.as_slice(), reference.as_slice()) < 1e-9);
    }

    #[test]
    fn sparse_kkt_matches_dense(n in 2usize..30, mfrac in 0.1f64..0.9, seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let m = ((n as f64 * mfrac) as usize).max(1);
        let mass = random_spd(&mut rng, n);
        let phi = full_row_rank(&mut rng, m, n);
        let (me, mv) = dense_triplets(&mass);
        let (je, jv) = dense_triplets(&phi);
        let mut kkt = SparseKkt::new(n, m, &me, &je, SparseKktParams::default()).unwrap();
        kkt.factor(&mv, &jv).unwrap();
        let mut dense = DenseKkt::new(n, m, DenseKktParams::default());
        KktSolver::factor(&mut dense, mass.as_slice(), phi.as_slice()).unwrap();
        let rhs: Vec<f64> = (0..n + m).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let mut x = rhs.clone();
        kkt.solve_in_place(&mut x).unwrap();
        let mut y = rhs.clone();
        dense.solve_in_place(&mut y).unwrap();
        prop_assert!(rel_err_slice(&x, &y) < 1e-9, "{:e}", rel_err_slice(&x, &y));
    }

    #[test]
    fn sparse_kkt_redundant_constraints(n in 3usize..25, seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let r = 1 + (rng.next_u64() as usize) % (n - 1);
        let m = r + 1 + (rng.next_u64() as usize) % 4;
        let mass = random_spd(&mut rng, n);
        let phi = rank_deficient(&mut rng, m, n, r);
        let (me, mv) = dense_triplets(&mass);
        let (je, jv) = dense_triplets(&phi);
        let mut kkt = SparseKkt::new(n, m, &me, &je, SparseKktParams::default()).unwrap();
        kkt.factor(&mv, &jv).unwrap();
        let q = DVector::from_fn(n, |_, _| rng.uniform(-1.0, 1.0));
        let gamma = &phi * DVector::from_fn(n, |_, _| rng.uniform(-1.0, 1.0));
        let mut rhs: Vec<f64> = q.iter().copied().collect();
        rhs.extend(gamma.iter());
        let mut x = rhs.clone();
        kkt.solve_in_place(&mut x).unwrap();
        let mut dense = DenseKkt::new(n, m, DenseKktParams { mode: KktMode::MinNorm, ..Default::default() });
        KktSolver::factor(&mut dense, mass.as_slice(), phi.as_slice()).unwrap();
        let mut y = rhs.clone();
        dense.solve_in_place(&mut y).unwrap();
        // q̈ and the constraint force Φ_qᵀλ are unique; λ is not
        prop_assert!(rel_err_slice(&x[..n], &y[..n]) < 1e-9);
        let fx = phi.transpose() * DVector::from_column_slice(&x[n..]);
        let fy = phi.transpose() * DVector::from_column_slice(&y[n..]);
        prop_assert!(rel_err_slice(fx.as_slice(), fy.as_slice()) < 1e-9);
    }
}

fn dense_triplets(a: &DMatrix<f64>) -> (Vec<(usize, usize)>, Vec<f64>) {
    let mut e = Vec::new();
    let mut v = Vec::new();
    for j in 0..a.ncols() {
        for i in 0..a.nrows() {
            e.push((i, j));
            v.push(a[(i, j)]);
        }
    }
    (e, v)
}

#[test]
fn symbolic_factorization_is_reused() {
    // M + Φ_qᵀ α Φ_q of a 64-body chain; the second step has new values.
    let sys = ChainSystem::chain(64, 11);
    let n = sys.n();
    let (entries, v1) = sys.augmented_triplets(1e3);
    let pattern = SparsePattern::symmetric_lower(n, &entries).unwrap();
    let mut chol = SparseCholesky::new(pattern.clone(), SparseCholeskyParams::default()).unwrap();
    let symbolic_addr = chol.symbolic() as *const _;
    let l_nnz = chol.factor_nnz();
    chol.factorize(&v1).unwrap();
    let b: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
    let mut x1 = b.clone();
    chol.solve(&mut x1).unwrap();
    // new numeric values on the same pattern (another chain configuration, another α)
    let sys2 = ChainSystem::chain(64, 12);
    let (entries2, v2) = sys2.augmented_triplets(5e2);
    assert_eq!(entries, entries2);
    chol.factorize(&v2).unwrap();
    assert_eq!(chol.symbolic_analyses(), 1);
    assert_eq!(chol.numeric_factorizations(), 2);
    assert!(std::ptr::eq(symbolic_addr, chol.symbolic()));
    assert_eq!(chol.factor_nnz(), l_nnz);
    let mut x2 = b.clone();
    chol.solve(&mut x2).unwrap();
    // a fresh analysis + factorization gives the same answer, bit for bit
    let mut fresh = SparseCholesky::new(pattern, SparseCholeskyParams::default()).unwrap();
    fresh.factorize(&v2).unwrap();
    let mut x3 = b.clone();
    fresh.solve(&mut x3).unwrap();
    assert_eq!(x2, x3);
    assert_ne!(x1, x2);
    // and the dense reference
    let mut a = DMatrix::zeros(n, n);
    for (&(i, j), &v) in entries.iter().zip(&v2) {
        a[(i, j)] += v;
        if i != j {
            a[(j, i)] += v;
        }
    }
    let reference = a.cholesky().unwrap().solve(&DVector::from_vec(b));
    assert!(rel_err_slice(&x2, reference.as_slice()) < 1e-9);
}

#[test]
fn pattern_sums_duplicates_and_ignores_upper() {
    let entries = [(0, 0), (1, 0), (0, 1), (1, 1), (1, 0)];
    let p = SparsePattern::symmetric_lower(2, &entries).unwrap();
    assert_eq!(p.nnz(), 3);
    let mut csc = vec![0.0; 3];
    p.scatter(&[2.0, 0.5, 100.0, 3.0, 0.25], &mut csc).unwrap();
    assert_eq!(csc, vec![2.0, 0.75, 3.0]);
    assert!(matches!(
        SparsePattern::symmetric_lower(2, &[(2, 0)]),
        Err(LinalgError::InvalidPattern { row: 2, col: 0, .. })
    ));
    assert!(matches!(
        p.scatter(&[1.0; 4], &mut csc),
        Err(LinalgError::DimensionMismatch { .. })
    ));
    assert!(matches!(
        p.scatter(&[1.0, f64::NAN, 0.0, 1.0, 0.0], &mut csc),
        Err(LinalgError::NonFinite { index: 1, .. })
    ));
}

#[test]
fn sparse_cholesky_reports_non_spd() {
    let p = SparsePattern::symmetric_lower(2, &[(0, 0), (1, 1)]).unwrap();
    let mut c = SparseCholesky::new(p, SparseCholeskyParams::default()).unwrap();
    assert!(matches!(
        c.factorize(&[1.0, -1.0]),
        Err(LinalgError::NotPositiveDefinite { .. })
    ));
    let mut x = vec![1.0, 1.0];
    assert_eq!(c.solve(&mut x), Err(LinalgError::NotFactorized));
}

#[test]
fn sparse_kkt_on_chain_and_loop() {
    for sys in [ChainSystem::chain(40, 1), ChainSystem::closed_loop(40, 2)] {
        let (n, m) = (sys.n(), sys.m());
        let (me, mv) = sys.mass_triplets();
        let (je, jv) = sys.jacobian_triplets();
        let mut kkt = SparseKkt::new(n, m, &me, &je, SparseKktParams::default()).unwrap();
        kkt.factorize(&mv, &jv).unwrap();
        let rhs: Vec<f64> = (0..n + m).map(|i| (i as f64).cos()).collect();
        let mut x = rhs.clone();
        let info = kkt.solve(&mut x).unwrap();
        assert!(info.residual < 1e-14, "{info:?}");
        let mut dense = DenseKkt::new(n, m, DenseKktParams::default());
        KktSolver::factor(
            &mut dense,
            sys.dense_mass().as_slice(),
            sys.dense_jacobian().as_slice(),
        )
        .unwrap();
        let mut y = rhs.clone();
        dense.solve_in_place(&mut y).unwrap();
        assert!(rel_err_slice(&x, &y) < 1e-9);
    }
}

#[test]
fn kkt_with_singular_mass_blocks() {
    // Euler-parameter-like layout: each 7 × 7 mass block has a null vector v_j,
    // and a normalization-like row v_jᵀ per body makes the KKT matrix regular.
    let mut rng = SplitMix64::new(42);
    let nb = 12;
    let n = 7 * nb;
    let mut mass = DMatrix::zeros(n, n);
    let mut rows: Vec<DVector<f64>> = Vec::new();
    for j in 0..nb {
        let q = random_orthogonal(&mut rng, 7);
        let d = DVector::from_fn(7, |i, _| if i == 0 { 0.0 } else { rng.uniform(0.5, 2.0) });
        let mj = &q * DMatrix::from_diagonal(&d) * q.transpose();
        let mj = (&mj + mj.transpose()) * 0.5;
        mass.view_mut((7 * j, 7 * j), (7, 7)).copy_from(&mj);
        let mut v = DVector::zeros(n);
        v.rows_mut(7 * j, 7).copy_from(&q.column(0));
        rows.push(v);
    }
    // chain couplings between neighbouring bodies (3 rows per joint)
    for j in 1..nb {
        for _ in 0..3 {
            let mut r = DVector::zeros(n);
            for k in 0..14 {
                r[7 * (j - 1) + k] = rng.uniform(-1.0, 1.0);
            }
            rows.push(r);
        }
    }
    let m = rows.len();
    let phi = DMatrix::from_fn(m, n, |i, k| rows[i][k]);
    let mut me = Vec::new();
    let mut mv = Vec::new();
    for j in 0..nb {
        for c in 0..7 {
            for r in c..7 {
                me.push((7 * j + r, 7 * j + c));
                mv.push(mass[(7 * j + r, 7 * j + c)]);
            }
        }
    }
    let mut je = Vec::new();
    let mut jv = Vec::new();
    for i in 0..m {
        for k in 0..n {
            if phi[(i, k)] != 0.0 {
                je.push((i, k));
                jv.push(phi[(i, k)]);
            }
        }
    }
    let mut kkt = SparseKkt::new(n, m, &me, &je, SparseKktParams::default()).unwrap();
    kkt.factorize(&mv, &jv).unwrap();
    let rhs: Vec<f64> = (0..n + m).map(|i| (i as f64 * 0.9).sin()).collect();
    let mut x = rhs.clone();
    kkt.solve(&mut x).unwrap();
    let mut dense = DenseKkt::new(n, m, DenseKktParams::default());
    KktSolver::factor(&mut dense, mass.as_slice(), phi.as_slice()).unwrap();
    let mut y = rhs.clone();
    dense.solve_in_place(&mut y).unwrap();
    assert!(rel_err_slice(&x, &y) < 1e-9, "{:e}", rel_err_slice(&x, &y));
}
