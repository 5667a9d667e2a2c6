//! Drawing the sample to review: every item, or N items drawn with a seed, optionally
//! stratified by a field (proportional allocation, largest remainder, ours), or fixed quotas
//! per stratum (the MM-IQ paper's error analysis: 10 per paradigm, 20 Mathematical).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::ReviewItem;
use crate::stats::rng::Rng;

/// Which items to review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleSpec {
    /// How many items; `None` (or more than there are) for all.
    pub n: Option<usize>,
    /// The seed of the draw.
    pub seed: u64,
    /// A field of [`ReviewItem::strata`] to stratify by; `None` for a simple random sample.
    pub stratify: Option<String>,
    /// Fixed quotas per stratum instead of proportional allocation (with `stratify`; `n` is
    /// then ignored). `None`: proportional (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quota: Option<Quota>,
}

impl Default for SampleSpec {
    fn default() -> Self {
        Self {
            n: None,
            seed: 1,
            stratify: None,
            quota: None,
        }
    }
}

/// Fixed sample sizes per stratum (a stratum smaller than its quota is taken whole).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quota {
    /// Items per stratum.
    pub per_stratum: usize,
    /// Strata with another size, by value.
    #[serde(default)]
    pub overrides: BTreeMap<String, usize>,
}

impl Quota {
    /// The MM-IQ paper's error analysis (§5.3): "10 instances from each reasoning paradigm, as
    /// well as 20 from the Mathematical paradigm" (90 per model), stratified by `category`.
    pub fn mmiq_paper() -> Self {
        Self {
            per_stratum: 10,
            overrides: BTreeMap::from([("Mathematical".to_string(), 20)]),
        }
    }

    /// The quota of a stratum.
    pub fn of(&self, stratum: &str) -> usize {
        self.overrides
            .get(stratum)
            .copied()
            .unwrap_or(self.per_stratum)
    }
}

/// The label of items that lack the stratification field.
pub const MISSING: &str = "(none)";

/// The positions of the sampled items, in file order.
///
/// Without stratification, the items are shuffled with [`Rng`] seeded by `spec.seed` and the
/// first `n` taken. With stratification, each stratum (items grouped by the field's value,
/// strata in sorted order) gets `n · size / total` items rounded down, the remaining slots go
/// to the strata with the largest remainders (ties: sorted order), and each stratum is
/// shuffled in turn with the one generator and its first items taken. With a [`Quota`] (and a
/// field), each stratum takes its quota (or all its items when it has fewer), the strata
/// shuffled in the same way.
///
/// # Examples
/// ```
/// use coglab_core::review::{sample, SampleSpec};
/// let items: Vec<_> = (0..10).map(|i| coglab_core::review::ReviewItem {
///     key: i.to_string(), id: i.to_string(), strata: vec![], context: vec![], answer: None,
///     judge: coglab_core::review::Judge::Binary { correct: true, reason: String::new() },
/// }).collect();
/// let all = sample(&items, &SampleSpec::default());
/// assert_eq!(all, (0..10).collect::<Vec<_>>());
/// let three = sample(&items, &SampleSpec { n: Some(3), seed: 7, stratify: None, quota: None });
/// assert_eq!(three.len(), 3);
/// assert_eq!(three, sample(&items, &SampleSpec { n: Some(3), seed: 7, stratify: None, quota: None }));
/// ```
pub fn sample(items: &[ReviewItem], spec: &SampleSpec) -> Vec<usize> {
    let total = items.len();
    let n = spec.n.unwrap_or(total).min(total);
    let quota = spec.quota.as_ref().filter(|_| spec.stratify.is_some());
    if n == total && quota.is_none() {
        return (0..total).collect();
    }
    let mut rng = Rng::new(spec.seed);
    let mut chosen = match (spec.stratify.as_deref(), quota) {
        (Some(field), Some(quota)) => {
            let mut strata: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
            for (i, item) in items.iter().enumerate() {
                strata
                    .entry(item.stratum(field).unwrap_or(MISSING))
                    .or_default()
                    .push(i);
            }
            let mut out = Vec::new();
            for (name, mut group) in strata {
                rng.shuffle(&mut group);
                let take = quota.of(name).min(group.len());
                out.extend_from_slice(&group[..take]);
            }
            out
        }
        (None, _) => {
            let mut all: Vec<usize> = (0..total).collect();
            rng.shuffle(&mut all);
            all.truncate(n);
            all
        }
        (Some(field), None) => {
            let mut strata: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
            for (i, item) in items.iter().enumerate() {
                strata
                    .entry(item.stratum(field).unwrap_or(MISSING))
                    .or_default()
                    .push(i);
            }
            let quotas = allocate(&strata.values().map(Vec::len).collect::<Vec<_>>(), n);
            let mut out = Vec::with_capacity(n);
            for (mut group, quota) in strata.into_values().zip(quotas) {
                rng.shuffle(&mut group);
                out.extend_from_slice(&group[..quota]);
            }
            out
        }
    };
    chosen.sort();
    chosen
}

/// Proportional allocation of `n` slots over groups of the given sizes (largest remainder;
/// ties go to the earlier group). Sizes sum to at least `n`.
fn allocate(sizes: &[usize], n: usize) -> Vec<usize> {
    let total: usize = sizes.iter().sum();
    if total == 0 {
        return vec![0; sizes.len()];
    }
    let mut quotas: Vec<usize> = sizes.iter().map(|s| n * s / total).collect();
    let mut left = n - quotas.iter().sum::<usize>();
    // Remainders as exact fractions over `total`.
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by(|&a, &b| {
        let ra = n * sizes[a] % total;
        let rb = n * sizes[b] % total;
        rb.cmp(&ra).then(a.cmp(&b))
    });
    for &g in order.iter().cycle().take(sizes.len() * 2) {
        if left == 0 {
            break;
        }
        if quotas[g] < sizes[g] {
            quotas[g] += 1;
            left -= 1;
        }
    }
    quotas
}

#[cfg(test)]
mod tests {
    use super::allocate;

    #[test]
    fn allocation_is_proportional_with_largest_remainders() {
        // 10 slots over 5, 3, 2 items of 10: exactly proportional.
        assert_eq!(allocate(&[5, 3, 2], 10), vec![5, 3, 2]);
        // 4 slots over 5, 3, 2 (total 10): 2.0, 1.2, 0.8 -> floors 2, 1, 0; one slot left goes
        // to the largest remainder (0.8, the third group).
        assert_eq!(allocate(&[5, 3, 2], 4), vec![2, 1, 1]);
        // 3 slots over 1, 1, 1, 1: floors 0; remainders equal, so the first three groups.
        assert_eq!(allocate(&[1, 1, 1, 1], 3), vec![1, 1, 1, 0]);
    }
}
