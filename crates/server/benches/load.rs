//! Load benchmark: `cargo bench -p server --bench load`.
//!
//! Starts the server on a fresh SQLite file (WAL, `synchronous=FULL`: every
//! acknowledged action is on disk) and drives it over loopback HTTP with `CLIENTS`
//! concurrent players, each playing its own 2-player classic game (a new one when a
//! game ends): post a legal action chosen from the state the last acknowledgement
//! carried (as the web page does; the state is read with a `GET` only at the start and
//! when the seat to move changes), repeat. Reports acknowledged
//! actions per second and the latency of the acknowledging POST (p50, p99), first
//! alone, then with `SPECTATORS` WebSocket spectators connected to the games, then with
//! as many spectators that also fetch the state after each update, as the web page
//! does (one `GET` at a time; updates that arrive meanwhile share the next one).
//!
//! Environment: `HEXWAR_BENCH_SECS` (per phase, default 10), `HEXWAR_BENCH_CLIENTS`
//! (default 16), `HEXWAR_BENCH_SPECTATORS` (default 500), `HEXWAR_BENCH_DATABASE`
//! (default a temp SQLite file; a `postgres://` URL measures PostgreSQL).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{FutureExt, StreamExt};
use serde_json::{Value, json};

/// The allocator of the `hexwar` binary (crates/cli), so the figures are what it gets.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

struct Totals {
    acks: AtomicU64,
    gets: AtomicU64,
    refused: AtomicU64,
    spectator_messages: AtomicU64,
    spectator_gets: AtomicU64,
}

async fn new_game(http: &reqwest::Client, base: &str) -> (String, Vec<String>) {
    let created: Value = http
        .post(format!("{base}/api/games"))
        .json(&json!({
            // No turn limit: random games run for tens of thousands of actions, so the
            // games spectators watch stay busy for the whole phase.
            "game": "viktory",
            "seats": [{"name": "A"}, {"name": "B"}]
        }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let tokens = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_owned())
        .collect();
    (created["id"].as_str().unwrap().to_owned(), tokens)
}

/// The parts of a state answer a player client reads (the view is skipped).
#[derive(serde::Deserialize)]
struct StateHead<'a> {
    status: String,
    version: u64,
    to_move: ToMoveHead,
    #[serde(borrow, default)]
    legal: Vec<&'a serde_json::value::RawValue>,
}

/// An acknowledgement: only the state it carries is read.
#[derive(serde::Deserialize)]
struct Acknowledged<'a> {
    #[serde(borrow, default)]
    state: Option<&'a serde_json::value::RawValue>,
}

/// Whose move it is, when a seat's.
#[derive(serde::Deserialize)]
struct ToMoveHead {
    seat: Option<u64>,
}

/// One player client: plays games until `stop`, returning POST latencies (µs).
async fn client(
    base: String,
    seed: u64,
    stop: Arc<AtomicBool>,
    totals: Arc<Totals>,
    games: Arc<std::sync::Mutex<Vec<String>>>,
) -> Vec<u32> {
    let http = reqwest::Client::new();
    let mut latencies = Vec::new();
    let mut rng = seed.max(1);
    let (mut id, mut tokens) = new_game(&http, &base).await;
    games.lock().unwrap().push(id.clone());
    let mut seat = 0;
    // The state the last acknowledgement carried, as the web page takes it: the next
    // action is chosen from it with no `GET` (one is made when the seat to move changes).
    let mut carried: Option<Vec<u8>> = None;
    while !stop.load(Ordering::Relaxed) {
        let bytes = if let Some(bytes) = carried.take() {
            bytes
        } else {
            totals.gets.fetch_add(1, Ordering::Relaxed);
            http.get(format!("{base}/api/games/{id}"))
                .bearer_auth(&tokens[seat])
                .send()
                .await
                .unwrap()
                .bytes()
                .await
                .unwrap()
                .to_vec()
        };
        // Only what a player client needs; the rest of the answer is skipped, not built.
        let state: StateHead = serde_json::from_slice(&bytes).unwrap();
        if state.status == "over" {
            (id, tokens) = new_game(&http, &base).await;
            games.lock().unwrap().push(id.clone());
            continue;
        }
        if let Some(s) = state.to_move.seat
            && s as usize != seat
        {
            seat = s as usize;
            continue;
        }
        if state.legal.is_empty() {
            continue;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let action = state.legal[(rng % state.legal.len() as u64) as usize];
        let body = json!({"version": state.version, "action": action});
        let start = Instant::now();
        let response = http
            .post(format!("{base}/api/games/{id}/actions"))
            .bearer_auth(&tokens[seat])
            .json(&body)
            .send()
            .await
            .unwrap();
        let ok = response.status().is_success();
        let reply = response.bytes().await.unwrap_or_default();
        latencies.push(start.elapsed().as_micros() as u32);
        if ok {
            totals.acks.fetch_add(1, Ordering::Relaxed);
            let reply: Acknowledged = serde_json::from_slice(&reply).unwrap();
            carried = reply.state.map(|state| state.get().as_bytes().to_vec());
        } else {
            totals.refused.fetch_add(1, Ordering::Relaxed);
        }
    }
    latencies
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

async fn phase(base: &str, clients: usize, secs: u64, spectators: usize, fetching: bool) -> String {
    let stop = Arc::new(AtomicBool::new(false));
    let totals = Arc::new(Totals {
        acks: AtomicU64::new(0),
        gets: AtomicU64::new(0),
        refused: AtomicU64::new(0),
        spectator_messages: AtomicU64::new(0),
        spectator_gets: AtomicU64::new(0),
    });
    let games = Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut tasks = Vec::new();
    for c in 0..clients {
        tasks.push(tokio::spawn(client(
            base.to_owned(),
            c as u64 + 1,
            Arc::clone(&stop),
            Arc::clone(&totals),
            Arc::clone(&games),
        )));
    }
    // Spectators: spread over the games the clients have opened.
    while games.lock().unwrap().len() < clients {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let ids: Vec<String> = games.lock().unwrap().clone();
    let mut sockets = Vec::new();
    let http = reqwest::Client::new();
    for s in 0..spectators {
        let id = ids[s % ids.len()].clone();
        let url = format!("{}/api/games/{id}/live", base.replace("http", "ws"));
        // A small read buffer: the library zero-fills all of it before every read, and
        // at its default (128 KiB) the spectators' own reads took a tenth of the cores.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(16 * 1024);
        let (socket, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), false)
            .await
            .expect("websocket");
        let totals = Arc::clone(&totals);
        let (http, state) = (http.clone(), format!("{base}/api/games/{id}"));
        sockets.push(tokio::spawn(async move {
            let mut socket = socket;
            while let Some(Ok(_)) = socket.next().await {
                totals.spectator_messages.fetch_add(1, Ordering::Relaxed);
                if !fetching {
                    continue;
                }
                // What arrived meanwhile is answered by the same GET.
                while let Some(Some(Ok(_))) = socket.next().now_or_never() {
                    totals.spectator_messages.fetch_add(1, Ordering::Relaxed);
                }
                let Ok(response) = http.get(&state).send().await else {
                    break;
                };
                if response.bytes().await.is_ok() {
                    totals.spectator_gets.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    // Measure from here.
    let acks0 = totals.acks.load(Ordering::Relaxed);
    let start = Instant::now();
    tokio::time::sleep(Duration::from_secs(secs)).await;
    let elapsed = start.elapsed().as_secs_f64();
    let acks = totals.acks.load(Ordering::Relaxed) - acks0;
    stop.store(true, Ordering::Relaxed);
    let mut latencies = Vec::new();
    for t in tasks {
        latencies.extend(t.await.unwrap());
    }
    for s in sockets {
        s.abort();
    }
    latencies.sort_unstable();
    format!(
        "{clients} clients, {spectators} spectators{}: {:.0} acknowledged actions/s; POST latency p50 {:.2} ms, p99 {:.2} ms, max {:.1} ms; {} GETs, {} refused, {} spectator messages, {} spectator GETs",
        if fetching { " fetching the state" } else { "" },
        acks as f64 / elapsed,
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0),
        totals.gets.load(Ordering::Relaxed),
        totals.refused.load(Ordering::Relaxed),
        totals.spectator_messages.load(Ordering::Relaxed),
        totals.spectator_gets.load(Ordering::Relaxed),
    )
}

fn main() {
    // `cargo bench` passes flags such as --bench; this benchmark takes none.
    let secs = env_or("HEXWAR_BENCH_SECS", 10u64);
    let clients = env_or("HEXWAR_BENCH_CLIENTS", 16usize);
    let spectators = env_or("HEXWAR_BENCH_SPECTATORS", 500usize);
    let dir = std::env::temp_dir().join(format!("hexwar-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let database = std::env::var("HEXWAR_BENCH_DATABASE")
        .unwrap_or_else(|_| format!("sqlite://{}", dir.join("load.db").display()));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let config = server::Config {
            listen: "127.0.0.1:0".parse().unwrap(),
            database: database.clone(),
            rate_per_second: 0,
            // Every spectator connects from this process's one address.
            max_sockets_per_address: spectators + 1,
            ..server::Config::default()
        };
        let running = server::start(config).await.unwrap();
        let base = format!("http://{}", running.addr);
        println!("load benchmark against {database} ({secs} s per phase)");
        println!("{}", phase(&base, clients, secs, 0, false).await);
        println!("{}", phase(&base, clients, secs, spectators, false).await);
        println!("{}", phase(&base, clients, secs, spectators, true).await);
        running.stop().await.unwrap();
    });
    let _ = std::fs::remove_dir_all(&dir);
}
