//! The referee protocol on the toy game `dice-race`: a scripted JSON-lines session
//! through [`Referee::serve`], compared exactly with a golden transcript, and the
//! protocol's promises checked field by field.
//!
//! `dice-race` is a test fixture, not a game players play, so `hexwar referee` does not
//! offer it (it offers `server::catalog`, the games of the lobby). These tests give the
//! referee a catalog of the toy alone: a game small enough that every reply of the
//! transcript can be read and checked by hand, covering every command, every kind of
//! refusal, scripted chance, hidden information in views and the record. The real
//! games' transcripts go through the binary (`crates/cli/tests/referee_avl.rs`).
//!
//! To accept a deliberate change of the transcript, run the test with
//! `UPDATE_GOLDEN=1` and review the diff of `tests/referee/*.out.jsonl`.

use std::path::{Path, PathBuf};

use protocol::{Catalog, Referee};
use serde_json::{Value, json};

fn toy_referee() -> Referee {
    Referee::new(Catalog::new().with::<engine::toy::DiceRace>())
}

/// Runs a referee on `input` as `hexwar referee` would on its stdin: its reply lines.
fn referee(input: &str) -> Vec<String> {
    let mut out = Vec::new();
    toy_referee()
        .serve(input.as_bytes(), &mut out)
        .expect("reading a byte slice cannot fail");
    String::from_utf8(out)
        .expect("replies are UTF-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/referee")
        .join(name)
}

#[test]
fn scripted_dice_race_matches_the_golden_transcript() {
    let input = std::fs::read_to_string(data("dice_race.in.jsonl")).unwrap();
    let replies = referee(&input);
    let requests = input.lines().filter(|l| !l.trim().is_empty()).count();
    assert_eq!(replies.len(), requests, "one reply per request line");
    for reply in &replies {
        let v: Value = serde_json::from_str(reply).expect("every reply is JSON");
        assert!(v["ok"].is_boolean(), "every reply has ok: {reply}");
        if v["ok"] == false {
            let e = &v["error"];
            assert!(
                e["code"].is_string() && e["message"].is_string() && e.get("rule").is_some(),
                "{reply}"
            );
        }
    }
    let golden = data("dice_race.out.jsonl");
    let actual = replies.join("\n") + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &actual).unwrap();
    }
    let expected = std::fs::read_to_string(&golden)
        .expect("golden transcript exists (UPDATE_GOLDEN=1 creates it)");
    for (i, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
        assert_eq!(a, e, "reply to request line {} differs", i + 1);
    }
    assert_eq!(actual.lines().count(), expected.lines().count());
}

/// Replies are matched field by field here, so a reader sees the protocol's promises.
#[test]
fn protocol_promises() {
    let replies: Vec<Value> = referee(
        "{\"cmd\":\"legal\"}\n\
         {\"cmd\":\"new\",\"game\":\"dice-race\",\"seed\":11}\n\
         {\"cmd\":\"apply\",\"action\":{\"type\":\"set_trap\",\"cell\":2}}\n\
         {\"cmd\":\"apply\",\"action\":{\"type\":\"set_trap\",\"cell\":5}}\n\
         {\"cmd\":\"legal\"}\n\
         {\"cmd\":\"apply\",\"action\":{\"type\":\"roll\",\"value\":1}}\n\
         \u{0}\u{1}garbage\n",
    )
    .iter()
    .map(|l| serde_json::from_str(l).unwrap())
    .collect();
    assert_eq!(replies[0]["error"]["code"], "no_game");
    assert_eq!(replies[1]["to_move"], json!({"seat": 0}));
    // Without scripted chance the referee rolls the die itself, right after the
    // second trap, and says so.
    let chance = replies[3]["chance"].as_array().unwrap();
    assert_eq!(chance.len(), 1);
    assert_eq!(chance[0]["type"], "roll");
    assert_eq!(replies[3]["to_move"], json!({"seat": 0}));
    // Every legal action can be sent back unchanged.
    let first = replies[4]["actions"][0].clone();
    assert_eq!(first, json!({"type": "advance", "steps": 1}));
    // A chance action from the caller is refused when the referee owns chance.
    assert_eq!(replies[5]["ok"], false);
    assert_eq!(replies[5]["error"]["code"], "wrong_phase");
    assert_eq!(replies[6]["error"]["code"], "malformed");
}

/// A whole game with the referee rolling the dice: its record replays and verifies
/// through the catalog, the way `hexwar replay` and `hexwar verify` check it, and
/// tampering is reported with the step.
#[test]
fn records_from_the_referee_replay_and_verify() {
    let mut script = String::from("{\"cmd\":\"new\",\"game\":\"dice-race\",\"seed\":\"99\"}\n");
    script.push_str("{\"cmd\":\"apply\",\"action\":{\"type\":\"set_trap\",\"cell\":1}}\n");
    script.push_str("{\"cmd\":\"apply\",\"action\":{\"type\":\"set_trap\",\"cell\":1}}\n");
    // Always advance 1: the longest possible game; enough lines to finish it.
    for _ in 0..40 {
        script.push_str("{\"cmd\":\"apply\",\"action\":{\"type\":\"advance\",\"steps\":1}}\n");
        script.push_str("{\"cmd\":\"apply\",\"action\":{\"type\":\"spare\"}}\n");
    }
    script.push_str("{\"cmd\":\"record\"}\n");
    let replies = referee(&script);
    let last: Value = serde_json::from_str(replies.last().unwrap()).unwrap();
    let record = last["record"].clone();
    assert!(
        record["seed"].is_string(),
        "the seed is revealed once the game is over"
    );
    assert_eq!(record["seed_commitment"].as_str().unwrap().len(), 64);
    let catalog = Catalog::new().with::<engine::toy::DiceRace>();
    let check = |record: &Value, verify: bool| {
        let entry = catalog.for_record(record)?;
        if verify {
            entry.verify(record.clone())
        } else {
            entry.replay(record.clone())
        }
    };
    let verified = check(&record, true).unwrap();
    assert_eq!(verified.chance_verified.map(|n| n > 0), Some(true));
    check(&record, false).unwrap();

    // An illegal step is reported with its index.
    let mut bad = record.clone();
    bad["actions"][2]["action"] = json!({"type": "advance", "steps": 9});
    let err = check(&bad, false).unwrap_err().to_string();
    assert!(err.contains("step 2 is illegal"), "{err}");

    // A die changed to another legal value replays, but fails verification.
    let mut forged = record;
    let actions = forged["actions"].as_array_mut().unwrap();
    let roll = actions.iter_mut().find(|a| a["by"] == "chance").unwrap();
    let v = roll["action"]["value"].as_u64().unwrap();
    roll["action"]["value"] = (v % 6 + 1).into();
    assert!(check(&forged, true).is_err());
}
