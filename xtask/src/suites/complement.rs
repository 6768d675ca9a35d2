//! Suite `complement`: Pękal & Frączek — natural complement formulations on
//! the McPherson struts: wall time vs tolerance (Figs 2–5) and constraint errors.

use mbs::IntegratorChoice::Rk45;
use mbs::Sampling;

use crate::report::{NOT_IMPLEMENTED, Suite, Table};
use crate::runner::{Ctx, fixed, sci};

const METHODS: [&str; 8] = [
    "complement-zero-eigenvalue",
    "complement-schur",
    "complement-putd-h",
    "complement-putd-g",
    "complement-svd",
    "complement-qr",
    "coordinate-partitioning",
    "wang-huston",
];
const STABS: [(&str, &str); 3] = [
    ("none", "stab=none"),
    ("Baumgarte α = β = 10", "stab=baumgarte"),
    ("Newton–Raphson", "stab=nr"),
];

pub fn run(ctx: &mut Ctx) -> Suite {
    let mut s = Suite::new(
        "complement",
        "Pękal & Frączek — orthogonal/natural complement formulations",
    );
    let tols: Vec<f64> = if ctx.quick {
        vec![1e-6, 1e-3]
    } else {
        vec![1e-10, 1e-8, 1e-6, 1e-3]
    };
    let t_end = ctx.pick(10.0, 2.0);
    let mut data = serde_json::Map::new();
    for (mech, figs) in [
        ("mcpherson-simplified", "Figs 2–3"),
        ("mcpherson-overconstrained", "Figs 4–5"),
    ] {
        let mut cols = vec!["method".to_string(), "stabilization".to_string()];
        cols.extend(tols.iter().map(|d| format!("wall time at {d:.0e}")));
        cols.push(format!("max ‖Φ‖ at {:.0e}", tols[tols.len() - 1]));
        let cr: Vec<&str> = cols.iter().map(String::as_str).collect();
        let mut t = Table::new(
            &format!("complement_{}", mech.replace('-', "_")),
            &format!(
                "{mech} ({figs}) — RK45, {t_end} s: wall time vs tolerance (paper: plots only)"
            ),
            &cr,
        );
        for m in METHODS {
            for (slabel, sparam) in STABS {
                let method = format!("{m}:{sparam}");
                let mut row = vec![m.to_string(), slabel.to_string()];
                let mut last = None;
                let mut ni = false;
                for &d in &tols {
                    if ni {
                        row.push(NOT_IMPLEMENTED.into());
                        continue;
                    }
                    let r = ctx.run(
                        mech,
                        &method,
                        Rk45 { rtol: d, atol: d },
                        t_end,
                        Sampling::Intervals(100),
                    );
                    ni = r.is_not_implemented();
                    row.push(r.cell(|x| ctx.wall(x)));
                    data.insert(
                        format!("{mech}/{method}/{d:e}"),
                        crate::runner::summary_json(&r),
                    );
                    last = Some(r);
                }
                row.push(last.map_or(NOT_IMPLEMENTED.into(), |r| r.cell(|x| sci(x.max_phi()))));
                t.row(row);
            }
        }
        if ctx.quick {
            t.note(format!("quick mode: tolerances 1e-6 and 1e-3, {t_end} s."));
        }
        s.tables.push(t);
    }
    s.data = serde_json::Value::Object(data);
    s.settle_status();
    s
}
