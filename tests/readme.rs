//! The README's examples and docs/GUIDE.md's, run as doctests by `cargo test` at the root (this
//! package, `swaproute-tests`, has the dependencies they use; the
//! `swaproute` package itself has no dev-dependencies).
//!
//! `no_std`, so that `cargo build --no-default-features --target
//! thumbv7em-none-eabihf` at the root (which builds every default member)
//! still builds.
#![no_std]
#![forbid(unsafe_code)]

/// The README's examples.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The guide's examples (docs/GUIDE.md: the README's longer sections).
#[cfg(doctest)]
#[doc = include_str!("../docs/GUIDE.md")]
pub struct GuideDoctests;
