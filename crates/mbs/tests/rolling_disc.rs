//! The rolling disc (`rolling_disc` joint, built-in `rolling-disc`) against the
//! classical steady motions of a uniform thin disc rolling without slip on a horizontal
//! plane (Routh, *Advanced Rigid Dynamics*, art. 244; McDonald & McDonald 2000, *The
//! rolling motion of a disk on a horizontal plane*, arXiv:physics/0008227, sec 2.2).
//!
//! # Steady circular motion (derivation)
//! Mass m, radius r, I₁ = m r²/4 (diameter), I₃ = m r²/2 (axis), gravity −g e_z. The
//! disc plane is tilted by β from the vertical, leaning towards the centre O of the
//! horizontal circle of radius R₀ on which the centre G moves; everything is constant
//! in the frame turning about e_z at the precession rate Ω. With e₂ the horizontal unit
//! vector from O to G, the disc axis is z_d = cos β e₂ + sin β e_z, the unit vector from
//! G to the contact point C is u = sin β e₂ − cos β e_z (so G is at height r cos β), and
//! ω = Ω e_z + s z_d; t̂ = e_z × e₂ is the direction of motion of G.
//! 1. No slip: v_G = −ω × (r u). Since e_z × u = sin β t̂ and z_d × u = t̂,
//!    v_G = −r (Ω sin β + s) t̂; with v_G = Ω R₀ t̂ (G on the circle) the axial rate is
//!    ω₃ = ω·z_d = Ω sin β + s = −Ω R₀/r.
//! 2. Newton: a_G = −Ω² R₀ e₂, so the contact force is F = m g e_z − m Ω² R₀ e₂.
//! 3. Euler about G: ω − ω₃ z_d = Ω (e_z − sin β z_d) = −Ω cos β u, so
//!    H_G = −I₁ Ω cos β u + I₃ ω₃ z_d, constant in the turning frame:
//!    Ḣ_G = Ω e_z × H_G = Ω cos β (I₃ ω₃ − I₁ Ω sin β) t̂ (e_z × z_d = cos β t̂); the
//!    moment of F about G is r u × F = m r (Ω² R₀ cos β − g sin β) t̂. Equating them
//!    with ω₃ from step 1: Ω² cos β (I₁ sin β + (I₃ + m r²) R₀/r) = m g r sin β, i.e.
//!
//!    **Ω² = 4 g tan β / (6 R₀ + r sin β)**, s = −Ω (R₀ + r sin β)/r.
//!
//! The case r = 0.1 m, β = 0.3 rad, R₀ = 1 m, g = 9.81 m/s² (the built-in) gives
//! Ω = 1.4189 rad/s, period 2π/Ω = 4.428 s. Started exactly on it (positions and rates
//! from the formula, nothing fitted), the simulated disc must keep its height r cos β,
//! its centre's distance R₀ from O, and turn at Ω (the period 2π/Ω), to a tolerance
//! tied to the integrator's (RK45 at rtol = atol = 1e-10; the bounds are 1e3 × that,
//! the errors accumulate over ~3 periods and a few thousand steps).
//!
//! # Straight rolling and energy
//! The upright disc (β = 0) rolling at speed v keeps a straight line at constant speed;
//! the no-slip contact force does no work, so a disc started off its steady motion
//! (wobbling, turning) keeps its total energy.

use mbs::mechanisms::rolling_disc::{DiscMotion, RollingDiscParams, rolling_disc};
use mbs::model::Model;
use mbs::{Error, IntegratorChoice, Simulation};
use nalgebra::Vector3;

const RTOL: f64 = 1e-10;
/// Error bound of the accurate runs: 1e3 × the integrator tolerance.
const TOL: f64 = 1e3 * RTOL;

fn accurate(model: Model, t_end: f64, samples: usize) -> mbs::Trajectory {
    Simulation::new(model)
        .method("lagrange".parse().unwrap())
        .integrator(IntegratorChoice::Rk45 {
            rtol: RTOL,
            atol: RTOL,
        })
        .t_end(t_end)
        .samples(samples)
        .run()
        .unwrap()
}

/// Ω of the steady circle, written out independently of the mechanism builder.
fn precession(g: f64, r: f64, beta: f64, r0: f64) -> f64 {
    (4.0 * g * beta.tan() / (6.0 * r0 + r * beta.sin())).sqrt()
}

#[test]
fn steady_circle_keeps_height_radius_and_period() {
    let p = RollingDiscParams::default();
    let (g, r) = (p.gravity, p.radius);
    let DiscMotion::Circle {
        tilt: beta,
        circle_radius: r0,
    } = p.motion
    else {
        panic!("the built-in is the steady circle")
    };
    let omega = precession(g, r, beta, r0);
    let steady = p.steady_motion().unwrap();
    assert!((steady.precession - omega).abs() < 1e-14 * omega);
    let period = std::f64::consts::TAU / omega;
    let turns = 3.0;
    let traj = accurate(rolling_disc(&p).unwrap(), turns * period, 600);

    let (mut dh, mut dr, mut dphase) = (0.0f64, 0.0f64, 0.0f64);
    let mut phase = 0.0f64;
    let mut prev = 0.0f64;
    let mut t_turns = None;
    for k in 0..traj.len() {
        let c = traj.position(k, 0);
        dh = dh.max((c.z - r * beta.cos()).abs());
        dr = dr.max((c.x.hypot(c.y) - r0).abs());
        // unwrapped angle of the centre about O
        let a = c.y.atan2(c.x);
        let step = (a - prev + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU)
            - std::f64::consts::PI;
        let before = phase;
        phase += step;
        prev = a;
        dphase = dphase.max((phase - omega * traj.t[k]).abs());
        // time of the `turns`-th full turn, interpolated between samples
        let target = turns * std::f64::consts::TAU;
        if k > 0 && t_turns.is_none() && before < target - 1e-9 && phase >= target - 1e-9 {
            let f = (target - before) / (phase - before);
            t_turns = Some(traj.t[k - 1] + f * (traj.t[k] - traj.t[k - 1]));
        }
    }
    let measured = t_turns.expect("three turns completed") / turns;
    let e0 = traj.total_energy[0];
    let de = traj
        .total_energy
        .iter()
        .fold(0.0f64, |m, e| m.max((e - e0).abs()));
    println!(
        "steady circle: Ω = {omega:.6} rad/s, period {period:.6} s, measured {measured:.9} s; \
         max |Δheight| {dh:.2e} m, max |Δradius| {dr:.2e} m, max |Δphase| {dphase:.2e} rad, \
         max |ΔE| {de:.2e} J, max ‖Φ‖ {:.2e}, {} steps",
        traj.max_phi(),
        traj.stats.accepted_steps
    );
    assert!(dh < TOL * r, "height drifts by {dh:e} m");
    assert!(dr < TOL * r0, "radius drifts by {dr:e} m");
    assert!(
        dphase < TOL * turns * std::f64::consts::TAU,
        "phase error {dphase:e} rad"
    );
    assert!(
        (measured - period).abs() < TOL * period,
        "period {measured} s vs 2π/Ω = {period} s"
    );
    assert!(de < TOL * e0.abs().max(1.0), "energy changes by {de:e} J");
}

#[test]
fn upright_disc_rolls_straight_at_constant_speed() {
    let speed = 1.0;
    let p = RollingDiscParams {
        motion: DiscMotion::Straight { speed },
        ..RollingDiscParams::default()
    };
    let r = p.radius;
    let traj = accurate(rolling_disc(&p).unwrap(), 5.0, 100);
    let (mut lateral, mut dz, mut dv, mut along) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for k in 0..traj.len() {
        let c = traj.position(k, 0);
        let v = traj.velocity(k, 0);
        lateral = lateral.max(c.x.abs());
        dz = dz.max((c.z - r).abs());
        dv = dv.max((v - Vector3::new(0.0, speed, 0.0)).norm());
        along = along.max((c.y - speed * traj.t[k]).abs());
    }
    let e0 = traj.total_energy[0];
    let de = traj
        .total_energy
        .iter()
        .fold(0.0f64, |m, e| m.max((e - e0).abs()));
    println!(
        "straight: max |x| {lateral:.2e} m, max |Δz| {dz:.2e} m, max |Δv| {dv:.2e} m/s, \
         max |y − v t| {along:.2e} m, max |ΔE| {de:.2e} J"
    );
    assert!(lateral < TOL && dz < TOL && dv < TOL && along < TOL);
    assert!(de < TOL * e0);
}

/// Off its steady motion (an extra angular velocity, the centre velocity set by rolling
/// about the contact point so the state is consistent) the disc wobbles and turns; the
/// no-slip contact force is workless, so the total energy stays put.
#[test]
fn wobbling_disc_conserves_energy() {
    let model = rolling_disc(&RollingDiscParams::default()).unwrap();
    let mut parts = model.to_parts();
    let init = &mut parts.bodies[0].initial;
    let beta = 0.3f64;
    let contact = init.position + 0.1 * Vector3::new(beta.sin(), 0.0, -beta.cos());
    init.omega += Vector3::new(0.8, -0.5, 0.3);
    init.velocity = init.omega.cross(&(init.position - contact));
    let model = Model::from_parts(parts).unwrap();
    let traj = accurate(model, 5.0, 500);
    let e0 = traj.total_energy[0];
    let de = traj
        .total_energy
        .iter()
        .fold(0.0f64, |m, e| m.max((e - e0).abs()));
    // the motion is not the steady one: the centre height (r cos β) changes
    let heights: Vec<f64> = (0..traj.len()).map(|k| traj.position(k, 0).z).collect();
    let spread = heights.iter().cloned().fold(f64::MIN, f64::max)
        - heights.iter().cloned().fold(f64::MAX, f64::min);
    println!(
        "wobbling: height spread {spread:.3e} m, max |ΔE| {de:.2e} J of {e0:.4} J, \
         max ‖Φ‖ {:.2e}, max ‖Φ̇‖ {:.2e}",
        traj.max_phi(),
        traj.max_phi_dot()
    );
    assert!(
        spread > 5e-4,
        "the perturbed disc should wobble (spread {spread:e} m)"
    );
    assert!(de < TOL * e0.abs(), "energy changes by {de:e} J");
    assert!(traj.max_phi() < TOL && traj.max_phi_dot() < TOL);
}

/// Every method that runs the rolling sphere runs the rolling disc and follows the
/// steady circle for 1 s (the centre within 1e-4 m of the exact G(t); the coarsest
/// runs, penalty with the staggered scheme at h = 1e-4, are off by ~5e-6 m); HDCA
/// and ABA (joint coordinates) refuse it, naming the joint and the kind; `planar` refuses
/// it for its gravity along z.
#[test]
fn methods_follow_the_steady_circle_or_refuse_naming_the_joint() {
    let p = RollingDiscParams::default();
    let model = rolling_disc(&p).unwrap();
    let steady = p.steady_motion().unwrap();
    let t_end = 1.0;
    let (omega, r0) = (steady.precession, steady.circle_radius);
    let exact = Vector3::new(
        r0 * (omega * t_end).cos(),
        r0 * (omega * t_end).sin(),
        p.radius * steady.tilt.cos(),
    );
    let mut report = String::new();
    let mut worst = 0.0f64;
    for (name, _) in mbs::method_names() {
        let method: mbs::Method = name.parse().unwrap();
        // each method with an integrator it is meant for: ALF-INDEX3 has its own
        // implicit rule, the penalty formulation (ε = 1e-6, stiff for RK45) Chiou's
        // staggered scheme
        let integrator = match name {
            "alf-index3" => IntegratorChoice::Trapezoidal { h: 1e-3 },
            "penalty" | "penalty-pcg" => IntegratorChoice::Staggered { h: 1e-4 },
            _ => IntegratorChoice::Rk45 {
                rtol: 1e-8,
                atol: 1e-8,
            },
        };
        let run = Simulation::new(model.clone())
            .method(method)
            .integrator(integrator)
            .t_end(t_end)
            .samples(10)
            .run();
        match run {
            Ok(traj) => {
                assert!(traj.failure.is_none(), "{name}: {:?}", traj.failure);
                let err = (traj.position(traj.len() - 1, 0) - exact).norm();
                report += &format!("{name:28} |ΔG(1 s)| = {err:.2e} m\n");
                worst = worst.max(err);
                assert!(
                    err < 1e-4,
                    "{name}: centre off the steady circle by {err:e} m"
                );
            }
            Err(e) => {
                let msg = e.to_string();
                report += &format!("{name:28} refused: {msg}\n");
                if name == "planar" {
                    // a disc rolling on the x–y plane under g along z is not planar
                    assert!(
                        msg.contains("gravity") && msg.contains("not planar"),
                        "{msg}"
                    );
                    assert!(matches!(e, Error::Unsupported { .. }), "{e:?}");
                    continue;
                }
                assert!(
                    name == "hdca" || name == "aba" || name == "alf-joint",
                    "{name} should run the rolling disc: {msg}"
                );
                assert!(
                    msg.contains("rolling") && msg.contains("rolling_disc"),
                    "{msg}"
                );
                assert!(matches!(e, Error::Unsupported { .. }), "{e:?}");
            }
        }
    }
    println!("{report}worst {worst:.2e} m");
}

/// `examples/models/rolling_disc.toml` is the built-in `rolling-disc`.
#[test]
fn example_file_is_the_builtin() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/models/rolling_disc.toml"
    );
    let file = Model::load(path).unwrap();
    let builtin = rolling_disc(&RollingDiscParams::default()).unwrap();
    assert_eq!(file, builtin);
}

/// Released from rest tilted, the disc falls; when it lies flat the contact point is
/// undefined and the run stops with an error naming the joint and ‖zᵢ × zⱼ‖ (not NaN).
#[test]
fn a_falling_disc_stops_with_an_error_naming_the_joint() {
    let model = rolling_disc(&RollingDiscParams::default()).unwrap();
    let mut parts = model.to_parts();
    parts.bodies[0].initial.velocity = Vector3::zeros();
    parts.bodies[0].initial.omega = Vector3::zeros();
    let model = Model::from_parts(parts).unwrap();
    let err = Simulation::new(model)
        .method("lagrange".parse().unwrap())
        .integrator(IntegratorChoice::Rk45 {
            rtol: 1e-8,
            atol: 1e-8,
        })
        .t_end(2.0)
        .run()
        .unwrap_err();
    let msg = err.to_string();
    println!("{msg}");
    assert!(matches!(err, Error::SimulationFailed(_)), "{err:?}");
    assert!(
        msg.contains("joint `rolling`") && msg.contains("flat") && msg.contains("‖zᵢ × zⱼ‖ = "),
        "{msg}"
    );
}
