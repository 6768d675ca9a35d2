//! Point masses (`point_mass = true`, a mass without inertia): their nominal inertia
//! does not change the motion, every formulation agrees, the pendulum's period is the
//! exact elliptic-integral one, their rotation stays at rest, and `mbs check` counts
//! three degrees of freedom for each.

use mbs::{IntegratorChoice, Method, Model, Simulation, Trajectory};
use mbs_model::{BodyRef, JointKind, ModelBuilder};
use nalgebra::{Matrix3, Vector3};

#[path = "common/elliptic.rs"]
mod elliptic;
use elliptic::elliptic_k;

const G: f64 = 9.81;

/// A point mass of 2 kg on a massless rod of length `l` (a distance joint) from the
/// ground origin, at angle `theta0` from the downward vertical in the x–y plane, with
/// velocity `vz` normal to that plane (0: a simple pendulum; otherwise spherical).
fn pendulum(l: f64, theta0: f64, vz: f64) -> Model {
    let mut b = ModelBuilder::new("point-mass pendulum");
    b.gravity(Vector3::new(0.0, -G, 0.0));
    let bob = b.point_mass("bob", 2.0);
    let r = Vector3::new(l * theta0.sin(), -l * theta0.cos(), 0.0);
    b.set_initial_pose(bob, r, mbs_kinematics::euler_params::identity());
    b.set_initial_velocity(bob, Vector3::new(0.0, 0.0, vz), Vector3::zeros());
    let o = b.marker_at_global("o", BodyRef::Ground, Vector3::zeros(), Vector3::z(), None);
    let p = b.marker_at_global("p", BodyRef::Body(bob), r, Vector3::z(), None);
    b.joint("rod", JointKind::Distance { length: l }, o, p);
    b.build().unwrap()
}

/// `model` with the point mass's nominal inertia replaced by `inertia`.
fn with_inertia(model: &Model, inertia: Matrix3<f64>) -> Model {
    let mut parts = model.to_parts();
    parts.bodies[0].inertia = inertia;
    Model::from_parts(parts).unwrap()
}

fn run(model: Model, method: &str, tol: f64, t_end: f64, samples: usize) -> Trajectory {
    let method: Method = method.parse().unwrap();
    let traj = Simulation::new(model)
        .method(method.clone())
        .integrator(IntegratorChoice::Rk45 {
            rtol: tol,
            atol: tol,
        })
        .t_end(t_end)
        .samples(samples)
        .run()
        .unwrap_or_else(|e| panic!("{method}: {e}"));
    assert!(traj.failure.is_none(), "{method}: {:?}", traj.failure);
    traj
}

/// Largest |ω| of the point mass over a trajectory.
fn max_omega(traj: &Trajectory) -> f64 {
    (0..traj.len())
        .map(|k| traj.omega(k, 0).norm())
        .fold(0.0, f64::max)
}

/// A spherical pendulum (60° from the vertical, 1.5 m/s across): the same motion to
/// 1e-7 m for three nominal inertias (isotropic m·1 m², small and anisotropic, large
/// and anisotropic) and six formulations, against `lagrange-projection` with the
/// default nominal inertia; the point mass never turns (|ω| < 1e-9).
#[test]
fn nominal_inertia_and_formulation_do_not_change_the_motion() {
    let model = pendulum(1.0, 60f64.to_radians(), 1.5);
    let (t_end, samples, tol) = (2.0, 40, 1e-11);
    let reference = run(model.clone(), "lagrange-projection", tol, t_end, samples);
    let inertias = [
        model.bodies()[0].inertia,
        Matrix3::from_diagonal(&Vector3::new(1e-3, 2e-3, 2.5e-3)),
        Matrix3::from_diagonal(&Vector3::new(30.0, 40.0, 50.0)),
    ];
    let methods = [
        "lagrange",
        "lagrange-projection",
        "alf",
        "alf-index1",
        "alf-dca-proj",
        "complement-qr",
    ];
    let mut worst = 0.0_f64;
    for j in inertias {
        for m in methods {
            let traj = run(with_inertia(&model, j), m, tol, t_end, samples);
            assert_eq!(traj.len(), reference.len());
            for k in 0..traj.len() {
                let d = (traj.position(k, 0) - reference.position(k, 0)).norm();
                worst = worst.max(d);
                assert!(d < 1e-7, "{m}, J = {j:?}: t = {}: |Δr| = {d:e}", traj.t[k]);
            }
            let w = max_omega(&traj);
            assert!(w < 1e-9, "{m}, J = {j:?}: |ω| = {w:e}");
        }
    }
    // the motion is spherical, not planar: the bob leaves the x–y plane
    let z_max = (0..reference.len())
        .map(|k| reference.position(k, 0).z.abs())
        .fold(0.0, f64::max);
    assert!(z_max > 0.3, "z_max = {z_max}");
    eprintln!("largest difference from the reference: {worst:.2e} m");
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

/// A point-mass simple pendulum released from rest at 150° from the downward
/// vertical has the exact period T = 4 √(L/g) K(sin 75°) (K by the
/// arithmetic–geometric mean, independent of any simulation). The bottom passes
/// (sign changes of x, located to O(Δt⁴) on samples 5 ms apart) give T to 1e-7
/// relative with RK45 at 1e-11, for two formulations; the point mass never turns.
#[test]
fn large_amplitude_point_mass_pendulum_has_the_elliptic_integral_period() {
    let (l, theta0) = (0.8, 150f64.to_radians());
    let exact = 4.0 * (l / G).sqrt() * elliptic_k((0.5 * theta0).sin());
    for method in ["lagrange-projection", "alf-index1"] {
        let traj = run(pendulum(l, theta0, 0.0), method, 1e-11, 3.2 * exact, 1600);
        let x: Vec<f64> = (0..traj.len()).map(|k| traj.position(k, 0).x).collect();
        let xd: Vec<f64> = (0..traj.len()).map(|k| traj.velocity(k, 0).x).collect();
        let passes = sign_changes(&traj.t, &x, &xd);
        assert!(passes.len() >= 5, "{method}: {passes:?}");
        let worst = passes
            .windows(3)
            .map(|w| ((w[2] - w[0] - exact) / exact).abs())
            .fold(0.0, f64::max);
        eprintln!(
            "{method}: period vs exact {exact:.9} s: largest relative difference {worst:.1e}"
        );
        for w in passes.windows(3) {
            let period = w[2] - w[0];
            assert!(
                (period - exact).abs() < 1e-7 * exact,
                "{method}: period {period} vs exact {exact}: relative difference {:e}",
                (period - exact) / exact
            );
        }
        let w = max_omega(&traj);
        assert!(w < 1e-9, "{method}: |ω| = {w:e}");
    }
}

/// `mbs check` counts 3 degrees of freedom per point mass: the spherical pendulum
/// (one distance row) has mobility 2, not 5.
#[test]
fn check_counts_three_degrees_of_freedom_per_point_mass() {
    let r = mbs::check(&pendulum(1.0, 0.5, 0.0));
    assert_eq!(r.point_masses, 1);
    assert_eq!(r.grubler_mobility, 2);
    assert_eq!(r.rank_mobility, Some(2));
    let text = r.to_string();
    assert!(
        text.contains("1 point masses") || text.contains("(1 point mass"),
        "{text}"
    );
    assert!(text.contains("point mass"), "{text}");
}
