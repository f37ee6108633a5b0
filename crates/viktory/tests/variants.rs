//! The classic §15 variants beyond leveling and exploration (in `rulesets.rs`): 15.4
//! luck averaging and 15.5 town/city relocation (R-8), each on and off.

mod common;

use common::*;
use engine::{Game, Seat, ToMove};
use viktory::board::Terrain;
use viktory::event::DiePurpose;
use viktory::state::Stage;
use viktory::{Action, Event, UnitId, UnitKind, Viktory};

fn attack(averaging: bool) -> viktory::Viktory {
    let mut s = Pos::new(2, Stage::Move)
        .rules(|r| r.luck_averaging = averaging)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .unit(2, 0, UnitKind::Cavalry, h(0, 0))
        .unit(3, 0, UnitKind::Artillery, h(0, 0))
        .unit(9, 1, UnitKind::Infantry, h(1, 0))
        .unit(8, 1, UnitKind::Infantry, h(1, 0))
        .unit(7, 1, UnitKind::Infantry, h(1, 0))
        .build();
    play(
        &mut s,
        &[
            mv(1, 1, 0),
            mv(2, 1, 0),
            mv(3, 1, 0),
            Action::Fight { hex: h(1, 0) },
        ],
    );
    dice(&mut s, &[6]); // the artillery's pre-battle die misses
    s
}

/// 15.4: four attack dice: the attacker may leave the second and fourth unrolled for one
/// sure hit (the first and third must be rolled); the defender chooses that casualty.
#[test]
fn rule_15_4_luck_averaging() {
    let mut s = attack(true);
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    assert_eq!(
        s.legal_actions(),
        vec![Action::Average { pairs: 0 }, Action::Average { pairs: 1 }]
    );
    assert_eq!(
        refused(&s, Action::Average { pairs: 2 }),
        ("too_many_pairs", "15.4")
    );
    let events = act(&mut s, Action::Average { pairs: 1 });
    assert_eq!(
        events,
        vec![Event::LuckAveraged {
            seat: Seat(0),
            pairs: 1
        }]
    );
    // Two dice are rolled, both miss; the sure hit stands. The defender has one unit
    // type: one die, no pair to trade, so no choice is offered.
    let events = dice(&mut s, &[6, 6]);
    assert_eq!(events.len(), 2);
    assert_eq!(s.to_move(), ToMove::Chance);
    let events = dice(&mut s, &[6]);
    assert!(
        events.contains(&Event::UnitLost {
            unit: UnitId(7),
            owner: Seat(1),
            kind: UnitKind::Infantry,
            chosen_by: Seat(1)
        }),
        "{events:?}"
    );
    // Without the option all four dice are rolled at once.
    let mut s = attack(false);
    assert_eq!(s.to_move(), ToMove::Chance);
    let events = dice(&mut s, &[6, 6, 6, 6]);
    assert!(events.iter().all(|e| matches!(
        e,
        Event::DieRolled {
            purpose: DiePurpose::Attack,
            ..
        }
    )));
}

fn relocation(on: bool) -> viktory::Viktory {
    Pos::new(2, Stage::Build)
        .rules(|r| r.relocation = on)
        .terrain(h(0, 0), Terrain::Grassland)
        .terrain(h(1, 0), Terrain::Mountain)
        .town(h(0, 0), 0, true, false)
        .town(h(-3, 1), 0, false, true)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .unit(2, 0, UnitKind::Cavalry, h(0, 0))
        .unit(3, 0, UnitKind::Infantry, h(-3, 1))
        .build()
}

/// 15.5, R-8: a grassland city moved onto the mountain next door: the owner gives up its
/// infantry and cavalry (his choice, from the map here) and gains the mountain city's
/// infantry and artillery; it is the turn's build.
#[test]
fn rule_15_5_relocation() {
    let relocate = Action::Relocate {
        from: h(0, 0),
        to: h(1, 0),
    };
    assert_eq!(
        refused(&relocation(false), relocate),
        ("not_enabled", "15.5")
    );
    let mut s = relocation(true);
    assert_eq!(
        refused(
            &s,
            Action::Relocate {
                from: h(0, 0),
                to: h(2, 0)
            }
        ),
        ("not_adjacent", "15.5")
    );
    let events = act(&mut s, relocate);
    assert_eq!(
        events[..3],
        [
            Event::TownRelocated {
                seat: Seat(0),
                from: h(0, 0),
                to: h(1, 0)
            },
            Event::UnitGained {
                seat: Seat(0),
                kind: UnitKind::Infantry
            },
            Event::UnitGained {
                seat: Seat(0),
                kind: UnitKind::Artillery
            },
        ]
    );
    assert_eq!(s.town(h(0, 0)), None);
    assert!(
        s.town(h(1, 0))
            .is_some_and(|t| t.city && t.owner == Seat(0))
    );
    // The old city's infantry: from the reserve (just gained) or either infantry on the map.
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    act(
        &mut s,
        Action::Disband {
            kind: UnitKind::Infantry,
            unit: Some(UnitId(1)),
        },
    );
    // The cavalry is the only one: given up automatically; then movement begins.
    assert!(s.unit(UnitId(2)).is_none());
    assert_eq!(s.turn().stage, Stage::Move);
    let r = s.player(Seat(0)).reserve;
    assert_eq!((r.infantry, r.cavalry, r.artillery), (1, 0, 1));
    assert_eq!(s.supported(Seat(0)), s.on_hand(Seat(0)));
    assert!(s.outcome().is_none());
}

/// R-8 with the Expansion's two build actions: a relocation is the whole turn's build,
/// so it is refused once a town has been built this turn.
#[test]
fn rule_15_5_relocation_is_the_whole_build() {
    let mut pos = Pos::new(2, Stage::Build).rules(|r| {
        r.relocation = true;
        r.build_actions = 2;
    });
    pos = pos
        .terrain(h(1, 0), Terrain::Mountain)
        .town(h(0, 0), 0, true, false)
        .town(h(-3, 1), 0, false, true);
    let mut s = pos.build();
    act(&mut s, Action::BuildTown { hex: h(-1, 3) });
    assert_eq!(s.turn().stage, Stage::Build);
    assert_eq!(
        refused(
            &s,
            Action::Relocate {
                from: h(0, 0),
                to: h(1, 0)
            }
        ),
        ("build_actions", "R-8")
    );
}

/// 15.3, H-16: an infantry entering (0,0) reveals three hexes, two of them water: its
/// player may swap one water hex for a land tile drawn from the unused (face-down) tiles.
#[test]
fn rule_15_3_exploration_balancing() {
    let pos = |on: bool| {
        Pos::new(2, Stage::Move)
            .rules(|r| r.exploration_balancing = on)
            .face_down(h(1, -1), Terrain::Water)
            .face_down(h(1, 0), Terrain::Water)
            .face_down(h(0, 1), Terrain::Forest)
            .face_down(h(3, -3), Terrain::Mountain)
            .unit(1, 0, UnitKind::Infantry, h(-1, 0))
            .build()
    };
    let reveal_all = |s: &mut viktory::Viktory| {
        play(
            s,
            &[
                mv(1, 0, 0),
                Action::Reveal {
                    hex: h(1, -1),
                    terrain: Terrain::Water,
                },
                Action::Reveal {
                    hex: h(1, 0),
                    terrain: Terrain::Water,
                },
                Action::Reveal {
                    hex: h(0, 1),
                    terrain: Terrain::Forest,
                },
            ],
        )
    };
    let mut s = pos(true);
    reveal_all(&mut s);
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    assert_eq!(
        s.legal_actions(),
        vec![
            Action::Rebalance { hex: None },
            Action::Rebalance {
                hex: Some(h(1, -1))
            },
            Action::Rebalance { hex: Some(h(1, 0)) },
        ]
    );
    let events = act(&mut s, Action::Rebalance { hex: Some(h(1, 0)) });
    assert_eq!(
        events,
        vec![Event::Rebalanced {
            seat: Seat(0),
            hex: h(1, 0)
        }]
    );
    // The draw gives land only: the one mountain left among the unused tiles.
    assert_eq!(
        s.chance_outcomes(),
        vec![(
            Action::Reveal {
                hex: h(1, 0),
                terrain: Terrain::Mountain
            },
            1
        )]
    );
    act(
        &mut s,
        Action::Reveal {
            hex: h(1, 0),
            terrain: Terrain::Mountain,
        },
    );
    assert_eq!(s.terrain(h(1, 0)), Some(Terrain::Mountain));
    assert_eq!(
        s.bank().water,
        1,
        "the water tile went back among the unused tiles"
    );
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    act(&mut s, mv(1, 1, 0));
    // Without the option, no choice is offered.
    let mut s = pos(false);
    reveal_all(&mut s);
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    assert!(s.legal_actions().contains(&mv(1, 0, -1)));
    assert!(
        !s.legal_actions()
            .iter()
            .any(|a| matches!(a, Action::Rebalance { .. }))
    );
    // Conflicting options are refused naming both (R-2).
    let err = Viktory::new_setup(&engine::NewGame {
        preset: Some("classic".into()),
        options: serde_json::from_str(r#"{"no_exploration": true, "exploration_balancing": true}"#)
            .unwrap(),
        players: Some(2),
    })
    .unwrap_err();
    assert!(
        err.0
            .iter()
            .any(|p| p.code == "conflicting_options" && p.message.contains("no_exploration")),
        "{err}"
    );
}
