//! Schur-complement PCG (acceptance 3): chains and loops of 16…1024 bodies solved
//! to a relative residual of 1e-10 with every preconditioner, agreement with the
//! dense Schur complement and the dense arrowhead KKT system, warm start, and
//! bit-identical results for any thread count.

mod common;

use common::*;
use mbs_linalg::pcg::{PcgParams, PcgSolver, Preconditioner};
use mbs_linalg::{LinalgError, Par};
use mbs_mechanisms::synthetic::ChainSystem;
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

const PRECONDITIONERS: [Preconditioner; 3] = [
    Preconditioner::None,
    Preconditioner::Diagonal,
    Preconditioner::Scaled,
];

fn rhs(m: usize) -> Vec<f64> {
    (0..m)
        .map(|i| ((i * 7919) % 97) as f64 / 97.0 - 0.5)
        .collect()
}

fn true_relative_residual(solver: &mut PcgSolver, b: &[f64], x: &[f64]) -> f64 {
    let mut y = vec![0.0; b.len()];
    solver.apply(x, &mut y).unwrap();
    let r: f64 = y
        .iter()
        .zip(b)
        .map(|(a, b)| (a - b) * (a - b))
        .sum::<f64>()
        .sqrt();
    r / b.iter().map(|v| v * v).sum::<f64>().sqrt()
}

#[test]
fn chains_and_loops_16_to_1024_bodies() {
    for nb in [16, 64, 256, 1024] {
        for closed in [false, true] {
            let sys = if closed {
                ChainSystem::closed_loop(nb, nb as u64)
            } else {
                ChainSystem::chain(nb, nb as u64)
            };
            for pre in PRECONDITIONERS {
                let op = sys.arrowhead(1e-8, 1.0).unwrap();
                let params = PcgParams {
                    tol: 1e-10,
                    max_iter: 20 * sys.m(),
                    preconditioner: pre,
                    ..Default::default()
                };
                let mut solver = PcgSolver::new(op, params).unwrap();
                let b = rhs(sys.m());
                let mut x = vec![0.0; sys.m()];
                let info = solver.solve(&b, &mut x).unwrap();
                let res = true_relative_residual(&mut solver, &b, &x);
                assert!(
                    res <= 1e-10,
                    "nb {nb} closed {closed} {pre:?}: residual {res:e}"
                );
                assert!(info.relative_residual <= 1e-10);
                assert!(info.iterations > 0);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("proptest-regressions/pcg.txt"))),
        ..ProptestConfig::default()
    })]

    /// Random chains/loops, penalties and preconditioners: PCG (tight tolerance)
    /// equals the dense Cholesky solution of the formed Schur complement.
    #[test]
    fn random_systems_match_dense(
        nb in 2usize..40,
        closed in any::<bool>(),
        seed in any::<u64>(),
        log_rho in -3.0f64..0.0,
        log_eps_rel in -8.0f64..-1.0,
        pre in 0usize..3,
    ) {
        let rho = 10f64.powf(log_rho);
        let eps = rho * rho * 10f64.powf(log_eps_rel);
        let sys = ChainSystem::with_tilt(nb, closed, seed, 0.3);
        let op = sys.arrowhead(eps, rho).unwrap();
        let reference = op.dense_schur().cholesky().unwrap().solve(&DVector::from_vec(rhs(sys.m())));
        let params = PcgParams { tol: 1e-12, preconditioner: PRECONDITIONERS[pre], ..Default::default() };
        let mut solver = PcgSolver::new(op, params).unwrap();
        let mut x = vec![0.0; sys.m()];
        solver.solve(&rhs(sys.m()), &mut x).unwrap();
        prop_assert!(rel_err_slice(&x, reference.as_slice()) < 1e-9, "{:e}", rel_err_slice(&x, reference.as_slice()));
    }
}

#[test]
fn matches_dense_schur_complement() {
    for sys in [ChainSystem::chain(16, 5), ChainSystem::closed_loop(16, 6)] {
        let (eps, rho) = (1e-6, 0.5);
        let op = sys.arrowhead(eps, rho).unwrap();
        // never formed by the solver: only the reference builds it
        let dense = op.dense_schur();
        let manual = {
            let b = sys.dense_jacobian();
            let mut s = &b * sys.dense_mass().try_inverse().unwrap() * b.transpose() * (rho * rho);
            for i in 0..s.nrows() {
                s[(i, i)] += eps;
            }
            s
        };
        assert!(rel_err(&dense, &manual) < 1e-12);
        let b = rhs(sys.m());
        let reference = dense
            .cholesky()
            .unwrap()
            .solve(&DVector::from_vec(b.clone()));
        for pre in PRECONDITIONERS {
            let mut solver = PcgSolver::new(
                op.clone(),
                PcgParams {
                    tol: 1e-14,
                    preconditioner: pre,
                    ..Default::default()
                },
            )
            .unwrap();
            let mut x = vec![0.0; sys.m()];
            solver.solve(&b, &mut x).unwrap();
            assert!(rel_err_slice(&x, reference.as_slice()) < 1e-9, "{pre:?}");
        }
    }
}

#[test]
fn recovers_the_arrowhead_kkt_solution() {
    // [[M, Bᵀ], [B, −ε/ϱ² I]] [ü; λ] = [c; d]  (Chiou eq 6.2.3)
    let sys = ChainSystem::closed_loop(12, 9);
    let (eps, rho) = (1e-4, 0.01);
    let (n, m) = (sys.n(), sys.m());
    let bmat = sys.dense_jacobian();
    let mut k = DMatrix::zeros(n + m, n + m);
    k.view_mut((0, 0), (n, n)).copy_from(&sys.dense_mass());
    k.view_mut((n, 0), (m, n)).copy_from(&bmat);
    k.view_mut((0, n), (n, m)).copy_from(&bmat.transpose());
    for i in 0..m {
        k[(n + i, n + i)] = -eps / (rho * rho);
    }
    let c: Vec<f64> = (0..n).map(|i| (i as f64 * 0.3).sin()).collect();
    let d: Vec<f64> = (0..m).map(|i| (i as f64 * 0.7).cos()).collect();
    let mut cd = c.clone();
    cd.extend(&d);
    let reference = k.lu().solve(&DVector::from_vec(cd)).unwrap();
    let mut solver = PcgSolver::new(
        sys.arrowhead(eps, rho).unwrap(),
        PcgParams {
            tol: 1e-14,
            ..Default::default()
        },
    )
    .unwrap();
    let mut b = vec![0.0; m];
    solver.schur_rhs(&c, &d, &mut b).unwrap();
    let mut lambda = vec![0.0; m];
    solver.solve(&b, &mut lambda).unwrap();
    let mut udd = vec![0.0; n];
    solver.accelerations(&lambda, &c, &mut udd).unwrap();
    assert!(rel_err_slice(&lambda, &reference.as_slice()[n..]) < 1e-9);
    assert!(rel_err_slice(&udd, &reference.as_slice()[..n]) < 1e-9);
}

#[test]
fn warm_start_saves_iterations() {
    let sys = ChainSystem::chain(128, 3);
    let mut solver =
        PcgSolver::new(sys.arrowhead(1e-8, 1.0).unwrap(), PcgParams::default()).unwrap();
    let b = rhs(sys.m());
    let mut x = vec![0.0; sys.m()];
    let cold = solver.solve(&b, &mut x).unwrap();
    solver.params_mut().warm_start = true;
    // from the converged solution: nothing to do
    let again = solver.solve(&b, &mut x).unwrap();
    assert_eq!(again.iterations, 0);
    // a slightly changed right-hand side: far fewer iterations than cold
    let b2: Vec<f64> = b
        .iter()
        .enumerate()
        .map(|(i, v)| v + 1e-4 * (i as f64).sin())
        .collect();
    let warm = solver.solve(&b2, &mut x).unwrap();
    assert!(
        warm.iterations < cold.iterations,
        "warm {} cold {}",
        warm.iterations,
        cold.iterations
    );
    assert!(true_relative_residual(&mut solver, &b2, &x) <= 1e-10);
}

#[test]
fn bit_identical_for_any_thread_count() {
    let sys = ChainSystem::closed_loop(300, 21);
    let b = rhs(sys.m());
    let run = |par: Par, pre: Preconditioner| {
        let mut solver = PcgSolver::new(
            sys.arrowhead(1e-8, 1.0).unwrap(),
            PcgParams {
                par,
                preconditioner: pre,
                ..Default::default()
            },
        )
        .unwrap();
        let mut x = vec![0.0; sys.m()];
        let info = solver.solve(&b, &mut x).unwrap();
        (x, info.iterations)
    };
    for pre in PRECONDITIONERS {
        let seq = run(Par::Seq, pre);
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| run(Par::Rayon, pre));
        let two = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
            .install(|| run(Par::Rayon, pre));
        let three = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap()
            .install(|| run(Par::Rayon, pre));
        for other in [&one, &two, &three] {
            assert_eq!(seq.1, other.1);
            assert!(
                seq.0
                    .iter()
                    .zip(&other.0)
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "{pre:?}"
            );
        }
    }
}

#[test]
fn reports_non_convergence_and_bad_input() {
    let sys = ChainSystem::chain(64, 4);
    let mut solver = PcgSolver::new(
        sys.arrowhead(1e-8, 1.0).unwrap(),
        PcgParams {
            max_iter: 3,
            ..Default::default()
        },
    )
    .unwrap();
    let b = rhs(sys.m());
    let mut x = vec![0.0; sys.m()];
    match solver.solve(&b, &mut x) {
        Err(LinalgError::NotConverged {
            iterations: 3,
            residual,
            tol,
        }) => {
            assert!(residual > tol);
        }
        other => panic!("expected NotConverged, got {other:?}"),
    }
    let mut bad = b.clone();
    bad[5] = f64::NAN;
    assert!(matches!(
        solver.solve(&bad, &mut x),
        Err(LinalgError::NonFinite { index: 5, .. })
    ));
    assert!(matches!(
        solver.solve(&b[1..], &mut x),
        Err(LinalgError::DimensionMismatch { .. })
    ));
    // a non-SPD mass block is refused when building the operator
    let mut masses = sys.masses.clone();
    masses[3][(4, 4)] = -1.0;
    assert!(matches!(
        mbs_linalg::pcg::ArrowheadOperator::new(&masses, &sys.joints, 0.0, 1.0),
        Err(LinalgError::NotPositiveDefinite { index: 22 })
    ));
}

/// Prints the iteration-count table of the crate README
/// (`cargo test -p mbs-linalg --test pcg -- --ignored --nocapture`).
#[test]
#[ignore]
fn report_iteration_counts() {
    for (label, eps, rho, tilt) in [
        ("eps=1e-8, rho=1, tilt 0.3", 1e-8, 1.0, 0.3),
        ("eps=1e-6, rho=5e-4 (h=1e-3), tilt 0.3", 1e-6, 5e-4, 0.3),
        ("eps=1e-8, rho=1, straight (tilt 0)", 1e-8, 1.0, 0.0),
    ] {
        println!("{label}");
        println!("| bodies | topology | none | diagonal | scaled |");
        for nb in [16, 64, 256, 1024, 4096] {
            for closed in [false, true] {
                if closed && tilt == 0.0 {
                    continue;
                }
                let sys = ChainSystem::with_tilt(nb, closed, nb as u64, tilt);
                let mut row = format!("| {nb} | {} |", if closed { "loop" } else { "chain" });
                for pre in PRECONDITIONERS {
                    let params = PcgParams {
                        tol: 1e-10,
                        max_iter: 100 * sys.m(),
                        preconditioner: pre,
                        ..Default::default()
                    };
                    let mut solver =
                        PcgSolver::new(sys.arrowhead(eps, rho).unwrap(), params).unwrap();
                    let b = rhs(sys.m());
                    let mut x = vec![0.0; sys.m()];
                    // a straight closed loop is over-constrained (redundant axial
                    // rows): M* ≈ εI on that direction, PCG stalls
                    match solver.solve(&b, &mut x) {
                        Ok(info) => row += &format!(" {} |", info.iterations),
                        Err(e) => row += &format!(" {e} |"),
                    }
                }
                println!("{row}");
            }
        }
    }
}

#[test]
fn updated_values_match_a_fresh_operator() {
    // new configuration: same structure, new blocks and masses
    let a = ChainSystem::chain(50, 1);
    let b_sys = ChainSystem::chain(50, 2);
    let mut solver = PcgSolver::new(
        a.arrowhead(1e-6, 0.1).unwrap(),
        PcgParams {
            preconditioner: Preconditioner::Scaled,
            ..Default::default()
        },
    )
    .unwrap();
    for (j, mj) in b_sys.masses.iter().enumerate() {
        solver.operator_mut().set_mass(j, mj.as_slice()).unwrap();
    }
    for (i, blocks) in b_sys.joints.iter().enumerate() {
        for (k, (_, blk)) in blocks.iter().enumerate() {
            solver
                .operator_mut()
                .set_block(i, k, blk.as_slice())
                .unwrap();
        }
    }
    solver.refresh_preconditioner();
    let mut fresh = PcgSolver::new(
        b_sys.arrowhead(1e-6, 0.1).unwrap(),
        PcgParams {
            preconditioner: Preconditioner::Scaled,
            ..Default::default()
        },
    )
    .unwrap();
    let rhs = rhs(a.m());
    let (mut x, mut y) = (vec![0.0; a.m()], vec![0.0; a.m()]);
    let i1 = solver.solve(&rhs, &mut x).unwrap();
    let i2 = fresh.solve(&rhs, &mut y).unwrap();
    assert_eq!(i1, i2);
    assert_eq!(x, y);
    assert!(matches!(
        solver.operator_mut().set_mass(50, &[0.0; 36]),
        Err(LinalgError::InvalidArgument(_))
    ));
    assert!(matches!(
        solver.operator_mut().set_block(3, 2, &[0.0; 18]),
        Err(LinalgError::DimensionMismatch { .. })
    ));
}
