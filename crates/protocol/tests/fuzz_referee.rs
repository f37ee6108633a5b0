//! A property test of the referee against anything a program could send it: random
//! bytes, random JSON, every command (`hello`, `presets`, `new`, `load`, `legal`,
//! `apply`, `undo`, `view`, `state`, `setup`, `record`) well formed and mutated, and
//! legal actions picked from the game as it goes, so sessions reach every phase of
//! `dice-race`. For every script it checks that:
//!
//! - every non-blank line gets exactly one reply, through [`Referee::serve`] as through
//!   [`Referee::handle_bytes`], and the referee never panics;
//! - every reply is a JSON object with `ok`, and every refusal has `code`, `message`
//!   and `rule`;
//! - a refused request changes nothing: the state, the legal actions, the setup, the
//!   record (seed included), every seat's and the spectator's view and the version are
//!   identical before and after; so are they after any read-only command.
//!
//! It runs 256 scripts by default (a few seconds). For a longer run:
//!
//! ```sh
//! PROPTEST_CASES=100000 cargo test -p protocol --test fuzz_referee --release
//! ```

use std::io::BufRead;

use proptest::prelude::*;
use protocol::{Catalog, Referee};
use serde_json::{Map, Value, json};

fn new_referee() -> Referee {
    Referee::new(Catalog::new().with::<engine::toy::DiceRace>())
}

/// Everything a refused request must leave as it was.
fn snapshot(referee: &mut Referee) -> Vec<String> {
    [
        r#"{"cmd":"state"}"#,
        r#"{"cmd":"legal"}"#,
        r#"{"cmd":"setup"}"#,
        r#"{"cmd":"record","reveal_seed":true}"#,
        r#"{"cmd":"view"}"#,
        r#"{"cmd":"view","seat":0}"#,
        r#"{"cmd":"view","seat":1}"#,
    ]
    .iter()
    .map(|request| referee.handle_line(request))
    .collect()
}

/// One line of a script.
#[derive(Clone, Debug)]
enum Gen {
    /// Sent as is.
    Bytes(Vec<u8>),
    /// Sent as JSON text.
    Json(Value),
    /// One of the legal actions at the time (index modulo their number), applied with
    /// the request mutated by `mutation` (none: as listed).
    Legal {
        pick: usize,
        mutation: Option<Mutation>,
    },
}

/// A change to a well-formed request.
#[derive(Clone, Debug)]
enum Mutation {
    /// Remove the key at this index (modulo the keys).
    Remove(usize),
    /// Add or replace a key with a value.
    Set(String, Value),
    /// Replace the value at this index (modulo the keys), at any depth below the top.
    Deep(usize, Value),
    /// Flip, insert or delete one byte of the JSON text.
    Byte(usize, u8, u8),
    /// Cut the JSON text at this length.
    Truncate(usize),
}

/// Names that requests use, so random objects often hit real fields.
const KEYS: &[&str] = &[
    "cmd",
    "game",
    "preset",
    "options",
    "players",
    "seed",
    "scripted_chance",
    "seats",
    "game_id",
    "setup",
    "action",
    "seat",
    "reveal_seed",
    "type",
    "cell",
    "value",
    "steps",
    "length",
    "positions",
    "traps",
    "turn",
    "phase",
    "hidden",
    "revealed",
    "move",
    "roll",
    "won",
    "place_trap",
];

const COMMANDS: &[&str] = &[
    "hello", "presets", "new", "load", "legal", "apply", "undo", "view", "state", "setup",
    "record", "", "HELLO", "fly",
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(KEYS).prop_map(str::to_owned),
        1 => prop::sample::select(COMMANDS).prop_map(str::to_owned),
        2 => prop::collection::vec(any::<char>(), 0..12).prop_map(String::from_iter),
        1 => Just("\u{0}".to_owned()),
        1 => Just("dice-race".to_owned()),
        1 => Just("standard".to_owned()),
        1 => Just("\u{202e}\u{feff}é\u{1f3b2}".to_owned()),
    ]
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => (0u64..12).prop_map(Value::from),
        1 => any::<u64>().prop_map(Value::from),
        1 => any::<i64>().prop_map(Value::from),
        1 => any::<f64>().prop_map(|f| json!(f)),
        1 => prop::sample::select(vec![
            json!(-1),
            json!(255),
            json!(256),
            json!(65536),
            json!(u64::MAX),
            json!(i64::MIN),
            json!(1e300),
            json!(-0.0),
            json!(0.5),
        ]),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((text(), inner), 0..6)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn seat() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => (0u64..3).prop_map(Value::from),
        1 => Just(Value::Null),
        1 => number(),
    ]
}

fn trap() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!("unset")),
        Just(json!("spent")),
        (0u64..12).prop_map(|c| json!({"hidden": c})),
        (0u64..12).prop_map(|c| json!({"revealed": c})),
    ]
}

fn phase() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0u64..3).prop_map(|s| json!({"place_trap": s})),
        Just(json!("roll")),
        (0u64..8).prop_map(|r| json!({"move": {"roll": r}})),
        Just(json!("trap")),
        (0u64..3).prop_map(|s| json!({"won": s})),
    ]
}

fn setup() -> impl Strategy<Value = Value> {
    (
        prop_oneof![3 => 3u64..12, 1 => 0u64..300],
        (0u64..12, 0u64..12),
        (trap(), trap()),
        0u64..3,
        phase(),
    )
        .prop_map(|(length, (a, b), (ta, tb), turn, phase)| {
            json!({"length": length, "positions": [a, b], "traps": [ta, tb], "turn": turn, "phase": phase})
        })
}

fn action() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0u64..12).prop_map(|c| json!({"type": "set_trap", "cell": c})),
        (0u64..8).prop_map(|v| json!({"type": "roll", "value": v})),
        (0u64..8).prop_map(|n| json!({"type": "advance", "steps": n})),
        Just(json!({"type": "spring"})),
        Just(json!({"type": "spare"})),
    ]
}

fn seed() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0u64..5).prop_map(Value::from),
        Just(json!(
            "00000000000000000000000000000000000000000000000000000000000000ff"
        )),
        Just(json!("7")),
        Just(json!("zz")),
        Just(json!(-3)),
    ]
}

/// A well-formed request of each command (its values may still be refused).
fn request() -> impl Strategy<Value = Value> {
    let new = (
        prop::option::of(prop_oneof![
            Just(json!("standard")),
            text().prop_map(Value::from)
        ]),
        prop::option::of(prop_oneof![
            (0u64..60).prop_map(|n| json!({"length": n})),
            json_value(),
        ]),
        prop::option::of(0u64..4),
        prop::option::of(seed()),
        any::<bool>(),
        prop::option::of(prop::collection::vec(text(), 0..3)),
    )
        .prop_map(|(preset, options, players, seed, scripted, seats)| {
            let mut r = json!({"cmd": "new", "game": "dice-race", "scripted_chance": scripted});
            for (key, value) in [
                ("preset", preset),
                ("options", options),
                ("players", players.map(Value::from)),
                ("seed", seed),
                ("seats", seats.map(Value::from)),
            ] {
                if let Some(value) = value {
                    r[key] = value;
                }
            }
            r
        });
    let load =
        (setup(), prop::option::of(seed()), any::<bool>()).prop_map(|(setup, seed, scripted)| {
            let mut r = json!({"cmd": "load", "game": "dice-race", "setup": setup,
                "scripted_chance": scripted, "game_id": "fuzz"});
            if let Some(seed) = seed {
                r["seed"] = seed;
            }
            r
        });
    let apply = (action(), prop::option::of(seat())).prop_map(|(action, seat)| {
        let mut r = json!({"cmd": "apply", "action": action});
        if let Some(seat) = seat {
            r["seat"] = seat;
        }
        r
    });
    let view = prop::option::of(seat()).prop_map(|seat| match seat {
        Some(seat) => json!({"cmd": "view", "seat": seat}),
        None => json!({"cmd": "view"}),
    });
    prop_oneof![
        1 => Just(json!({"cmd": "hello"})),
        1 => Just(json!({"cmd": "presets"})),
        3 => new,
        3 => load,
        2 => Just(json!({"cmd": "legal"})),
        6 => apply,
        3 => Just(json!({"cmd": "undo"})),
        1 => view,
        1 => Just(json!({"cmd": "state"})),
        1 => Just(json!({"cmd": "setup"})),
        1 => any::<bool>().prop_map(|reveal| json!({"cmd": "record", "reveal_seed": reveal})),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Remove),
        (text(), json_value()).prop_map(|(k, v)| Mutation::Set(k, v)),
        (any::<usize>(), json_value()).prop_map(|(i, v)| Mutation::Deep(i, v)),
        (any::<usize>(), any::<u8>(), any::<u8>()).prop_map(|(i, op, b)| Mutation::Byte(i, op, b)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn line() -> impl Strategy<Value = Gen> {
    prop_oneof![
        2 => prop::collection::vec(any::<u8>(), 0..48).prop_map(Gen::Bytes),
        2 => json_value().prop_map(Gen::Json),
        6 => request().prop_map(Gen::Json),
        4 => (request(), mutation()).prop_map(|(r, m)| Gen::Bytes(mutate(r, &m))),
        8 => (any::<usize>(), prop::option::weighted(0.2, mutation()))
            .prop_map(|(pick, mutation)| Gen::Legal { pick, mutation }),
    ]
}

/// The JSON pointer of every value below the top of `value`, depth first.
fn paths(value: &Value, prefix: &str, out: &mut Vec<String>) {
    let children: Vec<(String, &Value)> = match value {
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| (k.replace('~', "~0").replace('/', "~1"), v))
            .collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (i.to_string(), v))
            .collect(),
        _ => Vec::new(),
    };
    for (key, child) in children {
        let path = format!("{prefix}/{key}");
        out.push(path.clone());
        paths(child, &path, out);
    }
}

/// The request `request` changed by `mutation`, as a line.
fn mutate(mut request: Value, mutation: &Mutation) -> Vec<u8> {
    match mutation {
        Mutation::Remove(i) => {
            if let Value::Object(map) = &mut request
                && !map.is_empty()
            {
                let key = map.keys().nth(i % map.len()).cloned().unwrap_or_default();
                map.remove(&key);
            }
        }
        Mutation::Set(key, value) => {
            if let Value::Object(map) = &mut request {
                map.insert(key.clone(), value.clone());
            }
        }
        Mutation::Deep(i, value) => {
            let mut targets = Vec::new();
            paths(&request, "", &mut targets);
            if !targets.is_empty()
                && let Some(slot) = request.pointer_mut(&targets[i % targets.len()])
            {
                *slot = value.clone();
            }
        }
        Mutation::Byte(i, op, b) => {
            let mut bytes = request.to_string().into_bytes();
            let at = i % (bytes.len() + 1);
            match op % 3 {
                0 if at < bytes.len() => bytes[at] ^= b.max(&1),
                1 => bytes.insert(at, *b),
                _ if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => {}
            }
            return bytes;
        }
        Mutation::Truncate(i) => {
            let mut bytes = request.to_string().into_bytes();
            bytes.truncate(i % (bytes.len() + 1));
            return bytes;
        }
    }
    request.to_string().into_bytes()
}

/// The bytes of a script line: no newline inside (it would make two lines).
fn bytes_of(referee: &mut Referee, item: &Gen) -> Vec<u8> {
    let mut bytes = match item {
        Gen::Bytes(bytes) => bytes.clone(),
        Gen::Json(value) => value.to_string().into_bytes(),
        Gen::Legal { pick, mutation } => {
            let legal: Value =
                serde_json::from_str(&referee.handle_line(r#"{"cmd":"legal"}"#)).unwrap();
            let actions = legal["actions"].as_array().cloned().unwrap_or_default();
            let action = if actions.is_empty() {
                json!({"type": "spare"})
            } else {
                actions[pick % actions.len()].clone()
            };
            let request = json!({"cmd": "apply", "action": action});
            match mutation {
                Some(m) => mutate(request, m),
                None => request.to_string().into_bytes(),
            }
        }
    };
    for b in &mut bytes {
        if *b == b'\n' {
            *b = b' ';
        }
    }
    bytes
}

/// Whether `serve` skips the line (blank once a trailing `\r` is dropped).
fn blank(line: &[u8]) -> bool {
    line.strip_suffix(b"\r")
        .unwrap_or(line)
        .trim_ascii()
        .is_empty()
}

const READ_ONLY: &[&str] = &[
    "hello", "presets", "legal", "view", "state", "setup", "record",
];

fn check_reply(line: &[u8], reply: &str) -> Result<bool, TestCaseError> {
    let value: Value = serde_json::from_str(reply)
        .map_err(|e| TestCaseError::fail(format!("reply is not JSON ({e}): {reply}")))?;
    let ok = value["ok"]
        .as_bool()
        .ok_or_else(|| TestCaseError::fail(format!("reply without ok: {reply}")))?;
    if !ok {
        let error = &value["error"];
        prop_assert!(
            error["code"].is_string()
                && error["message"].is_string()
                && error.get("rule").is_some(),
            "refusal without code, message and rule for {:?}: {reply}",
            String::from_utf8_lossy(line)
        );
    }
    Ok(ok)
}

fn run_script(script: &[Gen]) -> Result<(), TestCaseError> {
    let mut referee = new_referee();
    let mut lines: Vec<Vec<u8>> = Vec::new();
    let mut replies: Vec<String> = Vec::new();
    for item in script {
        let line = bytes_of(&mut referee, item);
        lines.push(line.clone());
        if blank(&line) {
            continue;
        }
        let before = snapshot(&mut referee);
        let text = line.strip_suffix(b"\r").unwrap_or(&line);
        let reply = referee.handle_bytes(text);
        prop_assert!(!reply.contains('\n'), "a reply is one line: {reply}");
        let ok = check_reply(&line, &reply)?;
        let read_only = serde_json::from_slice::<Value>(text)
            .ok()
            .and_then(|v| v["cmd"].as_str().map(|c| READ_ONLY.contains(&c)))
            .unwrap_or(false);
        if !ok || read_only {
            let after = snapshot(&mut referee);
            prop_assert_eq!(
                before,
                after,
                "{:?} (ok: {}) changed the game: {}",
                String::from_utf8_lossy(&line),
                ok,
                reply
            );
        }
        replies.push(reply);
    }
    // The same script through the real loop: one reply per non-blank line, the same
    // replies (the referee is deterministic: every seed is given or 0).
    let mut input = lines.join(&b'\n');
    input.push(b'\n');
    let mut output = Vec::new();
    new_referee().serve(&input[..], &mut output).unwrap();
    let served: Vec<String> = output.lines().map(Result::unwrap).collect();
    prop_assert_eq!(served.len(), replies.len(), "one reply per non-blank line");
    prop_assert_eq!(served, replies);
    Ok(())
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(256);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_line_gets_one_reply_and_refusals_change_nothing(
        script in prop::collection::vec(line(), 1..40)
    ) {
        run_script(&script)?;
    }
}

/// Lines the generator rarely builds: each is refused, answered once, and changes
/// nothing.
#[test]
fn odd_lines() {
    let mut referee = new_referee();
    referee.handle_line(r#"{"cmd":"new","game":"dice-race","seed":1}"#);
    let before = snapshot(&mut referee);
    for line in [
        &b"\xff"[..],
        b"\xc0\x80",
        b"\xed\xa0\x80",
        b"{\"cmd\":\"legal\"}\x00",
        b"\x00",
        b"{\"cmd\":\"apply\",\"action\":{\"type\":\"set_trap\",\"cell\":99999999999999999999}}",
        b"{\"cmd\":\"apply\",\"action\":{\"type\":\"set_trap\",\"cell\":-1}}",
        b"{\"cmd\":\"apply\",\"action\":{\"type\":\"set_trap\",\"cell\":1e400}}",
        b"{\"cmd\":\"view\",\"seat\":256}",
        b"{\"cmd\":\"view\",\"seat\":2}",
        b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
        b"{\"cmd\":\"new\",\"game\":\"dice-race\",\"players\":3}",
        b"{\"cmd\":\"new\",\"game\":\"dice-race\",\"options\":{\"length\":1000}}",
        b"{\"cmd\":\"load\",\"game\":\"dice-race\",\"setup\":{\"length\":255,\"positions\":[254,254],\"traps\":[\"unset\",\"unset\"],\"turn\":7,\"phase\":\"roll\"}}",
        b"{\"cmd\":\"hello\",\"cmd\":\"hello\"}",
        b"{\"cmd\":\"hello\",\"extra\":1}",
    ] {
        let reply: Value = serde_json::from_str(&referee.handle_bytes(line)).unwrap();
        assert_eq!(reply["ok"], false, "{:?}: {reply}", String::from_utf8_lossy(line));
        assert_eq!(snapshot(&mut referee), before, "{:?}", String::from_utf8_lossy(line));
    }
    // A very deep nesting is refused without overflowing the stack.
    let deep = "[".repeat(100_000);
    let reply: Value = serde_json::from_str(&referee.handle_line(&deep)).unwrap();
    assert_eq!(reply["error"]["code"], "malformed");
}
