//! The server through its HTTP and WebSocket API, on a real SQLite file and on the real
//! PostgreSQL at 127.0.0.1:5432: whole games between test clients and bots, records
//! that replay and verify, stale versions, seat security, hidden information.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{
    Dice, TestServer, check_views, config, listen, pg_url, play_out, sqlite_url, wait_heard,
};
use protocol::Catalog;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The steps a listener received, in order, checked for gaps.
fn heard_steps(messages: &Arc<Mutex<Vec<Value>>>) -> Vec<Value> {
    let mut steps = Vec::new();
    for m in messages
        .lock()
        .unwrap()
        .iter()
        .filter(|m| m["type"] == "actions")
    {
        steps.extend(m["steps"].as_array().unwrap().iter().cloned());
    }
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(
            step["index"].as_u64(),
            Some(i as u64),
            "steps arrive in order, none missing"
        );
    }
    steps
}

/// A whole 2-player classic game between two HTTP clients, with a spectator and a
/// seat listening live; the record replays and verifies, and every view either client
/// was shown is the engine's view of that seat.
async fn whole_game(server: &TestServer, seed: u64) {
    let (id, tokens) = server
        .create(json!({
            "game": "viktory", "preset": "classic",
            // the empires are scored after 20 game turns, if no one conquered
            // before; random play rarely conquers, and its games run to 50,000 actions.
            "options": {"max_turns": 20},
            "seats": [{"name": "Ann"}, {"name": "Bob"}]
        }))
        .await;
    let spectator = listen(server, &id, None, Some(0)).await;
    let seat0 = listen(server, &id, tokens[0].as_deref(), Some(0)).await;
    let seen = play_out(server, &id, &tokens, seed, 200_000).await;
    let state = server.wait_over(&id, Duration::from_secs(5)).await;
    let version = state["version"].as_u64().unwrap();
    assert!(
        state["to_move"]["over"]["winners"].is_array(),
        "{}",
        state["to_move"]
    );
    // The seed is revealed at the end and matches the commitment.
    let seed_hex = state["seed"].as_str().expect("seed revealed").to_owned();
    let (status, record) = server.get(&format!("/api/games/{id}/record"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(record["seed"], json!(seed_hex));
    let dice = record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["action"]["type"] == "die")
        .count();
    eprintln!(
        "whole game {id}: {version} actions, {dice} dice, {} views checked, {}",
        seen.len(),
        state["to_move"]
    );
    let catalog = Catalog::new().with::<viktory::Viktory>();
    let summary = catalog
        .for_record(&record)
        .unwrap()
        .verify(record.clone())
        .unwrap();
    assert_eq!(summary.actions as u64, version);
    assert!(summary.chance_verified.unwrap() > 0);
    assert_eq!(json!(summary.to_move), state["to_move"]);
    // Replays: the view at any version is the engine's view then; the history has a
    // point per game turn and ends at the last version.
    let mut seen = seen;
    for v in [0, version / 2, version] {
        let (status, at) = server
            .get(&format!("/api/games/{id}/at/{v}"), tokens[0].as_deref())
            .await;
        assert_eq!(status, StatusCode::OK, "{at}");
        seen.push((v, Some(0), at["view"].clone()));
    }
    let (_, history) = server.get(&format!("/api/games/{id}/history"), None).await;
    let points = history["points"].as_array().unwrap();
    assert!(points.len() >= 20, "{history}");
    assert_eq!(points.last().unwrap()["version"], json!(version));
    check_views::<viktory::Viktory>(&record, &seen);
    // Live listeners heard every step, in order.
    wait_heard(&spectator, version).await;
    wait_heard(&seat0, version).await;
    assert_eq!(heard_steps(&spectator).len() as u64, version);
    let mine = heard_steps(&seat0);
    assert_eq!(mine.len() as u64, version);
    // The seat's own actions carry the action; the opponent's do not.
    for (step, recorded) in mine.iter().zip(record["actions"].as_array().unwrap()) {
        match recorded["by"]["seat"].as_u64() {
            Some(0) => assert_eq!(step["action"], recorded["action"]),
            _ => assert!(step.get("action").is_none(), "{step}"),
        }
    }
    // No response leaked a token hash or, before the end, the seed.
    let bodies = server.bodies.lock().unwrap();
    for token in tokens.iter().flatten() {
        let hash = server::hash_token(token);
        assert!(
            bodies.iter().all(|b| !b.contains(&hash)),
            "a token hash leaked"
        );
    }
    let before_end = bodies.iter().take_while(|b| !b.contains("\"over\""));
    assert!(
        before_end.into_iter().all(|b| !b.contains(&seed_hex)),
        "the seed leaked early"
    );
    for message in spectator
        .lock()
        .unwrap()
        .iter()
        .chain(seat0.lock().unwrap().iter())
    {
        let text = message.to_string();
        assert!(!text.contains(&seed_hex));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_over_http_on_sqlite() {
    let server = TestServer::start(config(&sqlite_url("whole"))).await;
    whole_game(&server, 11).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_over_http_on_postgres() {
    let server = TestServer::start(config(&pg_url())).await;
    whole_game(&server, 12).await;
    server.stop().await;
}

/// A second process on a database, that hears nothing of the others (no LISTEN, so
/// nothing catches its games up but its own requests).
struct Deaf {
    base: String,
    http: reqwest::Client,
    hub: Arc<server::Hub>,
}

impl Deaf {
    async fn start(database: &str) -> Deaf {
        let store = server::store::Store::open(database).await.expect("store");
        let hub = server::Hub::new(store, config(database));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let app = server::app(Arc::clone(&hub))
            .into_make_service_with_connect_info::<std::net::SocketAddr>();
        tokio::spawn(async move { axum::serve(listener, app).await });
        Deaf {
            base: format!("http://{addr}"),
            http: reqwest::Client::new(),
            hub,
        }
    }

    async fn call(
        &self,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let url = format!("{}{path}", self.base);
        let mut request = match body {
            Some(body) => self.http.post(url).json(&body),
            None => self.http.get(url),
        };
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("request sent");
        let status = response.status();
        (status, response.json().await.unwrap_or(Value::Null))
    }
}

/// On PostgreSQL an action is first tried against the game as the process has it
/// loaded, without reading the log first; the append's version check commits it only
/// if that was current. Here every other action goes to a second process that never
/// hears of the first one's actions. Half of those are sent straight away: each try is
/// refused (the seat's version is ahead of what the process has), and it catches up and
/// stores the action. Before the other half the seat reads the game at the second
/// process, which must show the first one's last action (a request reads the log unless
/// a read begun after it came has), and the action then goes through at the first try.
/// Every action is acknowledged, the two processes serve the same log, and the first
/// process, always current, never tries twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_at_a_process_behind_the_log_is_caught_up_and_stored() {
    use std::sync::atomic::Ordering;
    let first = TestServer::start(config(&pg_url())).await;
    let deaf = Deaf::start(&pg_url()).await;
    let (id, tokens) = first.two_people().await;
    // The second process loads the game now, and hears nothing after.
    let (status, _) = deaf.call(&format!("/api/games/{id}"), None, None).await;
    assert_eq!(status, StatusCode::OK);
    let mut posted = [0u64; 2];
    for n in 0..60u64 {
        let Some(seat) = first.state(&id, None).await["to_move"]["seat"].as_u64() else {
            break;
        };
        let token = tokens[seat as usize].as_deref().unwrap();
        let state = first.state(&id, Some(token)).await;
        let legal = state["legal"].as_array().unwrap();
        let body = json!({
            "version": state["version"],
            "action": legal[(n as usize * 7) % legal.len()],
        });
        let path = format!("/api/games/{id}/actions");
        let at = (n % 2) as usize;
        if n % 4 == 3 {
            let (status, seen) = deaf
                .call(&format!("/api/games/{id}"), Some(token), None)
                .await;
            assert_eq!(status, StatusCode::OK, "{seen}");
            assert_eq!(
                seen["version"], state["version"],
                "the second process is current"
            );
        }
        let (status, ack) = if at == 0 {
            first.post(&path, Some(token), body).await
        } else {
            deaf.call(&path, Some(token), Some(body)).await
        };
        assert_eq!(status, StatusCode::OK, "action {n} at process {at}: {ack}");
        posted[at] += 1;
    }
    assert!(posted[1] >= 20, "{posted:?}");
    // Those sent straight away, one in two.
    assert_eq!(
        deaf.hub.retried.load(Ordering::Relaxed),
        posted[1].div_ceil(2)
    );
    assert_eq!(first.running.hub.retried.load(Ordering::Relaxed), 0);
    // Both serve the same log, with every action in it.
    let path = format!("/api/games/{id}/record");
    let (status, a) = first.get(&path, None).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(
        deaf.call(&path, None, None).await,
        (StatusCode::OK, a.clone())
    );
    assert_eq!(a["version"], first.state(&id, None).await["version"]);
    assert!(a["version"].as_u64().unwrap() >= posted[0] + posted[1]);
    first.stop().await;
}

/// Three bots play to the end by themselves (one of them the greedy "easy" level);
/// their record verifies.
async fn bot_game(server: &TestServer) {
    let (id, tokens) = server
        .create(json!({
            "game": "viktory", "preset": "classic", "options": {"max_turns": 20},
            "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "random"}, {"kind": "bot"}]
        }))
        .await;
    assert!(tokens.iter().all(Option::is_none));
    let state = server.wait_over(&id, Duration::from_mins(2)).await;
    let (_, record) = server.get(&format!("/api/games/{id}/record"), None).await;
    let catalog = Catalog::new().with::<viktory::Viktory>();
    // The rules ended it: the record and the state say how, as `to_move.over` does.
    assert!(state["to_move"]["over"].is_object(), "{state}");
    assert_eq!(state["result"], state["to_move"]["over"]);
    assert_eq!(record["result"], state["to_move"]["over"]);
    let summary = catalog.for_record(&record).unwrap().verify(record).unwrap();
    assert_eq!(summary.actions as u64, state["version"].as_u64().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_play_a_game_on_sqlite() {
    let server = TestServer::start(config(&sqlite_url("bots"))).await;
    bot_game(&server).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_play_a_game_on_postgres() {
    let server = TestServer::start(config(&pg_url())).await;
    bot_game(&server).await;
    server.stop().await;
}

/// The safety net against a bot going round in circles: past
/// `bot_turn_decisions` decisions in a game turn, a bot seat ends every phase it can
/// (and otherwise plays the first legal action), so the game goes on to its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_past_its_decisions_in_a_turn_ends_its_phases() {
    use engine::{Actor, Game, GameRecord, Seat};
    use server::config::Config;
    let server = TestServer::start(Config {
        bot_turn_decisions: 3,
        ..config(&sqlite_url("bot-cap"))
    })
    .await;
    let (id, _) = server
        .create(json!({
            "game": "viktory", "preset": "classic", "options": {"max_turns": 6},
            "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
        }))
        .await;
    server.wait_over(&id, Duration::from_mins(2)).await;
    let (_, record) = server.get(&format!("/api/games/{id}/record"), None).await;
    let record: GameRecord<viktory::Viktory> = serde_json::from_value(record).unwrap();
    let mut state = viktory::Viktory::from_setup(&record.setup).unwrap();
    let mut counted = std::collections::HashMap::<(Seat, Option<u32>), u32>::new();
    let (mut capped, mut chose) = (0, 0);
    for step in record.actions {
        if let Actor::Seat(seat) = step.by {
            let n = counted.entry((seat, state.game_turn())).or_default();
            *n += 1;
            let legal = state.legal_actions();
            if *n > 3 {
                capped += 1;
                let pass = legal.iter().find(|a| **a == viktory::Action::EndPhase);
                assert_eq!(&step.action, pass.unwrap_or(&legal[0]), "decision {n}");
            } else {
                chose += usize::from(legal.len() > 1);
            }
        }
        state.apply_unchecked(step.action);
    }
    assert!(state.to_move().is_over());
    // The bots choose freely (their tie-breaks draw on the OS): how many decisions fall
    // past the limit varies from run to run.
    assert!(capped > 0 && chose > 0, "{capped} capped, {chose} chosen");
    server.stop().await;
}

/// A person against a bot: the bot answers every turn through the checked path.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_against_a_bot() {
    let server = TestServer::start(config(&sqlite_url("person-bot"))).await;
    let (id, tokens) = server
        .create(json!({
            "game": "viktory", "options": {"max_turns": 20},
            "seats": [{"name": "Ann"}, {"kind": "bot"}]
        }))
        .await;
    play_out(&server, &id, &tokens, 5, 200_000).await;
    let state = server.wait_over(&id, Duration::from_secs(10)).await;
    assert!(state["to_move"]["over"].is_object());
    server.stop().await;
}

/// Two clients of one seat post different actions at the same version: exactly one
/// wins, the other is told its version is stale, and the log holds only the winner.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_clients_one_wins() {
    let server = TestServer::start(config(&sqlite_url("race"))).await;
    let (id, tokens) = server.two_people().await;
    let mut dice = Dice::new(3);
    let mut rounds = 0;
    while rounds < 20 {
        let mut mover = None;
        for token in tokens.iter().flatten() {
            let state = server.state(&id, Some(token)).await;
            if state["legal"].as_array().unwrap().len() >= 2 {
                mover = Some((token.clone(), state));
                break;
            }
        }
        let Some((token, state)) = mover else {
            // A single choice: take it and look again.
            for token in tokens.iter().flatten() {
                let state = server.state(&id, Some(token)).await;
                if let Some(action) = state["legal"].as_array().unwrap().first() {
                    let v = state["version"].as_u64().unwrap();
                    server.act(&id, token, v, action).await;
                }
            }
            continue;
        };
        let version = state["version"].as_u64().unwrap();
        let legal = state["legal"].as_array().unwrap();
        let a = legal[dice.below(legal.len())].clone();
        let b = legal.iter().find(|x| **x != a).unwrap().clone();
        let (ra, rb) = tokio::join!(
            server.act(&id, &token, version, &a),
            server.act(&id, &token, version, &b)
        );
        let statuses = [ra.0, rb.0];
        assert_eq!(
            statuses.iter().filter(|s| **s == StatusCode::OK).count(),
            1,
            "{ra:?} {rb:?}"
        );
        let loser = if ra.0 == StatusCode::OK { &rb.1 } else { &ra.1 };
        assert_eq!(loser["code"], "stale_version", "{loser}");
        let winner = if ra.0 == StatusCode::OK { &a } else { &b };
        let (_, steps) = server
            .get(
                &format!("/api/games/{id}/steps?since={version}"),
                Some(&token),
            )
            .await;
        assert_eq!(&steps["steps"][0]["action"], winner);
        rounds += 1;
    }
    server.stop().await;
}

/// A token acts and sees only for its own seat; bad tokens are refused; spectators get
/// the public view and no legal actions.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_open_only_their_seat() {
    let server = TestServer::start(config(&sqlite_url("tokens"))).await;
    let (id, tokens) = server.two_people().await;
    // t0 opens the seat that moves first (drawn at the start), t1 the other.
    let first = server.state(&id, None).await["to_move"]["seat"]
        .as_u64()
        .unwrap() as usize;
    let (t0, t1) = (
        tokens[first].clone().unwrap(),
        tokens[1 - first].clone().unwrap(),
    );
    let s0 = server.state(&id, Some(&t0)).await;
    let s1 = server.state(&id, Some(&t1)).await;
    assert_eq!(s0["you"], first);
    assert_eq!(s1["you"], 1 - first);
    assert!(s1["legal"].as_array().unwrap().is_empty());
    let version = s0["version"].as_u64().unwrap();
    let action = s0["legal"][0].clone();
    // The other seat's token cannot play the first seat's move.
    let (status, body) = server.act(&id, &t1, version, &action).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["code"], "not_your_turn");
    // A wrong token opens nothing, for acting or reading.
    let last = if t0.ends_with('0') { '1' } else { '0' };
    let forged = format!("{}{last}", &t0[..t0.len() - 1]);
    let (status, body) = server.act(&id, &forged, version, &action).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("bad_token"))
    );
    let (status, _) = server.get(&format!("/api/games/{id}"), Some(&forged)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // A token of another game opens nothing here.
    let (other, other_tokens) = server
        .create(json!({"game": "viktory", "seats": [{"name": "C"}, {"name": "D"}]}))
        .await;
    let (status, _) = server.act(&other, &t0, 0, &action).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let _ = other_tokens;
    // Spectators see the public view and cannot act.
    let spectator = server.state(&id, None).await;
    assert_eq!(spectator["you"], Value::Null);
    assert!(spectator["legal"].as_array().unwrap().is_empty());
    let (status, _) = server
        .post(
            &format!("/api/games/{id}/actions"),
            None,
            json!({"version": version, "action": action}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Nothing changed.
    assert_eq!(server.state(&id, Some(&t0)).await, s0);
    // Illegal and stale actions are refused with the rule or the version.
    let (status, body) = server
        .act(
            &id,
            &t0,
            version,
            &json!({"type": "found_capital", "hex": [40, 40]}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["rule"], "4.0", "{body}");
    let (status, body) = server.act(&id, &t0, version + 5, &action).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::CONFLICT, Some("stale_version"))
    );
    let (status, body) = server.get("/api/games/0123456789ab", None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
    assert_eq!(server.state(&id, Some(&t0)).await, s0);
    server.stop().await;
}

/// The online ruleset with Dark fog and independent exploration: every view and live
/// message a seat got is exactly the engine's for that seat (checked against the
/// record once the game ends by resignation), and a seat's record of a running game
/// holds only its own filtered steps.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fog_stays_on_the_server() {
    let server = TestServer::start(config(&sqlite_url("fog"))).await;
    let (id, tokens) = server
        .create(json!({
            "game": "viktory", "preset": "online",
            "options": {"dark": true, "independent_exploration": true},
            "seats": [{"name": "Ann"}, {"name": "Bob"}]
        }))
        .await;
    let live1 = listen(&server, &id, tokens[1].as_deref(), Some(0)).await;
    let seen = play_out(&server, &id, &tokens, 21, 150).await;
    // A seat's record of a running game: a seat log, with no seed and no setup.
    let (status, log) = server
        .get(&format!("/api/games/{id}/record"), tokens[1].as_deref())
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(log["kind"], "seat_log");
    assert!(log.get("setup").is_none() && log.get("seed").is_none());
    // Under Dark each audience counts only the steps it is told: wait for seat 1's own
    // version, not the spectators' (a live connection may hold its next write back for
    // up to 20 ms, so a smaller number can be reached before the last steps arrive).
    wait_heard(&live1, log["version"].as_u64().unwrap()).await;
    // The live steps seat 1 heard equal its logged steps.
    let heard = heard_steps(&live1);
    assert_eq!(
        heard.as_slice(),
        log["steps"].as_array().unwrap().as_slice()
    );
    // End the game: seat 0 resigns, seat 1 wins, the full record is published.
    let (status, _) = server
        .post(
            &format!("/api/games/{id}/resign"),
            tokens[0].as_deref(),
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let state = server.state(&id, None).await;
    assert_eq!(state["status"], "over");
    assert_eq!(
        state["result"],
        json!({"winners": [1], "reason": "resignation"})
    );
    let (_, record) = server.get(&format!("/api/games/{id}/record"), None).await;
    check_views::<viktory::Viktory>(&record, &seen);
    // Replaying the record, seat 1 heard exactly the steps it is told, each with its
    // events as filtered for it then; the others left no trace, not even a count.
    let full: engine::GameRecord<viktory::Viktory> = serde_json::from_value(record).unwrap();
    let told = common::told_points(&full, Some(engine::Seat(1)));
    assert_eq!(heard.len(), told.len());
    assert!(
        told.len() < full.actions.len(),
        "Dark hides some of seat 0's steps from seat 1 ({} of {} told)",
        told.len(),
        full.actions.len()
    );
    let mut game = <viktory::Viktory as engine::Game>::from_setup(&full.setup).unwrap();
    let mut heard = heard.iter();
    for (i, step) in full.actions.iter().enumerate() {
        let events = engine::Game::apply_unchecked(&mut game, step.action);
        let filtered: Vec<Value> = events
            .iter()
            .filter_map(|e| engine::Game::event_for(&game, e, Some(engine::Seat(1))))
            .map(|e| serde_json::to_value(e).unwrap())
            .collect();
        if told.binary_search(&(i as u64 + 1)).is_err() {
            assert!(filtered.is_empty(), "log step {i} shows seat 1 events");
            continue;
        }
        let heard = heard.next().unwrap();
        assert_eq!(
            &json!(filtered),
            &heard["events"],
            "step {}",
            heard["index"]
        );
    }
    // Every hidden tile's terrain is absent from seat 1's messages unless its events
    // revealed it: the per-step comparison above covers it; token hashes never appear.
    {
        let bodies = server.bodies.lock().unwrap();
        for token in tokens.iter().flatten() {
            let hash = server::hash_token(token);
            assert!(bodies.iter().all(|b| !b.contains(&hash)));
        }
    }
    server.stop().await;
}

/// Random bytes and random well-formed but illegal requests never crash the server and
/// never change the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_changes_nothing() {
    let server = TestServer::start(config(&sqlite_url("fuzz"))).await;
    let (id, tokens) = server.two_people().await;
    // Play a little so that there is a position with many legal actions.
    play_out(&server, &id, &tokens, 9, 12).await;
    let token = tokens[0].clone().unwrap();
    let before: Vec<Value> =
        futures_util::future::join_all(tokens.iter().flatten().map(|t| server.state(&id, Some(t))))
            .await;
    let version = before[0]["version"].as_u64().unwrap();
    let legal: Vec<Value> = before
        .iter()
        .flat_map(|s| s["legal"].as_array().unwrap().clone())
        .collect();
    let mut dice = Dice::new(77);
    let paths = [
        format!("/api/games/{id}/actions"),
        format!("/api/games/{id}/join"),
        "/api/games".to_owned(),
        format!("/api/games/{id}/messages"),
        format!("/api/games/{id}/notify"),
        format!("/api/games/{id}/seats/9/claim"),
        format!("/api/games/{id}x/actions"),
    ];
    let mut refused = 0;
    for round in 0..1500 {
        let path = &paths[dice.below(paths.len())];
        let raw = match round % 3 {
            // Random bytes.
            0 => (0..dice.below(300))
                .map(|_| dice.byte())
                .collect::<Vec<u8>>(),
            // A legal action's shape with a field changed, at a random version.
            1 => {
                let mut action = legal[dice.below(legal.len())].clone();
                if let Some(object) = action.as_object_mut() {
                    let keys: Vec<String> = object.keys().cloned().collect();
                    let key = &keys[dice.below(keys.len())];
                    object[key] = match dice.below(5) {
                        0 => json!(dice.below(1000) as i64 - 500),
                        1 => json!([dice.below(60) as i64 - 30, dice.below(60) as i64 - 30]),
                        2 => json!("nonsense"),
                        3 => Value::Null,
                        _ => json!({"x": []}),
                    };
                }
                let v = if dice.below(2) == 0 {
                    version
                } else {
                    dice.below(100) as u64
                };
                serde_json::to_vec(&json!({"version": v, "action": action})).unwrap()
            }
            // Well-formed JSON of the wrong shape.
            _ => {
                serde_json::to_vec(&json!({"version": "x", "name": [1], "seats": 3, "text": null}))
                    .unwrap()
            }
        };
        let mut request = server.http.post(format!("{}{path}", server.base)).body(raw);
        if dice.below(2) == 0 {
            request = request.header("content-type", "application/json");
        }
        if dice.below(3) > 0 {
            request = request.bearer_auth(&token);
        }
        let response = request.send().await.expect("the server answers");
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        if status.is_client_error() {
            refused += 1;
            assert!(body["code"].is_string(), "a JSON reason: {status} {body}");
        } else {
            assert!(status.is_success(), "{status} {body}");
        }
    }
    assert!(refused > 1000, "refused {refused}");
    let after: Vec<Value> =
        futures_util::future::join_all(tokens.iter().flatten().map(|t| server.state(&id, Some(t))))
            .await;
    assert_eq!(after, before, "the game did not change");
    server.stop().await;
}

/// A Victory Lost is served like VIKTORY: its board (the map and the counters) comes
/// once from `/board`, two bots play it to the end, its record verifies and the
/// history follows the victory points turn by turn. VIKTORY's views carry everything,
/// so its board is `null`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_victory_lost_game_between_bots() {
    let server = TestServer::start(config(&sqlite_url("avl"))).await;
    let (id, _) = server
        .create(json!({
            "game": "avl", "preset": "demo",
            "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
        }))
        .await;
    let (status, board) = server.get(&format!("/api/games/{id}/board"), None).await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let board = &board["board"];
    let hexes = board["hexes"].as_array().unwrap();
    assert!(hexes.len() > 50 && hexes.iter().all(|h| h["label"].is_string()));
    let pieces = board["pieces"].as_array().unwrap();
    assert!(pieces.iter().any(|p| p["kind"] == "hq") && pieces.iter().any(|p| p["kind"] == "unit"));
    assert!(
        board["sides"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["barrier"].is_string())
    );
    let state = server.wait_over(&id, Duration::from_mins(3)).await;
    assert!(state["to_move"]["over"].is_object(), "{}", state["to_move"]);
    let (_, record) = server.get(&format!("/api/games/{id}/record"), None).await;
    let catalog = Catalog::new().with::<avl::Avl>();
    let full: engine::GameRecord<avl::Avl> = serde_json::from_value(record.clone()).unwrap();
    let summary = catalog.for_record(&record).unwrap().verify(record).unwrap();
    // A spectator is told every step but the chits each side chose in secret.
    let told = common::told_points(&full, None);
    assert!(
        told.len() < summary.actions,
        "{} of {}",
        told.len(),
        summary.actions
    );
    assert_eq!(told.len() as u64, state["version"].as_u64().unwrap());
    let (_, history) = server.get(&format!("/api/games/{id}/history"), None).await;
    let points = history["points"].as_array().unwrap();
    assert!(points.len() >= 2, "{history}");
    assert!(
        points
            .iter()
            .all(|p| p["turn"].is_u64() && p["scores"].as_array().is_some_and(|s| s.len() == 2)),
        "{history}"
    );
    // The default preset is the campaign, on its 71 × 50 map.
    let (id, _) = server
        .create(json!({"game": "avl", "seats": [{"name": "Ann"}, {"name": "Bob"}]}))
        .await;
    let (_, board) = server.get(&format!("/api/games/{id}/board"), None).await;
    assert_eq!(
        board["board"]["hexes"].as_array().map(Vec::len),
        Some(71 * 50)
    );
    // VIKTORY's views carry the board themselves.
    let (id, _) = server
        .create(json!({"game": "viktory", "seats": [{"name": "Ann"}, {"name": "Bob"}]}))
        .await;
    let (_, board) = server.get(&format!("/api/games/{id}/board"), None).await;
    assert!(board["board"].is_null(), "{board}");
    server.stop().await;
}
