//! `hexwar referee` end to end, as a process: it never stops on bad input and it lists
//! its games with their presets and options.
//!
//! The protocol's golden transcript on the toy game `dice-race` (a test fixture the
//! binary does not offer) is `crates/protocol/tests/referee_transcript.rs`; the real
//! games' are `referee_avl.rs` (A Victory Lost, scripted chits and dice) and
//! `referee_viktory.rs`; `games.rs` checks that every entry point lists the same games.

use serde_json::Value;

mod common;
use common::referee;

/// Runs the referee on raw bytes; checks that it ends cleanly and returns its replies.
fn referee_bytes(input: &[u8]) -> Vec<Value> {
    common::referee_bytes(input)
        .iter()
        .map(|l| serde_json::from_str(l).expect("every reply is JSON"))
        .collect()
}

/// The referee never stops on bad input: a line that is not UTF-8 and a line over the
/// 1 MiB limit each get a `malformed` reply, and the requests after them are answered.
/// (Before this test the referee exited with status 1 at the first non-UTF-8 line.)
#[test]
fn bad_bytes_and_huge_lines_get_replies_and_the_referee_goes_on() {
    let mut input: Vec<u8> = Vec::new();
    input.extend_from_slice(b"{\"cmd\":\"new\",\"game\":\"avl\",\"preset\":\"demo\",\"seed\":3}\n");
    input.extend_from_slice(b"\xff\xfe{\"cmd\":\"hello\"}\n");
    input.extend_from_slice(b"{\"cmd\":\"view\",\"seat\":\"\xc3\x28\"}\r\n");
    // Over the limit, with a valid request at its start: refused whole.
    input.extend_from_slice(b"{\"cmd\":\"hello\"}");
    input.extend(std::iter::repeat_n(b' ', 1 << 20));
    input.push(b'\n');
    input.extend_from_slice(b"\n   \r\n");
    // The Soviet player secretly chooses the chit of the 1GdA (piece 22, 3.0).
    input.extend_from_slice(
        b"{\"cmd\":\"apply\",\"action\":{\"choose_chit\":{\"chit\":{\"hq\":22}}}}\r\n",
    );
    // The last line has no newline.
    input.extend_from_slice(b"{\"cmd\":\"legal\"}");
    let replies = referee_bytes(&input);
    let codes: Vec<&str> = replies
        .iter()
        .map(|r| r["error"]["code"].as_str().unwrap_or("ok"))
        .collect();
    assert_eq!(
        codes,
        ["ok", "malformed", "malformed", "malformed", "ok", "ok"],
        "{replies:?}"
    );
    assert!(
        replies[1]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not UTF-8"),
        "{}",
        replies[1]
    );
    assert!(
        replies[3]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 1048576 bytes"),
        "{}",
        replies[3]
    );
    // The game went on as if the bad lines had not been there.
    assert_eq!(replies[4]["version"], 1);
    assert_eq!(replies[5]["to_move"], serde_json::json!({"seat": 1}));
}

/// `presets` lists every game with its presets, player counts and options (kept out of
/// the golden transcripts, which would change with every new option).
#[test]
fn presets_list_games_and_options() {
    let replies = referee("{\"cmd\":\"presets\"}\n");
    let v: Value = serde_json::from_str(&replies[0]).unwrap();
    let games = v["games"].as_array().unwrap();
    let names: Vec<&str> = games.iter().map(|g| g["game"].as_str().unwrap()).collect();
    assert_eq!(names, ["viktory", "avl"]);
    // A Victory Lost: the campaign first (the default), then the demo; two players;
    // the 15.0 play balance options, each true or false, off by default.
    let avl = games[1]["presets"].as_array().unwrap();
    let avl_names: Vec<&str> = avl.iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(avl_names, ["campaign", "demo"]);
    for preset in avl {
        assert_eq!(
            (
                preset["min_players"].as_u64(),
                preset["max_players"].as_u64()
            ),
            (Some(2), Some(2))
        );
        let options = preset["options"].as_array().unwrap();
        assert!(options.iter().any(|o| o["name"] == "german_mech_5vp"));
        assert!(
            options
                .iter()
                .all(|o| o["default"] == false && o["kind"] == "bool"),
            "{preset}"
        );
    }
    let presets = games[0]["presets"].as_array().unwrap();
    let classic = presets.iter().find(|p| p["name"] == "classic").unwrap();
    assert_eq!(
        (
            classic["min_players"].as_u64(),
            classic["max_players"].as_u64()
        ),
        (Some(2), Some(6))
    );
    let options = classic["options"].as_array().unwrap();
    let max_turns = options.iter().find(|o| o["name"] == "max_turns").unwrap();
    assert!(max_turns["default"].is_null() && max_turns["description"].is_string());
    let v1 = presets.iter().find(|p| p["name"] == "viktory1").unwrap();
    let slow = v1["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "slow_terrain")
        .unwrap();
    assert_eq!(
        slow["default"], false,
        "options show the preset's own defaults"
    );
}
