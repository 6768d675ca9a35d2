//! Reading attribute values: numbers with their count, booleans, keywords. Every
//! error names the element, the attribute and the value as written.

use nalgebra::Vector3;

use super::xml::Element;
use crate::ImportError;

/// An attribute's text and the element that gives it (the element itself or, for a
/// defaulted attribute, the element it applies to).
pub(crate) fn invalid(element: &Element, attribute: &str, value: &str, req: &str) -> ImportError {
    ImportError::InvalidValue {
        element: element.label(),
        attribute: attribute.to_string(),
        value: format!("\"{value}\""),
        requirement: req.to_string(),
    }
}

/// Splits an MJCF real vector ("1 2 3", whitespace separated) into numbers; every
/// number must be finite.
pub(crate) fn reals(
    element: &Element,
    attribute: &str,
    text: &str,
) -> Result<Vec<f64>, ImportError> {
    text.split_whitespace()
        .map(|t| {
            t.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| {
                    invalid(
                        element,
                        attribute,
                        text,
                        &format!("must be finite numbers (`{t}` is not)"),
                    )
                })
        })
        .collect()
}

/// Exactly `n` numbers.
pub(crate) fn reals_n(
    element: &Element,
    attribute: &str,
    text: &str,
    n: usize,
) -> Result<Vec<f64>, ImportError> {
    let v = reals(element, attribute, text)?;
    if v.len() != n {
        return Err(invalid(
            element,
            attribute,
            text,
            &format!("must be {n} numbers (has {})", v.len()),
        ));
    }
    Ok(v)
}

/// One number.
pub(crate) fn real(element: &Element, attribute: &str, text: &str) -> Result<f64, ImportError> {
    Ok(reals_n(element, attribute, text, 1)?[0])
}

/// Three numbers as a vector.
pub(crate) fn vec3(
    element: &Element,
    attribute: &str,
    text: &str,
) -> Result<Vector3<f64>, ImportError> {
    let v = reals_n(element, attribute, text, 3)?;
    Ok(Vector3::new(v[0], v[1], v[2]))
}

/// MJCF booleans are `true`/`false`.
pub(crate) fn boolean(element: &Element, attribute: &str, text: &str) -> Result<bool, ImportError> {
    match text.trim() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(invalid(
            element,
            attribute,
            text,
            "must be `true` or `false`",
        )),
    }
}

/// A keyword out of `allowed`.
pub(crate) fn keyword<'a>(
    element: &Element,
    attribute: &str,
    text: &'a str,
    allowed: &[&str],
) -> Result<&'a str, ImportError> {
    let t = text.trim();
    if allowed.contains(&t) {
        Ok(t)
    } else {
        Err(invalid(
            element,
            attribute,
            text,
            &format!("must be one of {}", allowed.join(", ")),
        ))
    }
}
