//! `float::parse_f64` against the standard library's `str::parse::<f64>` (the reference, a
//! correctly rounded reader): the same acceptance and the same bits on edge cases, on the
//! shortest and long forms of random doubles, on random digit strings, and on the exact halfway
//! points between neighbouring doubles, where rounding is hardest.

use coglab_core::float::parse_f64;

/// Same outcome as the standard reader: both refuse, both NaN, or the same bits.
fn check(s: &str) {
    let ours = parse_f64(s);
    let std = s.parse::<f64>().ok();
    match (ours, std) {
        (Some(a), Some(b)) if a.is_nan() && b.is_nan() => {}
        (Some(a), Some(b)) => assert_eq!(
            a.to_bits(),
            b.to_bits(),
            "{s:?}: ours {a:e}, standard {b:e}"
        ),
        (None, None) => {}
        (a, b) => panic!("{s:?}: ours {a:?}, standard {b:?}"),
    }
}

/// splitmix64: a small deterministic generator, so a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[test]
fn values_worked_by_hand() {
    assert_eq!(parse_f64("0.2687"), Some(0.2687));
    assert_eq!(parse_f64("33.17"), Some(33.17));
    assert_eq!(parse_f64("-0"), Some(-0.0));
    assert!(parse_f64("-0").unwrap().is_sign_negative());
    assert_eq!(parse_f64("1e3"), Some(1000.0));
    assert_eq!(parse_f64(".5"), Some(0.5));
    assert_eq!(parse_f64("5."), Some(5.0));
    assert_eq!(parse_f64("Infinity"), Some(f64::INFINITY));
    assert!(parse_f64("NaN").unwrap().is_nan());
    // 2^53 + 1 is halfway between 2^53 and 2^53 + 2: to the even one, 2^53.
    assert_eq!(parse_f64("9007199254740993"), Some(9_007_199_254_740_992.0));
    // 2^53 + 3 is halfway between 2^53 + 2 and 2^53 + 4: to the even one, 2^53 + 4.
    assert_eq!(parse_f64("9007199254740995"), Some(9_007_199_254_740_996.0));
    // Just above the halfway point: up.
    assert_eq!(
        parse_f64("9007199254740993.0000000000000000000001"),
        Some(9_007_199_254_740_994.0)
    );
    // The smallest subnormal, 2^-1074 = 4.9406564584124654e-324, and half of it (to even: 0).
    assert_eq!(parse_f64("5e-324"), Some(f64::from_bits(1)));
    assert_eq!(
        parse_f64("2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324"),
        Some(0.0)
    );
    assert_eq!(parse_f64("1.7976931348623157e308"), Some(f64::MAX));
    assert_eq!(parse_f64("1.8e308"), Some(f64::INFINITY));
    assert_eq!(parse_f64("1e-400"), Some(0.0));
    for bad in [
        "", "+", "-", ".", "e5", "1e", "1e+", " 1", "1 ", "1_0", "0x10", "1,5", "--1", "in",
        "infin", "nana", "1e5.0",
    ] {
        assert_eq!(parse_f64(bad), None, "{bad:?}");
    }
}

#[test]
fn edge_cases_as_the_standard_reader() {
    let cases = [
        "0", "-0", "+0", "0.0", "00000", "000.000e5", "0e999999999999999999999", "1e999999999999999999999",
        "1e-999999999999999999999", "-1e-999999999999999999999", "inf", "+inf", "-inf", "INF", "iNfInItY",
        "-infinity", "nan", "-nan", "NAN", "+NaN", "infinityx", "1.", ".1", "-.1e-1", "1.e1", "1e+1",
        "1E-1", "1e01", "12345678901234567890", "123456789012345678901234567890",
        "0.1", "0.2", "0.3", "0.30000000000000004", "0.47368421052631576", "2.2250738585072011e-308",
        "2.2250738585072014e-308", "2.2250738585072012e-308", "4.9406564584124654e-324",
        "2.4703282292062328e-324", "2.4703282292062327e-324", "1.7976931348623158e308",
        "1.7976931348623159e308", "1.797693134862315807e308", "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792",
        "8.98846567431158e307", "9007199254740992", "9007199254740993", "9007199254740994",
        "18014398509481983", "18014398509481985", "1e22", "1e23", "9999999999999999e22",
        "123456789e-30", "7.038531e-26", "5e-324", "1e-323", "3e-324", "2e-324",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000e-300",
        "0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001",
    ];
    for c in cases {
        check(c);
    }
    // A long number whose 801st significant digit decides nothing, and one where it does.
    let mut long = String::from("1.");
    long.push_str(&"0".repeat(900));
    long.push('1');
    check(&long);
    check(&format!("{long}e-300"));
    let mut near_half = String::from("9007199254740993");
    near_half.push_str(&"0".repeat(850));
    check(&near_half);
    near_half.push('1');
    check(&near_half);
}

#[test]
fn random_doubles_in_their_written_forms() {
    let mut rng = Rng(20261122);
    for _ in 0..60_000 {
        let x = f64::from_bits(rng.next());
        if !x.is_finite() {
            continue;
        }
        for s in [
            format!("{x}"),
            format!("{x:e}"),
            format!("{x:.17e}"),
            format!("{x:.25e}"),
            format!("{x:.3e}"),
            format!("{x:.6}"),
        ] {
            check(&s);
        }
    }
    // Values of ordinary size, as result files hold them.
    for _ in 0..60_000 {
        let x =
            (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 10f64.powi(rng.below(12) as i32 - 6);
        for s in [
            format!("{x}"),
            format!("{x:.4}"),
            format!("{x:.20}"),
            format!("{x:e}"),
        ] {
            check(&s);
        }
    }
}

#[test]
fn random_digit_strings() {
    let mut rng = Rng(7);
    for _ in 0..100_000 {
        let n = 1 + rng.below(40) as usize;
        let digits: String = (0..n)
            .map(|_| char::from(b'0' + rng.below(10) as u8))
            .collect();
        let point = rng.below(n as u64 + 1) as usize;
        let exp = rng.below(700) as i64 - 360;
        let s = format!("{}.{}e{exp}", &digits[..point], &digits[point..]);
        check(&s);
    }
}

/// The exact decimal of a double: `{:.1100}` prints every digit of any finite double.
fn exact(x: f64) -> String {
    format!("{x:.1100}")
}

/// `(a + b) / 2` of two non-negative decimals written with the same number of places.
fn midpoint(a: &str, b: &str) -> String {
    let (ai, af) = a.split_once('.').unwrap();
    let (bi, bf) = b.split_once('.').unwrap();
    let w = ai.len().max(bi.len());
    let a: Vec<u8> = format!("{ai:0>w$}{af}").bytes().map(|c| c - b'0').collect();
    let b: Vec<u8> = format!("{bi:0>w$}{bf}").bytes().map(|c| c - b'0').collect();
    // Sum, then halve, digit by digit (one more place: the sum may be odd).
    let mut sum = vec![0u8; a.len() + 1];
    let mut carry = 0;
    for i in (0..a.len()).rev() {
        let d = a[i] + b[i] + carry;
        sum[i + 1] = d % 10;
        carry = d / 10;
    }
    sum[0] = carry;
    sum.push(0);
    let mut half = Vec::with_capacity(sum.len());
    let mut rem = 0;
    for d in sum {
        let v = rem * 10 + d;
        half.push(b'0' + v / 2);
        rem = v % 2;
    }
    let s = String::from_utf8(half).unwrap();
    // `sum` had one leading digit; the integer part is w + 1 digits long.
    format!("{}.{}", &s[..w + 1], &s[w + 1..])
}

#[test]
fn exact_halfway_points_and_their_neighbours() {
    let mut rng = Rng(42);
    let mut xs: Vec<f64> = vec![
        0.0,
        f64::from_bits(1),
        f64::MIN_POSITIVE,
        f64::from_bits(f64::MIN_POSITIVE.to_bits() - 1),
        1.0,
        0.1,
        9_007_199_254_740_992.0,
        f64::from_bits(f64::MAX.to_bits() - 1),
    ];
    for _ in 0..1_500 {
        xs.push(f64::from_bits(rng.next() >> 1));
        // Subnormals and values near the binade edges.
        xs.push(f64::from_bits(rng.below(1 << 53)));
        xs.push(f64::from_bits((rng.below(2046) + 1) << 52));
    }
    for x in xs {
        if !x.is_finite() || x == f64::MAX {
            continue;
        }
        let up = f64::from_bits(x.to_bits() + 1);
        let mid = midpoint(&exact(x), &exact(up));
        // The exact halfway point (ties to even), then a hair above and below it.
        check(&mid);
        let trimmed = mid.trim_end_matches('0');
        check(&format!("{trimmed}1"));
        // The halfway point's last non-zero digit lowered by one, then 9s: a hair below.
        let mut d: Vec<u8> = trimmed.bytes().collect();
        let last = d.len() - 1;
        if d[last].is_ascii_digit() {
            d[last] -= 1;
            check(&format!("{}999", String::from_utf8(d).unwrap()));
        }
    }
}
