//! What the caller asks for.
//!
//! [`RouteRequest`]'s methods live here (the constructors, builders
//! (`with_*`) and accessors) and in `ranking.rs` (the public questions
//! `best`, `top`, `top_n`, `top_n_into`, `select`); `split/mod.rs` and
//! `feasible.rs` still add theirs (the split, `name_working`). The engine
//! (`engine/`) is free functions that borrow the request.
//!
//! `FastRequest`'s live in three: here (`new`, the integer form, and its
//! accessors),
//! `rules/eligibility.rs` (`score`, the fast eligibility) and
//! `rules/net_output.rs` (`net28`, `keyed_net`).

use core::fmt;

use rust_decimal::Decimal;

use super::{Floors, LimitPolicy, Policy, PriceGuard};
use crate::decimal::{Amount, Fixed8};
use crate::numeric::{scaled28, OPERAND_LIMIT, SCALE};
use crate::rate::prepared::{DECIDES, EXACT_OUT, LIMIT_SHIFT, SPONSORED};
use crate::rate::CampaignLimits;
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;

/// A route request: the swap mode, the amounts, the time, the caller's
/// campaign limits and limit policy.
///
/// Provider limits are checked against `from_amount` in every mode, never
/// against `to_amount` (the spec's swap-mode rule 4). In ExactOut, `from_amount`
/// is the client's estimate (see [`estimate_exact_out`](super::estimate_exact_out))
/// and `to_amount` is exact.
///
/// ```
/// use swaproute::{route::RouteRequest, Amount, EpochMillis};
/// let request = RouteRequest::exact_in("0.5".parse::<Amount>().unwrap(), EpochMillis::new(1_700_000_000_000));
/// assert_eq!(request.from_amount().to_string(), "0.5");
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct RouteRequest<'c> {
    mode: SwapMode,
    from_amount: Amount,
    to_amount: Option<Amount>,
    now: EpochMillis,
    /// The caller's policy (ruling 41): campaigns, limits, floors, guard.
    policy: Policy<'c>,
    /// ExactOut: `from_amount` rounded up to 8 places, computed once: the
    /// first guess of each required input (derived data, kept in step with
    /// `from_amount` and `mode`).
    from8: Option<Fixed8>,
    /// `from_amount` in the fast path's integer form, computed once (derived
    /// data, like `from8`): building it per query was a tenth of a best
    /// route over 8 rates (issue 35).
    amount: Option<AmountInts>,
    /// The whole request in the fast path's form (derived data, kept in
    /// step with every field it reads by [`refreshed`](Self::refreshed)):
    /// building it per query was 50 of a best route's 770 instructions over
    /// 8 rates (issue 41).
    fast: Option<FastRequest>,
}

// The caches are left out on purpose: it is derived from the other fields.
#[allow(clippy::missing_fields_in_debug)]
impl fmt::Debug for RouteRequest<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RouteRequest")
            .field("mode", &self.mode)
            .field("from_amount", &self.from_amount)
            .field("to_amount", &self.to_amount)
            .field("now", &self.now)
            .field("policy", &self.policy)
            .finish()
    }
}

impl RouteRequest<'static> {
    /// An ExactIn request: `from_amount` is exact.
    pub fn exact_in(from_amount: Amount, now: EpochMillis) -> Self {
        RouteRequest {
            mode: SwapMode::ExactIn,
            from_amount,
            to_amount: None,
            now,
            policy: Policy::DEFAULT,
            from8: None,
            amount: AmountInts::of(from_amount.get()),
            fast: None,
        }
        .refreshed()
    }

    /// [`exact_in`](Self::exact_in) under `policy`, built once (a chain
    /// builds one per leg tried).
    pub(crate) fn exact_in_under(
        from_amount: Amount,
        now: EpochMillis,
        policy: Policy<'_>,
    ) -> RouteRequest<'_> {
        RouteRequest {
            mode: SwapMode::ExactIn,
            from_amount,
            to_amount: None,
            now,
            policy,
            from8: None,
            amount: AmountInts::of(from_amount.get()),
            fast: None,
        }
        .refreshed()
    }

    /// An ExactOut request: `to_amount` is exact; `from_amount` is the client's
    /// estimate, against which limits are checked and miner fees weighed.
    pub fn exact_out(from_amount: Amount, to_amount: Amount, now: EpochMillis) -> Self {
        RouteRequest {
            mode: SwapMode::ExactOut,
            from_amount,
            to_amount: Some(to_amount),
            now,
            policy: Policy::DEFAULT,
            from8: Fixed8::ceil(from_amount.get()).ok(),
            amount: AmountInts::of(from_amount.get()),
            fast: None,
        }
        .refreshed()
    }
}

impl<'c> RouteRequest<'c> {
    /// The same request with the caller's campaign limits (ruling 3 in docs/RULES.md).
    #[must_use]
    pub fn with_campaigns<'a>(self, campaigns: &'a CampaignLimits) -> RouteRequest<'a>
    where
        'c: 'a,
    {
        self.with_policy(self.policy.with_campaigns(campaigns))
    }

    /// The same request under the caller's whole policy (ruling 41),
    /// replacing the campaigns, limit policy, floors and guard it had.
    #[must_use]
    pub fn with_policy<'a>(self, policy: Policy<'a>) -> RouteRequest<'a>
    where
        'c: 'a,
    {
        RouteRequest {
            mode: self.mode,
            from_amount: self.from_amount,
            to_amount: self.to_amount,
            now: self.now,
            policy,
            from8: self.from8,
            amount: self.amount,
            fast: None,
        }
        .refreshed()
    }

    /// The same request asked at another instant `now` (every other part
    /// kept): e.g. why a [schedule](Self::schedule)'s "no route" interval
    /// has none, `request.at(interval.from()).best(rates)`.
    #[must_use]
    pub fn at(&self, now: EpochMillis) -> RouteRequest<'c> {
        RouteRequest { now, ..*self }.refreshed()
    }

    /// The caller's policy (ruling 41).
    pub fn policy(&self) -> Policy<'c> {
        self.policy
    }

    /// The same request under the caller's price guard (ruling 40; off by
    /// default): a rate whose multiplier deviates from the guard's
    /// reference by more than its bound is rejected `PRICE_OUTLIER`. A
    /// median guard finds its reference in the rates each query ranks.
    #[must_use]
    pub fn with_price_guard<'a>(self, guard: &'a PriceGuard) -> RouteRequest<'a>
    where
        'c: 'a,
    {
        self.with_policy(self.policy.with_price_guard(guard))
    }

    /// The price guard (ruling 40), when one is set.
    pub fn price_guard(&self) -> Option<&'c PriceGuard> {
        self.policy.price_guard()
    }

    /// The same request under `policy` (ruling 23).
    ///
    /// ```
    /// use swaproute::route::{LimitPolicy, RouteRequest};
    /// use swaproute::{Amount, EpochMillis, RatesResponse};
    /// // max 3.5 BTC: 1000 ETH needs 30.1 BTC.
    /// let rates: RatesResponse = serde_json::from_str(r#"[{"amount":{"assetId":"ETH","value":33.2},
    ///   "expiry":4102444800000,"id":"q","max":{"assetId":"BTC","value":3.5},
    ///   "min":{"assetId":"BTC","value":0.01},"minerFee":{"assetId":"ETH","value":0.00215},
    ///   "pairId":"BTC_ETH","features":["exactOut"]}]"#).unwrap();
    /// let now = EpochMillis::new(1_785_000_000_000);
    /// let amount = |s: &str| s.parse::<Amount>().unwrap();
    /// let request = RouteRequest::exact_out(amount("1"), amount("1000"), now);
    /// assert!(request.best(&rates).is_ok()); // the specification's rule
    /// let strict = request.with_limit_policy(LimitPolicy::Strict);
    /// let selection = strict.select(&rates);
    /// assert_eq!(selection.rejected()[0].reason().code(), "REQUIRED_INPUT_ABOVE_MAX");
    /// ```
    #[must_use]
    pub fn with_limit_policy(mut self, policy: LimitPolicy) -> Self {
        self.policy = self.policy.with_limit_policy(policy);
        self.refreshed()
    }

    /// The same request under the caller's economic floors (ruling 38; off
    /// by default): a route that fails one is rejected with its reason.
    #[must_use]
    pub fn with_floors(mut self, floors: Floors) -> Self {
        self.policy = self.policy.with_floors(floors);
        self.refreshed()
    }

    /// The economic floors (ruling 38).
    pub fn floors(&self) -> &Floors {
        self.policy.floors()
    }

    /// The limit policy (ruling 23).
    pub fn limit_policy(&self) -> LimitPolicy {
        self.policy.limit_policy()
    }

    /// `true` when ExactOut routes must keep their required input within limits.
    pub(crate) fn strict_exact_out(&self) -> bool {
        self.mode == SwapMode::ExactOut && self.policy.limit_policy() == LimitPolicy::Strict
    }

    /// The same request with the client's estimated `to_amount` (ExactIn; it
    /// never affects the selection). In ExactOut it replaces the exact amount.
    #[must_use]
    pub fn with_to_amount(mut self, to_amount: Amount) -> Self {
        self.to_amount = Some(to_amount);
        self
    }

    /// The swap mode.
    pub fn mode(&self) -> SwapMode {
        self.mode
    }

    /// The from amount (exact in ExactIn, the estimate in ExactOut).
    pub fn from_amount(&self) -> Amount {
        self.from_amount
    }

    /// The to amount: the client's estimate in ExactIn (optional), exact in ExactOut.
    pub fn to_amount(&self) -> Option<Amount> {
        self.to_amount
    }

    /// The instant the rates are judged at.
    pub fn now(&self) -> EpochMillis {
        self.now
    }

    /// The caller's campaign limits.
    pub fn campaigns(&self) -> &'c CampaignLimits {
        self.policy.campaigns()
    }

    /// The same request with its fast form computed again from the
    /// fields it reads (the mode, the amount, `now`, the policy): every
    /// constructor and builder that changes one of them ends here.
    fn refreshed(mut self) -> Self {
        self.fast = FastRequest::build(&self);
        self
    }

    /// ExactOut: `from_amount` rounded up to 8 places (`None` in ExactIn).
    pub(crate) fn from8(&self) -> Option<&Fixed8> {
        self.from8.as_ref()
    }

    /// The exact output of an ExactOut request (zero for ExactIn, where it is unused).
    pub(crate) fn exact_output(&self) -> Decimal {
        match (self.mode, self.to_amount) {
            (SwapMode::ExactOut, Some(to)) => to.get(),
            _ => Decimal::ZERO,
        }
    }
}

/// An amount in the fast path's integer form ([`FastRequest`]'s amount
/// fields), when it has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AmountInts {
    x: u64,
    scale: u8,
    room: u32,
    x28: u128,
    x_hi: u64,
    /// `1 / x28` as the kernel's float filter holds it
    /// ([`reciprocal`](crate::numeric::filter::reciprocal)).
    reciprocal: u64,
}

impl AmountInts {
    /// `None` when the mantissa does not fit a `u64` or `amount × 10^28` is
    /// not below 2^126.
    fn of(amount: Decimal) -> Option<Self> {
        let x = u64::try_from(amount.mantissa()).ok()?;
        let scale = u8::try_from(amount.scale()).ok()?;
        let x28 = scaled28(amount).filter(|&v| v < OPERAND_LIMIT)?;
        Some(AmountInts {
            x,
            scale,
            room: SCALE.checked_sub(u32::from(scale))?,
            x28,
            x_hi: u64::try_from(x28 >> LIMIT_SHIFT).ok()?,
            reciprocal: crate::numeric::filter::reciprocal(x28),
        })
    }
}

/// A request in the fast path's integer form: what the fast forms of the
/// rules ([`score`](Self::score), [`net28`](Self::net28)) read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FastRequest {
    /// The amount's mantissa.
    pub(crate) x: u64,
    /// The amount's scale.
    pub(crate) scale: u8,
    /// `28 − scale`: the product's shift before the multiplier's scale.
    pub(crate) room: u32,
    /// `amount × 10^28`.
    pub(crate) x28: u128,
    /// `1 / x28` for the kernel's float filter
    /// ([`key_floor`](crate::numeric::filter::key_floor)).
    pub(crate) reciprocal: u64,
    /// `x28 >> 62` (below 2^64: `x28 < 2^126`), what a compact record's
    /// limits are compared with.
    pub(crate) x_hi: u64,
    pub(crate) now: u64,
    pub(crate) exact_out: bool,
    /// The compact record flags that must read [`flag_want`](Self::flag_want)
    /// for the record to decide: [`DECIDES`], and in ExactOut the
    /// capability and a base rate, and with campaigns a base rate.
    pub(crate) flag_mask: u8,
    /// What those flags must be.
    pub(crate) flag_want: u8,
    /// A sponsored variant's limit needs a campaign lookup.
    pub(crate) campaigns: bool,
}

impl FastRequest {
    /// The fast form of `request`, or `None` when its amount does not fit
    /// (or its policy needs the plain path): computed when the request was
    /// built.
    #[inline]
    pub(crate) fn new(request: &RouteRequest<'_>) -> Option<Self> {
        request.fast
    }

    /// [`new`](Self::new)'s answer, computed from the request's fields.
    fn build(request: &RouteRequest<'_>) -> Option<Self> {
        // The strict ExactOut policy judges each rate by its required input,
        // which only the plain path computes.
        // So do the floors (ruling 38) and the price guard (ruling 40),
        // which only the plain path checks.
        if request.strict_exact_out()
            || !request.floors().is_none()
            || request.price_guard().is_some()
        {
            return None;
        }
        let AmountInts {
            x,
            scale,
            room,
            x28,
            x_hi,
            reciprocal,
        } = request.amount?;
        let exact_out = request.mode() == SwapMode::ExactOut;
        let campaigns = !request.campaigns().is_empty();
        let (mut flag_mask, mut flag_want) = (DECIDES, DECIDES);
        if exact_out {
            flag_mask |= EXACT_OUT | SPONSORED;
            flag_want |= EXACT_OUT;
        }
        if campaigns {
            flag_mask |= SPONSORED;
        }
        Some(FastRequest {
            x,
            scale,
            room,
            x28,
            reciprocal,
            x_hi,
            now: request.now().as_millis(),
            exact_out,
            flag_mask,
            flag_want,
            campaigns,
        })
    }

    /// The amount's mantissa.
    pub(crate) fn mantissa(&self) -> u64 {
        self.x
    }

    /// The amount's scale.
    pub(crate) fn scale(&self) -> u8 {
        self.scale
    }
}
