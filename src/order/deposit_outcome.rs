//! An observed deposit classified against its plan before the provider
//! reports (ruling 50 in docs/RULES.md).

use core::fmt;

use super::FixedOrderPlan;
use crate::decimal::Fixed8;
use crate::time::EpochMillis;
use crate::{decimal::Amount, decimal::Decimal};

/// What a deposit will lead to, judged against the plan's rate: its limits
/// (`min`, the effective `max`), its expiry and the planned amount.
///
/// Checked in this order, first match wins: [`AfterExpiry`](Self::AfterExpiry)
/// (observed at or after the rate's expiry: `expiry <= observed_at`, as
/// ruling 5 counts a rate expired); [`BelowMin`](Self::BelowMin);
/// [`AboveMax`](Self::AboveMax); [`Completes`](Self::Completes) (exactly the
/// plan's amount); [`OtherAmount`](Self::OtherAmount) (within the limits, a
/// different amount: the rate applies to it, the output differs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DepositClass {
    /// The planned amount, in time: the swap completes.
    Completes,
    /// Below the rate's `min`.
    BelowMin,
    /// Above the rate's effective `max`.
    AboveMax,
    /// Observed when the rate had expired.
    AfterExpiry,
    /// Within the limits and in time, but not the planned amount.
    OtherAmount,
}

impl DepositClass {
    /// `COMPLETES`, `BELOW_MIN`, `ABOVE_MAX`, `AFTER_EXPIRY`, `OTHER_AMOUNT`.
    pub fn as_str(self) -> &'static str {
        match self {
            DepositClass::Completes => "COMPLETES",
            DepositClass::BelowMin => "BELOW_MIN",
            DepositClass::AboveMax => "ABOVE_MAX",
            DepositClass::AfterExpiry => "AFTER_EXPIRY",
            DepositClass::OtherAmount => "OTHER_AMOUNT",
        }
    }
}

impl fmt::Display for DepositClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A deposit's class with its numbers: the output it should deliver
/// (`Completes`, `OtherAmount`), or the limit it broke (`BelowMin`: the
/// min; `AboveMax`: the effective max), and the rate's expiry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DepositOutcome {
    class: DepositClass,
    expected_output: Option<Decimal>,
    limit: Option<Decimal>,
    expiry: EpochMillis,
}

impl DepositOutcome {
    /// The class.
    pub fn class(&self) -> DepositClass {
        self.class
    }

    /// `Completes` and `OtherAmount`: the output the rate gives for the
    /// deposited amount, `amount × multiplier − minerFee` floored to 8
    /// places (ruling 35), and 0 when that is not positive; `None`
    /// otherwise, or when it cannot be held in 8 places.
    pub fn expected_output(&self) -> Option<Decimal> {
        self.expected_output
    }

    /// `BelowMin`: the rate's min; `AboveMax`: its effective max (the
    /// campaign's cap on a sponsored variant); `None` otherwise.
    pub fn limit(&self) -> Option<Decimal> {
        self.limit
    }

    /// The plan's rate's expiry.
    pub fn expiry(&self) -> EpochMillis {
        self.expiry
    }
}

impl FixedOrderPlan<'_> {
    /// Classifies a deposit of `amount` (from asset) observed at
    /// `observed_at` against this plan (ruling 50), before the provider
    /// reports; see [`DepositClass`] for the order of the checks.
    ///
    /// ```
    /// use swaproute::order::{DepositClass, FixedOrderRequest, OrderContext};
    /// use swaproute::screening::ScreeningPolicy;
    /// use swaproute::{Amount, EpochMillis, RatesResponse};
    /// let rates: RatesResponse = serde_json::from_str(r#"[
    ///   {"id":"a","pairId":"BTC_ETH","amount":{"assetId":"ETH","value":30},
    ///    "minerFee":{"assetId":"ETH","value":0.01},"min":{"assetId":"BTC","value":0.1},
    ///    "max":{"assetId":"BTC","value":1},"expiry":2000}]"#)?;
    /// let body = FixedOrderRequest::from_json(br#"{"pairId":"BTC_ETH","fromAmount":"0.5",
    ///   "toAmount":"14","fromAddress":null,"toAddress":"0x52908400098527886E0F7030069857D2E4169EE7"}"#)?;
    /// let screening = ScreeningPolicy::new();
    /// let plan = body.plan(&rates, &OrderContext::new(EpochMillis::new(1000), &screening))?;
    /// let at = EpochMillis::new(1500);
    /// let done = plan.deposit_outcome(Amount::parse("0.5")?, at);
    /// assert_eq!(done.class(), DepositClass::Completes);
    /// assert_eq!(done.expected_output().map(|d| d.to_string()).as_deref(), Some("14.99000000"));
    /// assert_eq!(plan.deposit_outcome(Amount::parse("0.05")?, at).limit().map(|d| d.to_string()).as_deref(), Some("0.1"));
    /// assert_eq!(plan.deposit_outcome(Amount::parse("0.5")?, EpochMillis::new(2000)).class(), DepositClass::AfterExpiry);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn deposit_outcome(&self, amount: Amount, observed_at: EpochMillis) -> DepositOutcome {
        let rate = self.route().rate();
        let expiry = rate.expiry();
        let outcome = |class, expected_output, limit| DepositOutcome {
            class,
            expected_output,
            limit,
            expiry,
        };
        let amount = amount.get();
        if expiry <= observed_at {
            return outcome(DepositClass::AfterExpiry, None, None);
        }
        if amount < rate.min() {
            return outcome(DepositClass::BelowMin, None, Some(rate.min()));
        }
        let max = self.route().effective_max();
        if amount > max {
            return outcome(DepositClass::AboveMax, None, Some(max));
        }
        let output = Fixed8::floor_net(amount, rate.multiplier(), rate.miner_fee())
            .ok()
            .map(|out| out.get().max(Decimal::ZERO));
        if amount == self.amount() {
            outcome(DepositClass::Completes, output, None)
        } else {
            outcome(DepositClass::OtherAmount, output, None)
        }
    }
}
