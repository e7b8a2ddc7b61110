//! The `features` of a rate.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;
use core::hash::{Hash, Hasher};

use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::ids::{check_id, InvalidId};

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
    /// `exactOut`, or any other name an id may be.
    fn from_wire(text: &str) -> Result<Self, InvalidId> {
        if text == EXACT_OUT {
            return Ok(Feature::ExactOut);
        }
        check_id(text)?;
        Ok(Feature::Other(text.into()))
    }

    /// The wire text.
    pub fn as_str(&self) -> &str {
        match self {
            Feature::ExactOut => EXACT_OUT,
            Feature::Other(text) => text,
        }
    }
}

crate::text::str_serde!(Feature, "a feature name", Feature::from_wire, |_v, e| e);

/// `["exactOut"]`, the one list most rates carry, held without an allocation.
static EXACT_OUT_ONLY: [Feature; 1] = [Feature::ExactOut];

/// A rate's `features`: absent, `null` and `[]` all mean none.
///
/// Equality and hashing are those of the list in wire order.
#[derive(Clone, Default)]
pub struct Features(List);

/// How a [`Features`] holds its list. `List` never holds exactly
/// `[ExactOut]`: every constructor goes through [`Features::from_vec`].
#[derive(Clone, Default)]
enum List {
    /// No features.
    #[default]
    Empty,
    /// `["exactOut"]`.
    ExactOutOnly,
    /// Any other non-empty list.
    Other(Vec<Feature>),
}

impl Features {
    /// No features.
    pub const fn new() -> Self {
        Features(List::Empty)
    }

    fn from_vec(list: Vec<Feature>) -> Self {
        Features(match list.as_slice() {
            [] => List::Empty,
            [Feature::ExactOut] => List::ExactOutOnly,
            _ => List::Other(list),
        })
    }

    fn as_slice(&self) -> &[Feature] {
        match &self.0 {
            List::Empty => &[],
            List::ExactOutOnly => &EXACT_OUT_ONLY,
            List::Other(list) => list,
        }
    }

    /// `true` when the list holds `"exactOut"`.
    pub fn exact_out(&self) -> bool {
        match &self.0 {
            List::Empty => false,
            List::ExactOutOnly => true,
            List::Other(list) => list.contains(&Feature::ExactOut),
        }
    }

    /// Adds or removes `"exactOut"`.
    pub fn set_exact_out(&mut self, supported: bool) {
        let mut list: Vec<Feature> = self
            .iter()
            .filter(|f| **f != Feature::ExactOut)
            .cloned()
            .collect();
        if supported {
            list.push(Feature::ExactOut);
        }
        *self = Features::from_vec(list);
    }

    /// The features in wire order.
    pub fn iter(&self) -> core::slice::Iter<'_, Feature> {
        self.as_slice().iter()
    }

    /// `true` when there are none.
    pub fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }
}

impl PartialEq for Features {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Features {}

impl Hash for Features {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl fmt::Debug for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Features").field(&self.as_slice()).finish()
    }
}

impl FromIterator<Feature> for Features {
    fn from_iter<I: IntoIterator<Item = Feature>>(iter: I) -> Self {
        Features::from_vec(iter.into_iter().collect())
    }
}

impl<'a> IntoIterator for &'a Features {
    type Item = &'a Feature;
    type IntoIter = core::slice::Iter<'a, Feature>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Serialize for Features {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Features {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // What `Option<Vec<Feature>>` accepts, with its messages ("option",
        // "a sequence"), without a `Vec` for `["exactOut"]`.
        struct OptionVisitor;
        impl<'de> Visitor<'de> for OptionVisitor {
            type Value = Features;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("option")
            }
            fn visit_none<E: serde::de::Error>(self) -> Result<Features, E> {
                Ok(Features::new())
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Features, E> {
                Ok(Features::new())
            }
            fn visit_some<D: Deserializer<'de>>(self, inner: D) -> Result<Features, D::Error> {
                inner.deserialize_seq(ListVisitor)
            }
        }
        struct ListVisitor;
        impl<'de> Visitor<'de> for ListVisitor {
            type Value = Features;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Features, A::Error> {
                let Some(first) = seq.next_element::<Feature>()? else {
                    return Ok(Features::new());
                };
                let Some(second) = seq.next_element::<Feature>()? else {
                    return Ok(match first {
                        Feature::ExactOut => Features(List::ExactOutOnly),
                        other => Features(List::Other(alloc::vec![other])),
                    });
                };
                let mut list =
                    Vec::with_capacity(seq.size_hint().unwrap_or(0).min(16).saturating_add(2));
                list.push(first);
                list.push(second);
                while let Some(feature) = seq.next_element::<Feature>()? {
                    list.push(feature);
                }
                Ok(Features::from_vec(list))
            }
        }
        deserializer.deserialize_option(OptionVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use core::hash::BuildHasher;

    fn other(text: &str) -> Feature {
        Feature::Other(text.into())
    }

    #[test]
    fn decodes_as_an_optional_list_with_the_same_messages() {
        // The reference: serde's own `Option<Vec<Feature>>`.
        for json in [
            "null",
            "[]",
            r#"["exactOut"]"#,
            r#"["exactOut","exactOut"]"#,
            r#"["fast"]"#,
            r#"["fast","exactOut"]"#,
            r#"["exactOut","fast","slow"]"#,
            r#""exactOut""#,
            "5",
            "{}",
            "[5]",
            r#"["exactOut",5]"#,
            r#"["exactOut",""]"#,
            r#"["exactOut","fast",""]"#,
            r#"["exactOut""#,
        ] {
            let ours = serde_json::from_str::<Features>(json);
            let reference = serde_json::from_str::<Option<Vec<Feature>>>(json);
            match (ours, reference) {
                (Ok(ours), Ok(reference)) => {
                    let reference = reference.unwrap_or_default();
                    assert_eq!(
                        ours.iter().collect::<Vec<_>>(),
                        reference.iter().collect::<Vec<_>>(),
                        "{json}"
                    );
                    assert_eq!(
                        ours.exact_out(),
                        reference.contains(&Feature::ExactOut),
                        "{json}"
                    );
                    assert_eq!(ours.is_empty(), reference.is_empty(), "{json}");
                    assert_eq!(
                        serde_json::to_string(&ours).unwrap(),
                        serde_json::to_string(&reference).unwrap()
                    );
                }
                (Err(ours), Err(reference)) => {
                    assert_eq!(ours.to_string(), reference.to_string(), "{json}");
                }
                (ours, reference) => panic!("{json}: {ours:?} vs {reference:?}"),
            }
        }
    }

    #[test]
    fn equal_lists_are_equal_and_hash_alike_however_built() {
        let hasher = std::hash::RandomState::new();
        let decoded: Features = serde_json::from_str(r#"["exactOut"]"#).unwrap();
        let collected: Features = [Feature::ExactOut].into_iter().collect();
        let mut set = Features::new();
        set.set_exact_out(true);
        let mut from_other: Features = [other("fast")].into_iter().collect();
        from_other.set_exact_out(true);
        let two: Features = serde_json::from_str(r#"["fast","exactOut"]"#).unwrap();
        for features in [&decoded, &collected, &set] {
            assert_eq!(*features, decoded);
            assert_eq!(hasher.hash_one(features), hasher.hash_one(&decoded));
            assert_eq!(alloc::format!("{features:?}"), "Features([ExactOut])");
            assert!(features.exact_out());
        }
        assert_eq!(from_other, two);
        assert_eq!(hasher.hash_one(&from_other), hasher.hash_one(&two));
        assert_ne!(two, decoded);
        assert_eq!(
            alloc::format!("{two:?}"),
            r#"Features([Other("fast"), ExactOut])"#
        );

        // Clearing the capability leaves the others, in order.
        let mut cleared = two.clone();
        cleared.set_exact_out(false);
        assert_eq!(cleared.iter().collect::<Vec<_>>(), [&other("fast")]);
        let mut none = decoded.clone();
        none.set_exact_out(false);
        assert_eq!(none, Features::new());
        assert_eq!(hasher.hash_one(&none), hasher.hash_one(Features::default()));
        assert!(none.is_empty() && !none.exact_out());
    }

    #[test]
    fn different_lists_hash_apart_and_iterate_by_reference() {
        let hasher = std::hash::RandomState::new();
        let two: Features = serde_json::from_str(r#"["fast","exactOut"]"#).unwrap();
        let one: Features = serde_json::from_str(r#"["exactOut"]"#).unwrap();
        assert_ne!(hasher.hash_one(&two), hasher.hash_one(&one));
        assert_ne!(hasher.hash_one(&one), hasher.hash_one(Features::new()));

        let mut seen = Vec::new();
        for feature in &two {
            seen.push(feature.as_str());
        }
        assert_eq!(seen, ["fast", "exactOut"]);
    }

    #[test]
    fn a_format_without_options_is_told_an_option_was_expected() {
        use serde::de::value::{BoolDeserializer, Error};
        let ours = Features::deserialize(BoolDeserializer::<Error>::new(true)).unwrap_err();
        let reference =
            Option::<Vec<Feature>>::deserialize(BoolDeserializer::<Error>::new(true)).unwrap_err();
        assert_eq!(ours.to_string(), reference.to_string());
        assert!(ours.to_string().contains("expected option"), "{ours}");
    }
}
