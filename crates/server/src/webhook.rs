//! Webhook destinations that cannot be turned against the server's own network.
//!
//! A player chooses a seat's webhook URL, and the server POSTs to it. Left alone, that
//! is a blind server-side request forgery: a player could make the server reach
//! `http://127.0.0.1:…`, the LAN, or a cloud metadata service at `169.254.169.254`.
//! So a webhook may reach only public internet addresses (unless the operator passed
//! `--allow-private-webhooks`), and this is checked twice:
//!
//! - when the URL is set ([`check_url`] for its form, [`check_destination`] for where
//!   its host resolves now), so the player hears why it is refused;
//! - when the notification is sent ([`WebhookClient::post_json`]), after the DNS lookup
//!   the connection itself uses ([`PublicResolver`]), since a name may resolve
//!   elsewhere later (DNS rebinding). An IP literal never reaches a resolver, so it is
//!   checked directly.
//!
//! Redirects are never followed (a public host could redirect to a private one), no
//! proxy from the environment is used (the proxy, not the destination, would be
//! resolved), and every connection resolves afresh (no pool of idle connections).
//! Errors never carry the URL's path or query, which may hold the receiver's secret.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use reqwest::Url;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::redirect;
use serde_json::Value;

/// Longest accepted webhook URL, in bytes.
pub const MAX_URL_LEN: usize = 2000;
/// Longest wait to open a connection to a webhook.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// Longest a whole webhook delivery may take.
pub const TOTAL_TIMEOUT: Duration = Duration::from_secs(5);
/// Longest wait for the DNS lookup when a webhook is set.
pub const RESOLVE_TIMEOUT: Duration = Duration::from_secs(3);

/// Why an address is not on the public internet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NonPublic {
    /// `0.0.0.0/8`, `::`: "this host" (connecting to it reaches the server itself).
    Unspecified,
    /// `127.0.0.0/8`, `::1`.
    Loopback,
    /// RFC 1918 (`10/8`, `172.16/12`, `192.168/16`), unique local `fc00::/7`,
    /// site-local `fec0::/10`, local-use NAT64 `64:ff9b:1::/48`.
    Private,
    /// `169.254.0.0/16` (cloud metadata services live here), `fe80::/10`.
    LinkLocal,
    /// Carrier-grade NAT, `100.64.0.0/10`.
    Shared,
    /// Network benchmarking, `198.18.0.0/15`.
    Benchmarking,
    /// Documentation ranges: `192.0.2/24`, `198.51.100/24`, `203.0.113/24`,
    /// `2001:db8::/32`, `3fff::/20`.
    Documentation,
    /// `224.0.0.0/4`, `ff00::/8`.
    Multicast,
    /// `255.255.255.255`.
    Broadcast,
    /// Reserved or special-purpose: `240/4`, `192.0.0/24`, `192.88.99/24`, IPv4-compatible
    /// IPv6, Teredo and the other IETF assignments in `2001::/23`, `100::/64`, and every
    /// IPv6 address outside global unicast `2000::/3`.
    Reserved,
}

impl NonPublic {
    /// Whether `--allow-private-webhooks` lets webhooks reach this kind of address:
    /// loopback, private, link-local, shared and benchmarking addresses are found on
    /// LANs; the others are never a web server.
    pub fn lan(self) -> bool {
        matches!(
            self,
            NonPublic::Loopback
                | NonPublic::Private
                | NonPublic::LinkLocal
                | NonPublic::Shared
                | NonPublic::Benchmarking
        )
    }

    /// The kind in words, after "is".
    pub fn describe(self) -> &'static str {
        match self {
            NonPublic::Unspecified => "unspecified (this host)",
            NonPublic::Loopback => "loopback",
            NonPublic::Private => "private",
            NonPublic::LinkLocal => "link-local",
            NonPublic::Shared => "in the carrier-grade NAT range",
            NonPublic::Benchmarking => "in the benchmarking range",
            NonPublic::Documentation => "in a documentation range",
            NonPublic::Multicast => "multicast",
            NonPublic::Broadcast => "broadcast",
            NonPublic::Reserved => "reserved",
        }
    }
}

impl fmt::Display for NonPublic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// Why an address is not on the public internet, or `None` when it is.
/// IPv6 forms that embed an IPv4 address (mapped `::ffff:a.b.c.d`, compatible
/// `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:aabb:ccdd::`) are judged by the
/// IPv4 address they lead to.
pub fn classify(ip: IpAddr) -> Option<NonPublic> {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

fn classify_v4(ip: Ipv4Addr) -> Option<NonPublic> {
    let [a, b, c, _] = ip.octets();
    let kind = match (a, b, c) {
        _ if ip.is_broadcast() => NonPublic::Broadcast,
        (0, ..) => NonPublic::Unspecified,
        (10, ..) | (192, 168, _) => NonPublic::Private,
        (172, b, _) if b & 0xf0 == 16 => NonPublic::Private,
        (100, b, _) if b & 0xc0 == 64 => NonPublic::Shared,
        (127, ..) => NonPublic::Loopback,
        (169, 254, _) => NonPublic::LinkLocal,
        (192, 0, 0) | (192, 88, 99) | (240..=255, ..) => NonPublic::Reserved,
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => NonPublic::Documentation,
        (198, b, _) if b & 0xfe == 18 => NonPublic::Benchmarking,
        (224..=239, ..) => NonPublic::Multicast,
        _ => return None,
    };
    Some(kind)
}

fn classify_v6(ip: Ipv6Addr) -> Option<NonPublic> {
    if ip.is_unspecified() {
        return Some(NonPublic::Unspecified);
    }
    if ip.is_loopback() {
        return Some(NonPublic::Loopback);
    }
    if let Some(v4) = ip.to_ipv4_mapped() {
        return classify_v4(v4);
    }
    let s = ip.segments();
    let low_v4 = || Ipv4Addr::from(u32::from(s[6]) << 16 | u32::from(s[7]));
    let kind = match s {
        // IPv4-compatible (deprecated): never routed as such.
        [0, 0, 0, 0, 0, 0, ..] => return classify_v4(low_v4()).or(Some(NonPublic::Reserved)),
        // NAT64: a translator forwards it to the IPv4 address inside.
        [0x64, 0xff9b, 0, 0, 0, 0, ..] => return classify_v4(low_v4()),
        [0x64, 0xff9b, 1, ..] => NonPublic::Private,
        // 6to4: a relay forwards it to the IPv4 address inside.
        [0x2002, hi, lo, ..] => {
            return classify_v4(Ipv4Addr::from(u32::from(hi) << 16 | u32::from(lo)));
        }
        [0x2001, 0xdb8, ..] => NonPublic::Documentation,
        [0x3fff, b, ..] if b < 0x1000 => NonPublic::Documentation,
        [0x2001, b, ..] if b < 0x200 => NonPublic::Reserved,
        [a, ..] if a & 0xfe00 == 0xfc00 => NonPublic::Private,
        [a, ..] if a & 0xffc0 == 0xfe80 => NonPublic::LinkLocal,
        [a, ..] if a & 0xffc0 == 0xfec0 => NonPublic::Private,
        [a, ..] if a & 0xff00 == 0xff00 => NonPublic::Multicast,
        [a, ..] if a & 0xe000 != 0x2000 => NonPublic::Reserved,
        _ => return None,
    };
    Some(kind)
}

/// Why `ip` may not be a webhook's destination under this setting, or `None` when it may.
pub fn refused(ip: IpAddr, allow_private: bool) -> Option<NonPublic> {
    classify(ip).filter(|kind| !(allow_private && kind.lan()))
}

/// Why a webhook is refused or could not be delivered. The messages never contain the
/// URL's path or query.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WebhookError {
    /// The URL is not an acceptable webhook URL.
    #[error("{0}")]
    Malformed(&'static str),
    /// The destination is not on the public internet.
    #[error("{}", not_public(host, *addr, *kind))]
    NotPublic {
        /// The URL's host, as written (normalised by the URL parser).
        host: String,
        /// The address it is or resolves to (`None`: a name that is local by itself,
        /// such as `localhost`).
        addr: Option<IpAddr>,
        /// Why that is not public.
        kind: NonPublic,
    },
    /// The host name did not resolve.
    #[error("the webhook's host {host} cannot be resolved: {reason}")]
    Unresolved {
        /// The host name.
        host: String,
        /// Why.
        reason: String,
    },
    /// The request failed (connection, timeout, TLS...).
    #[error("the webhook request failed: {0}")]
    Request(String),
    /// The receiver answered with a redirect, which is not followed.
    #[error("the webhook answered {0} (a redirect, not followed)")]
    Redirected(u16),
    /// The receiver answered with an error status.
    #[error("the webhook answered {0}")]
    Status(u16),
}

fn not_public(host: &str, addr: Option<IpAddr>, kind: NonPublic) -> String {
    let lead = "webhooks may only reach public internet addresses";
    match addr {
        None => format!("{lead}; {host} is a {kind} name"),
        Some(addr) if literal_ip(host) == Some(addr) => {
            format!("{lead}; {addr} is {kind}")
        }
        Some(addr) => format!("{lead}; {host} resolves to {addr}, which is {kind}"),
    }
}

/// Checks a webhook URL's form, without looking its host up: `http` or `https`, at most
/// [`MAX_URL_LEN`] bytes, no control characters (U+0000 included), no user name or
/// password, a host. Returns the parsed URL, which is what is sent to.
pub fn check_url(url: &str) -> Result<Url, WebhookError> {
    const FORM: &str = "a webhook is an http:// or https:// URL of at most 2,000 characters";
    if url.len() > MAX_URL_LEN {
        return Err(WebhookError::Malformed(FORM));
    }
    if url.chars().any(char::is_control) {
        return Err(WebhookError::Malformed(
            "a webhook URL may not contain control characters",
        ));
    }
    let parsed = Url::parse(url).map_err(|_| WebhookError::Malformed(FORM))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(WebhookError::Malformed(FORM));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(WebhookError::Malformed(
            "a webhook URL may not carry a user name or password (user:pass@host)",
        ));
    }
    match parsed.host_str() {
        Some(host) if !host.is_empty() => Ok(parsed),
        _ => Err(WebhookError::Malformed("a webhook URL needs a host")),
    }
}

/// The URL's host when it is an IP address (IPv6 without its brackets).
fn literal_ip(host: &str) -> Option<IpAddr> {
    host.strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host)
        .parse()
        .ok()
}

/// `localhost` and `*.localhost` are loopback whatever DNS says (RFC 6761).
fn local_name(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host == "localhost" || host.ends_with(".localhost")
}

/// Refuses `host` by its form alone: a non-public IP literal, or a local name.
/// `Ok(Some(ip))` for an acceptable IP literal, `Ok(None)` for a name to resolve.
fn check_host(host: &str, allow_private: bool) -> Result<Option<IpAddr>, WebhookError> {
    if let Some(ip) = literal_ip(host) {
        return match refused(ip, allow_private) {
            Some(kind) => Err(WebhookError::NotPublic {
                host: host.to_owned(),
                addr: Some(ip),
                kind,
            }),
            None => Ok(Some(ip)),
        };
    }
    if !allow_private && local_name(host) {
        return Err(WebhookError::NotPublic {
            host: host.to_owned(),
            addr: None,
            kind: NonPublic::Loopback,
        });
    }
    Ok(None)
}

/// The addresses a connection to `host` may use: those of `addrs` that are public
/// (or LAN addresses, with `allow_private`). Refused when none is left.
pub fn public_addrs(
    host: &str,
    addrs: impl IntoIterator<Item = SocketAddr>,
    allow_private: bool,
) -> Result<Vec<SocketAddr>, WebhookError> {
    let mut first_refusal = None;
    let mut kept = Vec::new();
    for addr in addrs {
        match refused(addr.ip(), allow_private) {
            None => kept.push(addr),
            Some(kind) => {
                first_refusal.get_or_insert(WebhookError::NotPublic {
                    host: host.to_owned(),
                    addr: Some(addr.ip()),
                    kind,
                });
            }
        }
    }
    match (kept.is_empty(), first_refusal) {
        (false, _) => Ok(kept),
        (true, Some(refusal)) => Err(refusal),
        (true, None) => Err(WebhookError::Unresolved {
            host: host.to_owned(),
            reason: "no addresses".into(),
        }),
    }
}

/// Checks a webhook URL when a player sets it: its form ([`check_url`]), and that its
/// host is, or resolves now to, public internet addresses only (any address, with
/// `allow_private`, that is loopback, private, link-local, shared or benchmarking).
/// A name that does not resolve within [`RESOLVE_TIMEOUT`] is refused too.
pub async fn check_destination(url: &str, allow_private: bool) -> Result<(), WebhookError> {
    let parsed = check_url(url)?;
    let host = parsed.host_str().unwrap_or_default();
    if check_host(host, allow_private)?.is_some() {
        return Ok(());
    }
    let port = parsed.port_or_known_default().unwrap_or(80);
    let unresolved = |reason: String| WebhookError::Unresolved {
        host: host.to_owned(),
        reason,
    };
    let found: Vec<SocketAddr> =
        match tokio::time::timeout(RESOLVE_TIMEOUT, tokio::net::lookup_host((host, port))).await {
            Ok(Ok(addrs)) => addrs.collect(),
            Ok(Err(e)) => return Err(unresolved(e.to_string())),
            Err(_) => return Err(unresolved("the lookup timed out".into())),
        };
    // Every address must pass: any of them may be the one a connection uses.
    for addr in &found {
        public_addrs(host, [*addr], allow_private)?;
    }
    public_addrs(host, found, allow_private).map(drop)
}

/// The DNS resolver of webhook deliveries: it resolves with the system's resolver, then
/// drops every address a webhook may not reach, so the connection checks the address it
/// actually connects to, whatever the name resolved to when it was set.
#[derive(Clone, Copy, Debug)]
pub struct PublicResolver {
    allow_private: bool,
}

impl PublicResolver {
    /// A resolver that keeps public addresses only, or LAN ones too with
    /// `allow_private`.
    pub fn new(allow_private: bool) -> Self {
        PublicResolver { allow_private }
    }
}

impl Resolve for PublicResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        let host = name.as_str().to_owned();
        Box::pin(async move {
            check_host(&host, allow_private)?;
            let found = tokio::net::lookup_host((host.as_str(), 0)).await?;
            let kept = public_addrs(&host, found, allow_private)?;
            Ok(Box::new(kept.into_iter()) as Addrs)
        })
    }
}

/// The HTTP client of webhook deliveries: no redirects, no proxies, no idle
/// connections, [`CONNECT_TIMEOUT`] and [`TOTAL_TIMEOUT`], and a [`PublicResolver`].
#[derive(Clone, Debug)]
pub struct WebhookClient {
    http: reqwest::Client,
    allow_private: bool,
}

impl WebhookClient {
    /// A new client; prefer [`WebhookClient::shared`].
    pub fn new(allow_private: bool) -> Result<Self, WebhookError> {
        let http = reqwest::Client::builder()
            .redirect(redirect::Policy::none())
            .no_proxy()
            .connect_timeout(CONNECT_TIMEOUT)
            .timeout(TOTAL_TIMEOUT)
            // Every delivery resolves and connects afresh: a kept connection would skip
            // the resolver's check, and a pooled connection would be tied to the
            // runtime that opened it.
            .pool_max_idle_per_host(0)
            .dns_resolver(Arc::new(PublicResolver::new(allow_private)))
            .user_agent(concat!("hexwar/", env!("CARGO_PKG_VERSION"), " (webhook)"))
            .build()
            .map_err(|e| WebhookError::Request(error_chain(&e.without_url())))?;
        Ok(WebhookClient {
            http,
            allow_private,
        })
    }

    /// The process's client for this setting, built once.
    pub fn shared(allow_private: bool) -> Result<&'static WebhookClient, WebhookError> {
        static PUBLIC: OnceLock<Result<WebhookClient, WebhookError>> = OnceLock::new();
        static LAN: OnceLock<Result<WebhookClient, WebhookError>> = OnceLock::new();
        let cell = if allow_private { &LAN } else { &PUBLIC };
        cell.get_or_init(|| WebhookClient::new(allow_private))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// POSTs `body` as JSON to `url`, checking the URL ([`check_url`]) and its
    /// destination again: an IP literal here, a name's addresses in the resolver.
    /// A redirect is not followed and counts as a failure, as does any status that is
    /// not 2xx.
    pub async fn post_json(&self, url: &str, body: &Value) -> Result<(), WebhookError> {
        let parsed = check_url(url)?;
        check_host(parsed.host_str().unwrap_or_default(), self.allow_private)?;
        let response = self
            .http
            .post(parsed)
            .json(body)
            .send()
            .await
            .map_err(|e| WebhookError::Request(error_chain(&e.without_url())))?;
        let status = response.status();
        if status.is_redirection() {
            Err(WebhookError::Redirected(status.as_u16()))
        } else if status.is_success() {
            Ok(())
        } else {
            Err(WebhookError::Status(status.as_u16()))
        }
    }
}

/// An error and its causes, for the log ("error sending request: dns error: …").
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let more = cause.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = cause.source();
    }
    text
}

/// The host of a webhook URL, for logs (never the whole URL, whose path or query may
/// hold a secret).
pub fn host_of(url: &str) -> String {
    Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_else(|| "(not a URL)".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(ip: &str) -> Option<NonPublic> {
        classify(ip.parse().unwrap())
    }

    #[test]
    fn public_addresses_pass() {
        for ip in [
            "93.184.215.14",
            "8.8.8.8",
            "1.1.1.1",
            "100.63.255.255",
            "100.128.0.0",
            "172.15.255.255",
            "172.32.0.0",
            "198.17.255.255",
            "198.20.0.0",
            "223.255.255.255",
            "2606:4700:4700::1111",
            "2a00:1450:4001:82b::200e",
            "64:ff9b::808:808",
            "2002:808:808::1",
            "::ffff:8.8.8.8",
        ] {
            assert_eq!(kind(ip), None, "{ip}");
        }
    }

    #[test]
    fn non_public_addresses_are_named() {
        use NonPublic as N;
        for (ip, expected) in [
            ("0.0.0.0", N::Unspecified),
            ("0.1.2.3", N::Unspecified),
            ("127.0.0.1", N::Loopback),
            ("127.255.0.9", N::Loopback),
            ("10.0.0.5", N::Private),
            ("172.16.0.1", N::Private),
            ("172.31.255.255", N::Private),
            ("192.168.1.1", N::Private),
            ("169.254.169.254", N::LinkLocal),
            ("100.64.0.1", N::Shared),
            ("100.127.255.255", N::Shared),
            ("198.18.0.1", N::Benchmarking),
            ("198.19.255.255", N::Benchmarking),
            ("192.0.2.1", N::Documentation),
            ("198.51.100.7", N::Documentation),
            ("203.0.113.9", N::Documentation),
            ("192.0.0.8", N::Reserved),
            ("192.88.99.1", N::Reserved),
            ("224.0.0.1", N::Multicast),
            ("239.255.255.250", N::Multicast),
            ("240.0.0.1", N::Reserved),
            ("255.255.255.255", N::Broadcast),
            ("::", N::Unspecified),
            ("::1", N::Loopback),
            ("::ffff:127.0.0.1", N::Loopback),
            ("::ffff:10.1.2.3", N::Private),
            ("::ffff:169.254.169.254", N::LinkLocal),
            ("::127.0.0.1", N::Loopback),
            ("::8.8.8.8", N::Reserved),
            ("64:ff9b::7f00:1", N::Loopback),
            ("64:ff9b::a9fe:a9fe", N::LinkLocal),
            ("64:ff9b:1::1", N::Private),
            ("2002:7f00:1::", N::Loopback),
            ("2002:a00:1::", N::Private),
            ("2001::1", N::Reserved),
            ("2001:db8::1", N::Documentation),
            ("3fff::1", N::Documentation),
            ("fc00::1", N::Private),
            ("fd12:3456::1", N::Private),
            ("fe80::1", N::LinkLocal),
            ("febf::1", N::LinkLocal),
            ("fec0::1", N::Private),
            ("ff02::1", N::Multicast),
            ("100::1", N::Reserved),
            ("5f00::1", N::Reserved),
            ("4000::1", N::Reserved),
        ] {
            assert_eq!(kind(ip), Some(expected), "{ip}");
        }
    }

    #[test]
    fn the_lan_setting_opens_lan_ranges_only() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        for lan in ["127.0.0.1", "10.0.0.5", "169.254.169.254", "fd00::1", "::1"] {
            assert!(refused(ip(lan), false).is_some(), "{lan}");
            assert_eq!(refused(ip(lan), true), None, "{lan}");
        }
        for never in ["0.0.0.0", "::", "224.0.0.1", "255.255.255.255", "192.0.2.1"] {
            assert!(refused(ip(never), true).is_some(), "{never}");
        }
    }

    #[test]
    fn url_forms() {
        for ok in [
            "http://example.org/hook",
            "https://example.org:8443/a?b=c",
            "HTTPS://EXAMPLE.ORG/",
        ] {
            assert!(check_url(ok).is_ok(), "{ok}");
        }
        for bad in [
            "ftp://example.org/",
            "file:///etc/passwd",
            "gopher://example.org/",
            "http://user:pass@example.org/",
            "http://user@example.org/",
            "http://example.org/\u{0}",
            "http://exa\u{0}mple.org/",
            "http://example.org/\r\nHost: evil",
            "http://example.org/\u{7f}",
            "http://example.org/\u{85}",
            "http:///",
            "not a url",
            "",
        ] {
            assert!(check_url(bad).is_err(), "{bad:?}");
        }
        let long = format!("http://example.org/{}", "a".repeat(MAX_URL_LEN));
        assert!(check_url(&long).is_err());
    }

    #[test]
    fn messages_name_the_host_not_the_path() {
        let e = check_host("10.0.0.5", false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "webhooks may only reach public internet addresses; 10.0.0.5 is private"
        );
        let e = check_host("[::1]", false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "webhooks may only reach public internet addresses; ::1 is loopback"
        );
        let e =
            public_addrs("hooks.example", ["10.1.1.1:443".parse().unwrap()], false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "webhooks may only reach public internet addresses; hooks.example resolves to 10.1.1.1, which is private"
        );
        assert_eq!(host_of("https://h.example/secret?token=x"), "h.example");
    }
}
