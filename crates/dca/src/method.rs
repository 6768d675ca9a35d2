//! ALF-DCA as the facade runs it: the `key=value` parameters of [`DcaParams`] and the
//! method names `alf-dca` (without projections) and `alf-dca-proj`.

use mbs_formulation::params::{self, Key, Params, Preset};

use crate::params::DcaParams;

impl Params for DcaParams {
    fn keys() -> &'static [Key<Self>] {
        &[
            Key {
                key: "alpha",
                meaning: "penalty α of the multiplier iterations (eqs 6–8, 17)",
                get: |p| Some(params::number_text(p.alpha)),
                set: |p, v| params::assign(&mut p.alpha, params::positive(v)),
            },
            Key {
                key: "mu",
                meaning: "damping ratio μ of the stabilization term 2Ωμ Φ̇ (eqs 7–8)",
                get: |p| Some(params::number_text(p.mu)),
                set: |p, v| params::assign(&mut p.mu, params::non_negative(v)),
            },
            Key {
                key: "omega",
                meaning: "natural frequency Ω of the stabilization terms 2Ωμ Φ̇ + Ω²Φ (eqs 7–8)",
                get: |p| Some(params::number_text(p.omega)),
                set: |p, v| params::assign(&mut p.omega, params::non_negative(v)),
            },
            Key {
                key: "iter",
                meaning: "maximum multiplier iterations of the accelerations",
                get: |p| Some(p.max_iter.to_string()),
                set: |p, v| params::assign(&mut p.max_iter, params::count(v)),
            },
            Key {
                key: "project",
                meaning: "mass-orthogonal projections of positions and velocities after every step (eqs 41–72)",
                get: |p| Some(p.projections.to_string()),
                set: |p, v| params::assign(&mut p.projections, params::flag(v)),
            },
        ]
    }

    fn presets() -> &'static [Preset<Self>] {
        &[
            Preset {
                make: DcaParams::without_projections,
                aliases: &[],
                summary: "ALF divide-and-conquer, without projections",
            },
            Preset {
                make: DcaParams::default,
                aliases: &[],
                summary: "ALF divide-and-conquer with DCA-form projections",
            },
        ]
    }

    fn name(&self) -> &'static str {
        if self.projections {
            "alf-dca-proj"
        } else {
            "alf-dca"
        }
    }
}

#[cfg(test)]
mod tests {
    use mbs_formulation::params;

    use super::*;

    #[test]
    fn names_follow_the_projections_and_parameters_round_trip() {
        let p = params::preset::<DcaParams>("alf-dca").unwrap();
        assert!(!p.projections);
        let mut q = p;
        params::set(&mut q, "project", "true").unwrap();
        assert_eq!(params::display(&q), "alf-dca-proj");
        params::set(&mut q, "alpha", "1e5").unwrap();
        assert_eq!(params::display(&q), "alf-dca-proj:alpha=1e5");
        let e = params::set(&mut q, "omega", "-1").unwrap_err().to_string();
        assert!(e.contains("omega") && e.contains("-1"), "{e}");
    }
}
