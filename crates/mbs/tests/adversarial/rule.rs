//! The "named error" rule: what an error message must contain to tell the user what
//! is wrong.
//!
//! A message is **named** when, compared case-insensitively, it contains
//!
//! 1. one of the case's tokens (a one-character token only in backticks, `` `O` ``,
//!    as the messages quote names): the key of the changed
//!    field or any key on the path to it (`mass`, `inertia`, `position`, `bodies`), the
//!    `name` of an element enclosing it (body, marker, joint, force or driver), a name
//!    the mutation introduced (a duplicated or dangling name), or the offending value
//!    as written or as Rust prints it (`nan`, `inf`, `-1`, `1e308`,
//!    `forty-two`, `123456789012345678901234567890`); for byte-level mutations the
//!    tokens are every element name of the model and the file's name; or
//! 2. a position in the file, `line N` (a syntax error found by the JSON/TOML
//!    parser, which cannot know an element: the line is how the user finds it).
//!
//! Anything else (e.g. `model: invalid` or `simulation failed: NaN`) is an
//! **unnamed error**: a test failure.

/// Whether `message` names one of `tokens` or a line of the file (see the module docs).
pub fn is_named(message: &str, tokens: &[String]) -> bool {
    let m = message.to_lowercase();
    let names_token = tokens.iter().any(|t| {
        let t = t.to_lowercase();
        match t.chars().count() {
            0 => false,
            1 => m.contains(&format!("`{t}`")),
            _ => m.contains(&t),
        }
    });
    names_token || names_line(&m)
}

/// `line N` with digits after it.
fn names_line(m: &str) -> bool {
    m.match_indices("line ").any(|(i, _)| {
        m[i + 5..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    })
}

#[test]
fn the_rule_accepts_names_and_lines_and_rejects_the_rest() {
    let tokens = vec![
        "link1".to_string(),
        "mass".to_string(),
        "0".to_string(),
        "O".into(),
    ];
    assert!(is_named("joint `O`: refers to unknown marker", &tokens));
    assert!(!is_named("model: nothing", &tokens));
    assert!(is_named("body `link1`: bad", &tokens));
    assert!(is_named("MASS must be positive", &tokens));
    assert!(is_named("TOML model file, line 3, column 7: oops", &[]));
    assert!(!is_named("model: invalid value 0", &tokens));
    assert!(!is_named("a line without number", &[]));
}
