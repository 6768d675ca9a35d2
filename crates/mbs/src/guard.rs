//! The facade's watch over a running simulation for a wrong motion that looks right.
//!
//! A formulation can finish with small constraint violations and still follow another
//! motion than the mechanism's: at a singular configuration (where the constraint
//! Jacobian Φ_q loses rank beyond the model's redundancy) a method without a
//! mass-orthogonal projection, or with a projection landing on the other branch, can
//! leave the true motion for another branch of the configuration space, and it still
//! satisfies Φ = 0 there. Two checks run on every output sample, for every method:
//!
//! - **Energy guard** (models whose mechanical energy is conserved: gravity, springs
//!   without damping or actuation, no drivers, no applied forces or torques): the
//!   drift |E − E₀| must stay within what the integrator's accuracy allows,
//!   `max(ENERGY_FACTOR · tol · max(1, √(steps / 1000)), ENERGY_FLOOR) · S` for the adaptive
//!   integrators (tol = max(rtol, atol)) and `FIXED_STEP_ENERGY_FRACTION · S` for the fixed-step rules,
//!   with S = max(max T, max V − min V) over the samples so far. A jump to another branch
//!   through a velocity discontinuity, or a slow drift off the true motion, breaks it;
//!   the run stops with [`FrontEndErrorKind::Failed`] saying so.
//! - **Singular-configuration watch**: the singular values of the holonomic Φ_q (in the
//!   [ṙ, ω'] layout) at the samples; with r the rank at the start, the smallest ratio
//!   σ_r / σ_max seen, when, and the joints with the largest share of the corresponding
//!   left singular vector. The energy guard's message names them, and
//!   [`crate::Trajectory::singular_passes`] reports every pass below
//!   [`SINGULAR_RATIO`]. A sample whose Φ_q is close enough to that of the last
//!   decomposed sample for Weyl's inequality to settle what its ratio would decide
//!   (above the threshold, or inside an excursion and not its deepest sample) needs no
//!   decomposition (`SingularWatch::settled`): the same passes at a fraction of the
//!   cost.
//!
//! - **Constraint guard** (every model): a holonomic violation ‖Φ‖ beyond
//!   `PHI_FRACTION` of the mechanism's length scale (the largest distance of a marker
//!   from its body's centre of mass) means the bodies no longer form the mechanism (a
//!   penalty too soft for the masses, a drift without stabilization); the run stops.
//!
//! Both are measured at the output samples only, so their cost does not grow with the
//! number of steps (models of more than [`SVD_BODY_LIMIT`] bodies skip the
//! singular-configuration watch, and so do open trees of lower pairs without drivers,
//! which have no singular configuration: [`mbs_constraints::full_rank_everywhere`];
//! models of 32 bodies or more watch every [`watch_stride`]-th sample only).

use mbs_constraints::{SystemLayout, Workspace};
use mbs_model::{ForceElement, Layout, Model, State};
use nalgebra::DMatrix;

use crate::frontend::FrontEndError;
use crate::integrator::IntegratorChoice;
use crate::measure::Measures;

/// Energy drift allowed per unit of tolerance and energy scale (adaptive integrators).
pub const ENERGY_FACTOR: f64 = 1e3;
/// Smallest energy drift allowed (adaptive integrators), as a fraction of the energy
/// scale: below it the drift is round-off and accumulated error, not a jump.
pub const ENERGY_FLOOR: f64 = 1e-7;
/// Energy drift allowed for the fixed-step rules, as a fraction of the energy scale.
pub const FIXED_STEP_ENERGY_FRACTION: f64 = 2e-2;
/// Constraint violation ‖Φ‖ allowed, as a fraction of the mechanism's length scale.
pub const PHI_FRACTION: f64 = 1e-2;
/// σ_r / σ_max below which a sample counts as (near) a singular configuration.
pub const SINGULAR_RATIO: f64 = 3e-2;
/// Largest model (bodies) whose Φ_q singular values are watched.
pub const SVD_BODY_LIMIT: usize = 64;
/// Bodies up to which every sample is watched; above, every k-th with
/// k = ⌊bodies / SVD_EVERY_SAMPLE_BODIES⌋² ([`watch_stride`]).
pub(crate) const SVD_EVERY_SAMPLE_BODIES: usize = 16;

/// Samples between two observations of the singular-configuration watch of a model of
/// `bodies` bodies: 1 up to 2·[`SVD_EVERY_SAMPLE_BODIES`] − 1 bodies, then
/// ⌊bodies / SVD_EVERY_SAMPLE_BODIES⌋². The dense SVD of Φ_q costs O(m n²) ∝ bodies³
/// per observation while a sample of the run costs ∝ bodies, and the screen by Weyl's
/// inequality does not spare the decompositions of a long loop, whose σ_r/σ_max
/// falls with its length (64 links: 89% of a run of `loop:n=64`); with the stride the
/// watch costs ∝ bodies per sample. Passes are located at the observed samples.
pub(crate) fn watch_stride(bodies: usize) -> usize {
    (bodies / SVD_EVERY_SAMPLE_BODIES).pow(2).max(1)
}

/// A pass near a singular configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct SingularPass {
    /// Time of the sample closest to the singular configuration.
    pub t: f64,
    /// σ_r / σ_max there (r = the rank of Φ_q at the start).
    pub ratio: f64,
    /// The joints (or drivers) with the largest share of the singular direction.
    pub joints: Vec<String>,
}

/// Whether the mechanical energy T + V of `model` is conserved by its exact motion:
/// no drivers, no applied forces or torques, springs without damping or actuators.
pub fn conserves_energy(model: &Model) -> bool {
    model.drivers().is_empty()
        && model.forces().iter().all(|f| match f {
            ForceElement::PointForce { .. } | ForceElement::Torque { .. } => false,
            ForceElement::SpringDamper {
                damping, actuator, ..
            }
            | ForceElement::RotationalSpringDamper {
                damping, actuator, ..
            }
            | ForceElement::PrismaticSpringDamper {
                damping, actuator, ..
            } => *damping == 0.0 && actuator.is_zero(),
            ForceElement::UnilateralSpring { damping, .. } => *damping == 0.0,
        })
}

/// The watch of one run.
#[derive(Debug)]
pub(crate) struct Guard {
    conservative: bool,
    /// Allowed drift per unit energy scale (before the step factor of adaptive runs).
    allowed_fraction: f64,
    adaptive: bool,
    e0: Option<f64>,
    t_max: f64,
    v_min: f64,
    v_max: f64,
    singular: Option<SingularWatch>,
    /// Largest distance of a marker from its body's centre of mass.
    length: f64,
    /// Whether the guards (energy, constraints) stop a run; off: watch only.
    enforce: bool,
    /// The energy guard's advice, which leaves out the running method
    /// ([`energy_hint`]).
    hint: String,
}

/// Methods with mass-orthogonal projections, which the energy guard suggests.
pub(crate) const PROJECTION_METHODS: [&str; 3] =
    ["lagrange-projection", "alf-index1", "alf-dca-proj"];

/// The energy guard's advice for a run of `method` (a name, with or without its
/// `:key=value` parameters): the methods of [`PROJECTION_METHODS`] other than the
/// running one, or tighter tolerances.
pub(crate) fn energy_hint(method: &str) -> String {
    let running = method.split(':').next().unwrap_or(method);
    let others: Vec<String> = PROJECTION_METHODS
        .iter()
        .filter(|&&m| m != running)
        .map(|m| format!("`{m}`"))
        .collect();
    let which = if others.len() < PROJECTION_METHODS.len() {
        "another method with mass-orthogonal projections"
    } else {
        "a method with mass-orthogonal projections"
    };
    format!("use {which} ({}) or tighter tolerances", others.join(", "))
}

impl Guard {
    /// The watch of a run of `model` by `method` (its name, for the hints) with
    /// `integrator`; `energy_check` turns the energy guard on (the
    /// singular-configuration watch always runs).
    pub(crate) fn new(
        model: &Model,
        method: &str,
        integrator: IntegratorChoice,
        energy_check: bool,
    ) -> Self {
        let (adaptive, allowed_fraction) = match integrator.tolerances() {
            Some((rtol, atol)) => (true, ENERGY_FACTOR * rtol.max(atol)),
            None => (false, FIXED_STEP_ENERGY_FRACTION),
        };
        Self {
            conservative: conserves_energy(model),
            enforce: energy_check,
            hint: energy_hint(method),
            length: model
                .markers()
                .iter()
                .filter(|m| !matches!(m.body, mbs_model::BodyRef::Ground))
                .map(|m| m.position.norm())
                .fold(0.0, f64::max),
            allowed_fraction,
            adaptive,
            e0: None,
            t_max: 0.0,
            v_min: f64::INFINITY,
            v_max: f64::NEG_INFINITY,
            singular: (model.n_bodies() <= SVD_BODY_LIMIT
                && !model.joints().is_empty()
                && !mbs_constraints::full_rank_everywhere(model))
            .then(|| SingularWatch::new(model)),
        }
    }

    /// The passes near singular configurations seen so far.
    pub(crate) fn singular_passes(&self) -> Vec<SingularPass> {
        self.singular.as_ref().map_or_else(Vec::new, |w| {
            let mut passes = w.passes.clone();
            passes.extend(w.current.as_ref().map(|c| c.pass(&w.names)));
            passes
        })
    }

    /// Checks the sample `s`, with measures `m` (the facade's [`crate::measure::Meter`]
    /// of `s`, shared with the trajectory), after `steps` accepted steps; an error if
    /// the motion is no longer the mechanism's.
    pub(crate) fn check(&mut self, s: &State, m: &Measures, steps: usize) -> Option<FrontEndError> {
        if let Some(w) = &mut self.singular {
            w.observe(s);
        }
        if !self.enforce {
            return None;
        }
        if self.length > 0.0 && m.phi > PHI_FRACTION * self.length {
            return Some(FrontEndError::failed(
                s.t,
                format!(
                    "wrong motion: the constraints are violated by ‖Φ‖ = {:.3e}, more than {PHI_FRACTION} of the mechanism's size ({:.3e} m): the bodies no longer form the mechanism (a penalty too soft for these masses, or a drift without stabilization); use a method with projections or a stiffer penalty",
                    m.phi, self.length
                ),
            ));
        }
        if !self.conservative {
            return None;
        }
        let e = m.kinetic + m.potential;
        if !e.is_finite() {
            return None;
        }
        let e0 = *self.e0.get_or_insert(e);
        self.t_max = self.t_max.max(m.kinetic);
        self.v_min = self.v_min.min(m.potential);
        self.v_max = self.v_max.max(m.potential);
        let scale = self.t_max.max(self.v_max - self.v_min);
        let step_factor = if self.adaptive {
            (steps as f64 / 1e3).sqrt().max(1.0)
        } else {
            1.0
        };
        let fraction = if self.adaptive {
            (self.allowed_fraction * step_factor).max(ENERGY_FLOOR)
        } else {
            self.allowed_fraction
        };
        // never below the round-off of the energies themselves (a run of 1e-300 s
        // has an energy scale of round-off size)
        let roundoff =
            1e3 * f64::EPSILON * (e0.abs() + self.t_max + self.v_min.abs().max(self.v_max.abs()));
        let allowed = (fraction * scale).max(roundoff);
        let drift = (e - e0).abs();
        if scale <= 0.0 || drift <= allowed {
            return None;
        }
        let near = self
            .singular
            .as_ref()
            .and_then(SingularWatch::closest)
            .map_or_else(String::new, |p| {
                format!(
                    "; the motion passed near a singular configuration at t ≈ {:.4} (σ_r/σ_max of Φ_q = {:.1e}, joints {}), where a method can leave the true motion for another branch",
                    p.t,
                    p.ratio,
                    p.joints.join(", ")
                )
            });
        Some(FrontEndError::failed(
            s.t,
            format!(
                "wrong motion: the energy of this conservative model drifted by {drift:.3e} J, more than the {allowed:.3e} J its integrator's accuracy allows (energy scale {scale:.3e} J){near}. The result would not be the mechanism's motion; {}",
                self.hint
            ),
        ))
    }
}

/// Singular values of the holonomic Φ_q at the samples.
#[derive(Debug)]
struct SingularWatch {
    model: Model,
    sys: SystemLayout,
    ws: Workspace,
    jac: DMatrix<f64>,
    names: Vec<String>,
    /// Rank at the first sample.
    rank: Option<usize>,
    /// Passes below [`SINGULAR_RATIO`] (one per excursion, at its deepest sample).
    passes: Vec<SingularPass>,
    /// The deepest sample of the current excursion below the ratio.
    current: Option<Deepest>,
    /// The last sample whose singular values were computed: the reference of
    /// [`SingularWatch::ratio_bounds`].
    reference: Option<Reference>,
    /// Samples whose singular values were computed (the others were screened out).
    decompositions: usize,
    /// Observe every `stride`-th sample ([`watch_stride`]).
    stride: usize,
    /// Samples offered so far.
    offered: usize,
}

/// What the bounds of `SingularWatch::ratio_bounds` settle about a sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Settled {
    /// σ_r / σ_max ≥ [`SINGULAR_RATIO`].
    Regular,
    /// Below the ratio, and not below the current excursion's deepest ratio.
    NotDeeper,
}

/// Φ_q (holonomic rows) at the last decomposed sample with its σ_r and σ_max.
#[derive(Debug)]
struct Reference {
    jac: DMatrix<f64>,
    sigma_r: f64,
    sigma_max: f64,
}

/// Slack of the screen, relative to σ_max: covers the round-off of the reference's
/// computed singular values (a backward-stable SVD is exact for a matrix within a
/// few ε‖Φ_q‖ of Φ_q) and of the Frobenius norm of the difference.
const SCREEN_SLACK: f64 = 1e-10;

/// The deepest sample of an excursion below [`SINGULAR_RATIO`]: its Φ_q, kept until
/// the excursion ends so that the singular vectors are computed once per pass.
#[derive(Debug, Clone)]
struct Deepest {
    t: f64,
    ratio: f64,
    /// Index of σ_r among the singular values.
    k: usize,
    jac: DMatrix<f64>,
}

impl Deepest {
    /// The pass, with the joints of the largest shares of σ_r's left singular vector.
    fn pass(&self, names: &[String]) -> SingularPass {
        let svd = self.jac.clone().svd(true, false);
        let k = SingularWatch::rank_index(&svd.singular_values, self.ratio, self.k);
        let u = svd.u.as_ref().map(|u| u.column(k).into_owned());
        let mut share: Vec<(f64, &str)> = u
            .map(|u| {
                u.iter()
                    .zip(names)
                    .map(|(x, n)| (x * x, n.as_str()))
                    .collect()
            })
            .unwrap_or_default();
        share.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut joints: Vec<String> = Vec::new();
        for (w, n) in share {
            if w < 0.05 || joints.len() >= 4 {
                break;
            }
            if !joints.iter().any(|j| j == n) {
                joints.push(n.to_string());
            }
        }
        SingularPass {
            t: self.t,
            ratio: self.ratio,
            joints,
        }
    }
}

impl SingularWatch {
    fn new(model: &Model) -> Self {
        let sys = SystemLayout::new(model, Layout::EulerParamsOmega);
        let ws = Workspace::new(&sys);
        let nh = sys.n_holonomic();
        let names = (0..nh)
            .map(|r| {
                sys.source_of_row(r)
                    .map_or_else(|| format!("row {r}"), |src| sys.source_name(model, src))
            })
            .collect();
        let jac = DMatrix::zeros(sys.n_rows(), sys.n_v());
        Self {
            model: model.clone(),
            sys,
            ws,
            jac,
            names,
            rank: None,
            passes: Vec::new(),
            current: None,
            reference: None,
            decompositions: 0,
            stride: watch_stride(model.n_bodies()),
            offered: 0,
        }
    }

    /// Bounds [lower, upper] on σ_r / σ_max of `jac` without a decomposition, from
    /// the last decomposed sample. Weyl's inequality for singular values (Horn &
    /// Johnson, *Matrix Analysis*, 2nd ed., Cor. 7.3.5): |σ_i(A) − σ_i(B)| ≤ ‖A − B‖₂
    /// for every i, so with d ≥ ‖Φ_q − Φ_q,ref‖₂ (plus [`SCREEN_SLACK`] σ_max,ref),
    /// (σ_r,ref − d) / (σ_max,ref + d) ≤ σ_r / σ_max ≤ (σ_r,ref + d) / (σ_max,ref − d).
    /// `None` without a reference or for non-finite entries.
    fn ratio_bounds(&self, jac: &DMatrix<f64>) -> Option<(f64, f64)> {
        let r = self.reference.as_ref()?;
        if r.jac.shape() != jac.shape() {
            return None;
        }
        // ‖E‖₂ ≤ min(‖E‖_F, √(‖E‖₁‖E‖∞)) (Golub & Van Loan, 4th ed., §2.3.2)
        let (rows, cols) = jac.shape();
        let mut frobenius2 = 0.0;
        let mut row_sums = [0.0; 64];
        let mut norm_1: f64 = 0.0;
        for c in 0..cols {
            let mut col_sum = 0.0;
            for i in 0..rows {
                let e = jac[(i, c)] - r.jac[(i, c)];
                frobenius2 += e * e;
                col_sum += e.abs();
                if i < row_sums.len() {
                    row_sums[i] += e.abs();
                }
            }
            norm_1 = norm_1.max(col_sum);
        }
        let mut bound = frobenius2.sqrt();
        if rows <= row_sums.len() {
            let norm_inf = row_sums[..rows].iter().fold(0.0_f64, |a, b| a.max(*b));
            bound = bound.min((norm_1 * norm_inf).sqrt());
        }
        let d = bound + SCREEN_SLACK * r.sigma_max;
        let lower = ((r.sigma_r - d) / (r.sigma_max + d)).max(0.0);
        let upper = if r.sigma_max > d {
            (r.sigma_r + d) / (r.sigma_max - d)
        } else {
            f64::INFINITY
        };
        (lower.is_finite() && !upper.is_nan()).then_some((lower, upper))
    }

    /// Whether the bounds of [`Self::ratio_bounds`] settle what the watch does with
    /// the sample without its ratio: above the threshold (no excursion, or the current
    /// one ends), or inside the current excursion (below the threshold) and no deeper
    /// than its deepest sample so far. Consecutive samples are close, so most samples
    /// away from the deepest point of a pass are settled by the bounds.
    fn settled(&self, jac: &DMatrix<f64>) -> Option<Settled> {
        let (lower, upper) = self.ratio_bounds(jac)?;
        if lower >= SINGULAR_RATIO {
            return Some(Settled::Regular);
        }
        let deepest = self.current.as_ref()?;
        (upper < SINGULAR_RATIO && lower >= deepest.ratio).then_some(Settled::NotDeeper)
    }

    /// Observes every [`watch_stride`]-th sample, the first included.
    fn observe(&mut self, s: &State) {
        self.offered += 1;
        if (self.offered - 1).is_multiple_of(self.stride) {
            self.observe_screened(s, true);
        }
    }

    /// [`Self::observe`], with the screen on or (tests: the reference) off.
    fn observe_screened(&mut self, s: &State, screen: bool) {
        let Some(jac) = self.holonomic_jacobian(s) else {
            return;
        };
        match screen.then(|| self.settled(&jac)).flatten() {
            Some(Settled::Regular) => {
                if let Some(p) = self.current.take() {
                    self.passes.push(p.pass(&self.names));
                }
                return;
            }
            Some(Settled::NotDeeper) => return,
            None => {}
        }
        // the singular values only; the left singular vectors that name the joints
        // are computed once per recorded pass (`Deepest::pass`)
        self.decompositions += 1;
        let sv = jac.clone().svd(false, false).singular_values;
        let Some((k, ratio)) = self.smallest_kept(&sv) else {
            return;
        };
        self.reference = Some(Reference {
            jac: jac.clone(),
            sigma_r: sv[k],
            sigma_max: sv.max(),
        });
        if ratio < SINGULAR_RATIO {
            if self.current.as_ref().is_none_or(|p| ratio < p.ratio) {
                self.current = Some(Deepest {
                    t: s.t,
                    ratio,
                    k,
                    jac,
                });
            }
        } else if let Some(p) = self.current.take() {
            self.passes.push(p.pass(&self.names));
        }
    }

    /// The index of σ_r (r = the rank at the first sample, fixed then) among the
    /// singular values `sv` and σ_r / σ_max; `None` for a zero or non-finite σ_max.
    fn smallest_kept(&mut self, sv: &nalgebra::DVector<f64>) -> Option<(usize, f64)> {
        let smax = sv.max();
        if !(smax > 0.0 && smax.is_finite()) {
            return None;
        }
        let mut order: Vec<usize> = (0..sv.len()).collect();
        order.sort_by(|a, b| sv[*b].total_cmp(&sv[*a]));
        let rank = *self
            .rank
            .get_or_insert_with(|| sv.iter().filter(|x| **x > 1e-9 * smax).count());
        if rank == 0 || rank > order.len() {
            return None;
        }
        let k = order[rank - 1];
        Some((k, sv[k] / smax))
    }

    /// The index in `sv` (the values of a second decomposition, with vectors) whose
    /// ratio to the largest is closest to `ratio`; `k` if they agree to round-off.
    fn rank_index(sv: &nalgebra::DVector<f64>, ratio: f64, k: usize) -> usize {
        let smax = sv.max();
        let off = |i: usize| (sv[i] / smax - ratio).abs();
        if k < sv.len() && off(k) <= 1e-12 {
            return k;
        }
        (0..sv.len())
            .min_by(|a, b| off(*a).total_cmp(&off(*b)))
            .unwrap_or(0)
    }

    /// Φ_q (holonomic rows) at `s`, or `None` where it cannot be evaluated.
    fn holonomic_jacobian(&mut self, s: &State) -> Option<DMatrix<f64>> {
        let s = s.to_layout(Layout::EulerParamsOmega);
        self.ws
            .evaluate_constraints(&self.model, &self.sys, &s)
            .ok()?;
        self.ws.phi_q_dense(&self.sys, &mut self.jac).ok()?;
        Some(self.jac.rows(0, self.sys.n_holonomic()).into_owned())
    }

    /// The closest approach to a singular configuration so far, if below the ratio.
    fn closest(&self) -> Option<SingularPass> {
        let current = self.current.as_ref().map(|c| c.pass(&self.names));
        self.passes
            .iter()
            .chain(current.iter())
            .min_by(|a, b| a.ratio.total_cmp(&b.ratio))
            .cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The samples of a run of built-in `name` (guard off, so it runs to the end).
    fn samples(name: &str, t_end: f64, n: usize) -> (Model, Vec<State>) {
        let sim = crate::Simulation::builtin(name)
            .unwrap()
            .method("alf-dca-proj".parse().unwrap())
            .t_end(t_end)
            .samples(n)
            .guard(false);
        let traj = sim.run().unwrap();
        (sim.model().clone(), traj.states)
    }

    /// The energy guard's hint never recommends the running method (issue #30: with
    /// `alf-dca-proj:alpha=1e2` it recommended `alf-dca-proj`), with or without
    /// parameters, and names the other projection methods.
    #[test]
    fn energy_hint_never_names_the_running_method() {
        for running in PROJECTION_METHODS {
            for method in [running.to_string(), format!("{running}:alpha=1e2")] {
                let hint = energy_hint(&method);
                assert!(!hint.contains(&format!("`{running}`")), "{method}: {hint}");
                assert!(hint.contains("another method"), "{method}: {hint}");
                for other in PROJECTION_METHODS.iter().filter(|&&m| m != running) {
                    assert!(hint.contains(&format!("`{other}`")), "{method}: {hint}");
                }
            }
        }
        let hint = energy_hint("alf:kappa=1e2");
        for m in PROJECTION_METHODS {
            assert!(hint.contains(&format!("`{m}`")), "{hint}");
        }
    }

    /// The screened watch records the same passes as the watch that decomposes Φ_q at
    /// every sample, with fewer decompositions (samples 1 ms apart, as in the bench).
    #[test]
    fn screen_keeps_the_passes_and_skips_regular_samples() {
        for (name, t_end) in [
            ("five-bar-singular", 2.0),
            ("two-four-bars", 3.0),
            ("five-bar", 1.0),
        ] {
            let (model, states) = samples(name, t_end, (1000.0 * t_end) as usize);
            let mut screened = SingularWatch::new(&model);
            let mut every = SingularWatch::new(&model);
            for s in &states {
                screened.observe_screened(s, true);
                every.observe_screened(s, false);
            }
            let passes = |w: &SingularWatch| {
                let mut p = w.passes.clone();
                p.extend(w.current.as_ref().map(|c| c.pass(&w.names)));
                p
            };
            assert_eq!(passes(&screened), passes(&every), "{name}");
            assert_eq!(every.decompositions, states.len(), "{name}");
            assert!(
                screened.decompositions < states.len() * 3 / 4,
                "{name}: {} of {} samples decomposed",
                screened.decompositions,
                states.len()
            );
            if name != "five-bar" {
                assert!(!passes(&every).is_empty(), "{name}: no singular pass seen");
            }
        }
    }

    /// Every sample is watched on models below 32 bodies (every standard model), and
    /// the stride grows with the square of the size above.
    #[test]
    fn watch_stride_spares_only_large_models() {
        assert!((1..32).all(|n| watch_stride(n) == 1));
        assert_eq!(watch_stride(32), 4);
        assert_eq!(watch_stride(48), 9);
        assert_eq!(watch_stride(SVD_BODY_LIMIT), 16);
    }

    /// A strided watch observes the first sample and every stride-th after it.
    #[test]
    fn strided_watch_observes_every_stride_th_sample() {
        let (model, states) = samples("five-bar-singular", 2.0, 200);
        let mut every = SingularWatch::new(&model);
        let mut strided = SingularWatch::new(&model);
        strided.stride = 4;
        for s in &states {
            every.observe(s);
            strided.observe(s);
        }
        assert_eq!(every.offered, states.len());
        assert!(strided.decompositions <= states.len().div_ceil(4));
        assert!(strided.decompositions >= 1);
        assert!(
            !strided.passes.is_empty() || strided.current.is_some(),
            "the pass is still seen"
        );
    }
}
