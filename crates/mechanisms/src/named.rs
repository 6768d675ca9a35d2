//! The parametric generators of [`mod@crate::generators`] by name with `key=value`
//! parameters, as the CLI, the facade and model files reach them:
//! `chain:n=256,length=0.2`, `loop:n=64`, `ladder:n=8`, `tree:seed=7`.
//!
//! A spec is `NAME` or `NAME:KEY=VALUE[,KEY=VALUE…]` (`:` works between the pairs as
//! well as `,`, as in method names); absent keys take the defaults
//! listed by [`generators`]. Every error names the generator, the key and the value.
//!
//! ```
//! use mbs_mechanisms::named;
//! let m = named::build("chain:n=3,length=0.2,inertia=0.25").unwrap();
//! assert_eq!(m.n_bodies(), 3);
//! let e = named::build("chain:n=zero").unwrap_err().to_string();
//! assert!(e.contains("`n`") && e.contains("zero"), "{e}");
//! ```

use std::collections::HashMap;
use std::fmt;

use mbs_model::{Model, ModelError};

use crate::generators::{
    ChainJoint, GeneratorParams, closed_loop_with, loop_ladder_with, open_chain_with,
    random_loop_mechanism, random_tree,
};
use crate::stiff::{BushingChainParams, bushing_chain};

/// What values a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// An integer ≥ the minimum.
    Count {
        /// Smallest allowed value.
        min: usize,
    },
    /// Any unsigned 64-bit integer (a random seed).
    Seed,
    /// A positive number ≤ [`MAX_REAL`].
    Positive,
    /// A number in [0, [`MAX_REAL`]].
    NonNegative,
    /// `revolute` or `spherical`.
    Joint,
}

/// Largest real generator parameter: lengths and masses of 1e100 keep the inertias
/// (mass × length², ≤ 1e300) finite; 1e308 would make them infinite.
pub const MAX_REAL: f64 = 1e100;

impl ParamKind {
    /// The requirement in words (as in error messages).
    pub fn requirement(self) -> String {
        match self {
            ParamKind::Count { min } => format!("must be an integer ≥ {min}"),
            ParamKind::Seed => "must be an unsigned integer".into(),
            ParamKind::Positive => format!("must be a positive number ≤ {MAX_REAL:e}"),
            ParamKind::NonNegative => format!("must be a number in [0, {MAX_REAL:e}]"),
            ParamKind::Joint => "must be `revolute` or `spherical`".into(),
        }
    }

    fn parse(self, text: &str) -> Option<Value> {
        let t = text.trim();
        match self {
            ParamKind::Count { min } => t
                .parse::<usize>()
                .ok()
                .filter(|v| *v >= min)
                .map(Value::Count),
            ParamKind::Seed => t.parse::<u64>().ok().map(Value::Seed),
            ParamKind::Positive => t
                .parse::<f64>()
                .ok()
                .filter(|v| *v > 0.0 && *v <= MAX_REAL)
                .map(Value::Real),
            ParamKind::NonNegative => t
                .parse::<f64>()
                .ok()
                .filter(|v| *v >= 0.0 && *v <= MAX_REAL)
                .map(Value::Real),
            ParamKind::Joint => match t.to_ascii_lowercase().as_str() {
                "revolute" => Some(Value::Joint(ChainJoint::Revolute)),
                "spherical" => Some(Value::Joint(ChainJoint::Spherical)),
                _ => None,
            },
        }
    }
}

/// One parameter of a generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeneratorParam {
    /// Key, as in `n=256`.
    pub key: &'static str,
    /// Allowed values.
    pub kind: ParamKind,
    /// Default (text as accepted; `None`: the generator's own choice, described).
    pub default: Option<&'static str>,
    /// One-line meaning.
    pub description: &'static str,
}

/// A parsed parameter value.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    Count(usize),
    Seed(u64),
    Real(f64),
    Joint(ChainJoint),
}

/// The parameter values of one spec, defaults filled in.
#[derive(Clone, Debug, Default)]
pub struct Values(HashMap<&'static str, Value>);

impl Values {
    fn count(&self, key: &str) -> usize {
        match self.0.get(key) {
            Some(Value::Count(v)) => *v,
            _ => 0,
        }
    }
    fn seed(&self, key: &str) -> u64 {
        match self.0.get(key) {
            Some(Value::Seed(v)) => *v,
            _ => 0,
        }
    }
    fn real(&self, key: &str) -> Option<f64> {
        match self.0.get(key) {
            Some(Value::Real(v)) => Some(*v),
            _ => None,
        }
    }
    fn joint(&self) -> ChainJoint {
        match self.0.get("joint") {
            Some(Value::Joint(j)) => *j,
            _ => ChainJoint::Revolute,
        }
    }
    /// Link data of the chain, loop and ladder generators.
    fn links(&self) -> GeneratorParams {
        let d = GeneratorParams::default();
        GeneratorParams {
            length: self.real("length").unwrap_or(d.length),
            mass: self.real("mass").unwrap_or(d.mass),
            gravity: self.real("gravity").unwrap_or(d.gravity),
            inertia: self.real("inertia"),
        }
    }
}

/// A generator reachable by name.
#[derive(Clone, Copy, Debug)]
pub struct NamedGenerator {
    /// Name (before the `:` of a spec).
    pub name: &'static str,
    /// One-line description.
    pub description: &'static str,
    /// Its parameters.
    pub params: &'static [GeneratorParam],
    /// Bodies per unit of its size parameter `n` (the memory check before building).
    pub bodies_per_n: u32,
    build: fn(&Values) -> Result<Model, ModelError>,
}

const fn param(
    key: &'static str,
    kind: ParamKind,
    default: Option<&'static str>,
    description: &'static str,
) -> GeneratorParam {
    GeneratorParam {
        key,
        kind,
        default,
        description,
    }
}

const LENGTH: GeneratorParam = param("length", ParamKind::Positive, Some("1"), "link length [m]");
const MASS: GeneratorParam = param("mass", ParamKind::Positive, Some("1"), "link mass [kg]");
const INERTIA: GeneratorParam = param(
    "inertia",
    ParamKind::Positive,
    None,
    "centroidal inertia J' = inertia·I [kg m²] (default: slender rod, diag(0.01, 1, 1)·m l²/12)",
);
const GRAVITY: GeneratorParam = param(
    "gravity",
    ParamKind::NonNegative,
    Some("9.81"),
    "gravitational acceleration along -y [m/s²]",
);
const SEED: GeneratorParam = param("seed", ParamKind::Seed, Some("7"), "random seed");

static GENERATORS: [NamedGenerator; 6] = [
    NamedGenerator {
        name: "chain",
        description: "open chain of n links from ground, horizontal along +x, from rest",
        params: &[
            param("n", ParamKind::Count { min: 1 }, Some("16"), "links"),
            param(
                "joint",
                ParamKind::Joint,
                Some("revolute"),
                "revolute (planar, about z) or spherical (zig-zag, spatial)",
            ),
            LENGTH,
            MASS,
            INERTIA,
            GRAVITY,
        ],
        bodies_per_n: 1,
        build: |v| open_chain_with(v.count("n"), v.joint(), &v.links()),
    },
    NamedGenerator {
        name: "loop",
        description: "one closed loop of n links and ground on a regular (n+1)-gon, from rest",
        params: &[
            param("n", ParamKind::Count { min: 2 }, Some("8"), "links"),
            LENGTH,
            MASS,
            INERTIA,
            GRAVITY,
        ],
        bodies_per_n: 1,
        build: |v| closed_loop_with(v.count("n"), &v.links()),
    },
    NamedGenerator {
        name: "ladder",
        description: "ladder of n coupled four-bar loops hanging from ground (3n links), from rest",
        params: &[
            param("n", ParamKind::Count { min: 1 }, Some("4"), "loops"),
            LENGTH,
            MASS,
            INERTIA,
            GRAVITY,
        ],
        bodies_per_n: 3,
        build: |v| loop_ladder_with(v.count("n"), &v.links()),
    },
    NamedGenerator {
        name: "bushing-chain",
        description: "stiff chain: n links from ground, free first joint, stiff lightly damped rotational springs (bushings) at the others, horizontal, from rest",
        params: &[
            param("n", ParamKind::Count { min: 2 }, Some("8"), "links"),
            param(
                "k",
                ParamKind::NonNegative,
                Some("1e6"),
                "bushing stiffness [N m/rad]",
            ),
            param(
                "c",
                ParamKind::NonNegative,
                Some("10"),
                "bushing damping [N m s/rad]",
            ),
            LENGTH,
            MASS,
            INERTIA,
            GRAVITY,
        ],
        bodies_per_n: 1,
        build: |v| {
            let d = BushingChainParams::default();
            bushing_chain(&BushingChainParams {
                n: v.count("n"),
                stiffness: v.real("k").unwrap_or(d.stiffness),
                damping: v.real("c").unwrap_or(d.damping),
                links: v.links(),
            })
        },
    },
    NamedGenerator {
        name: "tree",
        description: "random tree of n bodies with random joints, masses and inertias",
        params: &[
            SEED,
            param("n", ParamKind::Count { min: 1 }, Some("8"), "bodies"),
        ],
        bodies_per_n: 1,
        build: |v| random_tree(v.seed("seed"), v.count("n")),
    },
    NamedGenerator {
        name: "random-loop",
        description: "random single loop of n bodies with random joints, closed to ground",
        params: &[
            SEED,
            param("n", ParamKind::Count { min: 2 }, Some("5"), "bodies"),
        ],
        bodies_per_n: 1,
        build: |v| random_loop_mechanism(v.seed("seed"), v.count("n")),
    },
];

/// Every named generator.
pub fn generators() -> &'static [NamedGenerator] {
    &GENERATORS
}

/// The generator called `name`.
pub fn find_generator(name: &str) -> Option<&'static NamedGenerator> {
    GENERATORS.iter().find(|g| g.name == name)
}

/// Why a spec did not give a model.
#[derive(Clone, Debug, PartialEq)]
pub enum GeneratorError {
    /// No generator has this name.
    Unknown {
        /// The name given.
        name: String,
    },
    /// The generator has no parameter with this key.
    UnknownParameter {
        /// Generator name.
        generator: &'static str,
        /// The key given.
        key: String,
        /// The value given.
        value: String,
    },
    /// The value is not allowed (or a `key=value` pair is malformed or repeated).
    InvalidValue {
        /// Generator name.
        generator: &'static str,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What is allowed.
        requirement: String,
    },
    /// The generator rejected the model it was asked for.
    Model(ModelError),
}

impl GeneratorError {
    /// The generator's parameter keys, comma separated (for messages).
    pub fn valid_keys(generator: &str) -> String {
        find_generator(generator)
            .map(|g| {
                g.params
                    .iter()
                    .map(|p| p.key)
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default()
    }
}

impl fmt::Display for GeneratorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GeneratorError::Unknown { name } => {
                let names: Vec<_> = GENERATORS.iter().map(|g| g.name).collect();
                write!(
                    f,
                    "unknown generator `{name}`; generators: {}",
                    names.join(", ")
                )
            }
            GeneratorError::UnknownParameter {
                generator,
                key,
                value,
            } => write!(
                f,
                "generator `{generator}`: unknown parameter `{key}` (= `{value}`); parameters: {}",
                Self::valid_keys(generator)
            ),
            GeneratorError::InvalidValue {
                generator,
                key,
                value,
                requirement,
            } => write!(
                f,
                "generator `{generator}`: parameter `{key}` {requirement}, got `{value}`"
            ),
            GeneratorError::Model(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GeneratorError {}

/// Splits a spec `NAME[:KEY=VALUE,…]` (`,` or `:` between the pairs) into the name
/// and its pairs, a pair without `=` having no value ([`mbs_model::spec_text::split`]).
pub fn split_spec(spec: &str) -> (&str, Vec<(&str, Option<&str>)>) {
    mbs_model::spec_text::split(spec)
}

/// Whether `spec` names a generator (its part before `:`).
pub fn is_generator_spec(spec: &str) -> bool {
    find_generator(split_spec(spec).0).is_some()
}

/// Builds the model of a spec `NAME[:KEY=VALUE,…]`.
pub fn build(spec: &str) -> Result<Model, GeneratorError> {
    let (name, pairs) = split_spec(spec);
    let g = find_generator(name).ok_or_else(|| GeneratorError::Unknown {
        name: name.to_string(),
    })?;
    let mut given = Vec::with_capacity(pairs.len());
    for (key, value) in pairs {
        let Some(value) = value else {
            return Err(GeneratorError::InvalidValue {
                generator: g.name,
                key: key.to_string(),
                value: String::new(),
                requirement: format!(
                    "must be written `{key}=VALUE` ({})",
                    mbs_model::spec_text::FORM
                ),
            });
        };
        given.push((key, value));
    }
    build_with(name, &given)
}

/// Builds generator `name` with `key = value` pairs (values as text; absent keys take
/// their defaults).
pub fn build_with<K: AsRef<str>, V: AsRef<str>>(
    name: &str,
    pairs: &[(K, V)],
) -> Result<Model, GeneratorError> {
    let g = find_generator(name).ok_or_else(|| GeneratorError::Unknown {
        name: name.to_string(),
    })?;
    let mut values = Values::default();
    for (key, value) in pairs {
        let (key, value) = (key.as_ref(), value.as_ref());
        let p = g.params.iter().find(|p| p.key == key).ok_or_else(|| {
            GeneratorError::UnknownParameter {
                generator: g.name,
                key: key.to_string(),
                value: value.to_string(),
            }
        })?;
        let invalid = |requirement: String| GeneratorError::InvalidValue {
            generator: g.name,
            key: key.to_string(),
            value: value.to_string(),
            requirement,
        };
        if values.0.contains_key(p.key) {
            return Err(invalid("is given twice".into()));
        }
        let v = p
            .kind
            .parse(value)
            .ok_or_else(|| invalid(p.kind.requirement()))?;
        values.0.insert(p.key, v);
    }
    for p in g.params {
        if let (false, Some(d)) = (values.0.contains_key(p.key), p.default)
            && let Some(v) = p.kind.parse(d)
        {
            values.0.insert(p.key, v);
        }
    }
    check_size(g, &values, mbs_model::memory::available_bytes())?;
    (g.build)(&values).map_err(GeneratorError::Model)
}

/// Estimated bytes a body takes once a model is built and simulated: the model (body,
/// markers, joint), the state and a method's work arrays that grow with the model.
pub const BYTES_PER_BODY: f64 = 4096.0;

/// Refuses a size `n` whose model would not fit in [`mbs_model::memory::SHARE`] of the
/// `available` memory (at [`BYTES_PER_BODY`]), naming `n`, its limit and the sizes.
fn check_size(
    g: &NamedGenerator,
    values: &Values,
    available: Option<u64>,
) -> Result<(), GeneratorError> {
    let n = values.count("n");
    let bodies = n as f64 * f64::from(g.bodies_per_n);
    let bytes = bodies * BYTES_PER_BODY;
    match available {
        Some(a) if !mbs_model::memory::fits(bytes, available) => {
            let max_n =
                (mbs_model::memory::SHARE * a as f64 / BYTES_PER_BODY / f64::from(g.bodies_per_n))
                    .floor();
            Err(GeneratorError::InvalidValue {
                generator: g.name,
                key: "n".into(),
                value: n.to_string(),
                requirement: format!(
                    "must be at most {max_n} on this machine: {bodies} bodies take ≈ {} GB at ≈ 4 kB a body and {} GB of memory are available (at most {:.0} % may be used)",
                    mbs_model::memory::gigabytes(bytes),
                    mbs_model::memory::gigabytes(a as f64),
                    100.0 * mbs_model::memory::SHARE
                ),
            })
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_parse_and_build() {
        for g in generators() {
            for p in g.params {
                if let Some(d) = p.default {
                    assert!(p.kind.parse(d).is_some(), "{}.{}", g.name, p.key);
                }
            }
            let m = build(g.name).unwrap_or_else(|e| panic!("{}: {e}", g.name));
            assert!(m.n_bodies() > 0);
        }
    }

    #[test]
    fn parameters_reach_the_generators() {
        let m = build("chain:n=5,length=0.2,mass=2,inertia=0.25,gravity=0").unwrap();
        assert_eq!(m.n_bodies(), 5);
        let b = &m.bodies()[0];
        assert_eq!(b.mass, 2.0);
        assert_eq!(b.inertia[(2, 2)], 0.25);
        assert_eq!(m.gravity().norm(), 0.0);
        assert_eq!(build("ladder:n=3").unwrap().n_bodies(), 9);
        let bc = build("bushing-chain:n=4:k=2e6:c=0").unwrap();
        assert_eq!(bc.n_bodies(), 4);
        assert_eq!(
            bc,
            bushing_chain(&BushingChainParams {
                n: 4,
                stiffness: 2e6,
                damping: 0.0,
                ..Default::default()
            })
            .unwrap()
        );
        assert_eq!(build("loop: n = 6").unwrap().n_bodies(), 6);
        assert_eq!(
            build("tree:seed=3,n=4").unwrap(),
            random_tree(3, 4).unwrap()
        );
        let s = build("chain:n=2,joint=spherical").unwrap();
        assert_eq!(
            s,
            open_chain_with(2, ChainJoint::Spherical, &GeneratorParams::default()).unwrap()
        );
    }

    #[test]
    fn sizes_beyond_memory_are_refused_naming_n_and_the_limit() {
        let g = find_generator("ladder").unwrap();
        let mut v = Values::default();
        v.0.insert("n", Value::Count(1_000_000));
        // 3e6 bodies ≈ 12.3 GB; 10 GB available: refused, limit 8e9 / 4096 / 3
        let e = check_size(g, &v, Some(10_000_000_000))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("`n`") && e.contains("1000000") && e.contains("at most 651041"),
            "{e}"
        );
        assert!(check_size(g, &v, Some(20_000_000_000)).is_ok());
        assert!(check_size(g, &v, None).is_ok());
        let e = build("chain:n=1000000000000").unwrap_err().to_string();
        assert!(e.contains("`n`") && e.contains("at most"), "{e}");
    }

    #[test]
    fn both_separators_work_and_a_missing_value_shows_the_form() {
        assert_eq!(
            build("chain:n=3:length=0.2").unwrap(),
            build("chain:n=3,length=0.2").unwrap()
        );
        let e = build("chain:n=3:length").unwrap_err().to_string();
        assert!(
            e.contains("`length=VALUE`") && e.contains("chain:n=8,length=0.2"),
            "{e}"
        );
    }

    #[test]
    fn bad_parameters_name_key_and_value() {
        let cases = [
            ("chain:n=0", "`n`", "0"),
            ("chain:n=-3", "`n`", "-3"),
            ("chain:length=abc", "`length`", "abc"),
            ("chain:mass=nan", "`mass`", "nan"),
            ("loop:n=1", "`n`", "1"),
            ("chain:joint=hinge", "`joint`", "hinge"),
            ("chain:n=2,n=3", "`n`", "3"),
            ("chain:links=4", "`links`", "4"),
            ("chain:n", "`n`", "`n=VALUE`"),
            ("tree:seed=-1", "`seed`", "-1"),
            ("bushing-chain:n=1", "`n`", "1"),
            ("bushing-chain:k=-5", "`k`", "-5"),
        ];
        for (spec, key, value) in cases {
            let e = build(spec).unwrap_err().to_string();
            assert!(e.contains(key) && e.contains(value), "{spec}: {e}");
        }
        let e = build("chains:n=3").unwrap_err().to_string();
        assert!(e.contains("chains") && e.contains("ladder"), "{e}");
    }
}
