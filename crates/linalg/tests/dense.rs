//! Dense solvers against nalgebra references (acceptance 1).

mod common;

use common::*;
use mbs_linalg::SplitMix64;
use mbs_linalg::dense::{DenseCholesky, DenseKkt, DenseKktParams, DenseLdlt, DenseLu, KktMode};
use mbs_linalg::{KktSolver, LinalgError, SpdSolver};
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

fn kkt_matrix(mass: &DMatrix<f64>, phi: &DMatrix<f64>) -> DMatrix<f64> {
    let (n, m) = (mass.nrows(), phi.nrows());
    let mut k = DMatrix::zeros(n + m, n + m);
    k.view_mut((0, 0), (n, n)).copy_from(mass);
    k.view_mut((n, 0), (m, n)).copy_from(phi);
    k.view_mut((0, n), (n, m)).copy_from(&phi.transpose());
    k
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("proptest-regressions/dense.txt"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn spd_solvers_match_reference(n in 1usize..40, seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let a = random_spd(&mut rng, n);
        let b = DVector::from_fn(n, |_, _| rng.uniform(-1.0, 1.0));
        let reference = a.clone().lu().solve(&b).unwrap();
        let mut chol = DenseCholesky::new(n);
        SpdSolver::factor(&mut chol, a.as_slice()).unwrap();
        let mut x = b.clone();
        SpdSolver::solve_in_place(&mut chol, x.as_mut_slice()).unwrap();
        prop_assert!(rel_err_slice(x.as_slice(), reference.as_slice()) < 1e-9);
        let mut ldlt = DenseLdlt::new(n);
        ldlt.factor(a.as_slice()).unwrap();
        let mut y = b.clone();
        ldlt.solve_in_place(y.as_mut_slice()).unwrap();
        prop_assert!(rel_err_slice(y.as_slice(), reference.as_slice()) < 1e-9);
    }

    #[test]
    fn lu_matches_reference(n in 1usize..40, seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let a = random_matrix(&mut rng, n, n) + DMatrix::identity(n, n) * 3.0;
        let b = DVector::from_fn(n, |_, _| rng.uniform(-1.0, 1.0));
        let reference = a.clone().lu().solve(&b).unwrap();
        let mut lu = DenseLu::new(n);
        lu.factor(a.as_slice()).unwrap();
        let mut x = b.clone();
        lu.solve_in_place(x.as_mut_slice()).unwrap();
        prop_assert!(rel_err_slice(x.as_slice(), reference.as_slice()) < 1e-9);
    }

    #[test]
    fn kkt_full_rank_matches_reference(n in 2usize..30, mfrac in 0.1f64..0.9, seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let m = ((n as f64 * mfrac) as usize).max(1);
        let mass = random_spd(&mut rng, n);
        let phi = full_row_rank(&mut rng, m, n);
        let rhs = DVector::from_fn(n + m, |_, _| rng.uniform(-1.0, 1.0));
        let reference = kkt_matrix(&mass, &phi).lu().solve(&rhs).unwrap();
        for mode in [KktMode::Strict, KktMode::MinNorm] {
            let mut kkt = DenseKkt::new(n, m, DenseKktParams { mode, ..Default::default() });
            KktSolver::factor(&mut kkt, mass.as_slice(), phi.as_slice()).unwrap();
            prop_assert_eq!(kkt.info().rank, n + m);
            let mut x = rhs.clone();
            kkt.solve_in_place(x.as_mut_slice()).unwrap();
            prop_assert!(rel_err_slice(x.as_slice(), reference.as_slice()) < 1e-9, "{:?}", mode);
        }
    }

    #[test]
    fn kkt_rank_deficient(n in 3usize..25, seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let r = 1 + (rng.next_u64() as usize) % (n - 1);
        let m = r + 1 + (rng.next_u64() as usize) % 4;
        let mass = random_spd(&mut rng, n);
        let phi = rank_deficient(&mut rng, m, n, r);
        // consistent right-hand side: γ in the range of Φ_q
        let q = DVector::from_fn(n, |_, _| rng.uniform(-1.0, 1.0));
        let gamma = &phi * DVector::from_fn(n, |_, _| rng.uniform(-1.0, 1.0));
        let mut rhs = DVector::zeros(n + m);
        rhs.rows_mut(0, n).copy_from(&q);
        rhs.rows_mut(n, m).copy_from(&gamma);
        // strict mode reports the rank
        let mut strict = DenseKkt::new(n, m, DenseKktParams::default());
        match KktSolver::factor(&mut strict, mass.as_slice(), phi.as_slice()) {
            Err(LinalgError::RankDeficient { rank, dim, .. }) => {
                prop_assert_eq!(rank, n + r);
                prop_assert_eq!(dim, n + m);
            }
            other => prop_assert!(false, "expected RankDeficient, got {:?}", other),
        }
        let mut x = rhs.clone();
        prop_assert_eq!(strict.solve_in_place(x.as_mut_slice()), Err(LinalgError::NotFactorized));
        let k = kkt_matrix(&mass, &phi);
        let mut mn = DenseKkt::new(n, m, DenseKktParams { mode: KktMode::MinNorm, ..Default::default() });
        KktSolver::factor(&mut mn, mass.as_slice(), phi.as_slice()).unwrap();
        prop_assert_eq!(mn.info().rank, n + r);
        let mut x = rhs.clone();
        mn.solve_in_place(x.as_mut_slice()).unwrap();
        // it solves the system
        let res = (&k * &x - &rhs).norm() / rhs.norm();
        prop_assert!(res < 1e-10);
        // and it is the minimum-norm solution: the pseudo-inverse solution from
        // nalgebra's symmetric eigendecomposition of the KKT matrix (eigenvalues below
        // 1e-10·max|λ| dropped). Not nalgebra's SVD pseudo-inverse: on this singular
        // matrix its SVD can lose accuracy (n = 6, seed 11134109705894777349: residual
        // 2.8e-4 of the SVD reference, 2e-15 of this solver and of the eigen one).
        let eig = k.clone().symmetric_eigen();
        let cut = 1e-10 * eig.eigenvalues.amax();
        let mut reference = DVector::zeros(n + m);
        for (j, l) in eig.eigenvalues.iter().enumerate() {
            if l.abs() > cut {
                let c = eig.eigenvectors.column(j).dot(&rhs) / l;
                reference.axpy(c, &eig.eigenvectors.column(j), 1.0);
            }
        }
        prop_assert!(rel_err_slice(x.as_slice(), reference.as_slice()) < 1e-9);
        // an inconsistent γ: the pseudo-inverse solution is the least-squares one (γ
        // projected on the range of Φ_q), again against the eigendecomposition
        let wrong = DVector::from_fn(n + m, |_, _| rng.uniform(-1.0, 1.0));
        let mut reference = DVector::zeros(n + m);
        for (j, l) in eig.eigenvalues.iter().enumerate() {
            if l.abs() > cut {
                let c = eig.eigenvectors.column(j).dot(&wrong) / l;
                reference.axpy(c, &eig.eigenvectors.column(j), 1.0);
            }
        }
        let mut x = wrong.clone();
        mn.solve_in_place(x.as_mut_slice()).unwrap();
        prop_assert!(rel_err_slice(x.as_slice(), reference.as_slice()) < 1e-8);
        let mut eigen = DenseKkt::new(n, m, DenseKktParams { mode: KktMode::MinNormEigen, ..Default::default() });
        KktSolver::factor(&mut eigen, mass.as_slice(), phi.as_slice()).unwrap();
        prop_assert!(eigen.info().eigen);
        let mut y = wrong.clone();
        eigen.solve_in_place(y.as_mut_slice()).unwrap();
        prop_assert!(rel_err_slice(x.as_slice(), y.as_slice()) < 1e-8);
    }
}

#[test]
fn errors_are_values_not_panics() {
    let n = 4;
    let mut chol = DenseCholesky::new(n);
    let mut a = DMatrix::<f64>::identity(n, n);
    a[(2, 2)] = -1.0;
    assert_eq!(
        SpdSolver::factor(&mut chol, a.as_slice()),
        Err(LinalgError::NotPositiveDefinite { index: 2 })
    );
    let mut x = vec![1.0; n];
    assert_eq!(
        SpdSolver::solve_in_place(&mut chol, &mut x),
        Err(LinalgError::NotFactorized)
    );
    a[(2, 2)] = f64::NAN;
    assert!(matches!(
        SpdSolver::factor(&mut chol, a.as_slice()),
        Err(LinalgError::NonFinite { index: 10, .. })
    ));
    assert!(matches!(
        SpdSolver::factor(&mut chol, &[1.0; 3]),
        Err(LinalgError::DimensionMismatch {
            expected: 16,
            got: 3,
            ..
        })
    ));
    let mut lu = DenseLu::new(3);
    let s = DMatrix::from_row_slice(3, 3, &[1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 0.0, 1.0, 1.0]);
    assert!(matches!(
        lu.factor(s.as_slice()),
        Err(LinalgError::Singular { .. })
    ));
    let mut ldlt = DenseLdlt::new(2);
    let z = DMatrix::from_row_slice(2, 2, &[0.0, 1.0, 1.0, 0.0]);
    assert!(matches!(
        ldlt.factor(z.as_slice()),
        Err(LinalgError::Singular { index: 0, .. })
    ));
    let mut chol = DenseCholesky::new(2);
    SpdSolver::factor(&mut chol, DMatrix::<f64>::identity(2, 2).as_slice()).unwrap();
    let mut b = vec![1.0, f64::INFINITY];
    assert!(matches!(
        SpdSolver::solve_in_place(&mut chol, &mut b),
        Err(LinalgError::NonFinite { index: 1, .. })
    ));
}

#[test]
fn kkt_with_singular_mass_on_range_is_solved() {
    // Euler-parameter-like mass: singular, but positive definite on null(Φ_q).
    let mass = DMatrix::from_diagonal(&DVector::from_vec(vec![1.0, 2.0, 0.0]));
    let phi = DMatrix::from_row_slice(1, 3, &[0.0, 0.0, 1.0]);
    let mut kkt = DenseKkt::new(3, 1, DenseKktParams::default());
    KktSolver::factor(&mut kkt, mass.as_slice(), phi.as_slice()).unwrap();
    let mut x = vec![1.0, 4.0, 3.0, 0.5];
    kkt.solve_in_place(&mut x).unwrap();
    let expect = [1.0, 2.0, 0.5, 3.0];
    assert!(rel_err_slice(&x, &expect) < 1e-14, "{x:?}");
}

#[test]
fn trait_objects_select_backends() {
    let mut rng = SplitMix64::new(7);
    let a = random_spd(&mut rng, 6);
    let solvers: Vec<Box<dyn SpdSolver>> =
        vec![Box::new(DenseCholesky::new(6)), Box::new(DenseLdlt::new(6))];
    for mut s in solvers {
        assert_eq!(s.dim(), 6);
        s.factor(a.as_slice()).unwrap();
        let mut x = vec![1.0; 6];
        s.solve_in_place(&mut x).unwrap();
        let r = &a * DVector::from_vec(x) - DVector::from_element(6, 1.0);
        assert!(r.norm() < 1e-12);
    }
}

#[test]
fn backends_selected_by_enum_agree() {
    use mbs_linalg::sparse::{SparseCholeskyParams, SparseKktParams, SparsePattern};
    use mbs_linalg::{AnyKktSolver, AnySpdSolver, KktBackend, SpdBackend};
    use mbs_mechanisms::synthetic::ChainSystem;
    let sys = ChainSystem::closed_loop(10, 4);
    let (n, m) = (sys.n(), sys.m());
    let (ae, av) = sys.augmented_triplets(10.0);
    let mut dense_a = DMatrix::zeros(n, n);
    for (&(i, j), &v) in ae.iter().zip(&av) {
        dense_a[(i, j)] += v;
        if i != j {
            dense_a[(j, i)] += v;
        }
    }
    let b: Vec<f64> = (0..n).map(|i| (i as f64).sin()).collect();
    let mut results = Vec::new();
    for backend in [
        SpdBackend::DenseCholesky,
        SpdBackend::DenseLdlt,
        SpdBackend::SparseCholesky(
            SparsePattern::symmetric_lower(n, &ae).unwrap(),
            SparseCholeskyParams::default(),
        ),
    ] {
        let sparse = matches!(backend, SpdBackend::SparseCholesky(..));
        let mut s = AnySpdSolver::new(backend, n).unwrap();
        s.factor(if sparse { &av } else { dense_a.as_slice() })
            .unwrap();
        let mut x = b.clone();
        s.solve_in_place(&mut x).unwrap();
        results.push(x);
    }
    assert!(rel_err_slice(&results[1], &results[0]) < 1e-10);
    assert!(rel_err_slice(&results[2], &results[0]) < 1e-10);
    let (me, mv) = sys.mass_triplets();
    let (je, jv) = sys.jacobian_triplets();
    let rhs: Vec<f64> = (0..n + m).map(|i| (i as f64).cos()).collect();
    let mut dense = AnyKktSolver::new(KktBackend::Dense(DenseKktParams::default()), n, m).unwrap();
    dense
        .factor(sys.dense_mass().as_slice(), sys.dense_jacobian().as_slice())
        .unwrap();
    let mut x = rhs.clone();
    dense.solve_in_place(&mut x).unwrap();
    let mut sparse = AnyKktSolver::new(
        KktBackend::Sparse {
            mass_entries: me,
            jacobian_entries: je,
            params: SparseKktParams::default(),
        },
        n,
        m,
    )
    .unwrap();
    assert_eq!(sparse.dims(), (n, m));
    sparse.factor(&mv, &jv).unwrap();
    let mut y = rhs.clone();
    sparse.solve_in_place(&mut y).unwrap();
    assert!(rel_err_slice(&y, &x) < 1e-9);
}

/// Euler-parameter shaped KKT: a body's mass matrix `diag(m I₃, 4 GᵀJG)` is singular
/// (rank 3 on the four parameters); the normalization row makes `K` regular. Two
/// copies of the same joint rows make the constraints redundant. The minimum-norm
/// solve takes the LU path (no eigendecomposition) and agrees with the
/// eigendecomposition to round-off, and the multipliers of the copies are equal
/// (the minimum-norm split of one reaction).
#[test]
fn min_norm_by_lu_on_singular_mass_and_duplicated_rows() {
    let n = 7;
    let e = [0.9_f64, 0.1, -0.3, 0.2];
    let norm = e.iter().map(|x| x * x).sum::<f64>().sqrt();
    let e: Vec<f64> = e.iter().map(|x| x / norm).collect();
    // G(e) (NOTATION: ω' = 2 G ė)
    let g = DMatrix::from_row_slice(
        3,
        4,
        &[
            -e[1], e[0], e[3], -e[2], //
            -e[2], -e[3], e[0], e[1], //
            -e[3], e[2], -e[1], e[0],
        ],
    );
    let j = DMatrix::from_diagonal(&DVector::from_vec(vec![0.2, 0.3, 0.4]));
    let mut mass = DMatrix::zeros(n, n);
    for i in 0..3 {
        mass[(i, i)] = 2.0;
    }
    mass.view_mut((3, 3), (4, 4))
        .copy_from(&(g.transpose() * &j * &g * 4.0));
    // spherical joint rows (translation), once more as copies, and the normalization
    let mut phi = DMatrix::zeros(7, n);
    for i in 0..3 {
        phi[(i, i)] = 1.0;
        phi[(3 + i, i)] = 1.0;
    }
    for (k, ek) in e.iter().enumerate() {
        phi[(6, 3 + k)] = 2.0 * ek;
    }
    phi[(0, 4)] = 0.3;
    phi[(3, 4)] = 0.3;
    let m = phi.nrows();
    let rhs = DVector::from_fn(n + m, |i, _| ((i * 7 % 5) as f64 - 2.0) * 0.37);
    let mut rhs_consistent = rhs.clone();
    for i in 0..3 {
        rhs_consistent[n + 3 + i] = rhs_consistent[n + i];
    }
    let mut lu = DenseKkt::new(
        n,
        m,
        DenseKktParams {
            mode: KktMode::MinNorm,
            ..Default::default()
        },
    );
    let mut eig = DenseKkt::new(
        n,
        m,
        DenseKktParams {
            mode: KktMode::MinNormEigen,
            ..Default::default()
        },
    );
    KktSolver::factor(&mut lu, mass.as_slice(), phi.as_slice()).unwrap();
    KktSolver::factor(&mut eig, mass.as_slice(), phi.as_slice()).unwrap();
    assert!(!lu.info().eigen, "{:?}", lu.info());
    assert_eq!(lu.info().rank, n + 4);
    assert_eq!(eig.info().rank, n + 4);
    for b in [&rhs, &rhs_consistent] {
        let mut x = b.clone();
        let mut y = b.clone();
        lu.solve_in_place(x.as_mut_slice()).unwrap();
        eig.solve_in_place(y.as_mut_slice()).unwrap();
        assert!(
            rel_err_slice(x.as_slice(), y.as_slice()) < 1e-12,
            "{x} vs {y}"
        );
    }
    let mut x = rhs_consistent.clone();
    lu.solve_in_place(x.as_mut_slice()).unwrap();
    let k = kkt_matrix(&mass, &phi);
    assert!((&k * &x - &rhs_consistent).norm() < 1e-12 * rhs_consistent.norm());
    for i in 0..3 {
        assert!((x[n + i] - x[n + 3 + i]).abs() < 1e-12 * x.amax());
    }
}

/// Near a singular configuration (two rows at an angle of 1e-7) the LU of the
/// independent rows is ill conditioned: the minimum-norm solve falls back to the
/// eigendecomposition rather than return an inaccurate solution.
#[test]
fn min_norm_falls_back_to_eigen_near_singularity() {
    let n = 3;
    let mass = DMatrix::<f64>::identity(n, n);
    let phi = DMatrix::from_row_slice(2, 3, &[1.0, 0.0, 0.0, 1.0, 1e-7, 0.0]);
    let mut lu = DenseKkt::new(
        n,
        2,
        DenseKktParams {
            mode: KktMode::MinNorm,
            ..Default::default()
        },
    );
    KktSolver::factor(&mut lu, mass.as_slice(), phi.as_slice()).unwrap();
    assert!(lu.info().eigen, "{:?}", lu.info());
    // well away from it the LU path is back, with the held selection
    let phi = DMatrix::from_row_slice(2, 3, &[1.0, 0.0, 0.0, 1.0, 1.0, 0.0]);
    KktSolver::factor(&mut lu, mass.as_slice(), phi.as_slice()).unwrap();
    assert!(!lu.info().eigen, "{:?}", lu.info());
    let mut x = vec![1.0, 2.0, 3.0, 0.5, -0.5];
    lu.solve_in_place(&mut x).unwrap();
    let k = kkt_matrix(&mass, &phi);
    let r = &k * DVector::from_column_slice(&x)
        - DVector::from_column_slice(&[1.0, 2.0, 3.0, 0.5, -0.5]);
    assert!(r.norm() < 1e-13, "{r}");
}
