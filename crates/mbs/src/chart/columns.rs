//! The output columns a plot can show, named as in `trajectory.csv` (energies,
//! constraint norms, `<body>.<component>`) and `joints.csv` (`<joint>.<quantity>`:
//! joint coordinates and rates, reactions, driver efforts), and the multipliers of
//! `joints.json` (`<joint>.<row>`); a name may carry its unit (`pivot.force_x [N]`)
//! or not (`pivot.force_x`). When two tables use one name, the first of
//! trajectory, joints, multipliers is meant.

use mbs_model::Model;

use crate::error::Error;
use crate::joints::JointResults;
use crate::trajectory::{COMPONENTS, Trajectory};

/// A scalar column of `trajectory.csv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    /// `kinetic_energy`.
    Kinetic,
    /// `potential_energy`.
    Potential,
    /// `total_energy`.
    Total,
    /// `phi_norm`.
    Phi,
    /// `phi_dot_norm`.
    PhiDot,
    /// `phi_ddot_norm`.
    PhiDdot,
}

const SCALARS: [(Scalar, &str, &str); 6] = [
    (Scalar::Kinetic, "kinetic_energy", "J"),
    (Scalar::Potential, "potential_energy", "J"),
    (Scalar::Total, "total_energy", "J"),
    (Scalar::Phi, "phi_norm", "1"),
    (Scalar::PhiDot, "phi_dot_norm", "1/s"),
    (Scalar::PhiDdot, "phi_ddot_norm", "1/s²"),
];

/// Where a column's values come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A scalar of the trajectory.
    Scalar(Scalar),
    /// Component `component` (index into [`COMPONENTS`]) of body `body`.
    Body {
        /// Body index.
        body: usize,
        /// Index into [`COMPONENTS`].
        component: usize,
    },
    /// Column `k` of [`JointResults::columns`].
    Joint(usize),
    /// Column `k` of [`JointResults::multipliers`].
    Multiplier(usize),
}

/// One output column: its name (without the unit), unit and source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// Name as in the CSV header, without the unit, e.g. `link1.x`, `pivot.force_x`.
    pub name: String,
    /// Unit, e.g. `m`, `N`, `1`.
    pub unit: String,
    /// Where the values come from.
    pub source: Source,
}

impl Column {
    /// `name [unit]`.
    pub fn label(&self) -> String {
        format!("{} [{}]", self.name, self.unit)
    }

    /// Whether the values come from [`JointResults`].
    pub fn needs_joints(&self) -> bool {
        matches!(self.source, Source::Joint(_) | Source::Multiplier(_))
    }
}

/// The unit of a body component.
fn component_unit(component: &str) -> &'static str {
    match component {
        "x" | "y" | "z" => "m",
        "vx" | "vy" | "vz" => "m/s",
        "wx" | "wy" | "wz" => "rad/s",
        _ => "1",
    }
}

/// `name [unit]` split into name and unit (`1` when there is none).
fn split_unit(header: &str) -> (String, String) {
    match header.rsplit_once(" [") {
        Some((n, u)) => (n.to_string(), u.trim_end_matches(']').to_string()),
        None => (header.to_string(), "1".to_string()),
    }
}

/// Every column a plot of a run can show, in the order of the files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Catalog {
    columns: Vec<Column>,
}

impl Catalog {
    /// The columns of `trajectory.csv` for bodies named `body_names` (no joint results).
    pub fn of_bodies<S: AsRef<str>>(body_names: &[S]) -> Self {
        let mut columns: Vec<Column> = SCALARS
            .iter()
            .map(|(s, name, unit)| Column {
                name: (*name).to_string(),
                unit: (*unit).to_string(),
                source: Source::Scalar(*s),
            })
            .collect();
        for (body, b) in body_names.iter().enumerate() {
            for (component, c) in COMPONENTS.iter().enumerate() {
                columns.push(Column {
                    name: format!("{}.{c}", b.as_ref()),
                    unit: component_unit(c).to_string(),
                    source: Source::Body { body, component },
                });
            }
        }
        Self { columns }
    }

    /// The columns of a trajectory (no joint results).
    pub fn of_trajectory(traj: &Trajectory) -> Self {
        Self::of_bodies(&traj.body_names)
    }

    /// The columns of a run of `model`: `trajectory.csv`, `joints.csv` and the
    /// multipliers (known before the run, so that a misspelt name is reported first).
    pub fn of_model(model: &Model) -> Self {
        let names: Vec<&str> = model.bodies().iter().map(|b| b.name.as_str()).collect();
        let mut cat = Self::of_bodies(&names);
        let (joints, multipliers) = crate::joints::column_names(model);
        let tables: [(Vec<String>, fn(usize) -> Source); 2] =
            [(joints, Source::Joint), (multipliers, Source::Multiplier)];
        for (headers, source) in tables {
            for (k, h) in headers.iter().enumerate() {
                let (name, unit) = split_unit(h);
                cat.columns.push(Column {
                    name,
                    unit,
                    source: source(k),
                });
            }
        }
        cat
    }

    /// Every column.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// A column by name, with or without its unit.
    pub fn get(&self, name: &str) -> Option<&Column> {
        let name = name.trim();
        self.columns
            .iter()
            .find(|c| c.name == name || c.label() == name)
    }

    /// Comma-separated names (e.g. `link1.x,pivot.force_y`) as columns; a name that is
    /// none is an error that lists the closest names.
    ///
    /// ```
    /// let model = mbs::builtin("double-pendulum")?;
    /// let cat = mbs::chart::columns::Catalog::of_model(&model);
    /// let cols = cat.parse("link1.x, total_energy")?;
    /// assert_eq!(cols[1].unit, "J");
    /// let err = cat.parse("link1.xx").unwrap_err().to_string();
    /// assert!(err.contains("link1.x"), "{err}");
    /// # Ok::<(), mbs::Error>(())
    /// ```
    pub fn parse(&self, spec: &str) -> Result<Vec<Column>, Error> {
        spec.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|item| {
                self.get(item).cloned().ok_or_else(|| {
                    let close = self.closest(item, 6);
                    let element = item.split(" [").next().unwrap_or(item);
                    let element = element.rsplit_once('.').map_or(element, |(e, _)| e);
                    let of_element: Vec<&str> = self
                        .columns
                        .iter()
                        .filter(|c| c.name.rsplit_once('.').is_some_and(|(e, _)| e == element))
                        .map(|c| c.name.as_str())
                        .collect();
                    let requirement = if close.is_empty() && !of_element.is_empty() {
                        format!(
                            "must name a column of trajectory.csv or joints.csv; those of `{element}`: {}",
                            of_element.join(", ")
                        )
                    } else if close.is_empty() {
                        format!(
                            "must name a column of trajectory.csv or joints.csv, e.g. {}",
                            self.examples()
                        )
                    } else {
                        format!(
                            "must name a column of trajectory.csv or joints.csv; closest: {}",
                            close.join(", ")
                        )
                    };
                    Error::param("plot", "coords", requirement, item)
                })
            })
            .collect()
    }

    /// A few names of different kinds, for an error message.
    fn examples(&self) -> String {
        let mut out: Vec<&str> = Vec::new();
        let mut kinds = Vec::new();
        for c in &self.columns {
            let kind = std::mem::discriminant(&c.source);
            if !kinds.contains(&kind) {
                kinds.push(kind);
                out.push(&c.name);
            }
        }
        out.join(", ")
    }

    /// Up to `n` names closest to `item` (edit distance, case-insensitive; names of the
    /// same element first), nearest first.
    fn closest(&self, item: &str, n: usize) -> Vec<String> {
        let item = item.split(" [").next().unwrap_or(item).to_lowercase();
        let element = item.rsplit_once('.').map(|(e, _)| e.to_string());
        let mut scored: Vec<(usize, &str)> = self
            .columns
            .iter()
            .map(|c| {
                let name = c.name.to_lowercase();
                let mut d = edit_distance(&item, &name);
                let same_element = element.is_some()
                    && name.rsplit_once('.').map(|(e, _)| e.to_string()) == element;
                if same_element {
                    d = d.saturating_sub(1);
                }
                (d, c.name.as_str())
            })
            .collect();
        scored.sort_by_key(|(d, _)| *d);
        let limit = (item.chars().count() / 3).max(3);
        scored
            .into_iter()
            .filter(|(d, _)| *d <= limit)
            .take(n)
            .map(|(_, s)| s.to_string())
            .collect()
    }
}

/// Levenshtein distance of two strings (characters).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The results of one run a plot reads columns from.
#[derive(Clone, Copy, Debug)]
pub struct Outputs<'a> {
    /// The trajectory.
    pub traj: &'a Trajectory,
    /// Its joint results, if computed.
    pub joints: Option<&'a JointResults>,
}

impl<'a> From<&'a Trajectory> for Outputs<'a> {
    fn from(traj: &'a Trajectory) -> Self {
        Self { traj, joints: None }
    }
}

impl Outputs<'_> {
    /// The values of `column`, one per sample; `None` for joint columns without joint
    /// results, or an index out of range.
    pub fn values(&self, column: &Column) -> Option<Vec<f64>> {
        let t = self.traj;
        match column.source {
            Source::Scalar(s) => Some(
                match s {
                    Scalar::Kinetic => &t.kinetic_energy,
                    Scalar::Potential => &t.potential_energy,
                    Scalar::Total => &t.total_energy,
                    Scalar::Phi => &t.phi_norm,
                    Scalar::PhiDot => &t.phi_dot_norm,
                    Scalar::PhiDdot => &t.phi_ddot_norm,
                }
                .clone(),
            ),
            Source::Body { body, component } => {
                (body < t.n_bodies()).then_some(())?;
                t.coordinate(body, COMPONENTS[component])
            }
            Source::Joint(k) => Some(self.joints?.columns.get(k)?.values.clone()),
            Source::Multiplier(k) => Some(self.joints?.multipliers.get(k)?.values.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_or_without_units_and_close_matches_for_typos() {
        let model = crate::builtin("double-pendulum").unwrap();
        let cat = Catalog::of_model(&model);
        let joint = &model.joints()[0].name;
        let a = cat.parse(&format!("{joint}.force_x")).unwrap();
        let b = cat.parse(&format!("{joint}.force_x [N]")).unwrap();
        assert_eq!(a, b);
        assert_eq!((a[0].unit.as_str(), a[0].needs_joints()), ("N", true));
        assert!(cat.parse("phi_norm, link2.wz").is_ok());
        let err = cat
            .parse(&format!("{joint}.forcex"))
            .unwrap_err()
            .to_string();
        assert!(err.contains(&format!("{joint}.force_x")), "{err}");
        assert!(err.contains("forcex"), "{err}");
        let err = cat.parse("qqqqqqqqqqqq").unwrap_err().to_string();
        assert!(err.contains("e.g.") && err.contains("link1.x"), "{err}");
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
