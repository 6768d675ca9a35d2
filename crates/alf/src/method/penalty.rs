//! Parameters of Chiou's penalty method (sec 5.3).

use mbs_formulation::params::{self, Key, Params, Preset};

use crate::penalty::{LambdaBackend, PenaltyParams};

impl Params for PenaltyParams {
    fn keys() -> &'static [Key<Self>] {
        &[Key {
            key: "epsilon",
            meaning: "penalty coefficient ε of λ = Φ/ε (eq 5.3.1)",
            get: |p| Some(params::number_text(p.epsilon)),
            set: |p, v| params::assign(&mut p.epsilon, params::positive(v)),
        }]
    }

    fn presets() -> &'static [Preset<Self>] {
        &[
            Preset {
                make: PenaltyParams::default,
                aliases: &[],
                summary: "Chiou's penalty stabilization, dense solve",
            },
            Preset {
                make: || PenaltyParams {
                    backend: LambdaBackend::pcg(),
                    ..PenaltyParams::default()
                },
                aliases: &[],
                summary: "Chiou's penalty stabilization, Schur-complement PCG",
            },
        ]
    }

    fn name(&self) -> &'static str {
        match self.backend {
            LambdaBackend::Dense => "penalty",
            LambdaBackend::Pcg(_) => "penalty-pcg",
        }
    }
}
