//! Golden record and perft fixtures: a seeded game on the test scenario that must replay
//! identically forever (state hash after every step), and counts of legal action
//! sequences from fixed positions. Change them only with a rules fix, and say so in the
//! commit.
//!
//! `UPDATE_GOLDEN=1 cargo test -p avl --test golden` rewrites the record.

mod common;

use avl::{Avl, Phase, Side};
use engine::{Game, GameRecord, NewGame, perft, replay, seeded_record, verify};

fn golden_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/test-scenario-seed7.json")
}

/// A whole game on the bundled (test) scenario: chance from the seed, decisions from a
/// second seeded generator.
fn make_record() -> GameRecord<Avl> {
    let setup = Avl::new_setup(&NewGame {
        preset: Some("demo".into()),
        ..NewGame::default()
    })
    .unwrap();
    seeded_record("golden-avl", setup, vec!["Axis".into(), "Soviet".into()], 7)
}

#[test]
fn golden_record_replays_identically() {
    let path = golden_path();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let json = serde_json::to_string(&make_record()).unwrap();
        std::fs::write(&path, json + "\n").unwrap();
    }
    let text =
        std::fs::read_to_string(&path).expect("golden record exists (UPDATE_GOLDEN=1 writes it)");
    let record: GameRecord<Avl> = serde_json::from_str(&text).unwrap();
    let (end, _) =
        replay(&record).unwrap_or_else(|e| panic!("the golden record no longer replays: {e}"));
    assert!(end.to_move().is_over());
    assert!(
        verify(&record).unwrap() > 30,
        "every chit draw and die of the record comes from its seed"
    );
    assert_eq!(record, make_record());
}

/// Perft counts from a fixed position: the Axis Movement Segment of turn 2 with the
/// 4PzA and the units in its Command Range activated.
#[test]
fn perft_fixtures() {
    let mut t = common::T::new(common::scenario());
    t.activate(
        Side::Axis,
        &["4PzA"],
        &["23Pz", "LAH", "335", "Cos", "R5", "H1Tk"],
        Phase::Movement,
    );
    let counts: Vec<u64> = (1..=3).map(|d| perft(&t.s, d)).collect();
    eprintln!("{counts:?}");
    assert_eq!(counts, PERFT);
}

/// Regression values (not counted by hand): depth 1 is the end of the segment and the
/// legal one-hex moves and road moves of the seven activated pieces.
const PERFT: [u64; 3] = [50, 2226, 86337];
