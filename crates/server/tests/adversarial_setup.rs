//! Attacks on the server through setups (issue 24, hole 7): a setup from outside is
//! validated whole, never panics the engine. Failed before its fix; see the commit.

mod common;

use common::{TestServer, config, sqlite_url};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Hole 7: an Expansion setup whose `reveals` held 80 copies of one hex panicked the
/// engine (`GameRng::below(0)`), and `POST /api/games` dropped the connection. A setup
/// from outside is validated whole: the answer is `invalid_setup`, and the server goes
/// on serving.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_setup_with_duplicate_reveals_is_refused() {
    let server = TestServer::start(config(&sqlite_url("reveals"))).await;
    let request = engine::NewGame {
        preset: Some("expansion".into()),
        players: Some(2),
        ..engine::NewGame::default()
    };
    let setup = <viktory::Viktory as engine::Game>::new_setup(&request).expect("a setup");
    let mut setup = serde_json::to_value(&setup).expect("JSON");
    setup["reveals"] = json!(vec![[0, 0]; 80]);
    let (status, body) = server
        .post(
            "/api/games",
            None,
            json!({"game": "viktory", "setup": setup, "seats": [{"name": "Ann"}, {"name": "Ben"}]}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "invalid_setup", "{body}");
    let (status, _) = server.get("/healthz", None).await;
    assert_eq!(status, StatusCode::OK);
    server.stop().await;
}

/// Hole 3: rule options took anything a byte holds (`attack_dice` 200, or 128 + 128
/// wrapping to 0), and with a big battle pending one `GET` ran 14–28 s of exact odds on
/// the async runtime. Every numeric option now has a documented range, shown by the
/// catalog and checked at setup: `invalid_setup` names the option and the range.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rule_options_out_of_range_are_refused() {
    let server = TestServer::start(config(&sqlite_url("options"))).await;
    let (_, catalog) = server.get("/api/catalog", None).await;
    let viktory = catalog["games"]
        .as_array()
        .expect("games")
        .iter()
        .find(|g| g["game"] == "viktory")
        .expect("VIKTORY")
        .clone();
    let classic = viktory["presets"]
        .as_array()
        .expect("presets")
        .iter()
        .find(|p| p["name"] == "classic")
        .expect("classic")
        .clone();
    // An option's value with `value` where a number goes (per unit kind: infantry's).
    let with = |name: &str, value: &Value| -> Value {
        let default = classic["options"]
            .as_array()
            .expect("options")
            .iter()
            .find(|o| o["name"] == name)
            .unwrap_or_else(|| panic!("classic has {name}"))["default"]
            .clone();
        match default {
            Value::Object(mut kinds) => {
                kinds.insert("infantry".into(), value.clone());
                Value::Object(kinds)
            }
            _ => value.clone(),
        }
    };
    for preset in viktory["presets"].as_array().expect("presets") {
        for option in preset["options"].as_array().expect("options") {
            if option["kind"] == "number" {
                assert!(
                    option["min"].is_i64() && option["max"].is_i64(),
                    "{} of {} shows no range: {option}",
                    option["name"],
                    preset["name"]
                );
            }
        }
    }
    for (name, value) in [
        ("attack_dice", json!(200)),
        ("attack_dice", json!(0)),
        ("defense_dice", json!(128)),
        ("pre_battle_fire", json!(255)),
        ("strong_terrain_dice", json!(128)),
        ("naval_support_dice", json!(128)),
    ] {
        let (status, body) = server
            .post(
                "/api/games",
                None,
                json!({
                    "game": "viktory", "preset": "classic", "options": {name: with(name, &value)},
                    "seats": [{"name": "Ann"}, {"name": "Ben"}]
                }),
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{name}: {body}");
        assert_eq!(body["code"], "invalid_setup", "{body}");
        let said = body.to_string();
        assert!(said.contains(name) && said.contains(" to "), "{body}");
    }
    server.stop().await;
}
