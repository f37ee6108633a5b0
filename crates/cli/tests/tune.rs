//! `hexwar tune` (issue 29): learns the evaluations' weights from self-play and
//! writes them where `hexwar simulate --bots easy:FILE` reads them; weight files that
//! are not right are refused with a message that says why.

use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

mod common;
use common::hexwar;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("hexwar-tune-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(args: &[&str]) -> Output {
    hexwar().args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn tuned_weights_are_written_and_played() {
    let out_file = dir().join("tuned.json");
    let path = out_file.to_str().unwrap();
    let read =
        || -> Value { serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap() };
    // By prediction.
    let out = run(&[
        "tune",
        "--method",
        "regression",
        "--games",
        "5",
        "--max-turns",
        "2",
        "--passes",
        "1",
        "--seed",
        "4",
        "--check-games",
        "2",
        "--out",
        path,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("held out"), "{stdout}");
    assert!(
        stdout.contains("loss (cross-entropy per position)"),
        "{stdout}"
    );
    let doc = read();
    assert_eq!(doc["game"], "viktory");
    assert_eq!(doc["method"], "regression");
    let weights = doc["weights"].as_object().unwrap().clone();
    assert_eq!(weights.len(), 18, "{weights:?}");
    // The town is the scale and stays where it started.
    assert_eq!(weights["town"], doc["start"]["town"]);
    let after = doc["loss"]["after"]["train"].as_f64().unwrap();
    let before = doc["loss"]["before"]["train"].as_f64().unwrap();
    assert!(after <= before, "{after} > {before}");
    assert_eq!(doc["check"]["games"], 2);

    // By play (the default), from the file just written.
    let out = run(&[
        "tune",
        "--steps",
        "3",
        "--step-games",
        "2",
        "--max-turns",
        "2",
        "--seed",
        "4",
        "--start",
        path,
        "--check-games",
        "2",
        "--out",
        path,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc = read();
    assert_eq!(doc["method"], "spsa");
    assert_eq!(doc["up_shares"].as_array().unwrap().len(), 3);
    assert_eq!(doc["start"], Value::Object(weights));

    // The file plays, against the hand weights.
    let bots = format!("greedy:{path},greedy:hand");
    let out = run(&[
        "simulate",
        "--bots",
        &bots,
        "--games",
        "2",
        "--max-turns",
        "2",
        "--threads",
        "1",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("greedy:hand"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn bad_weights_are_refused() {
    let d = dir();
    let write = |name: &str, body: &str| {
        let p = d.join(name);
        std::fs::write(&p, body).unwrap();
        p.to_str().unwrap().to_owned()
    };
    let unknown = write("unknown.json", r#"{"weights": {"towns": 1}}"#);
    let negative = write(
        "negative.json",
        &serde_json::json!({"weights": {
            "town": 10, "city": -20, "capital": 8, "foreign_capital": 3, "unit_infantry": 1,
            "unit_cavalry": 1.6, "unit_artillery": 1.4, "unit_frigate": 1.2, "reserve": 0.6,
            "garrison_first": 0.6, "garrison_second": 0.3, "threat": 0.5, "threat_gain": 0.25,
            "threat_now": 0.5, "advance": 0.06, "site": 1, "sites_max": 3, "sharpness": 2
        }})
        .to_string(),
    );
    let not_json = write("broken.json", "{\"weights\": ");
    let missing = write("missing.json", r#"{"weights": {"town": 10}}"#);
    for (bots, expected) in [
        (format!("greedy:{unknown}"), "no weight \"towns\""),
        (
            format!("easy:{negative}"),
            "weight \"city\" must be a number at least 0",
        ),
        (format!("greedy:{not_json}"), "not JSON"),
        (format!("greedy:{missing}"), "weight \"city\" missing"),
        (
            "greedy:no-such-file".to_owned(),
            "not hand, default or a readable file",
        ),
        ("random:hand".to_owned(), "no evaluation"),
    ] {
        let out = run(&[
            "simulate",
            "--bots",
            &format!("{bots},greedy"),
            "--games",
            "1",
        ]);
        assert!(!out.status.success(), "{bots} was accepted");
        let err = text(&out.stderr);
        assert!(err.contains(expected), "{bots}: {err}");
    }
    // VIKTORY's weights are not A Victory Lost's.
    let out = run(&[
        "simulate",
        "--game",
        "avl",
        "--bots",
        &format!("greedy:{missing},greedy"),
        "--games",
        "1",
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no weight \"town\""),
        "{}",
        text(&out.stderr)
    );
    // Nor the other way round.
    let avl_file = write(
        "avl.json",
        r#"{"game": "avl", "weights": {"strength_start": 0.4}}"#,
    );
    let out = run(&["simulate", "--bots", &format!("greedy:{avl_file},greedy")]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("weights for avl, not viktory"),
        "{}",
        text(&out.stderr)
    );
}

/// A Victory Lost's weights are tuned the same way (`--game avl`), keeping the ones it
/// holds fixed, and the file plays.
#[test]
fn avl_weights_are_tuned_and_played() {
    let out_file = dir().join("avl-tuned.json");
    let path = out_file.to_str().unwrap();
    let out = run(&[
        "tune",
        "--game",
        "avl",
        "--preset",
        "demo",
        "--steps",
        "2",
        "--step-games",
        "2",
        "--seed",
        "4",
        "--check-games",
        "2",
        "--threads",
        "2",
        "--out",
        path,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(doc["game"], "avl");
    assert_eq!(doc["preset"], "demo");
    assert_eq!(doc["up_shares"].as_array().unwrap().len(), 2);
    let weights = doc["weights"].as_object().unwrap();
    assert_eq!(weights.len(), 25, "{weights:?}");
    for fixed in ["advance_cap", "scale_start", "scale_end"] {
        assert_eq!(weights[fixed], doc["start"][fixed], "{fixed}");
    }
    // Two steps of two games move some weight: a draw in both steps moves none, so
    // the test looks at the steps' shares too.
    let shares: Vec<f64> = doc["up_shares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let moved = weights.iter().any(|(k, v)| doc["start"][k] != *v);
    assert_eq!(
        moved,
        shares.iter().any(|&s| (s - 0.5).abs() > 1e-12),
        "{shares:?}"
    );

    let out = run(&[
        "simulate",
        "--game",
        "avl",
        "--preset",
        "demo",
        "--bots",
        &format!("greedy:{path},greedy:hand"),
        "--games",
        "2",
        "--threads",
        "2",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("greedy:hand"),
        "{}",
        text(&out.stdout)
    );
    // VIKTORY-only flags are refused.
    let out = run(&["tune", "--game", "avl", "--max-turns", "3"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--max-turns is for VIKTORY"));
}
