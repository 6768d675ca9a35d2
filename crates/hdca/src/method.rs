//! HDCA as the facade runs it: the method name `hdca` (no `key=value` parameters).

use mbs_formulation::params::{Key, Params, Preset};

use crate::params::HdcaParams;

impl Params for HdcaParams {
    fn keys() -> &'static [Key<Self>] {
        &[]
    }

    fn presets() -> &'static [Preset<Self>] {
        &[Preset {
            make: HdcaParams::default,
            aliases: &[],
            summary: "Hamiltonian divide-and-conquer in joint coordinates and momenta",
        }]
    }

    fn name(&self) -> &'static str {
        "hdca"
    }
}
