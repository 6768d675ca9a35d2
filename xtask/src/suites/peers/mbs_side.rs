//! The mbs side of the comparison: candidate methods × integrators × tolerances on
//! one thread, each measured like the peers (wall and CPU time, energy error over the
//! run, constraint violation, positions at t = 1 s); the fastest run that meets the
//! case's accuracy targets and the default method are then timed with repeats.

use std::time::Instant;

use mbs::{IntegratorChoice, Method, Model, Sampling, Simulation};

use super::cases::{Case, T_POSITIONS, T_SAMPLE};
use crate::runner::not_applicable;
use crate::suites::scaling::time_rhs;

/// Methods tried on every case (plus the facade's default method).
pub const CANDIDATES: [&str; 5] = [
    "aba",
    "alf-dca-proj",
    "hdca",
    "lagrange-projection",
    "alf-index1",
];
/// Tolerances tried, loose to tight (rtol = atol).
pub const TOLERANCES: [f64; 6] = [1e-6, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12];
/// A candidate whose run takes longer than this [s, CPU time: wall time on a shared
/// machine says little] is not tried at tighter tolerances, nor on larger cases.
const RUN_BUDGET_S: f64 = 20.0;
/// Step limit of a candidate run: a configuration whose steps collapse (a tolerance
/// below what the method attains) stops with "step limit reached" after a bounded
/// time instead of running for many minutes (alf-dca-proj + DOP853 at 1e-11 on
/// chain-64 did); the accurate runs of the cases need at most ≈ 22 000 steps.
const CANDIDATE_MAX_STEPS: usize = 50_000;

/// One mbs configuration on one case.
#[derive(Clone, Debug)]
pub struct MbsRun {
    pub method: String,
    pub integrator: IntegratorChoice,
    pub wall: Vec<f64>,
    pub cpu: Vec<f64>,
    pub energy_error: f64,
    pub phi: f64,
    pub positions: Option<Vec<[f64; 2]>>,
    pub rhs_evals: usize,
    pub steps: usize,
    pub rejected: usize,
    pub projections: usize,
    pub error: Option<String>,
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    match s.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => s[n / 2],
        n => 0.5 * (s[n / 2 - 1] + s[n / 2]),
    }
}

impl MbsRun {
    fn empty(method: &str, integrator: IntegratorChoice) -> Self {
        Self {
            method: method.to_string(),
            integrator,
            wall: Vec::new(),
            cpu: Vec::new(),
            energy_error: f64::NAN,
            phi: f64::NAN,
            positions: None,
            rhs_evals: 0,
            steps: 0,
            rejected: 0,
            projections: 0,
            error: None,
        }
    }

    pub fn label(&self) -> String {
        format!("{} / {}", self.method, integrator_label(&self.integrator))
    }
    pub fn wall_median(&self) -> f64 {
        median(&self.wall)
    }
    pub fn wall_range(&self) -> (f64, f64) {
        let min = self.wall.iter().copied().fold(f64::INFINITY, f64::min);
        let max = self.wall.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (min, max)
    }
    pub fn cpu_median(&self) -> f64 {
        median(&self.cpu)
    }
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }
    /// Whether the run meets the case's accuracy targets.
    pub fn meets(&self, case: &Case) -> bool {
        self.ok()
            && self.energy_error <= case.target_energy
            && case.target_phi.is_none_or(|p| self.phi <= p)
    }
}

pub fn integrator_label(i: &IntegratorChoice) -> String {
    match i.tolerances() {
        Some((rtol, _)) => format!("{} {rtol:.0e}", i.name()),
        None => format!("{} h={}", i.name(), i.step().unwrap_or(f64::NAN)),
    }
}

/// CPU time of the calling thread \[s\] (Linux `/proc/thread-self/schedstat`).
pub fn thread_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(f64::NAN, |ns| ns * 1e-9)
}

fn sample_times(t_end: f64) -> Vec<f64> {
    let per_second = (1.0 / T_SAMPLE).round();
    let n = (t_end * per_second).round() as usize;
    (0..=n).map(|k| k as f64 / per_second).collect()
}

/// One run of `method` with `integrator` on `model` over `t_end`, on one thread, with
/// an output sample every [`T_SAMPLE`].
pub fn run_once(model: &Model, method: &str, integrator: IntegratorChoice, t_end: f64) -> MbsRun {
    run_sampled(model, method, integrator, t_end, sample_times(t_end))
}

/// CPU time \[s\] of `run`'s configuration with three output samples only (t = 0, 1 s,
/// t_end; two when t_end is 1 s, since sample times must increase): the method's own
/// cost without most of the facade's per-sample work (energies, constraint norms,
/// the singular-value watch of small models).
pub fn cpu_few_samples(model: &Model, run: &MbsRun, t_end: f64) -> f64 {
    let mut times = vec![0.0, T_POSITIONS.min(t_end), t_end];
    times.dedup();
    let r = run_sampled(model, &run.method, run.integrator, t_end, times);
    if r.ok() { r.cpu_median() } else { f64::NAN }
}

fn run_sampled(
    model: &Model,
    method: &str,
    integrator: IntegratorChoice,
    t_end: f64,
    times: Vec<f64>,
) -> MbsRun {
    let mut r = MbsRun::empty(method, integrator);
    let m: Method = match method.parse() {
        Ok(m) => m,
        Err(e) => {
            r.error = Some(format!("{e}"));
            return r;
        }
    };
    let sim = Simulation::new(model.clone())
        .method(m)
        .integrator(integrator)
        .t_end(t_end)
        .sampling(Sampling::Times(times))
        .max_steps(CANDIDATE_MAX_STEPS)
        .guard(false);
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
        Ok(p) => p,
        Err(e) => {
            r.error = Some(e.to_string());
            return r;
        }
    };
    let (res, wall, cpu) = pool.install(|| {
        let (t0, c0) = (Instant::now(), thread_cpu());
        let res = sim.run();
        (res, t0.elapsed().as_secs_f64(), thread_cpu() - c0)
    });
    match res {
        Ok(t) => {
            r.wall.push(wall);
            r.cpu.push(cpu);
            r.energy_error = t.energy_drift();
            r.phi = t.max_phi();
            r.rhs_evals = t.stats.rhs_evals;
            r.steps = t.stats.accepted_steps;
            r.rejected = t.stats.rejected_steps;
            r.projections = t.stats.projections;
            r.positions = (0..t.len())
                .find(|&k| (t.t[k] - T_POSITIONS).abs() < 1e-9)
                .map(|k| {
                    (0..t.n_bodies())
                        .map(|b| {
                            let p = t.position(k, b);
                            [p.x, p.y]
                        })
                        .collect()
                });
        }
        Err(e) => r.error = Some(e.to_string()),
    }
    r
}

/// Adds repeats to `run` until it has `n` timings or `budget` seconds were spent.
pub fn repeat(run: &mut MbsRun, model: &Model, t_end: f64, n: usize, budget: f64) {
    let mut spent: f64 = run.wall.iter().sum();
    while run.ok() && run.wall.len() < n && spent < budget {
        let again = run_once(model, &run.method, run.integrator, t_end);
        match again.error {
            Some(e) => run.error = Some(e),
            None => {
                spent += again.wall[0];
                run.wall.push(again.wall[0]);
                run.cpu.push(again.cpu[0]);
            }
        }
    }
}

/// Why a method is not tried on a model: one RHS evaluation is too slow for a run
/// within the budget (methods whose RHS cannot be timed alone are tried).
fn too_slow(method: &str, model: &Model) -> Option<String> {
    let m: Method = method.parse().ok()?;
    match time_rhs(&m, model, 1) {
        Ok(t) if t * 2000.0 > RUN_BUDGET_S => Some(format!(
            "skipped: one RHS evaluation takes {:.1} ms (≥ 2000 needed)",
            t * 1e3
        )),
        _ => None,
    }
}

/// The default method and integrator of the facade on `model` (what a user who names
/// none gets), timed with repeats, unless one RHS is too slow for the budget.
pub fn run_default(model: &Model, t_end: f64, repeats: usize, budget: f64) -> MbsRun {
    let method = Simulation::new(model.clone()).get_method().to_string();
    let integrator = IntegratorChoice::default();
    if let Some(why) = too_slow(&method, model) {
        let mut r = MbsRun::empty(&method, integrator);
        r.error = Some(why);
        return r;
    }
    let mut r = run_once(model, &method, integrator, t_end);
    repeat(&mut r, model, t_end, repeats, budget);
    r
}

/// Methods found too slow on an earlier case: (bodies of that case, why). A method is
/// skipped on cases with at least as many bodies.
pub type TooSlow = std::collections::HashMap<String, (usize, String)>;

/// Every candidate on `case` (single timings), and notes on those skipped.
pub fn candidates(case: &Case, model: &Model, slow: &mut TooSlow) -> (Vec<MbsRun>, Vec<String>) {
    // MBS_PEERS_METHODS=hdca,alf-dca-proj restricts the candidates (for reruns)
    let mut methods: Vec<String> = match std::env::var("MBS_PEERS_METHODS") {
        Ok(list) if !list.trim().is_empty() => {
            list.split(',').map(|s| s.trim().to_string()).collect()
        }
        _ => CANDIDATES.iter().map(|s| s.to_string()).collect(),
    };
    let default = Simulation::new(model.clone()).get_method().to_string();
    if !methods.contains(&default) {
        methods.push(default);
    }
    let mut runs = Vec::new();
    let mut notes = Vec::new();
    for method in &methods {
        let earlier = slow
            .get(method)
            .filter(|(n, _)| model.n_bodies() >= *n)
            .map(|(_, why)| why.clone());
        if earlier.is_none()
            && let Some(why) = method
                .parse::<Method>()
                .ok()
                .and_then(|m| not_applicable(&m, model))
        {
            eprintln!("  mbs / {} / {method}: {why}", case.id);
            notes.push(format!("{method}: {why}"));
            continue;
        }
        if let Some(why) = earlier.or_else(|| too_slow(method, model)) {
            // larger cases skip it without building it (a dense front-end at
            // n = 1024 holds gigabytes before its first evaluation)
            slow.entry(method.clone())
                .or_insert_with(|| (model.n_bodies(), format!("{why} on {}", case.id)));
            eprintln!("  mbs / {} / {method}: {why}", case.id);
            notes.push(format!("{method}: {why}"));
            continue;
        }
        for kind in ["rk45", "dop853", "adams"] {
            // a method over the budget at the loosest tolerance with one integrator is
            // not tried with the others either (alf-index1 on chain-64: 115 s each)
            if slow
                .get(method)
                .is_some_and(|(n, _)| *n == model.n_bodies())
            {
                notes.push(format!(
                    "{method} / {kind}: not tried (over the budget with an earlier integrator)"
                ));
                continue;
            }
            let mut met_once = false;
            for &tol in &TOLERANCES {
                let Ok(integrator) = IntegratorChoice::from_name(kind, Some(tol), None, None)
                else {
                    continue;
                };
                let r = run_once(model, method, integrator, case.t_end);
                eprintln!(
                    "  mbs / {} / {}: {}",
                    case.id,
                    r.label(),
                    match &r.error {
                        None => format!(
                            "{:.3} s wall, {:.3} s CPU, dE {:.1e}, Φ {:.1e}",
                            r.wall_median(),
                            r.cpu_median(),
                            r.energy_error,
                            r.phi
                        ),
                        Some(e) => format!("failed: {e}"),
                    }
                );
                let (ok, over, met) = (r.ok(), r.cpu_median() > RUN_BUDGET_S, r.meets(case));
                if over && tol == TOLERANCES[0] {
                    slow.insert(
                        method.clone(),
                        (
                            model.n_bodies(),
                            format!(
                                "skipped: {} took {:.0} s CPU on {} at the loosest tolerance",
                                r.label(),
                                r.cpu_median(),
                                case.id
                            ),
                        ),
                    );
                }
                runs.push(r);
                // tighter tolerances are slower: stop after a failure, a slow run, or
                // one more run past the first that met the targets (for the reference)
                if !ok || over || met_once {
                    break;
                }
                met_once = met;
            }
        }
    }
    (runs, notes)
}

/// The most accurate run (smallest energy error among those meeting the violation
/// target, or among all if none does): the reference for positions at t = 1 s.
pub fn most_accurate<'a>(case: &Case, runs: &'a [MbsRun]) -> Option<&'a MbsRun> {
    let usable = |r: &&MbsRun| r.ok() && r.positions.is_some();
    let phi_ok = |r: &&MbsRun| case.target_phi.is_none_or(|p| r.phi <= p);
    let by_energy = |a: &&MbsRun, b: &&MbsRun| a.energy_error.total_cmp(&b.energy_error);
    runs.iter()
        .filter(usable)
        .filter(phi_ok)
        .min_by(by_energy)
        .or_else(|| runs.iter().filter(usable).min_by(by_energy))
}

/// The fastest run (CPU time) meeting the targets.
pub fn fastest_meeting<'a>(case: &Case, runs: &'a [MbsRun]) -> Option<&'a MbsRun> {
    runs.iter()
        .filter(|r| r.meets(case))
        .min_by(|a, b| a.cpu_median().total_cmp(&b.cpu_median()))
}

/// Largest distance between body centres of mass of two position sets.
pub fn position_difference(a: &[[f64; 2]], b: &[Vec<f64>]) -> f64 {
    if a.len() != b.len() {
        return f64::NAN;
    }
    a.iter()
        .zip(b)
        .map(|(p, q)| {
            if q.len() < 2 {
                f64::NAN
            } else {
                (p[0] - q[0]).hypot(p[1] - q[1])
            }
        })
        .fold(0.0, f64::max)
}
