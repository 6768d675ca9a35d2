//! The descriptor-form front-ends on `mbs-mechanisms` models: ALF against the KKT
//! solution at random states (Bayo–Ledesma eqs 4 and 8 must agree when the KKT system
//! is regular), and the mass-orthogonal projections on random, redundant and singular
//! mechanisms.

use std::sync::Arc;

use mbs_alf::{
    AlfParams, Descriptor, Formulation, Index1, Level, MechanismDescriptor, Projection,
    ProjectionParams,
};
use mbs_kinematics::euler_params::{from_axis_angle, pdot_from_omega};
use mbs_mechanisms::generators::{SplitMix64, random_loop_mechanism, random_tree};
use mbs_model::Model;
use nalgebra::{DVector, Vector3, Vector4};
use proptest::prelude::*;

/// A random state near the model's initial one: positions moved by up to `dq`,
/// orientations turned by up to `dq` rad, random velocities with ṗ tangent.
fn random_state(model: &Model, seed: u64, dq: f64) -> (Vec<f64>, Vec<f64>) {
    let mut rng = SplitMix64::new(seed);
    let n = model.n_bodies();
    let (mut q, mut v) = (vec![0.0; 7 * n], vec![0.0; 7 * n]);
    for (i, b) in model.bodies().iter().enumerate() {
        let r = b.initial.position + rng.unit_vector() * rng.uniform(0.0, dq);
        let turn = from_axis_angle(&rng.unit_vector(), rng.uniform(0.0, dq));
        let p0 = b.initial.orientation;
        let p = mbs_kinematics::euler_params::product(&turn, &p0);
        let p = p / p.norm();
        q[7 * i..7 * i + 3].copy_from_slice(r.as_slice());
        q[7 * i + 3..7 * i + 7].copy_from_slice(p.as_slice());
        let rd: Vector3<f64> = rng.unit_vector() * rng.uniform(0.0, 2.0);
        let w: Vector3<f64> = rng.unit_vector() * rng.uniform(0.0, 2.0);
        let pd: Vector4<f64> = pdot_from_omega(&p, &w);
        v[7 * i..7 * i + 3].copy_from_slice(rd.as_slice());
        v[7 * i + 3..7 * i + 7].copy_from_slice(pd.as_slice());
    }
    (q, v)
}

/// Whether the constraint Jacobian at the model's initial state is well away from a
/// singular configuration: no singular value between 1e-10 and 1e-2 of the largest
/// (structural redundancy gives exact zeros). Random loop closures occasionally land
/// next to a singular configuration. There the ALF multiplier iteration contracts by
/// ≈ λ(M)/(α s²) along a small singular value s and stops converging once
/// α s² ≲ λ(M) (measured: s = 5.2e-4 of 3.8 leaves ‖Φ_q q̈ − γ‖ = 5e-4 after 30
/// iterations at α = 1e5), and projections reach only round-off ≈ ε/s. Singular
/// positions have their own tests (two four-bars, the DCA suite).
fn well_conditioned(model: &Arc<Model>) -> bool {
    let mut d = MechanismDescriptor::new(model.clone());
    let (q, v) = d.initial();
    d.evaluate(0.0, &q, &v, Level::Positions).unwrap();
    let sv = d.phi_q().clone().svd(false, false).singular_values;
    let max = sv.max();
    sv.iter().all(|&s| s <= 1e-10 * max || s >= 1e-2 * max)
}

/// ALF with α scaled to the model's smallest mass eigenvalue, α = 1e5·clamp(4 λ_min,
/// 1e-3, 1): ALF accelerations carry round-off ≈ α·ε/λ_min(M), and random slender
/// links have λ_min(M) = 4·min eig J' ≪ 1 (well-conditioned trees still converge in a
/// few tens of multiplier iterations at the smaller α).
fn alf_for(model: &Model) -> Formulation {
    let lambda_min = model
        .bodies()
        .iter()
        .map(|b| b.mass.min(4.0 * b.inertia.symmetric_eigenvalues().min()))
        .fold(f64::INFINITY, f64::min);
    let Formulation::Alf(p) = ALF else {
        unreachable!()
    };
    Formulation::Alf(AlfParams {
        alpha: 1e5 * (4.0 * lambda_min).clamp(1e-3, 1.0),
        max_iter: 100,
        ..p
    })
}

fn accelerations(model: &Arc<Model>, f: Formulation, q: &[f64], v: &[f64]) -> DVector<f64> {
    let mut sys = Index1::new(MechanismDescriptor::new(model.clone()), f, Projection::None);
    let mut a = DVector::zeros(q.len());
    sys.accelerations(0.3, q, v, &mut a).expect("accelerations");
    a
}

fn relative_difference(a: &DVector<f64>, b: &DVector<f64>) -> f64 {
    (a - b).amax() / b.amax().max(1.0)
}

/// α = 1e5: ALF accelerations carry a round-off error ≈ α·ε/λ_min relative (the backward
/// error of the Cholesky factorization of M + Φ_qᵀαΦ_q acting on the null space of
/// Φ_q, whose smallest mass eigenvalue λ_min is ≈ 0.01 for the slender random links),
/// ≈ 1e-9 at α = 1e6 and ≈ 1e-10 here.
const ALF: Formulation = Formulation::Alf(AlfParams {
    alpha: 1e5,
    mu: 0.0,
    omega: 0.0,
    max_iter: 30,
    tol: 1e-13,
    warm_start: false,
});

/// One projection (AL and KKT) of the state `random_state(model, seed ⋘ 7, dq)`:
/// ‖Φ‖ ≤ 1e-12 and ‖Φ̇‖ ≤ 1e-12 scaled by the mechanism size.
fn one_projection(model: &Arc<Model>, seed: u64, dq: f64) -> Result<(), TestCaseError> {
    let (q, v) = random_state(model, seed.rotate_left(7), dq);
    for kind in [
        Projection::AugmentedLagrangian(ProjectionParams::default()),
        Projection::Kkt(ProjectionParams::default()),
    ] {
        let (mut q, mut v) = (q.clone(), v.clone());
        let f = match kind {
            Projection::Kkt(_) => Formulation::Lagrange {
                baumgarte: None,
                min_norm: true,
            },
            _ => ALF,
        };
        let mut sys = Index1::new(MechanismDescriptor::new(model.clone()), f, kind);
        let r = sys.project_state(0.0, &mut q, &mut v);
        prop_assert!(r.is_ok(), "{kind:?}: {r:?}");
        let d = sys.system_mut();
        d.evaluate(0.0, &q, &v, Level::Velocities).unwrap();
        let scale = (q.len() as f64).sqrt();
        let phi = d.phi().amax();
        let phid = (d.phi_q() * DVector::from_column_slice(&v) + d.phi_t()).amax();
        prop_assert!(phi <= 1e-12 * scale, "{kind:?}: ‖Φ‖ = {phi:e}");
        prop_assert!(phid <= 1e-12 * scale, "{kind:?}: ‖Φ̇‖ = {phid:e}");
    }
    Ok(())
}

/// Well-conditioned loop mechanisms perturbed by ≈ 1e-2 on which the AL position
/// projection cycled or diverged (the multipliers updated with α times the
/// curvature residual of a step, the penalty force through a stale Φ_q) while the
/// KKT projection converged in ≤ 10 iterations.
#[test]
fn one_projection_regressions() {
    for (seed, n, dq) in [
        (16210984706631027043, 4, 0.007630672295560721),
        (13022733055620240428, 3, 0.009565067945346034),
        (10351436377163532143, 6, 0.008806415196951207),
        (16723951155291746915, 5, 0.006870307148853923),
        (4340417653557799057, 6, 0.006016731216686548),
        (12576045678506765755, 6, 0.009284581425251617),
        (8303442382693471784, 4, 0.009840034386596568),
        (17164239533702218470, 6, 0.007292689600399234),
        (15992489683137280938, 5, 0.0074144988347209844),
    ] {
        let model = Arc::new(random_loop_mechanism(seed, n).unwrap());
        assert!(well_conditioned(&model));
        one_projection(&model, seed, dq)
            .unwrap_or_else(|e| panic!("seed {seed}, n {n}, dq {dq}: {e}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Acceptance 5 of the descriptor front-ends: on mechanisms without redundant
    /// constraints (random trees of every joint kind), ALF accelerations equal the
    /// Lagrange/KKT accelerations to 1e-9 relative at random states.
    #[test]
    fn alf_equals_kkt_on_random_trees(seed in any::<u64>(), n in 1usize..6, sseed in any::<u64>()) {
        let model = Arc::new(random_tree(seed, n).unwrap());
        let (q, v) = random_state(&model, sseed, 0.05);
        let kkt = accelerations(&model, Formulation::Lagrange { baumgarte: None, min_norm: false }, &q, &v);
        let alf = accelerations(&model, alf_for(&model), &q, &v);
        let d = relative_difference(&alf, &kkt);
        prop_assert!(d < 1e-9, "relative difference {d:e}");
    }

    /// With redundant constraints (random loops closed by revolute or spherical
    /// joints), ALF still agrees with the minimum-norm (pseudo-inverse) KKT solution,
    /// whose accelerations are unique.
    #[test]
    fn alf_equals_min_norm_kkt_on_random_loops(seed in any::<u64>(), n in 3usize..7) {
        let model = Arc::new(random_loop_mechanism(seed, n).unwrap());
        prop_assume!(well_conditioned(&model));
        let (q, v) = random_state(&model, seed ^ 0x5eed, 0.0);
        // consistent velocities: project the random ones first
        let mut sys = Index1::new(MechanismDescriptor::new(model.clone()), ALF,
            Projection::AugmentedLagrangian(ProjectionParams::default()));
        let (mut q, mut v) = (q, v);
        sys.project_state(0.0, &mut q, &mut v).unwrap();
        let kkt = accelerations(&model, Formulation::Lagrange { baumgarte: None, min_norm: true }, &q, &v);
        let alf = accelerations(&model, ALF, &q, &v);
        let d = relative_difference(&alf, &kkt);
        // both sides carry round-off here: ALF ≈ α·ε/λ_min(M), and the pseudo-inverse
        // of the KKT matrix (singular M along p, redundant rows), whose eigenvalue
        // cut-off at 1e-11 of the largest loses digits on the short 3-body loops
        // (measured up to 1.4e-8); the non-redundant comparison above is at 1e-9
        prop_assert!(d < 1e-7, "relative difference {d:e}");
    }

    /// Acceptance 4: one projection of a perturbed state of a random loop mechanism
    /// gives ‖Φ‖ ≤ 1e-12 and ‖Φ̇‖ ≤ 1e-12 (scaled by the mechanism size).
    #[test]
    fn one_projection_restores_the_constraints(seed in any::<u64>(), n in 3usize..7, dq in 1e-6f64..1e-2) {
        let model = Arc::new(random_loop_mechanism(seed, n).unwrap());
        prop_assume!(well_conditioned(&model));
        one_projection(&model, seed, dq)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// The sparse-Cholesky ALF (block assembly of M + Φ_qᵀαΦ_q, symbolic analysis
    /// once) gives the dense ALF's accelerations on random loop mechanisms.
    #[test]
    fn sparse_alf_equals_dense_alf(seed in any::<u64>(), n in 2usize..8) {
        let model = Arc::new(random_loop_mechanism(seed, n).unwrap());
        let (q, v) = random_state(&model, seed ^ 77, 0.02);
        let dense = accelerations(&model, ALF, &q, &v);
        let Formulation::Alf(params) = ALF else { unreachable!() };
        let mut sp = mbs_alf::SparseAlf::new(model.clone(), params).unwrap();
        let mut a = DVector::zeros(q.len());
        sp.accelerations_vec(0.3, &q, &v, &mut a).unwrap();
        let d = relative_difference(&a, &dense);
        // the same iteration; the two factorizations' round-off ≈ α·ε/λ_min(M) each
        prop_assert!(d < 1e-8, "relative difference {d:e}");
    }
}

/// The strict Lagrange formulation cannot handle the five-bar's three redundant
/// constraints (25 joint rows + 4 normalization rows, rank 26): the error names the
/// time and the dependent joint; ALF handles it.
#[test]
fn lagrange_reports_redundant_joints_and_alf_handles_them() {
    let model = Arc::new(mbs_mechanisms::alf_dca::five_bar(&Default::default()).unwrap());
    let desc = MechanismDescriptor::new(model.clone());
    let (q, v) = desc.initial();
    let mut sys = Index1::new(
        desc,
        Formulation::Lagrange {
            baumgarte: None,
            min_norm: false,
        },
        Projection::None,
    );
    let mut a = DVector::zeros(q.len());
    let err = sys.accelerations(0.5, &q, &v, &mut a).unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(
            err,
            mbs_alf::AlfError::DependentConstraints {
                rank: 26,
                rows: 29,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(msg.contains("t = 0.5") && msg.contains("joint `"), "{msg}");
    let alf = accelerations(&model, ALF, &q, &v);
    assert!(alf.iter().all(|x| x.is_finite()));
}
