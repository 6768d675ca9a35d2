//! Suite `chiou`: Chiou (1990) — penalty stabilization, two-stage staggered
//! integration and natural partitioning on the thesis' examples (ch. 7).

use mbs::IntegratorChoice::{self, CentralDifference, Rk45, Staggered, Trapezoidal};
use mbs::Sampling;
use mbs::plot::{LineChart, Series};

use crate::findings::{CHIOU as PAPER, Finding, Verdict};
use crate::report::{Suite, Table};
use crate::runner::{Ctx, Run, fixed, planar_angles, sci, summary_json};

/// Chiou's penalty method with the thesis' own ε = 1e-6 (secs 7.2–7.7; the facade's
/// default ε is relative to the step and the masses, `mbs::EpsilonScale`).
pub const THESIS_PENALTY: &str = "penalty:epsilon=1e-6";

pub fn run(ctx: &mut Ctx) -> Suite {
    let mut s = Suite::new(
        "chiou",
        "Chiou 1990 — penalty stabilization, staggered integration, natural partitioning",
    );
    let mut data = serde_json::Map::new();

    // 7.2 crank-slider
    let mut t = Table::new(
        "chiou_crank_slider",
        "Sec 7.2 — crank-slider: constraint errors over one cycle (t_end = 2 s)",
        &[
            "method",
            "integrator",
            "paper",
            "max ‖Φ‖",
            "max ‖Φ̇‖",
            "wall time",
        ],
    );
    let rk = Rk45 {
        rtol: 1e-6,
        atol: 1e-6,
    };
    for (method, integ, paper) in [
        (THESIS_PENALTY, rk, "smaller than Baumgarte's"),
        ("lagrange-baumgarte", rk, "larger than penalty's"),
        (
            THESIS_PENALTY,
            Staggered { h: 0.02 },
            "close to the implicit partitioning run",
        ),
        (
            // h = 0.02 (the thesis' step) stalls the trapezoidal Newton iteration at
            // t ≈ 1.36 s, when the torque-driven crank is fast; the reference uses 0.01
            "coordinate-partitioning:stab=nr",
            Trapezoidal { h: 0.01 },
            "reference (implicit coordinate partitioning; h = 0.01, see note)",
        ),
    ] {
        let r = ctx.run("crank-slider", method, integ, 2.0, Sampling::Every(0.01));
        t.row(vec![
            method.into(),
            integ.to_string(),
            paper.into(),
            r.cell(|x| sci(x.max_phi())),
            r.cell(|x| sci(x.max_phi_dot())),
            r.cell(|x| ctx.wall(x)),
        ]);
        data.insert(format!("crank-slider/{method}/{integ}"), summary_json(&r));
    }
    t.note(
        "The implicit coordinate-partitioning reference runs at h = 0.01: at the thesis' \
         h = 0.02 the trapezoidal Newton iteration stops converging at t ≈ 1.36 s, once the \
         constant crank torque has spun the crank up (measured for QR, SVD and coordinate \
         partitioning alike).",
    );
    s.tables.push(t);

    penalty_vs_baumgarte(ctx, &mut s, &mut data);

    // 7.3 three-link manipulator: Newton iterations per step
    let mut t = Table::new(
        "chiou_three_link",
        "Sec 7.3 — three-link manipulator deployment: Newton iterations per step (trapezoidal h = 0.01, 2 s)",
        &[
            "method",
            "paper: Newton iterations / step",
            "ours: Newton iterations / step",
            "ours: outcome",
        ],
    );
    for (method, paper) in [
        (THESIS_PENALTY, "≈ 4.5"),
        (
            "lagrange-baumgarte",
            "≈ 22, fails at snap-through t ≈ 1.1 s",
        ),
    ] {
        let r = ctx.run(
            "three-link-manipulator",
            method,
            Trapezoidal { h: 0.01 },
            2.0,
            Sampling::Every(0.01),
        );
        let per = |x: &mbs::Trajectory| {
            fixed(
                x.stats.newton_iterations as f64 / x.stats.accepted_steps.max(1) as f64,
                2,
            )
        };
        let outcome = match &r {
            crate::runner::Run::Failed(m, p) => format!(
                "failed at t = {}: {m}",
                fixed(*p.t.last().unwrap_or(&0.0), 3)
            ),
            other => other.cell(|_| "completed".into()),
        };
        let per_cell = match &r {
            crate::runner::Run::Failed(_, p) => per(p),
            other => other.cell(per),
        };
        let iters = match &r {
            Run::Failed(_, p) => Some(p),
            other => other.traj(),
        }
        .map(|x| x.stats.newton_iterations as f64 / x.stats.accepted_steps.max(1) as f64);
        let failed = matches!(r, Run::Failed(..));
        let f = if method == THESIS_PENALTY {
            Finding::new(
                PAPER,
                "Sec 7.3 (Fig 7.3.3), penalty",
                "≈ 4.5 Newton iterations per step",
                "3 to 6 iterations per step, run completes",
            )
            .judge(
                format!("{per_cell}; {outcome}"),
                iters.map(|i| (3.0..=6.0).contains(&i) && !failed),
                Verdict::Differs,
                "the iteration count or outcome lies outside the criterion (numbers beside)",
            )
        } else {
            Finding::new(
                PAPER,
                "Sec 7.3 (Fig 7.3.3), Baumgarte",
                "≈ 22 Newton iterations per step; fails at the snap-through (t ≈ 1.1 s)",
                "fails, or needs more than 10 iterations per step",
            )
            .judge(
                format!("{per_cell}; {outcome}"),
                iters.map(|i| failed || i > 10.0),
                Verdict::NotReproduced,
                "Baumgarte completes the deployment with few Newton iterations per step",
            )
        };
        s.finding(f);
        t.row(vec![method.into(), paper.into(), per_cell, outcome]);
        data.insert(format!("three-link/{method}"), summary_json(&r));
    }
    s.tables.push(t);

    // 7.4 bowling ball: stability of the integrators
    bowling_ball(ctx, &mut s, &mut data);

    // secs 5.5, 7.5, 7.6: staggered vs plain central difference
    super::chiou_staggered::staggered_vs_central_difference(ctx, &mut s, &mut data);

    // 7.5 spatial four-bar: symmetry; 7.6 space crane; 7.7 vehicle
    let mut t = Table::new(
        "chiou_spatial",
        "Secs 7.5–7.7 — spatial four-bar (8 s), space crane (180 s), vehicle (dropped from 1 m)",
        &[
            "mechanism",
            "method",
            "paper",
            "ours: result",
            "max ‖Φ‖",
            "wall time",
        ],
    );
    let crane_end = ctx.pick(180.0, 20.0);
    let cases: [(&str, &str, IntegratorChoice, f64, &str); 5] = [
        (
            "spatial-four-bar",
            THESIS_PENALTY,
            rk,
            8.0,
            "bars 1 and 4 move symmetrically",
        ),
        (
            "space-crane",
            THESIS_PENALTY,
            rk,
            crane_end,
            "joint velocities and torques (plots)",
        ),
        (
            "vehicle",
            THESIS_PENALTY,
            rk,
            ctx.pick(5.0, 1.0),
            "speed-up with threads vs natural partitioning",
        ),
        (
            "vehicle",
            "natural-partitioning",
            rk,
            ctx.pick(5.0, 1.0),
            "natural partitioning (wall time vs penalty)",
        ),
        (
            "vehicle",
            "natural-partitioning",
            IntegratorChoice::Staggered { h: 1e-3 },
            ctx.pick(5.0, 1.0),
            "natural partitioning, two-stage staggered (procedure 5.5.7)",
        ),
    ];
    for (mech, method, integ, t_end, paper) in cases {
        let r = ctx.run(mech, method, integ, t_end, Sampling::Every(t_end / 400.0));
        let result = r.cell(|x| {
            if mech == "spatial-four-bar" && x.n_bodies() >= 4 {
                let d = (0..x.len())
                    .map(|k| (x.omega(k, 0).norm() - x.omega(k, x.n_bodies() - 1).norm()).abs())
                    .fold(0.0, f64::max);
                format!("max ||ω₁| − |ω₄|| = {}", sci(d))
            } else {
                "completed".into()
            }
        });
        t.row(vec![
            mech.into(),
            method.into(),
            paper.into(),
            result,
            r.cell(|x| sci(x.max_phi())),
            r.cell(|x| ctx.wall(x)),
        ]);
        data.insert(format!("{mech}/{method}"), summary_json(&r));
    }
    if ctx.quick {
        t.note(format!(
            "quick mode: space crane {crane_end} s, vehicle 1 s."
        ));
    }
    s.tables.push(t);
    missing(&mut s);
    s.data = serde_json::Value::Object(data);
    s.settle_status();
    s
}

/// Figures of the thesis this suite does not produce, and why.
fn missing(s: &mut Suite) {
    for (item, claim, why) in [
        (
            "Fig 7.2.2",
            "histories of the crank-slider's generalized coordinates",
            "the crank-slider rows report constraint norms; the coordinate histories are in results.json, not plotted",
        ),
        (
            "Figs 7.2.5–7.2.8",
            "position and velocity errors: staggered below Haug–Yen's implicit partitioning",
            "compared by constraint violation only (table above): the thesis' error is against an exact solution we have not computed",
        ),
        (
            "Figs 7.4.3–7.4.6, 7.4.8",
            "bowling ball (holonomic and nonholonomic) trajectories and contact forces",
            "only the stability comparison of Fig 7.4.7 is run",
        ),
        (
            "Figs 7.5.3–7.5.4",
            "spatial four-bar angular velocities",
            "reduced to the symmetry measure max ||ω₁| − |ω₄|| in the table",
        ),
        (
            "Figs 7.6.8–7.6.9",
            "space crane joint velocities and torques",
            "the crane run reports completion and ‖Φ‖ only",
        ),
        (
            "Figs 7.7.3–7.7.11",
            "vehicle motion, run time and speed-up of penalty vs natural partitioning on 1–2 threads",
            "the vehicle rows give one wall time per method; the thread speed-up is measured on generated chains (suite scaling), not on the vehicle",
        ),
        (
            "Ch. 6",
            "PCG with diagonal vs scaled preconditioners",
            "no preconditioner comparison is run",
        ),
    ] {
        s.finding(Finding::missing(PAPER, item, claim, why));
    }
}

/// Fig 7.2.4 in the thesis' set-up: trapezoidal h = 0.01, penalty ε = 1e-6 against
/// Baumgarte with α = β from 70 to 275 (Fig 7.2.3: h down to 0.0025), one cycle.
fn penalty_vs_baumgarte(
    ctx: &mut Ctx,
    s: &mut Suite,
    data: &mut serde_json::Map<String, serde_json::Value>,
) {
    let t_end = 0.82;
    let mut t = Table::new(
        "chiou_penalty_baumgarte",
        "Sec 7.2 (Figs 7.2.3–7.2.4) — crank-slider in the thesis' set-up: trapezoidal rule, one cycle (0.82 s)",
        &[
            "method",
            "h",
            "paper",
            "max ‖Φ‖",
            "max ‖Φ̇‖",
            "max |θ − θ_penalty| [rad]",
            "wall time",
        ],
    );
    let runs = [
        (
            THESIS_PENALTY.to_string(),
            0.01,
            "constraint error ≈ 2 digits below Baumgarte's",
        ),
        (
            "lagrange-baumgarte:alpha_hat=70:beta_hat=70".into(),
            0.01,
            "α = β = 70",
        ),
        (
            "lagrange-baumgarte:alpha_hat=275:beta_hat=275".into(),
            0.0025,
            "α = β = 275, h = 0.0025: same solution as penalty",
        ),
        (THESIS_PENALTY.to_string(), 0.0025, "—"),
    ];
    let mut res: Vec<Run> = Vec::new();
    for (method, h, _) in &runs {
        res.push(ctx.run(
            "crank-slider",
            method,
            Trapezoidal { h: *h },
            t_end,
            Sampling::Every(0.01),
        ));
    }
    let theta = |r: &Run| r.traj().map(|x| planar_angles(x, 0));
    let dev = |a: &Run, b: &Run| -> Option<f64> {
        let (a, b) = (theta(a)?, theta(b)?);
        Some(
            a.iter()
                .zip(&b)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0, f64::max),
        )
    };
    for (k, ((method, h, paper), r)) in runs.iter().zip(&res).enumerate() {
        let reference = if *h < 0.01 { &res[3] } else { &res[0] };
        t.row(vec![
            method.clone(),
            format!("{h}"),
            paper.to_string(),
            r.cell(|x| sci(x.max_phi())),
            r.cell(|x| sci(x.max_phi_dot())),
            if k % 3 == 0 {
                "—".into()
            } else {
                dev(r, reference).map_or("n/a".into(), sci)
            },
            r.cell(|x| ctx.wall(x)),
        ]);
        data.insert(
            format!("crank-slider/thesis/{method}/h={h}"),
            summary_json(r),
        );
    }
    t.note("θ: crank angle; the α = β = 275 run is compared with the penalty run at the same h = 0.0025.");
    s.tables.push(t);
    let phi = |r: &Run| r.traj().map(|x| x.max_phi());
    let ratio = phi(&res[1]).zip(phi(&res[0])).map(|(b, p)| b / p);
    s.finding(
        Finding::new(
            PAPER,
            "Fig 7.2.4",
            "penalty's constraint error stays about two digits below Baumgarte's over one cycle",
            "max ‖Φ‖ Baumgarte (α = β = 70) / penalty ≥ 30, trapezoidal h = 0.01",
        )
        .judge(
            format!("ratio {}", ratio.map_or("n/a".into(), |r| fixed(r, 2))),
            ratio.map(|r| r >= 30.0),
            Verdict::NotReproduced,
            format!(
                "max ‖Φ‖: penalty {}, Baumgarte {}",
                phi(&res[0]).map_or("n/a".into(), sci),
                phi(&res[1]).map_or("n/a".into(), sci)
            ),
        ),
    );
    let d = dev(&res[2], &res[3]);
    s.finding(
        Finding::new(
            PAPER,
            "Fig 7.2.3",
            "with α = β = 275 and h = 0.0025 Baumgarte and penalty give the same solution",
            "max |θ_Baumgarte − θ_penalty| < 1e-2 rad over the cycle",
        )
        .judge(
            format!("max |Δθ| = {}", d.map_or("n/a".into(), sci)),
            d.map(|d| d < 1e-2),
            Verdict::Differs,
            "the crank angles separate by more than 0.01 rad",
        ),
    );
}

/// Sec 7.4, Fig 7.4.7: two-stage staggered (h = 0.15, 0.2) vs plain central difference
/// with the lagged velocity (h = 0.2), in the thesis' geometric-centre formulation
/// (the fixture `crates/alf/tests/common/bowling_ball.rs`, always 40 s: it is cheap) and in the centroidal
/// `penalty` model.
fn bowling_ball(
    ctx: &mut Ctx,
    s: &mut Suite,
    data: &mut serde_json::Map<String, serde_json::Value>,
) {
    use crate::bowling_ball::{BowlingBallData, Scheme, simulate_sampled};

    const T_END: f64 = 40.0;
    const LIMIT: f64 = 1e3;
    let mut t = Table::new(
        "chiou_bowling_ball",
        "Sec 7.4 — bowling ball (offset r₀ = 0.15 cm) on y = sin x, ε = 1e-6: stability of the integrators",
        &[
            "formulation",
            "integrator",
            "paper",
            "ours",
            "max ‖ω‖ [rad/s]",
            "max ‖Φ‖",
            "max ‖ω − ω_ref‖ [rad/s]",
            "‖ω − ω_ref‖ > 0.1 from t [s]",
        ],
    );
    let mut chart = LineChart::new(
        "Sec 7.4 (Fig 7.4.7) — bowling ball with offset, geometric-centre form: ω₂",
        "t [s]",
        "ω₂ [rad/s]",
    );
    let ts: Vec<f64> = (0..=400).map(|k| k as f64 * 0.1).collect();
    let d = BowlingBallData::with_offset();
    let started = std::time::Instant::now();
    let (_, reference) = simulate_sampled(d, Scheme::Staggered, 1e-3, T_END, LIMIT, &ts);
    chart = chart.with(Series::new(
        "converged (staggered h = 0.001)",
        reference.iter().map(|x| x.0).collect(),
        reference.iter().map(|x| x.1[1]).collect(),
    ));
    for (scheme, h, paper) in [
        (Scheme::Staggered, 0.15, "stable and accurate for h ≤ 0.15"),
        (
            Scheme::Staggered,
            0.2,
            "traces the converged solution over 40 s",
        ),
        (Scheme::CentralDifference, 0.2, "diverges after t ≈ 4 s"),
    ] {
        let (r, samples) = simulate_sampled(d, scheme, h, T_END, LIMIT, &ts);
        let (mut dev, mut first) = (0.0f64, None);
        for ((tk, w), (_, wr)) in samples.iter().zip(&reference) {
            let e = (0..3).map(|i| (w[i] - wr[i]).powi(2)).sum::<f64>().sqrt();
            dev = dev.max(e);
            if first.is_none() && e > 0.1 {
                first = Some(*tk);
            }
        }
        let integ = match scheme {
            Scheme::Staggered => format!("staggered h = {h}"),
            Scheme::CentralDifference => format!("central difference h = {h} (ωⁿ ≈ ω^(n−½))"),
        };
        let outcome = match r.diverged_at {
            Some(td) => format!("diverged (|ω| > {LIMIT}) at t ≈ {}", fixed(td, 2)),
            None => format!("bounded over {T_END} s"),
        };
        let (claim, crit, ok) = match scheme {
            Scheme::Staggered => (
                format!("staggered, h = {h}: {paper}"),
                "bounded over 40 s and within 0.1 rad/s of the converged ω",
                r.diverged_at.is_none() && dev < 0.1,
            ),
            Scheme::CentralDifference => (
                format!("central difference, h = {h}: {paper}"),
                "|ω| exceeds 1e3 rad/s within 40 s",
                r.diverged_at.is_some(),
            ),
        };
        s.finding(Finding::new(PAPER, "Fig 7.4.7", claim, crit).judge(
            format!("{outcome}; max ‖ω − ω_ref‖ = {}", fixed(dev, 3)),
            Some(ok),
            Verdict::NotReproduced,
            "see the note under the bowling-ball table (the penalty reaction reflects the velocity M-orthogonally, so the lagged scheme stays bounded)",
        ));
        t.row(vec![
            "geometric centre (eqs 7.4.1–7.4.7)".into(),
            integ.clone(),
            paper.into(),
            outcome,
            fixed(r.max_omega, 3),
            sci(r.max_phi),
            fixed(dev, 3),
            first.map_or("never".into(), |x| fixed(x, 1)),
        ]);
        chart = chart.with(Series::new(
            integ.clone(),
            samples.iter().map(|x| x.0).collect(),
            samples.iter().map(|x| x.1[1]).collect(),
        ));
        data.insert(
            format!("bowling-ball-offset/geometric/{integ}"),
            serde_json::json!({
                "h": h,
                "t_end": T_END,
                "diverged_at": r.diverged_at,
                "max_omega": r.max_omega,
                "max_phi": r.max_phi,
                "max_slip": r.max_slip,
                "max_omega_error": dev,
                "omega_error_above_0_1_from": first,
            }),
        );
    }
    data.insert(
        "bowling-ball-offset/geometric/wall_s".into(),
        serde_json::json!(started.elapsed().as_secs_f64()),
    );

    // the centroidal model of mbs-constraints through the `penalty` front-end
    let t_end = ctx.pick(40.0, 10.0);
    for (integ, paper) in [
        (Staggered { h: 0.15 }, "stable (h ≤ 0.15)"),
        (CentralDifference { h: 0.2 }, "diverges after t ≈ 4 s"),
    ] {
        let r = ctx.run(
            "bowling-ball-offset",
            THESIS_PENALTY,
            integ,
            t_end,
            Sampling::Every(0.05f64.max(integ.step().unwrap_or(0.05))),
        );
        let outcome = match &r {
            crate::runner::Run::Failed(_, p) => {
                format!("diverged at t ≈ {}", fixed(*p.t.last().unwrap_or(&0.0), 2))
            }
            // bounded coordinates but a constraint violation that left 1e-2
            other => other.cell(|x| match x.phi_norm.iter().position(|v| *v > 1e-2) {
                Some(k) => format!("diverges: ‖Φ‖ > 1e-2 from t ≈ {}", fixed(x.t[k], 2)),
                None => format!("bounded over {t_end} s"),
            }),
        };
        let max_omega = |x: &mbs::Trajectory| {
            let w = ["wx", "wy", "wz"].map(|c| x.coordinate(0, c));
            let mut m = 0.0f64;
            if let [Some(a), Some(b), Some(c)] = &w {
                for k in 0..a.len() {
                    m = m.max((a[k] * a[k] + b[k] * b[k] + c[k] * c[k]).sqrt());
                }
            }
            fixed(m, 3)
        };
        t.row(vec![
            "centroidal (mbs-constraints, `penalty`)".into(),
            integ.to_string(),
            paper.into(),
            outcome,
            r.cell(max_omega),
            r.cell(|x| sci(x.max_phi())),
            "—".into(),
            "—".into(),
        ]);
        data.insert(
            format!("bowling-ball-offset/centroidal/{integ}"),
            summary_json(&r),
        );
    }
    t.note(
        "The thesis' blow-up of plain central difference at h = 0.2 is not reproduced, in \
         either formulation: it stays bounded at every h tried (up to 4 s in the \
         geometric-centre form, 1.6 s in the centroidal one). In the \
         geometric-centre form it leaves the converged solution (first order: \
         ‖ω − ω_ref‖ > 0.1 rad/s from t ≈ 11 s, up to ≈ 0.8 rad/s) while the staggered run \
         at the same h stays within ≈ 0.07 rad/s — Fig 7.4.7's \"diverge\" only in that \
         sense. Reason: solved from the lagged velocity over ϱ = h/2, the penalty \
         constraint reaction reflects the velocity M-orthogonally (kinetic energy \
         preserved), and the lagged velocity-dependent forces are weak (ω × Jω = 0 for \
         the sphere; −m ω × (ω × ρ) has weight m r₀ ≈ 0.011 kg m vs J ≈ 0.035 kg m²), \
         unlike the torque-free top's gyroscopic term. Reference ω_ref: staggered \
         h = 0.001. Chosen data: m = 71.32/9.81 kg, g = 9.81 m/s², metres, \
         J = 2/5 m a² about the geometric centre.",
    );
    if ctx.quick {
        t.note(format!(
            "quick mode: the centroidal rows run {t_end} s (the geometric-centre rows always 40 s)."
        ));
    }
    s.tables.push(t);
    ctx.plot(s, "chiou_bowling_ball_omega", chart);
}
