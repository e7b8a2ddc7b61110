//! The collectors of the best route and of the top `k`: what a scan keeps.

use core::cmp::Ordering;

use super::buffer::{Slots, TopBuffer};
use super::scan::Collect;
use crate::rate::Rate;
use crate::route::rules::eligibility::{check, Candidate};
use crate::route::rules::order::{key_before, key_order, rank_order};
use crate::route::RouteRequest;

/// What a collector kept, best first, for the engine's one ending
/// ([`conclude`](super::conclude::conclude)).
pub(crate) trait Kept<'r> {
    /// The kept fast-keyed rates (`None` entries are empty slots).
    fn keyed_rates(&self) -> &[Option<&'r Rate>];
    /// The kept plain candidates (`None` entries are empty slots).
    fn plain_candidates(&self) -> &[Option<Candidate<'r>>];
}

/// The best route's collector: the best keyed rate and its key, and the
/// best plain candidate. One comparison per rate below the held key.
#[derive(Debug)]
pub(crate) struct Best<'r> {
    /// The held rate's key, and `i128::MIN` (below every key) before one is held.
    floor: i128,
    held: Option<&'r Rate>,
    plain: Option<Candidate<'r>>,
}

impl<'r> Best<'r> {
    /// Nothing kept yet.
    pub(crate) fn new() -> Self {
        Best {
            floor: i128::MIN,
            held: None,
            plain: None,
        }
    }

    /// What a search found elsewhere (the rate book's tree and its loose rates).
    pub(crate) fn found(keyed: Option<(i128, &'r Rate)>, plain: Option<Candidate<'r>>) -> Self {
        Best {
            floor: keyed.map_or(i128::MIN, |(key, _)| key),
            held: keyed.map(|(_, rate)| rate),
            plain,
        }
    }
}

impl<'r> Collect<'r> for Best<'r> {
    #[inline]
    fn floor(&self) -> i128 {
        self.floor
    }

    #[inline]
    fn keyed(&mut self, _request: &RouteRequest<'_>, net: i128, rate: &'r Rate) {
        if self
            .held
            .is_none_or(|held| key_order(net, rate, self.floor, held) == Ordering::Less)
        {
            self.held = Some(rate);
            self.floor = net;
        }
    }

    #[inline]
    fn slow(&mut self, request: &RouteRequest<'_>, rate: &'r Rate) {
        keep_best_plain(request, rate, &mut self.plain);
    }
}

impl<'r> Kept<'r> for Best<'r> {
    fn keyed_rates(&self) -> &[Option<&'r Rate>] {
        core::slice::from_ref(&self.held)
    }

    fn plain_candidates(&self) -> &[Option<Candidate<'r>>] {
        core::slice::from_ref(&self.plain)
    }
}

/// Keeps `rate` as the best plain candidate if the plain path finds it
/// eligible and it ranks first. Out of line: the plain path is slow anyway,
/// and the scan loop keeps its registers for the fast path.
#[inline(never)]
pub(crate) fn keep_best_plain<'r>(
    request: &RouteRequest<'_>,
    rate: &'r Rate,
    plain: &mut Option<Candidate<'r>>,
) {
    if let Ok(candidate) = check(rate, request) {
        let amount = request.from_amount().get();
        if plain.is_none_or(|held| rank_order(amount, &candidate, &held) == Ordering::Less) {
            *plain = Some(candidate);
        }
    }
}

/// The top-`k` collector: the best keyed rates and the best plain
/// candidates, `k` of each at most, in two [`TopBuffer`]s over storage of
/// `k` slots each (arrays for a `k` fixed at compile time).
#[derive(Debug)]
pub(crate) struct TopK<KS, RS, PS, US> {
    keyed: TopBuffer<KS, RS>,
    plain: TopBuffer<PS, US>,
}

impl<'r, KS, RS, PS, US> TopK<KS, RS, PS, US>
where
    KS: Slots<Item = i128>,
    RS: Slots<Item = Option<&'r Rate>>,
    PS: Slots<Item = Option<Candidate<'r>>>,
    US: Slots<Item = ()>,
{
    /// Empty, over `k` slots of each kind; the keys must hold `i128::MIN`
    /// (see [`TopBuffer::floor`]).
    pub(crate) fn new(keys: KS, keyed: RS, plain: PS, units: US) -> Self {
        debug_assert!(keys.slots().iter().all(|&key| key == i128::MIN));
        TopK {
            keyed: TopBuffer::new(keys, keyed),
            plain: TopBuffer::new(plain, units),
        }
    }
}

impl<'r, KS, RS, PS, US> Collect<'r> for TopK<KS, RS, PS, US>
where
    KS: Slots<Item = i128>,
    RS: Slots<Item = Option<&'r Rate>>,
    PS: Slots<Item = Option<Candidate<'r>>>,
    US: Slots<Item = ()>,
{
    #[inline]
    fn floor(&self) -> i128 {
        self.keyed.floor()
    }

    #[inline]
    fn keyed(&mut self, _request: &RouteRequest<'_>, net: i128, rate: &'r Rate) {
        self.keyed.offer(net, Some(rate), |&net, _, &key, &held| {
            key_before(net, rate, key, held)
        });
    }

    #[inline]
    fn slow(&mut self, request: &RouteRequest<'_>, rate: &'r Rate) {
        offer_plain(request, rate, &mut self.plain);
    }
}

impl<'r, KS, RS, PS, US> Kept<'r> for TopK<KS, RS, PS, US>
where
    KS: Slots<Item = i128>,
    RS: Slots<Item = Option<&'r Rate>>,
    PS: Slots<Item = Option<Candidate<'r>>>,
    US: Slots<Item = ()>,
{
    fn keyed_rates(&self) -> &[Option<&'r Rate>] {
        self.keyed.values()
    }

    fn plain_candidates(&self) -> &[Option<Candidate<'r>>] {
        self.plain.keys()
    }
}

/// Keeps `rate` among the plain candidates if the plain path finds it
/// eligible. Out of line, as [`keep_best_plain`].
#[inline(never)]
fn offer_plain<'r, PS, US>(
    request: &RouteRequest<'_>,
    rate: &'r Rate,
    plain: &mut TopBuffer<PS, US>,
) where
    PS: Slots<Item = Option<Candidate<'r>>>,
    US: Slots<Item = ()>,
{
    if let Ok(candidate) = check(rate, request) {
        let amount = request.from_amount().get();
        plain.offer(Some(candidate), (), |new, (), held, ()| match (new, held) {
            (Some(new), Some(held)) => rank_order(amount, new, held) == Ordering::Less,
            (Some(_), None) => true,
            (None, _) => false,
        });
    }
}
