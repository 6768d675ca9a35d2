//! Suites `scaling` and `consistency`: time per right-hand-side evaluation vs size with 1
//! and 2 threads; front-end agreement at the same state; work–precision.

use std::time::Instant;

use mbs::mechanisms::{ChainJoint, closed_loop, loop_ladder, open_chain};
use mbs::model::{Model, State};
use mbs::plot::{LineChart, Series};
use mbs::{IntegratorChoice, Method, Sampling};

use crate::report::{NOT_IMPLEMENTED, Suite, Table};
use crate::runner::{Ctx, REPEATS, Run, Timing, fixed, loglog_slope, not_applicable, sci};

/// Front-ends measured by the scaling and consistency suites.
pub const FRONT_ENDS: [&str; 10] = [
    "aba",
    "lagrange",
    "alf",
    "alf-index3",
    "penalty",
    "penalty-pcg",
    "alf-dca",
    "hdca",
    "natural-partitioning",
    "complement-svd",
];

/// Median time of one RHS evaluation \[s\] within a small time budget, or why not (see
/// [`time_rhs_timing`]).
pub(crate) fn time_rhs(method: &Method, model: &Model, threads: usize) -> Result<f64, String> {
    time_rhs_timing(method, model, threads).map(|t| t.median)
}

/// Median wall time of `eval` \[s\] over at least 5 and at most 1000 calls within about
/// 0.2 s, after one untimed warm-up call; the first error stops it.
fn median_time<T>(eval: impl FnMut() -> Result<T, String>) -> Result<f64, String> {
    timing(eval).map(|t| t.median)
}

/// Median, min and max wall time of `eval` \[s\], as [`median_time`].
fn timing<T>(mut eval: impl FnMut() -> Result<T, String>) -> Result<Timing, String> {
    eval()?;
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < REPEATS || (start.elapsed().as_secs_f64() < 0.2 && times.len() < 1000) {
        let t0 = Instant::now();
        eval()?;
        times.push(t0.elapsed().as_secs_f64());
    }
    Ok(stats(times))
}

fn stats(mut times: Vec<f64>) -> Timing {
    times.sort_by(f64::total_cmp);
    Timing {
        median: times[times.len() / 2],
        min: times[0],
        max: times[times.len() - 1],
        repeats: times.len(),
    }
}

/// Median, min and max time of one RHS evaluation of `method` on `model` with
/// `threads` threads (see [`measure`]).
fn time_rhs_timing(method: &Method, model: &Model, threads: usize) -> Result<Timing, String> {
    measure(method, model, threads, 1).map(|m| m.rhs)
}

/// Front-ends whose state is in joint coordinates: timed by short integrations.
const JOINT_COORDINATES: [&str; 2] = ["hdca", "aba"];

/// Set-up time and RHS timing of one front-end on one model.
#[derive(Clone, Copy, Debug)]
struct Measured {
    /// Wall time of building the front-end (`mbs::registry::build_front_end`) and its
    /// first evaluation (which builds what is deferred to it) \[s\].
    setup: f64,
    /// Time of one RHS evaluation: the best (lowest median) of the rounds.
    rhs: Timing,
}

/// Builds `method`'s front-end for `model` once (timed) in a pool of `threads`
/// threads and times one RHS evaluation in `rounds` rounds, keeping the least
/// disturbed round (lowest median): by direct `accelerations` calls at the initial
/// state, or, for a front-end whose state is not the absolute one
/// ([`JOINT_COORDINATES`]), as wall time / RHS count of short RK45 runs (integrator
/// overhead included).
fn measure(
    method: &Method,
    model: &Model,
    threads: usize,
    rounds: usize,
) -> Result<Measured, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    pool.install(|| {
        let shared = std::sync::Arc::new(model.clone());
        let t0 = Instant::now();
        let mut fe = mbs::registry::build_front_end(method, &shared).map_err(|e| e.to_string())?;
        // some front-ends build their system at the first evaluation (penalty: the
        // initial multipliers): it belongs to the set-up
        let state = State::initial(model, mbs::SAMPLE_LAYOUT);
        // joint-coordinate front-ends map the absolute state to their coordinates in
        // `accelerations` (poses, the constraint check): that is not an evaluation
        let direct =
            !JOINT_COORDINATES.contains(&method.name()) && fe.accelerations(&state).is_ok();
        let setup = t0.elapsed().as_secs_f64();
        let mut best: Option<Timing> = None;
        for _ in 0..rounds.max(1) {
            let t = if direct {
                timing(|| {
                    fe.accelerations(&state)
                        .map(std::hint::black_box)
                        .map_err(|e| e.to_string())
                })?
            } else {
                rk45_per_rhs(method, model)?
            };
            if best.is_none_or(|b| t.median < b.median) {
                best = Some(t);
            }
        }
        let rhs = best.ok_or_else(|| "no timing round".to_string())?;
        Ok(Measured { setup, rhs })
    })
}

/// Integration time / RHS count of short RK45 runs of `method` on `model` (the
/// trajectory's wall time is the integration's: the front-end's set-up and the map
/// from the absolute state are not in it; used only for front-ends without direct
/// accelerations): [`rk45_per_rhs_over`] at rtol = atol = 1e-6 over 1 ms.
fn rk45_per_rhs(method: &Method, model: &Model) -> Result<Timing, String> {
    rk45_per_rhs_over(method, model, 1e-6, 1e-3, None)
}

/// Wall time / RHS evaluations \[s\] of repeated RK45 runs (rtol = atol = `tol`) of
/// `method` on `model` from t = 0 to `t_end`, integrator work included; median, min
/// and max over the runs. The trajectory's wall time is the integration's only (not
/// the front-end's set-up); samples at the start and end only, guard off, on the
/// calling thread's rayon pool. At least [`REPEATS`] runs unless they take more than
/// [`RK45_BUDGET_S`] (then as many as fit, at least one), more while under 0.2 s.
/// `max_steps` bounds a run whose steps collapse (it then fails with the facade's
/// message).
pub(crate) fn rk45_per_rhs_over(
    method: &Method,
    model: &Model,
    tol: f64,
    t_end: f64,
    max_steps: Option<usize>,
) -> Result<Timing, String> {
    let mut sim = mbs::Simulation::new(model.clone())
        .method(method.clone())
        .integrator(IntegratorChoice::Rk45 {
            rtol: tol,
            atol: tol,
        })
        .t_end(t_end)
        .sampling(Sampling::Intervals(1))
        .guard(false);
    if let Some(n) = max_steps {
        sim = sim.max_steps(n);
    }
    let mut per_rhs = Vec::new();
    let start = Instant::now();
    let more =
        |k: usize, s: f64| k == 0 || (k < REPEATS && s < RK45_BUDGET_S) || (s < 0.2 && k < 100);
    while more(per_rhs.len(), start.elapsed().as_secs_f64()) {
        let t = sim.run().map_err(|e| e.to_string())?;
        per_rhs.push(t.wall_time / t.stats.rhs_evals.max(1) as f64);
    }
    Ok(stats(per_rhs))
}

/// Wall-time budget \[s\] of the repeated RK45 runs of [`rk45_per_rhs`] beyond the first.
const RK45_BUDGET_S: f64 = 5.0;

/// Limit of the predicted set-up (front-end construction) time \[s\]: a size whose
/// set-up, extrapolated from the two largest measured sizes, exceeds it is skipped.
const SETUP_LIMIT_S: f64 = 20.0;

/// Limit of the predicted time of one RHS evaluation \[µs\] in the scaling tables.
const RHS_LIMIT_US: f64 = 1e6;

/// Why a size is skipped before building anything, from the series measured so far
/// (`xs` bodies, `ys` µs per RHS, `sx`/`sy` bodies and set-up seconds), or `None`.
fn skip_reason(xs: &[f64], ys: &[f64], sx: &[f64], sy: &[f64], n: f64) -> Option<String> {
    let predicted = predict_us(xs, ys, n);
    if predicted > RHS_LIMIT_US {
        return Some(format!(
            "skipped (≈ {} s per RHS predicted)",
            fixed(predicted * 1e-6, 1)
        ));
    }
    let setup = predict_us(sx, sy, n);
    (setup > SETUP_LIMIT_S).then(|| format!("skipped (set-up ≈ {} s predicted)", fixed(setup, 0)))
}

pub fn scaling(ctx: &mut Ctx) -> Suite {
    let mut s = Suite::new(
        "scaling",
        "Time per right-hand-side evaluation vs size, 1 and 2 threads",
    );
    let sizes: Vec<usize> = if ctx.quick {
        vec![4, 16, 64]
    } else {
        vec![4, 16, 64, 256, 1024, 4096]
    };
    type Gen = fn(usize) -> Option<Model>;
    let families: [(&str, Gen); 3] = [
        ("open chain", |n| open_chain(n, ChainJoint::Revolute).ok()),
        ("closed loop", |n| closed_loop(n).ok()),
        ("loop ladder (n/3 loops)", |n| {
            loop_ladder((n / 3).max(1)).ok()
        }),
    ];
    let mut data = serde_json::Map::new();
    let mut setup_cols = vec!["front-end".to_string(), "mechanism".to_string()];
    setup_cols.extend(sizes.iter().map(|n| format!("n = {n} [s]")));
    setup_cols.push("exponent".into());
    let setup_cr: Vec<&str> = setup_cols.iter().map(String::as_str).collect();
    let mut setup = Table::new(
        "scaling_setup",
        "Set-up [s]: wall time of building the front-end and its first evaluation (one thread)",
        &setup_cr,
    );
    for (fam, generate) in families {
        let mut cols = vec!["front-end".to_string(), "threads".to_string()];
        cols.extend(sizes.iter().map(|n| format!("n = {n} [µs]")));
        cols.push("exponent".into());
        let cr: Vec<&str> = cols.iter().map(String::as_str).collect();
        let mut t = Table::new(
            &format!(
                "scaling_{}",
                fam.split_whitespace().take(2).collect::<Vec<_>>().join("_")
            ),
            &format!("{fam}: median time of one RHS evaluation"),
            &cr,
        );
        let mut chart = LineChart::new(
            format!("{fam}: time per RHS evaluation"),
            "bodies n",
            "time per RHS evaluation [µs]",
        )
        .log_log();
        let models: Vec<(usize, Option<Model>)> = sizes.iter().map(|&n| (n, generate(n))).collect();
        for name in FRONT_ENDS {
            let Ok(method) = name.parse::<Method>() else {
                continue;
            };
            if let Some(why) = models
                .iter()
                .find_map(|(_, m)| m.as_ref())
                .and_then(|m| not_applicable(&method, m))
            {
                t.note(format!("{name}: {why}"));
                continue;
            }
            // set-up times (bodies, seconds) of this front-end, shared by both rows
            let (mut sx, mut sy): (Vec<f64>, Vec<f64>) = (Vec::new(), Vec::new());
            let mut setup_row = vec![name.to_string(), fam.to_string()];
            for threads in [1, 2] {
                let mut row = vec![name.to_string(), threads.to_string()];
                let (mut xs, mut ys) = (Vec::new(), Vec::new());
                let mut stop: Option<String> = None;
                for (n, m) in &models {
                    let _ = n;
                    let mut setup_cell = |c: String| {
                        if threads == 1 {
                            setup_row.push(c);
                        }
                    };
                    if let Some(why) = &stop {
                        row.push(why.clone());
                        setup_cell("—".into());
                        continue;
                    }
                    let Some(m) = m else {
                        row.push("n/a".into());
                        setup_cell("n/a".into());
                        continue;
                    };
                    let nb = m.n_bodies() as f64;
                    // skip a size whose extrapolated evaluation (slope of the last two
                    // sizes) exceeds 1 s or whose set-up exceeds SETUP_LIMIT_S: dense
                    // front-ends also take n² memory, so they are not even built
                    let below = sx.iter().take_while(|&&x| x < nb).count();
                    if let Some(why) = skip_reason(&xs, &ys, &sx[..below], &sy[..below], nb) {
                        setup_cell(why.clone());
                        row.push(why);
                        stop = Some("skipped".into());
                        continue;
                    }
                    let r = measure(&method, m, threads, 1);
                    eprintln!(
                        "  {fam} n = {} / {name} / {threads} thread(s): {}",
                        m.n_bodies(),
                        r.as_ref().map_or_else(
                            |e| e.clone(),
                            |s| format!("{:.1} µs (set-up {:.3} s)", s.rhs.median * 1e6, s.setup)
                        )
                    );
                    match r {
                        Ok(Measured { setup, rhs: x }) => {
                            if threads == 1 {
                                sx.push(nb);
                                sy.push(setup);
                            }
                            setup_cell(fixed(setup, 3));
                            let sec = x.median;
                            row.push(format!(
                                "{} ({}–{})",
                                fixed(sec * 1e6, 1),
                                fixed(x.min * 1e6, 1),
                                fixed(x.max * 1e6, 1)
                            ));
                            xs.push(nb);
                            ys.push(sec * 1e6);
                            // stop growing once one evaluation takes more than 0.1 s
                            if sec > 0.1 {
                                stop = Some("skipped (too slow)".into());
                            }
                        }
                        Err(e) if e.contains("not implemented") => {
                            setup_cell(NOT_IMPLEMENTED.into());
                            row.push(NOT_IMPLEMENTED.into());
                            stop = Some(NOT_IMPLEMENTED.into());
                        }
                        Err(e) => {
                            setup_cell("—".into());
                            row.push(format!("error: {e}"));
                            stop = Some("—".into());
                        }
                    }
                }
                let slope = loglog_slope(&xs, &ys);
                row.push(if slope.is_finite() {
                    fixed(slope, 2)
                } else {
                    "—".into()
                });
                let setup_slope = loglog_slope(&sx, &sy);
                data.insert(
                    format!("{fam}/{name}/{threads}"),
                    serde_json::json!({"n": xs, "us": ys, "exponent": slope, "setup_n": sx, "setup_s": sy, "setup_exponent": setup_slope}),
                );
                if !xs.is_empty() {
                    chart = chart.with(
                        Series::new(format!("{name} ({threads} thr)"), xs, ys)
                            .grouped(name, format!("{threads} thr")),
                    );
                }
                t.row(row);
                // front-ends without any result: one row is enough
                if row_is_ni(&t) {
                    break;
                }
            }
            let setup_slope = loglog_slope(&sx, &sy);
            setup_row.push(if setup_slope.is_finite() {
                fixed(setup_slope, 2)
            } else {
                "—".into()
            });
            if !setup_row.iter().skip(2).any(|c| c == NOT_IMPLEMENTED) {
                setup.row(setup_row);
            }
        }
        t.note("Cells: median (min–max) of at least 5 evaluations, 0.2 s of evaluations when they are fast. Exponent: least-squares slope of log(time) against log(n). Results do not depend on the thread count (see the consistency suite); the time may. HDCA (joint coordinates and momenta) and ABA (joint coordinates and rates): the wall time per RHS evaluation of short RK45 runs (the integration's time: the integrator's own work included, the front-end's set-up and the state mapping not). Natural partitioning: one evaluation (open-tree sweeps and cut joints); its Newton–Raphson position and velocity corrections after accepted steps are dense minimum-norm solves with Φ_q (O(m n) memory, O(m² n) time), which a run pays per step on top of this.");
        s.tables.push(t);
        ctx.plot(
            &mut s,
            &format!("scaling_{}", fam.split_whitespace().next().unwrap_or("x")),
            chart,
        );
    }
    setup.note(format!("Construction of the front-end for the model (storage, layouts, initial multipliers or cut-joint monitors) and its first evaluation, which builds what a front-end defers to it (penalty: the initial multipliers), measured once per size with one thread. Exponent: least-squares slope of log(set-up) against log(n). A size is skipped (in both tables) when its set-up extrapolated from the two largest measured sizes (exponent ≥ 1) exceeds {SETUP_LIMIT_S} s or its RHS evaluation exceeds 1 s."));
    s.tables.push(setup);
    crossover(ctx, &mut s, &mut data);
    backends(ctx, &mut s, &mut data);
    speedup(ctx, &mut s, &mut data);
    s.data = serde_json::Value::Object(data);
    s.settle_status();
    s
}

/// The 1 → 2 thread speed-up of the O(n) and parallel front-ends (ABA, ALF-DCA, HDCA,
/// natural partitioning, penalty-PCG, global sparse ALF) at n ≥ 1024, measured even in
/// quick mode (n = 1024 only), with the machine's load average at the time, since a
/// busy second core hides any speed-up.
fn speedup(ctx: &mut Ctx, s: &mut Suite, data: &mut serde_json::Map<String, serde_json::Value>) {
    let sizes: &[usize] = if ctx.quick { &[1024] } else { &[1024, 4096] };
    // a front-end too slow at these sizes is measured at the largest size that is not
    let fallback: &[usize] = if ctx.quick { &[64] } else { &[64, 256, 1024] };
    let mut t = Table::new(
        "scaling_speedup",
        "Speed-up of one RHS evaluation from 1 to 2 threads",
        &[
            "front-end",
            "mechanism",
            "n",
            "1 thread [µs]",
            "2 threads [µs]",
            "speed-up",
            "load average (1 min) before",
        ],
    );
    type Gen = fn(usize) -> Option<Model>;
    let families: [(&str, Gen); 2] = [
        ("open chain", |n| open_chain(n, ChainJoint::Revolute).ok()),
        ("closed loop", |n| closed_loop(n).ok()),
    ];
    let in_pool = |threads: usize, f: &(dyn Fn() -> Result<f64, String> + Sync)| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| e.to_string())
            .and_then(|p| p.install(f))
    };
    for name in [
        "aba",
        "alf-dca",
        "hdca",
        "natural-partitioning",
        "penalty-pcg",
        SPARSE_ALF,
        SPARSE_ALF_INDEX1,
        SPARSE_LAGRANGE,
    ] {
        let method = name.parse::<Method>().ok();
        // the closed loop is planar in 3-D, hence redundant: lagrange:backend=sparse
        // runs the dense least-squares solve there (measured in the scaling tables)
        // aba takes open trees only (and is sequential: one sweep per tree)
        let fams = if name == SPARSE_LAGRANGE || name == "aba" {
            &families[..1]
        } else {
            &families[..]
        };
        for &(fam, generate) in fams {
            let key = if method.is_some() {
                format!("{fam}/{name}/1")
            } else {
                format!("crossover/{fam}/sparse-alf")
            };
            let mut ns: Vec<usize> = sizes
                .iter()
                .copied()
                .filter(|&n| fits(data, &key, n))
                .collect();
            if ns.is_empty() {
                ns.extend(
                    fallback
                        .iter()
                        .copied()
                        .filter(|&n| fits(data, &key, n))
                        .max()
                        .or(Some(fallback[0])),
                );
            }
            for n in ns {
                let Some(model) = generate(n) else {
                    continue;
                };
                let load = load_average();
                // best of three medians: the least disturbed measurement of each (one
                // set-up per thread count)
                let best = |threads: usize| match &method {
                    Some(m) => measure(m, &model, threads, 3).map(|t| t.rhs.median),
                    None => in_pool(threads, &|| time_sparse_alf(&model, 3)),
                };
                let cells = match (best(1), best(2)) {
                    (Ok(t1), Ok(t2)) => {
                        data.insert(
                            format!("speedup/{fam}/{name}/{n}"),
                            serde_json::json!({"t1_us": t1 * 1e6, "t2_us": t2 * 1e6, "speedup": t1 / t2, "load": load}),
                        );
                        eprintln!("  speed-up {fam} n = {n} / {name}: {:.2}", t1 / t2);
                        vec![fixed(t1 * 1e6, 1), fixed(t2 * 1e6, 1), fixed(t1 / t2, 2)]
                    }
                    (Err(e), _) | (_, Err(e)) => {
                        vec![format!("error: {e}"), "—".into(), "—".into()]
                    }
                };
                let mut row = vec![name.to_string(), fam.to_string(), n.to_string()];
                row.extend(cells);
                row.push(load.map_or("—".into(), |l| fixed(l, 2)));
                t.row(row);
            }
        }
    }
    t.note("lagrange:backend=sparse is measured on the open chain only: the closed loop is planar in 3-D, hence has redundant constraints, which that method hands to the dense least-squares solve.");
    t.note(format!("A front-end whose evaluation is predicted above 0.1 s, or whose set-up above {SETUP_LIMIT_S} s, at n = 1024 or 4096 (from the scaling tables' two largest sizes) is measured at the largest size under that."));
    t.note("Natural partitioning runs one rayon task per branch from ground: the open chain is one branch and the closed loop two, so little or no speed-up is expected there (the closed loop's tree solves for its cut rows run in parallel too).");
    t.note("Each time is the best of three medians (0.2 s of evaluations each) at the initial state. A load average near or above 1 on a 2-core machine means the second core was busy and the speed-up is understated.");
    s.tables.push(t);
}

/// Time \[µs\] at `n` extrapolated from the last two measured sizes (exponent ≥ 1), or 0.
fn predict_us(xs: &[f64], ys: &[f64], n: f64) -> f64 {
    match (xs, ys) {
        ([.., x0, x1], [.., y0, y1]) if *x1 > *x0 && *y0 > 0.0 => {
            let k = ((y1 / y0).ln() / (x1 / x0).ln()).max(1.0);
            y1 * (n / x1).powf(k)
        }
        _ => 0.0,
    }
}

/// Whether one evaluation of the scaling tables' series `key` (in `data`) is predicted
/// under 0.1 s at `n`, and its set-up under [`SETUP_LIMIT_S`].
fn fits(data: &serde_json::Map<String, serde_json::Value>, key: &str, n: usize) -> bool {
    let series = |k: &str| -> Vec<f64> {
        data.get(key)
            .and_then(|v| v.get(k))
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|x| x.as_f64()).collect())
            .unwrap_or_default()
    };
    predict_us(&series("n"), &series("us"), n as f64) <= 1e5
        && predict_us(&series("setup_n"), &series("setup_s"), n as f64) <= SETUP_LIMIT_S
}

/// The sparse ALF-INDEX1 (its RHS is the sparse ALF's; the projections come after
/// accepted steps).
const SPARSE_ALF_INDEX1: &str = "alf-index1:backend=sparse";

/// The sparse Lagrange KKT solve.
const SPARSE_LAGRANGE: &str = "lagrange:backend=sparse";

/// The methods with a `backend=` key, compared dense vs sparse in [`backends`].
const BACKEND_METHODS: [&str; 3] = ["alf", "alf-index1", "lagrange"];

/// Dense vs sparse backend of `alf`, `alf-index1` and `lagrange` on the open chain:
/// median time of one RHS evaluation at the initial state, one thread (the sparse
/// factorizations are sequential). Dense sizes whose cubic extrapolation from the last
/// measured size exceeds 0.2 s per evaluation are skipped.
fn backends(ctx: &mut Ctx, s: &mut Suite, data: &mut serde_json::Map<String, serde_json::Value>) {
    let sizes: &[usize] = if ctx.quick {
        &[64, 256]
    } else {
        &[64, 256, 1024]
    };
    let mut t = Table::new(
        "scaling_backends",
        "open chain: dense vs sparse backend, time of one RHS evaluation, one thread",
        &["method", "n", "dense [µs]", "sparse [µs]", "dense / sparse"],
    );
    let models: Vec<(usize, Option<Model>)> = sizes
        .iter()
        .map(|&n| (n, open_chain(n, ChainJoint::Revolute).ok()))
        .collect();
    for name in BACKEND_METHODS {
        let (Ok(dense), Ok(sparse)) = (
            name.parse::<Method>(),
            format!("{name}:backend=sparse").parse::<Method>(),
        ) else {
            s.notes.push(format!("backends: {name} does not parse"));
            continue;
        };
        let mut dense_last: Option<(f64, f64)> = None;
        for (n, model) in &models {
            let Some(model) = model else {
                continue;
            };
            let nb = *n as f64;
            let predicted = dense_last.map_or(0.0, |(n0, t0)| t0 * (nb / n0).powi(3));
            let d = if predicted > 0.2 {
                Err(format!(
                    "skipped (≈ {} µs predicted)",
                    fixed(predicted * 1e6, 0)
                ))
            } else {
                time_rhs(&dense, model, 1)
            };
            if let Ok(sec) = d {
                dense_last = Some((nb, sec));
            }
            let sp = time_rhs(&sparse, model, 1);
            let cell = |r: &Result<f64, String>| match r {
                Ok(sec) => fixed(sec * 1e6, 1),
                Err(e) if e.starts_with("skipped") => e.clone(),
                Err(e) => format!("error: {e}"),
            };
            let ratio = match (&d, &sp) {
                (Ok(a), Ok(b)) if *b > 0.0 => fixed(a / b, 1),
                _ => "—".into(),
            };
            eprintln!(
                "  backends {name} n = {n} [µs]: dense {}, sparse {}",
                cell(&d),
                cell(&sp)
            );
            data.insert(
                format!("backends/{name}/{n}"),
                serde_json::json!({
                    "dense_us": d.as_ref().ok().map(|x| x * 1e6),
                    "sparse_us": sp.as_ref().ok().map(|x| x * 1e6),
                }),
            );
            t.row(vec![
                name.to_string(),
                n.to_string(),
                cell(&d),
                cell(&sp),
                ratio,
            ]);
        }
    }
    t.note("alf and alf-index1 share the RHS (the ALF accelerations, Bayo–Ledesma eqs 6–8, default penalty); alf-index1's mass-orthogonal projections run after accepted steps and are not in this time. lagrange: dense LU-based KKT solve vs sparse LDLᵀ with the symbolic analysis once.");
    t.note("Median of 0.2 s of evaluations at the initial state. The dense backend skips sizes whose cubic extrapolation from the last measured size exceeds 0.2 s per evaluation.");
    s.tables.push(t);
}

/// Row label of the global ALF with the sparse Cholesky backend (not a `Method`).
const SPARSE_ALF: &str = "global ALF, sparse Cholesky";

/// Median time of one right-hand side of the global ALF with the sparse Cholesky
/// backend (`mbs_alf::SparseAlf`, α = 1e6, μ = Ω = 1, ≤ 10 iterations: the ALF-DCA
/// parameters) at the model's initial state \[s\]: the lowest of `rounds` medians
/// (one set-up).
fn time_sparse_alf(model: &Model, rounds: usize) -> Result<f64, String> {
    use mbs::integrators::OdeSystem;
    let params = mbs::alf::AlfParams {
        alpha: 1e6,
        mu: 1.0,
        omega: 1.0,
        max_iter: 10,
        ..Default::default()
    };
    let mut sys = mbs::alf::SparseAlf::new(std::sync::Arc::new(model.clone()), params)
        .map_err(|e| e.to_string())?;
    let y = sys.initial_state();
    let mut dy = vec![0.0; y.len()];
    (0..rounds.max(1)).try_fold(f64::INFINITY, |best, _| {
        median_time(|| {
            sys.rhs(0.0, &y, &mut dy).map_err(|e| e.to_string())?;
            std::hint::black_box(&dy);
            Ok(())
        })
        .map(|x| best.min(x))
    })
}

/// ALF-DCA beside the global ALF with the sparse Cholesky and the dense backend: time
/// per RHS, time per body and the fitted exponent, so that the crossover is visible
/// (ALF-DCA issue, "Performance").
fn crossover(ctx: &mut Ctx, s: &mut Suite, data: &mut serde_json::Map<String, serde_json::Value>) {
    let sizes: &[usize] = if ctx.quick {
        &[16, 64, 256]
    } else {
        &[16, 64, 256, 1024, 4096]
    };
    type Gen = fn(usize) -> Option<Model>;
    let families: [(&str, Gen); 2] = [
        ("open chain", |n| open_chain(n, ChainJoint::Revolute).ok()),
        ("closed loop", |n| closed_loop(n).ok()),
    ];
    let dca: Method = match "alf-dca".parse() {
        Ok(m) => m,
        Err(e) => {
            s.notes.push(format!("crossover: {e}"));
            return;
        }
    };
    let dense: Method = match "alf:alpha=1e6:mu=1:omega=1:iter=10".parse() {
        Ok(m) => m,
        Err(e) => {
            s.notes.push(format!("crossover: {e}"));
            return;
        }
    };
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build();
    for (fam, generate) in families {
        let mut t = Table::new(
            &format!("scaling_crossover_{}", fam.replace(' ', "_")),
            &format!("{fam}: ALF-DCA vs global ALF (sparse Cholesky, dense), one thread"),
            &[
                "n",
                "ALF-DCA [µs]",
                "ALF-DCA per body [µs]",
                "global ALF, sparse [µs]",
                "sparse per body [µs]",
                "global ALF, dense [µs]",
                "dense per body [µs]",
            ],
        );
        let mut series: [(Vec<f64>, Vec<f64>); 3] = Default::default();
        // (n, seconds) of the last dense measurement: skip a size whose cubic
        // extrapolation exceeds 0.2 s per evaluation
        let mut dense_last: Option<(f64, f64)> = None;
        for &n in sizes {
            let Some(model) = generate(n) else {
                continue;
            };
            let nb = model.n_bodies() as f64;
            let timed = |r: Result<f64, String>,
                         k: usize,
                         series: &mut [(Vec<f64>, Vec<f64>); 3]| match r {
                Ok(sec) => {
                    series[k].0.push(nb);
                    series[k].1.push(sec * 1e6);
                    [fixed(sec * 1e6, 1), fixed(sec * 1e6 / nb, 2)]
                }
                Err(e) => [format!("error: {e}"), "—".into()],
            };
            let in_pool = |f: &(dyn Fn() -> Result<f64, String> + Sync)| match &one_thread {
                Ok(pool) => pool.install(f),
                Err(e) => Err(e.to_string()),
            };
            let [a, b] = timed(time_rhs(&dca, &model, 1), 0, &mut series);
            let [c, d] = timed(in_pool(&|| time_sparse_alf(&model, 1)), 1, &mut series);
            let predicted = dense_last.map_or(0.0, |(n0, t0)| t0 * (nb / n0).powi(3));
            let [e, f] = if predicted > 0.2 {
                [
                    format!("skipped (≈ {} µs predicted)", fixed(predicted * 1e6, 0)),
                    "—".into(),
                ]
            } else {
                let r = time_rhs(&dense, &model, 1);
                if let Ok(sec) = r {
                    dense_last = Some((nb, sec));
                }
                timed(r, 2, &mut series)
            };
            eprintln!("  crossover {fam} n = {n} [µs]: DCA {a}, sparse {c}, dense {e}");
            t.row(vec![n.to_string(), a, b, c, d, e, f]);
        }
        let slopes: Vec<String> = series
            .iter()
            .map(|(x, y)| {
                let k = loglog_slope(x, y);
                if k.is_finite() {
                    fixed(k, 2)
                } else {
                    "—".into()
                }
            })
            .collect();
        t.row(vec![
            "exponent".into(),
            slopes[0].clone(),
            "—".into(),
            slopes[1].clone(),
            "—".into(),
            slopes[2].clone(),
            "—".into(),
        ]);
        for (name, (x, y)) in ["alf-dca", "sparse-alf", "dense-alf"].iter().zip(&series) {
            data.insert(
                format!("crossover/{fam}/{name}"),
                serde_json::json!({"n": x, "us": y, "exponent": loglog_slope(x, y)}),
            );
        }
        t.note("Same α = 1e6, μ = Ω = 1 and ≤ 10 multiplier iterations for all three; median of 0.2 s of evaluations at the initial state, one thread. The dense backend skips sizes whose cubic extrapolation from the last measured size exceeds 0.2 s per evaluation.");
        s.tables.push(t);
    }
}

/// The 1-minute load average (Linux `/proc/loadavg`), if available.
pub(crate) fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn row_is_ni(t: &Table) -> bool {
    t.rows
        .last()
        .is_some_and(|r| r.iter().skip(2).any(|c| c == NOT_IMPLEMENTED))
}

pub fn consistency(ctx: &mut Ctx) -> Suite {
    let mut s = Suite::new("consistency", "Cross-method consistency and work–precision");
    let tol = 1e-6;
    let mut t = Table::new(
        "consistency_accelerations",
        &format!(
            "Accelerations of every front-end at the initial state (mechanisms without redundant constraints); tolerance {tol:e} relative"
        ),
        &[
            "mechanism",
            "front-ends compared",
            "largest disagreement",
            "between",
            "within tolerance",
        ],
    );
    let mut data = serde_json::Map::new();
    for b in mbs::mechanisms::builtin() {
        if b.mobility.redundant != 0 {
            continue;
        }
        let Ok(model) = ctx.model(b.name) else {
            continue;
        };
        let state = State::initial(&model, mbs::SAMPLE_LAYOUT);
        let model = std::sync::Arc::new(model);
        let mut acc: Vec<(&str, nalgebra::DVector<f64>)> = Vec::new();
        let mut missing = Vec::new();
        for name in FRONT_ENDS {
            let Ok(method) = name.parse::<Method>() else {
                continue;
            };
            match mbs::registry::build_front_end(&method, &model)
                .map_err(|e| e.to_string())
                .and_then(|mut fe| fe.accelerations(&state).map_err(|e| e.to_string()))
            {
                Ok(a) => acc.push((name, a)),
                Err(e) => missing.push(if e.contains("not implemented") {
                    format!("{name}: {NOT_IMPLEMENTED}")
                } else {
                    format!("{name}: {e}")
                }),
            }
        }
        let mut worst = (0.0f64, String::new());
        for i in 0..acc.len() {
            for j in i + 1..acc.len() {
                let scale = 1.0 + acc[i].1.amax().max(acc[j].1.amax());
                let d = (&acc[i].1 - &acc[j].1).amax() / scale;
                if d > worst.0 || worst.1.is_empty() {
                    worst = (d, format!("{} vs {}", acc[i].0, acc[j].0));
                }
            }
        }
        let compared = acc.iter().map(|a| a.0).collect::<Vec<_>>().join(", ");
        let row = if acc.len() >= 2 {
            vec![
                b.name.into(),
                compared,
                sci(worst.0),
                worst.1.clone(),
                if worst.0 <= tol {
                    "yes".into()
                } else {
                    "NO".into()
                },
            ]
        } else {
            vec![
                b.name.into(),
                if compared.is_empty() {
                    "—".into()
                } else {
                    compared
                },
                NOT_IMPLEMENTED.into(),
                "fewer than two front-ends expose accelerations".into(),
                "—".into(),
            ]
        };
        data.insert(
            b.name.into(),
            serde_json::json!({"largest": worst.0, "between": worst.1, "missing": missing}),
        );
        t.row(row);
    }
    s.tables.push(t);
    work_precision(ctx, &mut s);
    s.data = serde_json::Value::Object(data);
    s.settle_status();
    s
}

/// Final-state error against a tight-tolerance reference vs wall time.
fn work_precision(ctx: &mut Ctx, s: &mut Suite) {
    let mech = "double-pendulum";
    let t_end = ctx.pick(5.0, 1.0);
    let Ok(model) = ctx.model(mech) else { return };
    // reference: the first front-end that runs, RK45 at 1e-11
    let mut reference = None;
    for name in [
        "alf-index1",
        "lagrange-projection",
        "hdca",
        "alf-dca-proj",
        "complement-svd",
    ] {
        let r = ctx.run_model(
            &model,
            name,
            IntegratorChoice::Rk45 {
                rtol: 1e-11,
                atol: 1e-11,
            },
            t_end,
            Sampling::Intervals(1),
        );
        if let Run::Done(tr) = r {
            reference = Some((name, tr));
            break;
        }
    }
    let mut t = Table::new(
        "work_precision",
        &format!("Work–precision on the {mech}, {t_end} s: final-state error vs wall time"),
        &[
            "front-end",
            "integrator",
            "final-state error",
            "wall time",
            "RHS evaluations",
        ],
    );
    let Some((ref_name, reference)) = reference else {
        t.row(vec![
            NOT_IMPLEMENTED.into(),
            "—".into(),
            "—".into(),
            "—".into(),
            "—".into(),
        ]);
        s.tables.push(t);
        return;
    };
    t.note(format!(
        "Reference: {ref_name} with RK45 at rtol = atol = 1e-11."
    ));
    let tols: Vec<f64> = if ctx.quick {
        vec![1e-4, 1e-7]
    } else {
        vec![1e-4, 1e-6, 1e-8, 1e-10]
    };
    let mut chart = LineChart::new(
        format!("Work–precision, {mech}"),
        "wall time",
        "final-state error (log scale)",
    )
    .log();
    let qref = reference.states.last().map(|s| s.q.clone());
    for name in FRONT_ENDS.iter().chain(&["alf-index1"]) {
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        let choices: Vec<IntegratorChoice> = if name.starts_with("alf-index3") {
            // ALF-INDEX3 has its own implicit rules only
            [1e-2, 1e-3, 1e-4][..if ctx.quick { 2 } else { 3 }]
                .iter()
                .map(|&h| IntegratorChoice::Trapezoidal { h })
                .collect()
        } else {
            let mut c: Vec<IntegratorChoice> = tols
                .iter()
                .map(|&d| IntegratorChoice::Rk45 { rtol: d, atol: d })
                .collect();
            c.extend(
                tols.iter()
                    .map(|&d| IntegratorChoice::Adams { rtol: d, atol: d }),
            );
            c
        };
        for integ in choices {
            let r = ctx.run_model(&model, name, integ, t_end, Sampling::Intervals(1));
            if r.is_not_implemented() {
                t.row(vec![
                    name.to_string(),
                    "—".into(),
                    NOT_IMPLEMENTED.into(),
                    "—".into(),
                    "—".into(),
                ]);
                break;
            }
            let err = r
                .traj()
                .and_then(|tr| Some((&tr.states.last()?.q - qref.as_ref()?).amax()))
                .unwrap_or(f64::NAN);
            t.row(vec![
                name.to_string(),
                integ.to_string(),
                r.cell(|_| sci(err)),
                r.cell(|x| ctx.wall(x)),
                r.cell(|x| x.stats.rhs_evals.to_string()),
            ]);
            if let Some(tr) = r.traj()
                && err > 0.0
            {
                xs.push(tr.wall_time);
                ys.push(err);
            }
        }
        if !xs.is_empty() {
            chart = chart.with(Series::new(*name, xs, ys));
        }
    }
    s.tables.push(t);
    ctx.plot(s, "work_precision", chart);
}
