//! `hexwar referee` plays A Victory Lost with scripted chits and dice: a JSON-lines
//! session against the real binary, compared exactly with a golden transcript
//! (`tests/referee/avl.in.jsonl` → `avl.out.jsonl`). It is the worked example of the
//! `avl` section of `docs/protocol.md` and of `docs/avl-scenario.md`.
//!
//! The session loads a made-up 6x5 scenario (given inline as the setup's `scenario`,
//! the JSON form of a scenario file) from its start, scripts every chit draw and die,
//! moves, declares and resolves a combat (10 against 3 in rough terrain: 2-1 after one
//! shift; die 1: DR), retreats, advances into a Victory City, has an impossible attack
//! refused (9.3.4) and plays on to the end of the last turn. Then it loads a position in
//! the middle of a combat (one attacker across a minor river, one out of supply: each
//! halved), rolls a 6 (A1/1) and has the attacker choose his step loss; and it shows a
//! position and a new game refused with every problem listed.
//!
//! The record of the scripted game replays with `hexwar replay`, and `hexwar verify`
//! refuses it: its chance outcomes were chosen by the caller, not drawn from the seed.
//!
//! To accept a deliberate change of the transcript, run the test with
//! `UPDATE_GOLDEN=1` and review the diff of `tests/referee/avl.out.jsonl`.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

mod common;
use common::{hexwar, referee};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/referee")
        .join(name)
}

#[test]
fn scripted_avl_matches_the_golden_transcript() {
    let input = std::fs::read_to_string(data("avl.in.jsonl")).unwrap();
    let requests: Vec<Value> = input
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("every request line is JSON"))
        .collect();
    let lines = referee(&input);
    assert_eq!(lines.len(), requests.len(), "one reply per request line");
    let replies: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("every reply is JSON"))
        .collect();

    let golden = data("avl.out.jsonl");
    let actual = lines.join("\n") + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &actual).unwrap();
    }
    let expected = std::fs::read_to_string(&golden)
        .expect("golden transcript exists (UPDATE_GOLDEN=1 creates it)");
    for (i, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
        assert_eq!(a, e, "reply to request line {} differs", i + 1);
    }
    assert_eq!(actual.lines().count(), expected.lines().count());

    // What the transcript shows, said plainly. Every refusal names its code and rule.
    let refusals: Vec<(String, Value)> = replies
        .iter()
        .filter(|r| r["ok"] == false)
        .map(|r| {
            (
                r["error"]["code"].as_str().unwrap().to_owned(),
                r["error"]["rule"].clone(),
            )
        })
        .collect();
    let expected_refusals = [
        ("not_yours", json!("8.0")),
        ("already_moved", json!("8.1.1")),
        ("nothing_to_undo", Value::Null),
        ("one_combat", json!("9.2")),
        ("die_value", json!("9.4.1")),
        ("retreat_priority", json!("9.5.2")),
        ("not_your_turn", Value::Null),
        ("impossible_odds", json!("9.3.4")),
        ("game_over", Value::Null),
        ("invalid_setup", Value::Null),
        ("not_involved", json!("9.4.2")),
        ("invalid_setup", Value::Null),
    ];
    let expected_refusals: Vec<(String, Value)> = expected_refusals
        .into_iter()
        .map(|(c, r)| (c.to_owned(), r))
        .collect();
    assert_eq!(refusals, expected_refusals);

    let reply_to = |want: &Value| -> &Value {
        let i = requests.iter().position(|r| r == want).unwrap();
        &replies[i]
    };
    // A scripted chit draw: the outcomes, each with its probability; the draw activates
    // the HQ and the combat units in its Command Range.
    let drawn = reply_to(&json!({"cmd":"apply","action":{"draw_chit":{"chit":{"hq":4}}}}));
    assert_eq!(
        drawn["events"][1],
        json!({"activated": {"side": "axis", "hqs": [4], "units": [0, 1]}})
    );
    // The first combat: 10 against 3 is 3-1, shifted once by the rough hex to 2-1.
    let resolved = replies
        .iter()
        .find(|r| r["events"][0].get("odds").is_some())
        .unwrap();
    assert_eq!(
        resolved["events"][0]["odds"],
        json!({"target": [3, 1], "attack": 10, "defense": 3, "column": "2-1"})
    );
    // A die outside 1-6 is refused; a 1 on the 2-1 column is DR.
    let rolled = reply_to(&json!({"cmd":"apply","action":{"die":{"value":1}}}));
    assert_eq!(
        rolled["events"][0]["combat_result"]["result"],
        json!({"attacker_steps": 0, "defender_steps": 0, "retreat": 1})
    );
    assert_eq!(
        rolled["to_move"],
        json!({"seat": 1}),
        "the defender retreats"
    );

    // The loaded combat: the A1 (4) across a minor river and the out-of-supply A2 (6)
    // are each halved: 2 + 3 = 5 against 3, the 1-1 column; a 6 there is A1/1.
    let odds: Vec<&Value> = replies
        .iter()
        .filter_map(|r| r["events"][0].get("odds"))
        .collect();
    assert_eq!(
        odds[1],
        &json!({"target": [3, 2], "attack": 5, "defense": 3, "column": "1-1"})
    );

    // The record of the scripted game replays, but does not verify: the caller chose
    // its chits and dice, not the seed. The seed is revealed because the game is over.
    let record = reply_to(&json!({"cmd":"record"}))["record"].clone();
    assert!(record["seed"].is_string());
    let path =
        std::env::temp_dir().join(format!("hexwar-avl-scripted-{}.json", std::process::id()));
    std::fs::write(&path, record.to_string()).unwrap();
    let out = hexwar().arg("replay").arg(&path).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("all legal; to move: {\"over\""), "{said}");
    let out = hexwar().arg("verify").arg(&path).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the seed gives"), "{err}");
}

/// Every refusal code of the A Victory Lost rules is listed in the `avl` section of
/// `docs/protocol.md`, so a program written from the docs knows them all.
#[test]
fn every_avl_rule_code_is_in_the_protocol_docs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let docs = std::fs::read_to_string(root.join("docs/protocol.md")).unwrap();
    let section = docs
        .split("\n### `avl`\n")
        .nth(1)
        .expect("docs/protocol.md has an `avl` section");
    let mut files = vec![root.join("crates/avl/src")];
    let mut codes = Vec::new();
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for call in ["refuse(", "RuleError::new("] {
            for (at, _) in text.match_indices(call) {
                let rest = text[at + call.len()..].trim_start();
                if let Some(literal) = rest.strip_prefix('"') {
                    let code = &literal[..literal.find('"').unwrap()];
                    codes.push(code.to_owned());
                }
            }
        }
    }
    codes.sort();
    codes.dedup();
    assert!(codes.len() > 40, "found {codes:?}");
    let missing: Vec<&String> = codes
        .iter()
        .filter(|c| !section.contains(&format!("`{c}`")))
        .collect();
    assert!(missing.is_empty(), "not in docs/protocol.md: {missing:?}");
}
