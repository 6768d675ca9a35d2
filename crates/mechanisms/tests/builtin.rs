//! Every built-in mechanism: file round trips, a consistent initial state and the
//! mobility figures stated in its registry entry.

mod common;

use mbs_mechanisms::builtin;
use mbs_model::{Layout, State};

#[test]
fn every_builtin_round_trips_through_json_and_toml() {
    for b in builtin() {
        let model = (b.build)().unwrap();
        common::assert_round_trips(b.name, &model);
    }
}

#[test]
fn every_builtin_starts_consistent() {
    for b in builtin() {
        let model = (b.build)().unwrap();
        for layout in [Layout::EulerParamsPdot, Layout::EulerParamsOmega] {
            let (p, v) = common::residuals(&model, layout);
            println!("{:32} {layout:?}: ‖Φ‖∞ = {p:.1e}, ‖Φ̇‖∞ = {v:.1e}", b.name);
        }
        common::assert_consistent(b.name, &model);
    }
}

#[test]
fn every_builtin_has_its_stated_mobility() {
    let mut report = String::new();
    let mut ok = true;
    for b in builtin() {
        let model = (b.build)().unwrap();
        let grubler = model.topology().grubler_mobility();
        let state = State::initial(&model, Layout::EulerParamsOmega);
        let m = mbs_constraints::mobility(&model, &state, 1e-9).unwrap();
        report += &format!(
            "{:32} grübler {:3} (topology {:3})  mobility {:3}  redundant {:2}   expected {:?}\n",
            b.name, m.grubler, grubler, m.mobility, m.redundant, b.mobility
        );
        ok &= grubler == b.mobility.grubler
            && m.grubler == b.mobility.grubler
            && m.mobility == b.mobility.mobility as i64
            && m.redundant == b.mobility.redundant;
    }
    println!("{report}");
    assert!(ok, "mobility figures differ:\n{report}");
}

#[test]
fn paper_figures_of_the_alf_dca_cases() {
    let expect = [("five-bar", -1, 2, 3), ("double-loop", -2, 4, 6)];
    for (name, g, mob, red) in expect {
        let model = (mbs_mechanisms::find(name).unwrap().build)().unwrap();
        let state = State::initial(&model, Layout::EulerParamsOmega);
        let m = mbs_constraints::mobility(&model, &state, 1e-9).unwrap();
        assert_eq!(
            (m.grubler, m.mobility, m.redundant),
            (g, mob, red),
            "{name}"
        );
    }
}

#[test]
fn bowling_ball_has_two_velocity_freedoms() {
    for name in ["bowling-ball", "bowling-ball-offset"] {
        let model = (mbs_mechanisms::find(name).unwrap().build)().unwrap();
        let state = State::initial(&model, Layout::EulerParamsOmega);
        let m = mbs_constraints::mobility(&model, &state, 1e-9).unwrap();
        assert_eq!(m.velocity_dof, 2, "{name}");
        assert_eq!(model.topology().grubler_velocity_mobility(), 2, "{name}");
    }
}

#[test]
fn rolling_disc_has_three_velocity_freedoms() {
    let model = (mbs_mechanisms::find("rolling-disc").unwrap().build)().unwrap();
    let state = State::initial(&model, Layout::EulerParamsOmega);
    let m = mbs_constraints::mobility(&model, &state, 1e-9).unwrap();
    assert_eq!(m.velocity_dof, 3);
    assert_eq!(model.topology().grubler_velocity_mobility(), 3);
}

/// Bad parameters of the rolling disc are errors naming the parameter and the value.
#[test]
fn rolling_disc_rejects_bad_parameters() {
    use mbs_mechanisms::rolling_disc::{DiscMotion, RollingDiscParams, rolling_disc};
    for (motion, needles) in [
        (
            DiscMotion::Circle {
                tilt: 0.0,
                circle_radius: 1.0,
            },
            ["tilt", "got 0"],
        ),
        (
            DiscMotion::Circle {
                tilt: 0.3,
                circle_radius: -1.0,
            },
            ["circle_radius", "got -1"],
        ),
        (DiscMotion::Straight { speed: f64::NAN }, ["speed", "NaN"]),
    ] {
        let p = RollingDiscParams {
            motion,
            ..RollingDiscParams::default()
        };
        let msg = rolling_disc(&p).unwrap_err().to_string();
        for n in needles.iter().chain(&["rolling-disc"]) {
            assert!(msg.contains(n), "{msg:?} lacks {n:?}");
        }
    }
}

/// The consistency check is not vacuous: a wrong initial velocity or pose is caught.
#[test]
fn inconsistent_initial_states_are_detected() {
    let model = (mbs_mechanisms::find("two-four-bars").unwrap().build)().unwrap();
    let mut parts = model.to_parts();
    parts.bodies[0].initial.velocity.x += 1e-6;
    let bad = mbs_model::Model::from_parts(parts).unwrap();
    let (_, v) = common::residuals(&bad, Layout::EulerParamsPdot);
    assert!(v > 1e-7, "‖Φ̇‖ = {v:e}");
    let mut parts = model.to_parts();
    parts.bodies[1].initial.position.y += 1e-6;
    let bad = mbs_model::Model::from_parts(parts).unwrap();
    let (p, _) = common::residuals(&bad, Layout::EulerParamsOmega);
    assert!(p > 1e-7, "‖Φ‖ = {p:e}");
}

/// HDCA sec 3.1: "the mechanisms should preserve the symmetry of the motion": the
/// chosen initial geometries are mirror-symmetric about x = l/2 (bodies and masses).
#[test]
fn hdca_cases_are_mirror_symmetric() {
    for name in ["hdca-case1", "hdca-case2", "hdca-case3"] {
        let model = (mbs_mechanisms::find(name).unwrap().build)().unwrap();
        let pts: Vec<_> = model.bodies().iter().map(|b| b.initial.position).collect();
        for p in &pts {
            let mirror = nalgebra::Vector3::new(1.0 - p.x, p.y, p.z);
            assert!(
                pts.iter().any(|q| (q - mirror).norm() < 1e-12),
                "{name}: no mirror image of {p:?}"
            );
        }
    }
}
