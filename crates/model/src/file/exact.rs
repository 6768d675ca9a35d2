//! Fixed-length arrays read with their length checked, the same way for JSON and TOML.
//!
//! serde's own `[T; N]` reads the first N elements and leaves the end of the array to
//! the format: serde_json refuses extra elements, the toml crate ignores them (a
//! 5-component `position` was read as its first 3). Every fixed-length field of the
//! file types is read through [`exact`] (or [`exact_opt`], [`exact_rows`]) instead, so
//! that both formats accept exactly the same documents.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, SeqAccess, Visitor};

/// An array of exactly `N` elements.
pub(crate) struct Exact<T, const N: usize>(pub [T; N]);

impl<'de, T: Deserialize<'de>, const N: usize> Deserialize<'de> for Exact<T, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T, const N: usize>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>, const N: usize> Visitor<'de> for V<T, N> {
            type Value = Exact<T, N>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "an array of {N} elements")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Exact<T, N>, A::Error> {
                let mut items = Vec::with_capacity(N);
                while items.len() < N {
                    match seq.next_element::<T>()? {
                        Some(x) => items.push(x),
                        None => return Err(de::Error::invalid_length(items.len(), &self)),
                    }
                }
                let mut len = N;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    len += 1;
                }
                if len > N {
                    return Err(de::Error::invalid_length(len, &self));
                }
                match items.try_into() {
                    Ok(a) => Ok(Exact(a)),
                    Err(v) => Err(de::Error::invalid_length(v.len(), &self)),
                }
            }
        }
        d.deserialize_seq(V(PhantomData))
    }
}

/// `[T; N]` of exactly N elements (`#[serde(deserialize_with = "exact")]`).
pub(crate) fn exact<'de, D, T, const N: usize>(d: D) -> Result<[T; N], D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Exact::deserialize(d).map(|e| e.0)
}

/// An optional `[T; N]` of exactly N elements.
pub(crate) fn exact_opt<'de, D, T, const N: usize>(d: D) -> Result<Option<[T; N]>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<Exact<T, N>>::deserialize(d).map(|o| o.map(|e| e.0))
}

/// An optional matrix of exactly R rows of C elements.
pub(crate) fn exact_rows<'de, D, const R: usize, const C: usize>(
    d: D,
) -> Result<Option<[[f64; C]; R]>, D::Error>
where
    D: Deserializer<'de>,
{
    Option::<Exact<Exact<f64, C>, R>>::deserialize(d).map(|o| o.map(|e| e.0.map(|r| r.0)))
}
