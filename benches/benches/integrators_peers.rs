//! `mbs-integrators` on a 100-dimensional test system, side by side with the
//! `differential-equations` crate (DOPRI5 and its variable-step 4th-order
//! Adams predictor–corrector) on the same right-hand side.
//!
//! Test system: a Fermi–Pasta–Ulam–Tsingou chain of 50 unit masses with fixed
//! ends, x_i'' = (x_{i+1} − x_i) − (x_i − x_{i−1}) + β[(x_{i+1} − x_i)³ − (x_i − x_{i−1})³],
//! β = 1, y = [x, v] (100 components), t ∈ [0, 50]; x(0) = sin(πs), v(0) = 0.2 sin(3πs).
//!
//! Before the criterion groups run, a table of RHS evaluations, steps, final
//! error (against DOP853 at 1e-13) and wall time per step is printed for
//! tolerances 1e-3 … 1e-9 (rtol = atol). The implicit rules reuse the
//! Newton matrix across steps (`NewtonParams::reuse_jacobian`).

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use differential_equations::prelude::*;
use mbs_integrators as mi;
use nalgebra::DMatrix;

const M: usize = 50;
const N: usize = 2 * M;
const BETA: f64 = 1.0;
const T_END: f64 = 50.0;

fn accel(x: &[f64], a: &mut [f64]) {
    for i in 0..M {
        let xl = if i == 0 { 0.0 } else { x[i - 1] };
        let xr = if i + 1 == M { 0.0 } else { x[i + 1] };
        let dr = xr - x[i];
        let dl = x[i] - xl;
        a[i] = dr - dl + BETA * (dr * dr * dr - dl * dl * dl);
    }
}

fn rhs(y: &[f64], d: &mut [f64]) {
    d[..M].copy_from_slice(&y[M..]);
    let (x, _) = y.split_at(M);
    accel(x, &mut d[M..]);
}

fn initial() -> [f64; N] {
    let mut y = [0.0; N];
    for i in 0..M {
        let s = (i + 1) as f64 / (M + 1) as f64;
        y[i] = (std::f64::consts::PI * s).sin();
        y[M + i] = 0.2 * (3.0 * std::f64::consts::PI * s).sin();
    }
    y
}

#[derive(Debug, Default)]
struct Fpu;

impl mi::OdeSystem for Fpu {
    fn dim(&self) -> usize {
        N
    }
    fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), mi::SystemError> {
        rhs(y, d);
        Ok(())
    }
    /// Analytic Jacobian [[0, I], [K(x), 0]], K tridiagonal.
    fn jacobian(
        &mut self,
        _t: f64,
        y: &[f64],
        j: &mut DMatrix<f64>,
    ) -> Result<bool, mi::SystemError> {
        j.fill(0.0);
        for i in 0..M {
            j[(i, M + i)] = 1.0;
            let xl = if i == 0 { 0.0 } else { y[i - 1] };
            let xr = if i + 1 == M { 0.0 } else { y[i + 1] };
            let kr = 1.0 + 3.0 * BETA * (xr - y[i]).powi(2);
            let kl = 1.0 + 3.0 * BETA * (y[i] - xl).powi(2);
            j[(M + i, i)] = -kr - kl;
            if i > 0 {
                j[(M + i, i - 1)] = kl;
            }
            if i + 1 < M {
                j[(M + i, i + 1)] = kr;
            }
        }
        Ok(true)
    }
}

impl mi::PartitionedSystem for Fpu {
    fn dim_positions(&self) -> usize {
        M
    }
    fn dim_velocities(&self) -> usize {
        M
    }
    fn accelerations(
        &mut self,
        _t: f64,
        x: &[f64],
        _v: &[f64],
        a: &mut [f64],
    ) -> Result<(), mi::SystemError> {
        accel(x, a);
        Ok(())
    }
}

/// The same right-hand side for the peer crate.
struct FpuPeer;
impl ODE<f64, [f64; N]> for FpuPeer {
    fn diff(&self, _t: f64, y: &[f64; N], dydt: &mut [f64; N]) {
        rhs(y, dydt);
    }
}

fn max_err(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

struct Run {
    y: Vec<f64>,
    rhs: usize,
    steps: usize,
    rejected: usize,
}

fn ours(kind: &str, tol: f64) -> Run {
    let y0 = initial();
    let info;
    let y;
    match kind {
        "RK45" | "RK23" => {
            let p = mi::RkParams::with_tol(tol, tol);
            let mut rk = if kind == "RK45" {
                mi::EmbeddedRk::rk45(N, p)
            } else {
                mi::EmbeddedRk::rk23(N, p)
            };
            info = rk
                .integrate(&mut Fpu, 0.0, &y0, T_END, &[], &mut ())
                .unwrap();
            y = rk.y().to_vec();
        }
        "ABM" => {
            let mut ab = mi::Adams::new(N, mi::AdamsParams::with_tol(tol, tol));
            info = ab
                .integrate(&mut Fpu, 0.0, &y0, T_END, &[], &mut ())
                .unwrap();
            y = ab.y().to_vec();
        }
        _ => unreachable!(),
    }
    Run {
        y,
        rhs: info.rhs_evals,
        steps: info.accepted_steps,
        rejected: info.rejected_steps,
    }
}

fn fixed(kind: &str, h: f64) -> Run {
    let y0 = initial();
    let (info, y) = match kind {
        "midpoint" | "trapezoidal" => {
            let rule = if kind == "midpoint" {
                mi::ImplicitRule::Midpoint
            } else {
                mi::ImplicitRule::Trapezoidal
            };
            let p = mi::ImplicitParams {
                newton: mi::NewtonParams {
                    reuse_jacobian: true,
                    ..Default::default()
                },
                ..mi::ImplicitParams::new(rule, h)
            };
            let mut it = mi::ImplicitIntegrator::new(N, p);
            let info = it
                .integrate(&mut Fpu, 0.0, &y0, T_END, &[], &mut ())
                .unwrap();
            (info, it.y().to_vec())
        }
        "central difference" => {
            let mut it = mi::CentralDifference::new(M, M, mi::StaggeredParams::new(h));
            let info = it
                .integrate(&mut Fpu, 0.0, &y0[..M], &y0[M..], T_END, &[], &mut ())
                .unwrap();
            (info, [it.x(), it.v()].concat())
        }
        "two-stage" => {
            let mut it = mi::TwoStageStaggered::new(M, M, mi::StaggeredParams::new(h));
            let info = it
                .integrate(&mut Fpu, 0.0, &y0[..M], &y0[M..], T_END, &[], &mut ())
                .unwrap();
            (info, [it.x(), it.v()].concat())
        }
        _ => unreachable!(),
    };
    Run {
        y,
        rhs: info.rhs_evals,
        steps: info.accepted_steps,
        rejected: info.rejected_steps,
    }
}

fn peer(kind: &str, tol: f64) -> Run {
    let y0 = initial();
    let sol = match kind {
        "peer DOPRI5" => IVP::ode(&FpuPeer, 0.0, T_END, y0)
            .method(ExplicitRungeKutta::dopri5().rtol(tol).atol(tol))
            .solve()
            .unwrap(),
        "peer APC4" => IVP::ode(&FpuPeer, 0.0, T_END, y0)
            .method(AdamsPredictorCorrector::v4().tol(tol))
            .solve()
            .unwrap(),
        _ => unreachable!(),
    };
    Run {
        y: sol.y.last().unwrap().to_vec(),
        rhs: sol.evals.function,
        steps: sol.steps.accepted,
        rejected: sol.steps.rejected,
    }
}

fn reference() -> Vec<f64> {
    let sol = IVP::ode(&FpuPeer, 0.0, T_END, initial())
        .method(ExplicitRungeKutta::dop853().rtol(1e-13).atol(1e-13))
        .solve()
        .unwrap();
    sol.y.last().unwrap().to_vec()
}

fn time_per_step(f: impl Fn() -> Run) -> (Run, f64) {
    let r = f();
    let reps = 5;
    let start = Instant::now();
    for _ in 0..reps {
        black_box(f());
    }
    let dt = start.elapsed().as_secs_f64() / reps as f64;
    let us = 1e6 * dt / r.steps as f64;
    (r, us)
}

fn table() {
    let yref = reference();
    println!(
        "\n## mbs-integrators vs differential-equations 0.7, FPU chain, n = {N}, t = [0, {T_END}]"
    );
    println!(
        "| method | tol or h | RHS evals | steps (rejected) | max error | µs/step | µs total |"
    );
    println!("|---|---|---|---|---|---|---|");
    for tol in [1e-3, 1e-5, 1e-6, 1e-7, 1e-9] {
        for kind in ["RK45", "peer DOPRI5", "RK23", "ABM", "peer APC4"] {
            let (r, us) = if kind.starts_with("peer") {
                time_per_step(|| peer(kind, tol))
            } else {
                time_per_step(|| ours(kind, tol))
            };
            println!(
                "| {kind} | {tol:.0e} | {} | {} ({}) | {:.2e} | {:.2} | {:.0} |",
                r.rhs,
                r.steps,
                r.rejected,
                max_err(&r.y, &yref),
                us,
                us * r.steps as f64
            );
        }
    }
    for kind in ["midpoint", "trapezoidal", "central difference", "two-stage"] {
        let h = 0.01;
        let (r, us) = time_per_step(|| fixed(kind, h));
        println!(
            "| {kind} | h = {h} | {} | {} ({}) | {:.2e} | {:.2} | {:.0} |",
            r.rhs,
            r.steps,
            r.rejected,
            max_err(&r.y, &yref),
            us,
            us * r.steps as f64
        );
    }
}

fn bench(c: &mut Criterion) {
    table();
    let tol = 1e-6;
    let mut g = c.benchmark_group("integrators_fpu100_tol1e-6");
    for kind in ["RK45", "RK23", "ABM"] {
        g.bench_function(kind, |b| b.iter(|| black_box(ours(kind, tol))));
    }
    for kind in ["peer DOPRI5", "peer APC4"] {
        g.bench_function(kind, |b| b.iter(|| black_box(peer(kind, tol))));
    }
    g.finish();
    let mut g = c.benchmark_group("integrators_fpu100_fixed_h0.01");
    for kind in ["midpoint", "trapezoidal", "central difference", "two-stage"] {
        g.bench_function(kind, |b| b.iter(|| black_box(fixed(kind, 0.01))));
    }
    g.finish();
}

// Plots need a system font (plotters' `FontUnavailable` otherwise): numbers only.
criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = bench
}
criterion_main!(benches);
