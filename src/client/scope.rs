//! Which IP addresses locate an end user: ruling 29 (docs/RULES.md).
//!
//! `core::net`'s `is_global` is unstable, so the ranges are written here, each
//! with the RFC that reserves it. Documentation ranges (`192.0.2.0/24`,
//! `198.51.100.0/24`, `203.0.113.0/24`, `2001:db8::/32`) are deliberately
//! *not* listed: RFC 7239's own examples use them.

use core::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Why an IP address is not globally routable, so it locates nobody and
/// location screening cannot use it (ruling 29 (docs/RULES.md)).
///
/// IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`) and NAT64 well-known-prefix
/// addresses (`64:ff9b::a.b.c.d`, which RFC 6052 §3.1 forbids for non-global
/// IPv4) are classified by the IPv4 address they carry.
///
/// ```
/// use swaproute::client::NonGlobal;
///
/// assert_eq!(NonGlobal::of("127.0.0.1".parse()?), Some(NonGlobal::Loopback));
/// assert_eq!(NonGlobal::of("::ffff:10.0.0.1".parse()?), Some(NonGlobal::Private));
/// assert_eq!(NonGlobal::of("192.0.2.43".parse()?), None); // documentation range: left alone
/// assert_eq!(NonGlobal::of("8.8.8.8".parse()?), None);
/// # Ok::<(), core::net::AddrParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NonGlobal {
    /// `0.0.0.0/8` ("this network", RFC 1122 §3.2.1.3; `0.0.0.0` is the
    /// unspecified address) and `::` (RFC 4291 §2.5.2).
    Unspecified,
    /// `127.0.0.0/8` (RFC 1122 §3.2.1.3) and `::1` (RFC 4291 §2.5.3).
    Loopback,
    /// `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16` (RFC 1918);
    /// unique-local `fc00::/7` (RFC 4193) and the deprecated site-local
    /// `fec0::/10` (RFC 3879).
    Private,
    /// Carrier-grade NAT space `100.64.0.0/10` (RFC 6598).
    Shared,
    /// `169.254.0.0/16` (RFC 3927) and `fe80::/10` (RFC 4291 §2.5.6).
    LinkLocal,
    /// `224.0.0.0/4` (RFC 5771) and `ff00::/8` (RFC 4291 §2.7).
    Multicast,
    /// The limited broadcast address `255.255.255.255` (RFC 919).
    Broadcast,
    /// Other special-purpose space no end user is at (RFC 6890): IETF protocol
    /// assignments `192.0.0.0/24`, benchmarking `198.18.0.0/15` (RFC 2544),
    /// `240.0.0.0/4` reserved for future use (RFC 1112 §4), the discard-only
    /// `100::/64` (RFC 6666), the local-use NAT64 prefix `64:ff9b:1::/48`
    /// (RFC 8215) and the deprecated IPv4-compatible `::/96` (RFC 4291 §2.5.5.1).
    Reserved,
}

impl NonGlobal {
    /// Why `addr` is not globally routable, or `None` when it is (documentation
    /// ranges count as routable).
    pub fn of(addr: IpAddr) -> Option<NonGlobal> {
        match addr {
            IpAddr::V4(v4) => Self::of_v4(v4),
            IpAddr::V6(v6) => Self::of_v6(v6),
        }
    }

    /// [`NonGlobal::of`] for IPv4.
    pub fn of_v4(addr: Ipv4Addr) -> Option<NonGlobal> {
        let [a, b, c, _] = addr.octets();
        if addr == Ipv4Addr::BROADCAST {
            Some(NonGlobal::Broadcast)
        } else if a == 0 {
            Some(NonGlobal::Unspecified)
        } else if a == 127 {
            Some(NonGlobal::Loopback)
        } else if a == 10 || (a == 172 && b & 0xf0 == 16) || (a == 192 && b == 168) {
            Some(NonGlobal::Private)
        } else if a == 100 && b & 0xc0 == 64 {
            Some(NonGlobal::Shared)
        } else if a == 169 && b == 254 {
            Some(NonGlobal::LinkLocal)
        } else if a & 0xf0 == 224 {
            Some(NonGlobal::Multicast)
        } else if a & 0xf0 == 240 || (a == 192 && b == 0 && c == 0) || (a == 198 && b & 0xfe == 18)
        {
            Some(NonGlobal::Reserved)
        } else {
            None
        }
    }

    /// [`NonGlobal::of`] for IPv6.
    pub fn of_v6(addr: Ipv6Addr) -> Option<NonGlobal> {
        if let Some(v4) = addr.to_ipv4_mapped() {
            return Self::of_v4(v4);
        }
        let [s0, s1, s2, s3, s4, s5, _, _] = addr.segments();
        if addr == Ipv6Addr::UNSPECIFIED {
            Some(NonGlobal::Unspecified)
        } else if addr == Ipv6Addr::LOCALHOST {
            Some(NonGlobal::Loopback)
        } else if s0 == 0x64 && s1 == 0xff9b && s2 == 0 && s3 == 0 && s4 == 0 && s5 == 0 {
            // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052): the IPv4 it carries.
            let [.., a, b, c, d] = addr.octets();
            let v4 = Ipv4Addr::new(a, b, c, d);
            Self::of_v4(v4)
        } else if s0 & 0xfe00 == 0xfc00 || s0 & 0xffc0 == 0xfec0 {
            Some(NonGlobal::Private)
        } else if s0 & 0xffc0 == 0xfe80 {
            Some(NonGlobal::LinkLocal)
        } else if s0 & 0xff00 == 0xff00 {
            Some(NonGlobal::Multicast)
        } else if (s0 == 0x64 && s1 == 0xff9b && s2 == 1)
            || (s0 == 0x100 && s1 == 0 && s2 == 0 && s3 == 0)
            || (s0 == 0 && s1 == 0 && s2 == 0 && s3 == 0 && s4 == 0 && s5 == 0)
        {
            Some(NonGlobal::Reserved)
        } else {
            None
        }
    }

    /// The stable code of the range, e.g. `"LINK_LOCAL"`.
    pub const fn code(self) -> &'static str {
        match self {
            NonGlobal::Unspecified => "UNSPECIFIED",
            NonGlobal::Loopback => "LOOPBACK",
            NonGlobal::Private => "PRIVATE",
            NonGlobal::Shared => "SHARED",
            NonGlobal::LinkLocal => "LINK_LOCAL",
            NonGlobal::Multicast => "MULTICAST",
            NonGlobal::Broadcast => "BROADCAST",
            NonGlobal::Reserved => "RESERVED",
        }
    }
}

crate::text::str_enum!(
    NonGlobal,
    /// A short name of the range, e.g. `"loopback"`.
    {
        Unspecified => "unspecified",
        Loopback => "loopback",
        Private => "private",
        Shared => "shared (carrier-grade NAT)",
        LinkLocal => "link-local",
        Multicast => "multicast",
        Broadcast => "broadcast",
        Reserved => "reserved",
    }
);

#[cfg(test)]
mod tests {
    use super::NonGlobal::{self, *};
    use core::net::{IpAddr, Ipv4Addr, Ipv6Addr};

    /// Every IPv4 range, as (network, prefix length, expected), from the RFCs
    /// cited on [`NonGlobal`].
    const V4: [(&str, u32, NonGlobal); 14] = [
        ("0.0.0.0", 8, Unspecified),
        ("10.0.0.0", 8, Private),
        ("100.64.0.0", 10, Shared),
        ("127.0.0.0", 8, Loopback),
        ("169.254.0.0", 16, LinkLocal),
        ("172.16.0.0", 12, Private),
        ("192.0.0.0", 24, Reserved),
        ("192.168.0.0", 16, Private),
        ("198.18.0.0", 15, Reserved),
        ("224.0.0.0", 4, Multicast),
        ("240.0.0.0", 5, Reserved),
        ("248.0.0.0", 6, Reserved),
        ("252.0.0.0", 7, Reserved),
        ("255.255.255.255", 32, Broadcast),
    ];

    fn v4(n: u32) -> IpAddr {
        IpAddr::V4(Ipv4Addr::from(n))
    }

    #[test]
    fn every_ipv4_range_first_last_and_mapped() {
        for (net, len, scope) in V4 {
            let first = u32::from(net.parse::<Ipv4Addr>().unwrap());
            let last = first | u32::MAX.checked_shr(len).unwrap_or(0);
            for n in [first, first + (last - first) / 2, last] {
                assert_eq!(NonGlobal::of(v4(n)), Some(scope), "{}", v4(n));
                // The IPv4-mapped and NAT64 forms are classified the same.
                let mapped = Ipv4Addr::from(n).to_ipv6_mapped();
                assert_eq!(NonGlobal::of(IpAddr::V6(mapped)), Some(scope), "{mapped}");
                let [a, b, c, d] = Ipv4Addr::from(n).octets();
                let nat64 = Ipv6Addr::new(
                    0x64,
                    0xff9b,
                    0,
                    0,
                    0,
                    0,
                    u16::from_be_bytes([a, b]),
                    u16::from_be_bytes([c, d]),
                );
                assert_eq!(NonGlobal::of(IpAddr::V6(nat64)), Some(scope), "{nat64}");
            }
        }
        // Just outside the ranges whose neighbours are global.
        for outside in [
            "1.0.0.0",
            "9.255.255.255",
            "11.0.0.0",
            "100.63.255.255",
            "100.128.0.0",
            "126.255.255.255",
            "128.0.0.0",
            "169.253.255.255",
            "169.255.0.0",
            "172.15.255.255",
            "172.32.0.0",
            "191.255.255.255",
            "192.0.1.0",
            "192.167.255.255",
            "192.169.0.0",
            "198.17.255.255",
            "198.20.0.0",
            "223.255.255.255",
        ] {
            let addr: IpAddr = outside.parse().unwrap();
            assert_eq!(NonGlobal::of(addr), None, "{outside}");
        }
    }

    #[test]
    fn documentation_ranges_are_left_alone() {
        for addr in [
            "192.0.2.0",
            "192.0.2.255",
            "198.51.100.0",
            "198.51.100.255",
            "203.0.113.0",
            "203.0.113.255",
            "2001:db8::",
            "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
            "::ffff:192.0.2.43",
        ] {
            assert_eq!(NonGlobal::of(addr.parse().unwrap()), None, "{addr}");
        }
    }

    /// Every IPv6 range, as (network, prefix length, expected).
    const V6: [(&str, u32, NonGlobal); 11] = [
        ("::", 128, Unspecified),
        ("::1", 128, Loopback),
        ("::2", 127, Reserved), // IPv4-compatible ::/96 beyond :: and ::1
        ("::4", 126, Reserved),
        ("::8000:0", 97, Reserved), // up to ::ffff:ffff
        ("64:ff9b:1::", 48, Reserved),
        ("100::", 64, Reserved),
        ("fc00::", 7, Private),
        ("fe80::", 10, LinkLocal),
        ("fec0::", 10, Private),
        ("ff00::", 8, Multicast),
    ];

    #[test]
    fn every_ipv6_range_first_and_last() {
        for (net, len, scope) in V6 {
            let first = u128::from(net.parse::<Ipv6Addr>().unwrap());
            let last = first | u128::MAX.checked_shr(len).unwrap_or(0);
            for n in [first, last] {
                let addr = IpAddr::V6(Ipv6Addr::from(n));
                assert_eq!(NonGlobal::of(addr), Some(scope), "{addr}");
            }
        }
        for outside in [
            "::1:0:0",          // just past ::/96
            "::fffe:ffff:ffff", // just before ::ffff:0:0/96 (mapped)
            "::1:0:0:0",
            "64:ff9b:2::",
            "64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff",
            "100:0:0:1::",
            "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
            "fe00::",
            "fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
            "2001:4860:4860::8888",
            "2606:4700:4700::1111",
            "64:ff9b::808:808", // NAT64 of 8.8.8.8
        ] {
            let addr: IpAddr = outside.parse().unwrap();
            assert_eq!(NonGlobal::of(addr), None, "{outside}");
        }
    }
}
