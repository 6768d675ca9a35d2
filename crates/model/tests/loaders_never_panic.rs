//! The loaders return an error, never panic, on arbitrary input: random bytes,
//! token soup, and random mutations of the example model files.

use mbs_model::Model;
use proptest::prelude::*;

const DOUBLE_PENDULUM: &str = include_str!("../../../examples/models/double_pendulum.toml");
const FOUR_BAR: &str = include_str!("../../../examples/models/four_bar.json");
const SHAPES: &str = include_str!("../../../examples/models/pendulum_with_shapes.toml");

fn load_both(text: &str) {
    // The result does not matter, only that there is one.
    let _ = Model::from_json_str(text);
    let _ = Model::from_toml_str(text);
}

/// One edit of a byte string.
#[derive(Clone, Debug)]
enum Mutation {
    Delete { at: usize, len: usize },
    Insert { at: usize, bytes: Vec<u8> },
    Replace { at: usize, byte: u8 },
    Duplicate { at: usize, len: usize, to: usize },
}

fn apply(text: &mut Vec<u8>, m: &Mutation) {
    let n = text.len().max(1);
    match m {
        Mutation::Delete { at, len } => {
            let a = at % n;
            let b = (a + len).min(text.len());
            if a < b {
                text.drain(a..b);
            }
        }
        Mutation::Insert { at, bytes } => {
            let a = (at % (text.len() + 1)).min(text.len());
            text.splice(a..a, bytes.iter().copied());
        }
        Mutation::Replace { at, byte } => {
            if !text.is_empty() {
                let a = at % text.len();
                text[a] = *byte;
            }
        }
        Mutation::Duplicate { at, len, to } => {
            let a = at % n;
            let b = (a + len).min(text.len());
            if a < b {
                let piece = text[a..b].to_vec();
                let t = (to % (text.len() + 1)).min(text.len());
                text.splice(t..t, piece);
            }
        }
    }
}

/// Bytes that matter to the two syntaxes, and a few that should not appear.
fn interesting_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        prop::sample::select(b"[]{}=,:\"'.#\n-+0123456789eE_ \\".to_vec()),
        any::<u8>(),
    ]
}

fn interesting_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(interesting_byte(), 1..8),
        prop::sample::select(vec![
            b"nan".to_vec(),
            b"inf".to_vec(),
            b"-inf".to_vec(),
            b"1e400".to_vec(),
            b"-0.0".to_vec(),
            b"\"ground\"".to_vec(),
            b"[[bodies]]\n".to_vec(),
            b"[[joints]]\ntype = \"revolute\"\n".to_vec(),
            b"{\"type\": \"sum\", \"terms\": [".to_vec(),
            b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[".to_vec(),
            b"99999999999999999999999".to_vec(),
            b"density = 1e-300\n".to_vec(),
            b"origin = \"reference\"\n".to_vec(),
            b"[[bodies.shapes]]\ntype = \"capsule\"\n".to_vec(),
            "é√∞".as_bytes().to_vec(),
        ]),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let pos = 0usize..4096;
    prop_oneof![
        (pos.clone(), 1usize..40).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (pos.clone(), interesting_bytes()).prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        (pos.clone(), interesting_byte()).prop_map(|(at, byte)| Mutation::Replace { at, byte }),
        (pos.clone(), 1usize..200, pos).prop_map(|(at, len, to)| Mutation::Duplicate {
            at,
            len,
            to
        }),
    ]
}

// 5 properties × 3000 cases = 15 000 loader runs per CI run (robustness issue:
// ≥ 10 000 without a panic); ≈ 0.8 s in the test profile.
proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        load_both(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn token_soup_never_panics(s in "([\\[\\]{}=,:\"\n .#-]|[a-z_]{1,8}|[0-9.eE+-]{1,6}|ground|bodies|markers|joints|type|revolute|mass|inertia){0,80}") {
        load_both(&s);
    }

    #[test]
    fn mutated_toml_example_never_panics(ms in prop::collection::vec(mutation(), 1..5)) {
        let mut text = DOUBLE_PENDULUM.as_bytes().to_vec();
        for m in &ms {
            apply(&mut text, m);
        }
        load_both(&String::from_utf8_lossy(&text));
    }

    #[test]
    fn mutated_shapes_example_never_panics(ms in prop::collection::vec(mutation(), 1..5)) {
        let mut text = SHAPES.as_bytes().to_vec();
        for m in &ms {
            apply(&mut text, m);
        }
        load_both(&String::from_utf8_lossy(&text));
    }

    #[test]
    fn mutated_json_example_never_panics(ms in prop::collection::vec(mutation(), 1..5)) {
        let mut text = FOUR_BAR.as_bytes().to_vec();
        for m in &ms {
            apply(&mut text, m);
        }
        load_both(&String::from_utf8_lossy(&text));
    }
}

#[test]
fn the_unmutated_examples_load() {
    Model::from_toml_str(DOUBLE_PENDULUM).unwrap();
    Model::from_json_str(FOUR_BAR).unwrap();
    Model::from_toml_str(SHAPES).unwrap();
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep_json = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(Model::from_json_str(&deep_json).is_err());
    let deep_toml = format!("a = {}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(Model::from_toml_str(&deep_toml).is_err());
    // nested sums of time functions: fine when shallow, a parse error when too deep
    let harmonic = r#"{ "type": "harmonic", "amplitude": 0.5, "frequency": 6.283185307179586 }"#;
    assert!(FOUR_BAR.contains(harmonic));
    let nested = |depth: usize| {
        let mut f = String::from("1.5");
        for _ in 0..depth {
            f = format!("{{\"type\": \"sum\", \"terms\": [{f}, 0.0]}}");
        }
        FOUR_BAR.replacen(harmonic, &f, 1)
    };
    let m = Model::from_json_str(&nested(30)).unwrap();
    assert_eq!(Model::from_toml_str(&m.to_toml_string()).unwrap(), m);
    assert!(Model::from_json_str(&nested(5000)).is_err());
}
