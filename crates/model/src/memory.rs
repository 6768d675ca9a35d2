//! The memory a machine has available, for the checks made before anything large is
//! allocated (a generator's size, the samples of a run, a formulation's dense
//! matrices): an input that would not fit is refused with its size and the limit,
//! rather than the process being killed or aborting on a failed allocation.

/// Share of the available memory one allocation check may let a request take.
pub const SHARE: f64 = 0.8;

/// Bytes of memory available for new allocations: `MemAvailable` of /proc/meminfo
/// (Linux); `None` where it cannot be read (then nothing is checked).
pub fn available_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    mem_available(&text)
}

/// `MemAvailable` (kB) of a /proc/meminfo text, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

/// Whether `bytes` fit in [`SHARE`] of `available` (`None`: unknown, taken to fit).
pub fn fits(bytes: f64, available: Option<u64>) -> bool {
    available.is_none_or(|a| bytes <= SHARE * a as f64)
}

/// Bytes in GB with one decimal, for messages (`8.0`).
pub fn gigabytes(bytes: f64) -> String {
    format!("{:.1}", bytes / 1e9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mem_available_is_read_in_bytes() {
        let text = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   20000000 kB\n";
        assert_eq!(mem_available(text), Some(20_000_000 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
    }

    #[test]
    fn fits_within_the_share() {
        assert!(fits(8e9, Some(11_000_000_000)));
        assert!(!fits(8e9, Some(9_000_000_000)));
        assert!(fits(f64::MAX, None));
        assert_eq!(gigabytes(8e9), "8.0");
    }
}
