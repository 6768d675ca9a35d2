//! The speed targets (issue 19, acceptance 2), each met or missed by how much, and
//! for a missed one what bounds the time: RHS evaluations × time per evaluation
//! against the run's CPU time, or the per-body cost and the machine's load.

use mbs::mechanisms::named;
use mbs::{Method, Model};

use super::cases::LINKS;
use super::mbs_side::MbsRun;
use crate::report::Table;
use crate::runner::{fixed, loglog_slope, sci};
use crate::suites::scaling::{load_average, time_rhs};

/// Time of one RHS evaluation \[s\] on `threads` threads: the front-end's accelerations
/// at the initial state, or, for a method whose accelerations are not a function of
/// the state alone (HDCA's Hamiltonian form), the wall time of a short run (RK45,
/// 1e-6, 10 ms) per RHS evaluation, best of three.
fn per_rhs(method: &Method, model: &Model, threads: usize) -> Result<f64, String> {
    time_rhs(method, model, threads).or_else(|_| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| e.to_string())?;
        let sim = mbs::Simulation::new(model.clone())
            .method(method.clone())
            .t_end(0.01)
            .samples(1)
            .guard(false);
        (0..3).try_fold(f64::INFINITY, |best, _| {
            let t0 = std::time::Instant::now();
            let traj = pool.install(|| sim.run()).map_err(|e| e.to_string())?;
            let per = t0.elapsed().as_secs_f64() / traj.stats.rhs_evals.max(1) as f64;
            Ok(best.min(per))
        })
    })
}

/// Five-bar, 10 s, one thread \[s\].
pub const FIVE_BAR_SECONDS: f64 = 0.05;
/// Largest fitted exponent of the per-RHS time that counts as O(n).
pub const LINEAR_EXPONENT: f64 = 1.1;
/// Speed-up with 2 threads.
pub const SPEEDUP: f64 = 1.6;
/// Sizes of the per-RHS scaling fit.
pub const SIZES: [usize; 4] = [64, 256, 1024, 4096];

pub fn table() -> Table {
    Table::new(
        "peers_targets",
        "Targets, one thread unless stated",
        &["target", "measured", "status", "what bounds it"],
    )
}

fn verdict(met: bool, by: String) -> String {
    if met {
        "met".into()
    } else {
        format!("missed {by}")
    }
}

/// "N RHS × t µs = X s of Y s CPU": how much of a run is right-hand sides.
pub fn rhs_share(run: &MbsRun, model: &Model) -> String {
    let Ok(method) = run.method.parse::<Method>() else {
        return "—".into();
    };
    match per_rhs(&method, model, 1) {
        Ok(t) => {
            let rhs = run.rhs_evals as f64 * t;
            format!(
                "{} RHS × {} µs = {} s of {} s CPU ({}%); {} steps ({} rejected), {} projections",
                run.rhs_evals,
                fixed(t * 1e6, 1),
                fixed(rhs, 3),
                fixed(run.cpu_median(), 3),
                fixed(100.0 * rhs / run.cpu_median(), 0),
                run.steps,
                run.rejected,
                run.projections
            )
        }
        Err(e) => format!("RHS not timed: {e}"),
    }
}

/// Target 1: the five-bar in ≤ 0.05 s with dE ≤ 1e-8 and ‖Φ‖ ≤ 1e-12.
pub fn five_bar(t: &mut Table, best: Option<&MbsRun>, closest: Option<&MbsRun>, model: &Model) {
    let target = format!("five-bar 10 s, dE ≤ 1e-8 J, ‖Φ‖ ≤ 1e-12, ≤ {FIVE_BAR_SECONDS} s");
    match best {
        Some(r) => {
            let w = r.wall_median();
            let met = w <= FIVE_BAR_SECONDS;
            t.row(vec![
                target,
                format!(
                    "{}: {} s wall ({} s CPU), dE {}, ‖Φ‖ {}",
                    r.label(),
                    fixed(w, 3),
                    fixed(r.cpu_median(), 3),
                    sci(r.energy_error),
                    sci(r.phi)
                ),
                verdict(
                    met,
                    format!(
                        "by ×{} (CPU ×{})",
                        fixed(w / FIVE_BAR_SECONDS, 1),
                        fixed(r.cpu_median() / FIVE_BAR_SECONDS, 1)
                    ),
                ),
                if met {
                    "—".into()
                } else {
                    rhs_share(r, model)
                },
            ]);
        }
        None => t.row(vec![
            target,
            closest.map_or("no run".into(), |r| {
                format!(
                    "closest: {}, dE {}, ‖Φ‖ {}",
                    r.label(),
                    sci(r.energy_error),
                    sci(r.phi)
                )
            }),
            "missed: no run met the accuracy".into(),
            closest.map_or("—".into(), |r| rhs_share(r, model)),
        ]),
    }
}

/// Target 2: chain N = 256 with dE ≤ 1e-6 faster than Pinocchio + DOP853.
pub fn chain_256(
    t: &mut Table,
    best: Option<&MbsRun>,
    pinocchio: Option<(f64, f64)>,
    model: &Model,
) {
    let target =
        "chain N = 256, 10 s, dE ≤ 1e-6 J, faster than Pinocchio + DOP853 (same run)".to_string();
    match (best, pinocchio) {
        (Some(r), Some((pw, pc))) => {
            let (w, c) = (r.wall_median(), r.cpu_median());
            let met = w < pw;
            t.row(vec![
                target,
                format!(
                    "{}: {} s wall ({} s CPU); Pinocchio {} s wall ({} s CPU)",
                    r.label(),
                    fixed(w, 2),
                    fixed(c, 2),
                    fixed(pw, 2),
                    fixed(pc, 2)
                ),
                verdict(
                    met,
                    format!("by ×{} wall (×{} CPU)", fixed(w / pw, 2), fixed(c / pc, 2)),
                ),
                if met {
                    "—".into()
                } else {
                    rhs_share(r, model)
                },
            ]);
        }
        (None, _) => t.row(vec![
            target,
            "no mbs run met dE ≤ 1e-6".into(),
            "missed".into(),
            "—".into(),
        ]),
        (Some(r), None) => t.row(vec![
            target,
            format!(
                "{}: {} s wall; Pinocchio did not run",
                r.label(),
                fixed(r.wall_median(), 2)
            ),
            "not measured (no Pinocchio time)".into(),
            "—".into(),
        ]),
    }
}

fn generate(family: &str, n: usize) -> Option<Model> {
    let spec = match family {
        "chain" => format!("chain:n={n},{LINKS}"),
        _ => format!("ladder:n={},{LINKS}", (n / 3).max(1)),
    };
    named::build(&spec).ok()
}

/// Target 3: per-RHS cost O(n) to n = 4096 for `method` (chain and ladder); returns
/// the per-RHS times for the JSON data.
pub fn per_rhs_scaling(t: &mut Table, method: &str) -> serde_json::Value {
    let mut data = serde_json::Map::new();
    let Ok(m) = method.parse::<Method>() else {
        return data.into();
    };
    for family in ["chain", "ladder"] {
        if let Some(why) =
            generate(family, SIZES[0]).and_then(|model| crate::runner::not_applicable(&m, &model))
        {
            t.note(format!("{method} on the {family}: {why}"));
            continue;
        }
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        for &n in &SIZES {
            let Some(model) = generate(family, n) else {
                continue;
            };
            // the least disturbed of three (a busy moment of the machine shows as a
            // kink in the fit otherwise)
            let best = (0..3)
                .map(|_| per_rhs(&m, &model, 1))
                .try_fold(f64::INFINITY, |b, r| r.map(|x| b.min(x)));
            if let Ok(s) = best {
                eprintln!(
                    "  per-RHS {family} n = {}: {:.1} µs",
                    model.n_bodies(),
                    s * 1e6
                );
                xs.push(model.n_bodies() as f64);
                ys.push(s * 1e6);
            }
        }
        let k = loglog_slope(&xs, &ys);
        let cells: Vec<String> = xs
            .iter()
            .zip(&ys)
            .map(|(n, us)| {
                format!(
                    "n = {n}: {} µs ({} µs/body)",
                    fixed(*us, 0),
                    fixed(us / n, 2)
                )
            })
            .collect();
        let met = k.is_finite() && k <= LINEAR_EXPONENT;
        let per_body: Vec<f64> = xs.iter().zip(&ys).map(|(n, us)| us / n).collect();
        t.row(vec![
            format!("per-RHS cost O(n) to n = 4096, {method}, {family} (exponent ≤ {LINEAR_EXPONENT})"),
            format!("exponent {}; {}", fixed(k, 2), cells.join("; ")),
            verdict(met, format!("(exponent {} > {LINEAR_EXPONENT})", fixed(k, 2))),
            if met {
                "—".into()
            } else {
                format!(
                    "time per body grows from {} to {} µs: a superlinear part of the RHS (profile the largest size)",
                    fixed(per_body.first().copied().unwrap_or(f64::NAN), 2),
                    fixed(per_body.last().copied().unwrap_or(f64::NAN), 2)
                )
            },
        ]);
        data.insert(
            family.into(),
            serde_json::json!({"n": xs, "us": ys, "exponent": k}),
        );
    }
    data.into()
}

/// One RHS on 1 and 2 threads and the load average before.
#[derive(Clone, Copy, Debug)]
pub struct Speedup {
    pub t1: f64,
    pub t2: f64,
    pub load: Option<f64>,
}

impl Speedup {
    pub fn ratio(&self) -> f64 {
        self.t1 / self.t2
    }
}

/// A 1-minute load average above this before the measurement means another process
/// shared the cores: the bench's own thread, busy for minutes before, counts ≈ 1.
const BUSY_LOAD: f64 = 1.5;

/// Below this 1 → 2-thread ratio the second thread did no measurable work.
const NO_PARALLEL_WORK: f64 = 1.15;

/// Rounds of the 1- and 2-thread timings.
const SPEEDUP_ROUNDS: usize = 5;

/// Target 4's measurement: one RHS of `method` on the chain n = 4096 with 1 and 2
/// threads (the best of [`SPEEDUP_ROUNDS`] alternating rounds each).
pub fn measure_speedup(method: &str) -> Result<Speedup, String> {
    let n = *SIZES.last().unwrap_or(&4096);
    let m = method.parse::<Method>().map_err(|e| e.to_string())?;
    let model = generate("chain", n).ok_or("chain not built")?;
    let load = load_average();
    // 1 and 2 threads alternately, the least disturbed of each: a disturbance of the
    // machine then hits both sides alike
    let (mut t1, mut t2) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..SPEEDUP_ROUNDS {
        t1 = t1.min(per_rhs(&m, &model, 1)?);
        t2 = t2.min(per_rhs(&m, &model, 2)?);
    }
    Ok(Speedup { t1, t2, load })
}

/// Target 4: ≥ 1.6× with 2 threads (chain, n = 4096), with the load average; for a
/// method whose second thread did nothing, the fastest two-thread RHS of `others`
/// (the parallel methods measured beside it) says what the target costs.
pub fn speedup(
    t: &mut Table,
    method: &str,
    measured: &Result<Speedup, String>,
    others: &[(String, Result<Speedup, String>)],
) -> serde_json::Value {
    let n = *SIZES.last().unwrap_or(&4096);
    let target = format!("≥ {SPEEDUP}× with 2 threads, {method}, chain n = {n}, one RHS");
    let sp = match measured {
        Ok(sp) => *sp,
        Err(e) => {
            t.row(vec![
                target,
                format!("error: {e}"),
                "not measured".into(),
                "—".into(),
            ]);
            return serde_json::Value::Null;
        }
    };
    let s = sp.ratio();
    let met = s >= SPEEDUP;
    let bound = if met {
        "—".into()
    } else if sp.load.is_some_and(|l| l > BUSY_LOAD) {
        format!(
            "a busy machine: a load average above {BUSY_LOAD} (the bench itself counts ≈ 1) means the second core was shared; rerun on a quiet machine"
        )
    } else if s < NO_PARALLEL_WORK {
        let fastest = others
            .iter()
            .filter(|(m, _)| m != method)
            .filter_map(|(m, r)| r.as_ref().ok().map(|r| (m, r.t2)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let compare = fastest.map_or(String::new(), |(m, t2)| {
            format!(
                "; the fastest two-thread RHS measured here, {m}: {} µs, {} than this method's one-thread {} µs",
                fixed(t2 * 1e6, 0),
                if t2 < sp.t1 { "faster" } else { "slower" },
                fixed(sp.t1 * 1e6, 0)
            )
        });
        format!(
            "no work ran on the second thread: one RHS of {method} has no parallel part on a chain (for aba: each body needs its parent's or its child's result in every sweep){compare}"
        )
    } else {
        format!(
            "parallel efficiency {} % on a quiet machine: the parts of a step that stay on one thread bound it (Amdahl; for hdca at n = 4096, profiled per thread: the pose pass, the gathering loops and the loads)",
            fixed(50.0 * s, 0)
        )
    };
    t.row(vec![
        target,
        format!(
            "{} µs → {} µs: ×{} (load average {} before, 2 cores)",
            fixed(sp.t1 * 1e6, 0),
            fixed(sp.t2 * 1e6, 0),
            fixed(s, 2),
            sp.load.map_or("—".into(), |l| fixed(l, 1))
        ),
        verdict(met, format!("(×{} < {SPEEDUP})", fixed(s, 2))),
        bound,
    ]);
    serde_json::json!({"t1_us": sp.t1 * 1e6, "t2_us": sp.t2 * 1e6, "speedup": s, "load": sp.load})
}
