//! Built-in mechanisms against independent published values: the IVP test set's
//! reference solution of Andrew's squeezing mechanism (at t = 0.03 and its initial
//! accelerations), the exact period and amplitude of Bayo & Ledesma's Cartesian
//! pendulum, the ten singular passes of their two four-bar linkages (with pass times
//! from a quadrature), and the symmetric motions that the HDCA paper and Chiou's
//! thesis state (and that the symmetric layouts of the ALF-DCA five-bar and of our
//! vehicle imply). Which mechanisms have no such value is said in each module of
//! `mbs-mechanisms`.

use mbs::{IntegratorChoice, Method, Simulation, Trajectory};

#[path = "common/elliptic.rs"]
mod elliptic;
use elliptic::elliptic_k;
#[path = "common/andrews.rs"]
mod andrews;
use andrews::{ANGLES_AT_T_003, NAMES, final_angles};

/// Andrew's squeezing mechanism: the reference solution at t = 0.03 of the IVP test
/// set (Mazzia, Magherini et al., *Test Set for IVP Solvers*, problem `andrews`;
/// Hairer & Wanner, *Solving Ordinary Differential Equations II*, sec VII.7), computed
/// there at tight tolerance from Hairer & Wanner's 7-coordinate index-3
/// formulation, which our absolute-coordinate model does not share.
///
/// Hairer & Wanner's coordinates from the body angles: β = φ₁, Θ = φ₂ − φ₁, γ = φ₃,
/// Φ = φ₄ − φ₅, δ = φ₅, Ω = φ₆ − φ₇, ε = φ₇.
///
/// Method: the QR natural complement (Pękal & Frączek) at RK45 rtol = atol = 1e-10,
/// the fastest accurate one here (2 s; `lagrange-projection` gives the same angles to
/// 1e-9 rad in 15 s). Tolerance 1e-8 · max(|value|, 1) rad: the largest measured
/// difference is 2.1e-9 rad (β, Θ, which grow to ±15.8 rad: the crank turns 2.5
/// times), about the integrator's global error; the bound (1.6e-7 rad for β) leaves a
/// factor 50 for other platforms and is far below what a data error does (the former wrong centre of
/// mass of body 7, ua = 0.01562, ub = 0.02709, gave β(0.03) = 14.905 instead of
/// 15.811).
///
/// The same bound holds for `alf-joint` (ALF in the tree's joint coordinates, the
/// 7 angles of Hairer & Wanner's own formulation up to the tree's choice of
/// relative angles) with DOP853 at 1e-10.
#[test]
fn andrews_squeezer_matches_the_ivp_test_set_at_t_003() {
    for (method, integrator) in [
        (
            "complement-qr",
            IntegratorChoice::Rk45 {
                rtol: 1e-10,
                atol: 1e-10,
            },
        ),
        (
            "alf-joint",
            IntegratorChoice::Dop853 {
                rtol: 1e-10,
                atol: 1e-10,
            },
        ),
    ] {
        let traj = Simulation::builtin("andrews-squeezer")
            .unwrap()
            .method(method.parse::<Method>().unwrap())
            .integrator(integrator)
            .t_end(0.03)
            .samples(300)
            .run()
            .unwrap();
        assert!(traj.failure.is_none(), "{method}: {:?}", traj.failure);
        let ours = final_angles(&traj);
        let names = NAMES;
        for ((name, ours), reference) in names.iter().zip(ours).zip(ANGLES_AT_T_003) {
            eprintln!("{method}: {name}(0.03): ours {ours:.12e}, reference {reference:.12e}");
        }
        for ((name, ours), reference) in names.iter().zip(ours).zip(ANGLES_AT_T_003) {
            assert!(
                (ours - reference).abs() < 1e-8 * reference.abs().max(1.0),
                "{method}: {name}(0.03): ours {ours}, reference {reference}, difference {}",
                ours - reference
            );
        }
    }
}

/// Andrew's squeezing mechanism at t = 0: the IVP test set's consistent initial
/// accelerations (problem `andrews`, the initial values of Hairer & Wanner's
/// formulation), β̈ = 14222.4439199541138705911625887, Θ̈ = −10666.8329399655854029433719415
/// and zero for the other five angles, against the Lagrange accelerations of our
/// absolute-coordinate model (least-squares KKT solve, which tolerates the 9
/// redundant constraints). At rest, a body turning about z with Euler parameters
/// p = (cos φ/2, 0, 0, sin φ/2) has φ̈ = 2 (p₀ p̈₃ − p₃ p̈₀).
///
/// This checks the mass matrix and the applied forces of the model at one state
/// without any integration (bodies 3–7 do not accelerate at t = 0, so it cannot see
/// their centres of mass: the t = 0.03 test does). Tolerance 1e-9 relative to |β̈|
/// (1.4e-5 rad/s²): measured 3.6e-7 rad/s² (2.6e-11 relative), the KKT solve's
/// round-off with masses of 1e-3…1e-1 kg and lengths of 1e-2 m.
#[test]
fn andrews_squeezer_initial_accelerations_match_the_ivp_test_set() {
    use std::sync::Arc;

    use mbs::alf::{Formulation, Index1, MechanismDescriptor, Projection};
    #[allow(clippy::excessive_precision)]
    const REFERENCE: [f64; 7] = [
        14222.4439199541138705911625887,
        -10666.8329399655854029433719415,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
    ];
    let sim = Simulation::builtin("andrews-squeezer").unwrap();
    let s0 = sim.initial();
    let model = Arc::new(sim.model().clone());
    let mut sys = Index1::new(
        MechanismDescriptor::new(model.clone()),
        Formulation::Lagrange {
            baumgarte: None,
            min_norm: true,
        },
        Projection::None,
    );
    let mut qdd = nalgebra::DVector::zeros(s0.q.len());
    sys.accelerations(0.0, s0.q.as_slice(), s0.v.as_slice(), &mut qdd)
        .unwrap();
    let phi_ddot = |name: &str| {
        let i = model.body_by_name(name).unwrap().index();
        let (p, pdd) = (s0.euler_params(i), qdd.fixed_rows::<4>(7 * i + 3));
        2.0 * (p[0] * pdd[3] - p[3] * pdd[0])
    };
    let a: Vec<f64> = (1..=7).map(|k| phi_ddot(&format!("body{k}"))).collect();
    let ours = [
        a[0],
        a[1] - a[0],
        a[2],
        a[3] - a[4],
        a[4],
        a[5] - a[6],
        a[6],
    ];
    let scale = REFERENCE[0].abs();
    let worst = ours
        .iter()
        .zip(REFERENCE)
        .map(|(o, r)| (o - r).abs())
        .fold(0.0, f64::max);
    assert!(
        worst < 1e-9 * scale,
        "accelerations {ours:?} vs {REFERENCE:?}: largest difference {worst}"
    );
    eprintln!("initial accelerations: largest difference {worst:.2e} rad/s²");
}

/// Times at which `f` (sampled with its derivative `fd` at the times `t`) changes
/// sign, each located on the cubic Hermite interpolant of its interval by bisection
/// (error O(Δt⁴)).
fn sign_changes(t: &[f64], f: &[f64], fd: &[f64]) -> Vec<f64> {
    let mut out = Vec::new();
    for k in 1..t.len() {
        if f[k - 1] == 0.0 || f[k - 1].signum() == f[k].signum() {
            continue;
        }
        let h = t[k] - t[k - 1];
        let hermite = |s: f64| {
            let (s2, s3) = (s * s, s * s * s);
            (2.0 * s3 - 3.0 * s2 + 1.0) * f[k - 1]
                + (s3 - 2.0 * s2 + s) * h * fd[k - 1]
                + (-2.0 * s3 + 3.0 * s2) * f[k]
                + (s3 - s2) * h * fd[k]
        };
        let (mut lo, mut hi) = (0.0, 1.0);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if hermite(mid).signum() == f[k - 1].signum() {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        out.push(t[k - 1] + 0.5 * (lo + hi) * h);
    }
    out
}

/// Bayo & Ledesma's second example (the Cartesian pendulum of Brenan, Campbell &
/// Petzold): unit mass and length, g = 1, from x = 1, y = 0 with ẋ = 0, ẏ = −1. Energy
/// ½v² + g y = ½ gives the turning height y = ½ (amplitude 120° from the downward
/// vertical) and the exact period T = 4 K(sin 60°) √(L/g) = 8.626062590 (the
/// elliptic-integral period of the pendulum, independent of any simulation).
///
/// Tolerance: passes of the lowest point located to O(Δt⁴) on samples 0.01 apart and
/// RK45 at 1e-11 give the period to about 1e-9 (measured in the message); 1e-7
/// relative is asserted. The turning height is the largest sampled y, within
/// ½ ÿ Δt² ≈ 1e-5 of the true maximum; 1e-4 is asserted.
#[test]
fn cartesian_pendulum_has_the_elliptic_integral_period_and_amplitude() {
    let traj = Simulation::builtin("cartesian-pendulum")
        .unwrap()
        .method("lagrange-projection".parse().unwrap())
        .integrator(IntegratorChoice::Rk45 {
            rtol: 1e-11,
            atol: 1e-11,
        })
        .t_end(20.0)
        .samples(2000)
        .run()
        .unwrap();
    assert!(traj.failure.is_none(), "{:?}", traj.failure);
    let bob = traj.body_index("bob").unwrap();
    let x: Vec<f64> = (0..traj.len()).map(|k| traj.position(k, bob).x).collect();
    let xd: Vec<f64> = (0..traj.len()).map(|k| traj.velocity(k, bob).x).collect();
    // x changes sign at the lowest point (and never at the top: y ≤ ½ < 1)
    let passes = sign_changes(&traj.t, &x, &xd);
    assert!(passes.len() >= 4, "{passes:?}");
    let period_exact = 4.0 * elliptic_k(3f64.sqrt() / 2.0);
    for w in passes.windows(3) {
        let period = w[2] - w[0];
        assert!(
            (period - period_exact).abs() < 1e-7 * period_exact,
            "period {period} vs {period_exact}: difference {}",
            period - period_exact
        );
    }
    let y_max = (0..traj.len())
        .map(|k| traj.position(k, bob).y)
        .fold(f64::NEG_INFINITY, f64::max);
    assert!((y_max - 0.5).abs() < 1e-4, "highest point y = {y_max}");
    assert!(traj.max_phi() < 1e-8, "‖Φ‖ = {}", traj.max_phi());
}

/// Bayo & Ledesma's third example (two four-bar linkages, ℓ = 1 m, m = 1 kg uniform,
/// g = 8.81 m/s² as printed, ẋ₁(0) = 1): "during the simulation [10 s] the mechanism
/// goes through the singular position (|x₁| = 1) 10 times". The motion is the
/// parallelogram motion of one crank angle θ (from the upward vertical), with
/// 3/2 θ̇² + 7/2 g cos θ = 3/2 + 7/2 g (energy, m = ℓ = 1), so the time of the k-th
/// horizontal pass is a quadrature, computed here independently of the simulation
/// (Simpson's rule): t = ∫ dθ / √(1 + 7g/3 (1 − cos θ)) from 0 to π/2 + (k − 1)π.
///
/// The passes are the sign changes of the height of crank 1's centre of mass (located
/// to O(Δt⁴) between samples); their count is the paper's, their times are checked
/// against the quadrature to a tolerance set by the integrator's step (below).
#[test]
fn two_four_bars_pass_the_singular_position_ten_times_in_ten_seconds() {
    let g = 8.81;
    let rate = |th: f64| 1.0 / (1.0 + 7.0 * g / 3.0 * (1.0 - th.cos())).sqrt();
    let simpson = |a: f64, b: f64| {
        let n = 20_000;
        let h = (b - a) / n as f64;
        let inner: f64 = (1..n)
            .map(|i| if i % 2 == 1 { 4.0 } else { 2.0 } * rate(a + i as f64 * h))
            .sum();
        (rate(a) + inner + rate(b)) * h / 3.0
    };
    let pi = std::f64::consts::PI;
    let expected: Vec<f64> = (0..12)
        .map(|k| simpson(0.0, pi / 2.0 + k as f64 * pi))
        .filter(|&t| t <= 10.0)
        .collect();
    assert_eq!(expected.len(), 10, "{expected:?}");

    // The paper's integration (ALF-INDEX3, α = 1e7, trapezoidal rule h = 0.025) and a
    // ten times finer step: the trapezoidal rule is second order, the measured pass
    // times are off by at most 0.07 s at h = 0.025 and 2e-5 s at h = 0.001.
    for (h, tol) in [(0.025, 0.1), (0.0025, 5e-4)] {
        let traj = Simulation::builtin("two-four-bars")
            .unwrap()
            .method("alf-index3".parse().unwrap())
            .integrator(IntegratorChoice::Trapezoidal { h })
            .t_end(10.0)
            .samples(1000)
            .run()
            .map_err(|e| e.to_string())
            .unwrap();
        assert!(traj.failure.is_none(), "{:?}", traj.failure);
        let crank = traj.body_index("crank1").unwrap();
        let y: Vec<f64> = (0..traj.len()).map(|k| traj.position(k, crank).y).collect();
        let yd: Vec<f64> = (0..traj.len()).map(|k| traj.velocity(k, crank).y).collect();
        let passes = sign_changes(&traj.t, &y, &yd);
        assert_eq!(passes.len(), 10, "h = {h}: {passes:?}");
        let worst = passes
            .iter()
            .zip(&expected)
            .map(|(ours, exact)| (ours - exact).abs())
            .fold(0.0, f64::max);
        eprintln!("h = {h}: largest error of the pass times {worst:.2e} s");
        assert!(
            worst < tol,
            "h = {h}: passes {passes:?}, quadrature {expected:?}"
        );
    }
}

/// Largest violation, over every sample, of the mirror symmetry about the plane whose
/// normal is the global axis `axis` (0 = x, 1 = y) at coordinate `c`: each pair of
/// bodies (a, b) must be mirror images — r_b is r_a with its `axis` component c + (c −
/// r_a), and ω_b (a pseudo-vector) is ω_a with its other two components negated.
fn mirror_asymmetry(traj: &Trajectory, axis: usize, c: f64, pairs: &[(&str, &str)]) -> f64 {
    let mut worst = 0.0_f64;
    for (a, b) in pairs {
        let (i, j) = (traj.body_index(a).unwrap(), traj.body_index(b).unwrap());
        for k in 0..traj.len() {
            let (ri, rj) = (traj.position(k, i), traj.position(k, j));
            let (wi, wj) = (traj.omega(k, i), traj.omega(k, j));
            for d in 0..3 {
                let (dr, dw) = if d == axis {
                    (ri[d] + rj[d] - 2.0 * c, wi[d] - wj[d])
                } else {
                    (ri[d] - rj[d], wi[d] + wj[d])
                };
                worst = worst.max(dr.abs()).max(dw.abs());
            }
        }
    }
    worst
}

/// Runs `name` for `t_end` s from its built-in initial state and returns its largest
/// mirror asymmetry.
fn asymmetry_of(name: &str, t_end: f64, axis: usize, c: f64, pairs: &[(&str, &str)]) -> f64 {
    let traj = run_precise(name, t_end);
    // the motion is not trivial: the bodies moved by centimetres at least
    let moved = (0..traj.n_bodies())
        .map(|i| (traj.position(traj.len() - 1, i) - traj.position(0, i)).norm())
        .fold(0.0, f64::max);
    assert!(moved > 1e-2, "{name}: largest displacement {moved}");
    let a = mirror_asymmetry(&traj, axis, c, pairs);
    eprintln!("{name}: mirror asymmetry {a:.2e} over {t_end} s, largest displacement {moved:.3}");
    a
}

/// `name` from its built-in initial state to `t_end`, 200 samples, with the QR natural
/// complement at RK45 rtol = atol = 1e-10.
fn run_precise(name: &str, t_end: f64) -> Trajectory {
    let traj = Simulation::builtin(name)
        .unwrap()
        .method("complement-qr".parse().unwrap())
        .integrator(IntegratorChoice::Rk45 {
            rtol: 1e-10,
            atol: 1e-10,
        })
        .t_end(t_end)
        .samples(200)
        .run()
        .unwrap();
    assert!(traj.failure.is_none(), "{name}: {:?}", traj.failure);
    traj
}

/// The HDCA paper's three test cases (Chadaj, Malczyk & Frączek 2017, sec 3.1): "the
/// mechanisms should preserve the symmetry of the motion during the entire
/// simulation". Our geometries are mirror-symmetric about x = l/2 (the paper's Fig 4
/// did not survive; see `mbs_mechanisms::hdca`), released from rest under gravity;
/// the same holds for the ALF-DCA five-bar (Malczyk & Frączek 2012, sec 4.2), the
/// regular pentagon hanging from its ground side, about x = a/2.
///
/// Tolerance 1e-7 (m, rad/s) over 2 s: the symmetric initial state is exact to
/// round-off, RK45 at 1e-10 keeps the mirror images to its own error level (measured
/// in the messages); a wrong centre of mass, inertia or joint position on one side
/// breaks the symmetry at order one.
#[test]
fn symmetric_mechanisms_move_symmetrically() {
    let four: &[(&str, &str)] = &[("body1", "body4"), ("body2", "body3")];
    let eight: &[(&str, &str)] = &[
        ("body1", "body8"),
        ("body2", "body7"),
        ("body3", "body6"),
        ("body4", "body5"),
    ];
    let double: &[(&str, &str)] = &[
        ("body1", "body5"),
        ("body2", "body4"),
        ("body3", "body3"),
        ("body6", "body8"),
        ("body7", "body7"),
    ];
    let cases = [
        ("five-bar", 0.1, four),
        ("hdca-case1", 0.5, four),
        ("hdca-case2", 0.5, eight),
        ("hdca-case3", 0.5, double),
    ];
    for (name, x_m, pairs) in cases {
        let a = asymmetry_of(name, 2.0, 0, x_m, pairs);
        assert!(a < 1e-7, "{name}: mirror asymmetry {a}");
    }
}

/// Chiou (1990), sec 7.5, the closed four-bar with spherical joints: equal vertical
/// forces on bars 1 and 4 and a symmetric geometry give a motion symmetric between
/// bars 1 and 4 (and 2 and 3), as the thesis reports. Our layout (a choice, see
/// `mbs_mechanisms::chiou::spatial_four_bar`) is symmetric about the plane x = √3/2 m.
/// Tolerance as in [`symmetric_mechanisms_move_symmetrically`].
#[test]
fn spatial_four_bar_moves_symmetrically() {
    let pairs = [("bar1", "bar4"), ("bar2", "bar3")];
    let a = asymmetry_of("spatial-four-bar", 2.0, 0, 3f64.sqrt() / 2.0, &pairs);
    assert!(a < 1e-7, "spatial-four-bar: mirror asymmetry {a}");
}

/// The vehicle of Chiou (1990), sec 7.7, dropped from 1 m: the thesis' data are lost
/// and there is no published value. Two checks of our builder: the layout
/// (`mbs_mechanisms::vehicle`) is mirror-symmetric about y = 0, so the left and right
/// sides must stay mirror images through the free fall, the tire impacts and the
/// rebound, with the chassis in its plane of symmetry; and the vehicle lands on its
/// tires — no wheel centre ever sinks below the ground (a tire is compressed by less
/// than its radius r = 0.3 m) nor the chassis' centre of mass (measured: 0.148 m and
/// 0.055 m; before the tires pushed vertically, the wheels slid off their contact
/// points and the vehicle fell 9 m through the ground in 1.5 s).
#[test]
fn vehicle_lands_on_its_tires_and_keeps_left_and_right_mirror_images() {
    let pairs = [
        ("chassis", "chassis"),
        ("front-upper-arm-left", "front-upper-arm-right"),
        ("front-lower-arm-left", "front-lower-arm-right"),
        ("front-spindle-left", "front-spindle-right"),
        ("rear-arm-left", "rear-arm-right"),
    ];
    let traj = run_precise("vehicle", 2.0);
    let a = mirror_asymmetry(&traj, 1, 0.0, &pairs);
    eprintln!("vehicle: mirror asymmetry {a:.2e} over 2 s");
    assert!(a < 1e-7, "vehicle: mirror asymmetry {a}");
    let spindle = traj.body_index("front-spindle-left").unwrap();
    let chassis = traj.body_index("chassis").unwrap();
    let lowest = (0..traj.len())
        .map(|k| traj.position(k, spindle).z)
        .fold(f64::INFINITY, f64::min);
    let lowest_chassis = (0..traj.len())
        .map(|k| traj.position(k, chassis).z)
        .fold(f64::INFINITY, f64::min);
    eprintln!(
        "vehicle: lowest front wheel centre {lowest:.3} m, lowest chassis {lowest_chassis:.3} m"
    );
    assert!(
        lowest > 0.0 && lowest_chassis > 0.0,
        "the vehicle went through the ground: wheel centre {lowest} m, chassis {lowest_chassis} m"
    );
    // it did fall and land: the tires were compressed
    assert!(lowest < 0.3, "never touched the ground: {lowest}");
}
