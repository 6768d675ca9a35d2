//! Suite `dca`: Malczyk & Frączek (2012), seeds/000 — five-bar and double loop with
//! ALF-DCA without and with projections (Figs 5–7 and 9–11).

use mbs::IntegratorChoice::Rk45;
use mbs::Sampling;
use mbs::plot::{LineChart, Series};

use crate::report::{Suite, Table};
use crate::runner::{Ctx, fixed, sci, summary_json};

pub fn run(ctx: &mut Ctx) -> Suite {
    let mut s = Suite::new("dca", "Malczyk & Frączek 2012 — ALF-DCA with projections");
    let t_end = ctx.pick(10.0, 2.0);
    let mut data = serde_json::Map::new();
    for (mech, figs) in [("five-bar", "Figs 5–7"), ("double-loop", "Figs 9–11")] {
        let mut t = Table::new(
            &format!("dca_{}", mech.replace('-', "_")),
            &format!(
                "{mech} ({figs}) — RK45 rtol = atol = 1e-6, α = 1e6, μ = Ω = 1, ≤ 10 iterations, {t_end} s"
            ),
            &[
                "method",
                "paper",
                "max ‖Φ‖",
                "max ‖Φ̇‖",
                "max ‖Φ̈‖",
                "max |E − E₀| [J]",
                "RHS evaluations",
                "wall [s]",
            ],
        );
        let mut rows = Vec::new();
        for (method, paper) in [
            ("alf-dca", "plots only: errors drift without projections"),
            (
                "alf-dca-proj",
                "plots only: ‖Φ‖ ≈ 1e-14, ‖Φ̇‖ ≈ 1e-12 with projections",
            ),
            (
                "alf-index1:alpha=1e6:mu=1:omega=1",
                "— (global ALF reference, not in the paper)",
            ),
        ] {
            let r = ctx.run(
                mech,
                method,
                Rk45 {
                    rtol: 1e-6,
                    atol: 1e-6,
                },
                t_end,
                Sampling::Every(0.01),
            );
            t.row(vec![
                method.into(),
                paper.into(),
                r.cell(|tr| sci(tr.max_phi())),
                r.cell(|tr| sci(tr.max_phi_dot())),
                r.cell(|tr| sci(tr.max_phi_ddot())),
                r.cell(|tr| sci(tr.energy_drift())),
                r.cell(|tr| tr.stats.rhs_evals.to_string()),
                r.cell(|tr| fixed(tr.wall_time, 3)),
            ]);
            data.insert(format!("{mech}/{method}"), summary_json(&r));
            rows.push((method, r));
        }
        if ctx.quick {
            t.note(format!("quick mode: {t_end} s instead of 10 s."));
        }
        s.tables.push(t);
        for (method, r) in &rows {
            let Some(tr) = r.traj() else { continue };
            let stem = format!(
                "dca_{}_{}",
                mech.replace('-', "_"),
                method.split(':').next().unwrap_or("").replace('-', "_")
            );
            ctx.plot(
                &mut s,
                &format!("{stem}_violations"),
                LineChart::new(
                    format!("{mech}, {method}: constraint violations"),
                    "t [s]",
                    "norm (log scale)",
                )
                .log()
                .with(Series::new("‖Φ‖", tr.t.clone(), tr.phi_norm.clone()))
                .with(Series::new(
                    "‖dΦ/dt‖",
                    tr.t.clone(),
                    tr.phi_dot_norm.clone(),
                ))
                .with(Series::new(
                    "‖d²Φ/dt²‖",
                    tr.t.clone(),
                    tr.phi_ddot_norm.clone(),
                )),
            );
            ctx.plot(
                &mut s,
                &format!("{stem}_energy"),
                LineChart::new(format!("{mech}, {method}: energies"), "t [s]", "energy [J]")
                    .with(Series::new(
                        "kinetic",
                        tr.t.clone(),
                        tr.kinetic_energy.clone(),
                    ))
                    .with(Series::new(
                        "potential",
                        tr.t.clone(),
                        tr.potential_energy.clone(),
                    ))
                    .with(Series::new("total", tr.t.clone(), tr.total_energy.clone())),
            );
        }
    }
    s.data = serde_json::Value::Object(data);
    s.settle_status();
    s
}
