//! The cost of output sampling (issue #16): one run at 10, 300 and 3000 output
//! intervals, with and without joint results, timed as a user of the library sees it
//! (`Simulation::run`, plus `JointResults::compute` when requested). The overhead of
//! n samples is (t_n − t_10) / t_n: the share of the run spent on samples beyond the
//! integration itself (the integrator's steps do not depend on the sampling).

use std::time::Instant;

use mbs::joints::{JointResults, MultiplierSource};
use mbs::{IntegratorChoice, Simulation};

use crate::report::{Suite, Table};
use crate::runner::{Ctx, REPEATS, duration};

/// Largest sampling overhead aimed at (issue #16).
const TARGET: f64 = 0.05;

/// Output intervals measured.
const SAMPLES: [usize; 3] = [10, 300, 3000];

/// Wall times \[s\] of `repeats` runs of the case with `n` intervals, sorted.
fn times(n: usize, joints: bool, repeats: usize) -> Result<Vec<f64>, String> {
    let mut v = Vec::with_capacity(repeats);
    for _ in 0..repeats {
        let sim = Simulation::builtin("five-bar")
            .map_err(|e| e.to_string())?
            .method(
                "alf-dca-proj"
                    .parse()
                    .map_err(|e: mbs::Error| e.to_string())?,
            )
            .integrator(IntegratorChoice::Rk45 {
                rtol: 1e-6,
                atol: 1e-6,
            })
            .t_end(2.0)
            .samples(n);
        let start = Instant::now();
        let traj = sim.run().map_err(|e| e.to_string())?;
        if joints {
            let jr = JointResults::compute(sim.model(), &traj, MultiplierSource::Recovered)
                .map_err(|e| e.to_string())?;
            std::hint::black_box(&jr);
        }
        v.push(start.elapsed().as_secs_f64());
        std::hint::black_box(&traj);
    }
    v.sort_by(f64::total_cmp);
    Ok(v)
}

/// The table "output sampling cost", pushed onto `s` (measurements also under
/// `sampling_cost` in results.json).
pub fn measure(ctx: &mut Ctx, s: &mut Suite) {
    let repeats = REPEATS.max(5);
    let mut t = Table::new(
        "sampling_cost",
        "Output sampling cost — five-bar, alf-dca-proj, RK45 rtol = atol = 1e-6, t_end = 2 s",
        &[
            "output intervals",
            "joint results",
            "median wall time",
            "min–max",
            "per sample beyond 10",
            "sampling overhead",
        ],
    );
    let mut json = Vec::new();
    // (joint results requested, overhead at the largest sampling)
    let mut largest: Vec<(bool, f64)> = Vec::new();
    for joints in [false, true] {
        let mut base = None;
        for n in SAMPLES {
            let v = match times(n, joints, repeats) {
                Ok(v) => v,
                Err(e) => {
                    ctx.errors.push(format!("sampling cost, {n} samples: {e}"));
                    continue;
                }
            };
            let median = v[v.len() / 2];
            let b = *base.get_or_insert(median);
            let overhead = (median - b) / median;
            if n == SAMPLES[SAMPLES.len() - 1] {
                largest.push((joints, overhead));
            }
            let per_sample = (n > SAMPLES[0]).then(|| (median - b) / (n - SAMPLES[0]) as f64);
            t.row(vec![
                n.to_string(),
                if joints { "requested" } else { "not requested" }.into(),
                duration(median),
                format!("{} – {}", duration(v[0]), duration(v[v.len() - 1])),
                per_sample.map_or("—".into(), duration),
                format!("{:.1} %", 100.0 * overhead),
            ]);
            json.push(serde_json::json!({
                "intervals": n, "joint_results": joints, "median_s": median,
                "min_s": v[0], "max_s": v[v.len() - 1], "repeats": v.len(),
                "overhead": overhead,
            }));
        }
    }
    t.note(format!(
        "Wall time of `Simulation::run` (and `JointResults::compute` when joint results are requested, as `mbs run` does for joints.csv), median of {repeats} repeats. Sampling overhead: (t_n − t_10) / t_n, the share of the run spent on output samples beyond the integration (the steps do not depend on the sampling). Per sample, the facade projects the dense-output state (this method), computes its accelerations, energies and constraint violations, watches for singular configurations (Φ_q decomposed only where Weyl's inequality cannot rule one out) and adds it to the energy balance; joint results solve the multipliers at every sample."
    ));
    for (joints, overhead) in largest {
        t.note(format!(
            "Target (issue #16): sampling overhead below {:.0} % at {} samples; measured {:.1} % with joint results {}: {}.",
            100.0 * TARGET,
            SAMPLES[SAMPLES.len() - 1],
            100.0 * overhead,
            if joints { "requested" } else { "not requested" },
            if overhead < TARGET { "met" } else { "not met" }
        ));
    }
    s.set("sampling_cost", serde_json::Value::Array(json));
    s.tables.push(t);
}
