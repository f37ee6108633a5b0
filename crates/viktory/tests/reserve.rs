//! Scenario tests for 13.0 Reserve Placement: capacities by town, city and terrain
//! (13.11, 13.12), enemy units next door (13.2), frigates beside forest cities or in the
//! nearest water (13.3), the capital exception (13.4) and the frigate placement naval
//! battle (13.5).

mod common;

use common::*;
use engine::{Game, Seat, ToMove};
use viktory::board::Terrain;
use viktory::event::DiePurpose;
use viktory::state::Stage;
use viktory::{Action, Event, Reserve, UnitId, UnitKind};

/// Seat 0's placement phase: his capital (a plains town) at (-3,1), seat 1's at (3,-1).
fn base() -> Pos {
    Pos::new(2, Stage::Place)
        .town(h(-3, 1), 0, false, true)
        .town(h(3, -1), 1, false, true)
}

/// Place a land unit of `kind` in the town or city at (q, r).
fn place(kind: UnitKind, q: i32, r: i32) -> Action {
    Action::Place {
        kind,
        town: h(q, r),
        to: h(q, r),
    }
}

/// Place a frigate through the town or city at `town`, into the water hex `to`.
fn frigate(town: (i32, i32), to: (i32, i32)) -> Action {
    Action::Place {
        kind: UnitKind::Frigate,
        town: h(town.0, town.1),
        to: h(to.0, to.1),
    }
}

fn placed(unit: u16, kind: UnitKind, q: i32, r: i32) -> Event {
    Event::UnitPlaced {
        seat: Seat(0),
        unit: UnitId(unit),
        kind,
        hex: h(q, r),
    }
}

/// The start of seat 1's turn 1, as it follows seat 0's placement (seat 1 can build).
fn seat_1_turn() -> Vec<Event> {
    vec![
        Event::TurnStarted {
            seat: Seat(1),
            turn: 1,
        },
        Event::PhaseStarted {
            stage: Stage::Build,
        },
    ]
}

const INF: UnitKind = UnitKind::Infantry;
const CAV: UnitKind = UnitKind::Cavalry;
const ART: UnitKind = UnitKind::Artillery;
const FRI: UnitKind = UnitKind::Frigate;

/// 13.11: a town takes one infantry per placement phase.
#[test]
fn rule_13_11_town_takes_one_infantry() {
    let mut s = base()
        .town(h(0, 0), 0, false, false)
        .reserve(0, INF, 2)
        .build();
    let events = act(&mut s, place(INF, 0, 0));
    assert_eq!(events, vec![placed(0, INF, 0, 0)]);
    assert_eq!(ids_at(&s, h(0, 0)), vec![0]);
    assert_eq!(s.player(Seat(0)).reserve.infantry, 1);
    assert_eq!(refused(&s, place(INF, 0, 0)), ("capacity", "13.11"));
    // The capital still takes it (13.4).
    assert!(s.legal_actions().contains(&place(INF, -3, 1)));
}

/// 13.11: a plains city takes up to two infantry.
#[test]
fn rule_13_11_plains_city_takes_two_infantry() {
    let mut s = base()
        .town(h(0, 0), 0, true, false)
        .reserve(0, INF, 3)
        .build();
    let events = play(&mut s, &[place(INF, 0, 0), place(INF, 0, 0)]);
    assert_eq!(events, vec![placed(0, INF, 0, 0), placed(1, INF, 0, 0)]);
    assert_eq!(refused(&s, place(INF, 0, 0)), ("capacity", "13.11"));
    assert_eq!(s.player(Seat(0)).reserve.infantry, 1);
}

/// 13.11: a grassland city takes one infantry and one cavalry, no more of either.
#[test]
fn rule_13_11_grassland_city_takes_one_infantry_and_one_cavalry() {
    let mut s = base()
        .terrain(h(0, 0), Terrain::Grassland)
        .town(h(0, 0), 0, true, false)
        .reserve(0, INF, 2)
        .reserve(0, CAV, 2)
        .build();
    let events = play(&mut s, &[place(CAV, 0, 0), place(INF, 0, 0)]);
    assert_eq!(events, vec![placed(0, CAV, 0, 0), placed(1, INF, 0, 0)]);
    assert_eq!(refused(&s, place(INF, 0, 0)), ("capacity", "13.11"));
    assert_eq!(refused(&s, place(CAV, 0, 0)), ("capacity", "13.11"));
    assert_eq!(
        s.player(Seat(0)).reserve,
        Reserve {
            infantry: 1,
            cavalry: 1,
            ..Reserve::default()
        }
    );
}

/// 13.11, 13.12 (note): a cavalry cannot go into a grassland town, nor into a city of
/// another terrain.
#[test]
fn rule_13_12_no_cavalry_in_a_town_or_a_city_of_another_terrain() {
    let s = base()
        .terrain(h(0, 0), Terrain::Grassland)
        .town(h(0, 0), 0, false, false)
        .town(h(0, 2), 0, true, false)
        .reserve(0, CAV, 1)
        .build();
    assert_eq!(refused(&s, place(CAV, 0, 0)), ("capacity", "13.11"));
    assert_eq!(refused(&s, place(CAV, 0, 2)), ("capacity", "13.11"));
}

/// 13.12: a unit may go into any own city of its terrain, not only the one that
/// produced it (one per city per turn).
#[test]
fn rule_13_12_any_city_of_the_right_terrain() {
    let mut s = base()
        .terrain(h(0, 0), Terrain::Grassland)
        .terrain(h(0, 2), Terrain::Grassland)
        .terrain(h(2, -2), Terrain::Mountain)
        .town(h(0, 0), 0, true, false)
        .town(h(0, 2), 0, true, false)
        .town(h(2, -2), 0, true, false)
        .reserve(0, CAV, 2)
        .reserve(0, ART, 1)
        .build();
    assert_eq!(refused(&s, place(ART, 0, 0)), ("capacity", "13.11"));
    let events = play(
        &mut s,
        &[place(CAV, 0, 0), place(CAV, 0, 2), place(ART, 2, -2)],
    );
    assert_eq!(
        events[..3],
        [
            placed(0, CAV, 0, 0),
            placed(1, CAV, 0, 2),
            placed(2, ART, 2, -2)
        ]
    );
}

/// 13.2: an enemy land unit next to a town stops placement there; one two hexes away
/// does not.
#[test]
fn rule_13_2_adjacent_enemy_land_unit_blocks_placement() {
    let mut s = base()
        .town(h(0, 0), 0, false, false)
        .town(h(0, 2), 0, false, false)
        .unit(5, 1, CAV, h(1, 0))
        .reserve(0, INF, 2)
        .build();
    assert_eq!(refused(&s, place(INF, 0, 0)), ("enemy_adjacent", "13.2"));
    let events = act(&mut s, place(INF, 0, 2));
    assert_eq!(events, vec![placed(6, INF, 0, 2)]);
}

/// 13.2: an enemy frigate in the water next to a town blocks placement there too.
#[test]
fn rule_13_2_adjacent_enemy_frigate_blocks_placement() {
    let s = base()
        .terrain(h(1, 0), Terrain::Water)
        .town(h(0, 0), 0, false, false)
        .unit(5, 1, FRI, h(1, 0))
        .reserve(0, INF, 1)
        .build();
    assert_eq!(refused(&s, place(INF, 0, 0)), ("enemy_adjacent", "13.2"));
}

/// The frigate placements offered through the town or city at `town`.
fn frigate_options(s: &viktory::Viktory, town: (i32, i32)) -> Vec<Action> {
    s.legal_actions()
        .into_iter()
        .filter(|a| matches!(a, Action::Place { kind: UnitKind::Frigate, town: t, .. } if *t == h(town.0, town.1)))
        .collect()
}

/// 13.3: a frigate is placed in a water hex next to its forest city, the owner choosing
/// which; not further away, and never on land.
#[test]
fn rule_13_3_frigate_into_water_next_to_a_forest_city() {
    let mut s = base()
        .terrain(h(0, 0), Terrain::Forest)
        .terrain(h(1, 0), Terrain::Water)
        .terrain(h(0, 1), Terrain::Water)
        .terrain(h(2, 0), Terrain::Water)
        .town(h(0, 0), 0, true, false)
        .reserve(0, FRI, 1)
        .build();
    assert_eq!(
        frigate_options(&s, (0, 0)),
        vec![frigate((0, 0), (1, 0)), frigate((0, 0), (0, 1))]
    );
    assert_eq!(
        refused(&s, frigate((0, 0), (2, 0))),
        ("frigate_hex", "13.3")
    );
    assert_eq!(refused(&s, frigate((0, 0), (0, 0))), ("not_water", "13.3"));
    let events = act(&mut s, frigate((0, 0), (0, 1)));
    assert_eq!(events[0], placed(0, FRI, 0, 1));
    // A forest town supports no frigate, so none is placed through it.
    let s = base()
        .terrain(h(0, 0), Terrain::Forest)
        .terrain(h(1, 0), Terrain::Water)
        .town(h(0, 0), 0, false, false)
        .reserve(0, FRI, 1)
        .build();
    assert_eq!(refused(&s, frigate((0, 0), (1, 0))), ("capacity", "13.11"));
}

/// 13.3: with no water next to the forest city, the frigate goes into the nearest water
/// hex, the owner choosing among equally near ones.
#[test]
fn rule_13_3_frigate_into_the_nearest_water_when_none_is_adjacent() {
    let mut s = base()
        .terrain(h(0, 0), Terrain::Forest)
        .terrain(h(2, 0), Terrain::Water)
        .terrain(h(-2, 2), Terrain::Water)
        .terrain(h(0, 3), Terrain::Water)
        .town(h(0, 0), 0, true, false)
        .reserve(0, FRI, 1)
        .build();
    assert_eq!(
        frigate_options(&s, (0, 0)),
        vec![frigate((0, 0), (2, 0)), frigate((0, 0), (-2, 2))]
    );
    assert_eq!(
        refused(&s, frigate((0, 0), (0, 3))),
        ("frigate_hex", "13.3")
    );
    let events = act(&mut s, frigate((0, 0), (-2, 2)));
    assert_eq!(events[0], placed(0, FRI, -2, 2));
}

/// 13.3 with 13.4: a capital that is a landlocked forest city is still a forest city, so
/// its frigate may go into the nearest water as 13.3 allows; 13.4 only adds the water
/// next to the capital.
#[test]

fn rule_13_3_landlocked_forest_capital_city_uses_the_nearest_water() {
    let s = Pos::new(2, Stage::Place)
        .terrain(h(0, 0), Terrain::Forest)
        .terrain(h(2, 0), Terrain::Water)
        .town(h(0, 0), 0, true, true)
        .town(h(3, -3), 1, false, true)
        .reserve(0, FRI, 1)
        .build();
    assert_eq!(frigate_options(&s, (0, 0)), vec![frigate((0, 0), (2, 0))]);
}

/// 13.4: the capital takes any number of units of any kind, frigates in the water next
/// to it, whatever its terrain and even with an enemy unit next door (13.2 waived).
#[test]
fn rule_13_4_capital_takes_any_number_of_any_kind() {
    let mut s = base()
        .unit(5, 1, INF, h(-2, 1))
        .reserve(0, INF, 3)
        .reserve(0, CAV, 1)
        .reserve(0, ART, 1)
        .reserve(0, FRI, 1)
        .build();
    // (-4,1) is perimeter water next to the capital; (-4,0) is two hexes away, where
    // only the ordinary rules could send a frigate, and the enemy next door forbids it.
    assert_eq!(
        refused(&s, frigate((-3, 1), (-4, 0))),
        ("enemy_adjacent", "13.2")
    );
    let events = play(
        &mut s,
        &[
            place(INF, -3, 1),
            place(INF, -3, 1),
            place(CAV, -3, 1),
            place(ART, -3, 1),
            frigate((-3, 1), (-4, 1)),
        ],
    );
    assert_eq!(
        events,
        vec![
            placed(6, INF, -3, 1),
            placed(7, INF, -3, 1),
            placed(8, CAV, -3, 1),
            placed(9, ART, -3, 1),
            placed(10, FRI, -4, 1),
        ]
    );
    let mut events = act(&mut s, place(INF, -3, 1));
    assert_eq!(events.remove(0), placed(11, INF, -3, 1));
    // Nothing is left to place: the phase ends by itself and seat 1's turn begins.
    assert_eq!(events, seat_1_turn());
    assert_eq!(s.player(Seat(0)).reserve, Reserve::default());
}

/// 13.5: a frigate may be placed onto an enemy frigate (here beside the capital); the
/// naval battle waits until placement is over, and the other units may stay in the
/// reserve (13.0).
#[test]
fn rule_13_5_frigate_placed_on_an_enemy_frigate_fights_after_placement() {
    let mut s = base()
        .unit(5, 1, FRI, h(-4, 1))
        .reserve(0, FRI, 1)
        .reserve(0, INF, 1)
        .build();
    let events = act(&mut s, frigate((-3, 1), (-4, 1)));
    assert_eq!(events, vec![placed(6, FRI, -4, 1)]);
    assert!(s.battle().is_none());
    assert_eq!(s.turn().placement_battles, vec![h(-4, 1)]);
    assert_eq!(s.turn().stage, Stage::Place);

    let events = act(&mut s, Action::EndPhase);
    assert_eq!(
        events,
        vec![
            Event::BattleStarted {
                hex: h(-4, 1),
                attacker: Seat(0),
                defender: Seat(1)
            },
            Event::RoundStarted { round: 1 },
        ]
    );
    assert_eq!(s.to_move(), ToMove::Chance);
    let mut expected = vec![
        Event::DieRolled {
            seat: Seat(0),
            purpose: DiePurpose::Attack,
            value: 2,
        },
        Event::DieRolled {
            seat: Seat(1),
            purpose: DiePurpose::Defense,
            value: 5,
        },
        Event::UnitLost {
            unit: UnitId(5),
            owner: Seat(1),
            kind: FRI,
            chosen_by: Seat(1),
        },
        Event::BattleEnded {
            hex: h(-4, 1),
            winner: Seat(0),
        },
    ];
    expected.extend(seat_1_turn());
    assert_eq!(dice(&mut s, &[2, 5]), expected);
    assert_eq!(ids_at(&s, h(-4, 1)), vec![6]);
    assert_eq!(s.player(Seat(1)).reserve.frigate, 1);
    assert_eq!(
        s.player(Seat(0)).reserve,
        Reserve {
            infantry: 1,
            ..Reserve::default()
        }
    );
}

/// 13.5: with nothing else to place the battle follows at once; it is fought to the end
/// (the placed frigate entered from no hex, so it cannot retreat, 12.3 step 3), and a
/// frigate lost there waits in the reserve for the next placement phase.
#[test]
fn rule_13_5_placement_battle_has_no_retreat_and_losses_wait() {
    let mut s = base().unit(5, 1, FRI, h(-4, 1)).reserve(0, FRI, 1).build();
    assert_eq!(
        act(&mut s, frigate((-3, 1), (-4, 1))),
        vec![
            placed(6, FRI, -4, 1),
            Event::BattleStarted {
                hex: h(-4, 1),
                attacker: Seat(0),
                defender: Seat(1)
            },
            Event::RoundStarted { round: 1 },
        ]
    );
    assert_eq!(
        dice(&mut s, &[5, 5]),
        vec![
            Event::DieRolled {
                seat: Seat(0),
                purpose: DiePurpose::Attack,
                value: 5
            },
            Event::DieRolled {
                seat: Seat(1),
                purpose: DiePurpose::Defense,
                value: 5
            },
            Event::RoundStarted { round: 2 },
        ]
    );
    let mut expected = vec![
        Event::DieRolled {
            seat: Seat(0),
            purpose: DiePurpose::Attack,
            value: 4,
        },
        Event::DieRolled {
            seat: Seat(1),
            purpose: DiePurpose::Defense,
            value: 1,
        },
        Event::UnitLost {
            unit: UnitId(6),
            owner: Seat(0),
            kind: FRI,
            chosen_by: Seat(1),
        },
        Event::BattleEnded {
            hex: h(-4, 1),
            winner: Seat(1),
        },
    ];
    expected.extend(seat_1_turn());
    assert_eq!(dice(&mut s, &[4, 1]), expected);
    assert_eq!(
        s.player(Seat(0)).reserve,
        Reserve {
            frigate: 1,
            ..Reserve::default()
        }
    );
    assert_eq!(ids_at(&s, h(-4, 1)), vec![5]);
}

/// 13.5 with 13.3: a landlocked forest city's frigate may go into the nearest water
/// even onto an enemy frigate there (two hexes off, so 13.2 does not apply).
#[test]
fn rule_13_5_landlocked_forest_city_frigate_onto_an_enemy_frigate() {
    let mut s = base()
        .terrain(h(0, 0), Terrain::Forest)
        .terrain(h(2, 0), Terrain::Water)
        .town(h(0, 0), 0, true, false)
        .unit(5, 1, FRI, h(2, 0))
        .reserve(0, FRI, 1)
        .build();
    assert_eq!(
        act(&mut s, frigate((0, 0), (2, 0))),
        vec![
            placed(6, FRI, 2, 0),
            Event::BattleStarted {
                hex: h(2, 0),
                attacker: Seat(0),
                defender: Seat(1)
            },
            Event::RoundStarted { round: 1 },
        ]
    );
}

/// 13.0: the player may keep any or all of his reserve for later turns.
#[test]
fn rule_13_0_units_may_stay_in_the_reserve() {
    let mut s = base().reserve(0, INF, 2).reserve(0, CAV, 1).build();
    assert!(s.legal_actions().contains(&place(INF, -3, 1)));
    let events = act(&mut s, Action::EndPhase);
    assert_eq!(events, seat_1_turn());
    assert_eq!(
        s.player(Seat(0)).reserve,
        Reserve {
            infantry: 2,
            cavalry: 1,
            ..Reserve::default()
        }
    );
}

/// 13.0: with nothing that can be placed, the placement phase passes by itself.
#[test]
fn rule_13_0_placement_ends_by_itself_when_nothing_can_be_placed() {
    let mut pos = base();
    pos.setup.turn.stage = Stage::Move;
    let mut s = pos.build();
    let mut expected = vec![Event::PhaseStarted {
        stage: Stage::Place,
    }];
    expected.extend(seat_1_turn());
    assert_eq!(act(&mut s, Action::EndPhase), expected);
    assert_eq!(s.turn().active, Seat(1));
}
