//! Per-evaluation cost of `alf-joint` and `aba` (no integrator): `cargo run --release
//! -p mbs-hdca --example rhs_cost`.
use std::sync::Arc;
use std::time::Instant;

use mbs_hdca::{JointAlf, JointAlfParams};
use mbs_integrators::OdeSystem;
use mbs_mechanisms::{AlfDcaParams, double_loop, five_bar, loop_ladder};

fn main() {
    for (name, model) in [
        ("five-bar", five_bar(&AlfDcaParams::default()).unwrap()),
        (
            "double-loop",
            double_loop(&AlfDcaParams::default()).unwrap(),
        ),
        ("ladder:n=8", loop_ladder(8).unwrap()),
    ] {
        let mut j = JointAlf::new(Arc::new(model), JointAlfParams::default()).unwrap();
        let y = j.tree().initial_state().unwrap();
        j.resolve_alpha(0.0, &y).unwrap();
        let mut dy = vec![0.0; y.len()];
        let n = 200_000;
        let start = Instant::now();
        for k in 0..n {
            j.rhs(k as f64 * 1e-9, &y, &mut dy).unwrap();
        }
        let per = start.elapsed().as_secs_f64() / n as f64 * 1e6;
        let it = j.stats().multiplier_iterations as f64 / j.stats().rhs_evaluations as f64;
        println!("{name:12} {per:.3} µs per RHS, {it:.2} multiplier iterations");
    }
}
