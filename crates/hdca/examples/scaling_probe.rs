//! Prints per-RHS time and dropped directions for chains and loops (diagnostic).
use std::sync::Arc;
use std::time::Instant;

use mbs_hdca::{Hdca, HdcaParams};
use mbs_integrators::OdeSystem;
use mbs_linalg::Par;
use mbs_mechanisms::{ChainJoint, closed_loop, open_chain};

fn main() {
    for n in [256usize, 1024, 4096] {
        for (name, m) in [
            ("chain", open_chain(n, ChainJoint::Revolute).unwrap()),
            ("loop", closed_loop(n).unwrap()),
        ] {
            for par in [false, true] {
                let params = HdcaParams {
                    par: Par::from_flag(par),
                    ..HdcaParams::default()
                };
                let mut h = Hdca::new(Arc::new(m.clone()), params).unwrap();
                let y = h.initial_state();
                let mut dy = vec![0.0; y.len()];
                h.rhs(0.0, &y, &mut dy).unwrap();
                let t0 = Instant::now();
                let reps = 20;
                for _ in 0..reps {
                    h.rhs(0.0, &y, &mut dy).unwrap();
                }
                let dt = t0.elapsed().as_secs_f64() / reps as f64;
                println!(
                    "{name} n={n} par={par}: {:.3e} s/RHS ({:.2} µs/body), dropped {}, max|σ| {:.3e}",
                    dt,
                    dt / n as f64 * 1e6,
                    h.stats().redundant_directions,
                    h.stats().max_abs_sigma
                );
            }
        }
    }
}
