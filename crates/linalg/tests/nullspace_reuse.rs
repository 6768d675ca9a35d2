//! A reused [`NullSpaceWorkspace`] gives the same basis as a fresh one.
//!
//! The complement front-ends keep one workspace for a whole run; anything a
//! decomposition leaves in its output buffers from the previous Jacobian must not
//! leak into the next basis. Regression: faer's SVD of a tall `Φ_qᵀ` (a pendulum's
//! 7 × 2) leaves the top-right block of the full U untouched, so the SVD method
//! returned `P` with `Φ_q P ≠ 0` on the second call (the complement run's step
//! size then collapsed).

mod common;

use common::*;
use mbs_linalg::SplitMix64;
use mbs_linalg::nullspace::{
    NullSpaceMethod, NullSpaceParams, NullSpaceWorkspace, null_space, null_space_into,
};
use nalgebra::DMatrix;

/// Checks `P` and `S` of `ws` for `phi` (rank `rank`) against a fresh computation.
fn check_against_fresh(method: NullSpaceMethod, phi: &DMatrix<f64>, ws: &NullSpaceWorkspace) {
    let name = method.name();
    let mass = DMatrix::<f64>::identity(phi.ncols(), phi.ncols());
    let params = NullSpaceParams::default();
    let fresh = null_space(method, phi, Some(&mass), &params).unwrap();
    assert_eq!(ws.rank(), fresh.rank, "{name}: rank");
    let p = ws.p().clone_owned();
    let scale = phi.amax();
    let res = (phi * &p).amax();
    assert!(
        res <= 1e-12 * scale,
        "{name}: ‖Φ_q P‖ = {res:e} with a reused workspace"
    );
    if method.is_orthonormal() {
        let k = p.ncols();
        let orth = (p.transpose() * &p - DMatrix::<f64>::identity(k, k)).amax();
        assert!(
            orth <= 1e-12,
            "{name}: ‖PᵀP − I‖ = {orth:e} with a reused workspace"
        );
    }
    // P spans the same space: equal orthogonal projectors onto range(P) (P may
    // differ by a rotation of the basis).
    let proj = |p: &DMatrix<f64>| {
        let g = p.transpose() * p;
        p * g.try_inverse().unwrap() * p.transpose()
    };
    let dp = (proj(&p) - proj(&fresh.p)).amax();
    assert!(
        dp <= 1e-10,
        "{name}: projector differs from a fresh one by {dp:e}"
    );
    if let (Some(s), Some(s0)) = (ws.s(), fresh.s.as_ref()) {
        let ds = (s.clone_owned() - s0).amax();
        assert!(
            ds <= 1e-10 * s0.amax().max(1.0),
            "{name}: S differs by {ds:e}"
        );
    }
}

#[test]
fn reused_workspace_matches_fresh_for_every_method() {
    let mut rng = SplitMix64::new(7);
    // (m, n): tall Φ_qᵀ (the QR path of faer's SVD), square-ish, and more rows
    // than columns (redundant, faer transposes).
    for (m, n, rank) in [
        (2, 7, 2),
        (1, 7, 1),
        (5, 7, 5),
        (6, 7, 6),
        (9, 7, 5),
        (4, 14, 3),
    ] {
        for method in NullSpaceMethod::ALL {
            if method == NullSpaceMethod::CoordinatePartitioning {
                continue; // stateful by design: covered by its own tests
            }
            let mut ws = NullSpaceWorkspace::new(m, n);
            let mass = DMatrix::<f64>::identity(n, n);
            for _ in 0..4 {
                let phi = rank_deficient(&mut rng, m, n, rank);
                null_space_into(
                    method,
                    &phi,
                    Some(&mass),
                    &NullSpaceParams::default(),
                    &mut ws,
                )
                .unwrap();
                check_against_fresh(method, &phi, &ws);
            }
        }
    }
}

/// The pendulum Jacobian of the bug report: distance row and normalization row.
#[test]
fn svd_pendulum_jacobian_along_a_swing() {
    let mut ws = NullSpaceWorkspace::new(2, 7);
    for k in 0..6 {
        let y = -1e-4 * k as f64;
        let x = (1.0 - y * y).sqrt();
        let mut phi = DMatrix::zeros(2, 7);
        phi[(0, 0)] = 2.0 * x;
        phi[(0, 1)] = 2.0 * y;
        phi[(1, 3)] = 2.0;
        null_space_into(
            NullSpaceMethod::Svd,
            &phi,
            None,
            &NullSpaceParams::default(),
            &mut ws,
        )
        .unwrap();
        check_against_fresh(NullSpaceMethod::Svd, &phi, &ws);
    }
}
