//! Reproductions of Bayo–Ledesma's examples on absolute coordinates with Euler
//! parameters (the acceptance tests of the descriptor-form front-ends; the bench
//! suite `alf` prints the same numbers as tables).

use std::sync::Arc;

#[allow(dead_code)] // a shared fixture: each test uses part of it
#[path = "common/analytic.rs"]
mod analytic;

use analytic::{MinimalDoublePendulum, NaturalDoublePendulum};
use mbs_alf::{
    AlfIndex3, AlfParams, Descriptor, Formulation, Index1, Index3Params, Level,
    MechanismDescriptor, Projection, ProjectionParams,
};
use mbs_integrators::descriptor::{DescriptorRule, StepControl};
use mbs_integrators::{ImplicitIntegrator, ImplicitParams, ImplicitRule, Observer, drive};
use mbs_kinematics::euler_params::rotation;
use mbs_mechanisms::bayo_ledesma::{
    CartesianPendulumParams, ChainParams, TwoFourBarsParams, cartesian_pendulum, double_pendulum,
    two_four_bars,
};
use mbs_model::Model;
use nalgebra::{Vector3, Vector4};
use std::ops::ControlFlow;

fn energy(d: &mut MechanismDescriptor, q: &[f64], v: &[f64]) -> (f64, f64) {
    d.evaluate(0.0, q, v, Level::Full).unwrap();
    let ws = d.workspace();
    let t = ws.kinetic_energy(d.layout());
    (t, t + ws.potential_energy())
}

fn implicit(rule: ImplicitRule, h: f64, project_every: usize, dim: usize) -> ImplicitIntegrator {
    let mut p = ImplicitParams::new(rule, h);
    // above the ≈1e-10 relative accuracy of ALF accelerations (tighter stalls Newton)
    p.newton.rtol = 1e-9;
    p.newton.atol = 1e-9;
    p.newton.reuse_jacobian = true;
    p.project_every = project_every;
    ImplicitIntegrator::new(dim, p)
}

/// Max energy error over max kinetic energy of an ALF-INDEX1 run of `sys` (any
/// descriptor) with the midpoint rule, projection every `every` steps (0: none).
fn table1_run<D: Descriptor>(
    sys: D,
    alf: AlfParams,
    y0: &[f64],
    every: usize,
    energy: &mut dyn FnMut(&[f64], &[f64]) -> (f64, f64),
) -> f64 {
    let n = y0.len() / 2;
    let proj = if every == 0 {
        Projection::None
    } else {
        Projection::AugmentedLagrangian(ProjectionParams::default())
    };
    let mut sys = Index1::new(sys, Formulation::Alf(alf), proj);
    struct Watch<'a> {
        energy: &'a mut dyn FnMut(&[f64], &[f64]) -> (f64, f64),
        e0: f64,
        max_de: f64,
        max_t: f64,
        n: usize,
    }
    impl Observer for Watch<'_> {
        fn step(&mut self, _t: f64, y: &[f64]) -> ControlFlow<()> {
            let (t, e) = (self.energy)(&y[..self.n], &y[self.n..]);
            self.max_de = self.max_de.max((e - self.e0).abs());
            self.max_t = self.max_t.max(t);
            ControlFlow::Continue(())
        }
    }
    let e0 = energy(&y0[..n], &y0[n..]).1;
    let mut watch = Watch {
        energy,
        e0,
        max_de: 0.0,
        max_t: 0.0,
        n,
    };
    let mut integ = implicit(ImplicitRule::Midpoint, 1e-3, every, 2 * n);
    integ
        .integrate(&mut sys, 0.0, y0, 20.0, &[], &mut watch)
        .unwrap();
    watch.max_de / watch.max_t
}

/// Table 1: double pendulum from rest, horizontal, midpoint rule h = 0.001, 20 s,
/// ALF-INDEX1 without projection and with projection every 100, 10 and 1 steps
/// (paper: 0.0377 %, 0.0287 %, 0.0039 %, 0.0004 % of the maximum kinetic energy).
///
/// **Choices** (the paper gives neither): g = 1 and the "standard A.L.F." of eq 8
/// without the penalty damping terms (μ = Ω = 0). Why g = 1: the midpoint rule's own
/// energy error on this motion, measured in minimal coordinates where the constraints
/// hold exactly ([`MinimalDoublePendulum`]), is 5.95e-3 % at g = 9.81 and 2.33e-4 %
/// at g = 1 — the paper's 0.0004 % with a projection every step is only reachable
/// with g ≈ 1 (unit mass, unit length, unit gravity). Why μ = Ω = 0: with μ = 1,
/// Ω = 10 the projection every 100 steps is *worse* than none (2.66e-3 % against
/// 1.66e-3 % at g = 1) — each velocity projection after 100 steps of drift removes
/// kinetic energy — so the paper's monotone column needs the undamped penalty system.
/// Measured (max energy error, % of max kinetic energy, g = 1, μ = Ω = 0):
///
/// | projection | natural coordinates | Euler parameters |
/// |---|---|---|
/// | none | 3.49e-4 | 3.49e-3 |
/// | every 100 | 2.82e-4 | 4.22e-4 |
/// | every 10 | 2.62e-4 | 3.11e-4 |
/// | every step | 2.48e-4 | 3.05e-4 |
/// | midpoint floor (minimal coordinates) | 2.33e-4 | 2.33e-4 |
///
/// The same numbers to three digits for α = 1e5, 1e6, 1e7 and Newton tolerances
/// 1e-8…1e-10. At g = 9.81 the projected runs sit at the midpoint floor too
/// (7.8e-3 % natural, 9.1e-3 % Euler parameters against the floor's 5.95e-3 %).
#[test]
fn table1_projections_reduce_the_energy_error() {
    let (g, h, t_end) = (1.0, 1e-3, 20.0);
    let alf = AlfParams {
        mu: 0.0,
        omega: 0.0,
        ..AlfParams::default()
    };
    let nat = NaturalDoublePendulum::new(1.0, 1.0, g);
    let (q0, v0) = nat.initial();
    let y0: Vec<f64> = q0.iter().chain(v0.iter()).copied().collect();
    let natural: Vec<f64> = [0usize, 100, 10, 1]
        .iter()
        .map(|&every| {
            let probe = nat.clone();
            let mut e = |q: &[f64], v: &[f64]| (probe.kinetic_energy(v), probe.energy(q, v));
            table1_run(nat.clone(), alf, &y0, every, &mut e)
        })
        .collect();
    let params = ChainParams {
        gravity: g,
        ..ChainParams::default()
    };
    let model = Arc::new(double_pendulum(&params).unwrap());
    let mut absolute = Vec::new();
    for every in [0usize, 100, 10, 1] {
        let desc = MechanismDescriptor::new(model.clone());
        let (q0, v0) = desc.initial();
        let y0: Vec<f64> = q0.iter().chain(v0.iter()).copied().collect();
        let mut probe = MechanismDescriptor::new(model.clone());
        let mut e = |q: &[f64], v: &[f64]| energy(&mut probe, q, v);
        absolute.push(table1_run(desc, alf, &y0, every, &mut e));
    }
    let floor = |g: f64| {
        MinimalDoublePendulum {
            mass: 1.0,
            length: 1.0,
            g,
        }
        .midpoint_energy_error(h, t_end)
    };
    let (floor_g1, floor_g981) = (floor(g), floor(9.81));
    for (k, every) in ["none", "100", "10", "1"].iter().enumerate() {
        eprintln!(
            "projection every {every:>4}: natural {:.3e} %, Euler parameters {:.3e} %",
            100.0 * natural[k],
            100.0 * absolute[k]
        );
    }
    eprintln!(
        "midpoint floor (minimal coordinates): g = 1 {:.3e} %, g = 9.81 {:.3e} %",
        100.0 * floor_g1,
        100.0 * floor_g981
    );
    for errs in [&natural, &absolute] {
        // falls as the projection frequency rises …
        assert!(errs.windows(2).all(|w| w[1] < w[0]), "{errs:?}");
        // … to ≤ 1e-5 of the maximum kinetic energy with a projection every step …
        assert!(errs[3] <= 1e-5, "{errs:?}");
        // … which is the midpoint rule's own error on the exact motion.
        assert!(
            errs[3] < 1.5 * floor_g1 && errs[3] > 0.9 * floor_g1,
            "{errs:?} {floor_g1}"
        );
    }
    // The midpoint rule alone misses 1e-5 at g = 9.81: the paper's figures imply g ≈ 1.
    assert!(
        floor_g981 > 2e-5 && floor_g1 < 5e-6,
        "{floor_g981} {floor_g1}"
    );
}

fn bob_radius(q: &[f64]) -> f64 {
    Vector3::new(q[0], q[1], q[2]).norm()
}

/// Table 2: Cartesian pendulum, trapezoidal rule h = 0.01, 1000 time units:
/// ALF-INDEX1 and ALF-INDEX3 keep ΔL ≤ 1e-12 and ΔE ≤ 1e-3; Lagrange without
/// stabilization drifts (ΔL ≥ 1e-2).
#[test]
fn table2_long_run_constraint_drift() {
    let model = Arc::new(cartesian_pendulum(&CartesianPendulumParams::default()).unwrap());
    let t_end = 1000.0;
    let h = 0.01;
    let run_index1 = |f: Formulation, proj: Projection| {
        let desc = MechanismDescriptor::new(model.clone());
        let (q0, v0) = desc.initial();
        let n = q0.len();
        let mut sys = Index1::new(desc, f, proj);
        let y0: Vec<f64> = q0.iter().chain(v0.iter()).copied().collect();
        let mut p = ImplicitParams::new(ImplicitRule::Trapezoidal, h);
        p.newton.rtol = 1e-9;
        p.newton.atol = 1e-9;
        p.newton.reuse_jacobian = true;
        p.project_every = 1;
        let mut integ = ImplicitIntegrator::new(2 * n, p);
        integ
            .integrate(&mut sys, 0.0, &y0, t_end, &[], &mut ())
            .unwrap();
        let y = integ.y().to_vec();
        let mut d = MechanismDescriptor::new(model.clone());
        let (_, e0) = energy(&mut d, &q0, &v0);
        let (_, e) = energy(&mut d, &y[..n], &y[n..]);
        ((bob_radius(&y[..n]) - 1.0).abs(), (e - e0).abs())
    };
    let (dl, de) = run_index1(
        Formulation::Alf(AlfParams::default()),
        Projection::AugmentedLagrangian(ProjectionParams::default()),
    );
    eprintln!("ALF-INDEX1: ΔL = {dl:.3e}, ΔE = {de:.3e}");
    assert!(
        dl <= 1e-12 && de <= 1e-3,
        "ALF-INDEX1 ΔL = {dl:e}, ΔE = {de:e}"
    );
    let (dl, de) = run_index1(
        Formulation::Lagrange {
            baumgarte: None,
            min_norm: false,
        },
        Projection::None,
    );
    eprintln!("Lagrange: ΔL = {dl:.3e}, ΔE = {de:.3e}");
    assert!(
        dl >= 1e-2,
        "Lagrange without stabilization should drift, ΔL = {dl:e}"
    );

    // ALF-INDEX3
    let desc = MechanismDescriptor::new(model.clone());
    let (q0, v0) = desc.initial();
    let mut st = AlfIndex3::new(desc, Index3Params::default());
    let mut integ = st.integrator(DescriptorRule::Trapezoidal, StepControl::Fixed { h });
    let y0 = [q0.clone(), v0.clone()].concat();
    drive(&mut integ, &mut st, 0.0, &y0, t_end, &[], &mut ()).unwrap();
    let n = q0.len();
    let (q, v) = (integ.y()[..n].to_vec(), integ.y()[n..2 * n].to_vec());
    let mut d = MechanismDescriptor::new(model.clone());
    let (_, e0) = energy(&mut d, &q0, &v0);
    let (_, e) = energy(&mut d, &q, &v);
    let (dl, de) = ((bob_radius(&q) - 1.0).abs(), (e - e0).abs());
    eprintln!("ALF-INDEX3: ΔL = {dl:.3e}, ΔE = {de:.3e}");
    assert!(
        dl <= 1e-12 && de <= 1e-3,
        "ALF-INDEX3 ΔL = {dl:e}, ΔE = {de:e}"
    );
}

fn marker_point(model: &Model, name: &str, q: &[f64]) -> Vector3<f64> {
    let m = model.marker(model.marker_by_name(name).expect("marker"));
    let b = m.body.body().expect("moving body").0;
    let r = Vector3::new(q[7 * b], q[7 * b + 1], q[7 * b + 2]);
    let p = Vector4::new(q[7 * b + 3], q[7 * b + 4], q[7 * b + 5], q[7 * b + 6]);
    r + rotation(&p) * m.position
}

/// Two four-bar linkages (Fig 3–4): ALF-INDEX3, trapezoidal h = 0.025, α = 1e7,
/// 10 s: ten passes through the singular horizontal position without failure, and
/// ‖Φ‖ ≤ 1e-10 after every step.
#[test]
fn two_four_bars_pass_the_singular_position() {
    let model = Arc::new(two_four_bars(&TwoFourBarsParams::default()).unwrap());
    let desc = MechanismDescriptor::new(model.clone());
    let (q0, v0) = desc.initial();
    let n = q0.len();
    let mut st = AlfIndex3::new(
        desc,
        Index3Params {
            alpha: 1e7,
            ..Index3Params::default()
        },
    );
    let h = 0.025;
    let mut integ = st.integrator(DescriptorRule::Trapezoidal, StepControl::Fixed { h });
    /// Counts the passes through the horizontal position and the largest ‖Φ‖
    /// after a step.
    struct Watch {
        model: Arc<Model>,
        d: MechanismDescriptor,
        n: usize,
        passes: usize,
        near: bool,
        max_phi: f64,
    }
    impl Observer for Watch {
        fn step(&mut self, _t: f64, y: &[f64]) -> ControlFlow<()> {
            let (q, v) = (&y[..self.n], &y[self.n..2 * self.n]);
            self.d.evaluate(0.0, q, v, Level::Positions).unwrap();
            self.max_phi = self.max_phi.max(self.d.phi().amax());
            let x1 = marker_point(&self.model, "point1", q).x;
            // a pass: |x₁| comes within 2 % of ℓ = 1 (the crank is horizontal)
            let now = x1.abs() > 0.98;
            if now && !self.near {
                self.passes += 1;
            }
            self.near = now;
            ControlFlow::Continue(())
        }
    }
    let mut w = Watch {
        model: model.clone(),
        d: MechanismDescriptor::new(model.clone()),
        n,
        passes: 0,
        near: false,
        max_phi: 0.0,
    };
    let y0 = [q0, v0].concat();
    drive(&mut integ, &mut st, 0.0, &y0, 400.0 * h, &[], &mut w).unwrap();
    let (passes, max_phi) = (w.passes, w.max_phi);
    eprintln!(
        "two four-bars: {passes} passes through |x1| = 1, max ‖Φ‖ = {max_phi:.3e}, {:?}, {:?}",
        integ.info(),
        st.stats()
    );
    assert_eq!(integ.info().accepted_steps, 400);
    assert!(passes >= 10, "{passes} passes");
    assert!(max_phi <= 1e-10, "max ‖Φ‖ = {max_phi:e}");
}
