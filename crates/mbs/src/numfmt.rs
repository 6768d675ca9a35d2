//! Numbers of the CSV files as text, without a `String` per number: the text of
//! Rust's `{:e}` (the shortest digits that read back to the same `f64`, e.g. `1.5e-7`,
//! `-2e0`, `0e0`), with the digits from `ryu` (the same shortest, closest digits as
//! the standard library's, several times faster), and CSV rows written field by field.

use std::io::Write;

/// The number of binary digits after the point in the exact value of finite `v`.
fn fraction_bits(v: f64) -> i64 {
    let bits = v.to_bits();
    let exp_field = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp_field == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp_field - 1075)
    };
    if m == 0 {
        return 0;
    }
    (-(e + i64::from(m.trailing_zeros()))).max(0)
}

/// A reusable buffer for one number's text.
pub(crate) struct SciBuf {
    ryu: ryu::Buffer,
    out: [u8; 32],
}

impl Default for SciBuf {
    fn default() -> Self {
        Self {
            ryu: ryu::Buffer::new(),
            out: [0; 32],
        }
    }
}

impl SciBuf {
    /// `v` as `format!("{v:e}")` writes it (`v` finite; non-finite values give the
    /// standard library's text).
    pub(crate) fn format(&mut self, v: f64) -> &[u8] {
        if !v.is_finite() {
            return self.std(v);
        }
        let text = self.ryu.format_finite(v).as_bytes();
        let (negative, text) = match text.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, text),
        };
        // ryu writes `d.ddd`, `0.000ddd`, `ddd.0` or `d.ddde±x`: the digits, where
        // the decimal point is among them and the exponent after `e`
        let (mantissa, exp) = match text.iter().position(|&c| c == b'e') {
            Some(i) => (&text[..i], parse_exp(&text[i + 1..])),
            None => (text, 0),
        };
        let point = mantissa
            .iter()
            .position(|&c| c == b'.')
            .unwrap_or(mantissa.len());
        let digits = mantissa.iter().filter(|&&c| c != b'.');
        let mut n = 0;
        if negative {
            self.out[n] = b'-';
            n += 1;
        }
        // leading zeros shift the exponent; trailing zeros are dropped
        let mut leading = 0i32;
        let start = n;
        let mut seen = false;
        for &d in digits {
            if !seen && d == b'0' {
                leading += 1;
                continue;
            }
            seen = true;
            self.out[n] = d;
            n += 1;
            if n == start + 1 {
                self.out[n] = b'.';
                n += 1;
            }
        }
        if !seen {
            // ±0
            self.out[n] = b'0';
            n += 1;
            self.out[n..n + 2].copy_from_slice(b"e0");
            return &self.out[..n + 2];
        }
        while self.out[n - 1] == b'0' {
            n -= 1;
        }
        if self.out[n - 1] == b'.' {
            n -= 1;
        }
        let e = point as i32 - 1 - leading + exp;
        // Both formatters give the shortest digits that read back to `v` and, of
        // those, the closest; they break an exact tie differently (ryu to even, the
        // standard library away from zero: 8 + 2⁻¹⁶ = 8.0000152587890625 is
        // `8.000015258789062e0` against `8.000015258789063e0`). A tie means `v` is the
        // midpoint of two candidates whose last digit is at 10^−d, so its exact decimal
        // expansion has d + 1 digits after the point, as many as its binary one has
        // bits: where that holds (rare), the standard library writes it.
        let digits_written = (n - start - usize::from(n - start > 1)) as i64;
        let decimals = digits_written - 1 - i64::from(e);
        if fraction_bits(v) == decimals + 1 {
            return self.std(v);
        }
        self.out[n] = b'e';
        n += 1;
        let mut cursor = std::io::Cursor::new(&mut self.out[n..]);
        // at most 4 characters: the buffer holds them
        let _ = write!(cursor, "{e}");
        n += cursor.position() as usize;
        &self.out[..n]
    }
}

impl SciBuf {
    /// `v` formatted by the standard library (at most 25 characters).
    fn std(&mut self, v: f64) -> &[u8] {
        let s = format!("{v:e}");
        let n = s.len().min(self.out.len());
        self.out[..n].copy_from_slice(&s.as_bytes()[..n]);
        &self.out[..n]
    }
}

fn parse_exp(s: &[u8]) -> i32 {
    let (sign, digits) = match s.split_first() {
        Some((b'-', rest)) => (-1, rest),
        Some((b'+', rest)) => (1, rest),
        _ => (1, s),
    };
    sign * digits
        .iter()
        .fold(0i32, |a, d| 10 * a + i32::from(d - b'0'))
}

/// Writes one CSV record of numbers: the text of `{:e}` for finite values, an empty
/// field for the others (the files' convention for "not available").
pub(crate) fn write_row<W: Write>(
    w: &mut csv::Writer<W>,
    buf: &mut SciBuf,
    values: impl IntoIterator<Item = f64>,
) -> csv::Result<()> {
    for v in values {
        if v.is_finite() {
            w.write_field(buf.format(v))?;
        } else {
            w.write_field([])?;
        }
    }
    w.write_record(None::<&[u8]>)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(v: f64) {
        let mut b = SciBuf::default();
        let got = std::str::from_utf8(b.format(v)).unwrap().to_string();
        assert_eq!(got, format!("{v:e}"), "bits {:#x}", v.to_bits());
    }

    /// The text of `{:e}` for special, round, tiny, huge and random values.
    #[test]
    fn matches_the_standard_library() {
        for v in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            100.0,
            123.456,
            1e-7,
            1.5e-7,
            1e23_f64.next_down(),
            1e23,
            f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
            f64::MAX,
            f64::MIN,
            f64::EPSILON,
            1e15,
            1e16,
            1e17,
            123456789012345680.0,
            0.001,
            0.1 + 0.2,
            2.0 / 3.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            // exact ties: 1658206780088562.25, ±8.0000152587890625
            1658206780088562.0 + 0.25,
            8.0 + 2f64.powi(-16),
            -8.0 - 2f64.powi(-16),
        ] {
            check(v);
        }
        // random bit patterns (every exponent) and random values of ordinary size
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            check(f64::from_bits(x));
            check((x >> 11) as f64 / (1u64 << 53) as f64 * 20.0 - 10.0);
            // dyadic values with few bits after the point (where ties are)
            let shift = (x % 60) as i32;
            check((x >> 12) as f64 * 2f64.powi(-shift));
            check((x >> 30) as f64 * 2f64.powi(-shift));
        }
    }
}
