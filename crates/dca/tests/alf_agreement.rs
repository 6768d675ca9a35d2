//! Acceptance 1: ALF-DCA accelerations equal those of the global ALF (`mbs-alf`) with
//! the same α and iteration count, at random states of random mechanisms (chains,
//! trees, single and coupled loops, redundant ones included).
//!
//! α = 1e5 · min(1, 4 λ_min(M)) with λ_min(M) the smallest mass or principal inertia:
//! 1e5 for the paper's mechanisms (J' = 0.25), less for slender links (the
//! accelerations of both carry a round-off ≈ α·ε/λ_min(M): for the generators' links,
//! λ_min ≈ 8e-4, α = 1e5 gives differences ≈ 1e-8 that are round-off of *both*
//! solvers, not disagreement). Both run a
//! fixed number of iterations (ε_a = 0 here, tol = 0 in the global ALF). The global ALF
//! works in [ṙ, ṗ] with normalization rows; its p̈ is mapped to ω̇' = 2G(p)p̈.

mod common;

use mbs_alf::{AlfAccelerations, AlfParams, Descriptor, Level, MechanismDescriptor};
use mbs_dca::{AlfDca, DcaParams, PenaltyScale};
use mbs_kinematics::euler_params::omega_body_dot_from_pddot;
use mbs_linalg::Par;
use mbs_model::Layout;
use nalgebra::{DVector, Vector4};
use proptest::prelude::*;

const ALPHA: f64 = 1e5;

/// The penalty of the comparison (see the module docs).
fn alpha_for(model: &mbs_model::Model) -> f64 {
    let lmin = model
        .bodies()
        .iter()
        .map(|b| {
            let e = nalgebra::SymmetricEigen::new(b.inertia).eigenvalues.min();
            e.min(b.mass)
        })
        .fold(f64::INFINITY, f64::min);
    ALPHA * (4.0 * lmin).min(1.0)
}

/// Max relative difference between the two accelerations at one random state.
fn compare(kind: u8, seed: u64, n: usize, iters: usize, parallel: bool) -> f64 {
    let model = common::mechanism(kind, seed, n);
    compare_model(&model, seed, iters, parallel)
}

fn compare_model(
    model: &std::sync::Arc<mbs_model::Model>,
    seed: u64,
    iters: usize,
    parallel: bool,
) -> f64 {
    let state = common::random_state(model, seed, 0.05);
    let nb = model.n_bodies();
    let alpha = alpha_for(model);

    let params = DcaParams {
        alpha: PenaltyScale::Absolute(alpha),
        mu: 1.0,
        omega: 1.0,
        max_iter: iters,
        eps_a: 0.0,
        par: Par::from_flag(parallel),
        parallel_min_bodies: 2,
        ..DcaParams::default()
    };
    let mut dca = AlfDca::new(model.clone(), params);
    let mut a_dca = vec![0.0; 6 * nb];
    let info = dca.accelerations_at(&state, &mut a_dca).unwrap();
    assert_eq!(info.iterations, iters);

    let sp = state.to_layout(Layout::EulerParamsPdot);
    let mut desc = MechanismDescriptor::new(model.clone());
    desc.evaluate(sp.t, sp.q.as_slice(), sp.v.as_slice(), Level::Full)
        .unwrap();
    let mut alf = AlfAccelerations::new(
        desc.n(),
        desc.m(),
        AlfParams {
            alpha,
            mu: 1.0,
            omega: 1.0,
            max_iter: iters,
            tol: 0.0,
            warm_start: false,
        },
    );
    let mut qdd = DVector::zeros(desc.n());
    alf.solve(sp.t, &desc, sp.v.as_slice(), &mut qdd).unwrap();

    let mut diff: f64 = 0.0;
    let mut scale: f64 = 0.0;
    for b in 0..nb {
        let p = sp.euler_params(b);
        let pdd = Vector4::new(
            qdd[7 * b + 3],
            qdd[7 * b + 4],
            qdd[7 * b + 5],
            qdd[7 * b + 6],
        );
        let wd = omega_body_dot_from_pddot(&p, &pdd);
        for i in 0..3 {
            diff = diff.max((a_dca[6 * b + i] - qdd[7 * b + i]).abs());
            diff = diff.max((a_dca[6 * b + 3 + i] - wd[i]).abs());
            scale = scale.max(qdd[7 * b + i].abs()).max(wd[i].abs());
        }
    }
    // Multipliers (eq 17): same rows, except that the [ṙ, ṗ] layout inserts one
    // normalization row per body between the holonomic and nonholonomic rows.
    let lam_dca = dca.multipliers();
    let lam_alf = alf.multipliers();
    let n_h = dca.layout().n_holonomic();
    let mut ldiff: f64 = 0.0;
    let mut lscale: f64 = 0.0;
    for (i, l) in lam_dca.iter().enumerate() {
        let k = if i < n_h { i } else { i + nb };
        ldiff = ldiff.max((l - lam_alf[k]).abs());
        lscale = lscale.max(lam_alf[k].abs());
    }
    let lrel = ldiff / lscale.max(1.0);
    assert!(lrel < 1e-7, "multipliers differ by {lrel:e} (relative)");
    diff / scale.max(1.0)
}

#[test]
fn paper_mechanisms_agree() {
    // 7: free floating (root boundary case of eq 35), with an isolated body
    for kind in [5u8, 6, 7] {
        for iters in [1, 3, 10] {
            let e = compare(kind, 7, 4, iters, true);
            assert!(
                e < 1e-9,
                "kind {kind}, {iters} iterations: relative difference {e:e}"
            );
        }
    }
}

/// Every built-in mechanism of `mbs-mechanisms` (drivers, rolling contact, spatial
/// loops included).
#[test]
fn builtin_mechanisms_agree() {
    for b in mbs_mechanisms::builtin() {
        let model = std::sync::Arc::new((b.build)().unwrap());
        if model.n_bodies() == 0 {
            continue;
        }
        for iters in [1, 4] {
            let e = compare_model(&model, 5, iters, true);
            eprintln!(
                "{} ({} bodies, {} iterations): {e:.1e}",
                b.name,
                model.n_bodies(),
                iters
            );
            assert!(
                e < 1e-9,
                "{}: {iters} iterations: relative difference {e:e}",
                b.name
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn random_mechanisms_agree(kind in 0u8..8, seed in 0u64..1_000_000, n in 1usize..40, iters in 1usize..8) {
        let n = if kind == 3 { n.max(2) } else { n };
        let e = compare(kind, seed, n, iters, seed % 2 == 0);
        prop_assert!(e < 1e-9, "kind {}, seed {}, n {}, {} iterations: relative difference {:e}", kind, seed, n, iters, e);
    }
}

/// Prints the largest difference over many random cases (for the report).
#[test]
#[ignore]
fn report_max_difference() {
    let mut worst: f64 = 0.0;
    for seed in 0..300u64 {
        let kind = (seed % 7) as u8;
        let n = 1 + (seed as usize * 7) % 40;
        let n = if kind == 3 { n.max(2) } else { n };
        let e = compare(kind, seed, n, 1 + (seed as usize) % 8, seed % 2 == 0);
        worst = worst.max(e);
    }
    eprintln!("max relative difference over 300 cases: {worst:e}");
}
