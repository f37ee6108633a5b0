//! State answers (`GET /api/games/{id}`) are written once per log version and audience
//! and then sent as written (`Live::shown`, issue 28). They must never be stale, nor
//! another audience's: at points of a game under Dark fog (where every seat sees
//! something different), each audience's answer, asked twice after the others', is
//! compared with the one a freshly started server gives when that audience asks first;
//! and a seat that resigns is offered no action from that moment, at the same version.

mod common;

use common::{Dice, TestServer, config, sqlite_url};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// An answer without its advice, which a fresh server works out again (and which is
/// not what is cached with the view).
fn without_advice(mut answer: Value) -> Value {
    answer
        .as_object_mut()
        .expect("an answer is an object")
        .remove("advice");
    answer
}

/// A new 2-player game on `online` with Dark fog, Ann and Bob at the table: its id and
/// their tokens.
async fn dark_game(server: &TestServer) -> (String, Vec<String>) {
    let (id, tokens) = server
        .create(json!({
            "game": "viktory", "preset": "online", "options": {"dark": true},
            "seats": [{"name": "Ann"}, {"name": "Bob"}]
        }))
        .await;
    (id, tokens.into_iter().flatten().collect())
}

/// Plays up to `actions` random legal actions of whoever is to move.
async fn play_on(
    server: &TestServer,
    id: &str,
    tokens: &[String],
    dice: &mut Dice,
    actions: usize,
) {
    for _ in 0..actions {
        let spectator = server.state(id, None).await;
        let Some(seat) = spectator["to_move"]["seat"].as_u64() else {
            return;
        };
        let token = &tokens[usize::try_from(seat).unwrap()];
        let state = server.state(id, Some(token)).await;
        let legal = state["legal"]
            .as_array()
            .expect("the seat to move has actions");
        let action = &legal[dice.below(legal.len())];
        let version = state["version"].as_u64().unwrap();
        let (status, body) = server.act(id, token, version, action).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn state_answers_are_those_of_a_fresh_server() {
    let url = sqlite_url("state-answers");
    let mut server = TestServer::start(config(&url)).await;
    let (id, tokens) = dark_game(&server).await;
    let audiences: Vec<Option<&str>> = std::iter::once(None)
        .chain(tokens.iter().map(|t| Some(t.as_str())))
        .collect();
    let mut dice = Dice::new(28);
    for round in 0..3 {
        play_on(&server, &id, &tokens, &mut dice, 40).await;
        let mut answers = Vec::new();
        for audience in &audiences {
            let first = server.state(&id, *audience).await;
            let again = server.state(&id, *audience).await;
            assert_eq!(first, again, "round {round}: asked twice, {audience:?}");
            answers.push(without_advice(first));
        }
        // The fog is real: the two seats see different things.
        assert_ne!(answers[1]["view"], answers[2]["view"], "round {round}");
        assert_ne!(answers[0]["view"], answers[1]["view"], "round {round}");
        // A freshly started server has nothing cached: asked first, by this audience
        // alone, it writes the answer anew.
        for (audience, answer) in audiences.iter().zip(&answers) {
            server.stop().await;
            server = TestServer::start(config(&url)).await;
            let fresh = without_advice(server.state(&id, *audience).await);
            assert_eq!(&fresh, answer, "round {round}: {audience:?}");
        }
    }
    // The seat to move resigns: at once, its answer offers nothing to do.
    let seat = server.state(&id, None).await["to_move"]["seat"]
        .as_u64()
        .expect("a seat to move");
    let token = tokens[usize::try_from(seat).unwrap()].as_str();
    let before = server.state(&id, Some(token)).await;
    assert!(!before["legal"].as_array().unwrap().is_empty());
    let (status, body) = server
        .post(&format!("/api/games/{id}/resign"), Some(token), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let after = server.state(&id, Some(token)).await;
    assert_eq!(after["legal"], json!([]), "{after}");
    assert_eq!(after["legal_text"], json!([]));
    assert_eq!(after["can_undo"], json!(false));
    server.stop().await;
}

/// The reply to an acknowledged action, and to a take-back, carries the acting seat's
/// state answer as of its own entry: exactly what that seat's `GET` gives then (the
/// advice included), so the page needs no `GET` after its own move; under Dark fog it
/// is the seat's own answer, not another audience's. A refusal carries none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_carries_the_state_the_seat_would_get() {
    let url = sqlite_url("reply-state");
    let server = TestServer::start(config(&url)).await;
    let (id, tokens) = dark_game(&server).await;
    let mut dice = Dice::new(29);
    let (mut acted, mut undone) = (0, false);
    for _ in 0..60 {
        let spectator = server.state(&id, None).await;
        let Some(seat) = spectator["to_move"]["seat"].as_u64() else {
            break;
        };
        let token = tokens[usize::try_from(seat).unwrap()].as_str();
        let other = tokens[1 - usize::try_from(seat).unwrap()].as_str();
        let state = server.state(&id, Some(token)).await;
        let legal = state["legal"].as_array().expect("the seat to move acts");
        let action = &legal[dice.below(legal.len())];
        let version = state["version"].as_u64().unwrap();
        let (status, body) = server.act(&id, token, version, action).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let carried = &body["state"];
        assert_eq!(carried["version"], body["version"], "{body}");
        assert_eq!(carried["you"], json!(seat));
        assert_eq!(carried, &server.state(&id, Some(token)).await);
        assert_ne!(
            carried["view"],
            server.state(&id, Some(other)).await["view"]
        );
        acted += 1;
        if !undone && carried["can_undo"] == json!(true) {
            let (status, body) = server
                .post(
                    &format!("/api/games/{id}/undo"),
                    Some(token),
                    json!({"version": carried["version"]}),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body["state"]["version"], body["version"]);
            assert_eq!(body["state"], server.state(&id, Some(token)).await);
            undone = true;
        }
    }
    assert!(
        acted >= 20 && undone,
        "{acted} actions, a take-back: {undone}"
    );
    let spectator = server.state(&id, None).await;
    let version = spectator["version"].as_u64().unwrap();
    let (status, body) = server
        .act(&id, &tokens[0], version, &json!({"nonsense": true}))
        .await;
    assert_ne!(status, StatusCode::OK);
    assert!(body.get("state").is_none(), "{body}");
    server.stop().await;
}
