//! What the server prices with: each pair's rates, the stand-in quotes'
//! books, and the asset records of every pair (ruling 46), read from files
//! at start and again on SIGHUP. A [`Book`] is never changed once built: a
//! reload builds a new one and swaps it in whole ([`Books`]), so a request
//! sees one book from start to end, and a bad file keeps the old book.
//!
//! Ruling 51: only the rates unexpired at `now` are served; when every rate
//! of a pair has expired the server's data is stale, which is the server's
//! failure (503 `STALE_RATES`), not the client's (410 `RATE_EXPIRED`).

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use axum::http::StatusCode;
use swaproute::discovery::{AssetsResponse, PairAssets};
use swaproute::quote::Quote;
use swaproute::route::{NoRoute, RatesByPair, RouteRequest};
use swaproute::{
    Amount, ApiError, EpochMillis, ErrorCode, PairId, QuoteId, Rate, RateTerms, RatesResponse,
};
use tiny_keccak::{Hasher, Sha3};

use crate::errors::{echo, own_error, Failure};

/// The bundled rates: one BTC_ETH response.
const SAMPLE_RATES: &str = include_str!("../../cli/data/rates.json");
/// The bundled asset records: the assets of the bundled samples (BTC, ETH,
/// and SOL for the chain samples in cli/data/chain).
const SAMPLE_ASSETS: &str = include_str!("../data/assets.json");

/// A stand-in quote's maximum, per rate: this many times the rate's own
/// `max` (the spec: quotes allow larger maximums than rates).
pub(crate) const QUOTE_MAX_FACTOR: u32 = 4;
/// How long a stand-in quote is good for.
pub(crate) const QUOTE_LIFETIME_MILLIS: u64 = 30_000;

/// Where the book comes from: the `--rates` files (none: the bundled
/// sample) and the `--assets` file (none: the bundled records).
#[derive(Clone, Debug, Default)]
pub(crate) struct Sources {
    pub(crate) rates: Vec<String>,
    pub(crate) assets: Option<String>,
}

/// One consistent set of rates, quote books and asset records.
#[derive(Debug)]
pub(crate) struct Book {
    rates: RatesByPair,
    /// Per pair, the rates with each `max` raised [`QUOTE_MAX_FACTOR`]
    /// times: what a stand-in quote above every rate's max is priced from.
    quotes: BTreeMap<PairId, RatesResponse>,
    assets: AssetsResponse,
    /// Pairs whose assets the bundled records do not hold (no `--assets`
    /// given): their networks are unknown, so their addresses get the
    /// checks that need no network (ruling 46: checked where the network is
    /// known). Said in the log at start and on reload.
    unchecked: Vec<PairId>,
    /// How many rates in all (for the log).
    count: usize,
}

impl Book {
    /// Reads and checks every file: rates (one pair per file, no pair
    /// twice) and asset records holding both assets of every pair. Records
    /// that miss a pair's asset are the operator's error (ruling 46),
    /// refused here, before any address is judged.
    pub(crate) fn load(sources: &Sources) -> Result<Book, String> {
        let mut responses = Vec::new();
        for path in &sources.rates {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            let response: RatesResponse =
                serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
            responses.push(response);
        }
        if responses.is_empty() {
            responses.push(serde_json::from_str(SAMPLE_RATES).map_err(|e| format!("rates: {e}"))?);
        }
        let rates = RatesByPair::from_responses(responses).map_err(|e| format!("--rates: {e}"))?;
        let (assets_text, assets_name) = match &sources.assets {
            Some(path) => (
                std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?,
                format!("--assets {path}"),
            ),
            None => (
                SAMPLE_ASSETS.to_owned(),
                "the bundled asset records (BTC, ETH, SOL; no --assets)".to_owned(),
            ),
        };
        let assets: AssetsResponse =
            serde_json::from_str(&assets_text).map_err(|e| format!("{assets_name}: {e}"))?;
        let mut quotes = BTreeMap::new();
        let mut count = 0_usize;
        let mut unchecked = Vec::new();
        for (pair, response) in rates.iter() {
            match assets.pair_assets(pair) {
                Ok(_) => {}
                // The bundled records cover the bundled samples only.
                Err(_) if sources.assets.is_none() => unchecked.push(pair.clone()),
                // The operator's own records must hold every pair's assets.
                Err(e) => {
                    return Err(format!(
                        "{assets_name}: no records for pair {pair}: {e} \
                         (give --assets a listing that holds every pair's two assets)"
                    ))
                }
            }
            quotes.insert(pair.clone(), quote_book(response)?);
            count = count.saturating_add(response.rates().len());
        }
        Ok(Book {
            rates,
            quotes,
            assets,
            unchecked,
            count,
        })
    }

    /// A line for the log: pairs and rates.
    pub(crate) fn summary(&self) -> String {
        let pairs: Vec<String> = self.rates.iter().map(|(p, _)| p.to_string()).collect();
        format!("{} rates of {}", self.count, pairs.join(", "))
    }

    /// How many rates in all.
    pub(crate) fn count(&self) -> usize {
        self.count
    }

    /// Every pair's rates.
    pub(crate) fn all(&self) -> &RatesByPair {
        &self.rates
    }

    /// `pair`'s rates, or 404.
    pub(crate) fn rates_of(&self, pair_id: &str) -> Result<&RatesResponse, ApiError> {
        PairId::new(pair_id)
            .ok()
            .and_then(|pair| self.rates.get(&pair))
            .ok_or_else(|| {
                ApiError::new(
                    ErrorCode::NotFound,
                    format!("no rates for pair {}", echo(pair_id)),
                )
            })
    }

    /// `pair`'s rates, or 404, or 503 `STALE_RATES` when every one of them
    /// has expired at `now` (ruling 51).
    pub(crate) fn fresh(&self, pair_id: &str, now: EpochMillis) -> Result<&RatesResponse, Failure> {
        let rates = self.rates_of(pair_id)?;
        if let Some(latest) = stale(rates, now) {
            return Err(stale_failure(&format!("pair {}", echo(pair_id)), latest));
        }
        Ok(rates)
    }

    /// 503 `STALE_RATES` when the server has rates and every one of them,
    /// of every pair, has expired at `now` (chained routes use them all).
    pub(crate) fn any_fresh(&self, now: EpochMillis) -> Result<(), Failure> {
        let latest = self
            .rates
            .iter()
            .map(|(_, rates)| stale(rates, now))
            .try_fold(None, |latest: Option<EpochMillis>, pair| {
                pair.map(|p| Some(latest.map_or(p, |l| l.max(p))))
            });
        match latest {
            Some(Some(latest)) => Err(stale_failure("every pair", latest)),
            _ => Ok(()),
        }
    }

    /// `pair`'s two asset records; `None` for a pair the bundled records do
    /// not hold ([`Book::unchecked`]).
    pub(crate) fn assets_of(&self, pair: &PairId) -> Option<PairAssets<'_>> {
        self.assets.pair_assets(pair).ok()
    }

    /// The pairs whose addresses are not checked against a network (their
    /// assets are not in the bundled records, and no `--assets` was given).
    pub(crate) fn unchecked(&self) -> &[PairId] {
        &self.unchecked
    }

    /// The stand-in quote for `amount` of `pair` at `now`: the best ExactIn
    /// route's net output floored to 8 places, good for
    /// [`QUOTE_LIFETIME_MILLIS`]. Above every rate's max, the quote is
    /// priced from the quote book (each rate's max times
    /// [`QUOTE_MAX_FACTOR`]): quotes allow larger maximums. Its id is a
    /// digest of what it promises (pair, amounts, rate), so a floating order
    /// that names it is planned against the same quote while the price
    /// holds, on any server with the same rates.
    /// `field` names the amount in an error (`amount` on the quotes
    /// endpoint, `fromAmount` in a floating order's body).
    pub(crate) fn stand_in_quote(
        &self,
        pair_id: &str,
        (field, amount): (&str, Amount),
        now: EpochMillis,
    ) -> Result<Quote, Failure> {
        let rates = self.fresh(pair_id, now)?;
        if let Some(records) = rates.pair_id().and_then(|pair| self.assets_of(pair)) {
            // The amount on its asset's grid (BTC: 8 places), as an order's.
            records
                .check_from(&amount)
                .map_err(|e| ApiError::new(ErrorCode::InvalidAmount, format!("{field}: {e}")))?;
        }
        let request = RouteRequest::exact_in(amount, now);
        let best = match request.best(rates) {
            Ok(best) => best,
            Err(NoRoute::AboveMax { .. }) => {
                let book = rates
                    .pair_id()
                    .and_then(|pair| self.quotes.get(pair))
                    .ok_or_else(|| ApiError::new(ErrorCode::InternalError, "no quote book"))?;
                request.best(book)?
            }
            Err(other) => return Err(other.into()),
        };
        let expiry = now.saturating_add(QUOTE_LIFETIME_MILLIS);
        let draft = Quote::from_route(QuoteId::new("draft")?, &best, expiry)?;
        let id = quote_id(&draft, best.rate());
        Ok(Quote::from_route(QuoteId::new(&id)?, &best, expiry)?)
    }
}

/// The latest expiry when every rate of `rates` has expired at `now`
/// (`None` when one is live, or there are none).
fn stale(rates: &RatesResponse, now: EpochMillis) -> Option<EpochMillis> {
    let all = rates.rates();
    if all.is_empty() || all.iter().any(|rate| !rate.is_expired_at(now)) {
        return None;
    }
    all.iter().map(Rate::expiry).max()
}

fn stale_failure(what: &str, latest: EpochMillis) -> Failure {
    let when = swaproute::wire::Timestamp::try_from(latest).map_or_else(
        |_| latest.as_millis().to_string(),
        |t| t.as_str().to_owned(),
    );
    Failure::new(own_error(
        StatusCode::SERVICE_UNAVAILABLE,
        "STALE_RATES",
        &format!(
            "the server's rates are stale: every rate of {what} expired (the last at {when}); \
             retry later"
        ),
    ))
}

/// The JSON of the rates of `rates` unexpired at `now` (ruling 51), in
/// file order, each as the file has it.
pub(crate) fn unexpired_json(rates: &RatesResponse, now: EpochMillis) -> Result<String, ApiError> {
    let live: Vec<&Rate> = rates
        .rates()
        .iter()
        .filter(|rate| !rate.is_expired_at(now))
        .collect();
    serde_json::to_string(&live)
        .map_err(|e| ApiError::new(ErrorCode::InternalError, format!("encoding the rates: {e}")))
}

/// The quote book of one pair: its valid rates with `max` raised
/// [`QUOTE_MAX_FACTOR`] times (campaign and exact-out marks kept).
fn quote_book(rates: &RatesResponse) -> Result<RatesResponse, String> {
    let raised: Vec<Rate> = rates
        .rates()
        .iter()
        .filter(|rate| rate.defect().is_none())
        .filter_map(|rate| {
            let max = rate
                .max()
                .checked_mul(swaproute::decimal::Decimal::from(QUOTE_MAX_FACTOR))?;
            let terms = RateTerms {
                multiplier: rate.multiplier(),
                miner_fee: rate.miner_fee(),
                min: rate.min(),
                max,
            };
            let mut raised = Rate::new(
                rate.id().clone(),
                rate.pair_id().clone(),
                terms,
                rate.expiry(),
            )
            .with_exact_out(rate.supports_exact_out());
            if let Some(campaign) = rate.sponsored_by_campaign_id() {
                raised = raised.sponsored_by(campaign.clone());
            }
            Some(raised)
        })
        .collect();
    RatesResponse::try_from(raised).map_err(|e| format!("quote book: {e}"))
}

/// A stand-in quote's id: SHA3-256 of what it promises, in hex (64 digits,
/// the live service's form).
fn quote_id(quote: &Quote, rate: &Rate) -> String {
    let mut hasher = Sha3::v256();
    for part in [
        quote.pair_id.to_string(),
        quote.from_amount.value.get().to_string(),
        quote.to_amount.value.get().to_string(),
        rate.id().to_string(),
    ] {
        hasher.update(part.as_bytes());
        hasher.update(b"\n");
    }
    let mut out = [0_u8; 32];
    hasher.finalize(&mut out);
    hex(&out)
}

/// The book in force, swapped whole on reload.
#[derive(Debug)]
pub(crate) struct Books {
    sources: Sources,
    current: RwLock<Arc<Book>>,
}

impl Books {
    /// Loads the first book (an error refuses the start).
    pub(crate) fn load(sources: Sources) -> Result<Books, String> {
        let book = Book::load(&sources)?;
        Ok(Books {
            sources,
            current: RwLock::new(Arc::new(book)),
        })
    }

    /// The book in force now.
    pub(crate) fn current(&self) -> Arc<Book> {
        match self.current.read() {
            Ok(book) => Arc::clone(&book),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    /// Reads every file again and swaps the new book in, whole; on any
    /// error the old book stays and the error is returned.
    pub(crate) fn reload(&self) -> Result<Arc<Book>, String> {
        let book = Arc::new(Book::load(&self.sources)?);
        let mut current = match self.current.write() {
            Ok(current) => current,
            Err(poisoned) => poisoned.into_inner(),
        };
        *current = Arc::clone(&book);
        Ok(book)
    }
}

/// `bytes` in lower-case hex.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(
        String::with_capacity(bytes.len().saturating_mul(2)),
        |mut text, b| {
            let _ = write!(text, "{b:02x}");
            text
        },
    )
}
