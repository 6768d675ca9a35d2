//! Acceptance 4 (first half): the same answer bit for bit with 1 and 2 rayon threads
//! (and sequentially), for accelerations, multipliers and projections.

mod common;

use std::sync::Arc;

use mbs_dca::{AlfDca, DcaParams};
use mbs_integrators::OdeSystem;
use mbs_linalg::Par;
use mbs_model::Model;

fn outputs(model: &Arc<Model>, parallel: bool, seed: u64) -> Vec<u64> {
    let params = DcaParams {
        par: Par::from_flag(parallel),
        parallel_min_bodies: 2,
        eps_a: 0.0,
        ..DcaParams::default()
    };
    let mut dca = AlfDca::new(model.clone(), params);
    let state = common::random_state(model, seed, 1e-4);
    let mut y = dca.from_state(&state);
    let mut dy = vec![0.0; dca.dim()];
    dca.rhs(0.1, &y, &mut dy).unwrap();
    let mut out: Vec<u64> = dy.iter().map(|x| x.to_bits()).collect();
    out.extend(dca.multipliers().iter().map(|x| x.to_bits()));
    dca.project_state(0.1, &mut y).unwrap();
    out.extend(y.iter().map(|x| x.to_bits()));
    out
}

#[test]
fn same_bits_for_one_and_two_threads() {
    let cases = [
        common::mechanism(0, 1, 300),
        common::mechanism(2, 3, 150),
        common::mechanism(3, 5, 120),
        common::mechanism(4, 0, 90),
        common::mechanism(6, 0, 0),
    ];
    for model in &cases {
        let reference = outputs(model, false, 11);
        for k in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(k)
                .build()
                .unwrap();
            let got = pool.install(|| outputs(model, true, 11));
            assert!(
                got == reference,
                "{}: {k} threads differ from the sequential run",
                model.name()
            );
        }
    }
}
