//! Economic floors (ruling 38 in docs/RULES.md): the caller's policy for
//! routes too small to be worth it, off by default.
//!
//! A rate that passes every step of ruling 5 with a positive net output is
//! then held to each floor that is set, in this order:
//!
//! - `dust` (to asset): net output ≥ dust, else `BELOW_DUST`;
//! - fee multiple `k`: net output ≥ k × minerFee, else `FEE_TOO_LARGE`;
//! - max fee share `b` basis points: minerFee × 10000 ≤ b × x × multiplier
//!   (the fee against the gross output), else `FEE_SHARE_TOO_LARGE`.
//!
//! Every comparison is exact (integers, never a rounded `Decimal` product).
//! Each condition only gets easier as the amount grows, which is what lets
//! [`Feasible`](super::Feasible) find a rate's smallest working amount by
//! bisection.

use core::cmp::Ordering;

use rust_decimal::Decimal;

use crate::decimal::Amount;
use crate::numeric::Wide;
use crate::rate::Rate;
use crate::route::RejectReason;

/// The caller's economic floors (ruling 38). [`Floors::NONE`] (the default)
/// sets none, and then every selection is as without them.
///
/// ```
/// use swaproute::route::{Floors, RouteRequest};
/// use swaproute::{Amount, EpochMillis, RatesResponse};
/// let rates: RatesResponse = serde_json::from_str(r#"[{"amount":{"assetId":"ETH","value":10},
///   "expiry":4102444800000,"id":"r","max":{"assetId":"BTC","value":5},
///   "min":{"assetId":"BTC","value":0.01},"minerFee":{"assetId":"ETH","value":0.5},
///   "pairId":"BTC_ETH"}]"#).unwrap();
/// let amount = |s: &str| s.parse::<Amount>().unwrap();
/// let now = EpochMillis::new(1_785_000_000_000);
/// // 0.1 × 10 − 0.5 = 0.5 ETH: positive, but under a dust floor of 1 ETH.
/// let floors = Floors::NONE.with_dust(amount("1"));
/// let request = RouteRequest::exact_in(amount("0.1"), now).with_floors(floors);
/// assert_eq!(request.select(&rates).rejected()[0].reason().code(), "BELOW_DUST");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Floors {
    dust: Option<Decimal>,
    fee_multiple: Option<Decimal>,
    max_fee_share_bps: Option<u32>,
}

impl Floors {
    /// No floor at all: the rulings before 38, unchanged.
    pub const NONE: Floors = Floors {
        dust: None,
        fee_multiple: None,
        max_fee_share_bps: None,
    };

    /// With a dust floor: a route's net output must be at least `dust` (to asset).
    #[must_use]
    pub fn with_dust(mut self, dust: Amount) -> Self {
        self.dust = Some(dust.get());
        self
    }

    /// With a fee multiple: a route's net output must be at least `k × minerFee`.
    #[must_use]
    pub fn with_fee_multiple(mut self, k: Amount) -> Self {
        self.fee_multiple = Some(k.get());
        self
    }

    /// With a maximum fee share in basis points: `minerFee × 10000 ≤ bps ×
    /// amount × multiplier` (`0` admits fee-free rates only).
    #[must_use]
    pub fn with_max_fee_share_bps(mut self, bps: u32) -> Self {
        self.max_fee_share_bps = Some(bps);
        self
    }

    /// The dust floor, if set.
    pub fn dust(&self) -> Option<Decimal> {
        self.dust
    }

    /// The fee multiple, if set.
    pub fn fee_multiple(&self) -> Option<Decimal> {
        self.fee_multiple
    }

    /// The maximum fee share in basis points, if set.
    pub fn max_fee_share_bps(&self) -> Option<u32> {
        self.max_fee_share_bps
    }

    /// The same floors without the dust floor (a chain's legs before its
    /// last, whose outputs are in other assets).
    pub(crate) fn without_dust(mut self) -> Self {
        self.dust = None;
        self
    }

    /// `true` when no floor is set.
    pub fn is_none(&self) -> bool {
        *self == Floors::NONE
    }

    /// Holds a route of `rate` at `amount`, with its positive exact
    /// `net_output`, to every floor that is set, in order.
    pub(crate) fn check(
        &self,
        rate: &Rate,
        amount: Decimal,
        net_output: Decimal,
    ) -> Result<(), RejectReason> {
        if let Some(dust) = self.dust {
            if net_output < dust {
                return Err(RejectReason::BelowDust { net_output, dust });
            }
        }
        let fee = rate.miner_fee();
        if let Some(k) = self.fee_multiple {
            // k × fee ≤ net, exactly.
            if products_cmp(k, fee, 1, net_output, Decimal::ONE, 1)? == Ordering::Greater {
                return Err(RejectReason::FeeTooLarge {
                    net_output,
                    miner_fee: fee,
                    fee_multiple: k,
                });
            }
        }
        if let Some(bps) = self.max_fee_share_bps {
            // fee × 10000 ≤ bps × amount × multiplier, exactly.
            let multiplier = rate.multiplier();
            if products_cmp(
                fee,
                Decimal::ONE,
                10_000,
                amount,
                multiplier,
                u64::from(bps),
            )? == Ordering::Greater
            {
                return Err(RejectReason::FeeShareTooLarge {
                    miner_fee: fee,
                    gross_output: amount
                        .checked_mul(multiplier)
                        .ok_or(RejectReason::Overflow)?,
                    max_bps: bps,
                });
            }
        }
        Ok(())
    }
}

/// `a × b × j` against `c × d × k`, exactly, for non-negative decimals;
/// [`RejectReason::Overflow`] for a negative operand or past the integers'
/// width (neither happens for a valid rate and a positive net output).
#[allow(clippy::many_single_char_names)]
fn products_cmp(
    a: Decimal,
    b: Decimal,
    j: u64,
    c: Decimal,
    d: Decimal,
    k: u64,
) -> Result<Ordering, RejectReason> {
    let side = |x: Decimal, y: Decimal, factor: u64, scale: u32| -> Option<Wide> {
        if x.is_sign_negative() || y.is_sign_negative() {
            return None;
        }
        let own = x.scale().checked_add(y.scale())?;
        Wide::from_u128(x.mantissa().unsigned_abs())
            .mul_u128(y.mantissa().unsigned_abs())?
            .mul_small(factor)?
            .scaled(scale.checked_sub(own)?)
    };
    let left_scale = a.scale().saturating_add(b.scale());
    let right_scale = c.scale().saturating_add(d.scale());
    let scale = left_scale.max(right_scale);
    let left = side(a, b, j, scale).ok_or(RejectReason::Overflow)?;
    let right = side(c, d, k, scale).ok_or(RejectReason::Overflow)?;
    Ok(left.cmp(&right))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::rules::fixtures::{d, rate};

    fn amount(text: &str) -> Amount {
        text.parse().unwrap()
    }

    #[test]
    fn no_floor_admits_every_positive_net() {
        let r = rate("10", "0.5");
        assert_eq!(Floors::NONE.check(&r, d("0.06"), d("0.1")), Ok(()));
        assert!(Floors::default().is_none());
    }

    #[test]
    fn dust_is_inclusive() {
        let r = rate("10", "0.5");
        let floors = Floors::NONE.with_dust(amount("0.5"));
        // 0.1 × 10 − 0.5 = 0.5: exactly the dust, admitted.
        assert_eq!(floors.check(&r, d("0.1"), d("0.5")), Ok(()));
        // 0.09 × 10 − 0.5 = 0.4.
        assert_eq!(
            floors.check(&r, d("0.09"), d("0.4")),
            Err(RejectReason::BelowDust {
                net_output: d("0.4"),
                dust: d("0.5")
            })
        );
    }

    #[test]
    fn fee_multiple_compares_net_with_k_times_fee() {
        let r = rate("10", "0.5");
        let floors = Floors::NONE.with_fee_multiple(amount("3"));
        // 3 × 0.5 = 1.5: net 1.5 (x = 0.2) passes, net 1.4 (x = 0.19) does not.
        assert_eq!(floors.check(&r, d("0.2"), d("1.5")), Ok(()));
        assert_eq!(
            floors.check(&r, d("0.19"), d("1.4")).unwrap_err().code(),
            "FEE_TOO_LARGE"
        );
    }

    #[test]
    fn fee_share_is_fee_times_10000_against_bps_times_gross() {
        let r = rate("10", "0.5");
        // 100 bps = 1 %: the fee 0.5 may be at most 1 % of x × 10, so x ≥ 5.
        let floors = Floors::NONE.with_max_fee_share_bps(100);
        assert_eq!(floors.check(&r, d("5"), d("49.5")), Ok(()));
        assert_eq!(
            floors.check(&r, d("4.99999999"), d("49.4999999")),
            Err(RejectReason::FeeShareTooLarge {
                miner_fee: d("0.5"),
                gross_output: d("49.9999999"),
                max_bps: 100
            })
        );
        // 0 bps admits a fee-free rate only.
        let zero = Floors::NONE.with_max_fee_share_bps(0);
        assert!(zero.check(&r, d("1000"), d("9999.5")).is_err());
        assert_eq!(zero.check(&rate("10", "0"), d("1"), d("10")), Ok(()));
    }

    #[test]
    fn exact_where_decimal_would_round() {
        // k × fee with 28 + 28 digits: 1.0000000000000000000000000001 ×
        // 1.0000000000000000000000000001 is just above 1; net exactly 1 fails.
        let k = d("1.0000000000000000000000000001");
        let r = rate("1000", "1.0000000000000000000000000001");
        let floors = Floors {
            fee_multiple: Some(k),
            ..Floors::NONE
        };
        assert!(floors.check(&r, d("1"), d("1")).is_err());
        assert_eq!(
            floors.check(&r, d("1"), d("1.0000000000000000000000000003")),
            Ok(())
        );
    }
}
