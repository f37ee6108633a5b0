//! One catalog of games everywhere: `hexwar referee` (`hello`, `presets`), the lists
//! the other commands print, and the server's `/api/catalog` name the same games, those
//! of `server::catalog`. And a finished A Victory Lost game, as the server writes its
//! record, replays and verifies with `hexwar replay` and `hexwar verify` (issue 27: it
//! was refused as `no game "avl"`), while a tampered copy does not.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

mod common;
use common::hexwar;

/// A `hexwar serve` child process on a fresh SQLite file, killed when dropped.
struct Serve {
    child: Child,
    base: String,
}

impl Serve {
    fn start(name: &str) -> Serve {
        let dir = std::env::temp_dir().join(format!("hexwar-games-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let database = format!("sqlite://{}", dir.join("hexwar.db").display());
        let mut child = hexwar()
            .args(["serve", "--listen", "127.0.0.1:0", "--rate", "0"])
            .args(["--database", &database])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("hexwar serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
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

    async fn get(&self, http: &reqwest::Client, path: &str) -> Value {
        let response = http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("the server answers");
        assert!(response.status().is_success(), "GET {path}: {response:?}");
        response.json().await.unwrap()
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `hexwar referee` on `input`: its replies, parsed.
fn referee(input: &str) -> Vec<Value> {
    common::referee(input)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn write_temp(name: &str, value: &Value) -> PathBuf {
    let path = std::env::temp_dir().join(format!("hexwar-games-{}-{name}", std::process::id()));
    std::fs::write(&path, serde_json::to_string_pretty(value).unwrap()).unwrap();
    path
}

fn run(args: &[&str], file: &PathBuf) -> Output {
    hexwar().args(args).arg(file).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The names in a message like `no game "chess"; the games are ["viktory", "avl"]`.
fn listed_names(message: &str) -> Vec<String> {
    let list = message
        .split("the games are ")
        .nth(1)
        .unwrap_or_else(|| panic!("no list of games in {message:?}"));
    let list = list.lines().next().unwrap();
    serde_json::from_str(list).unwrap_or_else(|e| panic!("{list:?}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_entry_point_lists_the_same_games() {
    let expected: Vec<String> = server::catalog()
        .entries()
        .map(|e| e.name().to_owned())
        .collect();
    assert_eq!(expected, ["viktory", "avl"]);

    let server = Serve::start("catalog");
    let http = reqwest::Client::new();
    let catalog = server.get(&http, "/api/catalog").await;
    let served: Vec<String> = catalog["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(served, expected, "/api/catalog");

    let replies = referee(
        "{\"cmd\":\"hello\"}\n{\"cmd\":\"presets\"}\n{\"cmd\":\"new\",\"game\":\"dice-race\"}\n",
    );
    let hello: Vec<String> = serde_json::from_value(replies[0]["games"].clone()).unwrap();
    assert_eq!(hello, expected, "referee hello");
    let presets: Vec<&str> = replies[1]["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    assert_eq!(presets, expected, "referee presets");
    // Each game's presets are the server's, option for option.
    assert_eq!(replies[1]["games"], catalog["games"]);
    // The toy game is a test fixture: the referee does not offer it.
    assert_eq!(replies[2]["error"]["code"], "not_found");
    let message = replies[2]["error"]["message"].as_str().unwrap();
    assert_eq!(listed_names(message), expected, "{message}");

    // `replay` and `verify` name the games they know when a record is of another.
    let path = write_temp("chess.json", &json!({"format": 1, "game": "chess"}));
    for command in ["replay", "verify"] {
        let out = run(&[command], &path);
        assert!(!out.status.success());
        let err = text(&out.stderr);
        assert_eq!(listed_names(&err), expected, "hexwar {command}: {err}");
    }
    // So does `simulate`.
    let out = hexwar()
        .args(["simulate", "--game", "chess", "--games", "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert_eq!(listed_names(&err), expected, "hexwar simulate: {err}");
}

/// Two random bots play the A Victory Lost demo to the end on a served game; the
/// record downloaded from `/api/games/{id}/record` (the server's format: the full
/// record with its seed revealed, and `result`) passes `hexwar replay` and
/// `hexwar verify`; so does the record of a game ended by a resignation (with its
/// `result`). A die changed, a seed changed or an illegal step makes `verify` fail,
/// and `replay` names the illegal step.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_avl_record_from_the_server_replays_and_verifies() {
    let server = Serve::start("avl");
    let http = reqwest::Client::new();
    let response = http
        .post(format!("{}/api/games", server.base))
        .json(&json!({
            "game": "avl", "preset": "demo",
            "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), reqwest::StatusCode::CREATED);
    let created: Value = response.json().await.unwrap();
    let id = created["id"].as_str().unwrap().to_owned();
    let start = Instant::now();
    let state = loop {
        let state = server.get(&http, &format!("/api/games/{id}")).await;
        if state["status"] == "over" {
            break state;
        }
        assert!(
            start.elapsed() < Duration::from_mins(3),
            "the bots did not finish: {state}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let record = server.get(&http, &format!("/api/games/{id}/record")).await;
    assert_eq!(record["game"], "avl");
    assert!(
        record["seed"].is_string(),
        "the seed is revealed at the end"
    );
    // `result` is how the game ended: the rules ended this one, so it is their ending,
    // as the state's `to_move.over` says.
    assert!(
        record["result"]["winners"].is_array(),
        "{}",
        record["result"]
    );
    assert_eq!(record["result"], state["to_move"]["over"]);
    let actions = record["actions"].as_array().unwrap().len();

    let path = write_temp("avl.json", &record);
    let out = run(&["replay"], &path);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with(&format!("ok: {actions} actions replayed, all legal")),
        "{}",
        text(&out.stdout)
    );
    let out = run(&["verify"], &path);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.contains("chance outcomes come from the committed seed") && said.contains("over"),
        "{said}"
    );

    // A chance outcome changed: the first die to another face, or else the first chit
    // drawn to the one drawn next (a demo game always draws chits; most roll dice too).
    // AVL actions are tagged by their key: `{"die":{"value":4}}`.
    let mut forged = record.clone();
    let steps = forged["actions"].as_array_mut().unwrap();
    if let Some(die) = steps.iter_mut().find(|a| a["action"].get("die").is_some()) {
        let v = die["action"]["die"]["value"].as_u64().unwrap();
        die["action"]["die"]["value"] = (v % 6 + 1).into();
    } else {
        let draws: Vec<usize> = (0..steps.len())
            .filter(|&i| steps[i]["action"].get("draw_chit").is_some())
            .collect();
        steps[draws[0]]["action"] = steps[draws[1]]["action"].clone();
    }
    let out = run(&["verify"], &write_temp("avl-forged.json", &forged));
    assert!(!out.status.success(), "a forged chance outcome verifies");

    // Another seed than the one committed to.
    let mut reseeded = record.clone();
    reseeded["seed"] = json!("00".repeat(32));
    let out = run(&["verify"], &write_temp("avl-reseeded.json", &reseeded));
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("does not match the commitment"),
        "{}",
        text(&out.stderr)
    );

    // A game the server ended, by a resignation on the first move: its record, with
    // `result`, verifies as far as it goes.
    let response = http
        .post(format!("{}/api/games", server.base))
        .json(
            &json!({"game": "avl", "preset": "demo", "seats": [{"name": "Ann"}, {"name": "Bob"}]}),
        )
        .send()
        .await
        .unwrap();
    let created: Value = response.json().await.unwrap();
    let resigned = created["id"].as_str().unwrap();
    let soviet = created["seats"][1]["token"].as_str().unwrap();
    let response = http
        .post(format!("{}/api/games/{resigned}/resign", server.base))
        .bearer_auth(soviet)
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success(), "{response:?}");
    let over = server
        .get(&http, &format!("/api/games/{resigned}/record"))
        .await;
    assert_eq!(over["result"]["reason"], "resignation", "{over}");
    assert!(over["seed"].is_string());
    let out = run(&["verify"], &write_temp("avl-resigned.json", &over));
    assert!(out.status.success(), "{}", text(&out.stderr));

    // An illegal step: a unit moved off the map.
    let mut bad = record;
    let step = bad["actions"]
        .as_array()
        .unwrap()
        .iter()
        .position(|a| a["by"] != "chance")
        .unwrap();
    bad["actions"][step]["action"] = json!({"move": {"piece": 0, "to": [-9, -9]}});
    let path = write_temp("avl-bad.json", &bad);
    for command in ["replay", "verify"] {
        let out = run(&[command], &path);
        assert!(!out.status.success());
        let err = text(&out.stderr);
        assert!(err.contains(&format!("step {step} is illegal")), "{err}");
    }
}
