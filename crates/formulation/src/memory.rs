//! The memory check before a front-end is built. A formulation that stores dense
//! matrices of the model's size squared says how many entries they take
//! ([`crate::Params::dense_entries`]); when they would not fit in the memory the
//! machine has available, the method is refused with an error naming it, the size
//! and what to use instead, before anything is allocated — rather than the process
//! being killed by the kernel with the session's results lost (a dense KKT matrix of
//! a 4096-link chain takes ≈ 20 GB).

use crate::FormulationError;

pub use mbs_model::memory::{SHARE, available_bytes};
use mbs_model::memory::{fits, gigabytes};

/// What the refusal of a method suggests instead.
const SCALABLE_METHODS: &str = "use a method whose storage grows with the model, not its square: `aba` (open trees), `hdca` or `alf-dca-proj` (any mechanism), `lagrange:backend=sparse` or `alf-index1:backend=sparse`";

/// Refuses `method` when `entries` f64 entries of dense storage exceed [`SHARE`] of
/// `available` bytes (`None`: not checked). The error is invalid input naming the
/// method, both sizes and the methods that scale with the model.
pub fn check(method: &str, entries: u128, available: Option<u64>) -> Result<(), FormulationError> {
    check_storage(
        &format!("{method}: its dense matrices for this model"),
        entries,
        available,
        SCALABLE_METHODS,
    )
}

/// Refuses a computation when `entries` f64 entries exceed [`SHARE`] of `available`
/// bytes (`None`: not checked): invalid input "`what` take ≈ … GB and … GB of memory
/// are available (…); `advice`".
pub fn check_storage(
    what: &str,
    entries: u128,
    available: Option<u64>,
    advice: &str,
) -> Result<(), FormulationError> {
    let Some(available) = available else {
        return Ok(());
    };
    let bytes = 8.0 * entries as f64;
    if fits(bytes, Some(available)) {
        return Ok(());
    }
    Err(FormulationError::invalid_input(format!(
        "{what} take ≈ {} GB and {} GB of memory are available (at most {:.0} % may be used); {advice}",
        gigabytes(bytes),
        gigabytes(available as f64),
        100.0 * SHARE
    )))
}

/// The most f64 entries a computation may hold: [`SHARE`] of `available` bytes
/// (`usize::MAX` when unknown) — the limit under which [`check_storage`] passes.
pub fn max_entries(available: Option<u64>) -> usize {
    available.map_or(usize::MAX, |a| {
        (SHARE * a as f64 / 8.0).min(usize::MAX as f64) as usize
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_beyond_the_share_is_refused_naming_the_method_and_sizes() {
        // 8 GB of dense storage, 9 GB available: above 80 %
        let e = check("lagrange", 1_000_000_000, Some(9_000_000_000)).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("lagrange") && text.contains("8.0 GB") && text.contains("9.0 GB"),
            "{text}"
        );
        assert!(text.contains("aba"), "{text}");
        // 8 GB of 11 GB: allowed; unknown memory: not checked
        assert!(check("lagrange", 1_000_000_000, Some(11_000_000_000)).is_ok());
        assert!(check("lagrange", u128::MAX, None).is_ok());
    }

    #[test]
    fn the_entry_limit_is_where_the_check_starts_refusing() {
        let available = Some(10_000_000_000);
        let limit = max_entries(available) as u128;
        assert_eq!(limit, 1_000_000_000);
        assert!(check_storage("x", limit, available, "").is_ok());
        let e = check_storage("the rank of Φ_q", limit + 1, available, "try less")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("the rank of Φ_q take") && e.contains("try less"),
            "{e}"
        );
        assert_eq!(max_entries(None), usize::MAX);
    }
}
