//! The text-form trait impls every CAIP type shares: `FromStr`, `TryFrom<&str>`,
//! `Debug` and serde, all through the type's one `parse`.

/// Implements `FromStr`, `TryFrom<&str>`, `Debug`, `Serialize` (the
/// `Display` text) and `Deserialize` (a string, through `parse`) for `$name`.
macro_rules! text_form {
    ($name:ident, $what:literal) => {
        impl core::str::FromStr for $name {
            type Err = $crate::caip::InvalidCaipId;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $name::parse(s)
            }
        }

        impl TryFrom<&str> for $name {
            type Error = $crate::caip::InvalidCaipId;
            fn try_from(s: &str) -> Result<Self, Self::Error> {
                $name::parse(s)
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, concat!(stringify!($name), "(\"{}\")"), self)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Visitor;
                impl serde::de::Visitor<'_> for Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                        f.write_str($what)
                    }
                    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<$name, E> {
                        $name::parse(v)
                            .map_err(|e| E::custom(format_args!("invalid {} {v:?}: {e}", $what)))
                    }
                }
                deserializer.deserialize_str(Visitor)
            }
        }
    };
}

pub(super) use text_form;
