//! The recommended method and integrator for a model: what a [`crate::Simulation`]
//! (and `mbs run` without `--method`/`--integrator`) uses when the user names none.
//!
//! The table is derived from measurements, not opinion: the bench suite `guide`
//! (`cargo xtask bench --suite guide`) runs every method family × {RK45, Adams} at
//! several tolerances on the guide's mechanisms, groups them by [`MechanismClass`]
//! (the classifier below, so the bench and the library agree on the classes), and
//! for each class picks the method × integrator that reaches a final position error
//! ≤ 1e-6 m on every mechanism of the class with the smallest worst-case slowdown
//! against the fastest run on each mechanism. The report then says, per class,
//! whether [`RECOMMENDED`] agrees with that run's measurement.
//!
//! Measured for the table (full mode: tolerances 1e-3 … 1e-10, 2 s runs, 2 cores,
//! 2026-11-29): on the small closed loops (five-bar, singular N-four-bar, Bricard,
//! Andrew's squeezer, spatial slider-crank) `alf-joint` + Adams has the smallest
//! worst case at a final position error of 1e-6 m (1.88× the fastest accurate run
//! of a mechanism; `alf-joint` + DOP853 2.23×, the former default `alf-dca-proj` +
//! DOP853 11.7×) and at 1e-8 m (1.35×; `alf-dca-proj` + Adams 7.8×). It holds down
//! to 1e-8 m: at 1e-9 m `alf-joint` does not reach the target on the N-four-bar (its
//! error levels off at 1.6e-9 m through the ten singular passes) and `alf-dca-proj` +
//! DOP853 is the choice (4.5×) — name it for such accuracies. Before `alf-joint`
//! (quick mode): `alf-dca-proj` + DOP853 2.6–3.0×, `hdca` 6.7× slower on the
//! N-four-bar. The 64-body loop: `hdca` + RK45 3.9× faster than `alf-dca-proj` (in
//! the full guide `alf-joint` + DOP853 is faster still at 1e-6 m, but it is dense
//! in the joint velocities and took 194 s at 1e-9, so the large-loop default stays
//! O(n)); the 16-link chain: `aba` + Adams, the O(n) articulated-body algorithm in
//! joint coordinates, 10.6× faster than `hdca` + Adams (on the 256-link chain of the
//! peers suite, 10 s: `aba` + DOP853 at 1e-8 reaches an energy error of 1e-6 J in
//! ≈ 1.6 s, `hdca` + DOP853 needs rtol 1e-10 and ≈ 8–10 s). Open trees with time
//! drivers (which `aba` and `hdca` refuse) fall back to `alf-dca-proj`; so do small
//! loops with drivers, which `alf-joint` refuses.
//!
//! When the class's method cannot build the model (e.g. `hdca` refuses a joint
//! kind), the next method of [`MechanismClass::candidates`] is taken and the
//! [`Recommendation::reason`] says so.
//!
//! Stiff models: the table's integrators are explicit. The recommendation also holds
//! the linearized spectrum of the chosen method's ODE at the initial state
//! ([`crate::spectrum`]); on an interval where it is stiff
//! ([`Recommendation::integrator_for`]) the integrator becomes RADAU5
//! ([`IntegratorKind::Radau5`]) and the reason names the spectrum.

use std::fmt;
use std::sync::Arc;

use mbs_model::Model;

use crate::integrator::IntegratorChoice;
use crate::method::Method;
use crate::spectrum::{Skipped, Spectrum, linearized_spectrum};

/// Bodies from which a closed-loop mechanism counts as large: the dense per-loop
/// work of the accelerations-level front-ends grows faster than HDCA's O(n).
pub const LARGE_LOOP_BODIES: usize = 32;

/// The mechanism classes of the recommendation table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MechanismClass {
    /// Open chains and trees (no cut joint), holonomic.
    Tree,
    /// Closed loops with fewer than [`LARGE_LOOP_BODIES`] bodies, holonomic.
    SmallLoop,
    /// Closed loops with at least [`LARGE_LOOP_BODIES`] bodies, holonomic.
    LargeLoop,
    /// Nonholonomic constraints (rolling): only the descriptor-form front-ends apply.
    Nonholonomic,
}

/// Integrator family of a recommendation (the tolerance stays the user's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntegratorKind {
    /// Dormand–Prince 5(4).
    Rk45,
    /// Dormand–Prince 8(5,3).
    Dop853,
    /// Variable-order Adams–Bashforth–Moulton.
    Adams,
    /// Radau IIA of order 5 (implicit), for stiff models ([`crate::spectrum`]).
    Radau5,
}

impl IntegratorKind {
    /// The integrator of this kind with rtol = atol = `tol`.
    pub fn with_tol(self, tol: f64) -> IntegratorChoice {
        match self {
            Self::Rk45 => IntegratorChoice::Rk45 {
                rtol: tol,
                atol: tol,
            },
            Self::Dop853 => IntegratorChoice::Dop853 {
                rtol: tol,
                atol: tol,
            },
            Self::Adams => IntegratorChoice::Adams {
                rtol: tol,
                atol: tol,
            },
            Self::Radau5 => IntegratorChoice::Radau5 {
                rtol: tol,
                atol: tol,
            },
        }
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Rk45 => "rk45",
            Self::Dop853 => "dop853",
            Self::Adams => "adams",
            Self::Radau5 => "radau5",
        }
    }
}

/// The recommended method name and integrator per class (see the module doc for the
/// measurements behind each row).
pub const RECOMMENDED: [(MechanismClass, &str, IntegratorKind); 4] = [
    (MechanismClass::Tree, "aba", IntegratorKind::Adams),
    (
        MechanismClass::SmallLoop,
        "alf-joint",
        IntegratorKind::Adams,
    ),
    (MechanismClass::LargeLoop, "hdca", IntegratorKind::Rk45),
    (
        MechanismClass::Nonholonomic,
        "alf-index1",
        IntegratorKind::Rk45,
    ),
];

impl MechanismClass {
    /// The class of `model`, from its topology alone (no numerical analysis).
    pub fn of(model: &Model) -> Self {
        let topo = model.topology();
        if topo.nonholonomic_rows() > 0 {
            Self::Nonholonomic
        } else if topo.cut_joints().is_empty() {
            Self::Tree
        } else if model.n_bodies() < LARGE_LOOP_BODIES {
            Self::SmallLoop
        } else {
            Self::LargeLoop
        }
    }

    /// The recommended method name and integrator of this class ([`RECOMMENDED`]).
    pub fn recommended(self) -> (&'static str, IntegratorKind) {
        RECOMMENDED
            .iter()
            .find(|(c, _, _)| *c == self)
            .map(|(_, m, i)| (*m, *i))
            .unwrap_or(("alf-index1", IntegratorKind::Rk45))
    }

    /// The methods tried in order: the class's, then the general fallbacks.
    pub fn candidates(self) -> Vec<(&'static str, IntegratorKind)> {
        let mut out = vec![self.recommended()];
        for fallback in [
            ("alf-dca-proj", IntegratorKind::Adams),
            ("alf-index1", IntegratorKind::Rk45),
        ] {
            if !out.iter().any(|(m, _)| *m == fallback.0) {
                out.push(fallback);
            }
        }
        out
    }

    /// A short description for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Tree => "an open chain or tree",
            Self::SmallLoop => "a closed loop",
            Self::LargeLoop => "a large closed loop",
            Self::Nonholonomic => "a model with nonholonomic constraints",
        }
    }
}

impl fmt::Display for MechanismClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// The method and integrator family recommended for a model, and why.
#[derive(Debug)]
pub struct Recommendation {
    /// The model's class.
    pub class: MechanismClass,
    /// The method (with its crate's defaults).
    pub method: Method,
    /// The integrator family.
    pub integrator: IntegratorKind,
    /// One line: the class, the choice, and any fallback taken.
    pub reason: String,
    /// The linearized spectrum of the method's ODE at the model's initial state, or
    /// why it was not computed ([`crate::spectrum::linearized_spectrum`]).
    pub spectrum: Result<Spectrum, Skipped>,
}

impl Recommendation {
    /// The integrator family for a run over an interval of length `span`: RADAU5 when
    /// the spectrum is stiff there ([`Spectrum::is_stiff`]), else the class's
    /// [`Recommendation::integrator`]; with a line saying why when it is RADAU5.
    pub fn integrator_for(&self, span: f64) -> (IntegratorKind, Option<String>) {
        match &self.spectrum {
            Ok(s) if s.is_stiff(span) => (
                IntegratorKind::Radau5,
                Some(format!(
                    "stiff spectrum: ratio {}, largest |λ| {} 1/s, |λ|·(t_end − t₀) = {}",
                    crate::sci(s.ratio(span)),
                    crate::sci(s.largest),
                    crate::sci(s.largest * span.abs())
                )),
            ),
            _ => (self.integrator, None),
        }
    }
}

/// The recommended method and integrator for `model`: the first of its class's
/// candidates that can build the model.
///
/// ```
/// let model = mbs::builtin("five-bar")?;
/// let r = mbs::recommend::recommend(&std::sync::Arc::new(model));
/// assert_eq!(r.class, mbs::recommend::MechanismClass::SmallLoop);
/// assert_eq!(r.method.name(), "alf-joint");
/// # Ok::<(), mbs::Error>(())
/// ```
pub fn recommend(model: &Arc<Model>) -> Recommendation {
    let class = MechanismClass::of(model);
    let mut refused = Vec::new();
    for (name, integrator) in class.candidates() {
        let Ok(method) = Method::from_name(name) else {
            continue;
        };
        match crate::registry::build_front_end(&method, model) {
            Ok(_) => {
                let mut reason =
                    format!("recommended for {class}: {name} with {}", integrator.name());
                if !refused.is_empty() {
                    reason.push_str(&format!(" ({})", refused.join("; ")));
                }
                let spectrum = linearized_spectrum(&method, model);
                return Recommendation {
                    class,
                    method,
                    integrator,
                    reason,
                    spectrum,
                };
            }
            Err(e) => refused.push(format!("{name} cannot run it: {e}")),
        }
    }
    Recommendation {
        class,
        method: Method::new(mbs_alf::AlfIndex1Params::default()),
        integrator: IntegratorKind::Rk45,
        reason: format!(
            "no recommended method builds {class} ({}); alf-index1 with rk45",
            refused.join("; ")
        ),
        spectrum: Err(Skipped::Unavailable(
            "no recommended method builds it".into(),
        )),
    }
}
