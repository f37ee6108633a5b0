//! What the lobby reads: the catalog (only the options that apply to each preset, their
//! groups, whether e-mail works) and the lists of games (players' names, turn, who
//! decides, the result), kept with each append so that a list never loads a game.

mod common;

use std::time::Duration;

use common::{TestServer, config, sqlite_url};
use reqwest::StatusCode;
use serde_json::{Value, json};
use server::SmtpConfig;

fn preset<'a>(catalog: &'a Value, game: &str, name: &str) -> &'a Value {
    catalog["games"]
        .as_array()
        .expect("games")
        .iter()
        .find(|g| g["game"] == game)
        .and_then(|g| g["presets"].as_array())
        .and_then(|presets| presets.iter().find(|p| p["name"] == name))
        .unwrap_or_else(|| panic!("{game} {name}"))
}

fn option_names(preset: &Value) -> Vec<String> {
    preset["options"]
        .as_array()
        .expect("options")
        .iter()
        .map(|o| o["name"].as_str().expect("a name").to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_catalog_offers_each_preset_its_own_options_and_says_whether_email_works() {
    let server = TestServer::start(config(&sqlite_url("catalog-options"))).await;
    let (status, catalog) = server.get("/api/catalog", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(catalog["email"], json!(false), "no SMTP configured");
    let classic = option_names(preset(&catalog, "viktory", "classic"));
    let expansion = option_names(preset(&catalog, "viktory", "expansion"));
    let online = option_names(preset(&catalog, "viktory", "online"));
    for name in ["build_actions", "combat_supply", "metropolis", "dark"] {
        assert!(!classic.iter().any(|n| n == name), "classic offers {name}");
    }
    assert!(expansion.iter().any(|n| n == "combat_supply"));
    assert!(!expansion.iter().any(|n| n == "dark"));
    assert!(online.iter().any(|n| n == "dark"));
    for option in preset(&catalog, "viktory", "classic")["options"]
        .as_array()
        .expect("options")
    {
        assert!(
            ["variants", "victory", "advanced"].contains(&option["group"].as_str().unwrap_or("")),
            "{option}"
        );
    }
    server.stop().await;

    let mut with_smtp = config(&sqlite_url("catalog-email"));
    with_smtp.smtp = Some(SmtpConfig {
        host: "127.0.0.1".into(),
        port: 2525,
        credentials: None,
        from: "hexwar@localhost".into(),
        plain: true,
    });
    let server = TestServer::start(with_smtp).await;
    let (_, catalog) = server.get("/api/catalog", None).await;
    assert_eq!(catalog["email"], json!(true));
    server.stop().await;
}

fn listed<'a>(list: &'a Value, id: &str) -> &'a Value {
    list["games"]
        .as_array()
        .expect("games")
        .iter()
        .find(|g| g["id"] == id)
        .unwrap_or_else(|| panic!("{id} is listed in {list}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_show_names_turn_who_decides_and_the_result() {
    lists_follow_the_games(&sqlite_url("lists")).await;
}

/// The same on PostgreSQL (the append's `CASE` and `COALESCE` with typed parameters).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_show_the_same_on_postgres() {
    lists_follow_the_games(&common::pg_url()).await;
}

async fn lists_follow_the_games(database: &str) {
    let server = TestServer::start(config(database)).await;
    // A fresh game: the turn and the seat to decide (drawn by the dice) that its
    // spectators see.
    let (id, tokens) = server
        .create(json!({"game": "viktory", "preset": "classic",
            "seats": [{"name": "Ann"}, {"name": "Bob"}]}))
        .await;
    let (_, list) = server.get("/api/games?status=running", None).await;
    let game = listed(&list, &id);
    let spectator = server.state(&id, None).await;
    assert_eq!(
        game["turn"], spectator["view"]["position"]["turn"]["number"],
        "{game}"
    );
    assert!(game["turn"].is_u64(), "{game}");
    assert_eq!(game["to_move"], spectator["to_move"], "{game}");
    let first = spectator["to_move"]["seat"]
        .as_u64()
        .expect("a seat decides");
    let token = tokens[usize::try_from(first).expect("a seat")].clone();
    assert_eq!(game["seats"][1]["name"], "Bob");
    assert_eq!(game["result"], Value::Null);
    // After the first action the list says what the game says to a spectator.
    let state = server.state(&id, token.as_deref()).await;
    let action = state["legal"][0].clone();
    let version = state["version"].as_u64().expect("a version");
    let (status, ack) = server
        .act(&id, token.as_deref().expect("a person"), version, &action)
        .await;
    assert_eq!(status, StatusCode::OK, "{ack}");
    let spectator = server.state(&id, None).await;
    let (_, list) = server.get("/api/games?status=running", None).await;
    let game = listed(&list, &id);
    assert_eq!(game["to_move"], spectator["to_move"], "{game}");
    assert_eq!(
        game["turn"], spectator["view"]["position"]["turn"]["number"],
        "{game}"
    );
    // The other seat resigns: the game is over and the list names the winner.
    let (status, _) = server
        .post(
            &format!("/api/games/{id}/resign"),
            tokens[usize::from(first == 0)].as_deref(),
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, list) = server.get("/api/games?status=over", None).await;
    let game = listed(&list, &id);
    assert_eq!(game["result"]["winners"], json!([first]), "{game}");

    // Two bots play a short game to its end: the list follows the turns without
    // loading the game, then names the result the rules gave.
    let (bots, _) = server
        .create(json!({"game": "viktory", "preset": "classic",
            "options": {"max_turns": 2},
            "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]}))
        .await;
    let over = server.wait_over(&bots, Duration::from_secs(90)).await;
    let (_, list) = server.get("/api/games?status=over", None).await;
    let game = listed(&list, &bots);
    assert_eq!(game["to_move"], over["to_move"], "{game}");
    assert_eq!(game["result"], over["to_move"]["over"], "{game}");
    assert!(game["turn"].as_u64().is_some_and(|t| t >= 2), "{game}");
    server.stop().await;
}
