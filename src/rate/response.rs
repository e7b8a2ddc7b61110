//! The rates response: a bare JSON array of rates.

use alloc::vec::Vec;
use core::fmt;

use serde::de::{DeserializeSeed, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use super::list::{InvalidRates, MixedPairs, RateList, MAX_RATES};
use super::prepared::{Compact, Layout};
use super::{PairId, Rate};

/// `GET /v3/pairs/:pairId/rates`: a bare JSON array of [`Rate`]s, at most
/// [`MAX_RATES`] of them, all of one pair (ruling 18) and with unique ids
/// (ruling 31). Decoding and [`TryFrom<Vec<Rate>>`](#impl-TryFrom<Vec<Rate>>-for-RatesResponse)
/// refuse anything else with [`InvalidRates`], so the engine trusts a
/// `RatesResponse` without checking it again.
///
/// A single rate may still be unusable (its assets or numbers disagree with its
/// pair, see [`Rate::defect`]): that is the rate's own defect, reported as
/// `INVALID_RATE` while the other rates stay usable.
///
/// ```
/// use swaproute::RatesResponse;
/// let json = r#"[{"amount":{"assetId":"ETH","value":33.14218692377834},"expiry":1785333919000,
///   "id":"a","max":{"assetId":"BTC","value":8.33028657},"min":{"assetId":"BTC","value":0.00079787},
///   "minerFee":{"assetId":"ETH","value":0},"pairId":"BTC_ETH"}]"#;
/// let rates: RatesResponse = serde_json::from_str(json).unwrap();
/// assert_eq!(rates.len(), 1);
/// assert_eq!(rates[0].multiplier().to_string(), "33.14218692377834");
/// ```
///
/// Beside the rates it keeps their compact ranking records (40 bytes each,
/// built once here; see docs/PERFORMANCE.md): ranking a response reads
/// those contiguously and a full rate only where it wins or the record
/// cannot decide.
#[derive(Clone, Default)]
pub struct RatesResponse {
    rates: Vec<Rate>,
    /// One record per rate, in the same order (derived from the rates,
    /// which a response never changes).
    compact: Vec<Compact>,
    /// Each record's multiplier ceiling, one per record.
    ceilings: Vec<u64>,
}

// The records are derived from the rates: equal rates, equal records.
impl PartialEq for RatesResponse {
    fn eq(&self, other: &Self) -> bool {
        self.rates == other.rates
    }
}

impl Eq for RatesResponse {}

impl fmt::Debug for RatesResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The records are derived from the rates: the rates say it all.
        f.debug_tuple("RatesResponse").field(&self.rates).finish()
    }
}

impl Serialize for RatesResponse {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.rates.serialize(serializer)
    }
}

impl RatesResponse {
    /// The rates in response order.
    pub fn rates(&self) -> &[Rate] {
        &self.rates
    }

    /// Takes the rates out.
    pub fn into_rates(self) -> Vec<Rate> {
        self.rates
    }

    /// The pair every rate names (`None` for an empty response).
    pub fn pair_id(&self) -> Option<&PairId> {
        self.rates.first().map(Rate::pair_id)
    }

    /// The same response with every non-sponsored rate taken as
    /// ExactOut-capable on the caller's word ([`Rate::assume_exact_out`];
    /// ruling 4). The capability is applied here, at the boundary, and not
    /// by any question: ranking, estimates and plans then treat those rates
    /// as capable. Sponsored variants stay excluded from ExactOut (ruling
    /// 3). Encoding gives back the response as sent (`features` unchanged),
    /// and every route over such a rate can say the capability was assumed
    /// ([`Rate::is_exact_out_assumed`]).
    ///
    /// ```
    /// use swaproute::route::RouteRequest;
    /// use swaproute::{Amount, EpochMillis, RatesResponse};
    /// let json = r#"[{"amount":{"assetId":"ETH","value":33.1},"expiry":4102444800000,"id":"a",
    ///   "max":{"assetId":"BTC","value":8},"min":{"assetId":"BTC","value":0.001},
    ///   "minerFee":{"assetId":"ETH","value":0.0002},"pairId":"BTC_ETH","features":[]}]"#;
    /// let rates: RatesResponse = serde_json::from_str(json)?;
    /// let now = EpochMillis::new(1_785_000_000_000);
    /// let request = RouteRequest::exact_out(Amount::parse("0.5")?, Amount::parse("16.5")?, now);
    /// assert!(request.best(&rates).is_err()); // UNSUPPORTED_SWAP_MODE: no rate says exactOut
    /// let assumed = rates.assume_exact_out();
    /// let route = request.best(&assumed)?;
    /// assert!(route.rate().is_exact_out_assumed());
    /// // (16.5 + 0.0002) / 33.1 = 0.49849546…, rounded up to 8 places.
    /// assert_eq!(route.required_input().map(|a| a.to_string()), Some("0.49849547".into()));
    /// assert_eq!(serde_json::to_value(&assumed)?, serde_json::from_str::<serde_json::Value>(json)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn assume_exact_out(self) -> Self {
        let rates = self.rates.into_iter().map(Rate::assume_exact_out).collect();
        RatesResponse::with_records(rates)
    }

    /// `true` when some rate's ExactOut capability was assumed by the
    /// caller ([`assume_exact_out`](Self::assume_exact_out)).
    pub fn is_exact_out_assumed(&self) -> bool {
        self.rates.iter().any(Rate::is_exact_out_assumed)
    }

    /// The compact ranking layout: the records and their ceilings.
    pub(crate) fn layout(&self) -> Layout<'_> {
        Layout::new(&self.compact, &self.ceilings)
    }

    /// A checked list of rates, with their records built.
    fn with_records(rates: Vec<Rate>) -> Self {
        let mut compact = Vec::with_capacity(rates.len());
        compact.extend(rates.iter().map(Rate::compact));
        let ceilings = compact.iter().map(Compact::ceiling).collect();
        RatesResponse {
            rates,
            compact,
            ceilings,
        }
    }
}

/// The checks of a whole list, after each rate decoded: one pair, unique ids.
fn check_list(rates: &[Rate]) -> Result<(), InvalidRates> {
    rates.checked().map(|_| ())
}

impl TryFrom<Vec<Rate>> for RatesResponse {
    type Error = InvalidRates;

    /// # Errors
    /// [`InvalidRates`]: more than [`MAX_RATES`] rates, more than one pair, or
    /// a repeated rate id.
    fn try_from(rates: Vec<Rate>) -> Result<Self, Self::Error> {
        if rates.len() > MAX_RATES {
            return Err(InvalidRates::TooMany { len: rates.len() });
        }
        check_list(&rates)?;
        Ok(RatesResponse::with_records(rates))
    }
}

impl super::list::sealed::Sealed for RatesResponse {
    #[inline]
    fn layout(&self) -> Layout<'_> {
        RatesResponse::layout(self)
    }
}

impl RateList for RatesResponse {
    #[inline]
    fn one_pair(&self) -> Result<&[Rate], MixedPairs> {
        Ok(self.rates())
    }

    /// Checked when the response was built.
    #[inline]
    fn checked(&self) -> Result<&[Rate], InvalidRates> {
        Ok(self.rates())
    }
}

impl<'a> IntoIterator for &'a RatesResponse {
    type Item = &'a Rate;
    type IntoIter = core::slice::Iter<'a, Rate>;

    fn into_iter(self) -> Self::IntoIter {
        self.rates.iter()
    }
}

impl core::ops::Deref for RatesResponse {
    type Target = [Rate];
    fn deref(&self) -> &[Rate] {
        &self.rates
    }
}

impl<'de> Deserialize<'de> for RatesResponse {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Rates;
        impl<'de> Visitor<'de> for Rates {
            type Value = RatesResponse;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON array of rates")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RatesResponse, A::Error> {
                let capacity = seq.size_hint().unwrap_or(0).min(256);
                let mut out = RatesResponse {
                    rates: Vec::with_capacity(capacity),
                    compact: Vec::with_capacity(capacity),
                    ceilings: Vec::new(),
                };
                while seq.next_element_seed(PushRate(&mut out))?.is_some() {}
                check_list(&out.rates).map_err(serde::de::Error::custom)?;
                // The ceilings in one pass over the records, into one
                // allocation of the final size (pushed per rate, the vector
                // grew by doubling beside the other two).
                out.ceilings = out.compact.iter().map(Compact::ceiling).collect();
                Ok(out)
            }
        }
        deserializer.deserialize_seq(Rates)
    }
}

/// Decodes one rate straight onto the end of the list: the rate is moved once,
/// not passed back up through `Option` and `Result` (a `Rate` is a few hundred
/// bytes, and each of those moves was a copy). Its compact record is built
/// then, while the rate is in cache.
struct PushRate<'a>(&'a mut RatesResponse);

impl<'de> DeserializeSeed<'de> for PushRate<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        let rate = Rate::deserialize(deserializer)?;
        if self.0.rates.len() == MAX_RATES {
            return Err(serde::de::Error::custom(InvalidRates::TooMany {
                len: MAX_RATES.saturating_add(1),
            }));
        }
        self.0.compact.push(rate.compact());
        self.0.rates.push(rate);
        Ok(())
    }
}
