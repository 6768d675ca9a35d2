//! Encoding for the animation page: f32 arrays in base64, placeholders of the template,
//! and escapes so that embedded text cannot end a `<script>` element early.

/// Little-endian f32 values in standard base64 (with padding), as JavaScript's
/// `Float32Array` reads them after `atob`.
pub(super) fn f32_base64(values: impl Iterator<Item = f64>) -> String {
    let bytes: Vec<u8> = values.flat_map(|v| (v as f32).to_le_bytes()).collect();
    base64(&bytes)
}

/// Little-endian u32 values in base64, as JavaScript's `Uint32Array` reads them.
pub(super) fn u32_base64(values: impl Iterator<Item = u32>) -> String {
    let bytes: Vec<u8> = values.flat_map(u32::to_le_bytes).collect();
    base64(&bytes)
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Replaces every `{{KEY}}` of `template` by its value, in one pass (text inserted is
/// never scanned again). Unknown keys are left as they are.
pub(super) fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let extra: usize = values.iter().map(|(_, v)| v.len()).sum();
    let mut out = String::with_capacity(template.len() + extra);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}").map(|end| (&after[..end], end)) {
            Some((key, end)) if values.iter().any(|(k, _)| *k == key) => {
                let value = values
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map_or("", |(_, v)| *v);
                out.push_str(value);
                rest = &after[end + 2..];
            }
            _ => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Text for an HTML element or attribute.
pub(super) fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// JavaScript source or JSON text inside `<script>`: `</script` and `<!--` cannot
/// appear. Every `<` becomes `\u003c`, which is the same character inside JSON strings
/// and JavaScript strings, regular expressions and template literals (the only places
/// where either sequence can occur in valid code).
pub(super) fn escape_script(code: &str) -> String {
    let lower = code.to_ascii_lowercase();
    if !lower.contains("</script") && !lower.contains("<!--") {
        return code.to_string();
    }
    let mut out = String::with_capacity(code.len() + 16);
    let mut i = 0;
    while let Some(k) = code[i..].find('<') {
        out.push_str(&code[i..i + k]);
        let at = &lower[i + k..];
        if at.starts_with("</script") || at.starts_with("<!--") {
            out.push_str("\\u003c");
        } else {
            out.push('<');
        }
        i += k + 1;
    }
    out.push_str(&code[i..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard_alphabet_and_padding() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        // 1.0f32 = 0x3f800000, little-endian bytes 00 00 80 3f
        assert_eq!(f32_base64([1.0].into_iter()), "AACAPw==");
    }

    #[test]
    fn fill_replaces_known_keys_once() {
        let t = "a {{X}} b {{Y}} {{unknown}} {{";
        assert_eq!(
            fill(t, &[("X", "{{Y}}"), ("Y", "2")]),
            "a {{Y}} b 2 {{unknown}} {{"
        );
    }

    #[test]
    fn script_text_cannot_close_the_element() {
        let s = escape_script(r#"{"name": "</SCRIPT><!-- x"}"#);
        assert!(
            !s.to_ascii_lowercase().contains("</script") && !s.contains("<!--"),
            "{s}"
        );
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["name"], "</SCRIPT><!-- x");
        assert_eq!(escape_script("a < b"), "a < b");
    }
}
