//! The ranking order (rulings 6 and 7 in docs/RULES.md), in every form the
//! engine compares in: plain candidates and routes (`Decimal` net outputs),
//! fast keys (`i128` net outputs × 10^28), the envelope of the amounts that
//! work (which the rate book reads) and the ExactOut estimator's required
//! inputs. Each form is the same order: change
//! a tie-break here and every path, the book and the estimator follow.
//!
//! 1. higher net output `fromAmount × multiplier − minerFee`;
//! 2. lower miner fee;
//! 3. a base rate before a sponsored variant;
//! 4. rate id ascending by bytes;
//! 5. (where two rates are equal in all of the above) input order.
//!
//! Where two rate lines cross, the one with the lower slope has the lower
//! fee, so "lower fee first" is "lower slope first" at a crossing (pinned
//! by a test below).

use core::cmp::Ordering;

use rust_decimal::Decimal;

use super::eligibility::Candidate;
use super::net_output::{exact_cmp, may_be_floored};
use crate::decimal::Fixed8;
use crate::numeric::pow10;
use crate::rate::prepared::FAST;
use crate::rate::Rate;
use crate::route::work;
use crate::route::Route;
use crate::swap_mode::SwapMode;

/// The total ranking order on plain candidates at `amount` (the request's
/// `fromAmount`, which both were checked at): `Less` means `a` ranks first.
///
/// Ids are unique within a sane response; when two rates share every number
/// *and* their id, they are interchangeable and either may come first.
pub(crate) fn rank_order(amount: Decimal, a: &Candidate<'_>, b: &Candidate<'_>) -> Ordering {
    order(
        (a.net_output, amount, a.rate),
        (b.net_output, amount, b.rate),
    )
}

/// [`rank_order`] on finished routes.
pub(crate) fn route_order(a: &Route<'_>, b: &Route<'_>) -> Ordering {
    order(
        (a.net_output, a.from_amount, a.rate),
        (b.net_output, b.from_amount, b.rate),
    )
}

/// The ranking order on a `Decimal` net output, the amount it is at and its
/// rate. Ruling 43: by the exact nets. A `Decimal` net output is exact
/// unless [`may_be_floored`] says it may be a floor; then (rare, out of the
/// usual path) the exact values are compared in wide integers.
fn order(a: (Decimal, Decimal, &Rate), b: (Decimal, Decimal, &Rate)) -> Ordering {
    work::tick();
    net_cmp(b, a).then_with(|| tie_order(a.2, b.2))
}

/// The order of two exact net outputs (ruling 43), each given as its
/// `Decimal` net output, the amount it is at and its rate: `Greater` when
/// `a`'s exact net is larger. The amounts may differ (the amounts that work
/// compare a rate's best under a balance with another's).
pub(crate) fn net_cmp(a: (Decimal, Decimal, &Rate), b: (Decimal, Decimal, &Rate)) -> Ordering {
    let (a_net, a_amount, a_rate) = a;
    let (b_net, b_amount, b_rate) = b;
    if may_be_floored(a_net) || may_be_floored(b_net) {
        exact_cmp(a_amount, a_rate, b_amount, b_rate).unwrap_or_else(|| value_cmp(a_net, b_net))
    } else {
        value_cmp(a_net, b_net)
    }
}

/// The order of two `Decimal` values, as `Ord` orders them: on the
/// mantissas when the scales agree or one aligns to the other within
/// `i128` (a few instructions), else `Decimal`'s own comparison (about a
/// hundred). What the chain search and the exact order compare with.
#[inline]
pub(crate) fn value_cmp(a: Decimal, b: Decimal) -> Ordering {
    let (am, bm) = (a.mantissa(), b.mantissa());
    let (sa, sb) = (a.scale(), b.scale());
    let up = |k: u32| pow10(k).and_then(|p| i128::try_from(p).ok());
    let aligned = match sa.cmp(&sb) {
        Ordering::Equal => Some(am.cmp(&bm)),
        Ordering::Less => up(sb.saturating_sub(sa))
            .and_then(|p| am.checked_mul(p))
            .map(|a| a.cmp(&bm)),
        Ordering::Greater => up(sa.saturating_sub(sb))
            .and_then(|p| bm.checked_mul(p))
            .map(|b| am.cmp(&b)),
    };
    aligned.unwrap_or_else(|| a.cmp(&b))
}

/// The ranking order on fast keys (net output × 10^28, exact): `Less` means
/// `a` ranks first.
#[inline]
pub(crate) fn key_order(a_net: i128, a: &Rate, b_net: i128, b: &Rate) -> Ordering {
    work::tick();
    match b_net.cmp(&a_net) {
        Ordering::Equal => tie_order(a, b),
        other => other,
    }
}

/// Whether a keyed `rate` at `net` ranks before a kept `held` at `key`: the
/// bounded buffer's question, one key comparison in the usual case (an
/// empty slot is `None` with a key below every real key).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn key_before(net: i128, rate: &Rate, key: i128, held: Option<&Rate>) -> bool {
    net > key || (net == key && ties_before(rate, held))
}

/// Equal keys: whether `rate` goes before `held` by [`tie_order`]. Rare, so
/// out of line, away from the insertion walk's registers.
#[cold]
#[inline(never)]
fn ties_before(rate: &Rate, held: Option<&Rate>) -> bool {
    held.is_none_or(|held| tie_order(rate, held) == Ordering::Less)
}

/// The tie-breaks, for equal net outputs (steps 2-4): lower fee, then a base
/// rate before a sponsored variant, then id bytes.
pub(crate) fn tie_order(a: &Rate, b: &Rate) -> Ordering {
    let (pa, pb) = (a.prepared(), b.prepared());
    // Prepared fees are the exact fees × 10^28: integers compare as the
    // `Decimal`s do.
    let fee = if pa.has(FAST) && pb.has(FAST) {
        pa.fee28.cmp(&pb.fee28)
    } else {
        a.miner_fee().cmp(&b.miner_fee())
    };
    fee.then_with(|| a.is_sponsored().cmp(&b.is_sponsored()))
        .then_with(|| a.id().as_str().as_bytes().cmp(b.id().as_str().as_bytes()))
}

/// What the chain order reads of a chain: its score (ExactIn: the final
/// net output, a `Decimal` that may be the floor of the exact value at 28
/// places; ExactOut: the first leg's required input, 8 places, exact), the
/// last leg's input (ExactIn: the amount that final output is at) and the
/// legs' rates in order.
pub(crate) type ChainKey<'k, 'a> = (Decimal, Decimal, &'k [&'a Rate]);

/// The chain order (ruling 24): ExactIn by final net output, highest
/// first, compared exactly (ruling 43: two final outputs that differ only
/// past the 28th place are ordered by their exact values, as the single
/// pair's [`net_cmp`] orders routes); ExactOut by the first leg's required
/// input, lowest first; then fewer legs; then leg by leg, the pair id's
/// bytes and the tie-breaks of [`tie_order`].
pub(crate) fn chain_order(mode: SwapMode, a: ChainKey<'_, '_>, b: ChainKey<'_, '_>) -> Ordering {
    work::tick();
    let score = match mode {
        SwapMode::ExactIn => chain_net_cmp(b, a),
        SwapMode::ExactOut => a.0.cmp(&b.0),
    };
    score.then(a.2.len().cmp(&b.2.len())).then_with(|| {
        for (x, y) in a.2.iter().zip(b.2) {
            let leg = x
                .pair_id()
                .as_str()
                .as_bytes()
                .cmp(y.pair_id().as_str().as_bytes())
                .then_with(|| tie_order(x, y));
            if leg != Ordering::Equal {
                return leg;
            }
        }
        Ordering::Equal
    })
}

/// The order of two ExactIn chains' exact final outputs (ruling 43):
/// `Greater` when `a`'s is larger. Each final output is its last leg's
/// `input × multiplier − fee`, so [`net_cmp`] on the last legs decides.
pub(crate) fn chain_net_cmp(a: ChainKey<'_, '_>, b: ChainKey<'_, '_>) -> Ordering {
    match (a.2.last(), b.2.last()) {
        (Some(a_rate), Some(b_rate)) => net_cmp((a.0, a.1, a_rate), (b.0, b.1, b_rate)),
        _ => a.0.cmp(&b.0),
    }
}

/// The ExactOut estimator's order: the smaller required input first, then
/// the ranking order at that amount.
pub(crate) fn estimate_order(a: (Fixed8, Decimal, &Rate), b: (Fixed8, Decimal, &Rate)) -> Ordering {
    a.0.cmp(&b.0)
        .then_with(|| order((a.1, a.0.into(), a.2), (b.1, b.0.into(), b.2)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::rules::fixtures::named as rate;

    fn candidate<'r>(rate: &'r Rate, amount: &str) -> Candidate<'r> {
        let x: Decimal = amount.parse().unwrap();
        Candidate {
            rate,
            net_output: x * rate.multiplier() - rate.miner_fee(),
            effective_max: rate.max(),
        }
    }

    #[test]
    fn the_hull_assumption_lower_fee_first_is_lower_slope_first() {
        // 2x − 1 and 3x − 3 cross at x = 2 (both 3): the ranking order picks
        // the lower fee, which is the lower slope, as the envelope's
        // crossing guess assumes;
        // either side of the crossing the higher net wins as usual.
        let (low, high) = (rate("z", "2", "1"), rate("a", "3", "3"));
        let at = |x: &str| {
            let amount: Decimal = x.parse().unwrap();
            rank_order(amount, &candidate(&low, x), &candidate(&high, x))
        };
        assert_eq!(at("2"), Ordering::Less, "tie: lower fee (and slope) first");
        assert_eq!(at("1.9"), Ordering::Less, "2x − 1 is higher below 2");
        assert_eq!(at("2.1"), Ordering::Greater, "3x − 3 is higher above 2");
        // The key order and the route order agree at the tie.
        assert_eq!(key_order(3, &low, 3, &high), Ordering::Less);
        assert!(key_before(3, &low, 3, Some(&high)));
        assert!(!key_before(3, &high, 3, Some(&low)));
    }

    #[test]
    fn value_cmp_is_the_order_of_the_values() {
        let d = |s: &str| s.parse::<Decimal>().unwrap();
        // One value at two scales; then by value across scales and signs.
        assert_eq!(value_cmp(d("1.0"), d("1.00")), Ordering::Equal);
        assert_eq!(value_cmp(d("1.01"), d("1.1")), Ordering::Less);
        assert_eq!(value_cmp(d("1.1"), d("1.01")), Ordering::Greater);
        assert_eq!(value_cmp(d("-2"), d("1.5")), Ordering::Less);
        assert_eq!(value_cmp(d("-0.5"), d("-0.50")), Ordering::Equal);
        assert_eq!(
            value_cmp(d("0.0000000000000000000000000001"), d("0")),
            Ordering::Greater
        );
        // 2^96 − 1 aligned to scale 28 does not fit an i128: Decimal's own
        // comparison answers, the same order.
        assert_eq!(
            value_cmp(
                d("79228162514264337593543950335"),
                d("0.0000000000000000000000000001")
            ),
            Ordering::Greater
        );
    }

    #[test]
    fn tie_breaks_in_order() {
        // Equal nets: lower fee, then base before sponsored, then id bytes.
        let (a, b) = (rate("b", "1", "0.1"), rate("a", "1", "0.2"));
        assert_eq!(tie_order(&a, &b), Ordering::Less, "lower fee first");
        let base = rate("z", "1", "0.1");
        let sponsored =
            rate("a", "1", "0.1").sponsored_by(crate::ids::CampaignId::new("c").unwrap());
        assert_eq!(tie_order(&base, &sponsored), Ordering::Less, "base first");
        let (x, y) = (rate("B", "1", "0.1"), rate("a", "1", "0.1"));
        assert_eq!(
            tie_order(&x, &y),
            Ordering::Less,
            "'B' (0x42) before 'a' (0x61)"
        );
        // An empty slot never wins a tie against a keyed rate.
        assert!(key_before(i128::MIN + 1, &x, i128::MIN, None));
    }
}
