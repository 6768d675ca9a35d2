//! Null-space methods (acceptance 1): on random rank-deficient Jacobians every
//! method gives `‖Φ_q P‖ ≤ 1e-10 ‖Φ_q‖`, `n − rank` columns, `PᵀP = I` where
//! promised, and `S` with `Φ_q S Φ_q = Φ_q`.

mod common;

use common::*;
use mbs_linalg::LinalgError;
use mbs_linalg::SplitMix64;
use mbs_linalg::nullspace::{
    CoordinatePartitioning, NullSpace, NullSpaceBasis, NullSpaceMethod, NullSpaceParams,
    NullSpaceSolver, gauss_jordan, null_space,
};
use nalgebra::DMatrix;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

fn spectral_norm(a: &DMatrix<f64>) -> f64 {
    a.singular_values().iter().fold(0.0_f64, |x, &s| x.max(s))
}

fn check(
    ns: &NullSpace,
    phi: &DMatrix<f64>,
    rank: usize,
    reference_projector: &DMatrix<f64>,
) -> Result<(), TestCaseError> {
    let n = phi.ncols();
    let name = ns.method.name();
    prop_assert_eq!(ns.rank, rank, "{} rank", name);
    prop_assert_eq!(ns.p.shape(), (n, n - rank), "{} shape", name);
    let err = spectral_norm(&(phi * &ns.p));
    prop_assert!(
        err <= 1e-10 * spectral_norm(phi),
        "{}: ‖Φ P‖ = {:e}",
        name,
        err
    );
    prop_assert_eq!(ns.orthonormal, ns.method.is_orthonormal());
    if ns.orthonormal {
        let e = (ns.p.transpose() * &ns.p - DMatrix::identity(n - rank, n - rank)).amax();
        prop_assert!(e < 1e-10, "{}: ‖PᵀP − I‖ = {:e}", name, e);
        // same subspace as the SVD reference
        let proj = &ns.p * ns.p.transpose();
        prop_assert!(
            (proj - reference_projector).amax() < 1e-9,
            "{}: projector differs",
            name
        );
    } else {
        // P spans the null space: full column rank and annihilated by Φ
        let sv = ns.p.singular_values();
        prop_assert!(sv.iter().all(|&s| s > 1e-8), "{}: P rank-deficient", name);
    }
    if let Some(s) = &ns.s {
        prop_assert_eq!(s.shape(), (n, phi.nrows()));
        let e = (phi * s * phi - phi).amax();
        prop_assert!(
            e < 1e-9 * phi.amax().max(1.0),
            "{}: Φ S Φ ≠ Φ ({:e})",
            name,
            e
        );
        match ns.method {
            // X = [Φ_q; Pᵀ] ⇒ B S = Pᵀ S = 0 (eq 3.4, X X⁻¹ = I)
            NullSpaceMethod::ZeroEigen
            | NullSpaceMethod::Schur
            | NullSpaceMethod::Svd
            | NullSpaceMethod::Qr
            | NullSpaceMethod::PutdHouseholder => {
                prop_assert!((ns.p.transpose() * s).amax() < 1e-9, "{}: Pᵀ S ≠ 0", name);
            }
            _ => {}
        }
    }
    Ok(())
}

/// `base`: independent rows spanning the row space of `phi` (the reference
/// null-space projector is `I − baseᵀ (base baseᵀ)⁻¹ base`).
fn run_all(
    phi: &DMatrix<f64>,
    base: &DMatrix<f64>,
    rank: usize,
    rng: &mut SplitMix64,
) -> Result<(), TestCaseError> {
    let n = phi.ncols();
    let params = NullSpaceParams::default();
    let reference = {
        let g = (base * base.transpose()).cholesky().unwrap();
        DMatrix::identity(n, n) - base.transpose() * g.solve(base)
    };
    let mass = random_spd(rng, n);
    for method in NullSpaceMethod::ALL {
        let ns = null_space(method, phi, Some(&mass), &params)
            .map_err(|e| TestCaseError::fail(format!("{method:?}: {e}")))?;
        check(&ns, phi, rank, &reference)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("proptest-regressions/nullspace.txt"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn redundant_jacobians(n in 2usize..24, seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let r = 1 + (rng.next_u64() as usize) % (n - 1);
        let m = r + 1 + (rng.next_u64() as usize) % 6;
        let (phi, base) = rank_deficient_with_base(&mut rng, m, n, r);
        run_all(&phi, &base, r, &mut rng)?;
    }

    #[test]
    fn full_row_rank_jacobians(n in 2usize..24, seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let m = 1 + (rng.next_u64() as usize) % (n - 1);
        let phi = full_row_rank(&mut rng, m, n);
        run_all(&phi, &phi, m, &mut rng)?;
    }
}

#[test]
fn mechanism_jacobian_with_redundant_loop() {
    // A closed loop of spherical joints on 8 bodies has full row rank; stacking
    // a duplicated joint makes 3 rows redundant.
    let sys = mbs_mechanisms::synthetic::ChainSystem::closed_loop(8, 3);
    let phi0 = sys.dense_jacobian();
    let (m0, n) = phi0.shape();
    let mut phi = DMatrix::zeros(m0 + 3, n);
    phi.rows_mut(0, m0).copy_from(&phi0);
    let dup = phi0.rows(6, 3).clone_owned();
    phi.rows_mut(m0, 3).copy_from(&dup);
    let mut rng = SplitMix64::new(1);
    run_all(&phi, &phi0, m0, &mut rng).unwrap();
}

#[test]
fn gauss_jordan_finds_redundant_rows() {
    let phi = DMatrix::from_row_slice(
        3,
        4,
        &[1.0, 2.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 3.0, 1.0, 1.0],
    );
    let gj = gauss_jordan(&phi, 1e-12);
    assert_eq!(gj.rank, 2);
    assert_eq!(gj.redundant_rows, vec![2]);
    assert_eq!(gj.independent_rows, vec![0, 1]);
    assert_eq!(gj.dependent.len(), 2);
    assert_eq!(gj.independent.len(), 2);
    assert!(gj.reduced.row(2).amax() < 1e-14);
}

#[test]
fn coordinate_partition_is_kept_then_reselected_when_pivot_degrades() {
    let params = NullSpaceParams::default();
    let mut cp = CoordinatePartitioning::new(params);
    let phi1 = DMatrix::from_row_slice(1, 3, &[1.0, 0.2, 0.5]);
    let ns = cp.compute(&phi1).unwrap();
    assert_eq!(cp.selections(), 1);
    assert_eq!(cp.partition().unwrap().dependent, vec![0]);
    assert!((&phi1 * &ns.p).amax() < 1e-15);
    // a nearby configuration: the partition stays
    let phi2 = DMatrix::from_row_slice(1, 3, &[0.9, 0.3, 0.5]);
    let ns = cp.compute(&phi2).unwrap();
    assert_eq!(cp.selections(), 1);
    assert!((&phi2 * &ns.p).amax() < 1e-15);
    // the pivot of the dependent coordinate degrades: re-selection
    let phi3 = DMatrix::from_row_slice(1, 3, &[1e-6, 1.0, 0.5]);
    let ns = cp.compute(&phi3).unwrap();
    assert_eq!(cp.selections(), 2);
    assert_eq!(cp.partition().unwrap().dependent, vec![1]);
    assert!((&phi3 * &ns.p).amax() < 1e-15);
    assert!(ns.p.amax() < 10.0);
}

#[test]
fn coordinate_partition_reselected_when_redundancy_changes() {
    let params = NullSpaceParams::default();
    let mut solver = NullSpaceSolver::new(NullSpaceMethod::CoordinatePartitioning, params);
    // row 2 = row 0 + row 1 (redundant)
    let phi1 = DMatrix::from_row_slice(
        3,
        4,
        &[1.0, 0.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.5, 1.0, 1.0, 0.5, 0.5],
    );
    let ns = solver.compute(&phi1).unwrap();
    assert_eq!(ns.rank, 2);
    // row 2 stops being redundant: the kept partition would violate it
    let mut phi2 = phi1.clone();
    phi2[(2, 2)] = 2.0;
    let ns = solver.compute(&phi2).unwrap();
    assert_eq!(ns.rank, 3);
    assert_eq!(solver.partitioning().selections(), 2);
    assert!((&phi2 * &ns.p).amax() < 1e-14);
}

#[test]
fn errors() {
    let phi = DMatrix::from_row_slice(1, 2, &[1.0, f64::NAN]);
    for method in NullSpaceMethod::ALL {
        let r = null_space(
            method,
            &phi,
            Some(&DMatrix::identity(2, 2)),
            &NullSpaceParams::default(),
        );
        assert!(
            matches!(r, Err(LinalgError::NonFinite { index: 1, .. })),
            "{method:?}: {r:?}"
        );
    }
    let phi = DMatrix::from_row_slice(1, 2, &[1.0, 1.0]);
    assert_eq!(
        null_space(
            NullSpaceMethod::WangHuston,
            &phi,
            None,
            &NullSpaceParams::default()
        ),
        Err(LinalgError::MissingMass("wang-huston"))
    );
    let not_spd = DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.0, -1.0]);
    assert!(matches!(
        null_space(
            NullSpaceMethod::WangHuston,
            &phi,
            Some(&not_spd),
            &NullSpaceParams::default()
        ),
        Err(LinalgError::NotPositiveDefinite { .. })
    ));
    // zero Jacobian: rank 0, P = I
    let z = DMatrix::zeros(2, 3);
    for method in NullSpaceMethod::ALL {
        let ns = null_space(
            method,
            &z,
            Some(&DMatrix::identity(3, 3)),
            &NullSpaceParams::default(),
        )
        .unwrap();
        assert_eq!(ns.rank, 0);
        assert_eq!(ns.p.ncols(), 3);
    }
}

#[test]
fn explicit_tolerance_changes_the_rank() {
    // singular values 1 and 1e-7
    let phi = DMatrix::from_row_slice(2, 3, &[1.0, 0.0, 0.0, 0.0, 1e-7, 0.0]);
    for method in [
        NullSpaceMethod::Svd,
        NullSpaceMethod::Qr,
        NullSpaceMethod::PutdHouseholder,
        NullSpaceMethod::PutdGauss,
        NullSpaceMethod::CoordinatePartitioning,
    ] {
        let strict = null_space(
            method,
            &phi,
            None,
            &NullSpaceParams {
                rank_tol: 1e-10,
                compute_s: true,
            },
        )
        .unwrap();
        assert_eq!(strict.rank, 2, "{method:?}");
        let loose = null_space(
            method,
            &phi,
            None,
            &NullSpaceParams {
                rank_tol: 1e-5,
                compute_s: true,
            },
        )
        .unwrap();
        assert_eq!(loose.rank, 1, "{method:?}");
    }
    // eigenvalue methods compare λ = σ² with the tolerance
    for method in [NullSpaceMethod::ZeroEigen, NullSpaceMethod::Schur] {
        let r = null_space(
            method,
            &phi,
            None,
            &NullSpaceParams {
                rank_tol: 1e-16,
                compute_s: true,
            },
        )
        .unwrap();
        assert_eq!(r.rank, 2, "{method:?}");
        let r = null_space(
            method,
            &phi,
            None,
            &NullSpaceParams {
                rank_tol: 1e-10,
                compute_s: true,
            },
        )
        .unwrap();
        assert_eq!(r.rank, 1, "{method:?}");
    }
}
