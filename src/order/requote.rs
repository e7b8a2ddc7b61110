//! Re-quotes anchored to the promise (ruling 50 in docs/RULES.md).
//!
//! A re-quote compares a fresh answer with the ORIGINAL plan's promise and
//! slippage bound, never with the last re-quote: a wallet that compares with
//! the last quote lets each re-quote spend the whole tolerance again. The
//! [`Promise`] a [`Requote`] hands back ([`Requote::promise`]) is the one it
//! was given, so re-quoting any number of times classifies each fresh answer
//! exactly as re-quoting it once would (cumulative).

use core::fmt;

use rust_decimal::RoundingStrategy;

use super::{FixedOrderPlan, FixedOrderRequest, OrderContext, PlanError};
use crate::error::ApiError;
use crate::rate::RateList;
use crate::{decimal::Decimal, slippage::SlippageError, swap_mode::SwapMode};

/// What a plan promised, and the least good fresh answer its slippage still
/// allows (ruling 33's bound, from the client's estimate).
///
/// - ExactIn: `promised` is the output the order promises (its
///   `toAmount`); `bound` is `toAmount × (100 − slippage) / 100`, the least
///   output allowed. More is better.
/// - ExactOut: `promised` is the order's amount (the required input);
///   `bound` is `fromAmount × (100 + slippage) / 100`, the most input
///   allowed. Less is better.
///
/// Valid by construction: `promised > 0`, `bound ≥ 0`, and the promise
/// meets its own bound (a plan that did not was refused).
///
/// ```
/// use swaproute::order::Promise;
/// use swaproute::{Decimal, SwapMode};
/// let p = Promise::new(SwapMode::ExactIn, Decimal::new(100, 0), Decimal::new(98, 0))?;
/// assert_eq!(p.promised(), Decimal::new(100, 0));
/// assert!(Promise::new(SwapMode::ExactIn, Decimal::new(97, 0), Decimal::new(98, 0)).is_err());
/// # Ok::<(), swaproute::order::InvalidPromise>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Promise {
    mode: SwapMode,
    promised: Decimal,
    bound: Decimal,
}

/// Why a promise is not one a plan can make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidPromise {
    /// The promised amount is zero or negative.
    #[error("the promised amount {0} is not positive")]
    NotPositive(Decimal),
    /// The slippage bound is negative.
    #[error("the slippage bound {0} is negative")]
    NegativeBound(Decimal),
    /// The promise misses its own bound (ExactIn: below it; ExactOut: above it).
    #[error("the promise {promised} misses its own slippage bound {bound}")]
    MissesBound {
        /// The promised amount.
        promised: Decimal,
        /// The bound.
        bound: Decimal,
    },
    /// The re-quoted body is in another swap mode than the promise.
    #[error("the promise is {promise}, but the body is {body}")]
    ModeMismatch {
        /// The promise's mode.
        promise: SwapMode,
        /// The body's mode.
        body: SwapMode,
    },
}

impl Promise {
    /// A promise in `mode`: `promised` (ExactIn the promised output,
    /// ExactOut the order's amount) and its slippage `bound`.
    ///
    /// # Errors
    /// [`InvalidPromise`] when `promised ≤ 0`, `bound < 0`, or the promise
    /// misses its bound.
    pub fn new(mode: SwapMode, promised: Decimal, bound: Decimal) -> Result<Self, InvalidPromise> {
        if promised <= Decimal::ZERO {
            return Err(InvalidPromise::NotPositive(promised));
        }
        if bound.is_sign_negative() && !bound.is_zero() {
            return Err(InvalidPromise::NegativeBound(bound));
        }
        let meets = match mode {
            SwapMode::ExactIn => promised >= bound,
            SwapMode::ExactOut => promised <= bound,
        };
        if !meets {
            return Err(InvalidPromise::MissesBound { promised, bound });
        }
        Ok(Promise {
            mode,
            promised,
            bound,
        })
    }

    /// The promise `plan` made for `request` (the body it was planned
    /// from): ExactIn its promised output against `toAmount × (100 −
    /// slippage)/100`, ExactOut its amount against `fromAmount × (100 +
    /// slippage)/100`. `None` when the bound has more digits than a
    /// [`Decimal`] holds or the plan promises nothing positive.
    pub fn of_plan(plan: &FixedOrderPlan<'_>, request: &FixedOrderRequest) -> Option<Self> {
        let slippage = request.slippage();
        let (promised, bound) = match request.swap_mode() {
            SwapMode::ExactIn => (
                plan.promised_output()?,
                slippage.min_output(request.to_amount())?,
            ),
            SwapMode::ExactOut => (plan.amount(), slippage.max_input(request.from_amount())?),
        };
        Promise::new(request.swap_mode(), promised, bound).ok()
    }

    /// The swap mode.
    pub fn mode(&self) -> SwapMode {
        self.mode
    }

    /// The promised amount: ExactIn the output, ExactOut the input.
    pub fn promised(&self) -> Decimal {
        self.promised
    }

    /// The slippage bound: ExactIn the least output, ExactOut the most input.
    pub fn bound(&self) -> Decimal {
        self.bound
    }

    /// Classifies a `fresh` promise (what the same body would be promised
    /// now) against this one; see [`RequoteClass`]. `fresh` must be
    /// positive to be a promise; zero or less is [`RequoteClass::Gone`]
    /// with no reason.
    pub fn classify(&self, fresh: Decimal) -> Requote {
        if fresh <= Decimal::ZERO {
            return self.gone(None);
        }
        let better = match self.mode {
            SwapMode::ExactIn => fresh > self.promised,
            SwapMode::ExactOut => fresh < self.promised,
        };
        let within = match self.mode {
            SwapMode::ExactIn => fresh >= self.bound,
            SwapMode::ExactOut => fresh <= self.bound,
        };
        let class = if fresh == self.promised {
            RequoteClass::Same
        } else if better {
            RequoteClass::Better
        } else if within {
            RequoteClass::WorseWithin
        } else {
            RequoteClass::WorseBeyond
        };
        Requote {
            promise: *self,
            class,
            fresh: Some(fresh),
            loss_bps: loss_bps(self.mode, self.promised, fresh),
            reason: None,
        }
    }

    /// The re-quote when no fresh promise exists: [`RequoteClass::Gone`]
    /// with `reason` (the code and details the fresh plan was refused with).
    pub fn gone(&self, reason: Option<ApiError>) -> Requote {
        Requote {
            promise: *self,
            class: RequoteClass::Gone,
            fresh: None,
            loss_bps: None,
            reason,
        }
    }
}

/// The loss of `fresh` against `promised` in basis points, measured from
/// the promise: ExactIn `(promised − fresh) × 10⁴ / promised`, ExactOut
/// `(fresh − promised) × 10⁴ / promised`; negative for a gain. Rounded up
/// (toward more loss) to 2 decimal places, so a loss is never understated.
/// `None` only when the arithmetic cannot be held.
fn loss_bps(mode: SwapMode, promised: Decimal, fresh: Decimal) -> Option<Decimal> {
    let diff = match mode {
        SwapMode::ExactIn => promised.checked_sub(fresh)?,
        SwapMode::ExactOut => fresh.checked_sub(promised)?,
    };
    let numerator = diff.checked_mul(Decimal::from(10_000u32))?;
    let quotient = numerator.checked_div(promised)?;
    let mut up = quotient.round_dp_with_strategy(2, RoundingStrategy::ToPositiveInfinity);
    // The quotient may be rounded at 28 digits: settle the ceiling exactly
    // where the products can be held (`up × promised ≥ numerator`, and the
    // step below it is not).
    let step = Decimal::new(1, 2);
    if let Some(product) = up.checked_mul(promised) {
        if product < numerator {
            up = up.checked_add(step)?;
        } else if let Some(lower) = up.checked_sub(step) {
            if lower.checked_mul(promised).is_some_and(|p| p >= numerator) {
                up = lower;
            }
        }
    }
    Some(up.normalize())
}

/// How a fresh answer compares with the original promise (ruling 50).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RequoteClass {
    /// Exactly the promise.
    Same,
    /// Better than the promise (more output; ExactOut: less input).
    Better,
    /// Worse than the promise, still inside the ORIGINAL slippage bound.
    WorseWithin,
    /// Worse than the original slippage bound allows.
    WorseBeyond,
    /// No fresh promise: no route, or the plan is refused (the reason says
    /// why).
    Gone,
}

impl RequoteClass {
    /// Every class, best first.
    pub const ALL: [RequoteClass; 5] = [
        RequoteClass::Better,
        RequoteClass::Same,
        RequoteClass::WorseWithin,
        RequoteClass::WorseBeyond,
        RequoteClass::Gone,
    ];

    /// `SAME`, `BETTER`, `WORSE_WITHIN`, `WORSE_BEYOND` or `GONE`.
    pub fn as_str(self) -> &'static str {
        match self {
            RequoteClass::Same => "SAME",
            RequoteClass::Better => "BETTER",
            RequoteClass::WorseWithin => "WORSE_WITHIN",
            RequoteClass::WorseBeyond => "WORSE_BEYOND",
            RequoteClass::Gone => "GONE",
        }
    }

    /// Whether the user may proceed without a new consent: `SAME`,
    /// `BETTER` or `WORSE_WITHIN`.
    pub fn acceptable(self) -> bool {
        matches!(
            self,
            RequoteClass::Same | RequoteClass::Better | RequoteClass::WorseWithin
        )
    }
}

impl fmt::Display for RequoteClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A re-quote's answer: its class, the original promise, the fresh promise,
/// the loss from the original promise, and why it is gone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requote {
    promise: Promise,
    class: RequoteClass,
    fresh: Option<Decimal>,
    loss_bps: Option<Decimal>,
    reason: Option<ApiError>,
}

impl Requote {
    /// The class.
    pub fn class(&self) -> RequoteClass {
        self.class
    }

    /// The ORIGINAL promise, unchanged: re-quote again against this one
    /// (never against [`fresh`](Self::fresh)).
    pub fn promise(&self) -> &Promise {
        &self.promise
    }

    /// The originally promised amount.
    pub fn promised(&self) -> Decimal {
        self.promise.promised
    }

    /// The fresh promise (ExactIn output, ExactOut input); `None` when gone.
    pub fn fresh(&self) -> Option<Decimal> {
        self.fresh
    }

    /// The loss from the original promise in basis points (negative: a
    /// gain), rounded up to 2 places; `None` when gone.
    pub fn loss_bps(&self) -> Option<Decimal> {
        self.loss_bps
    }

    /// Why it is gone: the fresh plan's refusal (its code and details);
    /// `None` unless [`RequoteClass::Gone`].
    pub fn reason(&self) -> Option<&ApiError> {
        self.reason.as_ref()
    }
}

impl FixedOrderRequest {
    /// Re-quotes this body (the one `promise` was made for) over a fresh
    /// rates response at `context.now` (ruling 50): plans it again as
    /// [`plan`](Self::plan) does and classifies the fresh promise against
    /// the original one. A fresh plan refused only by the slippage bound is
    /// [`RequoteClass::WorseBeyond`] with what it offers; any other refusal
    /// (no route, expired rates, screening) is [`RequoteClass::Gone`] with
    /// that refusal as the reason.
    ///
    /// # Errors
    /// [`InvalidPromise::ModeMismatch`] when the body is in another swap
    /// mode than the promise.
    pub fn requote(
        &self,
        promise: &Promise,
        rates: &(impl RateList + ?Sized),
        context: &OrderContext<'_>,
    ) -> Result<Requote, InvalidPromise> {
        if promise.mode != self.swap_mode() {
            return Err(InvalidPromise::ModeMismatch {
                promise: promise.mode,
                body: self.swap_mode(),
            });
        }
        let fresh = match self.plan(rates, context) {
            Ok(plan) => match self.swap_mode() {
                SwapMode::ExactIn => plan.promised_output(),
                SwapMode::ExactOut => Some(plan.amount()),
            },
            Err(PlanError::Slippage(SlippageError::Exceeded(exceeded))) => Some(exceeded.available),
            Err(error) => return Ok(promise.gone(Some(error.to_api_error()))),
        };
        Ok(match fresh {
            Some(fresh) => promise.classify(fresh),
            None => promise.gone(None),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    #[test]
    fn exact_in_classes_by_hand() {
        // Promised 100, toAmount 100 at 2 %: bound 98.
        let p = Promise::new(SwapMode::ExactIn, d("100"), d("98")).unwrap();
        let c = |f: &str| p.classify(d(f));
        assert_eq!(c("100").class(), RequoteClass::Same);
        assert_eq!(c("100").loss_bps(), Some(d("0")));
        assert_eq!(c("101").class(), RequoteClass::Better);
        assert_eq!(c("101").loss_bps(), Some(d("-100")));
        assert_eq!(c("99").class(), RequoteClass::WorseWithin);
        assert_eq!(c("99").loss_bps(), Some(d("100")));
        assert_eq!(c("98").class(), RequoteClass::WorseWithin);
        assert_eq!(c("97.99999999").class(), RequoteClass::WorseBeyond);
        // 1/3 bps of loss: 0.0033… rounds up to 0.01.
        let q = Promise::new(SwapMode::ExactIn, d("3"), d("0")).unwrap();
        assert_eq!(q.classify(d("2.999999")).loss_bps(), Some(d("0.01")));
        // 1/3 of a gain rounds toward loss: −3.33… → −3.33.
        assert_eq!(q.classify(d("3.001")).loss_bps(), Some(d("-3.33")));
    }

    #[test]
    fn exact_out_classes_by_hand() {
        // Required input 1.01 promised, fromAmount 1 at 2 %: at most 1.02.
        let p = Promise::new(SwapMode::ExactOut, d("1.01"), d("1.02")).unwrap();
        assert_eq!(p.classify(d("1.01")).class(), RequoteClass::Same);
        assert_eq!(p.classify(d("1")).class(), RequoteClass::Better);
        assert_eq!(p.classify(d("1.02")).class(), RequoteClass::WorseWithin);
        assert_eq!(p.classify(d("1.0201")).class(), RequoteClass::WorseBeyond);
        // (1.0201 − 1.01) × 10⁴ / 1.01 = 100 bps exactly.
        assert_eq!(p.classify(d("1.0201")).loss_bps(), Some(d("100")));
        assert_eq!(p.classify(d("0")).class(), RequoteClass::Gone);
    }

    #[test]
    fn promises_are_checked() {
        assert!(Promise::new(SwapMode::ExactIn, d("0"), d("0")).is_err());
        assert!(Promise::new(SwapMode::ExactIn, d("1"), d("-1")).is_err());
        assert!(Promise::new(SwapMode::ExactOut, d("2"), d("1")).is_err());
    }
}
