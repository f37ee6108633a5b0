//! The online ruleset's own options: the hex-side bonus in naval battles, combat supply
//! needing the capital, the capital's frigates in the nearest water, the colorblind
//! display flag and the first-turn second town (Dark and Independent exploration are in
//! `fog.rs`).

mod common;

use common::*;
use engine::{Game, Seat};
use viktory::board::Terrain;
use viktory::event::DiePurpose;
use viktory::state::Stage;
use viktory::{Action, Event, UnitKind};

/// Naval battles: one more attack die for each further water hex the attacking frigates
/// came from, with `hexside_bonus_naval`.
#[test]
fn online_naval_hexside_bonus() {
    let attack_dice = |naval_bonus: bool| {
        let mut s = Pos::new(2, Stage::Move)
            .rules(|r| {
                r.hexside_bonus = true;
                r.hexside_bonus_naval = naval_bonus;
            })
            .terrain(h(0, 0), Terrain::Water)
            .terrain(h(1, -1), Terrain::Water)
            .terrain(h(0, 1), Terrain::Water)
            .unit(1, 0, UnitKind::Frigate, h(1, -1))
            .unit(2, 0, UnitKind::Frigate, h(0, 1))
            .unit(9, 1, UnitKind::Frigate, h(0, 0))
            .build();
        play(
            &mut s,
            &[mv(1, 0, 0), mv(2, 0, 0), Action::Fight { hex: h(0, 0) }],
        );
        let mut n = 0;
        while let Some(Event::DieRolled {
            purpose: DiePurpose::Attack,
            ..
        }) = dice(&mut s, &[6]).first()
        {
            n += 1;
        }
        n
    };
    assert_eq!(attack_dice(true), 2);
    assert_eq!(attack_dice(false), 1);
}

/// Online combat supply: a city on every land terrain is not enough without the capital.
#[test]
fn online_combat_supply_needs_the_capital() {
    let pos = |capital_held: bool| {
        let p = Pos::new(2, Stage::Move)
            .rules(|r| {
                r.combat_supply = true;
                r.combat_supply_needs_capital = true;
            })
            .terrain(h(-3, 0), Terrain::Plains)
            .terrain(h(-3, 2), Terrain::Grassland)
            .terrain(h(-1, 2), Terrain::Forest)
            .terrain(h(-1, -2), Terrain::Mountain)
            .town(h(-3, 2), 0, true, false)
            .town(h(-1, 2), 0, true, false)
            .town(h(-1, -2), 0, true, false)
            .town(h(3, -3), 1, false, true);
        if capital_held {
            p.town(h(-3, 0), 0, true, true)
        } else {
            p.captured_capital(h(-3, 0), 1, true, 0)
        }
    };
    assert_eq!(pos(true).build().hit_max_for(Seat(0)), 4);
    let mut without = pos(false);
    without = without
        .town(h(1, 0), 0, true, false)
        .terrain(h(1, 0), Terrain::Plains);
    assert_eq!(without.build().hit_max_for(Seat(0)), 3);
}

/// Online placement: frigates go to the closest water of the capital too.
#[test]
fn online_capital_frigates_in_the_nearest_water() {
    let pos = |on: bool| {
        Pos::new(2, Stage::Place)
            .rules(|r| r.capital_frigates_nearest_water = on)
            .terrain(h(2, 0), Terrain::Water)
            .town(h(0, 0), 0, false, true)
            .reserve(0, UnitKind::Frigate, 1)
            .build()
    };
    let place = Action::Place {
        kind: UnitKind::Frigate,
        town: h(0, 0),
        to: h(2, 0),
    };
    assert!(pos(true).legal_actions().contains(&place));
    assert!(!pos(false).legal_actions().contains(&place));
}

/// Colorblind is a display option: views say so.
#[test]
fn online_colorblind_flag() {
    let s = Pos::new(2, Stage::Move)
        .rules(|r| r.colorblind = true)
        .build();
    assert!(s.view(Some(Seat(0))).colorblind);
    assert!(
        !Pos::new(2, Stage::Move)
            .build()
            .view(Some(Seat(0)))
            .colorblind
    );
}

/// Online rules, first turn: after his capital a player may build a second town two or
/// three hexes away and put its infantry into it or into the capital; the first player
/// (with 2–6 players) may not.
#[test]
fn online_second_town_on_the_first_turn() {
    let mut p = Pos::new(2, Stage::Opening)
        .rules(|r| r.opening_second_town = true)
        .town(h(-3, 0), 0, false, true)
        .unit(1, 0, UnitKind::Infantry, h(-3, 0))
        .town(h(3, -3), 1, false, true)
        .unit(2, 1, UnitKind::Infantry, h(3, -3));
    p.setup.turn.first = Seat(1);
    p.setup.turn.openings_done = 1;
    p.setup.turn.second_town = Some(viktory::state::SecondTown::Build);
    let mut s = p.build();
    assert!(s.legal_actions().contains(&Action::EndPhase));
    assert_eq!(
        refused(&s, Action::BuildTown { hex: h(1, 0) }),
        ("too_far", "online")
    );
    let events = act(&mut s, Action::BuildTown { hex: h(-1, 0) });
    assert_eq!(
        events[0],
        Event::TownBuilt {
            seat: Seat(0),
            hex: h(-1, 0)
        }
    );
    assert_eq!(
        s.legal_actions(),
        vec![
            Action::Place {
                kind: UnitKind::Infantry,
                town: h(-3, 0),
                to: h(-3, 0)
            },
            Action::Place {
                kind: UnitKind::Infantry,
                town: h(-1, 0),
                to: h(-1, 0)
            },
        ]
    );
    let events = act(
        &mut s,
        Action::Place {
            kind: UnitKind::Infantry,
            town: h(-1, 0),
            to: h(-1, 0),
        },
    );
    // Every player has opened: turn 1 begins with the first player, seat 1.
    assert!(
        events.contains(&Event::TurnStarted {
            seat: Seat(1),
            turn: 1
        }),
        "{events:?}"
    );
    assert_eq!(ids_at(&s, h(-1, 0)), [3]);
}

/// The first player of a 2–6 player game gets no second town.
#[test]
fn online_first_player_gets_no_second_town() {
    let mut s = viktory::Viktory::from_setup(
        &viktory::Viktory::new_setup(&engine::NewGame {
            preset: Some("classic".into()),
            options: serde_json::from_str(
                r#"{"opening_second_town": true, "no_exploration": true}"#,
            )
            .unwrap(),
            players: Some(2),
        })
        .unwrap(),
    )
    .unwrap();
    let mut rng = engine::GameRng::from_u64(3);
    while s.to_move() == engine::ToMove::Chance && s.turn().stage == Stage::FirstPlayer {
        let a = match s.legal_actions()[0] {
            Action::FirstPlayer { .. } => Action::FirstPlayer { seat: Seat(0) },
            _ => s.sample_chance(&mut rng),
        };
        s.apply(a).unwrap();
    }
    let capital = s.legal_actions()[0];
    act(&mut s, capital);
    assert_eq!(s.turn().second_town, None);
    assert_eq!(s.turn().active, Seat(1), "seat 1's opening follows at once");
}

/// Online rules, Building: "a player who controls their capital" may build after the
/// move/battle phase; losing it blocks building "immediately", and nothing keeps the
/// block once it is retaken. Ann starts her turn without her capital (0,0), retakes it
/// in her move phase, and builds. Under the Expansion's same turn order, classic 7.1
/// (the capital held at the start of the turn) still applies: no building that turn.
#[test]
fn online_a_capital_retaken_in_the_move_phase_allows_building() {
    let builds_after_retaking = |rules: viktory::Rules| {
        let mut rules = rules;
        rules.board_side = 5;
        let mut s = Pos::with_rules(rules, Stage::Move)
            .active(1)
            .captured_capital(h(0, 0), 1, false, 0)
            .town(h(-3, 1), 0, false, false)
            .unit(1, 0, UnitKind::Infantry, h(1, 0))
            .town(h(3, -2), 1, false, true)
            .build();
        // Bob ends his turn; Ann's begins without her capital.
        while s.turn().active != Seat(0) {
            act(&mut s, Action::EndPhase);
        }
        assert_eq!(s.turn().stage, Stage::Move);
        assert!(
            !s.turn().can_build,
            "Ann did not hold her capital at the start of her turn"
        );
        assert!(!s.holds_capital(Seat(0)));
        // She walks into the empty town and takes it back (any die the town rolls misses).
        play(&mut s, &[mv(1, 0, 0), Action::Fight { hex: h(0, 0) }]);
        while s.to_move() == engine::ToMove::Chance {
            dice(&mut s, &[6]);
        }
        assert!(s.holds_capital(Seat(0)), "Ann retook her capital");
        act(&mut s, Action::EndPhase);
        let builds = s
            .legal_actions()
            .iter()
            .any(|a| matches!(a, Action::BuildTown { .. } | Action::BuildCity { .. }));
        (s.turn().stage, builds)
    };
    assert_eq!(
        builds_after_retaking(viktory::Rules::online(2)),
        (Stage::BuildAndPlace, true)
    );
    // The Expansion's Building Phase passes by itself: 7.1 as in classic.
    let (stage, builds) = builds_after_retaking(viktory::Rules::expansion(2));
    assert!(!builds, "no building under 7.1 (stage {stage:?})");
    assert_ne!(stage, Stage::Build);
}
