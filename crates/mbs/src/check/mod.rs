//! `mbs check`: validation and topology report of a model: bodies, joints, loops,
//! Grübler vs rank-based mobility, redundant constraints, consistency of the initial
//! state (naming the worst joints), mass properties of the bodies. Every part is
//! O(n) in time and memory on chains, trees and ladders of loops: the rank of Φ_q
//! comes from the sparse elimination of `mbs_constraints::mobility_limited`, under
//! the memory guard of `mbs_formulation::memory`.

mod bodies;
mod violations;

use std::fmt;

use mbs_constraints::{ConstraintError, ConstraintSource, Mobility, SystemLayout};
use mbs_model::{BodyRef, Layout, Model, State};
use serde::Serialize;

pub(crate) use bodies::body_masses;
pub use bodies::{BodyMass, MassSource};
pub use violations::Violation;

use crate::frontend::SAMPLE_LAYOUT;
use crate::measure::Meter;

/// The report of [`check`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckReport {
    /// Model name.
    pub model: String,
    /// Moving bodies.
    pub bodies: usize,
    /// Joints (two-marker constraints).
    pub joints: usize,
    /// Drivers (rheonomic constraints).
    pub drivers: usize,
    /// Force elements.
    pub forces: usize,
    /// Holonomic constraint equations (joints and drivers, without Euler-parameter
    /// normalization).
    pub holonomic_rows: usize,
    /// Nonholonomic constraint equations.
    pub nonholonomic_rows: usize,
    /// Independent closed loops (joints − bodies − 1 + connected components, ground
    /// included as a node).
    pub loops: usize,
    /// Connected components of the body–joint graph not attached to ground.
    pub floating_components: usize,
    /// Point masses among the bodies (3 degrees of freedom each, not 6).
    pub point_masses: usize,
    /// Grübler–Kutzbach mobility F − (holonomic rows), F = 6 per body, 3 per point
    /// mass.
    pub grubler_mobility: i64,
    /// Rank of the holonomic Jacobian at the initial state, if computed.
    pub jacobian_rank: Option<usize>,
    /// Mobility F − rank(Φ_q), if computed.
    pub rank_mobility: Option<i64>,
    /// Redundant constraint equations, rows − rank, if computed.
    pub redundant: Option<usize>,
    /// The joints and drivers with a row that depends on earlier rows (rows in model
    /// order): one choice of constraints that make the model redundant, with the
    /// number of dependent rows of each.
    pub redundant_constraints: Vec<(String, usize)>,
    /// ‖Φ(q₀)‖₂ of the initial state (NaN if not computed).
    pub initial_phi: f64,
    /// ‖Φ̇(q₀, q̇₀)‖₂ of the initial state (NaN if not computed).
    pub initial_phi_dot: f64,
    /// Kinetic and potential energy of the initial state.
    pub initial_energy: (f64, f64),
    /// The joints and drivers an inconsistent initial state violates most, worst
    /// first (at most 3; empty when the state is consistent).
    pub worst_violations: Vec<Violation>,
    /// Per joint: name, kind, body i, body j.
    pub joint_list: Vec<(String, String, String, String)>,
    /// Per body: mass, centre of mass, inertia and where they come from.
    pub body_masses: Vec<BodyMass>,
    /// Notes and warnings.
    pub notes: Vec<String>,
}

/// Relative singular-value tolerance of the rank of Φ_q.
pub const RANK_TOL: f64 = 1e-9;

/// Joints, bodies and redundant constraints listed by the text report (it says how
/// many more there are); the JSON report lists all.
pub const LISTED: usize = 20;

/// Tolerance on ‖Φ‖ and ‖Φ̇‖ of a consistent initial state.
pub const CONSISTENCY_TOL: f64 = 1e-8;

impl CheckReport {
    /// Whether the initial state satisfies the constraints (unknown counts as yes).
    pub fn initial_state_consistent(&self) -> bool {
        consistent(self.initial_phi, self.initial_phi_dot)
    }
}

/// Validates (the model is already valid by construction) and analyses `model`.
///
/// ```
/// let r = mbs::check(&mbs::builtin("double-loop")?);
/// assert_eq!((r.grubler_mobility, r.rank_mobility, r.redundant), (-2, Some(4), Some(6)));
/// assert_eq!(r.loops, 2);
/// assert!(r.initial_state_consistent());
/// # Ok::<(), mbs::Error>(())
/// ```
pub fn check(model: &Model) -> CheckReport {
    let n = model.n_bodies();
    let point_masses = model.bodies().iter().filter(|b| b.point_mass).count();
    let free_dof: i64 = model.bodies().iter().map(|b| b.free_dof() as i64).sum();
    let holonomic: usize = model
        .joints()
        .iter()
        .map(|j| j.kind.holonomic_rows())
        .sum::<usize>()
        + model.drivers().len();
    let nonholonomic: usize = model
        .joints()
        .iter()
        .map(|j| j.kind.nonholonomic_rows())
        .sum();
    // Graph: node 0 = ground, node i + 1 = body i.
    let mut parent: Vec<usize> = (0..=n).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let node = |b: BodyRef| b.body().map_or(0, |id| id.0 + 1);
    let mut joint_list = Vec::new();
    let mut tree_edges = 0;
    for (k, j) in model.joints().iter().enumerate() {
        let (bi, bj) = model.joint_bodies(mbs_model::JointId(k));
        let (a, b) = (find(&mut parent, node(bi)), find(&mut parent, node(bj)));
        if a != b {
            parent[a] = b;
            tree_edges += 1;
        }
        joint_list.push((
            j.name.clone(),
            j.kind.label().to_string(),
            model.body_ref_name(bi).to_string(),
            model.body_ref_name(bj).to_string(),
        ));
    }
    let loops = model.joints().len() - tree_edges;
    let ground_root = find(&mut parent, 0);
    let mut roots: Vec<usize> = (1..=n)
        .map(|i| find(&mut parent, i))
        .filter(|r| *r != ground_root)
        .collect();
    roots.sort_unstable();
    roots.dedup();
    let initial = State::initial(model, SAMPLE_LAYOUT);
    // the meter's storage is dropped before the rank's
    let m = Meter::new(model).measure(&initial, None);
    let mut notes = Vec::new();
    if !roots.is_empty() {
        notes.push(format!(
            "{} group(s) of bodies not connected to ground by joints (free-floating)",
            roots.len()
        ));
    }
    if point_masses > 0 {
        notes.push(format!(
            "{point_masses} point mass(es): 3 degrees of freedom each (their rotation is not a degree of freedom)"
        ));
    }
    if m.phi.is_nan() {
        notes.push("the constraints could not be evaluated at the initial state".into());
    }
    let mob = match rank_of_phi_q(model, &initial) {
        Ok(mb) => Some(mb),
        Err(note) => {
            notes.push(note);
            None
        }
    };
    if let Some(mb) = &mob
        && mb.velocity_dof != mb.mobility
    {
        notes.push(format!(
            "nonholonomic constraints: {} velocity degrees of freedom",
            mb.velocity_dof
        ));
    }
    let redundant_constraints = mob
        .as_ref()
        .map(|mb| redundant_constraints(model, &mb.dependent))
        .unwrap_or_default();
    let rank = mob.as_ref().map(|mb| mb.rank_holonomic);
    let redundant = mob
        .as_ref()
        .map(|mb| mb.holonomic_rows.saturating_sub(mb.rank_holonomic));
    CheckReport {
        model: model.name().to_string(),
        bodies: n,
        joints: model.joints().len(),
        drivers: model.drivers().len(),
        forces: model.forces().len(),
        holonomic_rows: holonomic,
        nonholonomic_rows: nonholonomic,
        loops,
        floating_components: roots.len(),
        point_masses,
        grubler_mobility: free_dof - holonomic as i64,
        jacobian_rank: rank,
        rank_mobility: rank.map(|r| free_dof - r as i64),
        redundant,
        redundant_constraints,
        initial_phi: m.phi,
        initial_phi_dot: m.phi_dot,
        initial_energy: (m.kinetic, m.potential),
        worst_violations: if consistent(m.phi, m.phi_dot) {
            Vec::new()
        } else {
            violations::worst_violations(model, &initial, CONSISTENCY_TOL)
        },
        joint_list,
        body_masses: bodies::body_masses(model),
        notes,
    }
}

fn consistent(phi: f64, phi_dot: f64) -> bool {
    !(phi > CONSISTENCY_TOL || phi_dot > CONSISTENCY_TOL)
}

/// Rank of Φ_q at `state` by sparse elimination, its storage limited to the share of
/// the available memory of the dense front-ends' guard; `Err` is the note that says
/// why it is not reported (the storage limit names the sizes).
fn rank_of_phi_q(model: &Model, state: &State) -> Result<Mobility, String> {
    let sys = SystemLayout::new(model, Layout::EulerParamsOmega);
    let state = state.to_layout(Layout::EulerParamsOmega);
    let available = mbs_formulation::memory::available_bytes();
    let limit = mbs_formulation::memory::max_entries(available);
    match mbs_constraints::mobility_limited(model, &sys, &state, RANK_TOL, limit) {
        Ok(mb) => Ok(mb),
        Err(ConstraintError::StorageLimit {
            what,
            rows,
            columns,
            entries,
            ..
        }) => {
            let what = format!(
                "the rank of Φ_q ({rows} rows × {columns} columns) is not reported: the rows and fill of the {what} ({entries} entries and more)"
            );
            let advice = "the mechanism's loops are coupled too densely for the elimination";
            Err(
                mbs_formulation::memory::check_storage(&what, entries as u128, available, advice)
                    .err()
                    .map_or(what, |e| e.to_string()),
            )
        }
        Err(e) => Err(format!("the rank of Φ_q could not be computed: {e}")),
    }
}

/// Names the joints and drivers of the dependent rows, with their row counts.
fn redundant_constraints(
    model: &Model,
    dependent: &[(usize, Option<ConstraintSource>)],
) -> Vec<(String, usize)> {
    // a constraint's rows are consecutive: count runs of one source
    let mut out: Vec<(String, usize)> = Vec::new();
    let mut last = None;
    for (row, source) in dependent {
        if source.is_some() && *source == last {
            if let Some((_, k)) = out.last_mut() {
                *k += 1;
            }
            continue;
        }
        last = *source;
        let name = match source {
            Some(ConstraintSource::Joint(id)) => format!("joint `{}`", model.joint(*id).name),
            Some(ConstraintSource::Driver(id)) => format!("driver `{}`", model.driver(*id).name),
            Some(other) => format!("{other:?}"),
            None => format!("row {row}"),
        };
        out.push((name, 1));
    }
    out
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |v: Option<i64>| v.map_or("n/a".to_string(), |v| v.to_string());
        let num = |v: f64| {
            if v.is_nan() {
                "n/a".to_string()
            } else {
                format!("{v:.3e}")
            }
        };
        writeln!(f, "model `{}`: valid", self.model)?;
        if self.point_masses > 0 {
            writeln!(
                f,
                "  bodies               {} ({} point masses)",
                self.bodies, self.point_masses
            )?;
        } else {
            writeln!(f, "  bodies               {}", self.bodies)?;
        }
        writeln!(f, "  joints               {}", self.joints)?;
        writeln!(f, "  drivers              {}", self.drivers)?;
        writeln!(f, "  force elements       {}", self.forces)?;
        writeln!(
            f,
            "  constraint rows      {} holonomic, {} nonholonomic",
            self.holonomic_rows, self.nonholonomic_rows
        )?;
        writeln!(f, "  independent loops    {}", self.loops)?;
        writeln!(f, "  Grübler mobility     {}", self.grubler_mobility)?;
        writeln!(
            f,
            "  rank of Φ_q          {}",
            opt(self.jacobian_rank.map(|r| r as i64))
        )?;
        writeln!(f, "  rank-based mobility  {}", opt(self.rank_mobility))?;
        write!(
            f,
            "  redundant equations  {}",
            opt(self.redundant.map(|r| r as i64))
        )?;
        if self.redundant_constraints.is_empty() {
            writeln!(f)?;
        } else {
            let list: Vec<String> = self
                .redundant_constraints
                .iter()
                .take(LISTED)
                .map(|(n, k)| format!("{n} ({k} row{})", if *k == 1 { "" } else { "s" }))
                .collect();
            let more = self.redundant_constraints.len().saturating_sub(LISTED);
            let more = if more > 0 {
                format!(" and {more} more (`--json` lists all)")
            } else {
                String::new()
            };
            writeln!(f, ": dependent on earlier rows: {}{more}", list.join(", "))?;
        }
        let consistency = if self.initial_phi.is_nan() {
            "not checked"
        } else if self.initial_state_consistent() {
            "consistent"
        } else {
            "INCONSISTENT: `mbs run` assembles it by a mass-orthogonal projection and says how far it moved"
        };
        writeln!(
            f,
            "  initial state        ‖Φ‖₂ = {}, ‖Φ̇‖₂ = {} ({consistency})",
            num(self.initial_phi),
            num(self.initial_phi_dot)
        )?;
        for v in &self.worst_violations {
            writeln!(
                f,
                "    violated by {}: ‖Φ‖₂ = {}, ‖Φ̇‖₂ = {}",
                v.constraint,
                num(v.phi),
                num(v.phi_dot)
            )?;
        }
        writeln!(
            f,
            "  initial energy       T = {:.6}, V = {:.6}",
            self.initial_energy.0 + 0.0,
            self.initial_energy.1 + 0.0
        )?;
        let more = |f: &mut fmt::Formatter<'_>, total: usize, what: &str| {
            if total > LISTED {
                writeln!(
                    f,
                    "    … and {} more {what} (`--json` lists all)",
                    total - LISTED
                )
            } else {
                Ok(())
            }
        };
        if !self.joint_list.is_empty() {
            writeln!(f, "  joints:")?;
            for (name, kind, bi, bj) in self.joint_list.iter().take(LISTED) {
                writeln!(f, "    {name:<16} {kind:<14} {bi} – {bj}")?;
            }
            more(f, self.joint_list.len(), "joints")?;
        }
        if !self.body_masses.is_empty() {
            writeln!(
                f,
                "  bodies (mass; centre of mass c₀ at t = 0, global — the body frame's origin; centroidal inertia J', body axes):"
            )?;
            for b in self.body_masses.iter().take(LISTED) {
                writeln!(f, "    {b}")?;
            }
            more(f, self.body_masses.len(), "bodies")?;
        }
        for n in &self.notes {
            writeln!(f, "  note: {n}")?;
        }
        Ok(())
    }
}
