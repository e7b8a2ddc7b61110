//! CAIP-2 chain ids: `namespace:reference`.

use alloc::boxed::Box;
use core::fmt;

use super::grammar;
use super::{CaipComponent, InvalidCaipId};

/// The longest CAIP-2 chain id, in bytes: 8 + 1 + 32.
pub const MAX_CHAIN_ID_LEN: usize = 41;

/// A CAIP-2 chain id, `namespace:reference` (`eip155:1`,
/// `bip122:000000000019d6689c085ae165831e93`, `cosmos:cosmoshub-3`).
///
/// Grammar (case-sensitive): namespace `[-a-z0-9]{3,8}`, reference
/// `[-_a-zA-Z0-9]{1,32}`. Equality and hashing are by text; ordering compares
/// the namespace, then the reference, each by bytes.
///
/// ```
/// use swaproute::caip::ChainId;
/// let chain: ChainId = "eip155:1".parse().unwrap();
/// assert_eq!((chain.namespace(), chain.reference()), ("eip155", "1"));
/// assert_eq!(chain.to_string(), "eip155:1");
/// assert!("EIP155:1".parse::<ChainId>().is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChainId {
    namespace: Box<str>,
    reference: Box<str>,
}

impl ChainId {
    /// Parses `namespace:reference`.
    ///
    /// # Errors
    /// [`InvalidCaipId`] naming the first component that breaks the grammar.
    pub fn parse(text: &str) -> Result<Self, InvalidCaipId> {
        let (namespace, reference) = grammar::chain_id(text)?;
        Ok(ChainId::from_grammar(namespace, reference))
    }

    /// Only for components the grammar has already accepted.
    pub(super) fn from_grammar(namespace: &str, reference: &str) -> Self {
        ChainId {
            namespace: namespace.into(),
            reference: reference.into(),
        }
    }

    /// The chain id of `namespace` and `reference`, each validated.
    ///
    /// ```
    /// use swaproute::caip::ChainId;
    /// assert_eq!(ChainId::new("cosmos", "cosmoshub-3").unwrap().to_string(), "cosmos:cosmoshub-3");
    /// ```
    ///
    /// # Errors
    /// [`InvalidCaipId`] naming the component that breaks the grammar (offsets
    /// count from the start of that component).
    pub fn new(namespace: &str, reference: &str) -> Result<Self, InvalidCaipId> {
        grammar::component(CaipComponent::Namespace, namespace)?;
        grammar::component(CaipComponent::Reference, reference)?;
        Ok(ChainId {
            namespace: namespace.into(),
            reference: reference.into(),
        })
    }

    /// The namespace, e.g. `eip155`.
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// The reference, e.g. `1`.
    pub fn reference(&self) -> &str {
        &self.reference
    }
}

impl fmt::Display for ChainId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.namespace, self.reference)
    }
}

crate::text::text_traits!(
    ChainId,
    ChainId::parse,
    super::InvalidCaipId,
    "a CAIP-2 chain id"
);
