//! Ruling 18 as properties: for random rate lists with random asset ids, no
//! rate whose assets disagree with its pair is ever ranked, and a list of
//! more than one pair is never ranked at all (no output of one pair is ever
//! compared with an output of another).
//!
//! The oracle below reads the rule from the ruling alone: `amount` and
//! `minerFee` in the pair's to asset, `min` and `max` in its from asset,
//! checked in that order.
#![allow(clippy::arithmetic_side_effects)]

use proptest::prelude::*;
use serde_json::{json, Value};
use swaproute::rate::{InvalidRates, RateField};
use swaproute::route::{estimate_exact_out, NoRoute, RateBook};
use swaproute::{
    Amount, CampaignLimits, EpochMillis, Rate, RateDefect, RatesResponse, RejectReason,
    RouteRequest,
};

const NOW: EpochMillis = EpochMillis::new(1_785_000_000_000);
const ASSETS: [&str; 3] = ["BTC", "ETH", "SOL"];

/// One generated rate: its pair, the assets its four objects name, its numbers.
#[derive(Clone, Debug)]
struct Spec {
    from: usize,
    to: usize,
    /// amount, minerFee, min, max.
    named: [usize; 4],
    m: u32,
    fee: u32,
    min: u32,
    span: u32,
}

impl Spec {
    fn pair(&self) -> String {
        format!("{}_{}", ASSETS[self.from], ASSETS[self.to])
    }

    fn json(&self, id: usize) -> Value {
        let name = |i: usize| ASSETS[self.named[i]];
        json!({
            "amount": {"assetId": name(0), "value": self.m},
            "expiry": 4_102_444_800_000_u64,
            "id": format!("r{id}"),
            "max": {"assetId": name(3), "value": self.min + self.span},
            "min": {"assetId": name(2), "value": self.min},
            "minerFee": {"assetId": name(1), "value": self.fee},
            "pairId": self.pair(),
            "features": ["exactOut"],
        })
    }

    /// The ruling's first disagreement: (field, named, required).
    fn mismatch(&self) -> Option<(RateField, &'static str, &'static str)> {
        let fields = [
            RateField::Amount,
            RateField::MinerFee,
            RateField::Min,
            RateField::Max,
        ];
        let required = [self.to, self.to, self.from, self.from];
        fields
            .into_iter()
            .zip(self.named)
            .zip(required)
            .find(|((_, named), required)| named != required)
            .map(|((field, named), required)| (field, ASSETS[named], ASSETS[required]))
    }
}

fn spec(pairs: &'static [(usize, usize)]) -> impl Strategy<Value = Spec> {
    (
        0..pairs.len(),
        // Each object names the right asset half of the time.
        proptest::array::uniform4((any::<bool>(), 0..ASSETS.len())),
        1u32..100,
        0u32..3,
        0u32..3,
        0u32..10,
    )
        .prop_map(move |(pair, named, m, fee, min, span)| {
            let (from, to) = pairs[pair];
            let required = [to, to, from, from];
            let mut chosen = [0; 4];
            for ((slot, (right, other)), required) in chosen.iter_mut().zip(named).zip(required) {
                *slot = if right { required } else { other };
            }
            Spec {
                from,
                to,
                named: chosen,
                m,
                fee,
                min,
                span,
            }
        })
}

const ONE_PAIR: &[(usize, usize)] = &[(0, 1)];
const THREE_PAIRS: &[(usize, usize)] = &[(0, 1), (0, 2), (1, 2)];

fn rates_of(specs: &[Spec]) -> Vec<Rate> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| serde_json::from_value(s.json(i)).unwrap())
        .collect()
}

fn agrees(rate: &Rate) -> bool {
    let pair = rate.pair_id();
    rate.amount().asset_id == *pair.to()
        && rate.miner_fee_amount().asset_id == *pair.to()
        && rate.min_amount().asset_id == *pair.from()
        && rate.max_amount().asset_id == *pair.from()
}

proptest! {
    #[test]
    fn no_rate_that_disagrees_with_its_pair_is_ever_ranked(
        specs in proptest::collection::vec(spec(ONE_PAIR), 0..12),
        x in 1u32..12,
    ) {
        let rates = rates_of(&specs);
        let response = RatesResponse::try_from(rates.clone()).unwrap();
        let amount = Amount::new(x.into()).unwrap();
        for request in [
            RouteRequest::exact_in(amount, NOW),
            RouteRequest::exact_out(amount, Amount::new(5.into()).unwrap(), NOW),
        ] {
            let selection = request.select(&response);
            for route in selection.routes() {
                prop_assert!(agrees(route.rate()), "ranked a liar: {:?}", route.rate());
            }
            for rejection in selection.rejected() {
                let at: usize = rejection.rate().id().as_str()[1..].parse().unwrap();
                if let Some((field, named, required)) = specs[at].mismatch() {
                    prop_assert_eq!(
                        rejection.reason(),
                        &RejectReason::InvalidRate(RateDefect::AssetMismatch {
                            field,
                            named: named.parse().unwrap(),
                            required: required.parse().unwrap(),
                        })
                    );
                }
            }
            // Every liar is among the rejected, with its own reason.
            let liars = specs.iter().filter(|s| s.mismatch().is_some()).count();
            let invalid = selection
                .rejected()
                .iter()
                .filter(|r| matches!(r.reason(), RejectReason::InvalidRate(RateDefect::AssetMismatch { .. })))
                .count();
            prop_assert_eq!(liars, invalid);
            // The other entry points agree.
            if let Ok(best) = request.best(&response) {
                prop_assert!(agrees(best.rate()));
            }
            for route in request.top(&response, 4).unwrap_or_default() {
                prop_assert!(agrees(route.rate()));
            }
            for route in request.top_n::<4>(&rates).map(|t| t.iter().copied().collect::<Vec<_>>()).unwrap_or_default() {
                prop_assert!(agrees(route.rate()));
            }
        }
        let book = RateBook::new(&response, &CampaignLimits::new(), NOW);
        if let Ok(best) = book.best(amount, NOW) {
            prop_assert!(agrees(best.rate()));
        }
        if let Ok(estimate) = estimate_exact_out(&response, Amount::new(5.into()).unwrap(), NOW) {
            prop_assert!(agrees(estimate.rate()));
        }
    }

    #[test]
    fn a_list_of_several_pairs_is_never_ranked(
        specs in proptest::collection::vec(spec(THREE_PAIRS), 1..12),
        x in 1u32..12,
    ) {
        let rates = rates_of(&specs);
        let first = specs[0].pair();
        let other = specs.iter().map(Spec::pair).find(|p| *p != first);
        let json = Value::Array(specs.iter().enumerate().map(|(i, s)| s.json(i)).collect());
        let decoded = serde_json::from_value::<RatesResponse>(json);
        let built = RatesResponse::try_from(rates.clone());
        let amount = Amount::new(x.into()).unwrap();
        let request = RouteRequest::exact_in(amount, NOW);
        match other {
            None => {
                prop_assert!(decoded.is_ok());
                prop_assert!(built.is_ok());
                prop_assert!(!matches!(request.select(&rates).no_route(), Some(NoRoute::MixedPairs(_))));
            }
            Some(other) => {
                let message = decoded.unwrap_err().to_string();
                prop_assert!(message.contains(&first) && message.contains(&other), "{}", message);
                match built {
                    Err(InvalidRates::MixedPairs(mixed)) => {
                        prop_assert_eq!(mixed.first().as_str(), first.as_str());
                        prop_assert_eq!(mixed.other().as_str(), other.as_str());
                    }
                    wrong => prop_assert!(false, "expected MixedPairs, got {:?}", wrong),
                }
                let is_mixed = |no_route: &NoRoute| matches!(no_route, NoRoute::MixedPairs(m)
                    if m.first().as_str() == first && m.other().as_str() == other);
                let selection = request.select(&rates);
                prop_assert!(selection.routes().is_empty() && selection.rejected().is_empty());
                prop_assert!(selection.no_route().is_some_and(is_mixed));
                prop_assert!(request.best(&rates).is_err_and(|e| is_mixed(&e)));
                prop_assert!(request.top(&rates, 3).is_err_and(|e| is_mixed(&e)));
                prop_assert!(request.top_n::<3>(&rates).is_err_and(|e| is_mixed(&e)));
                let book = RateBook::new(&rates, &CampaignLimits::new(), NOW);
                prop_assert!(book.best(amount, NOW).is_err_and(|e| is_mixed(&e)));
                prop_assert!(estimate_exact_out(&rates, amount, NOW).is_err_and(|e| is_mixed(&e)));
            }
        }
    }
}
