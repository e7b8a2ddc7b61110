//! A brute-force oracle for ruling 39's splits, on big integers, sharing
//! nothing with the engine: every subset of at most 3 rates, every division
//! of the amount on a small 8-place grid. Used by tests/split.rs and the
//! fuzz target `split_select`.
//!
//! Units: amounts in 10^-8, multipliers in 10^-2, fees, dust and cost in
//! 10^-2; every value at 10^-10.
#![allow(
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing,
    clippy::many_single_char_names,
    clippy::too_many_lines
)]

use std::cmp::Ordering;

use num_bigint::BigInt;

#[derive(Clone, Debug)]
pub(crate) struct R {
    pub(crate) id: String,
    pub(crate) m: i64,
    pub(crate) fee: i64,
    pub(crate) min: i64,
    pub(crate) max: i64,
    pub(crate) campaign: Option<u8>,
    pub(crate) expired: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Oracle {
    None,
    Single(String),
    Split {
        value: BigInt,
        legs: Vec<(String, i64)>,
    },
}

pub(crate) fn net(r: &R, x: i64) -> BigInt {
    BigInt::from(x) * BigInt::from(r.m) - BigInt::from(r.fee) * BigInt::from(100_000_000)
}

pub(crate) fn eligible(r: &R, x: i64, dust: Option<i64>) -> bool {
    let dust = dust.map_or(BigInt::from(0), |d| {
        BigInt::from(d) * BigInt::from(100_000_000)
    });
    !r.expired && r.min <= x && x <= r.max && net(r, x) > BigInt::from(0) && net(r, x) >= dust
}

pub(crate) fn tie(a: &R, b: &R) -> Ordering {
    a.fee
        .cmp(&b.fee)
        .then(a.campaign.is_some().cmp(&b.campaign.is_some()))
        .then(a.id.as_bytes().cmp(b.id.as_bytes()))
}

/// Every composition of `total` into `k` positive parts.
fn compositions(total: i64, k: usize, out: &mut Vec<Vec<i64>>, prefix: &mut Vec<i64>) {
    if k == 1 {
        if total >= 1 {
            prefix.push(total);
            out.push(prefix.clone());
            prefix.pop();
        }
        return;
    }
    for first in 1..total {
        prefix.push(first);
        compositions(total - first, k - 1, out, prefix);
        prefix.pop();
    }
}

pub(crate) fn oracle(
    rates: &[R],
    total: i64,
    legs: usize,
    cost: i64,
    gain: Option<u32>,
    dust: Option<i64>,
) -> Oracle {
    let cost = BigInt::from(cost) * BigInt::from(100_000_000);
    // The single route: highest net, then ruling 7.
    let single = rates
        .iter()
        .filter(|r| eligible(r, total, dust))
        .max_by(|a, b| net(a, total).cmp(&net(b, total)).then(tie(b, a)));
    // Every set of 2..=legs rates (distinct campaigns), every division.
    let n = rates.len();
    let mut best: Option<(BigInt, Vec<usize>, Vec<i64>)> = None;
    let mut sets: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            sets.push(vec![i, j]);
            if legs == 3 {
                for k in j + 1..n {
                    sets.push(vec![i, j, k]);
                }
            }
        }
    }
    for set in sets {
        let camps: Vec<u8> = set.iter().filter_map(|&i| rates[i].campaign).collect();
        let mut dedup = camps.clone();
        dedup.sort_unstable();
        dedup.dedup();
        if dedup.len() != camps.len() {
            continue;
        }
        // Legs listed in pour order: multiplier descending, then ruling 7.
        let mut set = set;
        set.sort_by(|&a, &b| rates[b].m.cmp(&rates[a].m).then(tie(&rates[a], &rates[b])));
        let mut divisions = Vec::new();
        compositions(total, set.len(), &mut divisions, &mut Vec::new());
        let mut set_best: Option<(BigInt, Vec<i64>)> = None;
        for division in divisions {
            if !set
                .iter()
                .zip(&division)
                .all(|(&i, &x)| eligible(&rates[i], x, dust))
            {
                continue;
            }
            let value: BigInt = set
                .iter()
                .zip(&division)
                .map(|(&i, &x)| net(&rates[i], x))
                .sum::<BigInt>()
                - &cost * BigInt::from(set.len() - 1);
            // The same value: the division giving most to the legs first in pour order.
            let better = match &set_best {
                None => true,
                Some((v, d)) => value > *v || (value == *v && division > *d),
            };
            if better {
                set_best = Some((value, division));
            }
        }
        let Some((value, division)) = set_best else {
            continue;
        };
        let better = match &best {
            None => true,
            Some((v, s, _)) => {
                if value != *v {
                    value > *v
                } else if set.len() != s.len() {
                    set.len() < s.len()
                } else {
                    let mut a: Vec<&R> = set.iter().map(|&i| &rates[i]).collect();
                    let mut b: Vec<&R> = s.iter().map(|&i| &rates[i]).collect();
                    a.sort_by(|x, y| tie(x, y));
                    b.sort_by(|x, y| tie(x, y));
                    a.iter().zip(&b).map(|(x, y)| tie(x, y)).find(|o| o.is_ne())
                        == Some(Ordering::Less)
                }
            }
        };
        if better {
            best = Some((value, set, division));
        }
    }
    let as_split = |(value, set, division): (BigInt, Vec<usize>, Vec<i64>)| Oracle::Split {
        value,
        legs: set
            .iter()
            .zip(&division)
            .map(|(&i, &x)| (rates[i].id.clone(), x))
            .collect(),
    };
    match (single, gain) {
        (Some(s), None) => Oracle::Single(s.id.clone()),
        (None, _) => best.map_or(Oracle::None, as_split),
        (Some(s), Some(bps)) => {
            let single_net = net(s, total);
            match best {
                Some(b)
                    if b.0 > single_net
                        && (&b.0 - &single_net) * BigInt::from(10_000)
                            >= BigInt::from(bps) * &single_net =>
                {
                    as_split(b)
                }
                _ => Oracle::Single(s.id.clone()),
            }
        }
    }
}
