//! `hexwar serve` as real processes: an acknowledged action survives `kill -9` (on SQLite
//! and on PostgreSQL), and two servers on one PostgreSQL database play one game
//! together, each hearing the other's actions through LISTEN/NOTIFY.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A `hexwar serve` child process.
struct Serve {
    child: Child,
    base: String,
}

impl Serve {
    /// Starts `hexwar serve` on a free port and waits for its address.
    fn start(database: &str) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hexwar"))
            .args(["serve", "--listen", "127.0.0.1:0", "--rate", "0"])
            .args(["--database", database])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("hexwar serve starts");
        let stdout = child.stdout.take().unwrap();
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_owned();
        Serve {
            child,
            base: format!("http://{addr}"),
        }
    }

    /// `kill -9`.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn call(
    http: &reqwest::Client,
    url: String,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = match body {
        Some(body) => http.post(url).json(&body),
        None => http.get(url),
    };
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn create(http: &reqwest::Client, base: &str, body: Value) -> (String, Vec<String>) {
    let (status, created) = call(http, format!("{base}/api/games"), None, Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let tokens = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_owned())
        .collect();
    (created["id"].as_str().unwrap().to_owned(), tokens)
}

/// Picks a legal action (the n-th, wrapping), avoiding ending the phase when it can.
fn pick(legal: &[Value], n: usize) -> Value {
    let busy: Vec<&Value> = legal.iter().filter(|a| a["type"] != "end_phase").collect();
    if busy.is_empty() || n.is_multiple_of(7) {
        legal[n % legal.len()].clone()
    } else {
        busy[n % busy.len()].clone()
    }
}

fn unique_sqlite(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("hexwar-serve-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    format!("sqlite://{}", dir.join("hexwar.db").display())
}

/// PostgreSQL for the tests; `HEXWAR_TEST_PG` overrides it.
fn pg_url() -> String {
    std::env::var("HEXWAR_TEST_PG")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_actions_survive_kill_9() {
    survives_kill_9(&unique_sqlite("durable")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_actions_survive_kill_9_on_postgres() {
    survives_kill_9(&pg_url()).await;
}

/// Plays 120 acknowledged actions on one process, kills it with SIGKILL right after
/// the last acknowledgement, and finds every one of them in the log through a second
/// process on the same database.
async fn survives_kill_9(database: &str) {
    let database = database.to_owned();
    let http = reqwest::Client::new();
    let first = Serve::start(&database);
    let (id, tokens) = create(
        &http,
        &first.base,
        json!({"game": "viktory", "seats": [{"name": "Ann"}, {"name": "Bob"}]}),
    )
    .await;
    // Play, remembering every acknowledged action: (its index in the log, seat, action).
    let mut acknowledged = Vec::new();
    let mut n = 0;
    while acknowledged.len() < 120 {
        for (seat, token) in tokens.iter().enumerate() {
            let (_, state) = call(
                &http,
                format!("{}/api/games/{id}", first.base),
                Some(token),
                None,
            )
            .await;
            let legal = state["legal"].as_array().unwrap();
            if legal.is_empty() {
                continue;
            }
            let version = state["version"].as_u64().unwrap();
            let action = pick(legal, n);
            n += 1;
            let (status, ack) = call(
                &http,
                format!("{}/api/games/{id}/actions", first.base),
                Some(token),
                Some(json!({"version": version, "action": action})),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{ack}");
            acknowledged.push((version, seat, action));
        }
    }
    // No graceful anything: the process dies right after the last acknowledgement.
    first.kill();
    let second = Serve::start(&database);
    for (seat, token) in tokens.iter().enumerate() {
        let (status, log) = call(
            &http,
            format!("{}/api/games/{id}/steps?since=0", second.base),
            Some(token),
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        let steps = log["steps"].as_array().unwrap();
        for (index, by, action) in acknowledged.iter().filter(|a| a.1 == seat) {
            let step = &steps[*index as usize];
            assert_eq!(step["by"], json!({"seat": by}));
            assert_eq!(
                &step["action"], action,
                "acknowledged action {index} is in the log"
            );
        }
    }
    // A seat's record of the running game is its own log, which `hexwar replay` shows.
    let (_, log) = call(
        &http,
        format!("{}/api/games/{id}/record", second.base),
        Some(&tokens[0]),
        None,
    )
    .await;
    assert_eq!(log["kind"], "seat_log");
    let file = std::env::temp_dir().join(format!("hexwar-seatlog-{id}.json"));
    std::fs::write(&file, log.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .arg("replay")
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("as Seat 1 sees it"));
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .arg("verify")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "a running game's log cannot be verified"
    );
    // And the game goes on from where it was.
    let (_, state) = call(
        &http,
        format!("{}/api/games/{id}", second.base),
        Some(&tokens[0]),
        None,
    )
    .await;
    assert!(state["version"].as_u64().unwrap() > acknowledged.last().unwrap().0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_postgres_play_one_game() {
    let database = pg_url();
    let http = reqwest::Client::new();
    let servers = [Serve::start(&database), Serve::start(&database)];
    let (id, tokens) = create(
        &http,
        &servers[0].base,
        json!({
            "game": "viktory", "options": {"max_turns": 10},
            "seats": [{"name": "Ann"}, {"name": "Bob"}]
        }),
    )
    .await;
    // A spectator on the second server hears everything, including the first's actions.
    let ws = format!(
        "{}/api/games/{id}/live?since=0",
        servers[1].base.replace("http", "ws")
    );
    let (mut socket, _) = tokio_tungstenite::connect_async(ws)
        .await
        .expect("websocket");
    let heard = std::sync::Arc::new(std::sync::Mutex::new(0u64));
    let sink = std::sync::Arc::clone(&heard);
    tokio::spawn(async move {
        while let Some(Ok(message)) = socket.next().await {
            if let tokio_tungstenite::tungstenite::Message::Text(text) = message {
                let value: Value = serde_json::from_str(&text).unwrap();
                if let Some(v) = value["version"].as_u64() {
                    let mut heard = sink.lock().unwrap();
                    *heard = (*heard).max(v);
                }
            }
        }
    });
    // The first player (drawn at the start) moves on the first server; with no request
    // to the second, its spectator hears of it (LISTEN/NOTIFY).
    let (_, state) = call(
        &http,
        format!("{}/api/games/{id}", servers[0].base),
        None,
        None,
    )
    .await;
    let first = state["to_move"]["seat"].as_u64().unwrap() as usize;
    let (_, state) = call(
        &http,
        format!("{}/api/games/{id}", servers[0].base),
        Some(&tokens[first]),
        None,
    )
    .await;
    let version = state["version"].as_u64().unwrap();
    let (status, ack) = call(
        &http,
        format!("{}/api/games/{id}/actions", servers[0].base),
        Some(&tokens[first]),
        Some(json!({"version": version, "action": state["legal"][0]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{ack}");
    let acked = ack["version"].as_u64().unwrap();
    for _ in 0..200 {
        if *heard.lock().unwrap() >= acked {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(
        *heard.lock().unwrap(),
        acked,
        "notified of the other server's action"
    );
    // Seat 0 plays on the first server, seat 1 on the second.
    let mut n = 0;
    let over = loop {
        let mut state = Value::Null;
        for (seat, token) in tokens.iter().enumerate() {
            let base = &servers[seat].base;
            let (_, s) = call(&http, format!("{base}/api/games/{id}"), Some(token), None).await;
            state = s;
            if state["status"] == "over" {
                break;
            }
            let legal = state["legal"].as_array().unwrap();
            if legal.is_empty() {
                continue;
            }
            let version = state["version"].as_u64().unwrap();
            let (status, ack) = call(
                &http,
                format!("{base}/api/games/{id}/actions"),
                Some(token),
                Some(json!({"version": version, "action": pick(legal, n)})),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "seat {seat} at {version}: {ack}");
            n += 1;
        }
        if state["status"] == "over" {
            break state;
        }
        assert!(n < 20_000, "the game did not end");
    };
    let version = over["version"].as_u64().unwrap();
    // Both servers serve the same finished game and the same record.
    let (_, a) = call(
        &http,
        format!("{}/api/games/{id}/record", servers[0].base),
        None,
        None,
    )
    .await;
    let (_, b) = call(
        &http,
        format!("{}/api/games/{id}/record", servers[1].base),
        None,
        None,
    )
    .await;
    assert_eq!(a, b);
    assert_eq!(a["actions"].as_array().unwrap().len() as u64, version);
    // `hexwar verify` proves the downloaded record's dice; `hexwar replay` accepts it.
    let file = std::env::temp_dir().join(format!("hexwar-record-{id}.json"));
    std::fs::write(&file, a.to_string()).unwrap();
    for command in ["verify", "replay"] {
        let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
            .arg(command)
            .arg(&file)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{command}: {text} {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains(&format!("{version} actions")), "{text}");
    }
    for _ in 0..200 {
        if *heard.lock().unwrap() >= version {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(
        *heard.lock().unwrap(),
        version,
        "the second server's spectator heard it all"
    );
}
