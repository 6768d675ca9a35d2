//! Deterministic mutations of model files: a fixed-seed RNG, tree mutations of the
//! parsed document (rendered as JSON and as TOML) and byte mutations of the text.
//! Every case carries the words an error about it may name (see `rule`).

use serde_json::{Map, Value};

/// SplitMix64: a small deterministic generator (the suite's cases are the same on
/// every run and machine).
pub struct Rng(u64);

impl Rng {
    /// A generator with `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// One element of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The file format of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `.json`
    Json,
    /// `.toml`
    Toml,
}

impl Format {
    /// The file extension.
    pub fn ext(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Toml => "toml",
        }
    }
}

/// One mutated model file.
#[derive(Clone, Debug)]
pub struct Case {
    /// What was done, e.g. `double-pendulum: bodies/0/mass := nan (toml)`.
    pub label: String,
    /// Format (the file's extension).
    pub format: Format,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Words an error message about this case may name (`rule::is_named`).
    pub tokens: Vec<String>,
}

/// A number that JSON values cannot hold, written into the text after rendering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Special {
    Nan,
    Inf,
    NegInf,
    HugeInt,
}

const SPECIALS: [Special; 4] = [
    Special::Nan,
    Special::Inf,
    Special::NegInf,
    Special::HugeInt,
];

impl Special {
    fn sentinel(self) -> String {
        format!("@@special-{self:?}@@")
    }
    fn text(self, format: Format) -> &'static str {
        match (self, format) {
            (Special::Nan, Format::Json) => "NaN",
            (Special::Nan, Format::Toml) => "nan",
            (Special::Inf, Format::Json) => "1e999",
            (Special::Inf, Format::Toml) => "inf",
            (Special::NegInf, Format::Json) => "-1e999",
            (Special::NegInf, Format::Toml) => "-inf",
            (Special::HugeInt, _) => "123456789012345678901234567890",
        }
    }
    fn tokens(self) -> Vec<String> {
        match self {
            Special::Nan => vec!["nan".into()],
            Special::Inf | Special::NegInf => vec!["inf".into(), "1e999".into()],
            Special::HugeInt => vec!["123456789012345678901234567890".into()],
        }
    }
}

/// One step of a path into a document.
#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

fn path_text(path: &[Seg]) -> String {
    let parts: Vec<String> = path
        .iter()
        .map(|s| match s {
            Seg::Key(k) => k.clone(),
            Seg::Index(i) => i.to_string(),
        })
        .collect();
    format!("/{}", parts.join("/"))
}

/// Every node's path (the root included).
fn paths(v: &Value, prefix: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
    out.push(prefix.clone());
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                prefix.push(Seg::Key(k.clone()));
                paths(c, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                prefix.push(Seg::Index(i));
                paths(c, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn get_mut<'a>(v: &'a mut Value, path: &[Seg]) -> &'a mut Value {
    path.iter().fold(v, |v, s| match s {
        Seg::Key(k) => &mut v[k.as_str()],
        Seg::Index(i) => &mut v[*i],
    })
}

fn get<'a>(v: &'a Value, path: &[Seg]) -> &'a Value {
    path.iter().fold(v, |v, s| match s {
        Seg::Key(k) => &v[k.as_str()],
        Seg::Index(i) => &v[*i],
    })
}

/// The words an error about the node at `path` may name: every key on the path and
/// the `name` of every element that encloses the node (at the root, whose change may
/// leave no bodies: the missing key `bodies`).
fn path_tokens(doc: &Value, path: &[Seg]) -> Vec<String> {
    let mut out = Vec::new();
    if path.is_empty() {
        out.push("`bodies`".to_string());
    }
    for k in 0..=path.len() {
        if let Some(name) = get(doc, &path[..k]).get("name").and_then(Value::as_str) {
            out.push(name.to_string());
        }
        if let Some(Seg::Key(key)) = path.get(k) {
            out.push(key.clone());
        }
    }
    out
}

/// Every `name` string in the document (elements a byte mutation may have hit).
fn all_names(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                match c {
                    Value::String(s) if k == "name" => out.push(s.clone()),
                    _ => all_names(c, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|c| all_names(c, out)),
        _ => {}
    }
}

/// How deeply `v` nests.
fn depth(v: &Value) -> usize {
    match v {
        Value::Object(m) => 1 + m.values().map(depth).max().unwrap_or(0),
        Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// `depth` nested one-element arrays around a number.
fn nested_junk(depth: usize) -> Value {
    (0..depth).fold(Value::from(1.0), |v, _| Value::Array(vec![v]))
}

/// A tree mutation of `doc` chosen by `rng`: the mutated document and its label and
/// tokens; `None` when the chosen mutation does not apply to the chosen node.
fn tree_mutation(doc: &Value, rng: &mut Rng) -> Option<(Value, String, Vec<String>)> {
    let mut all = Vec::new();
    paths(doc, &mut Vec::new(), &mut all);
    let path = rng.pick(&all).clone();
    let mut d = doc.clone();
    let mut tokens = path_tokens(doc, &path);
    let node = get(doc, &path).clone();
    let what: String;
    match rng.below(12) {
        // delete a key, or an element of an array (shrinks the vector)
        0 => {
            let (last, parent) = path.split_last()?;
            // errors may name what referred to the deleted elements
            all_names(&node, &mut tokens);
            match (last, get_mut(&mut d, parent)) {
                (Seg::Key(k), Value::Object(m)) => {
                    m.remove(k);
                }
                (Seg::Index(i), Value::Array(a)) => {
                    a.remove(*i);
                }
                _ => return None,
            }
            what = "deleted".into();
        }
        // a number that JSON cannot hold
        1 | 2 => {
            let s = *rng.pick(&SPECIALS);
            tokens.extend(s.tokens());
            *get_mut(&mut d, &path) = Value::String(s.sentinel());
            what = format!(":= {s:?}");
        }
        // an ordinary number out of range
        3 | 4 => {
            let v: f64 = *rng.pick(&[-1.0, 0.0, 1e308, -1e308, 1e-300]);
            let as_int = rng.below(2) == 0 && v == v.trunc() && v.abs() < 1e3;
            let value = if as_int {
                Value::from(v as i64)
            } else {
                Value::from(v)
            };
            tokens.push(format!("{v}"));
            tokens.push(format!("{v:?}"));
            tokens.push(value.to_string());
            *get_mut(&mut d, &path) = value;
            what = format!(":= {v:?}");
        }
        // a string where a number is, or a number where a string is
        5 => {
            let value = match node {
                Value::String(_) => Value::from(42),
                _ => Value::String("forty-two".into()),
            };
            tokens.push(value.to_string().trim_matches('"').to_string());
            *get_mut(&mut d, &path) = value;
            what = "type changed".into();
        }
        // a vector one shorter, one longer, or empty
        6 => {
            let Value::Array(a) = get_mut(&mut d, &path) else {
                return None;
            };
            // errors may name what referred to a removed element
            all_names(&node, &mut tokens);
            match rng.below(3) {
                0 => {
                    a.pop();
                }
                1 => {
                    let extra = a.last().cloned().unwrap_or(Value::from(0.5));
                    a.push(extra);
                    a.push(Value::from(0.25));
                }
                _ => a.clear(),
            }
            what = "vector resized".into();
        }
        // two elements with one name
        7 => {
            let (last, parent) = path.split_last()?;
            let Seg::Index(i) = last else { return None };
            let Value::Array(a) = get_mut(&mut d, parent) else {
                return None;
            };
            let j = rng.below(a.len());
            let name = a[j].get("name")?.clone();
            a[*i].as_object_mut()?.insert("name".into(), name.clone());
            tokens.push(name.as_str()?.to_string());
            what = "duplicate name".into();
        }
        // a reference to an element that does not exist
        8 => {
            let Some(Seg::Key(k)) = path.last() else {
                return None;
            };
            if !node.is_string() || k == "name" {
                return None;
            }
            let missing = format!("missing-{}", rng.below(1000));
            tokens.push(missing.clone());
            *get_mut(&mut d, &path) = Value::String(missing);
            what = "dangling reference".into();
        }
        // deeply nested junk
        9 => {
            let depth = *rng.pick(&[40, 300, 5000]);
            *get_mut(&mut d, &path) = nested_junk(depth);
            what = format!("nested {depth} deep");
        }
        // an unknown key
        10 => {
            let Value::Object(m) = get_mut(&mut d, &path) else {
                return None;
            };
            m.insert("bogus_key".into(), Value::from(1.0));
            tokens.push("bogus_key".into());
            what = "unknown key".into();
        }
        // a value of another shape: boolean, empty table, empty array
        _ => {
            let value = rng
                .pick(&[
                    Value::Bool(true),
                    Value::Object(Map::new()),
                    Value::Array(vec![]),
                ])
                .clone();
            *get_mut(&mut d, &path) = value;
            what = "shape changed".into();
        }
    }
    Some((d, format!("{} {what}", path_text(&path)), tokens))
}

/// `doc` as text in `format` (special numbers put in), or `None` when the format
/// cannot hold it (e.g. TOML with a top level that is not a table).
fn render(doc: &Value, format: Format) -> Option<String> {
    let mut text = match format {
        // compact when deep nesting would make the indentation megabytes long
        Format::Json if depth(doc) > 100 => serde_json::to_string(doc).ok()?,
        Format::Json => serde_json::to_string_pretty(doc).ok()?,
        Format::Toml => toml::to_string(doc).ok()?,
    };
    for s in SPECIALS {
        for quoted in [
            format!("\"{}\"", s.sentinel()),
            format!("'{}'", s.sentinel()),
        ] {
            text = text.replace(&quoted, s.text(format));
        }
    }
    Some(text)
}

/// `n` tree mutations of `doc`, each rendered in both formats.
pub fn tree_cases(seed_name: &str, doc: &Value, n: usize, rng: &mut Rng) -> Vec<Case> {
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < 2 * n && tries < 20 * n {
        tries += 1;
        let Some((d, what, tokens)) = tree_mutation(doc, rng) else {
            continue;
        };
        for format in [Format::Json, Format::Toml] {
            if let Some(text) = render(&d, format) {
                out.push(Case {
                    label: format!("{seed_name}: {what} ({})", format.ext()),
                    format,
                    bytes: text.into_bytes(),
                    tokens: tokens.clone(),
                });
            }
        }
    }
    out
}

/// `n` byte mutations of `doc`'s text in both formats: truncation, overwritten bytes
/// (not always UTF-8), an empty file, random bytes.
pub fn byte_cases(seed_name: &str, doc: &Value, n: usize, rng: &mut Rng) -> Vec<Case> {
    let mut names = Vec::new();
    all_names(doc, &mut names);
    let mut out = Vec::new();
    for format in [Format::Json, Format::Toml] {
        let Some(text) = render(doc, format) else {
            continue;
        };
        let text = text.into_bytes();
        for _ in 0..n {
            let (bytes, what) = match rng.below(4) {
                0 => {
                    let cut = rng.below(text.len().max(1));
                    (text[..cut].to_vec(), format!("truncated at byte {cut}"))
                }
                1 => {
                    let mut b = text.clone();
                    for _ in 0..1 + rng.below(8) {
                        let i = rng.below(b.len().max(1));
                        if let Some(x) = b.get_mut(i) {
                            *x = rng.next_u64() as u8;
                        }
                    }
                    (b, "bytes overwritten".into())
                }
                2 => (Vec::new(), "empty file".into()),
                _ => {
                    let len = 1 + rng.below(400);
                    let b = (0..len).map(|_| rng.next_u64() as u8).collect();
                    (b, format!("{len} random bytes"))
                }
            };
            out.push(Case {
                label: format!("{seed_name}: {what} ({})", format.ext()),
                format,
                bytes,
                // a cut or empty file may parse to a document without bodies: its
                // message names the missing key
                tokens: names
                    .iter()
                    .cloned()
                    .chain(["`bodies`".to_string()])
                    .collect(),
            });
        }
    }
    out
}
