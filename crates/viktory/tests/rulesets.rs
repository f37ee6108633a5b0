//! The original VIKTORY (`viktory1`, R-1) and the classic variants 15.1 (terrain
//! leveling) and 15.2 (no exploration): each behaviour with the option on, beside the
//! classic behaviour with it off.

mod common;

use common::*;
use engine::{Game, NewGame, Seat, ToMove};
use viktory::board::Terrain;
use viktory::event::DiePurpose;
use viktory::state::Stage;
use viktory::{Action, Event, Rules, UnitId, UnitKind, Viktory};

fn v1(stage: Stage) -> Pos {
    let mut rules = Rules::viktory1(2);
    rules.board_side = 5;
    Pos::with_rules(rules, stage)
}

fn leveled(stage: Stage) -> Pos {
    Pos::new(2, stage).rules(|r| r.terrain_leveling = true)
}

fn new_game(preset: &str, players: u8, options: &str) -> Result<Viktory, engine::SetupErrors> {
    let setup = Viktory::new_setup(&NewGame {
        preset: Some(preset.into()),
        options: serde_json::from_str(options).unwrap(),
        players: Some(players),
    })?;
    Viktory::from_setup(&setup)
}

fn defence_dice(events: &[Event]) -> usize {
    dice_rolled(events, DiePurpose::Defense)
}

/// R-1: the original VIKTORY is for 2 to 4 players; classic for 2 to 6.
#[test]
fn r1_viktory1_player_counts() {
    assert!(new_game("viktory1", 4, "{}").is_ok());
    let err = new_game("viktory1", 5, "{}").unwrap_err();
    assert_eq!(err.0[0].code, "players");
    assert!(new_game("classic", 5, "{}").is_ok());
    assert!(new_game("expansion", 8, "{}").is_ok());
    assert!(new_game("online", 8, "{}").is_ok());
    let err = new_game("online", 9, "{}").unwrap_err();
    assert_eq!(err.0[0].code, "players");
    let err = new_game("modern", 2, "{}").unwrap_err();
    assert_eq!(err.0[0].code, "unknown_preset");
}

/// R-1, R-4, 15.2: the original VIKTORY and the no-exploration variant turn every tile
/// face up before the first player is drawn; classic starts with the draw.
#[test]
fn rule_15_2_and_viktory1_face_up_map() {
    for (preset, options) in [
        ("viktory1", "{}"),
        ("classic", r#"{"no_exploration": true}"#),
    ] {
        let mut s = new_game(preset, 2, options).unwrap();
        assert_eq!(
            s.pending_reveals().len(),
            37,
            "{preset}: every interior hex of the side-5 board"
        );
        let mut rng = engine::GameRng::from_u64(1);
        for _ in 0..37 {
            assert!(matches!(s.legal_actions()[0], Action::Reveal { .. }));
            let a = s.sample_chance(&mut rng);
            s.apply(a).unwrap();
        }
        assert!(matches!(s.legal_actions()[0], Action::FirstPlayer { .. }));
        assert_eq!(s.bank().total(), 0);
    }
    let s = new_game("classic", 2, "{}").unwrap();
    assert!(s.pending_reveals().is_empty());
    assert!(matches!(s.legal_actions()[0], Action::FirstPlayer { .. }));
}

/// R-1 / 15.1: no slow terrain in the original VIKTORY or with terrain leveling.
#[test]
fn r1_and_15_1_no_slow_terrain() {
    for pos in [v1(Stage::Move), leveled(Stage::Move)] {
        let mut s = pos
            .terrain(h(1, 0), Terrain::Forest)
            .unit(1, 0, UnitKind::Infantry, h(0, 0))
            .build();
        play(&mut s, &[mv(1, 1, 0), mv(1, 2, 0)]);
    }
    let mut s = Pos::new(2, Stage::Move)
        .terrain(h(1, 0), Terrain::Forest)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .build();
    act(&mut s, mv(1, 1, 0));
    assert_eq!(refused(&s, mv(1, 2, 0)), ("no_movement", "9.0"));
}

/// R-1: no roads in the original VIKTORY.
#[test]
fn r1_viktory1_has_no_roads() {
    let s = v1(Stage::Move)
        .town(h(-2, 0), 0, false, false)
        .town(h(0, 0), 0, false, false)
        .unit(1, 0, UnitKind::Infantry, h(-2, 0))
        .build();
    assert_eq!(refused(&s, mv(1, 0, 0)), ("not_adjacent", "9.13"));
}

/// R-1: the original VIKTORY bombards one or two hexes with no line-of-sight limit;
/// 15.1 levels forests and mountains but towns still block.
#[test]
fn r1_and_15_1_line_of_sight() {
    let blocked = |p: Pos| {
        p.terrain(h(1, 0), Terrain::Mountain)
            .terrain(h(0, 1), Terrain::Forest)
            .unit(1, 0, UnitKind::Artillery, h(0, 0))
            .unit(9, 1, UnitKind::Infantry, h(1, 1))
    };
    let target = Action::Bombard {
        unit: UnitId(1),
        target: h(1, 1),
    };
    assert!(
        blocked(v1(Stage::Move))
            .build()
            .legal_actions()
            .contains(&target)
    );
    assert!(
        blocked(leveled(Stage::Move))
            .build()
            .legal_actions()
            .contains(&target)
    );
    assert_eq!(
        refused(&blocked(Pos::new(2, Stage::Move)).build(), target),
        ("line_of_sight", "11.2")
    );

    let s = leveled(Stage::Move)
        .terrain(h(1, 0), Terrain::Mountain)
        .town(h(0, 1), 1, false, false)
        .unit(1, 0, UnitKind::Artillery, h(0, 0))
        .unit(9, 1, UnitKind::Infantry, h(1, 1))
        .build();
    assert!(
        s.legal_actions().contains(&target),
        "the leveled mountain lets the shot through"
    );
}

/// R-1 ("special defense"), 15.1: terrain gives no defence dice; towns (1), cities (2)
/// and an adjacent frigate (1) do.
#[test]
fn r1_and_15_1_defence_dice() {
    // An infantry defending a mountain hex: classic rolls 1 + 2 terrain dice.
    let fight = |p: Pos| {
        let mut s = p
            .terrain(h(1, 0), Terrain::Mountain)
            .unit(1, 0, UnitKind::Infantry, h(0, 0))
            .unit(9, 1, UnitKind::Infantry, h(1, 0))
            .build();
        play(&mut s, &[mv(1, 1, 0), Action::Fight { hex: h(1, 0) }]);
        dice(&mut s, &[6]);
        // Roll misses until the round is over and count the defender's dice.
        let mut events = Vec::new();
        while s.to_move() == ToMove::Chance {
            events.extend(act(&mut s, Action::Die { value: 6 }));
        }
        defence_dice(&events)
    };
    assert_eq!(fight(Pos::new(2, Stage::Move)), 3);
    assert_eq!(fight(v1(Stage::Move)), 1);
    assert_eq!(fight(leveled(Stage::Move)), 1);
    // A city with an adjacent frigate in the original VIKTORY: 1 unit die, 2 city dice, 1
    // frigate die, whatever the terrain.
    let mut s = v1(Stage::Move)
        .terrain(h(1, 0), Terrain::Mountain)
        .terrain(h(2, 0), Terrain::Water)
        .town(h(1, 0), 1, true, true)
        .unit(8, 1, UnitKind::Frigate, h(2, 0))
        .unit(9, 1, UnitKind::Infantry, h(1, 0))
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .build();
    play(&mut s, &[mv(1, 1, 0), Action::Fight { hex: h(1, 0) }]);
    dice(&mut s, &[6]);
    let events = dice(&mut s, &[6, 6, 6, 6]);
    assert_eq!(defence_dice(&events), 4);
}

/// R-1: no defender suppression in the original VIKTORY.
#[test]
fn r1_viktory1_has_no_suppression() {
    let mut s = v1(Stage::Move)
        .unit(1, 0, UnitKind::Cavalry, h(0, 0))
        .unit(2, 0, UnitKind::Infantry, h(0, 0))
        .unit(9, 1, UnitKind::Infantry, h(1, 0))
        .build();
    play(
        &mut s,
        &[mv(1, 1, 0), mv(2, 1, 0), Action::Fight { hex: h(1, 0) }],
    );
    let events = dice(&mut s, &[2, 2, 2]);
    assert!(!events.iter().any(|e| matches!(e, Event::Suppressed { .. })));
    // The defender still rolls his unit die.
    assert_eq!(s.to_move(), ToMove::Chance);
}

/// R-1: the original VIKTORY retreats every unit into one hex an attacking unit came
/// from, never onto a frigate.
#[test]
fn r1_viktory1_retreat_into_one_hex_not_onto_frigates() {
    let mut s = v1(Stage::Move)
        .terrain(h(1, 1), Terrain::Water)
        .unit(4, 0, UnitKind::Frigate, h(1, 1))
        .cargo(5, 0, UnitKind::Infantry, 4)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .unit(3, 0, UnitKind::Infantry, h(1, -1))
        .unit(9, 1, UnitKind::Infantry, h(1, 0))
        .unit(8, 1, UnitKind::Infantry, h(1, 0))
        .build();
    play(
        &mut s,
        &[
            mv(1, 1, 0),
            mv(3, 1, 0),
            Action::Disembark {
                unit: UnitId(5),
                to: h(1, 0),
            },
            Action::Fight { hex: h(1, 0) },
        ],
    );
    dice(&mut s, &[6]);
    dice(&mut s, &[6]);
    assert!(!s.legal_actions().contains(&Action::Retreat {
        unit: UnitId(5),
        to: h(1, 1)
    }));
    act(
        &mut s,
        Action::Retreat {
            unit: UnitId(5),
            to: h(0, 0),
        },
    );
    assert_eq!(
        refused(
            &s,
            Action::Retreat {
                unit: UnitId(1),
                to: h(1, -1)
            }
        ),
        ("one_retreat_hex", "R-1")
    );
    play(
        &mut s,
        &[
            Action::Retreat {
                unit: UnitId(1),
                to: h(0, 0),
            },
            Action::Retreat {
                unit: UnitId(3),
                to: h(0, 0),
            },
        ],
    );
    assert_eq!(ids_at(&s, h(0, 0)), [1, 3, 5]);
}

/// R-1: the original VIKTORY has no adjacent-enemy placement restriction (13.2), and a
/// player without his capital places nothing.
#[test]
fn r1_viktory1_placement() {
    let mut s = v1(Stage::Place)
        .town(h(0, 0), 0, false, false)
        .town(h(-3, 0), 0, false, true)
        .unit(9, 1, UnitKind::Infantry, h(1, 0))
        .reserve(0, UnitKind::Infantry, 1)
        .build();
    act(
        &mut s,
        Action::Place {
            kind: UnitKind::Infantry,
            town: h(0, 0),
            to: h(0, 0),
        },
    );
    // Without the capital: no placement at all (classic would allow one infantry).
    let s = v1(Stage::Place)
        .town(h(0, 0), 0, false, false)
        .captured_capital(h(-3, 0), 1, false, 0)
        .town(h(3, -3), 1, false, true)
        .reserve(0, UnitKind::Infantry, 1)
        .build();
    assert_eq!(
        s.turn().active,
        Seat(1),
        "seat 0 had nothing to place: the turn passed"
    );
    let s = Pos::new(2, Stage::Place)
        .town(h(0, 0), 0, false, false)
        .captured_capital(h(-3, 0), 1, false, 0)
        .town(h(3, -3), 1, false, true)
        .reserve(0, UnitKind::Infantry, 1)
        .build();
    assert!(s.legal_actions().contains(&Action::Place {
        kind: UnitKind::Infantry,
        town: h(0, 0),
        to: h(0, 0)
    }));
}

/// Rules read from an older record take their preset's values for options the record
/// does not mention; rules are written with only the options that differ.
#[test]
fn rules_are_written_compactly_and_read_leniently() {
    let mut setup = Viktory::new_setup(&NewGame {
        preset: Some("viktory1".into()),
        options: serde_json::from_str(r#"{"max_turns": 9}"#).unwrap(),
        players: Some(3),
    })
    .unwrap();
    let json = serde_json::to_value(&setup).unwrap();
    assert_eq!(
        json["rules"],
        serde_json::json!({"preset": "viktory1", "players": 3, "max_turns": 9})
    );
    let back: viktory::Setup = serde_json::from_value(json).unwrap();
    assert_eq!(back, setup);
    // Each rule set's form is kept once written: a changed option is a new form, and the
    // first one comes back unchanged after it.
    let first = setup.clone();
    setup.rules.terrain_defense = true;
    let json = serde_json::to_value(&setup).unwrap();
    assert_eq!(json["rules"]["terrain_defense"], true);
    let again = serde_json::to_value(&first).unwrap();
    assert_eq!(
        again["rules"],
        serde_json::json!({"preset": "viktory1", "players": 3, "max_turns": 9})
    );
    let bad = serde_json::json!({"rules": {"preset": "viktory1", "players": 2, "bogus": 1}});
    assert!(serde_json::from_value::<viktory::Setup>(bad).is_err());
}

/// R-3 (Optional Map Size): a board too small for every player's start hexes is refused.
#[test]
fn r3_board_too_small_for_the_players() {
    let err = new_game("expansion", 8, r#"{"board_side": 6}"#).unwrap_err();
    assert_eq!(
        (err.0[0].code.as_str(), err.0[0].rule.as_deref()),
        ("board_side", Some("R-3"))
    );
    assert!(new_game("expansion", 8, r#"{"board_side": 9}"#).is_ok());
    assert!(new_game("classic", 2, r#"{"board_side": 4}"#).is_ok());
}

/// The lobby's form is built from the presets' option kinds: every default fits its
/// kind, and every value a choice offers is accepted when a game is created with it.
#[test]
fn every_option_kind_fits_its_values() {
    use engine::OptionKind;
    for preset in Viktory::presets() {
        let players = preset.min_players;
        for o in &preset.options {
            let d = &o.default;
            let fits = match o.kind {
                OptionKind::Bool => d.is_boolean(),
                OptionKind::Number => d.is_u64(),
                OptionKind::NumberOrNone => d.is_null() || d.is_u64(),
                OptionKind::Choice => o.choices.contains(d),
                OptionKind::Choices => d
                    .as_array()
                    .is_some_and(|v| v.iter().all(|x| o.choices.contains(x))),
                OptionKind::Json => d.is_object() || d.is_null(),
            };
            assert!(
                fits,
                "{} {}: {:?} is not a {:?}",
                preset.name, o.name, d, o.kind
            );
            assert_eq!(
                o.choices.is_empty(),
                !matches!(o.kind, OptionKind::Choice | OptionKind::Choices),
                "{} {}",
                preset.name,
                o.name
            );
            if o.kind == OptionKind::Choice {
                for c in &o.choices {
                    let options = serde_json::json!({ o.name.clone(): c.clone() }).to_string();
                    assert!(
                        new_game(&preset.name, players, &options).is_ok(),
                        "{} {} = {c}",
                        preset.name,
                        o.name
                    );
                }
            }
        }
    }
}

/// Every numeric option states its range in the catalog, its default lies inside, both
/// ends are accepted and one past the top is refused with a problem that names the
/// option and the range (R-2). Options that are objects of numbers (dice and movement
/// per unit type) have the range for each number.
#[test]
fn every_numeric_option_has_a_range_that_setup_enforces() {
    use engine::OptionKind;
    for preset in Viktory::presets() {
        let players = preset.min_players;
        for o in &preset.options {
            let numeric_object = o
                .default
                .as_object()
                .is_some_and(|m| m.values().all(serde_json::Value::is_u64));
            // The tile bank is an object of numbers too, `null` by default (tested below).
            let numeric = matches!(o.kind, OptionKind::Number | OptionKind::NumberOrNone)
                || numeric_object
                || o.name == "tile_bank";
            assert_eq!(
                numeric,
                o.min.is_some() && o.max.is_some(),
                "{} {}: a range exactly on the numeric options",
                preset.name,
                o.name
            );
            let (Some(min), Some(max)) = (o.min, o.max) else {
                continue;
            };
            if o.name == "tile_bank" {
                continue;
            }
            if o.name == "players" {
                assert_eq!(
                    (min, max),
                    (i64::from(preset.min_players), i64::from(preset.max_players))
                );
                continue;
            }
            let with = |n: i64| -> serde_json::Value {
                match o.default.as_object() {
                    Some(m) => m
                        .keys()
                        .map(|k| (k.clone(), serde_json::Value::from(n)))
                        .collect(),
                    None => n.into(),
                }
            };
            if let Some(d) = o.default.as_u64() {
                assert!(
                    (min..=max).contains(&(d as i64)),
                    "{} {}",
                    preset.name,
                    o.name
                );
            }
            for n in [min, max] {
                let options = serde_json::json!({ o.name.clone(): with(n) }).to_string();
                assert!(
                    new_game(&preset.name, players, &options).is_ok(),
                    "{} {} = {n}",
                    preset.name,
                    o.name
                );
            }
            let options = serde_json::json!({ o.name.clone(): with(max + 1) }).to_string();
            let err = new_game(&preset.name, players, &options).unwrap_err();
            let named = err
                .0
                .iter()
                .find(|p| p.code == o.name)
                .unwrap_or_else(|| panic!("{} {} = {}: {err}", preset.name, o.name, max + 1));
            assert!(
                named
                    .message
                    .contains(&format!("{} must be {min} ", o.name))
                    && named.message.contains(&format!(" to {max}")),
                "{}",
                named.message
            );
        }
    }
}

/// Out-of-range numbers are all reported at once, each naming its option and range;
/// nothing wraps (128 + 128 dice would be 0 in a byte).
#[test]
fn out_of_range_options_are_reported_together() {
    let err = new_game(
        "classic",
        2,
        r#"{"attack_dice": {"infantry": 1, "cavalry": 128, "artillery": 128, "frigate": 1},
            "hit_max": 0, "pre_battle_fire": 255, "max_turns": 0, "race_points": 65535}"#,
    )
    .unwrap_err();
    let messages: Vec<&str> = err.0.iter().map(|p| p.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "hit_max must be 1 to 6, not 0",
            "attack_dice must be 1 to 6 for each unit type, not 128 (cavalry)",
            "pre_battle_fire must be 0 to 6, not 255",
            "race_points must be 1 to 200, not 65535",
            "max_turns must be 1 to 1000, not 0",
        ]
    );
    assert!(
        new_game("classic", 2, r#"{"board_side": 3}"#)
            .unwrap_err()
            .0[0]
            .message
            .contains("board_side must be 0 (the default for the player count) or 4 to 12")
    );
    let err = new_game(
        "classic",
        2,
        r#"{"tile_bank": {"plains": 10, "grassland": 10, "forest": 10, "mountain": 10, "water": 10}}"#,
    )
    .unwrap_err();
    assert_eq!(err.0[0].code, "tile_bank", "{err}");
    assert!(new_game(
        "classic",
        2,
        r#"{"tile_bank": {"plains": 10, "grassland": 10, "forest": 10, "mountain": 7, "water": 0}}"#,
    )
    .is_ok());
}

/// A whole setup read from JSON (the server's `"setup"`, the referee's `load`) meets the
/// same ranges: rules missing from it take the preset's values, but out-of-range ones
/// are refused, for the setup and for a state read from JSON.
#[test]
fn a_setup_read_from_json_meets_the_option_ranges() {
    let json = serde_json::json!({
        "rules": {"preset": "expansion", "players": 2,
                  "defense_dice": {"infantry": 200, "cavalry": 1, "artillery": 1, "frigate": 1},
                  "strong_terrain_dice": 9}
    });
    let setup: viktory::Setup = serde_json::from_value(json.clone()).unwrap();
    let err = Viktory::from_setup(&setup).unwrap_err();
    let codes: Vec<&str> = err.0.iter().map(|p| p.code.as_str()).collect();
    assert_eq!(codes, ["defense_dice", "strong_terrain_dice"], "{err}");
    let state: Result<Viktory, _> = serde_json::from_value(json);
    assert!(
        state
            .unwrap_err()
            .to_string()
            .contains("defense_dice must be 1 to 6")
    );
}
