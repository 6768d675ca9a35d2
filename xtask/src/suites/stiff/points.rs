//! What one run of the `stiff` suite measured, and the comparisons made from it:
//! final position error against the reference, ratios to the explicit default, and
//! the cheapest run reaching a given accuracy (acceptance 4).

use mbs::Trajectory;

use super::integrators::Family;

/// One run: an integrator at one setting on one case.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Point {
    pub integrator: &'static str,
    pub family: &'static str,
    /// Tolerance or step.
    pub value: f64,
    pub steps: usize,
    pub rejected: usize,
    pub rhs: usize,
    pub jacobians: usize,
    /// LU factorizations (RADAU5: real and complex together).
    pub lu: usize,
    pub newton: usize,
    /// Median wall time of the repeats \[s\].
    pub wall: f64,
    /// Largest distance between a body's final position and the reference's \[m\].
    pub error: f64,
}

impl Point {
    pub fn new(
        integrator: &'static str,
        family: Family,
        value: f64,
        t: &Trajectory,
        error: f64,
    ) -> Self {
        Self {
            integrator,
            family: family.label(),
            value,
            steps: t.stats.accepted_steps,
            rejected: t.stats.rejected_steps,
            rhs: t.stats.rhs_evals,
            jacobians: t.stats.jacobian_evals,
            lu: t.stats.lu_decompositions,
            newton: t.stats.newton_iterations,
            wall: t.wall_time,
            error,
        }
    }
}

/// Largest distance between the bodies' final positions in two runs \[m\] (NaN if
/// the runs are not comparable).
pub fn final_error(a: &Trajectory, b: &Trajectory) -> f64 {
    if a.is_empty() || b.is_empty() || a.n_bodies() != b.n_bodies() {
        return f64::NAN;
    }
    let (ka, kb) = (a.len() - 1, b.len() - 1);
    (0..a.n_bodies())
        .map(|i| (a.position(ka, i) - b.position(kb, i)).norm())
        .fold(0.0, f64::max)
}

/// `num / den` as "12.3×", or "—" when either is missing or not positive.
pub fn ratio(num: f64, den: f64) -> String {
    if num.is_finite() && den.is_finite() && num > 0.0 && den > 0.0 {
        let r = num / den;
        if r >= 10.0 {
            format!("{r:.0}×")
        } else {
            format!("{r:.2}×")
        }
    } else {
        "—".into()
    }
}

/// The fastest of `points` of `integrator` whose error is at most `accuracy` (the
/// cost of that accuracy on its ladder), or `None`.
pub fn cheapest_within<'a>(
    points: &'a [Point],
    integrator: &str,
    accuracy: f64,
) -> Option<&'a Point> {
    points
        .iter()
        .filter(|p| p.integrator == integrator && p.error.is_finite() && p.error <= accuracy)
        .min_by(|a, b| a.wall.total_cmp(&b.wall))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(integrator: &'static str, wall: f64, error: f64) -> Point {
        Point {
            integrator,
            family: "explicit",
            value: 1e-6,
            steps: 1,
            rejected: 0,
            rhs: 1,
            jacobians: 0,
            lu: 0,
            newton: 0,
            wall,
            error,
        }
    }

    #[test]
    fn the_cheapest_run_meeting_an_accuracy() {
        let pts = [
            p("A", 1.0, 1e-3),
            p("A", 2.0, 1e-6),
            p("A", 4.0, 1e-9),
            p("B", 0.5, f64::NAN),
            p("B", 3.0, 1e-7),
        ];
        assert_eq!(cheapest_within(&pts, "A", 1e-5).unwrap().wall, 2.0);
        assert_eq!(cheapest_within(&pts, "A", 1e-2).unwrap().wall, 1.0);
        assert!(cheapest_within(&pts, "A", 1e-10).is_none());
        // a NaN error (not comparable) never counts
        assert_eq!(cheapest_within(&pts, "B", 1.0).unwrap().wall, 3.0);
        assert!(cheapest_within(&pts, "C", 1.0).is_none());
    }

    #[test]
    fn ratios() {
        assert_eq!(ratio(100.0, 2.0), "50×");
        assert_eq!(ratio(3.0, 2.0), "1.50×");
        assert_eq!(ratio(1.0, 0.0), "—");
        assert_eq!(ratio(f64::NAN, 1.0), "—");
    }
}
