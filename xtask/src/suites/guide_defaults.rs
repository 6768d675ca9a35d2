//! The recommended default per mechanism class, derived from the guide's
//! measurements and set against the library's table (`mbs::recommend::RECOMMENDED`).

use std::collections::BTreeMap;

use mbs::recommend::{IntegratorKind, MechanismClass, RECOMMENDED};

use crate::report::Table;

/// A method × integrator family (the guide's names).
pub type Combo = (&'static str, &'static str);

/// The fastest accurate run of each method × integrator on one mechanism, with the
/// mechanism's library class and name.
pub type Measured = (MechanismClass, &'static str, BTreeMap<Combo, f64>);

/// The guide's name of an integrator family of the library.
fn kind_name(k: IntegratorKind) -> &'static str {
    match k {
        IntegratorKind::Rk45 => "RK45",
        IntegratorKind::Dop853 => "DOP853",
        IntegratorKind::Adams => "Adams",
        IntegratorKind::Radau5 => "RADAU5",
    }
}

/// Worst slowdown of `c` over `members` (wall time over the mechanism's fastest
/// accurate run); `None` if `c` has no accurate run on one of them.
fn worst(members: &[&Measured], c: &Combo) -> Option<f64> {
    members
        .iter()
        .map(|(_, _, runs)| {
            let best = runs.values().copied().fold(f64::INFINITY, f64::min);
            runs.get(c).map(|w| w / best)
        })
        .try_fold(1.0_f64, |acc, r| r.map(|r| acc.max(r)))
}

/// For each class, the method × integrator accurate (final error ≤ `target`) on
/// every mechanism of the class with the smallest worst-case slowdown, against the
/// library's default; `tie` is the factor within which two timings count as equal.
pub fn class_defaults(id: &str, by_class: &[Measured], target: f64, tie: f64) -> Table {
    let mut t = Table::new(
        id,
        &format!(
            "Default method per mechanism class at final position error ≤ {target:.0e} m — measured choice against the library's default"
        ),
        &[
            "mechanism class",
            "mechanisms",
            "measured choice",
            "its worst slowdown",
            "library default",
            "default's worst slowdown",
            "verdict",
        ],
    );
    for class in RECOMMENDED.iter().map(|r| r.0) {
        let members: Vec<&Measured> = by_class.iter().filter(|c| c.0 == class).collect();
        let (lib_method, lib_kind) = class.recommended();
        let lib: Combo = (lib_method, kind_name(lib_kind));
        let lib_name = format!("{} / {}", lib.0, lib.1);
        if members.is_empty() {
            t.row(vec![
                class.describe().into(),
                "—".into(),
                "—".into(),
                "—".into(),
                lib_name,
                "—".into(),
                "not measured here (no mechanism of the class in this suite)".into(),
            ]);
            continue;
        }
        let mut combos: Vec<Combo> = members.iter().flat_map(|m| m.2.keys().copied()).collect();
        combos.sort();
        combos.dedup();
        let best = combos
            .iter()
            .filter_map(|c| worst(&members, c).map(|w| (*c, w)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        let lib_worst = worst(&members, &lib);
        let verdict = match (best, lib_worst) {
            (None, _) => "no method reached the target on every mechanism".to_string(),
            (Some(_), None) => "differs: the default missed the target on a mechanism".into(),
            (Some((c, _)), Some(_)) if c == lib => "agrees".into(),
            (Some((_, w)), Some(lw)) if lw <= tie * w => {
                format!("agrees within {:.0} % (timing noise)", 100.0 * (tie - 1.0))
            }
            (Some((_, w)), Some(lw)) => format!(
                "differs: the default's worst case is {:.1}× the measured choice's",
                lw / w
            ),
        };
        let names: Vec<&str> = members.iter().map(|m| m.1).collect();
        t.row(vec![
            class.describe().into(),
            names.join(", "),
            best.map_or("—".into(), |(c, _)| format!("{} / {}", c.0, c.1)),
            best.map_or("—".into(), |(_, w)| format!("{w:.2}×")),
            lib_name,
            lib_worst.map_or("—".into(), |w| format!("{w:.2}×")),
            verdict,
        ]);
    }
    t.note(format!(
        "A mechanism's class is the library's (`mbs::recommend::MechanismClass`: open chain or tree; closed loop below {} bodies; large closed loop; nonholonomic), so this table checks the default a user who names no method gets (`mbs run MODEL`, `Simulation::new`). Slowdown: wall time of a method × integrator's fastest run with final position error ≤ {target:.0e} m over the fastest such run of any method on that mechanism; a class's value is its worst mechanism. A loaded machine moves these ratios by tens of per cent.",
        mbs::recommend::LARGE_LOOP_BODIES
    ));
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choice_minimises_the_worst_slowdown_over_the_class() {
        let a: BTreeMap<Combo, f64> = [(("x", "RK45"), 1.0), (("y", "Adams"), 1.5)]
            .into_iter()
            .collect();
        let b: BTreeMap<Combo, f64> = [(("x", "RK45"), 4.0), (("y", "Adams"), 2.0)]
            .into_iter()
            .collect();
        let m = [
            (MechanismClass::SmallLoop, "a", a),
            (MechanismClass::SmallLoop, "b", b),
        ];
        let members: Vec<&Measured> = m.iter().collect();
        // x: worst 2×, y: worst 1.5× → y
        assert_eq!(worst(&members, &("x", "RK45")), Some(2.0));
        assert_eq!(worst(&members, &("y", "Adams")), Some(1.5));
        assert_eq!(worst(&members, &("z", "RK45")), None);
    }
}
