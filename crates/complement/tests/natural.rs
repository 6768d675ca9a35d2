//! Acceptance 4: natural partitioning reproduces the accelerations of the other
//! formulations (open chains and trees to 1e-9 relative; loops through a second
//! null space, and by penalty to the penalty's accuracy), is independent of the
//! thread count, and integrates with RK45 and the two-stage staggered scheme.

mod common;

use std::sync::Arc;

use common::{physical_from_pdot, random_state, rel};
use mbs_complement::{
    ComplementParams, CutTreatment, NaturalParams, NaturalPartitioning, NullSpaceMethod,
    Stabilization, accelerations_at,
};
use mbs_integrators::{EmbeddedRk, RkParams, StaggeredParams, TwoStageStaggered};
use mbs_linalg::Par;
use mbs_mechanisms::generators::{ChainJoint, open_chain, random_loop_mechanism, random_tree};
use mbs_mechanisms::{McPhersonParams, mcpherson_simplified, spatial_four_bar};
use mbs_model::{Layout, Model, State};
use nalgebra::DVector;

fn natural(model: &Arc<Model>, params: NaturalParams, s: &State) -> DVector<f64> {
    let mut np = NaturalPartitioning::new(model.clone(), params).unwrap();
    let y = np.state_to_y(s);
    let n = np.n_q();
    let mut a = DVector::zeros(np.n_v());
    np.accelerations(s.t, &y[..n], &y[n..], a.as_mut_slice())
        .unwrap();
    a
}

fn reference(model: &Arc<Model>, s: &State) -> DVector<f64> {
    let y = [s.q.as_slice(), s.v.as_slice()].concat();
    physical_from_pdot(
        s,
        &accelerations_at(model.clone(), ComplementParams::default(), s.t, &y).unwrap(),
    )
}

#[test]
fn open_chains_and_trees_match_the_complement_method() {
    let mut models: Vec<Arc<Model>> = vec![
        Arc::new(open_chain(6, ChainJoint::Spherical).unwrap()),
        Arc::new(open_chain(5, ChainJoint::Revolute).unwrap()),
    ];
    models.extend((0..6).map(|seed| Arc::new(random_tree(seed, 7).unwrap())));
    let mut worst = 0.0f64;
    for model in &models {
        for k in 0..3 {
            let s = random_state(model, 31 + k, 0.05);
            let d = rel(
                &natural(model, NaturalParams::default(), &s),
                &reference(model, &s),
            );
            worst = worst.max(d);
            assert!(d < 1e-9, "{}: {d:e}", model.name());
        }
    }
    eprintln!("natural partitioning, open trees: largest relative difference {worst:e}");
}

#[test]
fn loops_by_second_null_space_and_penalty() {
    let models: Vec<Arc<Model>> = vec![
        Arc::new(spatial_four_bar(&Default::default()).unwrap()),
        Arc::new(mcpherson_simplified(&McPhersonParams::default()).unwrap()),
        Arc::new(random_loop_mechanism(3, 5).unwrap()),
    ];
    for model in &models {
        let np = NaturalPartitioning::new(model.clone(), NaturalParams::default()).unwrap();
        assert!(np.stats().n_cut > 0, "{}", model.name());
        // at a random (inconsistent) state: second null space is exact
        let s = random_state(model, 5, 0.05);
        let d = rel(
            &natural(model, NaturalParams::default(), &s),
            &reference(model, &s),
        );
        assert!(d < 1e-9, "{} null space: {d:e}", model.name());
        // penalty at the consistent initial state: error O(1/α)
        let s0 = State::initial(model, Layout::EulerParamsPdot);
        let pen = NaturalParams {
            cut: CutTreatment::Penalty {
                alpha: 1e8,
                xi: 1.0,
                omega: 10.0,
            },
            ..NaturalParams::default()
        };
        let d = rel(&natural(model, pen, &s0), &reference(model, &s0));
        assert!(d < 1e-4, "{} penalty: {d:e}", model.name());
    }
}

#[test]
fn same_answer_in_parallel_and_sequentially() {
    let model = Arc::new(random_tree(3, 12).unwrap());
    let s = random_state(&model, 2, 0.05);
    let seq = NaturalParams {
        par: Par::Seq,
        ..NaturalParams::default()
    };
    let a = natural(&model, NaturalParams::default(), &s);
    let b = natural(&model, seq, &s);
    assert_eq!(a, b);
}

#[test]
fn staggered_and_rk45_agree_on_a_chain() {
    let model = Arc::new(open_chain(4, ChainJoint::Spherical).unwrap());
    let t_end = 0.5;
    let mut np = NaturalPartitioning::new(model.clone(), NaturalParams::default()).unwrap();
    let y0 = np.initial_state();
    let mut rk = EmbeddedRk::rk45(y0.len(), RkParams::with_tol(1e-10, 1e-10));
    rk.integrate(&mut np, 0.0, &y0, t_end, &[], &mut ())
        .unwrap();
    let y_rk = rk.y().to_vec();

    let mut np2 = NaturalPartitioning::new(
        model.clone(),
        NaturalParams {
            stabilization: Stabilization::NewtonRaphson { tol: 1e-10 },
            ..NaturalParams::default()
        },
    )
    .unwrap();
    let (nq, nv) = (np2.n_q(), np2.n_v());
    let mut st = TwoStageStaggered::new(nq, nv, StaggeredParams::new(1e-3));
    st.integrate(&mut np2, 0.0, &y0[..nq], &y0[nq..], t_end, &[], &mut ())
        .unwrap();
    let s_rk = np.to_state(t_end, &y_rk);
    let s_st = np2.to_state(t_end, &[st.x(), st.v()].concat());
    let dr = (0..4)
        .map(|b| (s_rk.position(b) - s_st.position(b)).norm())
        .fold(0.0, f64::max);
    assert!(dr < 1e-4, "staggered vs RK45 position difference {dr:e}");
    let _ = NullSpaceMethod::Qr;
}

/// A closed loop integrated by RK45 with the cut joint in a second null space
/// and Baumgarte stabilization: runs and keeps its loop closed.
#[test]
fn four_bar_runs_with_baumgarte() {
    let model = Arc::new(spatial_four_bar(&Default::default()).unwrap());
    let params = NaturalParams {
        stabilization: Stabilization::PAPER_BAUMGARTE,
        ..NaturalParams::default()
    };
    let mut np = NaturalPartitioning::new(model.clone(), params).unwrap();
    let y0 = np.initial_state();
    let mut rk = EmbeddedRk::rk45(y0.len(), RkParams::with_tol(1e-6, 1e-6));
    rk.integrate(&mut np, 0.0, &y0, 2.0, &[], &mut ()).unwrap();
    let s = np.to_state(rk.t(), rk.y());
    let sys = mbs_constraints::SystemLayout::new(&model, Layout::EulerParamsPdot);
    let mut ws = mbs_constraints::Workspace::new(&sys);
    ws.evaluate(&model, &sys, &s).unwrap();
    let mut phi = vec![0.0; sys.n_rows()];
    ws.phi(&sys, &mut phi).unwrap();
    let err = phi.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    assert!(err < 1e-5, "loop closure {err:e}");
}

/// The recursive tree solve (articulated-body sweeps, cut joints through their
/// multipliers) against the dense matrices of the thesis (A, AᵀMA, K and the second
/// null space or the penalty system): the same accelerations within round-off.
#[test]
fn recursive_solver_matches_the_dense_one() {
    use mbs_complement::TreeSolver;
    use mbs_mechanisms::generators::closed_loop;
    let trees: Vec<Arc<Model>> = (0..4)
        .map(|seed| Arc::new(random_tree(seed, 15).unwrap()))
        .collect();
    let loops: Vec<Arc<Model>> = vec![
        Arc::new(closed_loop(12).unwrap()),
        Arc::new(spatial_four_bar(&Default::default()).unwrap()),
        Arc::new(mcpherson_simplified(&McPhersonParams::default()).unwrap()),
        Arc::new(random_loop_mechanism(3, 9).unwrap()),
    ];
    let cuts = [
        CutTreatment::NullSpace {
            method: NullSpaceMethod::Qr,
        },
        // the dense penalty system's condition grows with α (round-off ≈ α ε)
        CutTreatment::Penalty {
            alpha: 1e4,
            xi: 1.0,
            omega: 10.0,
        },
    ];
    let mut branches = 0;
    let mut worst = 0.0f64;
    for (model, with_cuts) in trees
        .iter()
        .map(|m| (m, false))
        .chain(loops.iter().map(|m| (m, true)))
    {
        let np = NaturalPartitioning::new(model.clone(), NaturalParams::default()).unwrap();
        branches = branches.max(np.stats().n_branches);
        assert_eq!(np.stats().n_cut > 0, with_cuts, "{}", model.name());
        for cut in cuts {
            for stabilization in [Stabilization::None, Stabilization::PAPER_BAUMGARTE] {
                for k in 0..2 {
                    let s = random_state(model, 11 + k, 0.05);
                    let params = |solver| NaturalParams {
                        cut,
                        stabilization,
                        solver,
                        ..NaturalParams::default()
                    };
                    let rec = natural(model, params(TreeSolver::Recursive), &s);
                    let dense = natural(model, params(TreeSolver::Dense), &s);
                    let d = rel(&rec, &dense);
                    worst = worst.max(d);
                    assert!(d < 1e-10, "{} {cut:?}: {d:e}", model.name());
                }
            }
        }
    }
    assert!(branches > 1, "a random tree with several branches");
    eprintln!("recursive vs dense tree solve: largest relative difference {worst:e}");
}
