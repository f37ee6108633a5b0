//! Scenario tests for 9.4 Naval Transport (9.41–9.47).

mod common;

use common::*;
use engine::{Game, Seat};
use viktory::board::Terrain;
use viktory::state::Stage;
use viktory::{Action, Event, UnitId, UnitKind};

fn embark(unit: u16, frigate: u16) -> Action {
    Action::Embark {
        unit: UnitId(unit),
        frigate: UnitId(frigate),
    }
}

fn land(unit: u16, q: i32, r: i32) -> Action {
    Action::Disembark {
        unit: UnitId(unit),
        to: h(q, r),
    }
}

/// A strait of water along r = 0 from q = -3 to 3; land elsewhere.
fn strait() -> Pos {
    let mut p = Pos::new(2, Stage::Move);
    for q in -3..=3 {
        p = p.terrain(h(q, 0), Terrain::Water);
    }
    p
}

#[test]
fn rule_9_41_three_at_a_time_and_three_a_turn() {
    let mut s = strait()
        .unit(1, 0, UnitKind::Frigate, h(0, 0))
        .unit(2, 0, UnitKind::Infantry, h(0, -1))
        .unit(3, 0, UnitKind::Infantry, h(1, -1))
        .unit(4, 0, UnitKind::Artillery, h(0, 1))
        .unit(5, 0, UnitKind::Cavalry, h(-1, 1))
        .build();
    let events = play(&mut s, &[embark(2, 1), embark(3, 1), embark(4, 1)]);
    assert_eq!(
        events[0],
        Event::Embarked {
            unit: UnitId(2),
            frigate: UnitId(1),
            from: h(0, -1),
        }
    );
    assert_eq!(refused(&s, embark(5, 1)), ("frigate_full", "9.41"));
    // Dropping one off makes room aboard, but not a fourth load this turn.
    act(&mut s, land(2, 0, -1));
    assert_eq!(refused(&s, embark(5, 1)), ("frigate_full", "9.41"));
}

#[test]
fn rule_9_42_pick_ups_from_several_places_at_no_cost() {
    let mut s = strait()
        .unit(1, 0, UnitKind::Frigate, h(-2, 0))
        .unit(2, 0, UnitKind::Infantry, h(-2, -1))
        .unit(3, 0, UnitKind::Infantry, h(0, 1))
        .build();
    play(
        &mut s,
        &[
            embark(2, 1),
            mv(1, -1, 0),
            mv(1, 0, 0),
            embark(3, 1),
            mv(1, 1, 0),
        ],
    );
    assert_eq!(s.unit(UnitId(1)).unwrap().mp, 2);
    assert_eq!(s.unit(UnitId(2)).unwrap().hex, h(1, 0));
    assert_eq!(s.unit(UnitId(3)).unwrap().aboard, Some(UnitId(1)));
}

#[test]
fn rule_9_43_transported_units_neither_move_before_nor_after() {
    let mut s = strait()
        .unit(1, 0, UnitKind::Frigate, h(0, 0))
        .unit(2, 0, UnitKind::Infantry, h(0, -1))
        .unit(3, 0, UnitKind::Infantry, h(1, -2))
        .build();
    act(&mut s, mv(3, 1, -1));
    assert_eq!(refused(&s, embark(3, 1)), ("moved", "9.43"));
    act(&mut s, embark(2, 1));
    assert_eq!(refused(&s, mv(2, 0, -1)), ("cargo", "9.43"));
    act(&mut s, land(2, 1, -1));
    assert_eq!(refused(&s, mv(2, 2, -2)), ("no_movement", "9.0"));
}

#[test]
fn rule_9_44_transported_artillery_cannot_bombard() {
    let mut s = strait()
        .unit(1, 0, UnitKind::Frigate, h(0, 0))
        .unit(2, 0, UnitKind::Artillery, h(0, -1))
        .unit(9, 1, UnitKind::Infantry, h(2, -2))
        .build();
    play(&mut s, &[embark(2, 1), land(2, 1, -1)]);
    assert_eq!(
        refused(
            &s,
            Action::Bombard {
                unit: UnitId(2),
                target: h(2, -2)
            }
        ),
        ("transported", "9.44")
    );
}

#[test]
fn rule_9_45_cargo_stays_at_sea_and_sinks_with_its_frigate() {
    let mut s = strait()
        .unit(1, 0, UnitKind::Frigate, h(0, 0))
        .unit(2, 0, UnitKind::Infantry, h(0, -1))
        .build();
    play(&mut s, &[embark(2, 1), Action::EndPhase]);
    assert_eq!(s.unit(UnitId(2)).unwrap().aboard, Some(UnitId(1)));
    // An enemy artillery sinks the frigate: the cargo goes to the reserve too.
    let mut s = strait()
        .unit(1, 1, UnitKind::Frigate, h(0, 0))
        .cargo(2, 1, UnitKind::Infantry, 1)
        .unit(3, 0, UnitKind::Artillery, h(0, 1))
        .build();
    act(
        &mut s,
        Action::Bombard {
            unit: UnitId(3),
            target: h(0, 0),
        },
    );
    let events = dice(&mut s, &[2]);
    assert!(events.contains(&Event::UnitLost {
        unit: UnitId(1),
        owner: Seat(1),
        kind: UnitKind::Frigate,
        chosen_by: Seat(1)
    }));
    assert!(events.contains(&Event::UnitLost {
        unit: UnitId(2),
        owner: Seat(1),
        kind: UnitKind::Infantry,
        chosen_by: Seat(1)
    }));
    assert_eq!(s.player(Seat(1)).reserve.frigate, 1);
    assert_eq!(s.player(Seat(1)).reserve.infantry, 1);
    assert!(s.units().iter().all(|u| u.owner == Seat(0)));
}

#[test]
fn rule_9_46_one_drop_off_hex_and_the_frigate_stops() {
    let mut s = strait()
        .unit(1, 0, UnitKind::Frigate, h(0, 0))
        .cargo(2, 0, UnitKind::Infantry, 1)
        .cargo(3, 0, UnitKind::Cavalry, 1)
        .build();
    let events = act(&mut s, land(2, 0, -1));
    assert_eq!(
        events,
        vec![Event::Disembarked {
            unit: UnitId(2),
            to: h(0, -1),
            from: h(0, 0),
        }]
    );
    assert_eq!(refused(&s, land(3, 0, 1)), ("one_drop_hex", "9.46"));
    assert_eq!(refused(&s, mv(1, 1, 0)), ("no_movement", "9.0"));
    act(&mut s, land(3, 0, -1));
    assert_eq!(ids_at(&s, h(0, -1)), [2, 3]);
}

#[test]
fn rule_9_47_amphibious_landing_starts_a_battle() {
    let mut s = strait()
        .unit(1, 0, UnitKind::Frigate, h(0, 0))
        .cargo(2, 0, UnitKind::Infantry, 1)
        .unit(9, 1, UnitKind::Infantry, h(0, 1))
        .build();
    act(&mut s, land(2, 0, 1));
    assert_eq!(s.turn().pending_battles, [h(0, 1)]);
    assert_eq!(s.unit(UnitId(2)).unwrap().entered_from, Some(h(0, 0)));
    // The frigate can still ferry: pick up from its hex's other shore and drop at the
    // same hex (9.47's example: transport after moving and attacking).
    assert!(s.legal_actions().contains(&Action::Fight { hex: h(0, 1) }));
}
