//! The McPherson-strut sweep of Pękal–Frączek (Figs 2–5): every method ×
//! stabilization × RK45 tolerance, printed as a table.
//!
//! `cargo run --release -p mbs-complement --example strut_sweep -- [simplified|overconstrained] [angles] [t_end] [tol,...]`

#[allow(dead_code)] // a shared fixture: each user takes part of it
#[path = "../tests/common/strut.rs"]
mod strut;

use std::sync::Arc;

use mbs_complement::{Coordinates, EulerSequence, NullSpaceMethod};
use mbs_mechanisms::{McPhersonParams, mcpherson_overconstrained, mcpherson_simplified};
use strut::{PAPER_T_END, PAPER_TOLERANCES, sweep};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let over = args.iter().any(|a| a == "overconstrained");
    let angles = args.iter().any(|a| a == "angles");
    let t_end = args
        .iter()
        .find_map(|a| a.parse::<f64>().ok())
        .unwrap_or(PAPER_T_END);
    let tols: Vec<f64> = args
        .iter()
        .find(|a| a.contains(','))
        .map(|a| a.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| PAPER_TOLERANCES.to_vec());
    let p = McPhersonParams::default();
    let model = Arc::new(if over {
        mcpherson_overconstrained(&p).unwrap()
    } else {
        mcpherson_simplified(&p).unwrap()
    });
    let coords = if angles {
        Coordinates::EulerAngles(EulerSequence::Zyx)
    } else {
        Coordinates::EulerParams
    };
    println!(
        "{:24} {:15} {:>7} {:>10} {:>8} {:>9} {:>10} {:>10} {:>6} status",
        "method", "stabilization", "tol", "wall [s]", "steps", "rhs", "max|Φ|", "max|Φ̇|", "resel"
    );
    for r in sweep(
        model,
        coords,
        &NullSpaceMethod::ALL,
        &tols,
        1e-8,
        t_end,
        true,
    ) {
        println!(
            "{:24} {:15} {:>7.0e} {:>10.3} {:>8} {:>9} {:>10.2e} {:>10.2e} {:>6} {}",
            r.params.method.name(),
            r.params.stabilization.name(),
            r.tol,
            r.wall.as_secs_f64(),
            r.info.accepted_steps,
            r.info.rhs_evals,
            r.max_position_violation,
            r.max_velocity_violation,
            r.stats.reselections,
            r.error.as_deref().unwrap_or("ok"),
        );
    }
}
