//! Reading decimal numbers into `f64`, correctly rounded, without the standard library's reader.
//!
//! [`parse_f64`] accepts exactly what `str::parse::<f64>` accepts and returns the same value, bit
//! for bit (`tests/float.rs` checks this against the standard library on edge cases, random
//! strings and exact halfway points). It exists for the web app's download size: the standard
//! reader (Eisel-Lemire with a fallback) carries a 10 KB table of 128-bit powers of five and a
//! decimal fallback with tables of its own, about 13 KB gzipped in the app's wasm; this reader
//! has no table beyond the 23 exact powers of ten.
//!
//! How: a number whose digits fit in 53 bits and whose power of ten is at most 22 is exact in
//! one multiplication or division (Clinger's fast path), which covers most values in result
//! files. Any other number starts from a floating-point estimate a few units in the last place
//! (ulps) off, then moves one ulp at a time while the decimal value lies beyond the halfway
//! point to the neighbour, comparing exactly with big integers (Clinger's algorithm R). Ties go
//! to the even neighbour, as IEEE 754 rounds.

use std::cmp::Ordering;

/// The powers of ten that are exact in an `f64`.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Significant digits kept. An `f64` halfway point has at most 767 significant digits, so the
/// value of any longer number is decided by its first 800 digits and whether any later digit is
/// not zero (kept as a final 1).
const MAX_DIGITS: usize = 800;

/// Reads `s` as `str::parse::<f64>` does: an optional sign, then digits with an optional
/// decimal point and exponent (`1`, `-2.5`, `.5`, `5.`, `1e-3`, `+4E+2`), or `inf`,
/// `infinity` or `nan` in any case. No spaces. `None` where the standard reader fails.
///
/// # Examples
/// ```
/// use coglab_core::float::parse_f64;
/// assert_eq!(parse_f64("0.2687"), Some(0.2687));
/// assert_eq!(parse_f64("-1.5e3"), Some(-1500.0));
/// assert_eq!(parse_f64("0.47368421052631576"), "0.47368421052631576".parse().ok());
/// assert_eq!(parse_f64("1,5"), None);
/// ```
pub fn parse_f64(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let (negative, rest) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    let value = parse_unsigned(rest)?;
    Some(if negative { -value } else { value })
}

/// A number without its sign.
fn parse_unsigned(b: &[u8]) -> Option<f64> {
    for (word, value) in [
        (&b"inf"[..], f64::INFINITY),
        (b"infinity", f64::INFINITY),
        (b"nan", f64::NAN),
    ] {
        if b.eq_ignore_ascii_case(word) {
            return Some(value);
        }
    }
    let d = Decimal::parse(b)?;
    Some(d.to_f64())
}

/// A decimal number: `digits × 10^exp`, the digits without leading zeros (each 0-9).
struct Decimal {
    digits: Vec<u8>,
    exp: i64,
}

impl Decimal {
    /// Reads digits, an optional point and an optional exponent; `None` for anything else.
    fn parse(b: &[u8]) -> Option<Self> {
        let mut digits = Vec::new();
        let mut exp: i64 = 0;
        let mut any_digit = false;
        let mut dropped_nonzero = false;
        let mut i = 0;
        let mut push = |d: u8, digits: &mut Vec<u8>, exp: &mut i64, after_point: bool| {
            if digits.is_empty() && d == 0 {
                // A leading zero: only the position counts.
                if after_point {
                    *exp -= 1;
                }
            } else if digits.len() < MAX_DIGITS {
                digits.push(d);
                if after_point {
                    *exp -= 1;
                }
            } else {
                dropped_nonzero |= d != 0;
                if !after_point {
                    *exp += 1;
                }
            }
        };
        while i < b.len() && b[i].is_ascii_digit() {
            push(b[i] - b'0', &mut digits, &mut exp, false);
            any_digit = true;
            i += 1;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                push(b[i] - b'0', &mut digits, &mut exp, true);
                any_digit = true;
                i += 1;
            }
        }
        if !any_digit {
            return None;
        }
        if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            i += 1;
            let negative = match b.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let start = i;
            let mut e: i64 = 0;
            while i < b.len() && b[i].is_ascii_digit() {
                // Saturates far beyond any exponent that can matter.
                e = (e * 10 + i64::from(b[i] - b'0')).min(1 << 40);
                i += 1;
            }
            if i == start {
                return None;
            }
            exp += if negative { -e } else { e };
        }
        if i != b.len() {
            return None;
        }
        if dropped_nonzero {
            digits.push(1);
            exp -= 1;
        }
        // Trailing zeros carry no information; dropping them widens the fast path.
        while digits.last() == Some(&0) {
            digits.pop();
            exp += 1;
        }
        Some(Self { digits, exp })
    }

    /// The nearest `f64` (ties to even).
    fn to_f64(&self) -> f64 {
        if self.digits.is_empty() {
            return 0.0;
        }
        let n = self.digits.len() as i64;
        // The value lies in [10^(n + exp - 1), 10^(n + exp)).
        if n + self.exp > 310 {
            return f64::INFINITY;
        }
        if n + self.exp < -325 {
            return 0.0;
        }
        // The first 19 digits as an integer, and the power of ten that goes with them.
        let lead = self.digits.len().min(19);
        let w = self.digits[..lead]
            .iter()
            .fold(0u64, |w, &d| w * 10 + u64::from(d));
        let e = self.exp + (self.digits.len() - lead) as i64;
        if lead == self.digits.len() && w < 1 << 53 {
            // Clinger's fast path: both factors exact, one rounding.
            if (0..=22).contains(&e) {
                return w as f64 * POW10[e as usize];
            }
            if (-22..0).contains(&e) {
                return w as f64 / POW10[(-e) as usize];
            }
        }
        let mut z = estimate(w, e);
        let big = Big::from_digits(&self.digits);
        // Algorithm R: step towards the value while it is beyond a halfway point; on a
        // halfway point itself, towards the even neighbour (away from an odd `z`).
        loop {
            let odd = z.to_bits() & 1 == 1;
            let past = |o: Ordering, away: Ordering| o == away || (o == Ordering::Equal && odd);
            if z < f64::INFINITY {
                let up = next_up(z);
                if past(cmp_halfway(&big, self.exp, z, up), Ordering::Greater) {
                    z = up;
                    continue;
                }
            }
            if z > 0.0 {
                let down = next_down(z);
                if past(cmp_halfway(&big, self.exp, down, z), Ordering::Less) {
                    z = down;
                    continue;
                }
            }
            return z;
        }
    }
}

/// `w × 10^e` in floating point, a few ulps from the exact value (the steps below correct it).
/// Scales in exact steps of 10^22; each step rounds once. The intermediate values lie between
/// `w` and the result, so none overflows or underflows unless the result does.
fn estimate(w: u64, mut e: i64) -> f64 {
    let mut z = w as f64;
    while e > 22 && z.is_finite() {
        z *= POW10[22];
        e -= 22;
    }
    while e < -22 {
        z /= POW10[22];
        e += 22;
    }
    if e >= 0 {
        z * POW10[e.min(22) as usize]
    } else {
        z / POW10[(-e) as usize]
    }
}

/// The next `f64` above a finite non-negative `z` (infinity after the largest).
fn next_up(z: f64) -> f64 {
    f64::from_bits(z.to_bits() + 1)
}

/// The next `f64` below a positive `z` (the largest finite below infinity).
fn next_down(z: f64) -> f64 {
    f64::from_bits(z.to_bits() - 1)
}

/// `z` as `m × 2^k` with an integer `m`; infinity as 2^1024 (the rounding limit for overflow is
/// halfway between the largest `f64` and 2^1024).
fn decompose(z: f64) -> (u64, i64) {
    let bits = z.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1 << 52) - 1);
    match exp {
        0 => (frac, -1074),
        0x7ff => (1 << 52, 972),
        _ => (frac | (1 << 52), exp - 1075),
    }
}

/// Compares `digits × 10^exp` with the point halfway between the adjacent `lo < hi`.
fn cmp_halfway(digits: &Big, exp: i64, lo: f64, hi: f64) -> Ordering {
    let (ml, kl) = decompose(lo);
    let (mh, kh) = decompose(hi);
    let k = kl.min(kh);
    // (lo + hi) / 2 = h × 2^(k - 1), h below 2^55.
    let h = (ml << (kl - k)) + (mh << (kh - k));
    let mut x = digits.clone();
    let mut y = Big::from_u64(h);
    // Compare x × 10^exp = x × 5^exp × 2^exp with y × 2^(k - 1).
    if exp >= 0 {
        x.mul_pow5(exp as u32);
    } else {
        y.mul_pow5((-exp) as u32);
    }
    let two_x = exp;
    let two_y = k - 1;
    if two_x > two_y {
        x.shl((two_x - two_y) as u32);
    } else {
        y.shl((two_y - two_x) as u32);
    }
    x.cmp(&y)
}

/// A non-negative big integer, base 2^32 digits, least significant first, no high zeros.
#[derive(Clone, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(v: u64) -> Self {
        let mut b = Big(vec![v as u32, (v >> 32) as u32]);
        b.trim();
        b
    }

    fn from_digits(digits: &[u8]) -> Self {
        let mut b = Big(Vec::new());
        // Nine decimal digits at a time fit a u32 multiplier.
        for chunk in digits.chunks(9) {
            let (mut mul, mut add) = (1u32, 0u32);
            for &d in chunk {
                mul *= 10;
                add = add * 10 + u32::from(d);
            }
            b.mul_add(mul, add);
        }
        b
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    /// `self × m + a`.
    fn mul_add(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// `self × 5^n`.
    fn mul_pow5(&mut self, mut n: u32) {
        // 5^13 is the largest power of five below 2^32.
        while n >= 13 {
            self.mul_add(1_220_703_125, 0);
            n -= 13;
        }
        if n > 0 {
            self.mul_add(5u32.pow(n), 0);
        }
    }

    /// `self × 2^n`.
    fn shl(&mut self, n: u32) {
        if self.0.is_empty() {
            return;
        }
        let (limbs, bits) = ((n / 32) as usize, n % 32);
        if bits > 0 {
            let mut carry = 0u32;
            for limb in &mut self.0 {
                let v = (*limb << bits) | carry;
                carry = *limb >> (32 - bits);
                *limb = v;
            }
            if carry > 0 {
                self.0.push(carry);
            }
        }
        self.0.splice(0..0, std::iter::repeat_n(0, limbs));
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_integers_by_hand() {
        // 123456789012345678901234567890 = 0x18EE90FF6C373E0EE4E3F0AD2.
        let b = Big::from_digits(&[
            1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
            0,
        ]);
        assert_eq!(b.0, vec![0x4E3F0AD2, 0xC373E0EE, 0x8EE90FF6, 0x1]);
        let mut p = Big::from_u64(1);
        p.mul_pow5(27);
        // 5^27 = 7450580596923828125.
        assert_eq!(p.0, Big::from_u64(7_450_580_596_923_828_125).0);
        let mut s = Big::from_u64(3);
        s.shl(65);
        assert_eq!(s.0, vec![0, 0, 6]);
        assert!(Big::from_u64(1 << 40) > Big::from_u64(u32::MAX as u64));
    }

    #[test]
    fn decompose_by_hand() {
        assert_eq!(decompose(1.0), (1 << 52, -52));
        assert_eq!(decompose(f64::from_bits(1)), (1, -1074));
        assert_eq!(decompose(f64::MAX), ((1 << 53) - 1, 971));
    }
}
