//! Per-address request rate limit: a token bucket per client IP (`rate` tokens a
//! second, up to `burst`); a request without a token gets 429. Behind trusted reverse
//! proxies the client is found in their forwarding headers ([`client_ip`]).

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use ipnet::IpNet;

use crate::error::ApiError;

/// The buckets of every address seen lately.
#[derive(Debug)]
pub struct RateLimiter {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
    trusted: Vec<IpNet>,
}

/// Buckets kept before idle ones are dropped.
const MAX_BUCKETS: usize = 10_000;

impl RateLimiter {
    /// A limiter allowing `rate` requests a second and bursts of `burst`.
    pub fn new(rate: u32, burst: u32) -> Self {
        RateLimiter {
            rate: f64::from(rate),
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
            trusted: Vec::new(),
        }
    }

    /// The same limiter, telling clients apart behind these reverse proxies (see
    /// [`client_ip`]).
    #[must_use]
    pub fn trusting(mut self, proxies: Vec<IpNet>) -> Self {
        self.trusted = proxies;
        self
    }

    /// Takes a token for `ip` at `now`; false when its bucket is empty.
    pub fn allow(&self, ip: IpAddr, now: Instant) -> bool {
        let mut buckets = self
            .buckets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() >= MAX_BUCKETS {
            // A full bucket refilled long ago carries no information.
            let (rate, burst) = (self.rate, self.burst);
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * rate < burst
            });
        }
        let (tokens, at) = buckets.entry(ip).or_insert((self.burst, now));
        let refilled =
            (*tokens + now.duration_since(*at).as_secs_f64() * self.rate).min(self.burst);
        *at = now;
        if refilled >= 1.0 {
            *tokens = refilled - 1.0;
            true
        } else {
            *tokens = refilled;
            false
        }
    }
}

/// The middleware: one bucket per [`client_ip`].
pub(crate) async fn limit(
    State(limiter): State<Arc<RateLimiter>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    let client = client_ip(peer, request.headers(), &limiter.trusted);
    if limiter.allow(client, Instant::now()) {
        next.run(request).await
    } else {
        ApiError::RateLimited.into_response()
    }
}

/// The address of the client behind a request that came from `peer`.
///
/// When `peer` is not in `trusted`, it is the client, whatever the headers say: anyone
/// can write a forwarding header. When it is a trusted proxy, the forwarding chain is
/// walked from the right (the proxy nearest us appends last), skipping addresses that
/// are trusted proxies themselves, and the first untrusted one is the client; a chain
/// of trusted proxies only gives its leftmost address.
///
/// The chain comes from `X-Forwarded-For` (`client, proxy1, proxy2`) and from the
/// standard `Forwarded` header (RFC 7239: `for=192.0.2.60;proto=https, for="[2001:db8::1]:4711"`),
/// each possibly split over several header lines. A proxy appends to one of them and
/// passes the other through from the client, so when both are present they must name
/// the same client; if they disagree (a client wrote one of them), the peer is taken.
/// A value that is not an address (`unknown`, an obfuscated node, garbage) where the walk
/// reaches it also gives the peer. IPv4-mapped IPv6 addresses count as IPv4.
///
/// Never panics, whatever the headers hold.
pub fn client_ip(peer: SocketAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let peer = peer.ip().to_canonical();
    let is_trusted = |ip: IpAddr| trusted.iter().any(|net| net.contains(&ip));
    if !is_trusted(peer) {
        return peer;
    }
    let forwarded_for = header_elements(headers, &header::FORWARDED)
        .map(|elements| walk(elements.iter().map(|e| forwarded_for(e)), &is_trusted));
    let x_forwarded_for = header_elements(headers, "x-forwarded-for")
        .map(|elements| walk(elements.iter().map(|e| parse_node(e)), &is_trusted));
    match (x_forwarded_for, forwarded_for) {
        (Some(Some(a)), Some(Some(b))) if a == b => a,
        (Some(Some(ip)), None) | (None, Some(Some(ip))) => ip,
        _ => peer,
    }
}

/// The comma-separated elements of every line of a header, in order (commas inside
/// quoted strings do not split); `None` when the header is absent.
fn header_elements(headers: &HeaderMap, name: impl header::AsHeaderName) -> Option<Vec<String>> {
    let mut lines = headers.get_all(name).iter().peekable();
    lines.peek()?;
    let mut elements = Vec::new();
    for line in lines {
        // A line that is not visible ASCII cannot be trusted to split right.
        let Ok(line) = line.to_str() else {
            return Some(vec![String::new()]);
        };
        let (mut current, mut quoted, mut escaped) = (String::new(), false, false);
        for c in line.chars() {
            match c {
                _ if escaped => escaped = false,
                '\\' if quoted => escaped = true,
                '"' => quoted = !quoted,
                ',' if !quoted => {
                    elements.push(std::mem::take(&mut current));
                    continue;
                }
                _ => {}
            }
            current.push(c);
        }
        elements.push(current);
    }
    Some(elements)
}

/// Walks a chain from the right: the first address not trusted, or the leftmost if all
/// are; `None` when the walk meets something that is not an address.
fn walk(
    chain: impl DoubleEndedIterator<Item = Option<IpAddr>>,
    is_trusted: &impl Fn(IpAddr) -> bool,
) -> Option<IpAddr> {
    let mut leftmost = None;
    for ip in chain.rev() {
        let ip = ip?.to_canonical();
        if !is_trusted(ip) {
            return Some(ip);
        }
        leftmost = Some(ip);
    }
    leftmost
}

/// The `for=` node of one `Forwarded` element (`for=...;proto=...;by=...`), unquoted.
fn forwarded_for(element: &str) -> Option<IpAddr> {
    let mut node = None;
    for pair in element.split(';') {
        let (name, value) = pair.split_once('=')?;
        if name.trim().eq_ignore_ascii_case("for") {
            if node.is_some() {
                return None;
            }
            let value = value.trim();
            let unquoted = match value.strip_prefix('"') {
                Some(rest) => rest.strip_suffix('"')?.replace('\\', ""),
                None => value.to_owned(),
            };
            node = Some(unquoted);
        }
    }
    parse_node(&node?)
}

/// An address, as forwarding headers write one: `192.0.2.1`, `192.0.2.1:80`,
/// `2001:db8::1`, `[2001:db8::1]` or `[2001:db8::1]:4711`.
fn parse_node(node: &str) -> Option<IpAddr> {
    let node = node.trim();
    if let Ok(ip) = node.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Ok(addr) = node.parse::<SocketAddr>() {
        return Some(addr.ip());
    }
    node.strip_prefix('[')?
        .strip_suffix(']')?
        .parse::<std::net::Ipv6Addr>()
        .ok()
        .map(IpAddr::V6)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_burst_then_the_rate() {
        let limiter = RateLimiter::new(10, 3);
        let ip = IpAddr::from([10, 0, 0, 1]);
        let other = IpAddr::from([10, 0, 0, 2]);
        let t0 = Instant::now();
        assert!((0..3).all(|_| limiter.allow(ip, t0)));
        assert!(!limiter.allow(ip, t0));
        // Another address has its own bucket.
        assert!(limiter.allow(other, t0));
        // A tenth of a second later, one more.
        let t1 = t0 + Duration::from_millis(100);
        assert!(limiter.allow(ip, t1));
        assert!(!limiter.allow(ip, t1));
    }
}

#[cfg(test)]
mod client_ip_tests {
    use super::*;
    use axum::http::HeaderValue;

    fn nets(list: &[&str]) -> Vec<IpNet> {
        list.iter().map(|n| n.parse().unwrap()).collect()
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    const PROXY: &str = "10.0.0.1:40000";

    /// `client_ip` from the trusted proxy 10.0.0.1 (and 10.1.0.0/16 behind it).
    fn via_proxy(pairs: &[(&'static str, &str)]) -> IpAddr {
        client_ip(
            PROXY.parse().unwrap(),
            &headers(pairs),
            &nets(&["10.0.0.1/32", "10.1.0.0/16"]),
        )
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_writes() {
        let peer: SocketAddr = "203.0.113.9:5000".parse().unwrap();
        let spoof = headers(&[
            ("x-forwarded-for", "198.51.100.1"),
            ("forwarded", "for=198.51.100.1"),
        ]);
        assert_eq!(
            client_ip(peer, &spoof, &nets(&["10.0.0.0/8"])),
            ip("203.0.113.9")
        );
        assert_eq!(client_ip(peer, &spoof, &[]), ip("203.0.113.9"));
        // No trusted proxies at all: even loopback's headers are not believed.
        let local: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        assert_eq!(client_ip(local, &spoof, &[]), ip("127.0.0.1"));
    }

    #[test]
    fn x_forwarded_for_is_walked_from_the_right() {
        assert_eq!(via_proxy(&[]), ip("10.0.0.1"));
        assert_eq!(
            via_proxy(&[("x-forwarded-for", "198.51.100.7")]),
            ip("198.51.100.7")
        );
        // The client wrote "1.2.3.4" itself; our proxy appended what it saw.
        assert_eq!(
            via_proxy(&[("x-forwarded-for", "1.2.3.4, 198.51.100.7")]),
            ip("198.51.100.7")
        );
        // Trusted proxies in the chain are skipped.
        assert_eq!(
            via_proxy(&[("x-forwarded-for", "1.2.3.4, 198.51.100.7, 10.1.2.3")]),
            ip("198.51.100.7")
        );
        // Split over several lines, in order.
        assert_eq!(
            via_proxy(&[
                ("x-forwarded-for", "1.2.3.4"),
                ("x-forwarded-for", "198.51.100.7, 10.1.2.3")
            ]),
            ip("198.51.100.7")
        );
        // Ports, brackets, IPv6, IPv4-mapped IPv6.
        assert_eq!(
            via_proxy(&[("x-forwarded-for", "198.51.100.7:8080")]),
            ip("198.51.100.7")
        );
        assert_eq!(
            via_proxy(&[("x-forwarded-for", "2001:db8::1")]),
            ip("2001:db8::1")
        );
        assert_eq!(
            via_proxy(&[("x-forwarded-for", "[2001:db8::1]:443")]),
            ip("2001:db8::1")
        );
        assert_eq!(
            via_proxy(&[("x-forwarded-for", "[2001:db8::1]")]),
            ip("2001:db8::1")
        );
        assert_eq!(
            via_proxy(&[("x-forwarded-for", "::ffff:198.51.100.7")]),
            ip("198.51.100.7")
        );
        // Only proxies: the leftmost.
        assert_eq!(
            via_proxy(&[("x-forwarded-for", "10.1.0.5, 10.1.0.6")]),
            ip("10.1.0.5")
        );
    }

    #[test]
    fn forwarded_is_walked_from_the_right() {
        assert_eq!(
            via_proxy(&[("forwarded", "for=198.51.100.7")]),
            ip("198.51.100.7")
        );
        assert_eq!(
            via_proxy(&[(
                "forwarded",
                "for=1.2.3.4, For=\"[2001:db8::1]:4711\";proto=https;by=10.0.0.1"
            )]),
            ip("2001:db8::1")
        );
        assert_eq!(
            via_proxy(&[
                ("forwarded", "for=198.51.100.7;proto=http"),
                ("forwarded", "for=10.1.9.9")
            ]),
            ip("198.51.100.7")
        );
        assert_eq!(
            via_proxy(&[("forwarded", "for=\"198.51.100.7:80\"")]),
            ip("198.51.100.7")
        );
        // A comma inside a quoted string does not split elements.
        assert_eq!(
            via_proxy(&[("forwarded", "for=198.51.100.7;ext=\"a,b\"")]),
            ip("198.51.100.7")
        );
    }

    #[test]
    fn both_headers_must_agree() {
        let agree = [
            ("x-forwarded-for", "198.51.100.7"),
            ("forwarded", "for=198.51.100.7"),
        ];
        assert_eq!(via_proxy(&agree), ip("198.51.100.7"));
        // A proxy that appends to X-Forwarded-For passes a client's Forwarded through.
        let spoofed = [
            ("x-forwarded-for", "198.51.100.7"),
            ("forwarded", "for=1.2.3.4"),
        ];
        assert_eq!(via_proxy(&spoofed), ip("10.0.0.1"));
    }

    #[test]
    fn malformed_values_give_the_peer() {
        for (name, value) in [
            ("x-forwarded-for", ""),
            ("x-forwarded-for", "unknown"),
            ("x-forwarded-for", "198.51.100.7, nonsense"),
            ("x-forwarded-for", "198.51.100.7,,"),
            ("x-forwarded-for", "[198.51.100.7]"),
            ("x-forwarded-for", "999.1.1.1"),
            ("forwarded", "for=unknown"),
            ("forwarded", "for=_hidden"),
            ("forwarded", "for=\"[2001:db8::1]:4711"),
            ("forwarded", "for=[2001:db8::1]x"),
            ("forwarded", "proto=https"),
            ("forwarded", "for=198.51.100.7;for=1.2.3.4"),
            ("forwarded", "for"),
            ("forwarded", ";;;,,,\"\"\""),
        ] {
            assert_eq!(
                via_proxy(&[(name, value)]),
                ip("10.0.0.1"),
                "{name}: {value}"
            );
        }
        // Not visible ASCII.
        let mut odd = HeaderMap::new();
        odd.insert(
            "x-forwarded-for",
            HeaderValue::from_bytes(b"198.51.100.7\xff").unwrap(),
        );
        let trusted = nets(&["10.0.0.1/32"]);
        assert_eq!(
            client_ip(PROXY.parse().unwrap(), &odd, &trusted),
            ip("10.0.0.1")
        );
        // Malformed entries left of the client are never reached.
        assert_eq!(
            via_proxy(&[("x-forwarded-for", "garbage, 198.51.100.7")]),
            ip("198.51.100.7")
        );
    }

    #[test]
    fn an_ipv4_mapped_peer_is_matched_as_ipv4() {
        let peer: SocketAddr = "[::ffff:10.0.0.1]:40000".parse().unwrap();
        let forwarded = headers(&[("x-forwarded-for", "198.51.100.7")]);
        assert_eq!(
            client_ip(peer, &forwarded, &nets(&["10.0.0.1/32"])),
            ip("198.51.100.7")
        );
    }
}
