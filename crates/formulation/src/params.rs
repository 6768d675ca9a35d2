//! Parameter descriptions: each formulation crate describes the `key=value`
//! parameters of its params type once ([`Key`]: key, meaning, how to read it, how to
//! parse and validate it), names its starting points ([`Preset`]: the method names of
//! the command line), and everything else derives from that: parsing of
//! `name:key=value:…`, writing a method back as text, listing the parameters with
//! their defaults and meanings.
//!
//! ```
//! use std::sync::Arc;
//! use mbs_formulation::params::{self, Key, Params, Preset, Problem};
//! use mbs_formulation::{Formulation, FormulationError};
//! use mbs_model::Model;
//!
//! /// A made-up family with one parameter.
//! #[derive(Clone, Debug, PartialEq)]
//! struct Damped { zeta: f64 }
//!
//! impl Params for Damped {
//!     fn keys() -> &'static [Key<Self>] {
//!         &[Key {
//!             key: "zeta",
//!             meaning: "damping ratio ζ",
//!             get: |p| Some(params::number_text(p.zeta)),
//!             set: |p, v| params::assign(&mut p.zeta, params::non_negative(v)),
//!         }]
//!     }
//!     fn presets() -> &'static [Preset<Self>] {
//!         &[Preset { make: || Damped { zeta: 0.5 }, aliases: &[], summary: "a damped thing" }]
//!     }
//!     fn name(&self) -> &'static str {
//!         "damped"
//!     }
//!     fn build(&self, _: Arc<Model>) -> Result<Box<dyn Formulation>, FormulationError> {
//!         Err(FormulationError::not_implemented("a made-up family"))
//!     }
//! }
//!
//! let mut p = Damped { zeta: 0.5 };
//! params::set(&mut p, "zeta", "2")?;
//! assert_eq!(params::display(&p), "damped:zeta=2");
//! let e = params::set(&mut p, "zeta", "-1").unwrap_err();
//! assert_eq!((e.key.as_str(), e.value.as_str(), &e.problem), ("zeta", "-1", &Problem::Negative));
//! assert_eq!(params::specs(&Damped { zeta: 0.5 })[0].default.as_deref(), Some("5e-1"));
//! # Ok::<(), mbs_formulation::params::ParamError>(())
//! ```

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use mbs_integrators::IntegratorChoice;
use mbs_model::Model;

use crate::error::FormulationError;
use crate::formulation::Formulation;

/// What is wrong with a parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Not a finite number.
    NotFinite,
    /// Not > 0.
    NotPositive,
    /// < 0.
    Negative,
    /// Not a non-negative integer.
    NotCount,
    /// Not true/false.
    NotFlag,
    /// None of these words.
    NotOneOf(&'static [&'static str]),
    /// The family has no such key; its keys are these.
    UnknownKey(Vec<&'static str>),
    /// The key was given before, with this value.
    Repeated(String),
    /// The key sets what this earlier `key=value` set (alternative forms of one
    /// quantity, e.g. `alpha` and `kappa`): one would silently replace the other.
    Conflicts(String),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NotFinite => f.write_str("must be a finite number"),
            Problem::NotPositive => f.write_str("must be positive"),
            Problem::Negative => f.write_str("must not be negative"),
            Problem::NotCount => f.write_str("must be a non-negative integer"),
            Problem::NotFlag => f.write_str("must be true or false"),
            Problem::NotOneOf(words) => {
                f.write_str("must be ")?;
                for (i, w) in words.iter().enumerate() {
                    if i > 0 {
                        f.write_str(if i + 1 == words.len() { " or " } else { ", " })?;
                    }
                    f.write_str(w)?;
                }
                Ok(())
            }
            Problem::Repeated(first) => write!(f, "is given twice (first `{first}`)"),
            Problem::Conflicts(earlier) => write!(
                f,
                "conflicts with `{earlier}` given before it (both set the same quantity; give one of them)"
            ),
            Problem::UnknownKey(keys) => write!(
                f,
                "is not a parameter of this method (parameters: {})",
                if keys.is_empty() {
                    "none".to_string()
                } else {
                    keys.join(", ")
                }
            ),
        }
    }
}

/// A parameter that cannot be set: its key, the text given and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    /// The key.
    pub key: String,
    /// The value as given.
    pub value: String,
    /// What is wrong.
    pub problem: Problem,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "parameter `{}` {}, got `{}`",
            self.key, self.problem, self.value
        )
    }
}

impl std::error::Error for ParamError {}

/// One `key=value` parameter of a params type `P`: the single place where the key is
/// spelled, what it means, how its value is written and how it is parsed and checked.
pub struct Key<P> {
    /// The key.
    pub key: &'static str,
    /// What it means (one line, with the paper's symbol).
    pub meaning: &'static str,
    /// The value as text ([`number_text`] for numbers), or `None` when the key does
    /// not apply to this value (e.g. `alpha` of a relative penalty given by `kappa`).
    pub get: fn(&P) -> Option<String>,
    /// Parses and checks `value` and sets it (with [`number`], [`positive`],
    /// [`non_negative`], [`count`], [`flag`]).
    pub set: fn(&mut P, &str) -> Result<(), Problem>,
}

impl<P> fmt::Debug for Key<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Key")
            .field("key", &self.key)
            .field("meaning", &self.meaning)
            .finish_non_exhaustive()
    }
}

/// A method name of the command line: a starting value of a params type.
pub struct Preset<P> {
    /// The value (the method's defaults). Its [`Params::name`] is the method name.
    pub make: fn() -> P,
    /// Other names accepted for it.
    pub aliases: &'static [&'static str],
    /// One line for listings (the parameters and defaults are listed from the keys).
    pub summary: &'static str,
}

impl<P> fmt::Debug for Preset<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Preset")
            .field("aliases", &self.aliases)
            .field("summary", &self.summary)
            .finish_non_exhaustive()
    }
}

/// The parameters of a formulation family, described for the `name:key=value` syntax.
pub trait Params: Clone + fmt::Debug + Send + Sync + 'static {
    /// Every key, in the order of the syntax.
    fn keys() -> &'static [Key<Self>];
    /// The method names of this family.
    fn presets() -> &'static [Preset<Self>];
    /// The method name this value is written with: the preset it is a variant of.
    fn name(&self) -> &'static str;
    /// The formulation with these parameters on `model` (its name is
    /// [`display`]`(self)`); a model it cannot handle is
    /// [`crate::FormulationErrorKind::InvalidInput`], naming the element and why.
    fn build(&self, model: Arc<Model>) -> Result<Box<dyn Formulation>, FormulationError>;
    /// Entries (f64) of the dense matrices of the model's size squared that the
    /// formulation stores for `model`, for the memory check before it is built
    /// ([`crate::memory`]; 0: storage that grows with the model, not its square).
    fn dense_entries(&self, model: &Model) -> u128 {
        let _ = model;
        0
    }
    /// The fixed-step rule of the method's paper with step `h` (the trapezoidal rule
    /// unless the paper uses another one).
    fn paper_fixed_step_rule(&self, h: f64) -> IntegratorChoice {
        IntegratorChoice::Trapezoidal { h }
    }
}

/// A key with its default (the value of a preset) and meaning, for listings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// The key.
    pub key: &'static str,
    /// Its value in the preset, if it applies there.
    pub default: Option<String>,
    /// What it means.
    pub meaning: &'static str,
}

/// The value of `key`, if `P` has the key and it applies to `p`.
pub fn get<P: Params>(p: &P, key: &str) -> Option<String> {
    P::keys()
        .iter()
        .find(|k| k.key == key)
        .and_then(|k| (k.get)(p))
}

/// Sets `key` from its text.
pub fn set<P: Params>(p: &mut P, key: &str, value: &str) -> Result<(), ParamError> {
    let error = |problem| ParamError {
        key: key.to_string(),
        value: value.to_string(),
        problem,
    };
    match P::keys().iter().find(|k| k.key == key) {
        Some(k) => (k.set)(p, value).map_err(error),
        None => Err(error(Problem::UnknownKey(
            P::keys().iter().map(|k| k.key).collect(),
        ))),
    }
}

/// Sets every `key=value` pair in order, refusing a key given twice and a key that
/// overrides what an earlier one set (the earlier key no longer has its value, e.g.
/// `alpha=1` then `kappa=1e4`, where the relative `kappa` replaces the absolute
/// `alpha`); both errors name the two pairs.
pub fn set_all<K: AsRef<str>, V: AsRef<str>>(
    p: &mut dyn MethodParams,
    pairs: &[(K, V)],
) -> Result<(), ParamError> {
    // (key, value given, value read back right after setting it)
    let mut done: Vec<(&str, &str, Option<String>)> = Vec::with_capacity(pairs.len());
    let read = |p: &dyn MethodParams, key: &str| {
        p.values()
            .into_iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    };
    for (key, value) in pairs {
        let (key, value) = (key.as_ref(), value.as_ref());
        let error = |problem| ParamError {
            key: key.to_string(),
            value: value.to_string(),
            problem,
        };
        if let Some((k, v, _)) = done.iter().find(|(k, _, _)| *k == key) {
            return Err(error(Problem::Repeated(format!("{k}={v}"))));
        }
        p.set(key, value)?;
        if let Some((k, v, _)) = done.iter().find(|(k, _, after)| read(p, k) != *after) {
            return Err(error(Problem::Conflicts(format!("{k}={v}"))));
        }
        done.push((key, value, read(p, key)));
    }
    Ok(())
}

/// The (key, value) pairs that apply to `p`, in the order of the syntax.
pub fn values<P: Params>(p: &P) -> Vec<(&'static str, String)> {
    P::keys()
        .iter()
        .filter_map(|k| (k.get)(p).map(|v| (k.key, v)))
        .collect()
}

/// Every key with its value in `p` (the defaults, for a preset) and meaning.
pub fn specs<P: Params>(p: &P) -> Vec<ParamSpec> {
    P::keys()
        .iter()
        .map(|k| ParamSpec {
            key: k.key,
            default: (k.get)(p),
            meaning: k.meaning,
        })
        .collect()
}

/// The preset value of the method `name` (or an alias) of `P`.
pub fn preset<P: Params>(name: &str) -> Option<P> {
    P::presets().iter().find_map(|pr| {
        let p = (pr.make)();
        (p.name() == name || pr.aliases.contains(&name)).then_some(p)
    })
}

/// `name` followed by `:key=value` for the parameters that differ from the preset
/// of that name, so that parsing the text gives `p` back.
pub fn display<P: Params>(p: &P) -> String {
    let name = p.name();
    let defaults = preset::<P>(name).map(|d| values(&d)).unwrap_or_default();
    let mut s = name.to_string();
    for (k, v) in values(p) {
        if !defaults.iter().any(|(dk, dv)| *dk == k && *dv == v) {
            s.push_str(&format!(":{k}={v}"));
        }
    }
    s
}

/// A number as written in method names: `{:e}` without a zero exponent (`1e6`,
/// `1e-12`, `10` → `1e1`, `0.5` → `5e-1`); parsing it gives the number back exactly.
pub fn number_text(x: f64) -> String {
    format!("{x:e}").replace("e0", "")
}

/// Stores a parsed value: `set: |p, v| params::assign(&mut p.mu, params::non_negative(v))`.
pub fn assign<T>(slot: &mut T, value: Result<T, Problem>) -> Result<(), Problem> {
    *slot = value?;
    Ok(())
}

/// A finite number.
pub fn number(v: &str) -> Result<f64, Problem> {
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(Problem::NotFinite),
    }
}

/// A finite number > 0.
pub fn positive(v: &str) -> Result<f64, Problem> {
    match number(v)? {
        x if x > 0.0 => Ok(x),
        _ => Err(Problem::NotPositive),
    }
}

/// A finite number ≥ 0.
pub fn non_negative(v: &str) -> Result<f64, Problem> {
    match number(v)? {
        x if x >= 0.0 => Ok(x),
        _ => Err(Problem::Negative),
    }
}

/// A non-negative integer.
pub fn count(v: &str) -> Result<usize, Problem> {
    v.parse::<usize>().map_err(|_| Problem::NotCount)
}

/// true/yes/1/on or false/no/0/off.
pub fn flag(v: &str) -> Result<bool, Problem> {
    match v {
        "true" | "yes" | "1" | "on" => Ok(true),
        "false" | "no" | "0" | "off" => Ok(false),
        _ => Err(Problem::NotFlag),
    }
}

/// A params value behind a pointer: what the facade's `Method` holds. Implemented for
/// every [`Params`] type.
pub trait MethodParams: fmt::Debug + Send + Sync {
    /// [`Params::name`].
    fn name(&self) -> &'static str;
    /// [`values`].
    fn values(&self) -> Vec<(&'static str, String)>;
    /// [`set`].
    fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError>;
    /// [`specs`].
    fn specs(&self) -> Vec<ParamSpec>;
    /// [`display`].
    fn display(&self) -> String;
    /// [`Params::build`], after the memory check of [`Params::dense_entries`]
    /// ([`crate::memory`]).
    fn build(&self, model: Arc<Model>) -> Result<Box<dyn Formulation>, FormulationError>;
    /// [`Params::paper_fixed_step_rule`].
    fn paper_fixed_step_rule(&self, h: f64) -> IntegratorChoice;
    /// A copy.
    fn clone_box(&self) -> Box<dyn MethodParams>;
    /// The value, for a typed look (`downcast_ref`).
    fn as_any(&self) -> &dyn Any;
}

impl<P: Params> MethodParams for P {
    fn name(&self) -> &'static str {
        Params::name(self)
    }
    fn values(&self) -> Vec<(&'static str, String)> {
        values(self)
    }
    fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        set(self, key, value)
    }
    fn specs(&self) -> Vec<ParamSpec> {
        specs(self)
    }
    fn display(&self) -> String {
        display(self)
    }
    /// Checks the dense storage against the available memory first
    /// ([`crate::memory::check`]).
    fn build(&self, model: Arc<Model>) -> Result<Box<dyn Formulation>, FormulationError> {
        crate::memory::check(
            &display(self),
            Params::dense_entries(self, &model),
            crate::memory::available_bytes(),
        )?;
        Params::build(self, model)
    }
    fn paper_fixed_step_rule(&self, h: f64) -> IntegratorChoice {
        Params::paper_fixed_step_rule(self, h)
    }
    fn clone_box(&self) -> Box<dyn MethodParams> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A method name of a family, with its value, for a table of every method.
#[derive(Debug)]
pub struct MethodEntry {
    /// The method name.
    pub name: &'static str,
    /// Other names for it.
    pub aliases: &'static [&'static str],
    /// One line for listings.
    pub summary: &'static str,
    /// The method's defaults.
    pub defaults: Box<dyn MethodParams>,
}

/// The methods of family `P`, in the order of its presets.
pub fn entries<P: Params>() -> Vec<MethodEntry> {
    P::presets()
        .iter()
        .map(|pr| {
            let p = (pr.make)();
            MethodEntry {
                name: p.name(),
                aliases: pr.aliases,
                summary: pr.summary,
                defaults: Box::new(p),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_and_problems_read_well() {
        for x in [1e6, 1e-12, 10.0, 0.5, 1.0, 12345.678, -3.0] {
            assert_eq!(number(&number_text(x)), Ok(x));
        }
        assert_eq!(number_text(1e6), "1e6");
        assert_eq!(number_text(10.0), "1e1");
        assert_eq!(positive("0"), Err(Problem::NotPositive));
        assert_eq!(positive("nan"), Err(Problem::NotFinite));
        assert_eq!(non_negative("-2"), Err(Problem::Negative));
        assert_eq!(count("1.5"), Err(Problem::NotCount));
        assert_eq!(flag("maybe"), Err(Problem::NotFlag));
        assert_eq!(
            Problem::NotOneOf(&["none", "baumgarte", "nr"]).to_string(),
            "must be none, baumgarte or nr"
        );
        assert_eq!(
            Problem::UnknownKey(vec!["epsilon"]).to_string(),
            "is not a parameter of this method (parameters: epsilon)"
        );
    }
}
