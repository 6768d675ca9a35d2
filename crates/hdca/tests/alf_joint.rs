//! `alf-joint` (ALF in joint coordinates, cut joints as constraints) checked against
//! quantities it does not compute itself:
//! - its accelerations equal those of the absolute-coordinate Lagrange formulation
//!   (minimum-norm multipliers) at the same physical state, on loops with revolute,
//!   spherical, universal and cylindrical joints, double loops and random loops
//!   (proptest), and those of `aba` on open trees;
//! - its closure Jacobian K and right-hand side γ̂ are the derivatives of the cut
//!   joints' equations along the flow (central differences of Φ and Φ̇ off the
//!   velocity manifold, with the penalty's μ = Ω = 0 so that K u̇ = γ̂ exactly);
//! - its projections put any nearby state on Φ = 0, Φ̇ = 0 to the tolerance;
//! - a conservative loop keeps its energy.

#[path = "common/trees.rs"]
mod trees;

use std::sync::Arc;

use mbs_alf::{Formulation, Index1, MechanismDescriptor, Projection};
use mbs_formulation::OdeFormulation;
use mbs_hdca::{Aba, AbaParams, JointAlf, JointAlfParams};
use mbs_integrators::{EmbeddedRk, OdeSystem, Recorder, RkParams};
use mbs_mechanisms::{
    AlfDcaParams, HdcaParams as CaseParams, double_loop, five_bar, hdca_case1, hdca_case3,
    random_loop_mechanism,
};
use mbs_model::{JointKind, Model, State};
use nalgebra::DVector;
use proptest::prelude::*;

fn params(stabilized: bool) -> JointAlfParams {
    let mut p = JointAlfParams::default();
    if !stabilized {
        p.mu = 0.0;
        p.omega = 0.0;
    }
    p
}

/// The state after integrating `t1` seconds with RK45 at 1e-9 and one projection.
fn state_after(j: &mut JointAlf, t1: f64) -> Vec<f64> {
    let y0 = j.tree().initial_state().unwrap();
    j.resolve_alpha(0.0, &y0).unwrap();
    if t1 == 0.0 {
        return y0;
    }
    let mut rk = EmbeddedRk::rk45(y0.len(), RkParams::with_tol(1e-9, 1e-9));
    let mut rec = Recorder::default();
    rk.integrate(j, 0.0, &y0, t1, &[t1], &mut rec).unwrap();
    let mut y = rec.state(0).to_vec();
    OdeSystem::project(j, t1, &mut y).unwrap();
    y
}

/// q̈ of the Lagrange formulation with minimum-norm multipliers at `st`.
fn lagrange_qdd(model: &Arc<Model>, st: &State) -> DVector<f64> {
    let mut lag = Index1::new(
        MechanismDescriptor::new(model.clone()),
        Formulation::Lagrange {
            baumgarte: None,
            min_norm: true,
        },
        Projection::None,
    );
    let (q, v) = (st.q.as_slice().to_vec(), st.v.as_slice().to_vec());
    let mut qdd = DVector::zeros(q.len());
    lag.accelerations(st.t, &q, &v, &mut qdd).unwrap();
    qdd
}

/// Relative difference of q̈ between `alf-joint` and Lagrange after `t1` seconds.
fn difference_to_lagrange(model: Model, t1: f64) -> f64 {
    let model = Arc::new(model);
    let mut j = JointAlf::new(model.clone(), params(true)).unwrap();
    let y = state_after(&mut j, t1);
    let st = j.tree().to_state(t1, &y).unwrap();
    let mine = OdeFormulation::accelerations(&mut j, &st).unwrap();
    let theirs = lagrange_qdd(&model, &st);
    (&mine - &theirs).amax() / theirs.amax().max(1.0)
}

#[test]
fn loops_match_lagrange_after_a_run() {
    let cases = [
        ("hdca case 1", hdca_case1(&CaseParams::default()).unwrap()),
        ("hdca case 3", hdca_case3(&CaseParams::default()).unwrap()),
        ("five-bar", five_bar(&AlfDcaParams::default()).unwrap()),
        (
            "double loop",
            double_loop(&AlfDcaParams::default()).unwrap(),
        ),
    ];
    for (name, model) in cases {
        let e = difference_to_lagrange(model, 0.4);
        println!("{name}: relative q̈ difference {e:e}");
        assert!(e < 1e-8, "{name}: {e}");
    }
}

#[test]
fn trees_match_the_articulated_body_algorithm() {
    let kinds = [
        JointKind::Revolute,
        JointKind::Prismatic,
        JointKind::Cylindrical,
        JointKind::Universal,
        JointKind::Spherical,
        JointKind::Rigid,
    ];
    for seed in 0..4 {
        let model = Arc::new(trees::random_tree(seed, 9, &kinds, seed % 2 == 1));
        let mut j = JointAlf::new(model.clone(), params(true)).unwrap();
        assert_eq!(j.n_closure_rows(), 0);
        let y = state_after(&mut j, 0.3);
        let mut aba = Aba::new(model, AbaParams::default()).unwrap();
        let (mut d1, mut d2) = (vec![0.0; y.len()], vec![0.0; y.len()]);
        j.derivative(0.3, &y, &mut d1).unwrap();
        aba.derivative(0.3, &y, &mut d2).unwrap();
        let scale = d2.iter().fold(1.0_f64, |m, x| m.max(x.abs()));
        let e = d1
            .iter()
            .zip(&d2)
            .fold(0.0_f64, |m, (a, b)| m.max((a - b).abs()))
            / scale;
        assert!(e < 1e-10, "seed {seed}: {e}");
    }
}

/// Central differences along the flow y ± ε f(y) at a state whose velocities are off
/// the velocity manifold: (Φ₊ − Φ₋)/2ε = K u and (Φ̇₊ − Φ̇₋)/2ε = K u̇ − γ̂ = 0.
fn closure_derivatives_error(model: Model, seed: u64) -> (f64, f64) {
    let model = Arc::new(model);
    let mut j = JointAlf::new(model, params(false)).unwrap();
    let mut y = state_after(&mut j, 0.2);
    let nq = j.n_coords();
    let mut s = seed;
    for v in &mut y[nq..] {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *v += ((s >> 11) as f64 / (1u64 << 53) as f64) - 0.5;
    }
    let m = j.n_closure_rows();
    let mut f = vec![0.0; y.len()];
    j.derivative(0.2, &y, &mut f).unwrap();
    let (mut phi0, mut pd0) = (vec![0.0; m], vec![0.0; m]);
    j.closure_values(0.2, &y, &mut phi0, &mut pd0).unwrap();
    let eps = 1e-5;
    let mut at = |e: f64| {
        let ye: Vec<f64> = y.iter().zip(&f).map(|(a, b)| a + e * b).collect();
        let (mut p, mut pd) = (vec![0.0; m], vec![0.0; m]);
        j.closure_values(0.2 + e, &ye, &mut p, &mut pd).unwrap();
        (p, pd)
    };
    let (plus, minus) = (at(eps), at(-eps));
    let scale = pd0.iter().fold(1.0_f64, |a, x| a.max(x.abs()));
    let (mut e_k, mut e_g) = (0.0_f64, 0.0_f64);
    for r in 0..m {
        e_k = e_k.max(((plus.0[r] - minus.0[r]) / (2.0 * eps) - pd0[r]).abs() / scale);
        e_g = e_g.max(((plus.1[r] - minus.1[r]) / (2.0 * eps)).abs() / scale);
    }
    (e_k, e_g)
}

#[test]
fn closure_jacobian_and_gamma_are_the_derivatives_along_the_flow() {
    let cases = [
        ("five-bar", five_bar(&AlfDcaParams::default()).unwrap()),
        ("hdca case 3", hdca_case3(&CaseParams::default()).unwrap()),
        ("random loop 3", random_loop_mechanism(3, 5).unwrap()),
        ("random loop 8", random_loop_mechanism(8, 6).unwrap()),
    ];
    for (k, (name, model)) in cases.into_iter().enumerate() {
        let (e_k, e_g) = closure_derivatives_error(model, k as u64 + 1);
        println!("{name}: K error {e_k:e}, γ error {e_g:e}");
        assert!(e_k < 1e-7, "{name}: Φ̇ = K u off by {e_k}");
        assert!(e_g < 1e-6, "{name}: Φ̈ = K u̇ − γ̂ off by {e_g}");
    }
}

#[test]
fn a_conservative_loop_keeps_its_energy() {
    let model = Arc::new(five_bar(&AlfDcaParams::default()).unwrap());
    let mut j = JointAlf::new(model, params(true)).unwrap();
    let y0 = j.tree().initial_state().unwrap();
    let e0 = j.tree().energy(0.0, &y0).unwrap();
    let y = state_after(&mut j, 2.0);
    let e1 = j.tree().energy(2.0, &y).unwrap();
    println!("energy drift {:e}", e1 - e0);
    assert!((e1 - e0).abs() < 1e-6, "{e0} → {e1}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random single loops (random joints, closure by a spherical or revolute
    /// joint): after a run and a projection the closures hold, and the
    /// accelerations equal Lagrange's.
    #[test]
    fn random_loops_close_and_match_lagrange(seed in 0u64..10_000, n in 3usize..8) {
        let model = random_loop_mechanism(seed, n).unwrap();
        let shared = Arc::new(model.clone());
        let mut j = JointAlf::new(shared, params(true)).unwrap();
        let y = state_after(&mut j, 0.15);
        let m = j.n_closure_rows();
        let (mut phi, mut pd) = (vec![0.0; m], vec![0.0; m]);
        j.closure_values(0.15, &y, &mut phi, &mut pd).unwrap();
        for r in 0..m {
            prop_assert!(phi[r].abs() <= 1e-11, "Φ[{}] = {}", r, phi[r]);
            prop_assert!(pd[r].abs() <= 1e-10, "Φ̇[{}] = {}", r, pd[r]);
        }
        let e = difference_to_lagrange(model, 0.15);
        prop_assert!(e < 1e-7, "relative q̈ difference {}", e);
    }
}
