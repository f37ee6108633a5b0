//! Helpers for the server's tests: a server on a real SQLite file or the real
//! PostgreSQL, an HTTP client that keeps every response body it received (for the
//! hidden-information checks), and a seeded random player.

#![allow(dead_code, unreachable_pub)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;

use engine::{Actor, Game, GameRecord, Seat, ToMove};
use reqwest::StatusCode;
use serde_json::{Value, json};
use server::{Config, Running};

/// PostgreSQL for the tests (the machines run one with trust auth); `HEXWAR_TEST_PG`
/// overrides it.
pub fn pg_url() -> String {
    std::env::var("HEXWAR_TEST_PG")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

/// A fresh SQLite file URL under the temp directory.
pub fn sqlite_url(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("hexwar-api-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    format!("sqlite://{}", dir.join("hexwar.db").display())
}

/// A test configuration: any free port, no rate limit, short bot budget.
pub fn config(database: &str) -> Config {
    Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        database: database.to_owned(),
        rate_per_second: 0,
        bot_budget: Duration::from_secs(1),
        ..Config::default()
    }
}

/// A running server and a client that remembers every body it received.
pub struct TestServer {
    pub running: Running,
    pub base: String,
    pub http: reqwest::Client,
    pub bodies: Arc<Mutex<Vec<String>>>,
}

impl TestServer {
    pub async fn start(config: Config) -> TestServer {
        let running = server::start(config).await.expect("server starts");
        TestServer {
            base: format!("http://{}", running.addr),
            running,
            http: reqwest::Client::new(),
            bodies: Arc::default(),
        }
    }

    pub async fn stop(self) {
        self.running.stop().await.unwrap();
    }

    /// Sends a request and returns the status and JSON body (Null if not JSON).
    pub async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("request sent");
        let status = response.status();
        let text = response.text().await.unwrap_or_default();
        self.bodies.lock().unwrap().push(text.clone());
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (StatusCode, Value) {
        self.call(reqwest::Method::GET, path, token, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        self.call(reqwest::Method::POST, path, token, Some(body))
            .await
    }

    /// Creates a game; returns its id and each seat's token (None for bots).
    pub async fn create(&self, body: Value) -> (String, Vec<Option<String>>) {
        let (status, created) = self.post("/api/games", None, body).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let id = created["id"].as_str().unwrap().to_owned();
        let tokens = created["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["token"].as_str().map(str::to_owned))
            .collect();
        (id, tokens)
    }

    /// A classic game between Ann and Bob, both people.
    pub async fn two_people(&self) -> (String, Vec<Option<String>>) {
        self.create(json!({"game": "viktory", "seats": [{"name": "Ann"}, {"name": "Bob"}]}))
            .await
    }

    pub async fn state(&self, id: &str, token: Option<&str>) -> Value {
        let (status, state) = self.get(&format!("/api/games/{id}"), token).await;
        assert_eq!(status, StatusCode::OK, "{state}");
        state
    }

    pub async fn act(
        &self,
        id: &str,
        token: &str,
        version: u64,
        action: &Value,
    ) -> (StatusCode, Value) {
        self.post(
            &format!("/api/games/{id}/actions"),
            Some(token),
            json!({"version": version, "action": action}),
        )
        .await
    }

    /// Waits (polling) until the game is over; returns its last state.
    pub async fn wait_over(&self, id: &str, limit: Duration) -> Value {
        let start = std::time::Instant::now();
        loop {
            let state = self.state(id, None).await;
            if state["status"] == "over" {
                return state;
            }
            assert!(
                start.elapsed() < limit,
                "game {id} not over in {limit:?}: {state}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// xorshift64*: a seeded, reproducible choice maker for test players.
pub struct Dice(u64);

impl Dice {
    pub fn new(seed: u64) -> Dice {
        Dice(seed.max(1))
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }

    pub fn byte(&mut self) -> u8 {
        self.below(256) as u8
    }
}

/// What a seat was shown at a version.
pub type Seen = Vec<(u64, Option<u8>, Value)>;

/// Plays a game to its end (or `cap` actions) through the API with one client per
/// token, each seat choosing at random among the legal actions it was shown. Every
/// view it was shown is returned with its version and seat.
pub async fn play_out(
    server: &TestServer,
    id: &str,
    tokens: &[Option<String>],
    seed: u64,
    cap: usize,
) -> Seen {
    let mut dice = Dice::new(seed);
    let mut seen = Seen::new();
    for _ in 0..cap {
        let mut acted = false;
        for token in tokens.iter().flatten() {
            let state = server.state(id, Some(token)).await;
            let version = state["version"].as_u64().unwrap();
            seen.push((
                version,
                state["you"].as_u64().map(|s| s as u8),
                state["view"].clone(),
            ));
            if state["status"] == "over" {
                return seen;
            }
            let legal = state["legal"].as_array().unwrap();
            if legal.is_empty() {
                continue;
            }
            // Mostly something other than ending the phase, so that games are eventful.
            let busy: Vec<&Value> = legal.iter().filter(|a| a["type"] != "end_phase").collect();
            let action = if busy.is_empty() || dice.below(10) == 0 {
                &legal[dice.below(legal.len())]
            } else {
                busy[dice.below(busy.len())]
            };
            let (status, ack) = server.act(id, token, version, action).await;
            assert_eq!(status, StatusCode::OK, "{action} at {version}: {ack}");
            assert!(ack["version"].as_u64().unwrap() > version);
            acted = true;
        }
        if !acted {
            // Only bots (or nobody) can move: give them a moment.
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    seen
}

/// The log versions of the steps `seat` (a spectator: `None`) is told, worked out from
/// a finished record without take-backs by the rule of docs/server.md ("What leaves the
/// server for a seat"), independently of the server's own bookkeeping: its own
/// actions, steps that show it an event, a hand-over of the decision to a seat it did
/// not know to decide, the end, and every step after which it must act.
pub fn told_points<G: Game>(record: &GameRecord<G>, seat: Option<Seat>) -> Vec<u64> {
    let mut state = G::from_setup(&record.setup).expect("setup");
    let known = |to_move: ToMove| (to_move != ToMove::Chance).then_some(to_move);
    let mut decider = known(state.to_move());
    let mut points = Vec::new();
    for (i, step) in record.actions.iter().enumerate() {
        let events = state.apply_unchecked(step.action.clone());
        let shown = events.iter().any(|e| state.event_for(e, seat).is_some());
        let own = matches!((step.by, seat), (Actor::Seat(a), Some(b)) if a == b);
        let now = known(state.to_move());
        let deciding = matches!((state.to_move(), seat), (ToMove::Seat(s), Some(a)) if s == a);
        if own || shown || deciding || (now.is_some() && now != decider) {
            points.push(i as u64 + 1);
            if now.is_some() {
                decider = now;
            }
        }
    }
    points
}

/// The log version at a seat's own version `version`, given its [`told_points`].
pub fn log_version(points: &[u64], version: u64) -> u64 {
    if version == 0 {
        0
    } else {
        points[usize::try_from(version).unwrap() - 1]
    }
}

/// Replays a finished record and checks that every view a seat was shown is exactly
/// the engine's view for that seat at a log version its own version stands for: from
/// the step it was last told up to (not including) the next one it is told, by
/// [`told_points`]. The server sends the engine's views and nothing else (the engine
/// harness proves those hide what they must). (A view may still change within that
/// window: under Dark a few engine views change with steps whose events the seat may
/// not see; `viktory/tests/fog_news.rs` tracks those.)
pub fn check_views<G: Game>(record: &Value, seen: &Seen) {
    let record: GameRecord<G> = serde_json::from_value(record.clone()).expect("a record");
    let mut state = G::from_setup(&record.setup).expect("setup");
    let mut points = std::collections::BTreeMap::new();
    // Each check: seat, view, first and last log version it may stand for, matched.
    let mut checks: Vec<(Option<u8>, &Value, u64, u64, bool)> = Vec::new();
    for (v, seat, view) in seen {
        let told = points
            .entry(*seat)
            .or_insert_with(|| told_points(&record, seat.map(Seat)));
        let first = log_version(told, *v);
        let last = told
            .get(usize::try_from(*v).unwrap())
            .map_or(u64::MAX, |next| next - 1);
        checks.push((*seat, view, first, last, false));
    }
    let mut check = |state: &G, version: u64| {
        let mut views = std::collections::BTreeMap::new();
        for (seat, view, first, last, matched) in &mut checks {
            if *matched || version < *first || version > *last {
                continue;
            }
            let expected = views
                .entry(*seat)
                .or_insert_with(|| serde_json::to_value(state.view(seat.map(Seat))).unwrap());
            *matched = *expected == **view;
        }
    };
    check(&state, 0);
    for (i, step) in record.actions.iter().enumerate() {
        state.apply_unchecked(step.action.clone());
        check(&state, i as u64 + 1);
    }
    for (seat, view, first, last, matched) in &checks {
        assert!(
            matched,
            "the view of seat {seat:?} is none of the engine's between log versions {first} \
             and {last}: {view}"
        );
    }
}

/// Collects every text message of a WebSocket in the background.
pub async fn listen(
    server: &TestServer,
    id: &str,
    token: Option<&str>,
    since: Option<u64>,
) -> Arc<Mutex<Vec<Value>>> {
    let mut url = format!(
        "{}/api/games/{id}/live?",
        server.base.replace("http://", "ws://")
    );
    if let Some(token) = token {
        url = format!("{url}token={token}&");
    }
    if let Some(since) = since {
        url = format!("{url}since={since}");
    }
    let (mut socket, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("websocket");
    let messages = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&messages);
    tokio::spawn(async move {
        while let Some(Ok(message)) = socket.next().await {
            if let tokio_tungstenite::tungstenite::Message::Text(text) = message {
                sink.lock()
                    .unwrap()
                    .push(serde_json::from_str(&text).unwrap());
            }
        }
    });
    messages
}

/// The last version a WebSocket listener has heard of.
pub fn heard_version(messages: &Arc<Mutex<Vec<Value>>>) -> u64 {
    messages
        .lock()
        .unwrap()
        .iter()
        .filter_map(|m| m["version"].as_u64())
        .max()
        .unwrap_or(0)
}

pub async fn wait_heard(messages: &Arc<Mutex<Vec<Value>>>, version: u64) {
    for _ in 0..400 {
        if heard_version(messages) >= version {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!(
        "the listener never heard of version {version}; it has {}",
        heard_version(messages)
    );
}
