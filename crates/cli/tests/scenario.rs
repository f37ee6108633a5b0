//! `hexwar scenario check` and `hexwar scenario render` on the real binary.

use std::path::PathBuf;
use std::process::Command;

fn hexwar() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hexwar"))
}

fn test_scenario() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../avl/tests/data/test.toml")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hexwar-scenario-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn check_accepts_a_valid_scenario() {
    let out = hexwar()
        .args(["scenario", "check"])
        .arg(test_scenario())
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("ok"), "{stdout}");
    assert!(stdout.contains("16 units, 12 HQs"), "{stdout}");
}

#[test]
fn check_reports_every_problem_at_once() {
    let text = std::fs::read_to_string(test_scenario())
        .unwrap()
        .replace("hex = \"0504\"", "hex = \"9999\"")
        .replace("range = 5", "range = 0")
        .replace("[\"0802\", \"0902\"]", "[\"0802\", \"0905\"]");
    let file = temp("bad.toml");
    std::fs::write(&file, text).unwrap();
    let out = hexwar()
        .args(["scenario", "check"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    for want in [
        "units[0] (23Pz).hex",
        "hqs[8] (5TkA).range",
        "map.impassable[0]",
        "3 problem(s)",
    ] {
        assert!(stdout.contains(want), "missing {want}: {stdout}");
    }
}

#[test]
fn check_reports_syntax_errors_and_missing_files() {
    let file = temp("syntax.toml");
    std::fs::write(&file, "name = \"x\"\nturns = [\n").unwrap();
    let out = hexwar()
        .args(["scenario", "check"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stdout).unwrap().contains("line"));
    let out = hexwar()
        .args(["scenario", "check", "/nonexistent/x.toml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn render_draws_the_map_as_svg() {
    let file = temp("map.svg");
    let out = hexwar()
        .args(["scenario", "render"])
        .arg(test_scenario())
        .arg("-o")
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.trim_end().ends_with("</svg>"));
    // 120 hexes, the Victory Cities, a river, the boxes.
    assert_eq!(svg.matches("<polygon").count(), 120);
    assert!(svg.contains("Kharkov") && svg.contains("Rostov"));
    assert!(svg.contains("#1f5fbf"));
    assert!(svg.contains("box 1PzA") && svg.contains("box 28A"));
    // To standard output without -o.
    let out = hexwar()
        .args(["scenario", "render"])
        .arg(test_scenario())
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().starts_with("<svg"));
}
