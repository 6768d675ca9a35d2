//! The one text form of named things with parameters, shared by generator specs
//! (`chain:n=8,length=0.2`) and methods (`alf:kappa=1e4:mu=1`):
//! `NAME[:KEY=VALUE…]` with `,` or `:` between the parameters (both work in both
//! places).
//!
//! ```
//! use mbs_model::spec_text::split;
//! let (name, pairs) = split("chain:n=8:length=0.2");
//! assert_eq!(name, "chain");
//! assert_eq!(pairs, vec![("n", Some("8")), ("length", Some("0.2"))]);
//! assert_eq!(split("alf:kappa=1e4,mu").1, vec![("kappa", Some("1e4")), ("mu", None)]);
//! ```

/// How the form is written, for messages about text that cannot be parsed.
pub const FORM: &str = "NAME:KEY=VALUE with `,` or `:` between parameters, e.g. `chain:n=8,length=0.2` or `alf:kappa=1e4:mu=1`";

/// The name (before the first `:`) and the `KEY=VALUE` pairs after it, trimmed; a
/// pair without `=` has no value (`None`), which callers refuse showing [`FORM`].
pub fn split(spec: &str) -> (&str, Vec<(&str, Option<&str>)>) {
    let (name, rest) = spec.split_once(':').unwrap_or((spec, ""));
    let pairs = rest
        .split([',', ':'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (k.trim(), Some(v.trim())),
            None => (p, None),
        })
        .collect();
    (name.trim(), pairs)
}
