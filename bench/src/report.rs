//! Formatting and summarising figures.

/// Median of the finite values (mean of the middle two for an even count).
pub fn median(values: &[f64]) -> f64 {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    sorted.sort_by(f64::total_cmp);
    let count = sorted.len();
    match (sorted.get(count / 2), count % 2) {
        (None, _) => f64::NAN,
        (Some(&middle), 1) => middle,
        (Some(&upper), _) => {
            let lower = sorted.get(count / 2 - 1).copied().unwrap_or(upper);
            (lower + upper) / 2.0
        }
    }
}

/// The `p`th percentile (0–100) of the finite values by nearest rank: the smallest value
/// with at least `p`% of the values at or below it. NaN when there is none.
pub fn percentile(values: &[f64], p: f64) -> f64 {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    sorted.sort_by(f64::total_cmp);
    let count = sorted.len() as f64;
    let rank = (p.clamp(0.0, 100.0) / 100.0 * count).ceil().max(1.0);
    sorted.get(rank as usize - 1).copied().unwrap_or(f64::NAN)
}

/// `12345.6` → `12,346`.
pub fn thousands(value: f64) -> String {
    if !value.is_finite() {
        return "-".into();
    }
    grouped(value.round() as u64)
}

/// `1234567` → `1,234,567`.
pub fn grouped(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Milliseconds with two decimals, `-` when unknown.
pub fn ms(value: f64) -> String {
    if value.is_finite() {
        format!("{value:.2}")
    } else {
        "-".into()
    }
}

/// Microseconds with one decimal and a unit, `-` when unknown.
pub fn micros(value: f64) -> String {
    if value.is_finite() {
        format!("{value:.1} us")
    } else {
        "-".into()
    }
}

/// Starts round `round` (0-based) of `rounds`: alternates the order of `order` every
/// other round, so that neither side always runs on a warmer (or more tired) machine,
/// and prints the round's header with that order.
pub fn start_round<T: Copy>(
    round: u64,
    rounds: u64,
    mut order: Vec<T>,
    label: fn(T) -> &'static str,
) -> Vec<T> {
    if round % 2 == 1 {
        order.reverse();
    }
    let names: Vec<&str> = order.iter().map(|&item| label(item)).collect();
    println!();
    println!("round {}/{rounds} (order: {})", round + 1, names.join(", "));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_grouping() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(&[]).is_nan());
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(thousands(21_034.4), "21,034");
    }

    #[test]
    fn percentiles_by_nearest_rank() {
        let values: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&values, 50.0), 50.0);
        assert_eq!(percentile(&values, 95.0), 95.0);
        assert_eq!(percentile(&values, 100.0), 100.0);
        assert_eq!(percentile(&values, 0.0), 1.0);
        assert_eq!(percentile(&[3.0, f64::NAN, 1.0, 2.0], 50.0), 2.0);
        assert_eq!(percentile(&[7.0], 95.0), 7.0);
        assert!(percentile(&[], 95.0).is_nan());
        // 20 frames, one slow: p95 is the 19th value, not the slow one.
        let mut frames = vec![4.0; 19];
        frames.push(40.0);
        assert_eq!(percentile(&frames, 95.0), 4.0);
        assert_eq!(percentile(&frames, 96.0), 40.0);
    }

    #[test]
    fn rounds_alternate_their_order() {
        let label = |name: &'static str| name;
        assert_eq!(
            start_round(0, 2, vec!["a", "b", "c"], label),
            ["a", "b", "c"]
        );
        assert_eq!(
            start_round(1, 2, vec!["a", "b", "c"], label),
            ["c", "b", "a"]
        );
        assert_eq!(start_round(2, 3, vec!["a", "b"], label), ["a", "b"]);
    }
}
