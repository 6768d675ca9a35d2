//! Suite `hdca`: Chadaj, Malczyk & Frączek (2017) — accuracy (Figs 5–9) and
//! efficiency (Figs 10–11, Tables 1–2) of HDCA against the acceleration-based DCA.

use mbs::IntegratorChoice;
use mbs::Sampling;
use mbs::plot::{LineChart, Series};

use crate::report::{NOT_IMPLEMENTED, Suite, Table};
use crate::runner::{Ctx, Run, fixed, marker_track, sci, summary_json};

const CASES: [&str; 3] = ["hdca-case1", "hdca-case2", "hdca-case3"];
const DCA: &str = "alf-dca";
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
    for case in CASES {
        let mut runs = Vec::new();
        for (method, paper) in [
            (
                HDCA,
                "energy and ‖Φ̇‖ kept within numerical accuracy; ‖Φ‖ drift negligible",
            ),
            (DCA, "‖Φ‖ diverges quadratically in time"),
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
                        .with(Series::new(
                            format!("y_K {method}"),
                            t.t.clone(),
                            p.iter().map(|x| x.y).collect(),
                        ))
                        .with(Series::new(
                            format!("dy_K/dt {method}"),
                            t.t.clone(),
                            v.iter().map(|x| x.y).collect(),
                        ));
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

    // efficiency: integrators × tolerances
    let tols: Vec<f64> = if ctx.quick {
        vec![1e-3, 1e-6]
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
        "ratio".to_string(),
    ];
    cols.extend(tols.iter().map(|d| format!("δ = {d:.0e}")));
    let cols_ref: Vec<&str> = cols.iter().map(String::as_str).collect();
    let mut ratio = Table::new(
        "hdca_ratios",
        &format!(
            "Figs 10–11 — wall-time and RHS-evaluation ratios DCA / HDCA, {} s runs (paper: plots only)",
            ctx.pick(10.0, 1.0)
        ),
        &cols_ref,
    );
    let mut t1 = Table::new(
        "hdca_table1",
        "Table 1 — mean time per RHS evaluation [ms] (paper values did not survive in the text)",
        &["case", "integrator", "δ", "HDCA", "DCA"],
    );
    let mut t2 = Table::new(
        "hdca_table2",
        &format!(
            "Table 2 — total wall time of a {} s simulation [s] (paper values did not survive in the text)",
            ctx.pick(10.0, 1.0)
        ),
        &["case", "integrator", "δ", "HDCA", "DCA"],
    );
    let eff_t_end = ctx.pick(10.0, 1.0);
    for case in CASES {
        for (iname, make) in integrators {
            let mut wall_row = vec![case.to_string(), iname.to_string(), "wall time".to_string()];
            let mut rhs_row = vec![
                case.to_string(),
                iname.to_string(),
                "RHS evaluations".to_string(),
            ];
            let mut skip = (false, false);
            for &d in &tols {
                let mut run = |method: &str, skip: &mut bool| {
                    if *skip {
                        return Run::NotImplemented(String::new());
                    }
                    let r = ctx.run(case, method, make(d), eff_t_end, Sampling::Intervals(10));
                    *skip = r.is_not_implemented();
                    r
                };
                let h = run(HDCA, &mut skip.0);
                let a = run(DCA, &mut skip.1);
                let (cw, cr) = match (h.traj(), a.traj()) {
                    (Some(h), Some(a)) => (
                        fixed(a.wall_time / h.wall_time, 2),
                        fixed(a.stats.rhs_evals as f64 / h.stats.rhs_evals as f64, 2),
                    ),
                    _ if h.is_not_implemented() || a.is_not_implemented() => {
                        (NOT_IMPLEMENTED.into(), NOT_IMPLEMENTED.into())
                    }
                    _ => ("failed".into(), "failed".into()),
                };
                wall_row.push(cw);
                rhs_row.push(cr);
                let per_rhs = |r: &Run| {
                    r.cell(|t| fixed(1e3 * t.wall_time / t.stats.rhs_evals.max(1) as f64, 4))
                };
                t1.row(vec![
                    case.into(),
                    iname.into(),
                    format!("{d:.0e}"),
                    per_rhs(&h),
                    per_rhs(&a),
                ]);
                t2.row(vec![
                    case.into(),
                    iname.into(),
                    format!("{d:.0e}"),
                    h.cell(|t| fixed(t.wall_time, 3)),
                    a.cell(|t| fixed(t.wall_time, 3)),
                ]);
            }
            ratio.row(wall_row);
            ratio.row(rhs_row);
        }
    }
    if ctx.quick {
        ratio.note(format!(
            "quick mode: tolerances 1e-3 and 1e-6 only, {eff_t_end} s runs."
        ));
    }
    s.tables.extend([ratio, t1, t2]);
    s.data = serde_json::Value::Object(data);
    s.settle_status();
    s
}
