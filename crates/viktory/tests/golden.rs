//! Golden records and perft fixtures: a seeded game that must replay identically
//! forever (state hash after every step), and counts of legal action sequences from
//! fixed positions. Change them only with a rules fix, and say so in the commit.
//!
//! `UPDATE_GOLDEN=1 cargo test -p viktory --test golden` rewrites the record.

mod common;

use common::*;
use engine::{Game, GameRecord, NewGame, perft, replay, seeded_record, verify};
use viktory::board::Terrain;
use viktory::state::Stage;
use viktory::{UnitKind, Viktory};

fn golden_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/classic-2p-seed7.json")
}

/// A 2-player classic game of 6 turns: chance from the seed, decisions from a second
/// seeded generator.
fn make_record() -> GameRecord<Viktory> {
    let mut options = serde_json::Map::new();
    options.insert("max_turns".into(), 6.into());
    let setup = Viktory::new_setup(&NewGame {
        preset: Some("classic".into()),
        options,
        players: Some(2),
    })
    .unwrap();
    seeded_record(
        "golden-classic-2p",
        setup,
        vec!["Red".into(), "Yellow".into()],
        7,
    )
}

#[test]
fn golden_record_replays_identically() {
    let path = golden_path();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let json = serde_json::to_string_pretty(&make_record()).unwrap();
        std::fs::write(&path, json + "\n").unwrap();
    }
    let text =
        std::fs::read_to_string(&path).expect("golden record exists (UPDATE_GOLDEN=1 writes it)");
    let record: GameRecord<Viktory> = serde_json::from_str(&text).unwrap();
    let (end, _) =
        replay(&record).unwrap_or_else(|e| panic!("the golden record no longer replays: {e}"));
    assert!(end.to_move().is_over());
    assert!(
        verify(&record).unwrap() > 30,
        "every die and tile of the record comes from its seed"
    );
    // The record is exactly what the engine produces today from the same seeds.
    assert_eq!(record, make_record());
}

/// Perft counts from a small fixed position: two infantry, a cavalry, an artillery and a
/// frigate of seat 0 against an infantry of seat 1, movement phase.
#[test]
fn perft_fixtures() {
    let s = Pos::new(2, Stage::Move)
        .terrain(h(2, 0), Terrain::Water)
        .terrain(h(1, 1), Terrain::Forest)
        .town(h(-2, 0), 0, false, true)
        .town(h(0, 0), 0, false, false)
        .unit(1, 0, UnitKind::Infantry, h(-2, 0))
        .unit(2, 0, UnitKind::Cavalry, h(0, 0))
        .unit(3, 0, UnitKind::Artillery, h(0, 0))
        .unit(4, 0, UnitKind::Frigate, h(2, 0))
        .unit(9, 1, UnitKind::Infantry, h(1, -1))
        .build();
    let counts: Vec<u64> = (1..=3).map(|d| perft(&s, d)).collect();
    assert_eq!(counts, PERFT);
}

/// Depth 1 counted by hand: end phase 1; infantry 6 steps + 1 road; cavalry 6 + 1 road;
/// artillery 6 + 1 road + 1 bombard; frigate (landlocked water) 1 bombard.
const PERFT: [u64; 3] = [24, 481, 7046];
