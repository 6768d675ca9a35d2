//! Acceptance 3: "five-bar and double loop pass their singular configurations for
//! 10 s without failure; energy drift with projections is below that without."
//!
//! Mechanisms: [`five_bar_singular`] and [`double_loop_singular`] (the regular
//! pentagons of sec 4.2–4.3 never come near a singular configuration: smallest
//! nonzero singular value of Φ_q ≥ 0.22; see the builders' docs for the geometry
//! choices). Runs: 10 s, RK45 rtol = atol = 1e-6, the paper's α = 1e6, μ = Ω = 1,
//! ≤ 10 iterations, ε_p = 1e-14, ε_v = 1e-12, ε_a = 1e-10 ([`DcaParams::default`]),
//! with and without projections.
//!
//! Measures:
//! - σ of a loop: the 22nd singular value of the Jacobian of its 25 joint rows (22 =
//!   25 − 3 permanently redundant rows), zero exactly when all its joint axes are
//!   collinear in the plane; sampled every 1 ms (dense output). A *pass* is a local
//!   minimum of σ below 1e-3 (σ ≈ 0.1 away from the singular configuration). For the
//!   rhombus (lower loop of the double loop) passes are also counted exactly, as sign
//!   changes of det[Q₁ − P₂, Q₃ − P₂] (P₂ the pivot, Q₁, Q₃ the side joints), which on
//!   a rhombus changes sign only through a flat (singular) configuration.
//! - ‖Φ‖∞, ‖Φ̇‖∞ and the energy at the accepted steps, i.e. after the projections.
//! - Energy drift: max |E(t) − E(0)| over the steps (asserted) and the slope of a
//!   least-squares line through E(t) (reported).
//!
//! Measured (this implementation, x86-64):
//!
//! | | passes (σ < 1e-3) | min σ | ‖Φ‖ / ‖Φ̇‖ with proj. | max ΔE with / without | slope with / without |
//! |---|---|---|---|---|---|
//! | five-bar | 5 (1 exact, then near misses) | 1.5e-4 | 6.6e-10 / 4.2e-6 (1e-16 away from σ < 1e-2) | 2.8e-3 / 6.5e-2 J | see test output |
//! | double loop | 8 (rhombus; 8 sign changes) | 1.1e-5 | 2.2e-16 / 1.7e-14 | 4.3e-5 / 1.1e-2 J | see test output |
//!
//! Five-bar: the flat configuration of a five-bar with distinct ground joints is the
//! apex of a cone in its two-DOF configuration space, reached only by an exactly
//! symmetric motion. The first pass is exact; round-off then breaks the symmetry
//! and the later approaches are near misses (σ ≈ 1e-4) in which the true motion is
//! deflected by constraint forces ∝ 1/σ that a 1e-6 step cannot resolve: energy is
//! lost there (with projections the step is projected back onto the manifold, as an
//! inelastic impact; without, the Baumgarte terms act). Near those steps the
//! projections do not reach 1e-12 either: the augmented-Lagrangian iteration contracts
//! the error of a mode with singular value σ by m/(m + ασ²) per iteration, ≈ 1 for
//! σ < 1e-3 with α = 1e6 and 10 iterations. So for the five-bar ‖Φ‖, ‖Φ̇‖ ≤ 1e-12 is
//! asserted at the steps with σ ≥ 1e-2, and the measured values near the singular
//! configuration are asserted to stay below 1e-8 and 1e-4.

use std::ops::{ControlFlow, Range};
use std::sync::Arc;

use mbs_constraints::{ConstraintSource, SystemLayout, Workspace};
use mbs_dca::{AlfDca, DcaParams};
use mbs_integrators::{EmbeddedRk, Observer, OdeSystem, RkParams};
use mbs_kinematics::euler_params::rotation;
use mbs_mechanisms::alf_dca::{AlfDcaParams, double_loop_singular, five_bar_singular};
use mbs_model::{JointId, Layout, Model};
use nalgebra::{DMatrix, Vector3, Vector4};

/// σ threshold of a pass through a singular configuration.
const PASS: f64 = 1e-3;
/// Steps with σ at least this are "away from singular configurations".
const AWAY: f64 = 1e-2;
/// Dense sampling interval for σ (s).
const DT: f64 = 1e-3;

/// Per loop (a range of joint indices), the 22nd singular value of the Jacobian of
/// its rows.
struct Sigma {
    model: Arc<Model>,
    sys: SystemLayout,
    ws: Workspace,
    jac: DMatrix<f64>,
    loops: Vec<Vec<usize>>,
}

impl Sigma {
    fn new(model: &Arc<Model>, loops: &[Range<usize>]) -> Self {
        let sys = SystemLayout::new(model, Layout::EulerParamsOmega);
        let ws = Workspace::new(&sys);
        let jac = DMatrix::zeros(sys.n_rows(), sys.n_v());
        let loops = loops
            .iter()
            .map(|js| {
                let mut rows = Vec::new();
                for e in sys.entries() {
                    if let ConstraintSource::Joint(JointId(j)) = e.source
                        && js.contains(&j)
                    {
                        rows.extend((0..e.rows()).map(|r| e.global_row(r)));
                    }
                }
                assert_eq!(rows.len(), 25);
                rows
            })
            .collect();
        Self {
            model: model.clone(),
            sys,
            ws,
            jac,
            loops,
        }
    }

    fn sigma(&mut self, dca: &AlfDca, t: f64, y: &[f64]) -> Vec<f64> {
        let s = dca.to_state(t, y);
        self.ws
            .evaluate_constraints(&self.model, &self.sys, &s)
            .unwrap();
        self.ws.phi_q_dense(&self.sys, &mut self.jac).unwrap();
        self.loops
            .iter()
            .map(|rows| {
                let sub = self.jac.select_rows(rows.iter());
                let mut sv: Vec<f64> = sub.singular_values().iter().copied().collect();
                sv.sort_by(|a, b| b.total_cmp(a));
                sv[21]
            })
            .collect()
    }
}

/// Records the accepted steps (after projections) and the dense samples.
#[derive(Default)]
struct Obs {
    steps: Vec<(f64, Vec<f64>)>,
    samples: Vec<(f64, Vec<f64>)>,
}

impl Observer for Obs {
    fn step(&mut self, t: f64, y: &[f64]) -> ControlFlow<()> {
        self.steps.push((t, y.to_vec()));
        ControlFlow::Continue(())
    }
    fn sample(&mut self, t: f64, y: &[f64]) {
        self.samples.push((t, y.to_vec()));
    }
}

struct Run {
    /// σ per loop at the dense samples.
    sigma: Vec<Vec<f64>>,
    /// The samples (for geometric detectors).
    samples: Vec<(f64, Vec<f64>)>,
    /// Per accepted step: t, ‖Φ‖∞, ‖Φ̇‖∞, smallest σ over the loops, E.
    steps: Vec<(f64, f64, f64, f64, f64)>,
    e0: f64,
    projections: usize,
    unconverged_projections: usize,
}

fn run(model: &Arc<Model>, loops: &[Range<usize>], projections: bool) -> Run {
    let params = DcaParams {
        projections,
        ..DcaParams::default()
    };
    let mut dca = AlfDca::new(model.clone(), params);
    let y0 = dca.initial_state();
    let e0 = dca.energy(0.0, &y0).unwrap();
    let mut rk = EmbeddedRk::rk45(dca.dim(), RkParams::with_tol(1e-6, 1e-6));
    let mut obs = Obs::default();
    let n_out = (10.0 / DT).round() as usize;
    let t_out: Vec<f64> = (0..=n_out).map(|k| k as f64 * DT).collect();
    let info = rk
        .integrate(&mut dca, 0.0, &y0, 10.0, &t_out, &mut obs)
        .unwrap_or_else(|e| panic!("{}: failed: {e}", model.name()));
    assert!(!info.stopped);
    assert!((obs.steps.last().unwrap().0 - 10.0).abs() < 1e-12);
    let mut sig = Sigma::new(model, loops);
    let mut sigma = vec![Vec::with_capacity(obs.samples.len()); loops.len()];
    for (t, y) in &obs.samples {
        for (k, s) in sig.sigma(&dca, *t, y).into_iter().enumerate() {
            sigma[k].push(s);
        }
    }
    let mut steps = Vec::with_capacity(obs.steps.len());
    for (t, y) in &obs.steps {
        let (phi, phi_dot) = dca.constraint_errors(*t, y).unwrap();
        let s = sig
            .sigma(&dca, *t, y)
            .into_iter()
            .fold(f64::INFINITY, f64::min);
        steps.push((*t, phi, phi_dot, s, dca.energy(*t, y).unwrap()));
    }
    if projections {
        assert_eq!(dca.stats().projections, info.accepted_steps);
    }
    Run {
        sigma,
        samples: obs.samples,
        steps,
        e0,
        projections: dca.stats().projections,
        unconverged_projections: dca.stats().unconverged_projections,
    }
}

/// Local minima of σ below [`PASS`].
fn passes(s: &[f64]) -> usize {
    (1..s.len() - 1)
        .filter(|&i| s[i] < PASS && s[i] <= s[i - 1] && s[i] < s[i + 1])
        .count()
}

/// (max |E − E₀|, slope of the least-squares line through E(t)) over the steps.
fn energy_drift(r: &Run) -> (f64, f64) {
    let max = r
        .steps
        .iter()
        .fold(0.0f64, |m, s| m.max((s.4 - r.e0).abs()));
    let n = r.steps.len() as f64;
    let (st, se) = r
        .steps
        .iter()
        .fold((0.0, 0.0), |(a, b), s| (a + s.0, b + s.4));
    let (mt, me) = (st / n, se / n);
    let (num, den) = r.steps.iter().fold((0.0, 0.0), |(a, b), s| {
        (a + (s.0 - mt) * (s.4 - me), b + (s.0 - mt).powi(2))
    });
    (max, num / den)
}

/// Sign changes of det[Q₁ − P₂, Q₃ − P₂] of the rhombus (bodies 5–8 = indices 4–7),
/// counted with hysteresis (|det| > 1e-3 a² on both sides).
fn rhombus_flips(r: &Run, a: f64) -> usize {
    let pose = |y: &[f64], b: usize| {
        let r = Vector3::new(y[7 * b], y[7 * b + 1], y[7 * b + 2]);
        let p = Vector4::new(y[7 * b + 3], y[7 * b + 4], y[7 * b + 5], y[7 * b + 6]);
        (r, rotation(&p) * Vector3::x() * (0.5 * a))
    };
    let mut last = 0.0f64;
    let mut flips = 0;
    for (_, y) in &r.samples {
        let (r5, h5) = pose(y, 4);
        let (r8, h8) = pose(y, 7);
        let p2 = r5 - h5;
        let (q1, q3) = (r5 + h5, r8 - h8);
        let d = (q1 - p2).cross(&(q3 - p2)).z;
        if d.abs() > 1e-3 * a * a {
            if last != 0.0 && d.signum() != last {
                flips += 1;
            }
            last = d.signum();
        }
    }
    flips
}

struct Summary {
    passes: Vec<usize>,
    min_sigma: f64,
    max_phi: f64,
    max_phi_dot: f64,
    max_phi_away: f64,
    max_phi_dot_away: f64,
    drift: (f64, f64),
}

fn summarize(name: &str, r: &Run, label: &str) -> Summary {
    let away = r.steps.iter().filter(|s| s.3 >= AWAY);
    let s = Summary {
        passes: r.sigma.iter().map(|s| passes(s)).collect(),
        min_sigma: r
            .sigma
            .iter()
            .flatten()
            .fold(f64::INFINITY, |m, &x| m.min(x)),
        max_phi: r.steps.iter().fold(0.0, |m: f64, s| m.max(s.1)),
        max_phi_dot: r.steps.iter().fold(0.0, |m: f64, s| m.max(s.2)),
        max_phi_away: away.clone().fold(0.0, |m: f64, s| m.max(s.1)),
        max_phi_dot_away: away.fold(0.0, |m: f64, s| m.max(s.2)),
        drift: energy_drift(r),
    };
    eprintln!(
        "{name} {label}: {} steps, passes (σ < {PASS:e}) per loop {:?}, min σ {:.2e}, \
         ‖Φ‖ {:.2e} (σ ≥ {AWAY:e}: {:.2e}), ‖Φ̇‖ {:.2e} (σ ≥ {AWAY:e}: {:.2e}), \
         max |E − E0| {:.2e} J, slope {:+.2e} J/s (E0 {:.4} J), projections {} ({} unconverged)",
        r.steps.len(),
        s.passes,
        s.min_sigma,
        s.max_phi,
        s.max_phi_away,
        s.max_phi_dot,
        s.max_phi_dot_away,
        s.drift.0,
        s.drift.1,
        r.e0,
        r.projections,
        r.unconverged_projections,
    );
    s
}

#[test]
fn five_bar_passes_its_singular_configuration() {
    let model = Arc::new(five_bar_singular(&AlfDcaParams::default()).unwrap());
    // one loop: joints 0..5 (a one-element array of ranges is meant)
    #[allow(clippy::single_range_in_vec_init)]
    let loops = [0..5];
    let with = run(&model, &loops, true);
    let without = run(&model, &loops, false);
    let w = summarize("five-bar-singular", &with, "with projections");
    let wo = summarize("five-bar-singular", &without, "without projections");
    // The first pass is exact (symmetric motion, t ≈ 0.39 s); later approaches are
    // near misses (module docs). Measured: 5 passes with, 3 without.
    // (The regular pentagon of `five_bar` gives 0 passes, σ ≥ 0.22.)
    assert!(w.passes[0] >= 2, "passes {:?}", w.passes);
    assert!(wo.passes[0] >= 1, "passes {:?}", wo.passes);
    assert!(w.min_sigma < 5e-4, "min σ {:e}", w.min_sigma);
    // After the projections: at the round-off level away from the singular
    // configuration, bounded near it (slow AL contraction, module docs).
    assert!(w.max_phi_away <= 1e-12, "‖Φ‖ {:e}", w.max_phi_away);
    assert!(w.max_phi_dot_away <= 1e-12, "‖Φ̇‖ {:e}", w.max_phi_dot_away);
    assert!(w.max_phi <= 1e-8, "‖Φ‖ {:e}", w.max_phi);
    assert!(w.max_phi_dot <= 1e-4, "‖Φ̇‖ {:e}", w.max_phi_dot);
    assert!(wo.max_phi > 100.0 * w.max_phi, "drift not visible");
    assert!(
        w.drift.0 < wo.drift.0,
        "energy drift with projections {:e} ≥ without {:e}",
        w.drift.0,
        wo.drift.0
    );
}

#[test]
fn double_loop_passes_its_singular_configurations() {
    let p = AlfDcaParams::default();
    let model = Arc::new(double_loop_singular(&p).unwrap());
    let loops = [0..5, 5..10];
    let with = run(&model, &loops, true);
    let without = run(&model, &loops, false);
    let w = summarize("double-loop-singular", &with, "with projections");
    let wo = summarize("double-loop-singular", &without, "without projections");
    let flips = (
        rhombus_flips(&with, p.length),
        rhombus_flips(&without, p.length),
    );
    eprintln!("double-loop-singular: rhombus flips with / without projections {flips:?}");
    // Upper loop (regular pentagon) stays far from singular; the rhombus folds flat
    // every 1.2 s (measured: 8 passes and 8 flips with projections; without, 8 σ
    // minima but 5 flips: at t ≈ 6.5 s the run without projections leaves the rhombus
    // for the other branch through the flat configuration, Q₁ = Q₃ with links 6 and 7
    // folded together, which the exact motion cannot do with a nonzero opening rate).
    assert!(
        w.passes[0] == 0 && w.passes[1] >= 6,
        "passes {:?}",
        w.passes
    );
    assert!(wo.passes[1] >= 6, "passes {:?}", wo.passes);
    assert!(flips.0 >= 6, "flips {flips:?}");
    assert!(w.min_sigma < 1e-4, "min σ {:e}", w.min_sigma);
    // A pass of the rhombus is smooth: the projections stay at round-off throughout.
    assert!(w.max_phi <= 1e-12, "‖Φ‖ {:e}", w.max_phi);
    assert!(w.max_phi_dot <= 1e-12, "‖Φ̇‖ {:e}", w.max_phi_dot);
    assert!(
        wo.max_phi > 100.0 * w.max_phi.max(1e-15),
        "drift not visible"
    );
    assert!(
        w.drift.0 < wo.drift.0,
        "energy drift with projections {:e} ≥ without {:e}",
        w.drift.0,
        wo.drift.0
    );
}
