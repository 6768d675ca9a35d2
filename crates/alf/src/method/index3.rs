//! Parameters of ALF-INDEX3 (Bayo–Ledesma eqs 35–40).

use mbs_formulation::params::{self, Key, Params, Preset};

use crate::index3::Index3Params;

impl Params for Index3Params {
    fn keys() -> &'static [Key<Self>] {
        &[
            Key {
                key: "alpha",
                meaning: "penalty α",
                get: |p| Some(params::number_text(p.alpha)),
                set: |p, v| params::assign(&mut p.alpha, params::positive(v)),
            },
            Key {
                key: "iter",
                meaning: "maximum Newton (augmented-Lagrangian) iterations per step",
                get: |p| Some(p.max_newton.to_string()),
                set: |p, v| params::assign(&mut p.max_newton, params::count(v)),
            },
            Key {
                key: "tol",
                meaning: "Newton tolerance on ‖Δq‖∞/(1 + ‖q‖∞) and ‖Φ‖∞/(1 + ‖q‖∞)",
                get: |p| Some(params::number_text(p.newton_tol)),
                set: |p, v| params::assign(&mut p.newton_tol, params::positive(v)),
            },
        ]
    }

    fn presets() -> &'static [Preset<Self>] {
        &[Preset {
            make: Index3Params::default,
            aliases: &[],
            summary: "augmented Lagrangian index-3 (positions primary) with projections, own trapezoidal or midpoint rule",
        }]
    }

    fn name(&self) -> &'static str {
        "alf-index3"
    }
}
