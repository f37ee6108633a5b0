//! `hexwar odds` end to end: the real binary prints the table and the JSON, and refuses
//! bad input with a message and a non-zero exit.

use std::process::{Command, Output};

use serde_json::Value;

fn odds(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .arg("odds")
        .args(args)
        .output()
        .expect("hexwar runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// 1 infantry against 1 infantry on plains: a third each (see the viktory odds tests).
#[test]
fn prints_a_table() {
    let out = odds(&["--attacker", "1i", "--defender", "1i"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("VIKTORY battle odds (classic)"), "{text}");
    assert!(text.contains("attacker wins            33.33 %"), "{text}");
    assert!(text.contains("defender holds           33.33 %"), "{text}");
    assert!(text.contains("both destroyed           33.33 %"), "{text}");
    assert!(
        text.contains("expected losses            0.667     0.667"),
        "{text}"
    );
}

#[test]
fn prints_json() {
    let out = odds(&[
        "--ruleset",
        "expansion",
        "--attacker",
        "2i@0,1c@1,1a",
        "--defender",
        "1i,1a",
        "--terrain",
        "forest",
        "--city",
        "--naval-support",
        "1",
        "--supply",
        "attacker",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let b = &v["battle"];
    let total: f64 = [
        "attacker_wins",
        "defender_holds",
        "both_destroyed",
        "attacker_retreats",
    ]
    .iter()
    .map(|k| b[k].as_f64().unwrap())
    .sum();
    assert!((total - 1.0).abs() < 1e-9, "{v}");
    assert_eq!(b["attackers"]["infantry"], 2);
    assert_eq!(b["defenders"]["artillery"], 1);
    assert!(b["expected_defender_losses"].as_f64().unwrap() > 0.0);
}

#[test]
fn bombardment_and_survivors() {
    let out = odds(&["--bombard", "2", "--defender", "1i,1c", "--survivors"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("2 bombardment(s) of 1 infantry, 1 cavalry"),
        "{text}"
    );
    assert!(text.contains("1                        50.00 %"), "{text}");
    assert!(text.contains("expected losses            1.000"), "{text}");
    assert!(text.contains("1 cavalry"), "{text}");
}

#[test]
fn retreat_policy() {
    let out = odds(&[
        "--attacker",
        "2i",
        "--defender",
        "3i",
        "--city",
        "--retreat-below",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("retreats when fewer than 2"), "{text}");
    assert!(!text.contains("attacker retreats         0.00 %"), "{text}");
}

#[test]
fn bad_input_is_refused_with_a_message() {
    for (args, says) in [
        (vec!["--attacker", "2x"], "not units like"),
        (
            vec!["--attacker", "1i", "--defender", "1i@2"],
            "no hex side",
        ),
        (
            vec!["--attacker", "1i@9", "--defender", "1i"],
            "hex side is 0 to 5",
        ),
        (
            vec!["--attacker", "1i", "--defender", "1i", "--terrain", "lava"],
            "--terrain",
        ),
        (
            vec!["--attacker", "1i", "--defender", "1i", "--ruleset", "chess"],
            "no preset",
        ),
        (vec!["--attacker", "1i"], "units or a town"),
        (
            vec!["--attacker", "1f", "--defender", "1i"],
            "frigates do not fight",
        ),
        (vec!["--defender", "1i"], "--attacker"),
        (
            vec![
                "--attacker",
                "1i",
                "--defender",
                "1i",
                "--supply",
                "attacker",
            ],
            "no combat supply",
        ),
        (
            vec![
                "--attacker",
                "1i",
                "--defender",
                "1i",
                "--option",
                "nonsense=1",
            ],
            "no option",
        ),
        (
            vec![
                "--attacker",
                "1i",
                "--defender",
                "1i",
                "--tactical",
                "random",
            ],
            "--tactical",
        ),
        (vec!["--attacker", "999i", "--defender", "1i"], "at most 99"),
    ] {
        let out = odds(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{args:?}");
    }
    // clap's own refusals exit with 2.
    let out = odds(&["--attacker", "1i", "--town", "--city"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A battle too costly to compute exactly (six of each land type a side, the firer's
/// 1s taking the strongest) is estimated, and says so in the table and in the JSON; an
/// out-of-range option is refused with its range.
#[test]
fn costly_battles_are_labelled_estimates() {
    let args = [
        "--attacker",
        "6i,6c,6a",
        "--defender",
        "6i,6c,6a",
        "--terrain",
        "forest",
        "--town",
        "--naval-support",
        "1",
        "--tactical",
        "strongest",
    ];
    let out = odds(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("estimate (4000 samples)"), "{text}");
    let json: Vec<&str> = args.iter().copied().chain(["--json"]).collect();
    let out = odds(&json);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(v["battle"]["exact"], false, "{v}");
    assert_eq!(v["battle"]["samples"], 4000, "{v}");
    // An exact battle's output has neither.
    let out = odds(&["--attacker", "1i", "--defender", "1i", "--json"]);
    let v: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert!(v["battle"].get("exact").is_none(), "{v}");
    let out = odds(&["--attacker", "1i", "--defender", "1i"]);
    assert!(!stdout(&out).contains("estimate"));
    let out = odds(&[
        "--attacker",
        "1i",
        "--defender",
        "1i",
        "--option",
        "attack_dice={\"infantry\": 200, \"cavalry\": 2, \"artillery\": 1, \"frigate\": 1}",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("attack_dice must be 1 to 6"),
        "{}",
        stderr(&out)
    );
}
