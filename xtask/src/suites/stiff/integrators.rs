//! The integrators the `stiff` suite compares, as data: a label, explicit or
//! implicit, and the text `IntegratorChoice` parses (`radau5:rtol=1e-6`). An
//! integrator this build does not know gives a "not available" row, not an error: the
//! suite is written ahead of the implicit integrators of issue #31 and measures them
//! as soon as they parse.

use mbs::IntegratorChoice;

/// Explicit or implicit (the two families of the work–precision diagrams).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Explicit,
    Implicit,
}

impl Family {
    pub fn label(self) -> &'static str {
        match self {
            Family::Explicit => "explicit",
            Family::Implicit => "implicit",
        }
    }
}

/// How the accuracy of an integrator is set along the work–precision ladder.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Accuracy {
    /// Adaptive: `{tol}` in the template is replaced by each tolerance (rtol = atol).
    Tolerance,
    /// Fixed step: `{h}` in the template is replaced by each of these steps \[s\]; the
    /// step of the one-tolerance table is the middle one.
    Steps(&'static [f64]),
}

/// One integrator of the suite.
#[derive(Clone, Copy, Debug)]
pub struct IntegratorSpec {
    /// Label in tables and plots.
    pub label: &'static str,
    pub family: Family,
    /// `IntegratorChoice` text with a `{tol}` or `{h}` placeholder.
    pub template: &'static str,
    pub accuracy: Accuracy,
}

/// The explicit reference of every ratio: DOP853 (Hairer's), the integrator of the
/// issue's measurement.
pub const EXPLICIT_DEFAULT: &str = "DOP853";

/// Steps of the fixed-step implicit rules \[s\].
const FIXED_STEPS: &[f64] = &[1e-3, 1e-4, 1e-5];

/// Every integrator compared, explicit first.
pub const INTEGRATORS: [IntegratorSpec; 8] = [
    IntegratorSpec {
        label: EXPLICIT_DEFAULT,
        family: Family::Explicit,
        template: "dop853:rtol={tol}",
        accuracy: Accuracy::Tolerance,
    },
    IntegratorSpec {
        label: "RK45",
        family: Family::Explicit,
        template: "rk45:rtol={tol}",
        accuracy: Accuracy::Tolerance,
    },
    IntegratorSpec {
        label: "Adams",
        family: Family::Explicit,
        template: "adams:rtol={tol}",
        accuracy: Accuracy::Tolerance,
    },
    // Hairer & Wanner II, sec IV.8 (RADAU5)
    IntegratorSpec {
        label: "Radau IIA 5",
        family: Family::Implicit,
        template: "radau5:rtol={tol}",
        accuracy: Accuracy::Tolerance,
    },
    // Shampine & Reichelt 1997 (variable-order BDF / NDF, orders 1–5)
    IntegratorSpec {
        label: "BDF 1–5",
        family: Family::Implicit,
        template: "bdf:rtol={tol}",
        accuracy: Accuracy::Tolerance,
    },
    // Chung & Hulbert 1993, Arnold & Brüls 2007 (ρ∞ = 0.8)
    IntegratorSpec {
        label: "generalized-α ρ∞=0.8",
        family: Family::Implicit,
        template: "generalized-alpha:rho=0.8:rtol={tol}",
        accuracy: Accuracy::Tolerance,
    },
    IntegratorSpec {
        label: "trapezoidal (fixed h)",
        family: Family::Implicit,
        template: "trapezoidal:h={h}",
        accuracy: Accuracy::Steps(FIXED_STEPS),
    },
    IntegratorSpec {
        label: "midpoint (fixed h)",
        family: Family::Implicit,
        template: "midpoint:h={h}",
        accuracy: Accuracy::Steps(FIXED_STEPS),
    },
];

/// One point of an integrator's ladder: its setting in words and the parsed choice,
/// or why this build has none.
#[derive(Clone, Debug)]
pub struct Setting {
    /// `rtol = 1e-6` or `h = 1e-4`.
    pub text: String,
    /// The tolerance or step.
    pub value: f64,
    pub choice: Result<IntegratorChoice, String>,
}

fn number(v: f64) -> String {
    format!("{v:e}")
}

impl IntegratorSpec {
    /// The text of the choice at `value` (a tolerance or a step).
    pub fn text(&self, value: f64) -> String {
        self.template
            .replace("{tol}", &number(value))
            .replace("{h}", &number(value))
    }

    /// The choice at `value`, or why it is not available in this build.
    pub fn setting(&self, value: f64) -> Setting {
        let text = self.text(value);
        let choice = text.parse::<IntegratorChoice>().map_err(|e| e.to_string());
        let what = match self.accuracy {
            Accuracy::Tolerance => format!("rtol = atol = {value:.0e}"),
            Accuracy::Steps(_) => format!("h = {value:.0e}"),
        };
        Setting {
            text: what,
            value,
            choice,
        }
    }

    /// The ladder of the work–precision diagram (loose to tight): the given
    /// tolerances, or the integrator's own steps.
    pub fn ladder(&self, tolerances: &[f64]) -> Vec<Setting> {
        match self.accuracy {
            Accuracy::Tolerance => tolerances.iter().map(|t| self.setting(*t)).collect(),
            Accuracy::Steps(h) => h.iter().map(|h| self.setting(*h)).collect(),
        }
    }

    /// The one setting of the main table: `tol`, or the middle step.
    pub fn at(&self, tol: f64) -> Setting {
        match self.accuracy {
            Accuracy::Tolerance => self.setting(tol),
            Accuracy::Steps(h) => self.setting(h[h.len() / 2]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_existing_integrators_parse_and_the_templates_fill_in() {
        for spec in INTEGRATORS {
            for s in spec.ladder(&[1e-3, 1e-6]) {
                assert!(
                    !spec.text(s.value).contains('{'),
                    "{}: {}",
                    spec.label,
                    spec.text(s.value)
                );
            }
        }
        let d = INTEGRATORS[0].at(1e-6);
        assert_eq!(
            d.choice.unwrap(),
            IntegratorChoice::Dop853 {
                rtol: 1e-6,
                atol: 1e-6
            }
        );
        assert_eq!(d.text, "rtol = atol = 1e-6");
        let t = INTEGRATORS
            .iter()
            .find(|s| s.label.starts_with("trapezoidal"))
            .unwrap();
        assert_eq!(t.at(1e-6).choice.unwrap().step(), Some(1e-4));
        assert_eq!(t.ladder(&[1e-3]).len(), FIXED_STEPS.len());
    }

    #[test]
    fn an_unknown_integrator_is_a_reason_not_a_panic() {
        let spec = IntegratorSpec {
            label: "x",
            family: Family::Implicit,
            template: "no-such-integrator:rtol={tol}",
            accuracy: Accuracy::Tolerance,
        };
        let e = spec.at(1e-6).choice.unwrap_err();
        assert!(e.contains("no-such-integrator"), "{e}");
    }
}
