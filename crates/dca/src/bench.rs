//! Timing helpers for `cargo xtask bench --suite scaling` and the criterion bench.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mbs_integrators::OdeSystem;
use mbs_model::Model;

use crate::error::DcaError;
use crate::params::DcaParams;
use crate::system::AlfDca;

/// Mean wall time of one right-hand-side evaluation (accelerations with the multiplier
/// iterations of `params`) at the model's initial state, over `evals` evaluations
/// after one warm-up. The time is advanced by 1e-9 per call so that no cached
/// matrices are reused (every evaluation does the full assembly).
pub fn time_per_rhs(
    model: Arc<Model>,
    params: DcaParams,
    evals: usize,
) -> Result<Duration, DcaError> {
    let mut dca = AlfDca::new(model, params);
    let mut y = dca.initial_state();
    let mut dy = vec![0.0; dca.dim()];
    let run = |dca: &mut AlfDca, y: &mut [f64], dy: &mut [f64], t: f64| -> Result<(), DcaError> {
        dca.evaluate(t, y)?;
        dca.write_derivative(dy);
        Ok(())
    };
    run(&mut dca, &mut y, &mut dy, 0.0)?;
    let start = Instant::now();
    for k in 0..evals.max(1) {
        run(&mut dca, &mut y, &mut dy, 1e-9 * (k + 1) as f64)?;
    }
    Ok(start.elapsed() / evals.max(1) as u32)
}
