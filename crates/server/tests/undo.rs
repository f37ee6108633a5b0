//! Taking back moves over HTTP (`POST /api/games/{id}/undo`): a whole game in which the
//! players often take moves back. The take-back restores the seat's view exactly, is a
//! log entry of its own (versions only grow), survives a restart, reaches live
//! listeners, and never touches a die: the finished record verifies against the seed.

mod common;

use std::time::Duration;

use common::{Dice, TestServer, config, listen, sqlite_url, wait_heard};
use protocol::Catalog;
use reqwest::StatusCode;
use serde_json::{Value, json};

async fn undo(server: &TestServer, id: &str, token: &str, version: u64) -> (StatusCode, Value) {
    server
        .post(
            &format!("/api/games/{id}/undo"),
            Some(token),
            json!({ "version": version }),
        )
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn take_backs_in_a_whole_game() {
    let url = sqlite_url("undo");
    let server = TestServer::start(config(&url)).await;
    let (id, tokens) = server
        .create(json!({
            "game": "viktory", "preset": "classic", "options": {"max_turns": 20},
            "seats": [{"name": "Ann"}, {"name": "Bob"}]
        }))
        .await;
    let tokens: Vec<String> = tokens.into_iter().flatten().collect();
    let spectator = listen(&server, &id, None, Some(0)).await;
    let mut dice = Dice::new(5);
    let (mut taken_back, mut refused) = (0u64, 0u64);
    'game: for _ in 0..100_000 {
        for (seat, token) in tokens.iter().enumerate() {
            let state = server.state(&id, Some(token)).await;
            if state["status"] == "over" {
                break 'game;
            }
            let legal = state["legal"].as_array().unwrap().clone();
            if legal.is_empty() {
                assert_eq!(
                    state["can_undo"],
                    json!(false),
                    "only the seat to move may undo"
                );
                let (status, body) =
                    undo(&server, &id, token, state["version"].as_u64().unwrap()).await;
                assert_eq!(status, StatusCode::CONFLICT, "{body}");
                continue;
            }
            let version = state["version"].as_u64().unwrap();
            let busy: Vec<&Value> = legal.iter().filter(|a| a["type"] != "end_phase").collect();
            let action = if busy.is_empty() || dice.below(8) == 0 {
                &legal[dice.below(legal.len())]
            } else {
                busy[dice.below(busy.len())]
            };
            let (status, ack) = server.act(&id, token, version, action).await;
            assert_eq!(status, StatusCode::OK, "{action}: {ack}");
            let after = server.state(&id, Some(token)).await;
            let v = after["version"].as_u64().unwrap();
            if dice.below(3) != 0 {
                continue;
            }
            let (status, body) = undo(&server, &id, token, v).await;
            if after["can_undo"] == json!(true) {
                assert_eq!(status, StatusCode::OK, "{body}");
                assert_eq!(
                    body["version"],
                    json!(v + 1),
                    "the take-back is one log entry"
                );
                let back = server.state(&id, Some(token)).await;
                assert_eq!(
                    back["view"], state["view"],
                    "seat {seat}'s view is as before {action}"
                );
                assert_eq!(back["legal"], state["legal"]);
                assert_eq!(back["to_move"], state["to_move"]);
                // A stale take-back changes nothing.
                let (status, body) = undo(&server, &id, token, v).await;
                assert_eq!(status, StatusCode::CONFLICT, "{body}");
                assert_eq!(body["code"], "stale_version");
                taken_back += 1;
            } else {
                assert_eq!(status, StatusCode::CONFLICT, "{body}");
                let mine = after["to_move"]["seat"] == json!(seat);
                let code = match (after["status"] == "over", mine) {
                    (true, _) => "game_over",
                    (false, true) => "nothing_to_undo",
                    (false, false) => "not_your_turn",
                };
                assert_eq!(body["code"], code, "{}", after["to_move"]);
                assert_eq!(
                    server.state(&id, Some(token)).await["version"],
                    json!(v),
                    "a refused take-back changes nothing"
                );
                refused += 1;
            }
        }
    }
    let state = server.wait_over(&id, Duration::from_secs(5)).await;
    let version = state["version"].as_u64().unwrap();
    eprintln!("take-backs: {taken_back} taken, {refused} refused, {version} log entries");
    assert!(
        taken_back > 20 && refused > 5,
        "{taken_back} taken back, {refused} refused"
    );
    // The record holds only the actions that stand; every die comes from the seed.
    let (_, record) = server.get(&format!("/api/games/{id}/record"), None).await;
    let actions = record["actions"].as_array().unwrap().len() as u64;
    assert_eq!(actions + 2 * taken_back, version);
    let catalog = Catalog::new().with::<viktory::Viktory>();
    let summary = catalog
        .for_record(&record)
        .unwrap()
        .verify(record.clone())
        .unwrap();
    assert!(summary.chance_verified.unwrap() > 0);
    // A spectator heard every step and every take-back; replaying them gives the record.
    wait_heard(&spectator, version).await;
    // Indexes are in the spectator's own numbering: a step's index is how many steps
    // it was told before it; a take-back names the step it takes back.
    let mut standing: Vec<u64> = Vec::new();
    let mut told = 0;
    for message in spectator
        .lock()
        .unwrap()
        .iter()
        .filter(|m| m["type"] == "actions")
    {
        for step in message["steps"].as_array().unwrap() {
            let index = step["index"].as_u64().unwrap();
            if step["undo"] == json!(true) {
                assert_eq!(
                    standing.pop(),
                    Some(index),
                    "the last standing step is taken back"
                );
            } else {
                assert_eq!(index, told, "steps arrive in order");
                standing.push(index);
            }
            told += 1;
        }
    }
    assert_eq!(
        told, version,
        "in the classic rules a spectator is told every step"
    );
    assert_eq!(standing.len() as u64, actions);
    // A restarted server rebuilds the same game from its log.
    let views: Vec<Value> = {
        let mut v = Vec::new();
        for token in &tokens {
            v.push(server.state(&id, Some(token)).await);
        }
        v
    };
    server.stop().await;
    let server = TestServer::start(config(&url)).await;
    for (token, before) in tokens.iter().zip(&views) {
        let again = server.state(&id, Some(token)).await;
        assert_eq!(again["view"], before["view"]);
        assert_eq!(again["version"], before["version"]);
    }
    // The score history counts versions as the log does.
    let (_, history) = server.get(&format!("/api/games/{id}/history"), None).await;
    let last = history["points"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["version"], json!(version), "{last}");
    // Replays start from checkpoints (every 256 log entries), across take-backs: the
    // game at its last version is the game as it stands, and the steps after any
    // version are the tail of the steps after 0.
    assert!(version > 512, "the game crosses checkpoints: {version}");
    let (_, now) = server
        .get(&format!("/api/games/{id}/at/{version}"), None)
        .await;
    assert_eq!(now["view"], server.state(&id, None).await["view"]);
    let (_, all) = server
        .get(&format!("/api/games/{id}/steps?since=0"), None)
        .await;
    let all = all["steps"].as_array().unwrap().clone();
    for since in (0..version).step_by(97) {
        let (_, tail) = server
            .get(&format!("/api/games/{id}/steps?since={since}"), None)
            .await;
        assert_eq!(
            tail["steps"].as_array().unwrap().as_slice(),
            &all[usize::try_from(since).unwrap()..],
            "steps since {since}"
        );
    }
    // Catching up from the start hears the same story.
    let late = listen(&server, &id, None, Some(0)).await;
    wait_heard(&late, version).await;
    server.stop().await;
}
