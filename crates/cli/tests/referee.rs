//! `hexwar referee` end to end: a scripted JSON-lines session against the real binary,
//! compared with a golden transcript, plus record replay and verification through the
//! `hexwar replay` and `hexwar verify` commands.
//!
//! To accept a deliberate change of the transcript, run the test with
//! `UPDATE_GOLDEN=1` and review the diff of `tests/referee/*.out.jsonl`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

fn hexwar() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hexwar"))
}

fn referee(input: &str) -> Vec<String> {
    let mut child = hexwar()
        .arg("referee")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("hexwar runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "referee exits cleanly");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Runs the referee on raw bytes; checks that it ends cleanly and returns its replies.
fn referee_bytes(input: &[u8]) -> Vec<Value> {
    let mut child = hexwar()
        .arg("referee")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("hexwar runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Write from another thread: the referee answers while it reads.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    let written = writer.join().unwrap();
    assert!(
        out.status.success(),
        "the referee stopped with {} after {} reply lines",
        out.status,
        out.stdout.iter().filter(|&&b| b == b'\n').count()
    );
    written.expect("the referee reads all its input");
    String::from_utf8(out.stdout)
        .expect("replies are UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("every reply is JSON"))
        .collect()
}

/// The referee never stops on bad input: a line that is not UTF-8 and a line over the
/// 1 MiB limit each get a `malformed` reply, and the requests after them are answered.
/// (Before this test the referee exited with status 1 at the first non-UTF-8 line.)
#[test]
fn bad_bytes_and_huge_lines_get_replies_and_the_referee_goes_on() {
    let mut input: Vec<u8> = Vec::new();
    input.extend_from_slice(b"{\"cmd\":\"new\",\"game\":\"dice-race\",\"seed\":3}\n");
    input.extend_from_slice(b"\xff\xfe{\"cmd\":\"hello\"}\n");
    input.extend_from_slice(b"{\"cmd\":\"view\",\"seat\":\"\xc3\x28\"}\r\n");
    // Over the limit, with a valid request at its start: refused whole.
    input.extend_from_slice(b"{\"cmd\":\"hello\"}");
    input.extend(std::iter::repeat_n(b' ', 1 << 20));
    input.push(b'\n');
    input.extend_from_slice(b"\n   \r\n");
    input.extend_from_slice(
        b"{\"cmd\":\"apply\",\"action\":{\"type\":\"set_trap\",\"cell\":2}}\r\n",
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
    assert_eq!(replies[1]["to_move"], serde_json::json!({"seat": 0}));
    // Without scripted chance the referee rolls the die itself, right after the
    // second trap, and says so.
    let chance = replies[3]["chance"].as_array().unwrap();
    assert_eq!(chance.len(), 1);
    assert_eq!(chance[0]["type"], "roll");
    assert_eq!(replies[3]["to_move"], serde_json::json!({"seat": 0}));
    // Every legal action can be sent back unchanged.
    let first = replies[4]["actions"][0].clone();
    assert_eq!(first, serde_json::json!({"type": "advance", "steps": 1}));
    // A chance action from the caller is refused when the referee owns chance.
    assert_eq!(replies[5]["ok"], false);
    assert_eq!(replies[5]["error"]["code"], "wrong_phase");
    assert_eq!(replies[6]["error"]["code"], "malformed");
}

fn write_temp(name: &str, value: &Value) -> PathBuf {
    let path = std::env::temp_dir().join(format!("hexwar-test-{}-{name}", std::process::id()));
    std::fs::write(&path, serde_json::to_string_pretty(value).unwrap()).unwrap();
    path
}

/// Plays a whole game through the referee with the referee rolling the dice, then
/// checks the record with `hexwar replay` and `hexwar verify`, and that tampering is
/// reported with the step.
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

    let path = write_temp("good.json", &record);
    let out = hexwar().arg("verify").arg(&path).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("chance outcomes come from the committed seed")
    );
    let out = hexwar().arg("replay").arg(&path).output().unwrap();
    assert!(out.status.success());

    // An illegal step is reported with its index.
    let mut bad = record.clone();
    bad["actions"][2]["action"] = serde_json::json!({"type": "advance", "steps": 9});
    let path = write_temp("bad.json", &bad);
    let out = hexwar().arg("replay").arg(&path).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("step 2 is illegal"), "{err}");

    // A die changed to another legal value replays, but fails verification.
    let mut forged = record;
    let actions = forged["actions"].as_array_mut().unwrap();
    let roll = actions.iter_mut().find(|a| a["by"] == "chance").unwrap();
    let v = roll["action"]["value"].as_u64().unwrap();
    roll["action"]["value"] = (v % 6 + 1).into();
    let path = write_temp("forged.json", &forged);
    let out = hexwar().arg("verify").arg(&path).output().unwrap();
    assert!(!out.status.success());
}

/// `presets` lists every game with its presets, player counts and options (kept out of
/// the golden transcript, which would change with every new option).
#[test]
fn presets_list_games_and_options() {
    let replies = referee("{\"cmd\":\"presets\"}\n");
    let v: Value = serde_json::from_str(&replies[0]).unwrap();
    let games = v["games"].as_array().unwrap();
    let names: Vec<&str> = games.iter().map(|g| g["game"].as_str().unwrap()).collect();
    assert_eq!(names, ["viktory", "dice-race"]);
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
