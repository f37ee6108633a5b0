//! The server's settings. `hexwar serve` fills them from flags and `HEXWAR_*`
//! environment variables; tests build them directly.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// How to reach an SMTP server for "your move" e-mails.
#[derive(Clone, Debug)]
pub struct SmtpConfig {
    /// Host name; the connection uses STARTTLS unless `plain` is set.
    pub host: String,
    /// Port (587 for STARTTLS, 25 or a test server's for plain).
    pub port: u16,
    /// User name and password, when the server wants them.
    pub credentials: Option<(String, String)>,
    /// The From address.
    pub from: String,
    /// Send without TLS (local relays and test servers only).
    pub plain: bool,
}

/// Everything `hexwar serve` can be told.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub listen: SocketAddr,
    /// `sqlite://PATH` or `postgres://...`.
    pub database: String,
    /// The web client's files, served at `/`; `None` when there are none.
    pub web_dir: Option<PathBuf>,
    /// The address players use to reach the server, for invite links
    /// (default: `http://` + `listen`).
    pub public_url: Option<String>,
    /// Largest request body accepted, bytes.
    pub max_body_bytes: usize,
    /// Requests per second allowed from one address, on average (0: no limit).
    pub rate_per_second: u32,
    /// Requests one address may send in a burst.
    pub rate_burst: u32,
    /// Longest a bot may think about one decision.
    pub bot_budget: Duration,
    /// Pause before each bot decision, so people can watch (0 in tests).
    pub bot_delay: Duration,
    /// Most decisions a bot seat makes in one game turn on its own judgement; past
    /// them it ends every phase it can ([`crate::bots`]). A safety net against a bot
    /// that would go round in circles and write to the log for ever. The busiest game
    /// turns measured take a fifth of the default (377 decisions of the `easy` bot in
    /// A Victory Lost's campaign, 206 in an 8-player Expansion game: docs/ai.md).
    pub bot_turn_decisions: u32,
    /// SMTP, for e-mail notifications; `None` turns e-mail off.
    pub smtp: Option<SmtpConfig>,
    /// Let webhooks reach loopback, private and link-local addresses (a LAN server
    /// only: on the open internet this lets players probe the server's network).
    pub allow_private_webhooks: bool,
    /// Reverse proxies whose `X-Forwarded-For` / `Forwarded` headers are believed when
    /// telling clients apart (rate limits, WebSocket caps). Empty: the peer address is
    /// the client.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Most WebSockets open at once from one client address.
    pub max_sockets_per_address: usize,
    /// Most WebSockets open at once in all.
    pub max_sockets: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database: "sqlite://hexwar.db".into(),
            web_dir: None,
            public_url: None,
            max_body_bytes: 64 * 1024,
            rate_per_second: 50,
            rate_burst: 200,
            bot_budget: Duration::from_secs(2),
            bot_delay: Duration::ZERO,
            bot_turn_decisions: 2_000,
            smtp: None,
            allow_private_webhooks: false,
            trusted_proxies: Vec::new(),
            max_sockets_per_address: 16,
            max_sockets: 2000,
        }
    }
}

impl Config {
    /// The base of invite links.
    pub fn base_url(&self) -> String {
        self.public_url
            .clone()
            .unwrap_or_else(|| format!("http://{}", self.listen))
            .trim_end_matches('/')
            .to_owned()
    }
}
