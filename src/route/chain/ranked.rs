//! A chain: its legs, what goes in and comes out of each, and its expiry.

use rust_decimal::Decimal;
use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use super::request::MAX_LEGS;
use crate::decimal::{Fixed8, Plain};
use crate::rate::{PairId, Rate};
use crate::route::RejectReason;
use crate::swap_mode::SwapMode;
use crate::time::EpochMillis;

/// One leg of a chain: a rate, what goes in and what comes out.
///
/// ExactIn: `input` is the chain's `fromAmount` (first leg) or the previous
/// leg's output rounded down to 8 places; `output` is the net output
/// `input × multiplier − minerFee`. ExactOut: `input` is the leg's required
/// input (8 places); `output` is what that input yields, at least what the
/// next leg requires (or the exact `toAmount`).
///
/// # JSON
/// `{"pairId","rateId","input","output"}`, decimals as strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leg<'r> {
    pub(crate) rate: &'r Rate,
    pub(crate) input: Decimal,
    pub(crate) output: Decimal,
}

impl<'r> Leg<'r> {
    /// The rate of the leg.
    pub fn rate(&self) -> &'r Rate {
        self.rate
    }

    /// The leg's pair.
    pub fn pair_id(&self) -> &'r PairId {
        self.rate.pair_id()
    }

    /// What goes in, in the pair's from asset.
    pub fn input(&self) -> Decimal {
        self.input
    }

    /// What comes out, in the pair's to asset.
    pub fn output(&self) -> Decimal {
        self.output
    }
}

impl Serialize for Leg<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Leg", 4)?;
        out.serialize_field("pairId", self.rate.pair_id())?;
        out.serialize_field("rateId", self.rate.id())?;
        out.serialize_field("input", &Plain(self.input))?;
        out.serialize_field("output", &Plain(self.output))?;
        out.end()
    }
}

/// A chain of 1 to 3 legs (ruling 24 in docs/RULES.md), ranked in its
/// request's mode.
///
/// # JSON
/// `{"legs":[…],"finalOutput","requiredInput","expiry"}`: `finalOutput` in
/// ExactIn (the last leg's output), `requiredInput` in ExactOut (the first
/// leg's input, 8 places), the other `null`; in a selection each chain also
/// has its `rank`, first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chain<'r> {
    /// The legs in order; slots past `len` repeat the first leg.
    legs: [Leg<'r>; MAX_LEGS],
    len: usize,
    mode: SwapMode,
}

impl<'r> Chain<'r> {
    /// A chain of `legs` (1 to [`MAX_LEGS`]); `None` for none or too many.
    pub(crate) fn new(mode: SwapMode, legs: &[Leg<'r>]) -> Option<Self> {
        let first = *legs.first()?;
        if legs.len() > MAX_LEGS {
            return None;
        }
        let mut slots = [first; MAX_LEGS];
        for (slot, leg) in slots.iter_mut().zip(legs) {
            *slot = *leg;
        }
        Some(Chain {
            legs: slots,
            len: legs.len(),
            mode,
        })
    }

    /// The legs, in order.
    pub fn legs(&self) -> &[Leg<'r>] {
        self.legs.get(..self.len).unwrap_or_default()
    }

    /// The swap mode the chain was ranked in.
    pub fn mode(&self) -> SwapMode {
        self.mode
    }

    /// The first leg's input: `fromAmount` (ExactIn) or the required input.
    pub fn input(&self) -> Decimal {
        self.legs[0].input
    }

    /// The last leg's output.
    pub fn output(&self) -> Decimal {
        self.legs().last().map_or(Decimal::ZERO, |leg| leg.output)
    }

    /// ExactIn: the final net output, the ranking score (`None` in ExactOut).
    pub fn final_output(&self) -> Option<Decimal> {
        (self.mode == SwapMode::ExactIn).then(|| self.output())
    }

    /// ExactOut: what the user must send, the first leg's required input,
    /// the ranking score (`None` in ExactIn).
    pub fn required_input(&self) -> Option<Fixed8> {
        if self.mode == SwapMode::ExactOut {
            Fixed8::ceil(self.input()).ok()
        } else {
            None
        }
    }

    /// The earliest expiry among the legs' rates: the chain is valid until then.
    pub fn expiry(&self) -> EpochMillis {
        self.legs()
            .iter()
            .map(|leg| leg.rate.expiry())
            .min()
            .unwrap_or(self.legs[0].rate.expiry())
    }

    /// The legs' rates, in order (slots past the length repeat the first).
    pub(crate) fn rates(&self) -> [&'r Rate; MAX_LEGS] {
        self.legs.map(|leg| leg.rate)
    }

    /// The ranking score: the final output (ExactIn) or the first leg's
    /// input (ExactOut).
    pub(crate) fn score(&self) -> Decimal {
        match self.mode {
            SwapMode::ExactIn => self.output(),
            SwapMode::ExactOut => self.input(),
        }
    }

    /// The last leg's input: the amount the final output is at (ExactIn),
    /// what the exact chain order reads (ruling 43).
    pub(crate) fn last_input(&self) -> Decimal {
        self.legs().last().map_or(Decimal::ZERO, |leg| leg.input)
    }

    /// The chain with its rank, for a selection's JSON.
    pub(crate) fn ranked(&self, rank: usize) -> RankedChain<'_, 'r> {
        RankedChain {
            rank: Some(rank),
            chain: self,
        }
    }
}

impl Serialize for Chain<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RankedChain {
            rank: None,
            chain: self,
        }
        .serialize(serializer)
    }
}

/// A chain as JSON, with its rank when it has one.
pub(crate) struct RankedChain<'a, 'r> {
    rank: Option<usize>,
    chain: &'a Chain<'r>,
}

impl Serialize for RankedChain<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let chain = self.chain;
        let len = 4usize.saturating_add(usize::from(self.rank.is_some()));
        let mut out = serializer.serialize_struct("Chain", len)?;
        if let Some(rank) = self.rank {
            out.serialize_field("rank", &rank)?;
        }
        out.serialize_field("legs", &Legs(chain.legs()))?;
        out.serialize_field("finalOutput", &chain.final_output().map(Plain))?;
        out.serialize_field("requiredInput", &chain.required_input())?;
        out.serialize_field("expiry", &chain.expiry())?;
        out.end()
    }
}

/// Legs as a JSON array.
struct Legs<'a, 'r>(&'a [Leg<'r>]);

impl Serialize for Legs<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_seq(Some(self.0.len()))?;
        for leg in self.0 {
            out.serialize_element(leg)?;
        }
        out.end()
    }
}

/// A chain that was not made: its path, the leg that failed (1 is the
/// first), that leg's rate and the reason.
///
/// In ExactIn legs are tried forwards (a rejection at leg 2 means leg 1
/// passed); in ExactOut backwards, from the last leg.
///
/// # JSON
/// `{"legs":["BTC_ETH","ETH_SOL"],"leg":2,"rateId":"…","reason":"BELOW_MIN"}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainRejection<'r> {
    pub(super) pairs: [&'r PairId; MAX_LEGS],
    pub(super) len: usize,
    pub(super) leg: usize,
    pub(super) rate: &'r Rate,
    pub(super) reason: RejectReason,
}

impl<'r> ChainRejection<'r> {
    /// A rejection on path `ids` at leg `leg` (0 is the first).
    pub(crate) fn new(
        ids: &[&'r PairId],
        leg: usize,
        rate: &'r Rate,
        reason: RejectReason,
    ) -> Option<Self> {
        let &first = ids.first()?;
        let mut pairs = [first; MAX_LEGS];
        for (slot, &id) in pairs.iter_mut().zip(ids) {
            *slot = id;
        }
        (ids.len() <= MAX_LEGS).then_some(ChainRejection {
            pairs,
            len: ids.len(),
            leg: leg.saturating_add(1),
            rate,
            reason,
        })
    }

    /// The path's pairs, in leg order.
    pub fn pair_ids(&self) -> &[&'r PairId] {
        self.pairs.get(..self.len).unwrap_or_default()
    }

    /// The leg that failed, counting from 1.
    pub fn leg(&self) -> usize {
        self.leg
    }

    /// The failing leg's rate.
    pub fn rate(&self) -> &'r Rate {
        self.rate
    }

    /// Why it failed.
    pub fn reason(&self) -> &RejectReason {
        &self.reason
    }

    /// How many legs passed before this one failed (legs are tried forwards
    /// in ExactIn, backwards in ExactOut).
    pub(super) fn progress(&self, mode: SwapMode) -> usize {
        match mode {
            SwapMode::ExactIn => self.leg.saturating_sub(1),
            SwapMode::ExactOut => self.len.saturating_sub(self.leg),
        }
    }
}

impl Serialize for ChainRejection<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("ChainRejection", 4)?;
        out.serialize_field("legs", &self.pair_ids())?;
        out.serialize_field("leg", &self.leg)?;
        out.serialize_field("rateId", self.rate.id())?;
        out.serialize_field("reason", self.reason.code())?;
        out.end()
    }
}
