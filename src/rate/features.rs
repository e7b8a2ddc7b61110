//! The `features` of a rate.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::ids::check_id;

/// The wire text of the ExactOut capability.
const EXACT_OUT: &str = "exactOut";

/// One entry of a rate's `features`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Feature {
    /// `"exactOut"`: the provider behind the rate supports exact output.
    ExactOut,
    /// A feature this crate does not know; kept so it round-trips.
    Other(Box<str>),
}

impl Feature {
    /// The wire text.
    pub fn as_str(&self) -> &str {
        match self {
            Feature::ExactOut => EXACT_OUT,
            Feature::Other(text) => text,
        }
    }
}

impl Serialize for Feature {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Feature {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Feature;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a feature name")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Feature, E> {
                if v == EXACT_OUT {
                    return Ok(Feature::ExactOut);
                }
                check_id(v).map_err(E::custom)?;
                Ok(Feature::Other(v.into()))
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

/// A rate's `features`: absent, `null` and `[]` all mean none.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Features(Vec<Feature>);

impl Features {
    /// No features.
    pub const fn new() -> Self {
        Features(Vec::new())
    }

    /// `true` when the list holds `"exactOut"`.
    pub fn exact_out(&self) -> bool {
        self.0.contains(&Feature::ExactOut)
    }

    /// Adds or removes `"exactOut"`.
    pub fn set_exact_out(&mut self, supported: bool) {
        self.0.retain(|f| *f != Feature::ExactOut);
        if supported {
            self.0.push(Feature::ExactOut);
        }
    }

    /// The features in wire order.
    pub fn iter(&self) -> core::slice::Iter<'_, Feature> {
        self.0.iter()
    }

    /// `true` when there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromIterator<Feature> for Features {
    fn from_iter<I: IntoIterator<Item = Feature>>(iter: I) -> Self {
        Features(iter.into_iter().collect())
    }
}

impl<'a> IntoIterator for &'a Features {
    type Item = &'a Feature;
    type IntoIter = core::slice::Iter<'a, Feature>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl Serialize for Features {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Features {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Features(
            Option::<Vec<Feature>>::deserialize(deserializer)?.unwrap_or_default(),
        ))
    }
}
