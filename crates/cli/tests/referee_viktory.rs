//! `hexwar referee` plays VIKTORY: a game started from the classic preset, driven through
//! the protocol by a simple program (always the first legal action, with the referee
//! rolling the dice) for several turns, then checked with `hexwar verify`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

#[test]
fn referee_plays_viktory_turns_and_the_record_verifies() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .arg("referee")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |request: Value| -> Value {
        writeln!(stdin, "{request}").unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap()
    };
    let started = ask(
        json!({"cmd":"new","game":"viktory","preset":"classic","players":2,"seed":2026,"options":{"max_turns":4}}),
    );
    assert_eq!(started["ok"], true, "{started}");
    assert!(
        !started["chance"].as_array().unwrap().is_empty(),
        "the referee drew the first player and the start hexes"
    );
    let refused = ask(
        json!({"cmd":"new","game":"viktory","preset":"classic","options":{"terrain_leveling":true,"bogus":1}}),
    );
    assert_eq!(refused["error"]["code"], "invalid_setup");
    let mut turns_seen = 0;
    let mut taken_back = 0;
    for _ in 0..5_000 {
        let legal = ask(json!({"cmd":"legal"}));
        if legal["to_move"].get("over").is_some() {
            break;
        }
        let actions = legal["actions"].as_array().unwrap();
        // Prefer building, moving and fighting over ending the phase, so the game does things.
        let pick = actions
            .iter()
            .find(|a| a["type"] != "end_phase")
            .unwrap_or(&actions[0])
            .clone();
        let mut reply = ask(json!({"cmd":"apply","action":pick}));
        assert_eq!(reply["ok"], true, "{reply}");
        // A plain move can be taken back, and played again: the record is as if it
        // never was (the final `verify` proves the dice were not disturbed).
        if pick["type"] == "move" {
            let undone = ask(json!({"cmd":"undo"}));
            if undone["ok"] == true {
                assert_eq!(
                    undone["version"],
                    json!(reply["version"].as_u64().unwrap() + 1)
                );
                reply = ask(json!({"cmd":"apply","action":pick}));
                assert_eq!(reply["ok"], true, "{reply}");
                taken_back += 1;
            } else {
                assert_eq!(undone["error"]["code"], "nothing_to_undo", "{undone}");
            }
        }
        turns_seen += reply["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["type"] == "turn_started")
            .count();
        if reply["to_move"].get("over").is_some() {
            break;
        }
        // An illegal action is refused with the rule it breaks, and changes nothing.
        let version = reply["version"].clone();
        let bad = ask(json!({"cmd":"apply","action":{"type":"build_town","hex":[9,9]}}));
        assert_eq!(bad["ok"], false);
        assert!(bad["error"]["rule"].is_string(), "{bad}");
        assert_eq!(ask(json!({"cmd":"legal"}))["version"], version);
    }
    assert!(turns_seen >= 8, "several turns were played ({turns_seen})");
    assert!(taken_back > 5, "moves were taken back ({taken_back})");
    let view = ask(json!({"cmd":"view","seat":1}));
    assert!(view["view"]["position"]["towns"].as_array().unwrap().len() >= 2);
    let record = ask(json!({"cmd":"record"}))["record"].clone();
    assert!(
        record["seed"].is_string(),
        "the game is over, the seed is revealed"
    );
    let path = std::env::temp_dir().join(format!("hexwar-viktory-{}.json", std::process::id()));
    std::fs::write(&path, record.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .arg("verify")
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    drop(stdin);
    child.wait().unwrap();
}
