//! The methods of this crate as the facade runs them: each params type describes its
//! `key=value` parameters and the method names that preset it, and builds its
//! formulation from an `Arc<Model>` ([`mbs_formulation::Params`]), with the numerical
//! policy of each method (the relative penalty, the Newton tolerance of the implicit
//! rules tied to α, the penalty ε resolved for the run's step, the branch guard without
//! projections, the samples projected and enriched with q̈ and λ).
//!
//! | method names | params type |
//! |---|---|
//! | `lagrange`, `lagrange-baumgarte`, `lagrange-projection` | [`LagrangeParams`] |
//! | `alf`, `alf-index1` | [`AlfIndex1Params`] |
//! | `alf-index3` | [`Index3Params`] |
//! | `penalty`, `penalty-pcg` | [`PenaltyMethodParams`] |

mod alf_index1;
mod backend;
mod index1;
mod index3;
mod lagrange;
mod penalty;
mod sparse_lagrange_run;
mod sparse_run;

pub use alf_index1::AlfIndex1Params;
pub use backend::AlfBackend;

/// The absolute state of a descriptor run's y = [q; v] (the [`mbs_formulation::SAMPLE_LAYOUT`]).
fn sample_state(t: f64, q: &[f64], v: &[f64]) -> mbs_model::State {
    mbs_model::State {
        layout: mbs_formulation::SAMPLE_LAYOUT,
        t,
        q: nalgebra::DVector::from_column_slice(q),
        v: nalgebra::DVector::from_column_slice(v),
    }
}
pub use lagrange::LagrangeParams;
pub use penalty::PenaltyMethodParams;

/// [`mbs_constraints::dense_orders`] as u128, for the dense-storage estimates.
fn dense_dims(model: &mbs_model::Model) -> (u128, u128) {
    let (n, m) = mbs_constraints::dense_orders(model);
    (n as u128, m as u128)
}

/// Dense storage of the KKT-based front-ends (entries): M (n × n), Φ_q (m × n) and
/// the KKT matrix (n + m)² (Bayo–Ledesma eq 4) or the leading matrix and projection
/// matrices of the same orders.
fn kkt_entries(model: &mbs_model::Model) -> u128 {
    let (n, m) = dense_dims(model);
    n * n + m * n + (n + m) * (n + m)
}

#[cfg(test)]
use crate::Index3Params;

#[cfg(test)]
mod tests {
    use mbs_formulation::params::{self, Params};

    use super::*;

    /// Every preset is written as its own name and parses back to itself.
    fn presets_round_trip<P: Params + PartialEq>() {
        for pr in P::presets() {
            let p = (pr.make)();
            assert_eq!(params::display(&p), p.name());
            assert_eq!(params::preset::<P>(p.name()).as_ref(), Some(&p));
            for a in pr.aliases {
                assert_eq!(params::preset::<P>(a).as_ref(), Some(&p));
            }
            for (k, v) in params::values(&p) {
                let mut q = p.clone();
                params::set(&mut q, k, &v).unwrap();
                assert_eq!(q, p, "{k}={v}");
            }
        }
    }

    #[test]
    fn presets_round_trip_in_every_family() {
        presets_round_trip::<LagrangeParams>();
        presets_round_trip::<AlfIndex1Params>();
        presets_round_trip::<Index3Params>();
    }

    #[test]
    fn penalty_names_follow_the_backend() {
        let names: Vec<_> = PenaltyMethodParams::presets()
            .iter()
            .map(|p| (p.make)().name())
            .collect();
        assert_eq!(names, ["penalty", "penalty-pcg"]);
        let mut p = PenaltyMethodParams::default();
        assert_eq!(params::display(&p), "penalty");
        params::set(&mut p, "epsilon", "1e-5").unwrap();
        assert_eq!(params::display(&p), "penalty:epsilon=1e-5");
        params::set(&mut p, "kappa", "3e-3").unwrap();
        assert_eq!(params::display(&p), "penalty:kappa=3e-3");
        let e = params::set(&mut p, "mu", "1").unwrap_err().to_string();
        assert!(
            e.contains("mu") && e.contains("epsilon") && e.contains("kappa"),
            "{e}"
        );
    }
}
