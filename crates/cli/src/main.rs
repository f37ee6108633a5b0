//! `hexwar`: play, referee, replay and verify hex-and-counter wargames.
//!
//! Every command that takes a game name (`referee`, `replay`, `verify`, `simulate`)
//! knows the games of [`server::catalog`], the one list the server's lobby offers too,
//! so a record downloaded from the server always replays and verifies here.

#![forbid(unsafe_code)]

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use protocol::Referee;
use server::catalog;

mod odds;
mod scenario;
mod simulate;
mod tune;

/// mimalloc, not the system's allocator: under load the server spends a quarter of its
/// time in glibc's `malloc`/`free` from many threads, and with mimalloc it acknowledges
/// about 1.7× the actions per second (docs/performance.md, "The allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "hexwar",
    version,
    about = "Rules-enforcing engine for hex-and-counter wargames"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Speak the JSON-lines referee protocol on stdin/stdout, for the games the server
    /// offers (see docs/protocol.md).
    Referee,
    /// Re-apply a game record and report the first illegal step, if any.
    Replay {
        /// The record file (JSON).
        file: PathBuf,
    },
    /// Prove that every die roll of a finished game came from its committed seed.
    Verify {
        /// The record file (JSON), with its seed revealed.
        file: PathBuf,
    },
    /// Run the game server and web client (see docs/server.md).
    Serve(Box<ServeArgs>),
    /// Run bot tournaments.
    Simulate(Box<simulate::SimulateArgs>),
    /// Learn the VIKTORY evaluation's weights from self-play (see docs/ai.md).
    Tune(Box<tune::TuneArgs>),
    /// Print exact VIKTORY battle or bombardment odds (see docs/odds.md).
    Odds(Box<odds::OddsArgs>),
    /// Check or render an A Victory Lost scenario file.
    #[command(subcommand)]
    Scenario(scenario::ScenarioCommand),
}

/// `hexwar serve`: every flag can also be set by its environment variable.
#[derive(clap::Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "HEXWAR_LISTEN", default_value = "127.0.0.1:8080")]
    listen: std::net::SocketAddr,
    /// The game database: `sqlite://FILE` (created if missing) or `postgres://...`
    #[arg(long, env = "HEXWAR_DATABASE", default_value = "sqlite://hexwar.db")]
    database: String,
    /// Folder of the web client (default: ./web/app, else the one in the source tree).
    #[arg(long, env = "HEXWAR_WEB")]
    web: Option<PathBuf>,
    /// The address players use to reach this server, for invite links
    /// (default: http:// and the listen address).
    #[arg(long, env = "HEXWAR_PUBLIC_URL")]
    public_url: Option<String>,
    /// Largest request body accepted, in bytes.
    #[arg(long, env = "HEXWAR_MAX_BODY", default_value_t = 64 * 1024)]
    max_body: usize,
    /// Requests per second allowed from one address on average (0: no limit).
    #[arg(long, env = "HEXWAR_RATE", default_value_t = 50)]
    rate: u32,
    /// Requests one address may send in a burst.
    #[arg(long, env = "HEXWAR_BURST", default_value_t = 200)]
    burst: u32,
    /// Longest a bot may think about one decision, in milliseconds.
    #[arg(long, env = "HEXWAR_BOT_BUDGET_MS", default_value_t = 2000)]
    bot_budget_ms: u64,
    /// Pause before each bot decision, in milliseconds, so people can follow.
    #[arg(long, env = "HEXWAR_BOT_DELAY_MS", default_value_t = 0)]
    bot_delay_ms: u64,
    /// Most decisions a bot seat makes in one game turn before it ends every phase it
    /// can (a safety net against a bot going round in circles).
    #[arg(long, env = "HEXWAR_BOT_TURN_DECISIONS", default_value_t = 2000)]
    bot_turn_decisions: u32,
    /// SMTP server for "your move" e-mails (none: e-mail is off).
    #[arg(long, env = "HEXWAR_SMTP_HOST")]
    smtp_host: Option<String>,
    /// SMTP port.
    #[arg(long, env = "HEXWAR_SMTP_PORT", default_value_t = 587)]
    smtp_port: u16,
    /// SMTP user name.
    #[arg(long, env = "HEXWAR_SMTP_USER")]
    smtp_user: Option<String>,
    /// SMTP password (prefer the environment variable).
    #[arg(long, env = "HEXWAR_SMTP_PASSWORD", hide_env_values = true)]
    smtp_password: Option<String>,
    /// The From address of e-mails.
    #[arg(long, env = "HEXWAR_SMTP_FROM", default_value = "hexwar@localhost")]
    smtp_from: String,
    /// Talk to the SMTP server without TLS (a local relay only).
    #[arg(long, env = "HEXWAR_SMTP_PLAIN")]
    smtp_plain: bool,
    /// Write logs as JSON lines (filter with `RUST_LOG`, default info).
    #[arg(long, env = "HEXWAR_LOG_JSON")]
    log_json: bool,
    /// Let webhooks reach loopback, private and link-local addresses (LAN servers
    /// only).
    #[arg(long, env = "HEXWAR_ALLOW_PRIVATE_WEBHOOKS")]
    allow_private_webhooks: bool,
    /// A reverse proxy (address or CIDR network) whose X-Forwarded-For and Forwarded
    /// headers are believed; repeat, or separate with commas.
    #[arg(long, env = "HEXWAR_TRUSTED_PROXY", value_delimiter = ',')]
    trusted_proxy: Vec<ipnet::IpNet>,
    /// Most WebSockets open at once from one client address.
    #[arg(long, env = "HEXWAR_MAX_SOCKETS_PER_ADDRESS", default_value_t = 16)]
    max_sockets_per_address: usize,
    /// Most WebSockets open at once in all.
    #[arg(long, env = "HEXWAR_MAX_SOCKETS", default_value_t = 2000)]
    max_sockets: usize,
}

impl ServeArgs {
    fn config(self) -> server::Config {
        let web = self.web.or_else(|| {
            [
                PathBuf::from("web/app"),
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/app"),
            ]
            .into_iter()
            .find(|d| d.join("index.html").exists())
        });
        server::Config {
            listen: self.listen,
            database: self.database,
            web_dir: web,
            public_url: self.public_url,
            max_body_bytes: self.max_body,
            rate_per_second: self.rate,
            rate_burst: self.burst,
            bot_budget: std::time::Duration::from_millis(self.bot_budget_ms),
            bot_delay: std::time::Duration::from_millis(self.bot_delay_ms),
            bot_turn_decisions: self.bot_turn_decisions,
            smtp: self.smtp_host.map(|host| server::SmtpConfig {
                host,
                port: self.smtp_port,
                credentials: self.smtp_user.zip(self.smtp_password),
                from: self.smtp_from,
                plain: self.smtp_plain,
            }),
            allow_private_webhooks: self.allow_private_webhooks,
            trusted_proxies: self.trusted_proxy,
            max_sockets_per_address: self.max_sockets_per_address,
            max_sockets: self.max_sockets,
        }
    }
}

fn serve(args: ServeArgs) -> ExitCode {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    if args.log_json {
        tracing_subscriber::fmt()
            .json()
            .with_env_filter(filter)
            .init();
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).init();
    }
    let database = args.database.clone();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("hexwar serve: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let running = match server::start(args.config()).await {
            Ok(r) => r,
            Err(e) => {
                eprintln!("hexwar serve: {e}");
                return ExitCode::FAILURE;
            }
        };
        println!(
            "hexwar is serving at http://{} (database {database}); stop with Ctrl-C",
            running.addr
        );
        let _ = io::stdout().flush();
        shutdown_signal().await;
        eprintln!("hexwar serve: shutting down, finishing requests in flight");
        match running.stop().await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("hexwar serve: {e}");
                ExitCode::FAILURE
            }
        }
    })
}

/// Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let Ok(mut term) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        else {
            let _ = ctrl_c.await;
            return;
        };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Referee => referee(),
        Command::Replay { file } => check_record(&file, false),
        Command::Verify { file } => check_record(&file, true),
        Command::Serve(args) => serve(*args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::Odds(args) => odds::run(&args),
        Command::Scenario(command) => scenario::run(command),
    }
}

fn referee() -> ExitCode {
    // Bad input (not UTF-8, over-long lines, not JSON) gets an error reply and the loop
    // goes on; only a failure to read stdin itself ends it.
    let mut referee = Referee::new(catalog());
    match referee.serve(io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hexwar referee: cannot read stdin: {e}");
            ExitCode::FAILURE
        }
    }
}

fn check_record(file: &Path, verify: bool) -> ExitCode {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("hexwar: cannot read {}: {e}", file.display());
            return ExitCode::FAILURE;
        }
    };
    let record: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("hexwar: {} is not JSON: {e}", file.display());
            return ExitCode::FAILURE;
        }
    };
    if record.get("kind").and_then(serde_json::Value::as_str) == Some("seat_log") {
        return show_seat_log(file, &record, verify);
    }
    let catalog = catalog();
    let result = catalog.for_record(&record).and_then(|entry| {
        if verify {
            entry.verify(record)
        } else {
            entry.replay(record)
        }
    });
    match result {
        Ok(summary) => {
            let to_move = serde_json::to_string(&summary.to_move).unwrap_or_default();
            match summary.chance_verified {
                Some(n) => println!(
                    "ok: {} actions replayed; all {n} chance outcomes come from the committed seed; to move: {to_move}",
                    summary.actions
                ),
                None => println!(
                    "ok: {} actions replayed, all legal; to move: {to_move}",
                    summary.actions
                ),
            }
            ExitCode::SUCCESS
        }
        Err(reason) => {
            eprintln!("{}: {reason}", file.display());
            ExitCode::FAILURE
        }
    }
}

/// A running game's record as one seat may see it (from the server's record download):
/// printed step by step in words. It cannot be checked step by step, since it lacks
/// what the seat may not see; the full record can once the game is over.
fn show_seat_log(file: &Path, log: &serde_json::Value, verify: bool) -> ExitCode {
    if verify {
        eprintln!(
            "{}: a seat's log of a running game cannot be verified; download the record again once the game is over",
            file.display()
        );
        return ExitCode::FAILURE;
    }
    let Some(steps) = log.get("steps").and_then(serde_json::Value::as_array) else {
        eprintln!("{}: a seat log needs \"steps\"", file.display());
        return ExitCode::FAILURE;
    };
    let seat = log
        .get("seat")
        .and_then(serde_json::Value::as_u64)
        .map_or_else(|| "a spectator".to_owned(), |s| format!("Seat {}", s + 1));
    for step in steps {
        let index = step
            .get("index")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0);
        for text in step
            .get("text")
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(serde_json::Value::as_str)
        {
            println!("{index:>6}  {text}");
        }
    }
    println!(
        "ok: the log of a running game as {seat} sees it, {} steps; it is checked in full once the game is over",
        steps.len()
    );
    ExitCode::SUCCESS
}
