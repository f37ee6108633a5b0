//! Scenario tests for 9.0 Movement (9.1, 9.11, 9.12, 9.13, 9.2, 9.3, 9.31, 9.32) and
//!

mod common;

use common::*;
use engine::{Game, ToMove};
use viktory::board::Terrain;
use viktory::state::Stage;
use viktory::{Action, Event, UnitId, UnitKind};

#[test]
fn rule_9_11_movement_allowances() {
    let mut s = Pos::new(2, Stage::Move)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .unit(2, 0, UnitKind::Cavalry, h(0, 1))
        .build();
    play(&mut s, &[mv(1, 1, 0), mv(1, 2, 0)]);
    assert_eq!(refused(&s, mv(1, 3, 0)), ("no_movement", "9.0"));
    play(&mut s, &[mv(2, 1, 1), mv(2, 2, 1), mv(2, 3, 0)]);
    assert_eq!(refused(&s, mv(2, 3, -1)), ("no_movement", "9.0"));
}

#[test]
fn rule_9_1_land_units_stay_on_land() {
    let s = Pos::new(2, Stage::Move)
        .terrain(h(1, 0), Terrain::Water)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .build();
    assert_eq!(refused(&s, mv(1, 1, 0)), ("water", "9.1"));
    assert_eq!(refused(&s, mv(1, 2, 0)), ("not_adjacent", "9.13"));
}

#[test]
fn rule_9_12_slow_terrain_stops_the_unit() {
    let mut s = Pos::new(2, Stage::Move)
        .terrain(h(1, 0), Terrain::Forest)
        .terrain(h(0, 1), Terrain::Mountain)
        .unit(1, 0, UnitKind::Cavalry, h(0, 0))
        .build();
    let events = act(&mut s, mv(1, 1, 0));
    assert_eq!(
        events,
        vec![Event::Moved {
            unit: UnitId(1),
            from: h(0, 0),
            to: h(1, 0),
            road: false
        }]
    );
    assert_eq!(refused(&s, mv(1, 2, 0)), ("no_movement", "9.0"));
}

#[test]
fn rule_9_12_exception_a_own_town_in_slow_terrain() {
    let mut s = Pos::new(2, Stage::Move)
        .terrain(h(1, 0), Terrain::Forest)
        .town(h(1, 0), 0, false, false)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .build();
    play(&mut s, &[mv(1, 1, 0), mv(1, 2, 0)]);
    assert_eq!(ids_at(&s, h(2, 0)), [1]);
}

#[test]
fn rule_9_12_exception_b_own_land_unit_began_the_turn_there() {
    let mut s = Pos::new(2, Stage::Move)
        .terrain(h(1, 0), Terrain::Mountain)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .unit(2, 0, UnitKind::Artillery, h(1, 0))
        .build();
    play(&mut s, &[mv(1, 1, 0), mv(1, 2, 0)]);
    assert_eq!(ids_at(&s, h(2, 0)), [1]);
}

/// slow terrain is judged on entry; a forest revealed during the turn is slow.
#[test]
fn r10_forest_revealed_during_the_turn_is_slow() {
    let mut s = Pos::new(2, Stage::Move)
        .face_down(h(2, 0), Terrain::Forest)
        .unit(1, 0, UnitKind::Cavalry, h(0, 0))
        .build();
    act(&mut s, mv(1, 1, 0));
    assert_eq!(s.to_move(), ToMove::Chance);
    let events = act(
        &mut s,
        Action::Reveal {
            hex: h(2, 0),
            terrain: Terrain::Forest,
        },
    );
    assert_eq!(
        events,
        vec![Event::Revealed {
            hex: h(2, 0),
            terrain: Terrain::Forest
        }]
    );
    act(&mut s, mv(1, 2, 0));
    assert_eq!(refused(&s, mv(1, 3, 0)), ("no_movement", "9.0"));
}

/// 9.13 "For Example": city A to city B to city C, 2 or 3 land hexes apart, one movement
/// point each.
#[test]
fn rule_9_13_road_movement_example() {
    let mut s = Pos::new(2, Stage::Move)
        .town(h(-2, 0), 0, true, false)
        .town(h(0, 0), 0, true, false)
        .town(h(3, -1), 0, true, false)
        .unit(1, 0, UnitKind::Infantry, h(-2, 0))
        .build();
    let events = play(&mut s, &[mv(1, 0, 0), mv(1, 3, -1)]);
    assert_eq!(
        events,
        vec![
            Event::Moved {
                unit: UnitId(1),
                from: h(-2, 0),
                to: h(0, 0),
                road: true
            },
            Event::Moved {
                unit: UnitId(1),
                from: h(0, 0),
                to: h(3, -1),
                road: true
            },
        ]
    );
    assert_eq!(s.unit(UnitId(1)).unwrap().mp, 0);
}

#[test]
fn rule_9_13_roads_need_land_free_of_enemy_units() {
    let base = || {
        Pos::new(2, Stage::Move)
            .town(h(-2, 0), 0, false, false)
            .town(h(0, 0), 0, false, false)
            .unit(1, 0, UnitKind::Infantry, h(-2, 0))
    };
    // Paths of 2 or 3 land hexes from (-2,0) to (0,0): straight through (-1,0), or the
    // detours (-1,-1),(0,-1) and (-2,1),(-1,1) (R-11: "some path").
    let s = base().terrain(h(-1, 0), Terrain::Water).build();
    assert!(
        s.legal_actions().contains(&mv(1, 0, 0)),
        "a detour around the water"
    );
    let s = base()
        .terrain(h(-1, 0), Terrain::Water)
        .terrain(h(0, -1), Terrain::Water)
        .terrain(h(-1, 1), Terrain::Water)
        .build();
    assert_eq!(refused(&s, mv(1, 0, 0)), ("not_adjacent", "9.13"));
    let s = base()
        .unit(9, 1, UnitKind::Infantry, h(-1, 0))
        .unit(8, 1, UnitKind::Infantry, h(0, -1))
        .terrain(h(-1, 1), Terrain::Water)
        .build();
    assert_eq!(refused(&s, mv(1, 0, 0)), ("not_adjacent", "9.13"));
    // An enemy unit in the destination town blocks the road too.
    let s = base().unit(9, 1, UnitKind::Infantry, h(0, 0)).build();
    assert_eq!(refused(&s, mv(1, 0, 0)), ("not_adjacent", "9.13"));
    // Slow terrain on the way does not matter.
    let mut s = base().terrain(h(-1, 0), Terrain::Mountain).build();
    act(&mut s, mv(1, 0, 0));
}

#[test]
fn rule_9_13_a_town_built_this_turn_is_not_on_the_road_network() {
    let mut p = Pos::new(2, Stage::Move)
        .town(h(-2, 0), 0, false, false)
        .town(h(0, 0), 0, false, false)
        .unit(1, 0, UnitKind::Infantry, h(-2, 0));
    p.setup.turn.built = Some(h(0, 0));
    let s = p.build();
    assert_eq!(refused(&s, mv(1, 0, 0)), ("not_adjacent", "9.13"));
}

#[test]
fn rule_9_13_a_town_conquered_this_turn_is_on_the_road_network() {
    let mut s = Pos::new(2, Stage::Move)
        .town(h(-2, 0), 0, false, true)
        .town(h(0, 0), 1, false, false)
        .town(h(0, 3), 1, false, true)
        .unit(1, 0, UnitKind::Infantry, h(-1, 0))
        .unit(2, 0, UnitKind::Infantry, h(-2, 0))
        .build();
    act(&mut s, mv(1, 0, 0));
    act(&mut s, Action::Fight { hex: h(0, 0) });
    // An undefended plains town rolls one terrain die; a 6 misses.
    dice(&mut s, &[6]);
    assert_eq!(s.town(h(0, 0)).unwrap().owner, engine::Seat(0));
    act(&mut s, mv(2, 0, 0));
    assert_eq!(ids_at(&s, h(0, 0)), [1, 2]);
}

#[test]
fn rule_9_2_entering_a_hex_reveals_its_neighbours() {
    let mut s = Pos::new(2, Stage::Move)
        .face_down(h(2, 0), Terrain::Water)
        .face_down(h(2, -1), Terrain::Grassland)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .build();
    act(&mut s, mv(1, 1, 0));
    assert_eq!(s.pending_reveals(), [h(2, -1), h(2, 0)]);
    assert_eq!(s.to_move(), ToMove::Chance);
    // The draw comes from the tiles left: one grassland, one water.
    let outcomes = s.chance_outcomes();
    assert_eq!(outcomes.len(), 2);
    act(
        &mut s,
        Action::Reveal {
            hex: h(2, -1),
            terrain: Terrain::Water,
        },
    );
    assert_eq!(
        s.chance_outcomes(),
        vec![(
            Action::Reveal {
                hex: h(2, 0),
                terrain: Terrain::Grassland
            },
            1
        )]
    );
    act(
        &mut s,
        Action::Reveal {
            hex: h(2, 0),
            terrain: Terrain::Grassland,
        },
    );
    assert_eq!(s.to_move(), ToMove::Seat(engine::Seat(0)));
}

/// moving another unit ends the previous unit's movement.
#[test]
fn r9_one_unit_at_a_time() {
    let mut s = Pos::new(2, Stage::Move)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .unit(2, 0, UnitKind::Infantry, h(0, 1))
        .build();
    act(&mut s, mv(1, 1, 0));
    let events = act(&mut s, mv(2, 1, 1));
    assert_eq!(events[0], Event::MovementEnded { unit: UnitId(1) });
    assert_eq!(refused(&s, mv(1, 2, 0)), ("no_movement", "9.0"));
    act(&mut s, mv(2, 2, 1));
}

/// R-9, 9.12: a unit's movement is announced as over once, when it becomes done: the
/// next unit to move ends it, whether it still had points, spent them all, or was
/// stopped by slow terrain (it may still act where it stands until then).
#[test]
fn r9_a_unit_stops_once_in_the_log() {
    let ended = |events: &[Event], id: u16| {
        events
            .iter()
            .filter(|e| **e == Event::MovementEnded { unit: UnitId(id) })
            .count()
    };
    let mut s = Pos::new(2, Stage::Move)
        .terrain(h(1, 0), Terrain::Forest)
        .unit(1, 0, UnitKind::Infantry, h(0, 0))
        .unit(2, 0, UnitKind::Infantry, h(0, 1))
        .unit(3, 0, UnitKind::Infantry, h(0, 2))
        .build();
    // Stopped by the forest, not yet done.
    let stopped = act(&mut s, mv(1, 1, 0));
    assert_eq!(ended(&stopped, 1), 0);
    assert!(!s.unit(UnitId(1)).unwrap().done);
    // Unit 2 moves: unit 1 is done, announced once.
    let mut events = act(&mut s, mv(2, 1, 1));
    assert_eq!(ended(&events, 1), 1);
    events.extend(act(&mut s, mv(2, 2, 1)));
    assert_eq!(ended(&events, 2), 0, "out of points, but not yet done");
    // Unit 3 moves: unit 2 is done, announced once; unit 1 not again.
    let third = act(&mut s, mv(3, 1, 2));
    assert_eq!((ended(&third, 1), ended(&third, 2)), (0, 1));
    assert_eq!(refused(&s, mv(1, 2, 0)), ("no_movement", "9.0"));
    assert_eq!(refused(&s, mv(2, 3, 1)), ("no_movement", "9.0"));
}

#[test]
fn rule_9_31_frigates_move_five_on_water() {
    let mut p = Pos::new(2, Stage::Move);
    for q in -3..=3 {
        p = p.terrain(h(q, 0), Terrain::Water);
    }
    let mut s = p.unit(1, 0, UnitKind::Frigate, h(-3, 0)).build();
    play(
        &mut s,
        &[
            mv(1, -2, 0),
            mv(1, -1, 0),
            mv(1, 0, 0),
            mv(1, 1, 0),
            mv(1, 2, 0),
        ],
    );
    assert_eq!(refused(&s, mv(1, 3, 0)), ("no_movement", "9.0"));
    let s2 = Pos::new(2, Stage::Move)
        .terrain(h(0, 0), Terrain::Water)
        .unit(1, 0, UnitKind::Frigate, h(0, 0))
        .build();
    assert_eq!(refused(&s2, mv(1, 1, 0)), ("not_a_port", "9.32"));
}

/// 9.32: a frigate crosses an own port town between two bodies of water, paying one
/// point in and one out, and may not stop there.
#[test]
fn rule_9_32_port_transit() {
    let base = || {
        Pos::new(2, Stage::Move)
            .terrain(h(-1, 0), Terrain::Water)
            .terrain(h(1, 0), Terrain::Water)
            .town(h(0, 0), 0, false, false)
            .unit(1, 0, UnitKind::Frigate, h(-1, 0))
            .unit(2, 0, UnitKind::Infantry, h(0, -2))
    };
    let mut s = base().build();
    act(&mut s, mv(1, 0, 0));
    assert_eq!(refused(&s, Action::EndPhase), ("frigate_in_port", "9.32"));
    assert_eq!(refused(&s, mv(2, 0, -1)), ("frigate_in_port", "9.32"));
    act(&mut s, mv(1, 1, 0));
    assert_eq!(s.unit(UnitId(1)).unwrap().mp, 3);
    act(&mut s, Action::EndPhase);
    // Not through a town built this turn, nor with one point left.
    let mut p = base();
    p.setup.turn.built = Some(h(0, 0));
    assert_eq!(refused(&p.build(), mv(1, 0, 0)), ("not_a_port", "9.32"));
    let mut s = base().build();
    s = {
        let mut setup = s.to_setup();
        setup.units[0].mp = 1;
        viktory::Viktory::from_setup(&setup).unwrap()
    };
    assert_eq!(refused(&s, mv(1, 0, 0)), ("port_transit", "9.32"));
}

#[test]
fn rule_12_0_entering_an_enemy_hex_ends_the_move_and_starts_a_battle() {
    let mut s = Pos::new(2, Stage::Move)
        .unit(1, 0, UnitKind::Cavalry, h(0, 0))
        .unit(9, 1, UnitKind::Infantry, h(1, 0))
        .build();
    let events = act(&mut s, mv(1, 1, 0));
    assert_eq!(events[1], Event::MovementEnded { unit: UnitId(1) });
    assert_eq!(s.turn().pending_battles, [h(1, 0)]);
    assert_eq!(refused(&s, Action::EndPhase), ("battle_pending", "12.0"));
    assert!(s.legal_actions().contains(&Action::Fight { hex: h(1, 0) }));
}
