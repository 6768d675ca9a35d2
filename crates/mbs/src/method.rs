//! The formulation ("method") a simulation uses: a method name of one of the
//! formulation crates with that crate's parameters.
//!
//! On the command line a method is a name followed by optional `:key=value` parameters,
//! e.g. `alf-index1:alpha=1e7:every=10` or `lagrange-baumgarte:alpha_hat=5,beta_hat=5`
//! (`:` or `,` between them, as in generator specs).
//! [`Method::from_str`](std::str::FromStr) parses that form and `Display` writes it back
//! (only the parameters that differ from the name's defaults). The names, keys,
//! defaults, meanings and checks are those the formulation crates describe
//! ([`mbs_formulation::params`]); [`crate::registry`] lists the crates' methods.

use std::fmt;
use std::str::FromStr;

use mbs_formulation::params::{MethodParams, ParamSpec, Params};

use crate::error::Error;
pub use mbs_alf::DEFAULT_EPSILON_KAPPA;
pub use mbs_alf::{AlphaScale, DEFAULT_KAPPA, EpsilonScale};

/// A dynamics formulation (front-end) with its parameters: the params value of the
/// crate that owns the method (e.g. [`mbs_alf::AlfIndex1Params`] for `alf-index1`).
///
/// ```
/// use mbs::Method;
/// let m: Method = "alf-index1:alpha=1e6:every=10".parse()?;
/// let p = m.params_as::<mbs::alf::AlfIndex1Params>().unwrap();
/// assert_eq!((p.alpha, p.projection_every), (mbs::AlphaScale::Absolute(1e6), 10));
/// assert_eq!(m.to_string(), "alf-index1:alpha=1e6:every=10");
/// let e = "alf-index7".parse::<Method>().unwrap_err();
/// assert!(e.to_string().contains("valid methods: lagrange"));
/// # Ok::<(), mbs::Error>(())
/// ```
pub struct Method(Box<dyn MethodParams>);

/// Splits `name:key=value:key=value` (or `,` between the pairs, as in generator
/// specs: [`mbs_model::spec_text`]) into the lower-case name and its parameters.
pub(crate) fn split_params(s: &str) -> Result<(String, Vec<(String, String)>), Error> {
    let (name, pairs) = mbs_model::spec_text::split(s);
    let name = name.to_ascii_lowercase();
    let mut params = Vec::with_capacity(pairs.len());
    for (k, v) in pairs {
        match v {
            Some(v) if !k.is_empty() => params.push((k.to_ascii_lowercase(), v.to_string())),
            _ => {
                return Err(Error::param(
                    format!("method `{name}`"),
                    k,
                    format!("must be written key=value ({})", mbs_model::spec_text::FORM),
                    v.map_or_else(|| k.to_string(), |v| format!("{k}={v}")),
                ));
            }
        }
    }
    Ok((name, params))
}

impl Method {
    /// The method of a formulation crate's params value, e.g.
    /// `Method::new(mbs::alf::AlfIndex1Params::default())` (`alf-index1`).
    pub fn new<P: Params>(params: P) -> Self {
        Method(Box::new(params))
    }

    /// The method with the defaults of `name` (see [`names`]).
    pub fn from_name(name: &str) -> Result<Self, Error> {
        let name = name.trim().to_ascii_lowercase();
        crate::registry::find(&name)
            .map(|e| Method(e.defaults.clone_box()))
            .ok_or_else(|| Error::UnknownMethod {
                name,
                valid: valid_names(),
            })
    }

    /// The method name of this value (the name whose defaults it varies).
    pub fn name(&self) -> &'static str {
        self.0.name()
    }

    /// The parameters of this method as (key, value) pairs, in the order of the
    /// `:key=value` syntax.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        self.0.values()
    }

    /// Every parameter of this method's family with its value here and its meaning.
    pub fn param_specs(&self) -> Vec<ParamSpec> {
        self.0.specs()
    }

    /// Sets one parameter from its `key=value` text.
    pub fn set_param(&mut self, key: &str, value: &str) -> Result<(), Error> {
        let element = format!("method `{}`", self.name());
        self.0
            .set(key, value)
            .map_err(|e| Error::param(element, e.key, e.problem.to_string(), e.value))
    }

    /// The parameters as the owning crate's type `T`, if they are of that type.
    pub fn params_as<T: 'static>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref()
    }

    /// The parameters behind the method.
    pub fn family_params(&self) -> &dyn MethodParams {
        self.0.as_ref()
    }
}

impl Clone for Method {
    fn clone(&self) -> Self {
        Method(self.0.clone_box())
    }
}

impl PartialEq for Method {
    /// The same name and parameter values (numbers compare exactly: their text
    /// round-trips).
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name() && self.params() == other.params()
    }
}

impl fmt::Debug for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Method").field(&self.0).finish()
    }
}

/// Every method name with its one-line summary, in the order shown to users.
pub fn names() -> impl Iterator<Item = (&'static str, &'static str)> {
    crate::registry::methods()
        .iter()
        .map(|e| (e.name, e.summary))
}

/// The valid method names, comma separated (for error messages).
pub fn valid_names() -> String {
    names().map(|(n, _)| n).collect::<Vec<_>>().join(", ")
}

/// The methods of a comma-separated list (`alf:kappa=1e4,mu=1,lagrange`): a piece
/// that is only `key=value` continues the method before it, so the `,` between
/// parameters works in lists too.
pub fn split_list(list: &str) -> Vec<String> {
    let mut methods: Vec<String> = Vec::new();
    for piece in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let continues = piece.contains('=') && !piece.contains(':');
        match methods.last_mut() {
            Some(last) if continues => {
                last.push(',');
                last.push_str(piece);
            }
            _ => methods.push(piece.to_string()),
        }
    }
    methods
}

impl FromStr for Method {
    type Err = Error;
    /// Parses `name[:key=value]*`, e.g. `alf-index1:alpha=1e6:every=10` (`,` works
    /// between the pairs too); a key given twice, or two keys for the same quantity
    /// (`alpha` and `kappa`), is an error naming both.
    fn from_str(s: &str) -> Result<Self, Error> {
        let (name, params) = split_params(s)?;
        let mut m = Method::from_name(&name)?;
        let element = format!("method `{}`", m.name());
        mbs_formulation::params::set_all(m.0.as_mut(), &params)
            .map_err(|e| Error::param(element, e.key, e.problem.to_string(), e.value))?;
        Ok(m)
    }
}

impl fmt::Display for Method {
    /// The name followed by the parameters that differ from the name's defaults, so
    /// that `s.parse::<Method>()` gives the method back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.display())
    }
}

#[cfg(test)]
mod tests {
    use mbs_alf::{AlfIndex1Params, Baumgarte, LagrangeParams};

    use super::*;

    #[test]
    fn every_name_parses_and_round_trips() {
        for (name, _) in names() {
            let m: Method = name.parse().unwrap();
            assert_eq!(m.to_string(), name, "{m:?}");
            assert_eq!(m.to_string().parse::<Method>().unwrap(), m);
        }
    }

    #[test]
    fn parameters_parse_and_display() {
        let m: Method = "alf-index1:alpha=1e6:every=10".parse().unwrap();
        let p = m.params_as::<AlfIndex1Params>().unwrap();
        assert_eq!(
            (p.alpha, p.projection_every),
            (AlphaScale::Absolute(1e6), 10)
        );
        let m: Method = "alf:kappa=1e3".parse().unwrap();
        assert_eq!(
            m.params_as::<AlfIndex1Params>().unwrap().alpha,
            AlphaScale::Relative(1e3)
        );
        assert_eq!(m.to_string(), "alf:kappa=1e3");
        assert_eq!(m.to_string().parse::<Method>().unwrap(), m);
        assert_eq!(m.to_string().parse::<Method>().unwrap(), m);
        let m: Method = "lagrange:alpha_hat=5:beta_hat=3".parse().unwrap();
        assert_eq!(
            m.params_as::<LagrangeParams>(),
            Some(&LagrangeParams {
                baumgarte: Some(Baumgarte {
                    alpha: 5.0,
                    beta: 3.0
                }),
                projection_every: 0,
                strict: false,
                backend: Default::default(),
            })
        );
        assert_eq!(m.to_string().parse::<Method>().unwrap(), m);
        let m: Method = "lagrange:strict=true".parse().unwrap();
        assert!(m.params_as::<LagrangeParams>().unwrap().strict);
        assert_eq!(m.to_string(), "lagrange:strict=true");
        assert_eq!(m.to_string().parse::<Method>().unwrap(), m);
        let m: Method = "complement-svd:stab=baumgarte".parse().unwrap();
        assert_eq!(m.to_string().parse::<Method>().unwrap(), m);
    }

    #[test]
    fn errors_name_the_problem() {
        let e = "alf-index7".parse::<Method>().unwrap_err().to_string();
        assert!(e.contains("alf-index7") && e.contains("alf-index3"), "{e}");
        let e = "alf:alpha=-1".parse::<Method>().unwrap_err().to_string();
        assert!(e.contains("alpha") && e.contains("-1"), "{e}");
        let e = "penalty:mu=1".parse::<Method>().unwrap_err().to_string();
        assert!(e.contains("mu") && e.contains("epsilon"), "{e}");
        let e = "alf:alpha".parse::<Method>().unwrap_err().to_string();
        assert!(e.contains("key=value"), "{e}");
        let e = "alf-index1:omega=-2"
            .parse::<Method>()
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("omega") && e.contains("-2") && e.contains("negative"),
            "{e}"
        );
        assert!("alf-index1:mu=0:omega=0".parse::<Method>().is_ok());
    }

    #[test]
    fn repeated_or_conflicting_parameters_name_both() {
        let e = "alf:kappa=1:kappa=2"
            .parse::<Method>()
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("kappa=1") && e.contains("`2`") && e.contains("twice"),
            "{e}"
        );
        let e = "alf:alpha=1:kappa=1e4"
            .parse::<Method>()
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("alpha=1") && e.contains("`kappa`") && e.contains("1e4"),
            "{e}"
        );
        let e = "alf:kappa=1e4,alpha=1"
            .parse::<Method>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("kappa=1e4") && e.contains("`alpha`"), "{e}");
    }

    #[test]
    fn lists_keep_comma_separated_parameters_with_their_method() {
        assert_eq!(
            split_list("alf:kappa=1e4,mu=1, lagrange,alf-index1:every=2:mu=0"),
            ["alf:kappa=1e4,mu=1", "lagrange", "alf-index1:every=2:mu=0"]
        );
    }

    #[test]
    fn both_separators_give_the_same_method() {
        let a: Method = "alf-index1:alpha=1e6:every=10".parse().unwrap();
        let b: Method = "alf-index1:alpha=1e6,every=10".parse().unwrap();
        assert_eq!(a, b);
        let e = "alf:mu=1,every".parse::<Method>().unwrap_err().to_string();
        assert!(
            e.contains("key=value") && e.contains("chain:n=8,length=0.2"),
            "{e}"
        );
    }
}
