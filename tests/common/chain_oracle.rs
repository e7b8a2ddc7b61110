//! A brute-force oracle for chained routes (ruling 24 in docs/RULES.md),
//! shared by tests/chain_properties.rs and the `chain_select` fuzz target:
//! every path and every combination of rates, each leg judged by the rules
//! as written, on big integers (`n / 10^s`). It shares no code with the
//! engine. Sponsored variants are capped by their campaign's limit (ruling
//! 3), never ExactOut, and go after base rates in ties.
#![allow(
    clippy::indexing_slicing,
    clippy::missing_panics_doc,
    clippy::unwrap_used,
    clippy::too_many_arguments,
    clippy::single_match_else,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects
)]

use std::cmp::Ordering;

use num_bigint::BigInt;
use swaproute::{
    Amount, CampaignId, CampaignLimits, Decimal, EpochMillis, PairId, Rate, RateId, RateTerms,
    SwapMode,
};

/// The fuzzed and generated "now".
pub(crate) const NOW: u64 = 1_785_000_000_000;
/// Campaign ids by number.
pub(crate) const CAMPAIGNS: [&str; 3] = ["spring", "summer", "autumn"];
/// Asset names by number.
pub(crate) const ASSETS: [&str; 6] = ["A", "B", "C", "D", "E", "F"];

/// An exact decimal `n / 10^s`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Q {
    pub(crate) n: BigInt,
    pub(crate) s: u32,
}

impl Q {
    pub(crate) fn of(d: Decimal) -> Q {
        Q {
            n: BigInt::from(d.mantissa()),
            s: d.scale(),
        }
    }

    pub(crate) fn at(&self, s: u32) -> BigInt {
        &self.n * BigInt::from(10u32).pow(s - self.s)
    }

    pub(crate) fn cmp(&self, other: &Q) -> Ordering {
        let s = self.s.max(other.s);
        self.at(s).cmp(&other.at(s))
    }

    pub(crate) fn mul(&self, other: &Q) -> Q {
        Q {
            n: &self.n * &other.n,
            s: self.s + other.s,
        }
    }

    pub(crate) fn sub(&self, other: &Q) -> Q {
        let s = self.s.max(other.s);
        Q {
            n: self.at(s) - other.at(s),
            s,
        }
    }

    pub(crate) fn add(&self, other: &Q) -> Q {
        let s = self.s.max(other.s);
        Q {
            n: self.at(s) + other.at(s),
            s,
        }
    }

    /// Rounded down to 8 places (values here are non-negative).
    pub(crate) fn floor8(&self) -> Q {
        if self.s <= 8 {
            return Q {
                n: self.at(8),
                s: 8,
            };
        }
        let div = BigInt::from(10u32).pow(self.s - 8);
        Q {
            n: &self.n / div,
            s: 8,
        }
    }

    /// The least 8-place `x` with `x × m ≥ self` (`m > 0`).
    pub(crate) fn ceil8_div(&self, m: &Q) -> Q {
        // x8 / 10^8 × mn / 10^ms ≥ n / 10^s  ⟺  x8 × mn × 10^s ≥ n × 10^(8 + ms)
        let left = &m.n * BigInt::from(10u32).pow(self.s);
        let right = &self.n * BigInt::from(10u32).pow(8 + m.s);
        let mut x8 = &right / &left;
        if &x8 * &left < right {
            x8 += 1;
        }
        Q { n: x8, s: 8 }
    }

    pub(crate) fn is_positive(&self) -> bool {
        self.n > BigInt::from(0)
    }
}

/// One rate as the oracle sees it.
#[derive(Clone, Debug)]
pub(crate) struct R {
    pub(crate) pair: (usize, usize),
    pub(crate) id: String,
    pub(crate) m: Decimal,
    pub(crate) fee: Decimal,
    pub(crate) min: Decimal,
    pub(crate) max: Decimal,
    pub(crate) expired: bool,
    pub(crate) exact_out: bool,
    /// A sponsored variant: its campaign (an index of [`CAMPAIGNS`]) and that
    /// campaign's per-swap limit as the market knows it (`None`: unknown).
    pub(crate) sponsor: Option<(usize, Option<Decimal>)>,
}

impl R {
    pub(crate) fn valid(&self) -> bool {
        self.m > Decimal::ZERO
            && self.fee >= Decimal::ZERO
            && self.min <= self.max
            && self.min >= Decimal::ZERO
    }

    pub(crate) fn pair_id(&self) -> String {
        format!("{}_{}", ASSETS[self.pair.0], ASSETS[self.pair.1])
    }

    pub(crate) fn to_rate(&self) -> Rate {
        let rate = Rate::new(
            RateId::new(&self.id).unwrap(),
            PairId::new(&self.pair_id()).unwrap(),
            RateTerms {
                multiplier: self.m,
                miner_fee: self.fee,
                min: self.min,
                max: self.max,
            },
            EpochMillis::new(if self.expired { NOW - 1 } else { NOW + 60_000 }),
        )
        .with_exact_out(self.exact_out);
        match self.sponsor {
            Some((campaign, _)) => rate.sponsored_by(CampaignId::new(CAMPAIGNS[campaign]).unwrap()),
            None => rate,
        }
    }

    /// Ruling 3: a sponsored variant's max, capped by its campaign's known limit.
    pub(crate) fn effective_max(&self) -> Decimal {
        match self.sponsor {
            Some((_, Some(limit))) if limit < self.max => limit,
            _ => self.max,
        }
    }

    /// ExactIn leg at `input`: the net output, if eligible.
    pub(crate) fn forward(&self, input: &Q) -> Option<Q> {
        if !self.valid() || self.expired {
            return None;
        }
        // A campaign limit below the min leaves no amount (ruling 30).
        let max = self.effective_max();
        if max < self.min {
            return None;
        }
        if input.cmp(&Q::of(self.min)) == Ordering::Less
            || input.cmp(&Q::of(max)) == Ordering::Greater
        {
            return None;
        }
        let net = input.mul(&Q::of(self.m)).sub(&Q::of(self.fee));
        net.is_positive().then_some(net)
    }

    /// ExactOut leg delivering `target`: the required input, if eligible.
    pub(crate) fn backward(&self, target: &Q) -> Option<Q> {
        if !self.valid() || self.expired || !self.exact_out || self.sponsor.is_some() {
            return None;
        }
        let z = target.add(&Q::of(self.fee)).ceil8_div(&Q::of(self.m));
        let inside = z.cmp(&Q::of(self.min)) != Ordering::Less
            && z.cmp(&Q::of(self.max)) != Ordering::Greater;
        inside.then_some(z)
    }
}

/// A chain the oracle found: its rates (indices) and score.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub(crate) rates: Vec<usize>,
    pub(crate) score: Q,
}

/// Every path from `from` to `to` (pairs as asset index pairs present in
/// the market), at most `max_legs` long, no asset twice.
pub(crate) fn paths(
    pairs: &[(usize, usize)],
    from: usize,
    to: usize,
    max_legs: usize,
) -> Vec<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    let mut stack = vec![(vec![from], Vec::new())];
    while let Some((assets, path)) = stack.pop() {
        let here = *assets.last().unwrap();
        for &(a, b) in pairs {
            if a != here || assets.contains(&b) {
                continue;
            }
            let mut next_path: Vec<(usize, usize)> = path.clone();
            next_path.push((a, b));
            if b == to {
                out.push(next_path);
            } else if next_path.len() < max_legs {
                let mut next_assets = assets.clone();
                next_assets.push(b);
                stack.push((next_assets, next_path));
            }
        }
    }
    out
}

/// Every chain, by brute force.
pub(crate) fn oracle(
    rates: &[R],
    pairs: &[(usize, usize)],
    from: usize,
    to: usize,
    mode: SwapMode,
    amount: Decimal,
    max_legs: usize,
) -> (Vec<Found>, usize) {
    let all = paths(pairs, from, to, max_legs);
    let mut found = Vec::new();
    for path in &all {
        let per_leg: Vec<Vec<usize>> = path
            .iter()
            .map(|&pair| {
                (0..rates.len())
                    .filter(|&i| rates[i].pair == pair)
                    .collect()
            })
            .collect();
        // Every combination of one rate per leg.
        let mut combos: Vec<Vec<usize>> = vec![Vec::new()];
        for options in &per_leg {
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    options.iter().map(move |&i| {
                        let mut c = c.clone();
                        c.push(i);
                        c
                    })
                })
                .collect();
        }
        for combo in combos {
            let score = match mode {
                SwapMode::ExactIn => {
                    let mut input = Q::of(amount);
                    let mut out = None;
                    for (leg, &i) in combo.iter().enumerate() {
                        let Some(net) = rates[i].forward(&input) else {
                            out = None;
                            break;
                        };
                        if leg + 1 == combo.len() {
                            out = Some(net);
                        } else {
                            input = net.floor8();
                        }
                    }
                    out
                }
                SwapMode::ExactOut => {
                    let mut target = Q::of(amount);
                    let mut ok = true;
                    for &i in combo.iter().rev() {
                        match rates[i].backward(&target) {
                            Some(z) => target = z,
                            None => {
                                ok = false;
                                break;
                            }
                        }
                    }
                    ok.then_some(target)
                }
            };
            if let Some(score) = score {
                found.push(Found {
                    rates: combo,
                    score,
                });
            }
        }
    }
    found.sort_by(|a, b| order(rates, mode, a, b));
    (found, all.len())
}

/// The chain order of ruling 24, written out.
pub(crate) fn order(rates: &[R], mode: SwapMode, a: &Found, b: &Found) -> Ordering {
    let score = match mode {
        SwapMode::ExactIn => b.score.cmp(&a.score),
        SwapMode::ExactOut => a.score.cmp(&b.score),
    };
    score.then(a.rates.len().cmp(&b.rates.len())).then_with(|| {
        for (&x, &y) in a.rates.iter().zip(&b.rates) {
            let (x, y) = (&rates[x], &rates[y]);
            let leg = x
                .pair_id()
                .as_bytes()
                .cmp(y.pair_id().as_bytes())
                .then(x.fee.cmp(&y.fee))
                .then(x.sponsor.is_some().cmp(&y.sponsor.is_some()))
                .then(x.id.as_bytes().cmp(y.id.as_bytes()));
            if leg != Ordering::Equal {
                return leg;
            }
        }
        Ordering::Equal
    })
}

/// The market's campaign limits the rates' sponsors name (the first limit
/// seen for a campaign; generators give every rate of a campaign the same).
pub(crate) fn campaigns(rates: &[R]) -> CampaignLimits {
    let mut out = CampaignLimits::new();
    for rate in rates {
        if let Some((campaign, Some(limit))) = rate.sponsor {
            let id = CampaignId::new(CAMPAIGNS[campaign]).unwrap();
            if out.limit(&id).is_none() {
                out.insert(id, Amount::new(limit).unwrap());
            }
        }
    }
    out
}
