//! `--max-deviation-bps B [--reference M]`: the price guard (ruling 40).
//!
//! A rate whose multiplier deviates from the reference by more than `B`
//! basis points is rejected `PRICE_OUTLIER` (shown under "rejected:" with
//! its multiplier, the reference and the deviation; in `--json` its
//! rejection adds `multiplier`, `reference`, `deviationBps` and
//! `maxDeviationBps`). The reference is `M`, or else the exact median
//! multiplier of the rates that can serve some amount under the rest of the
//! policy (ruling 42).

use serde_json::{json, Value};
use swaproute::route::{PriceGuard, PriceReference, RouteRequest};
use swaproute::Rate;

/// The two flags as given.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GuardArgs {
    pub(crate) max_deviation_bps: Option<u32>,
    pub(crate) reference: Option<PriceReference>,
}

impl GuardArgs {
    /// Takes `flag` (and its value) when it is one of the guard's.
    pub(crate) fn parse(
        &mut self,
        flag: &str,
        value: &mut dyn FnMut(&str) -> Result<String, String>,
    ) -> Result<bool, String> {
        match flag {
            "--max-deviation-bps" => {
                let text = value(flag)?;
                let bps: u32 = text.parse().map_err(|_| {
                    format!("--max-deviation-bps {text:?} is not a whole number of basis points (0 to 4294967295)")
                })?;
                self.max_deviation_bps = Some(bps);
            }
            "--reference" => {
                let text = value(flag)?;
                let multiplier: swaproute::Amount = text.parse().map_err(|e| {
                    format!("--reference {text:?} is not a decimal multiplier: {e}")
                })?;
                self.reference = Some(
                    PriceReference::new(multiplier.get())
                        .map_err(|e| format!("--reference {text:?}: {e}"))?,
                );
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The guard, if `--max-deviation-bps` was given.
    ///
    /// # Errors
    /// `--reference` without `--max-deviation-bps`.
    pub(crate) fn guard(&self) -> Result<Option<PriceGuard>, String> {
        match (self.max_deviation_bps, self.reference) {
            (None, None) => Ok(None),
            (None, Some(_)) => Err("--reference needs --max-deviation-bps".to_owned()),
            (Some(bps), None) => Ok(Some(PriceGuard::median(bps))),
            (Some(bps), Some(reference)) => Ok(Some(PriceGuard::against(reference, bps))),
        }
    }
}

/// The reference `request`'s guard judges `rates` against: the caller's, or
/// the median of the voters (ruling 42), as the library finds it.
fn reference(request: &RouteRequest<'_>, rates: &[Rate]) -> Option<PriceReference> {
    request.price_reference(rates)
}

/// The table's line: `price guard: 500 bps around the median 33.2`.
pub(crate) fn describe(guard: &PriceGuard, request: &RouteRequest<'_>, rates: &[Rate]) -> String {
    let source = if guard.reference().is_some() {
        "the reference"
    } else {
        "the median"
    };
    match reference(request, rates) {
        Some(r) => format!(
            "price guard: {} bps around {source} {r}\n",
            guard.max_deviation_bps()
        ),
        None => format!(
            "price guard: {} bps around {source} (none: no rate can serve any amount)\n",
            guard.max_deviation_bps()
        ),
    }
}

/// The report's `priceGuard`: `{"maxDeviationBps", "reference", "source"}`.
pub(crate) fn to_json(guard: &PriceGuard, request: &RouteRequest<'_>, rates: &[Rate]) -> Value {
    json!({
        "maxDeviationBps": guard.max_deviation_bps(),
        "reference": reference(request, rates).map(|r| r.to_string()),
        "source": if guard.reference().is_some() { "caller" } else { "median" },
    })
}
