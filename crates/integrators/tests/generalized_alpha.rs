//! The generalized-α integrators: order of convergence in fixed steps (both forms),
//! no dissipation at ρ∞ = 1 and the predicted damping ρ∞ of an unresolved mode, a
//! stiff two-mass spring integrated with the steps of its slow mode, adaptive runs
//! against exact solutions, dense output, the statistics, and bad parameters.

mod common;
use common::*;
use mbs_integrators::*;

/// Exact Kepler state as positions and velocities.
fn kepler_xv(e: f64, t: f64) -> [f64; 4] {
    Kepler::exact(e, t)
}

fn sci(v: &[f64]) -> String {
    let v: Vec<String> = v.iter().map(|x| format!("{x:.3e}")).collect();
    v.join(", ")
}

fn second(rho: f64, h: f64) -> GeneralizedAlpha {
    GeneralizedAlpha::new(1, 1, GeneralizedAlphaParams::fixed(rho, h))
}

/// Harmonic oscillator ẍ = −ω² x as a partitioned system.
struct Spring {
    omega: f64,
}

impl PartitionedSystem for Spring {
    fn dim_positions(&self) -> usize {
        1
    }
    fn dim_velocities(&self) -> usize {
        1
    }
    fn accelerations(
        &mut self,
        _t: f64,
        x: &[f64],
        _v: &[f64],
        a: &mut [f64],
    ) -> Result<(), SystemError> {
        a[0] = -self.omega * self.omega * x[0];
        Ok(())
    }
}

/// The same oscillator as a first-order system `[x, v]`.
struct SpringOde {
    omega: f64,
}

impl OdeSystem for SpringOde {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        d[0] = y[1];
        d[1] = -self.omega * self.omega * y[0];
        Ok(())
    }
}

/// Two unit masses in a line: mass 1 tied to the wall by a spring `k1`, mass 2 tied to
/// mass 1 by a spring `k2` (`k2 ≫ k1`: a stiff bushing). `x = [x1, x2]`.
struct TwoMass {
    k1: f64,
    k2: f64,
}

impl TwoMass {
    /// The exact motion from rest at `x0`, by the two normal modes of `K`.
    fn exact(&self, x0: [f64; 2], t: f64) -> [f64; 4] {
        let (a, b, d) = (self.k1 + self.k2, -self.k2, self.k2);
        let (tr, det) = (a + d, a * d - b * b);
        let disc = (0.25 * tr * tr - det).sqrt();
        let mut x = [0.0; 4];
        // the smaller root as det / larger root (no cancellation)
        let big = 0.5 * tr + disc;
        for lam in [det / big, big] {
            // eigenvector of [[a, b], [b, d]]: (−b, a − λ) or (d − λ, −b)
            let (p, q) = if (a - lam).abs() > (d - lam).abs() {
                (-b, a - lam)
            } else {
                (d - lam, -b)
            };
            let n = (p * p + q * q).sqrt();
            let (p, q) = (p / n, q / n);
            let c = x0[0] * p + x0[1] * q;
            let w = lam.sqrt();
            x[0] += c * p * (w * t).cos();
            x[1] += c * q * (w * t).cos();
            x[2] -= c * p * w * (w * t).sin();
            x[3] -= c * q * w * (w * t).sin();
        }
        x
    }
}

impl PartitionedSystem for TwoMass {
    fn dim_positions(&self) -> usize {
        2
    }
    fn dim_velocities(&self) -> usize {
        2
    }
    fn accelerations(
        &mut self,
        _t: f64,
        x: &[f64],
        _v: &[f64],
        a: &mut [f64],
    ) -> Result<(), SystemError> {
        a[0] = -self.k1 * x[0] + self.k2 * (x[1] - x[0]);
        a[1] = -self.k2 * (x[1] - x[0]);
        Ok(())
    }
}

impl OdeSystem for TwoMass {
    fn dim(&self) -> usize {
        4
    }
    fn rhs(&mut self, t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
        d[..2].copy_from_slice(&y[2..]);
        self.accelerations(t, &y[..2], &y[2..], &mut d[2..])
    }
}

#[test]
fn second_order_form_converges_with_order_two() {
    let sys = Damped { c: 0.4 };
    for rho in [0.0, 0.5, 0.8, 1.0] {
        let errs: Vec<f64> = [0.1, 0.05, 0.025, 0.0125]
            .iter()
            .map(|&h| {
                let mut ga = second(rho, h);
                ga.integrate(
                    &mut Damped { c: 0.4 },
                    0.0,
                    &[1.0],
                    &[0.0],
                    5.0,
                    &[],
                    &mut (),
                )
                .unwrap();
                let ex = sys.exact(5.0);
                max_err(&[ga.x()[0], ga.v()[0]], &ex)
            })
            .collect();
        let p = orders(&errs);
        println!(
            "second order, rho {rho}: errors {}, orders {p:.3?}",
            sci(&errs)
        );
        assert!(
            p.iter().all(|&p| (1.9..2.15).contains(&p)),
            "rho {rho}: {p:?}"
        );
    }
    // nonlinear: Kepler, e = 0.5, one period
    let errs: Vec<f64> = [0.02, 0.01, 0.005]
        .iter()
        .map(|&h| {
            let y0 = Kepler::initial(0.5);
            let mut ga = GeneralizedAlpha::new(2, 2, GeneralizedAlphaParams::fixed(0.8, h));
            let t_end = 2.0 * std::f64::consts::PI;
            let mut sys = KeplerPartitioned;
            ga.integrate(&mut sys, 0.0, &y0[..2], &y0[2..], t_end, &[], &mut ())
                .unwrap();
            let ex = kepler_xv(0.5, t_end);
            max_err(&[ga.x(), ga.v()].concat(), &ex)
        })
        .collect();
    let p = orders(&errs);
    println!(
        "second order, Kepler: errors {}, orders {p:.3?}",
        sci(&errs)
    );
    assert!(p.iter().all(|&p| (1.9..2.15).contains(&p)), "{p:?}");
}

#[test]
fn first_order_form_converges_with_order_two() {
    for rho in [0.0, 0.5, 0.8, 1.0] {
        let errs: Vec<f64> = [0.01, 0.005, 0.0025]
            .iter()
            .map(|&h| {
                let y0 = Kepler::initial(0.5);
                let mut ga = GeneralizedAlphaOde::new(4, GeneralizedAlphaParams::fixed(rho, h));
                let t_end = 2.0 * std::f64::consts::PI;
                ga.integrate(&mut Kepler::default(), 0.0, &y0, t_end, &[], &mut ())
                    .unwrap();
                max_err(ga.y(), &kepler_xv(0.5, t_end))
            })
            .collect();
        let p = orders(&errs);
        println!(
            "first order, Kepler, rho {rho}: errors {}, orders {p:.3?}",
            sci(&errs)
        );
        assert!(
            p.iter().all(|&p| (1.9..2.15).contains(&p)),
            "rho {rho}: {p:?}"
        );
    }
    // non-autonomous: y' = −2t y², y = 1/(1 + t²)
    let errs: Vec<f64> = [0.1, 0.05, 0.025]
        .iter()
        .map(|&h| {
            let mut ga = GeneralizedAlphaOde::new(1, GeneralizedAlphaParams::fixed(0.6, h));
            ga.integrate(&mut Riccati, 0.0, &[1.0], 3.0, &[], &mut ())
                .unwrap();
            (ga.y()[0] - 0.1).abs()
        })
        .collect();
    let p = orders(&errs);
    println!(
        "first order, Riccati: errors {}, orders {p:.3?}",
        sci(&errs)
    );
    assert!(p.iter().all(|&p| (1.9..2.15).contains(&p)), "{p:?}");
}

/// ρ∞ = 1 is the trapezoidal rule (second-order form) and the implicit midpoint rule
/// (first-order form): no numerical dissipation, the energy `ω² x² + v²` of a linear
/// oscillator stays constant (to the Newton tolerance) over 1000 periods at 21 steps
/// a period; ρ∞ = 0.8 dissipates at the same step.
#[test]
fn rho_one_conserves_the_energy_of_a_linear_oscillator() {
    let omega = 1.0;
    let period = 2.0 * std::f64::consts::PI / omega;
    let (h, t_end) = (period / 21.0, 1000.0 * period);
    let energy = |x: f64, v: f64| omega * omega * x * x + v * v;
    let mut drift = Vec::new();
    for rho in [1.0, 0.8] {
        let mut ga = second(rho, h);
        let info = ga
            .integrate(
                &mut Spring { omega },
                0.0,
                &[1.0],
                &[0.0],
                t_end,
                &[],
                &mut (),
            )
            .unwrap();
        let e2 = energy(ga.x()[0], ga.v()[0]) - 1.0;
        let mut go = GeneralizedAlphaOde::new(2, GeneralizedAlphaParams::fixed(rho, h));
        go.integrate(
            &mut SpringOde { omega },
            0.0,
            &[1.0, 0.0],
            t_end,
            &[],
            &mut (),
        )
        .unwrap();
        let e1 = energy(go.y()[0], go.y()[1]) - 1.0;
        println!(
            "rho {rho}: {} steps, relative energy change {e2:.3e} (second order), {e1:.3e} (first order)",
            info.accepted_steps
        );
        drift.push((e2, e1));
    }
    assert!(
        drift[0].0.abs() < 1e-9 && drift[0].1.abs() < 1e-9,
        "{drift:?}"
    );
    assert!(drift[1].0 < -0.01 && drift[1].1 < -0.01, "{drift:?}");
}

/// The spectral radius of an unresolved mode (ωh = 10⁴) per step is ρ∞: measured as
/// the geometric mean of the amplitude ratio over steps 100–200.
#[test]
fn unresolved_modes_are_damped_by_rho_inf() {
    let omega = 1e4;
    let h = 1.0;
    for rho in [0.3, 0.5, 0.8, 0.95] {
        let amp = |x: f64, v: f64| (omega * omega * x * x + v * v).sqrt();
        let mut rec = Recorder {
            record_steps: true,
            ..Recorder::default()
        };
        let mut ga = second(rho, h);
        ga.integrate(
            &mut Spring { omega },
            0.0,
            &[1.0],
            &[0.0],
            200.0,
            &[],
            &mut rec,
        )
        .unwrap();
        let (a100, a200) = (rec.state(99), rec.state(199));
        let r2 = (amp(a200[0], a200[1]) / amp(a100[0], a100[1])).powf(0.01);
        let mut rec = Recorder {
            record_steps: true,
            ..Recorder::default()
        };
        let mut go = GeneralizedAlphaOde::new(2, GeneralizedAlphaParams::fixed(rho, h));
        go.integrate(
            &mut SpringOde { omega },
            0.0,
            &[1.0, 0.0],
            200.0,
            &[],
            &mut rec,
        )
        .unwrap();
        let (a100, a200) = (rec.state(99), rec.state(199));
        let r1 = (amp(a200[0], a200[1]) / amp(a100[0], a100[1])).powf(0.01);
        println!(
            "rho_inf {rho}: measured spectral radius {r2:.4} (second order), {r1:.4} (first order)"
        );
        assert!(
            (r2 - rho).abs() < 0.02 && (r1 - rho).abs() < 0.02,
            "{rho}: {r2}, {r1}"
        );
    }
    // ρ∞ = 0: annihilated (to O(1/(ωh)) per step and the Newton tolerance): 1e-7 of
    // the initial amplitude after 5 steps
    let mut ga = second(0.0, h);
    ga.integrate(
        &mut Spring { omega },
        0.0,
        &[1.0],
        &[0.0],
        5.0,
        &[],
        &mut (),
    )
    .unwrap();
    let mut go = GeneralizedAlphaOde::new(2, GeneralizedAlphaParams::fixed(0.0, h));
    go.integrate(
        &mut SpringOde { omega },
        0.0,
        &[1.0, 0.0],
        5.0,
        &[],
        &mut (),
    )
    .unwrap();
    let (a2, a1) = (
        omega * ga.x()[0].abs() + ga.v()[0].abs(),
        omega * go.y()[0].abs() + go.y()[1].abs(),
    );
    println!(
        "rho_inf 0: amplitude after 5 steps {a2:.3e} (second order), {a1:.3e} (first order), from 1e4"
    );
    assert!(a2 < 1e-3 && a1 < 1e-3, "{a2} {a1}");
}

/// A stiff two-mass spring (k = 1e8 between the unit masses, k = 1 to the wall): an
/// explicit method would be held to h < 2/ω_fast = 1.4e-4 (70 000 steps for 10 s).
/// Started on the slow normal mode (the stiff spring pre-stretched by k1/(2 k2)) the
/// adaptive steps follow the slow mode (period 8.9) and the motion agrees with the
/// exact modal solution; released at equal positions (stiff mode excited at a velocity
/// amplitude of 7e-5, above the tolerance) the default ρ∞ damps the stiff oscillation
/// out within a few hundred steps.
#[test]
fn stiff_two_mass_spring_takes_the_steps_of_its_slow_mode() {
    let (k1, k2) = (1.0, 1e8);
    let t_end = 10.0;
    let run = |rho: f64, x0: [f64; 2]| {
        let exact = TwoMass { k1, k2 }.exact(x0, t_end);
        let params = GeneralizedAlphaParams::with_tol(rho, 1e-6, 1e-6);
        let mut ga = GeneralizedAlpha::new(2, 2, params.clone());
        let mut sys = TwoMass { k1, k2 };
        let i2 = ga
            .integrate(&mut sys, 0.0, &x0, &[0.0, 0.0], t_end, &[], &mut ())
            .unwrap();
        let e2 = max_err(ga.x(), &exact[..2]);
        let mut go = GeneralizedAlphaOde::new(4, params);
        let y0 = [x0[0], x0[1], 0.0, 0.0];
        let i1 = go
            .integrate(&mut sys, 0.0, &y0, t_end, &[], &mut ())
            .unwrap();
        let e1 = max_err(&go.y()[..2], &exact[..2]);
        println!("rho {rho}, x0 {x0:?}: second order {i2:?}, position error {e2:.3e}");
        println!("rho {rho}, x0 {x0:?}: first order {i1:?}, position error {e1:.3e}");
        [(i2, e2), (i1, e1)]
    };
    let slow = [1.0, 1.0 + k1 / (2.0 * k2)];
    for rho in [0.0, DEFAULT_RHO_INF, 0.9] {
        for (info, err) in run(rho, slow) {
            assert!(info.accepted_steps + info.rejected_steps < 600, "{info:?}");
            assert!(info.rhs_evals < 1500, "{info:?}");
            assert!(err < 1e-3, "{err}");
        }
    }
    for (info, err) in run(DEFAULT_RHO_INF, [1.0, 1.0]) {
        assert!(info.accepted_steps + info.rejected_steps < 1500, "{info:?}");
        assert!(err < 1e-3, "{err}");
    }
}

/// Weighted local errors `|y_{n+1} − Φ_h(y_n)| / max(rtol max(|y_n|, |y_{n+1}|), atol)`
/// of adaptive steps on `ẍ = −x` against the exact flow `Φ_h` (a rotation), and the
/// global error's response to the tolerance: a local error `O(h³)` per step over
/// `O(tol^{−1/3})` steps gives a global error `∝ tol^{2/3}`.
#[test]
fn adaptive_steps_meet_the_tolerance_against_the_exact_flow() {
    let flow = |y: &[f64], h: f64| {
        [
            y[0] * h.cos() + y[1] * h.sin(),
            -y[0] * h.sin() + y[1] * h.cos(),
        ]
    };
    let mut global = Vec::new();
    for tol in [1e-5, 1e-7] {
        let p = GeneralizedAlphaParams::with_tol(DEFAULT_RHO_INF, tol, tol);
        let mut ga = GeneralizedAlpha::new(1, 1, p.clone());
        let mut r2 = Recorder {
            record_steps: true,
            ..Recorder::default()
        };
        ga.integrate(
            &mut Spring { omega: 1.0 },
            0.0,
            &[1.0],
            &[0.0],
            10.0,
            &[],
            &mut r2,
        )
        .unwrap();
        let mut go = GeneralizedAlphaOde::new(2, p);
        let mut r1 = Recorder {
            record_steps: true,
            ..Recorder::default()
        };
        go.integrate(
            &mut SpringOde { omega: 1.0 },
            0.0,
            &[1.0, 0.0],
            10.0,
            &[],
            &mut r1,
        )
        .unwrap();
        let exact = [10.0f64.cos(), -10.0f64.sin()];
        let mut g = Vec::new();
        for (name, rec) in [("second order", &r2), ("first order", &r1)] {
            let mut worst: f64 = 0.0;
            let mut sum = 0.0;
            for k in 1..rec.t.len() {
                let (y0, y1) = (rec.state(k - 1), rec.state(k));
                let ex = flow(y0, rec.t[k] - rec.t[k - 1]);
                for i in 0..2 {
                    let sc = (tol * y0[i].abs().max(y1[i].abs())).max(tol);
                    let r = (y1[i] - ex[i]).abs() / sc;
                    worst = worst.max(r);
                    sum += r;
                }
            }
            let last = rec.state(rec.t.len() - 1);
            let e = max_err(last, &exact);
            let mean = sum / (2 * (rec.t.len() - 1)) as f64;
            println!(
                "tol {tol:e}, {name}: {} steps, weighted local error max {worst:.3} mean {mean:.3}, global error {e:.3e}",
                rec.t.len() - 1
            );
            assert!(
                worst < 1.5,
                "{name}, tol {tol}: local error {worst} × tolerance"
            );
            g.push(e);
        }
        global.push(g);
    }
    for form in 0..2 {
        let ratio = global[0][form] / global[1][form];
        // 100^{2/3} = 21.5
        assert!((12.0..40.0).contains(&ratio), "form {form}: {ratio}");
    }
}

/// The dense output (cubic Hermite) between the steps is as accurate as the steps:
/// `ẍ = −x − 0.4 ẋ` sampled every 0.01 s (many samples per step) against the exact
/// solution.
#[test]
fn dense_output_is_as_accurate_as_the_steps() {
    let sys = Damped { c: 0.4 };
    let t_out: Vec<f64> = (0..=1000).map(|i| i as f64 * 0.01).collect();
    let p = GeneralizedAlphaParams::with_tol(DEFAULT_RHO_INF, 1e-5, 1e-5);
    let mut steps = Recorder {
        record_steps: true,
        ..Recorder::default()
    };
    let mut ga = GeneralizedAlpha::new(1, 1, p.clone());
    ga.integrate(
        &mut Damped { c: 0.4 },
        0.0,
        &[1.0],
        &[0.0],
        10.0,
        &[],
        &mut steps,
    )
    .unwrap();
    let mut samples = Recorder::new();
    let mut ga = GeneralizedAlpha::new(1, 1, p.clone());
    let info = ga
        .integrate(
            &mut Damped { c: 0.4 },
            0.0,
            &[1.0],
            &[0.0],
            10.0,
            &t_out,
            &mut samples,
        )
        .unwrap();
    struct DampedOde;
    impl OdeSystem for DampedOde {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&mut self, _t: f64, y: &[f64], d: &mut [f64]) -> Result<(), SystemError> {
            d[0] = y[1];
            d[1] = -y[0] - 0.4 * y[1];
            Ok(())
        }
    }
    let mut steps1 = Recorder {
        record_steps: true,
        ..Recorder::default()
    };
    let mut go = GeneralizedAlphaOde::new(2, p.clone());
    go.integrate(&mut DampedOde, 0.0, &[1.0, 0.0], 10.0, &[], &mut steps1)
        .unwrap();
    let mut samples1 = Recorder::new();
    let mut go = GeneralizedAlphaOde::new(2, p);
    go.integrate(
        &mut DampedOde,
        0.0,
        &[1.0, 0.0],
        10.0,
        &t_out,
        &mut samples1,
    )
    .unwrap();
    let worst = |rec: &Recorder| {
        (0..rec.t.len())
            .map(|k| max_err(rec.state(k), &sys.exact(rec.t[k])))
            .fold(0.0, f64::max)
    };
    let (s2, d2, s1, d1) = (
        worst(&steps),
        worst(&samples),
        worst(&steps1),
        worst(&samples1),
    );
    println!(
        "{} steps, {} samples: max error at steps {s2:.3e}, at samples {d2:.3e} (second order); {s1:.3e}, {d1:.3e} (first order)",
        info.accepted_steps,
        samples.t.len()
    );
    assert_eq!(samples.t, t_out);
    assert!(info.accepted_steps < 400, "samples inside steps");
    assert!(d2 < 1.5 * s2 && d1 < 1.5 * s1, "{s2} {d2} {s1} {d1}");
}

/// Every evaluation is counted: the start (`f₀` and the derivative of the starting
/// `a` or rate), one per Newton iteration, and the
/// forward-difference Jacobians (2 n_v for the second-order form, n + 1 for the
/// first-order one).
#[test]
fn statistics_count_every_evaluation() {
    let y0 = Kepler::initial(0.3);
    let p = GeneralizedAlphaParams::with_tol(0.7, 1e-6, 1e-6);
    let mut ga = GeneralizedAlpha::new(2, 2, p.clone());
    let i = ga
        .integrate(
            &mut KeplerPartitioned,
            0.0,
            &y0[..2],
            &y0[2..],
            20.0,
            &[],
            &mut (),
        )
        .unwrap();
    println!("second order: {i:?}");
    assert_eq!(i.rhs_evals, 2 + i.newton_iterations + 4 * i.jacobian_evals);
    assert!(i.lu_decompositions >= i.jacobian_evals && i.jacobian_evals >= 1);
    let mut sys = Kepler::default();
    let mut go = GeneralizedAlphaOde::new(4, p);
    let i = go
        .integrate(&mut sys, 0.0, &y0, 20.0, &[], &mut ())
        .unwrap();
    println!("first order: {i:?}");
    assert_eq!(i.rhs_evals, 2 + i.newton_iterations + 5 * i.jacobian_evals);
    assert_eq!(i.rhs_evals, sys.evals);
    // the Jacobian is kept across steps while Newton converges
    assert!(i.jacobian_evals * 10 < i.accepted_steps, "{i:?}");
}

/// ρ∞ outside [0, 1] (or NaN) is an error naming the parameter and the value, from
/// the integrators and from a spec.
#[test]
fn bad_rho_inf_is_an_error_naming_the_parameter() {
    for bad in [-0.1, 1.5, f64::NAN] {
        let mut ga = GeneralizedAlpha::new(1, 1, GeneralizedAlphaParams::fixed(bad, 0.1));
        let e = ga
            .integrate(
                &mut Damped { c: 0.0 },
                0.0,
                &[1.0],
                &[0.0],
                1.0,
                &[],
                &mut (),
            )
            .unwrap_err();
        assert!(matches!(e, Error::InvalidInput(_)), "{e:?}");
        let m = e.to_string();
        assert!(
            m.contains("rho_inf") && m.contains(&format!("{bad}")),
            "{m}"
        );
        let mut go = GeneralizedAlphaOde::new(2, GeneralizedAlphaParams::with_tol(bad, 1e-6, 1e-6));
        let e = go
            .integrate(&mut Oscillator, 0.0, &[1.0, 0.0], 1.0, &[], &mut ())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("rho_inf") && e.contains(&format!("{bad}")),
            "{e}"
        );
        let spec = format!("generalized-alpha:rho={bad}");
        let e = spec.parse::<IntegratorChoice>().unwrap_err().to_string();
        assert!(e.contains("`rho`") && e.contains(&format!("{bad}")), "{e}");
    }
    let mut ga = GeneralizedAlpha::new(1, 1, GeneralizedAlphaParams::fixed(0.5, -0.1));
    let e = ga
        .integrate(
            &mut Damped { c: 0.0 },
            0.0,
            &[1.0],
            &[0.0],
            1.0,
            &[],
            &mut (),
        )
        .unwrap_err()
        .to_string();
    assert!(e.contains("`h`") && e.contains("-0.1"), "{e}");
}

/// `IntegratorChoice::GeneralizedAlpha` builds the first-order form for an ODE and the
/// second-order one for a partitioned system; both run through `drive` exactly as the
/// integrators constructed directly.
#[test]
fn the_choice_builds_both_forms() {
    let choice: IntegratorChoice = "galpha:rho=0.6:rtol=1e-7:atol=1e-8".parse().unwrap();
    let settings = StepperSettings {
        newton: GeneralizedAlphaParams::default().newton,
        ..StepperSettings::default()
    };
    let y0 = Kepler::initial(0.5);
    let mut st = choice.ode_stepper::<Kepler>(4, &settings).unwrap();
    let a = drive(
        &mut *st,
        &mut Kepler::default(),
        0.0,
        &y0,
        6.0,
        &[],
        &mut (),
    )
    .unwrap();
    let p = GeneralizedAlphaParams {
        atol: 1e-8.into(),
        max_steps: settings.max_steps,
        ..GeneralizedAlphaParams::with_tol(0.6, 1e-7, 1e-8)
    };
    let mut go = GeneralizedAlphaOde::new(4, p.clone());
    let b = go
        .integrate(&mut Kepler::default(), 0.0, &y0, 6.0, &[], &mut ())
        .unwrap();
    assert_eq!((a, st.y()), (b, go.y()));
    let mut st = choice
        .partitioned_stepper::<KeplerPartitioned>(2, 2, &settings)
        .unwrap();
    let a = drive(
        &mut *st,
        &mut KeplerPartitioned,
        0.0,
        &y0,
        6.0,
        &[],
        &mut (),
    )
    .unwrap();
    let mut ga = GeneralizedAlpha::new(2, 2, p);
    let b = ga
        .integrate(
            &mut KeplerPartitioned,
            0.0,
            &y0[..2],
            &y0[2..],
            6.0,
            &[],
            &mut (),
        )
        .unwrap();
    assert_eq!((a, st.y()), (b, &[ga.x(), ga.v()].concat()[..]));
    let err = max_err(st.y(), &Kepler::exact(0.5, 6.0));
    assert!(err < 1e-3, "{err}");
}
