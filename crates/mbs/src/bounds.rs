//! Sizes a user gives for a run, bounded before anything is allocated: the number of
//! samples against the memory available ([`mbs_model::memory`]) and the number of
//! fixed steps against the step limit. Each refusal names the parameter, its value
//! and the limit.

use std::fmt;

use mbs_model::Model;
use mbs_model::memory::{SHARE, available_bytes, fits, gigabytes};

use crate::compare::{general, sci};
use crate::error::Error;
use crate::integrator::IntegratorChoice;

/// Bytes of one sample per body: state (7 + 7), accelerations (7) and up to 7
/// multipliers, 8 bytes each.
pub const SAMPLE_BYTES_PER_BODY: f64 = 8.0 * 28.0;

/// Bytes of one sample besides its bodies: time, measures and the vectors' headers.
pub const SAMPLE_BYTES_FIXED: f64 = 256.0;

/// Refuses a fixed step `h` that needs more than `max_steps` steps from `t0` to
/// `t_end` (an adaptive integrator is held to the same limit while it runs).
pub fn check_step_count(
    integrator: &IntegratorChoice,
    t0: f64,
    t_end: f64,
    max_steps: usize,
) -> Result<(), Error> {
    let Some(h) = integrator.step() else {
        return Ok(());
    };
    let steps = (t_end - t0) / h;
    if steps <= max_steps as f64 {
        return Ok(());
    }
    Err(Error::param(
        format!("integrator `{}`", integrator.name()),
        "h",
        format!(
            "needs (t_end − t0)/h = {} steps to reach t_end = {}, more than the step limit {max_steps} (`--max-steps`): increase h, shorten t_end or raise the limit",
            sci(steps),
            general(t_end),
        ),
        general(h),
    ))
}

/// Refuses `count` samples of `model` whose storage would not fit in the available
/// memory, naming `parameter` (given as `value`), the sizes and how many fit.
pub fn check_sample_memory(
    model: &Model,
    parameter: &str,
    count: f64,
    value: impl fmt::Display,
) -> Result<(), Error> {
    check_samples_in(model, parameter, count, value, available_bytes())
}

/// [`check_sample_memory`] with `available` bytes (`None`: not checked).
fn check_samples_in(
    model: &Model,
    parameter: &str,
    count: f64,
    value: impl fmt::Display,
    available: Option<u64>,
) -> Result<(), Error> {
    let per_sample = SAMPLE_BYTES_FIXED + SAMPLE_BYTES_PER_BODY * model.n_bodies() as f64;
    let bytes = count * per_sample;
    match available {
        Some(a) if !fits(bytes, available) => Err(Error::param(
            "run",
            parameter,
            format!(
                "gives {} samples taking ≈ {} GB (≈ {per_sample:.0} bytes each for this model) and {} GB of memory are available (at most {:.0} % may be used): at most {:.0} samples fit",
                sci(count),
                gigabytes(bytes),
                gigabytes(a as f64),
                100.0 * SHARE,
                (SHARE * a as f64 / per_sample).floor()
            ),
            value,
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_beyond_memory_are_refused_with_sizes() {
        let model = mbs_mechanisms::named::build("chain:n=10").unwrap();
        // 2496 bytes a sample; 1e6 samples ≈ 2.5 GB; 1 GB available
        let e = check_samples_in(&model, "samples", 1e6, 999_999, Some(1_000_000_000))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("`samples`") && e.contains("999999") && e.contains("2.5 GB"),
            "{e}"
        );
        assert!(e.contains("at most 320512 samples"), "{e}");
        assert!(check_samples_in(&model, "samples", 1e5, 1, Some(1_000_000_000)).is_ok());
        assert!(check_samples_in(&model, "samples", 1e12, 1, None).is_ok());
    }

    #[test]
    fn fixed_steps_beyond_the_limit_are_refused() {
        let h = IntegratorChoice::Trapezoidal { h: 1e-9 };
        let e = check_step_count(&h, 0.0, 10.0, 1_000_000)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("`h`") && e.contains("1.00e10") && e.contains("1000000"),
            "{e}"
        );
        assert!(check_step_count(&h, 0.0, 1e-4, 1_000_000).is_ok());
        let rk = IntegratorChoice::Rk45 {
            rtol: 1e-6,
            atol: 1e-6,
        };
        assert!(check_step_count(&rk, 0.0, 1e300, 10).is_ok());
    }
}
