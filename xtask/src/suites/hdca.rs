//! Suite `hdca`: Chadaj, Malczyk & Frączek (2017) — accuracy (Figs 5–9) and
//! efficiency (Figs 10–11, Tables 1–2) of HDCA against the acceleration-based DCA.

use mbs::IntegratorChoice;
use mbs::Sampling;
use mbs::plot::{LineChart, Series};

use crate::findings::{CHADAJ_ET_AL as PAPER, Finding, Verdict};
use crate::report::{NOT_IMPLEMENTED, Suite, Table};
use crate::runner::{Ctx, Run, duration, fixed, marker_track, sci, summary_json};

/// Max over time of |a − b| at common samples (same sampling grid).
fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

const CASES: [&str; 3] = ["hdca-case1", "hdca-case2", "hdca-case3"];
/// The paper's comparator: the acceleration-based DCA without stabilization.
const DCA: &str = "alf-dca:mu=0:omega=0";
/// A better comparator also shown: ALF-DCA with the stabilization μ = Ω = 1.
const DCA_STAB: &str = "alf-dca";
const HDCA: &str = "hdca";

pub fn run(ctx: &mut Ctx) -> Suite {
    let mut s = Suite::new(
        "hdca",
        "Chadaj, Malczyk & Frączek 2017 — Hamiltonian divide and conquer",
    );
    let t_end = ctx.pick(10.0, 2.0);
    // accuracy at RK45 1e-6
    let mut acc = Table::new(
        "hdca_accuracy",
        &format!("Accuracy (Figs 5, 8, 9) — RK45 rtol = atol = 1e-6, {t_end} s"),
        &[
            "case",
            "method",
            "paper",
            "max |E − E₀| [J]",
            "max ‖Φ̇‖",
            "max ‖Φ‖",
        ],
    );
    let mut data = serde_json::Map::new();
    // per case: (HDCA, paper DCA, stabilized DCA) of energy, ‖Φ̇‖, ‖Φ‖, and |Δy_K|
    let mut acc_m: Vec<(&str, [Option<[f64; 3]>; 3], Option<f64>)> = Vec::new();
    for case in CASES {
        let mut runs = Vec::new();
        for (method, paper) in [
            (
                HDCA,
                "energy and ‖Φ̇‖ kept within numerical accuracy; ‖Φ‖ drift negligible",
            ),
            (DCA, "‖Φ‖ diverges quadratically in time (the paper's DCA)"),
            (
                DCA_STAB,
                "— (stabilized ALF-DCA, μ = Ω = 1: a better comparator, not in the paper)",
            ),
        ] {
            let r = ctx.run(
                case,
                method,
                IntegratorChoice::Rk45 {
                    rtol: 1e-6,
                    atol: 1e-6,
                },
                t_end,
                Sampling::Every(0.01),
            );
            acc.row(vec![
                case.into(),
                method.into(),
                paper.into(),
                r.cell(|t| sci(t.energy_drift())),
                r.cell(|t| sci(t.max_phi_dot())),
                r.cell(|t| sci(t.max_phi())),
            ]);
            data.insert(format!("accuracy/{case}/{method}"), summary_json(&r));
            runs.push((method, r));
        }
        let m = |k: usize| {
            runs[k]
                .1
                .traj()
                .map(|t| [t.energy_drift(), t.max_phi_dot(), t.max_phi()])
        };
        let case_model = ctx.model(case).ok();
        let yk = |k: usize| {
            let (p, _) = marker_track(case_model.as_ref()?, runs[k].1.traj()?, "K")?;
            Some(p.iter().map(|x| x.y).collect::<Vec<f64>>())
        };
        let dy = yk(0).zip(yk(1)).map(|(a, b)| max_diff(&a, &b));
        acc_m.push((case, [m(0), m(1), m(2)], dy));
        let mut energy = LineChart::new(
            format!("Fig 5 — {case}: total-energy error"),
            "t [s]",
            "E − E₀ [J]",
        );
        let mut pk = LineChart::new(
            format!("Figs 6–7 — {case}: point K"),
            "t [s]",
            "y_K [m], dy_K/dt [m/s]",
        );
        let model = ctx.model(case).ok();
        for (method, r) in &runs {
            if let Some(t) = r.traj() {
                energy = energy.with(Series::new(*method, t.t.clone(), t.energy_error()));
                if let Some((p, v)) = model.as_ref().and_then(|m| marker_track(m, t, "K")) {
                    pk = pk
                        .with(
                            Series::new(
                                format!("y_K {method}"),
                                t.t.clone(),
                                p.iter().map(|x| x.y).collect(),
                            )
                            .grouped(*method, "y_K"),
                        )
                        .with(
                            Series::new(
                                format!("dy_K/dt {method}"),
                                t.t.clone(),
                                v.iter().map(|x| x.y).collect(),
                            )
                            .grouped(*method, "dy_K/dt"),
                        );
                }
            }
        }
        ctx.plot(
            &mut s,
            &format!("hdca_{}_energy", case.replace('-', "_")),
            energy,
        );
        ctx.plot(
            &mut s,
            &format!("hdca_{}_point_k", case.replace('-', "_")),
            pk,
        );
    }
    s.tables.push(acc);
    accuracy_findings(&mut s, &acc_m);

    // efficiency: integrators × tolerances
    let tols: Vec<f64> = if ctx.quick {
        vec![1e-3, 1e-6, 1e-9]
    } else {
        (3..=9).map(|k| 10f64.powi(-k)).collect()
    };
    let integrators: [(&str, fn(f64) -> IntegratorChoice); 3] = [
        ("rk45", |d| IntegratorChoice::Rk45 { rtol: d, atol: d }),
        ("adams", |d| IntegratorChoice::Adams { rtol: d, atol: d }),
        ("rk23", |d| IntegratorChoice::Rk23 { rtol: d, atol: d }),
    ];
    let mut cols = vec![
        "case".to_string(),
        "integrator".to_string(),
        "comparator".to_string(),
        "ratio".to_string(),
    ];
    cols.extend(tols.iter().map(|d| format!("δ = {d:.0e}")));
    let cols_ref: Vec<&str> = cols.iter().map(String::as_str).collect();
    let eff_t_end = ctx.pick(10.0, 1.0);
    let mut ratio = Table::new(
        "hdca_ratios",
        &format!(
            "Figs 10–11 — wall-time and RHS-evaluation ratios DCA / HDCA, {eff_t_end} s runs (paper: plots only)"
        ),
        &cols_ref,
    );
    let mut t1 = Table::new(
        "hdca_table1",
        "Table 1 — mean time per RHS evaluation (the paper's values are not legible in our copy)",
        &[
            "case",
            "integrator",
            "δ",
            "HDCA",
            "DCA (paper's)",
            "DCA μ = Ω = 1",
        ],
    );
    let mut t2 = Table::new(
        "hdca_table2",
        &format!(
            "Table 2 — total wall time of a {eff_t_end} s simulation (the paper's values are not legible in our copy)"
        ),
        &[
            "case",
            "integrator",
            "δ",
            "HDCA",
            "DCA (paper's)",
            "DCA μ = Ω = 1",
        ],
    );
    // ratios DCA/HDCA (paper's comparator) per integrator: (case, wall, rhs)
    let mut eff: Vec<(&str, &str, f64, f64, f64)> = Vec::new();
    // per case and integrator: per-RHS time and total wall time (HDCA, DCA) at each δ
    let mut per_rhs: Vec<(&str, &str, f64, [f64; 2], [f64; 2])> = Vec::new();
    for case in CASES {
        for (iname, make) in integrators {
            let mut rows: Vec<[Vec<String>; 2]> = Vec::new();
            for cmp in [DCA, DCA_STAB] {
                let head = |what: &str| {
                    vec![
                        case.to_string(),
                        iname.to_string(),
                        cmp.to_string(),
                        what.to_string(),
                    ]
                };
                rows.push([head("wall time"), head("RHS evaluations")]);
            }
            for &d in &tols {
                let h = ctx.run(case, HDCA, make(d), eff_t_end, Sampling::Intervals(10));
                let a = ctx.run(case, DCA, make(d), eff_t_end, Sampling::Intervals(10));
                let b = ctx.run(case, DCA_STAB, make(d), eff_t_end, Sampling::Intervals(10));
                for (k, c) in [&a, &b].into_iter().enumerate() {
                    let (cw, cr) = match (h.traj(), c.traj()) {
                        (Some(h), Some(c)) => {
                            let w = c.wall_time / h.wall_time;
                            let r = c.stats.rhs_evals as f64 / h.stats.rhs_evals as f64;
                            if k == 0 {
                                eff.push((case, iname, d, w, r));
                            }
                            (fixed(w, 2), fixed(r, 2))
                        }
                        _ if h.is_not_implemented() || c.is_not_implemented() => {
                            (NOT_IMPLEMENTED.into(), NOT_IMPLEMENTED.into())
                        }
                        _ => ("failed".into(), "failed".into()),
                    };
                    rows[k][0].push(cw);
                    rows[k][1].push(cr);
                }
                let rhs_time = |r: &Run| {
                    r.traj()
                        .map_or(f64::NAN, |t| t.wall_time / t.stats.rhs_evals.max(1) as f64)
                };
                let wall = |r: &Run| r.traj().map_or(f64::NAN, |t| t.wall_time);
                per_rhs.push((
                    case,
                    iname,
                    d,
                    [rhs_time(&h), rhs_time(&a)],
                    [wall(&h), wall(&a)],
                ));
                let us = |r: &Run| r.cell(|_| duration(rhs_time(r)));
                t1.row(vec![
                    case.into(),
                    iname.into(),
                    format!("{d:.0e}"),
                    us(&h),
                    us(&a),
                    us(&b),
                ]);
                t2.row(vec![
                    case.into(),
                    iname.into(),
                    format!("{d:.0e}"),
                    h.cell(|t| ctx.wall(t)),
                    a.cell(|t| ctx.wall(t)),
                    b.cell(|t| ctx.wall(t)),
                ]);
            }
            for r in rows.into_iter().flatten() {
                ratio.row(r);
            }
        }
    }
    if ctx.quick {
        ratio.note(format!(
            "quick mode: tolerances 1e-3, 1e-6 and 1e-9 only, {eff_t_end} s runs."
        ));
    }
    ratio.note(
        "Wall times are medians of repeated runs. \"DCA (paper's)\" is the acceleration-based \
         DCA without stabilization (`alf-dca:mu=0:omega=0`), the comparator of the paper; \
         \"DCA μ = Ω = 1\" is the stabilized ALF-DCA, which does 3–4 multiplier iterations per \
         evaluation and so costs more per RHS but drifts less.",
    );
    s.tables.extend([ratio, t1, t2]);
    efficiency_findings(&mut s, &eff, &per_rhs);
    s.data = serde_json::Value::Object(data);
    s.settle_status();
    s
}

type Accuracy<'a> = (&'a str, [Option<[f64; 3]>; 3], Option<f64>);

/// Figs 5–9: HDCA against the paper's unstabilized DCA, per case.
fn accuracy_findings(s: &mut Suite, m: &[Accuracy]) {
    let list = |k: usize| {
        m.iter()
            .map(|(c, v, _)| {
                let f = |i: usize| v[i].map_or("failed".into(), |x| sci(x[k]));
                format!("{c}: HDCA {} vs DCA {} (μ = Ω = 1: {})", f(0), f(1), f(2))
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    let better = |k: usize| -> Option<bool> {
        m.iter()
            .map(|(_, v, _)| Some(v[0]?[k] < v[1]?[k]))
            .collect::<Option<Vec<bool>>>()
            .map(|b| b.iter().all(|x| *x))
    };
    for (k, item, claim, what) in [
        (
            0,
            "Fig 5",
            "HDCA preserves the total energy better than DCA in all cases",
            "max |E − E₀|",
        ),
        (
            1,
            "Fig 8",
            "HDCA keeps ‖Φ̇‖ within numerical accuracy, far below DCA's",
            "max ‖Φ̇‖",
        ),
        (
            2,
            "Fig 9",
            "DCA's ‖Φ‖ diverges quadratically; HDCA's drift is negligible",
            "max ‖Φ‖",
        ),
    ] {
        let ok = better(k);
        s.finding(
            Finding::new(
                PAPER,
                item,
                claim,
                format!(
                    "{what} of HDCA below the unstabilized DCA's in every case (RK45 δ = 1e-6)"
                ),
            )
            .judge(
                list(k),
                ok,
                Verdict::NotReproduced,
                "HDCA is not below the paper's DCA in every case (numbers beside)",
            ),
        );
    }
    // point K is marked on the cases that have it (the paper plots case 1)
    let with_k: Vec<(&str, f64)> = m.iter().filter_map(|(c, _, d)| Some((*c, (*d)?))).collect();
    let dys: Vec<String> = with_k
        .iter()
        .map(|(c, d)| format!("{c}: {}", sci(*d)))
        .collect();
    let ok = (!with_k.is_empty()).then(|| with_k.iter().all(|x| x.1 < 1e-3));
    s.finding(
        Finding::new(
            PAPER,
            "Figs 6–7",
            "HDCA reproduces the trajectory of point K",
            "max |y_K(HDCA) − y_K(DCA)| < 1 mm at the samples",
        )
        .judge(
            format!("max |Δy_K| {}", dys.join("; ")),
            ok,
            Verdict::Differs,
            "the two formulations' trajectories of K separate by more than 1 mm",
        ),
    );
}

/// Figs 10–11 and Tables 1–2: the paper's efficiency statements.
fn efficiency_findings(
    s: &mut Suite,
    eff: &[(&str, &str, f64, f64, f64)],
    per_rhs: &[(&str, &str, f64, [f64; 2], [f64; 2])],
) {
    // fraction of cells where DCA/HDCA > 1 (HDCA faster)
    let share = |integ: &str, cases: &[&str], wall: bool| {
        let v: Vec<f64> = eff
            .iter()
            .filter(|e| e.1 == integ && cases.contains(&e.0))
            .map(|e| if wall { e.3 } else { e.4 })
            .collect();
        let above = v.iter().filter(|x| **x > 1.0).count();
        (above, v.len(), v)
    };
    let fmt = |v: &[f64]| {
        v.iter()
            .map(|x| fixed(*x, 2))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let all = &CASES[..];
    for (item, pick, what, cheaper) in [
        ("Fig 10", true, "wall-time", "faster"),
        ("Fig 11", false, "RHS-count", "cheaper in RHS evaluations"),
    ] {
        let (a, n, v) = share("rk45", all, pick);
        s.finding(
            Finding::new(
                PAPER,
                format!("{item}, ode45"),
                "HDCA slower than DCA in most cases with ode45 (ratio DCA/HDCA < 1)",
                format!("{what} ratio < 1 in more than half of the cells"),
            )
            .judge(
                format!("ratios {} ({a} of {n} above 1)", fmt(&v)),
                (n > 0).then_some(2 * a < n),
                Verdict::NotReproduced,
                format!("HDCA is the {cheaper} one with RK45 in most cells"),
            ),
        );
        let (a, n, v) = share("adams", all, pick);
        s.finding(
            Finding::new(
                PAPER,
                format!("{item}, ode113"),
                "HDCA dominates DCA with the multistep ode113 (ratio > 1)",
                format!("{what} ratio > 1 in more than half of the cells (Adams)"),
            )
            .judge(
                format!("ratios {} ({a} of {n} above 1)", fmt(&v)),
                (n > 0).then_some(2 * a > n),
                Verdict::NotReproduced,
                format!("DCA is the {cheaper} one with Adams in most cells"),
            ),
        );
        let (a, n, v) = share("rk23", &CASES[..2], pick);
        s.finding(
            Finding::new(
                PAPER,
                format!("{item}, ode23"),
                "HDCA faster for cases 1 and 2 with ode23",
                format!("{what} ratio > 1 in more than half of the case-1 and case-2 cells (RK23)"),
            )
            .judge(
                format!("ratios {} ({a} of {n} above 1)", fmt(&v)),
                (n > 0).then_some(2 * a > n),
                Verdict::NotReproduced,
                format!("DCA is the {cheaper} one with RK23 on cases 1–2"),
            ),
        );
    }
    // Table 1: per-RHS time HDCA < DCA for cases 1–2, similar (within 25 %) for case 3
    let mean = |case: &str, k: usize| {
        let v: Vec<f64> = per_rhs
            .iter()
            .filter(|p| p.0 == case && p.3[k].is_finite())
            .map(|p| p.3[k])
            .collect();
        v.iter().sum::<f64>() / v.len().max(1) as f64
    };
    let r: Vec<f64> = CASES.iter().map(|c| mean(c, 1) / mean(c, 0)).collect();
    let ok = r
        .iter()
        .all(|x| x.is_finite())
        .then(|| r[0] > 1.0 && r[1] > 1.0 && (0.8..1.25).contains(&r[2]));
    s.finding(
        Finding::new(
            PAPER,
            "Table 1",
            "time per RHS: HDCA below DCA for cases 1–2, similar for case 3",
            "mean per-RHS time ratio DCA/HDCA > 1 (cases 1, 2) and within 0.8–1.25 (case 3)",
        )
        .judge(
            format!("DCA/HDCA per-RHS time {}", fmt(&r)),
            ok,
            Verdict::Differs,
            format!(
                "measured mean per-RHS time HDCA / DCA: {}",
                CASES
                    .iter()
                    .map(|c| format!("{c} {} / {}", duration(mean(c, 0)), duration(mean(c, 1))))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    );
    // Table 2: ode23 slowest, ode113 fastest (HDCA, summed over cases and tolerances)
    let total = |integ: &str| {
        per_rhs
            .iter()
            .filter(|p| p.1 == integ)
            .map(|p| p.4[0])
            .sum::<f64>()
    };
    let (r45, ad, r23) = (total("rk45"), total("adams"), total("rk23"));
    let ok = [r45, ad, r23]
        .iter()
        .all(|x| x.is_finite())
        .then_some(r23 > r45 && r23 > ad && ad < r45);
    s.finding(Finding::new(PAPER, "Table 2", "ode23 much slower than the others; ode113 fastest", "HDCA's total wall time over cases and tolerances: RK23 largest, Adams smallest").judge(
        format!("RK45 {}, Adams {}, RK23 {}", duration(r45), duration(ad), duration(r23)),
        ok,
        Verdict::Differs,
        "the integrators' order of total wall time differs from the paper's (totals beside; our integrators are not MATLAB's)",
    ));
}
