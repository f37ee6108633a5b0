//! Scenario tests for 7.0 Building and 8.0 Simple Economics: the capital requirement
//! (7.1), one build per turn (7.2), where towns may stand (7.21, 7.22, R-7), upgrades
//! (7.23), exploration from building (7.3) and the unit each build adds (7.4, 8.1, 8.2).

mod common;

use common::*;
use engine::{Game, Seat, ToMove};
use viktory::board::Terrain;
use viktory::state::{Stage, Town};
use viktory::{Action, Event, Reserve, UnitKind};

fn town(q: i32, r: i32) -> Action {
    Action::BuildTown { hex: h(q, r) }
}

fn city(q: i32, r: i32) -> Action {
    Action::BuildCity { hex: h(q, r) }
}

fn gained(seat: u8, kind: UnitKind) -> Event {
    Event::UnitGained {
        seat: Seat(seat),
        kind,
    }
}

fn move_phase() -> Event {
    Event::PhaseStarted { stage: Stage::Move }
}

/// Seat 0's building phase: his capital at `capital`, seat 1's far away at (3,-3).
fn base(capital: (i32, i32)) -> Pos {
    Pos::new(2, Stage::Build)
        .town(h(capital.0, capital.1), 0, false, true)
        .town(h(3, -3), 1, false, true)
}

/// 7.1: a player who did not hold his capital when his turn began cannot build at all:
/// his building phase passes by itself, with no build offered.
#[test]
fn rule_7_1_no_build_without_the_capital_at_turn_start() {
    let mut pos = Pos::new(2, Stage::Build)
        .captured_capital(h(-2, 0), 1, false, 0)
        .town(h(0, 1), 0, false, false)
        .town(h(3, -3), 1, false, true);
    pos.setup.turn.can_build = false;
    let s = pos.build();
    assert_eq!(s.turn().stage, Stage::Move);
    assert!(
        !s.legal_actions()
            .iter()
            .any(|a| matches!(a, Action::BuildTown { .. } | Action::BuildCity { .. }))
    );
    assert_eq!(refused(&s, town(2, 0)), ("wrong_phase", "6.0"));
    assert_eq!(refused(&s, city(0, 1)), ("wrong_phase", "6.0"));
    // The same position with the capital held at the start of the turn waits to build.
    let s = Pos::new(2, Stage::Build)
        .town(h(-2, 0), 0, false, true)
        .town(h(0, 1), 0, false, false)
        .town(h(3, -3), 1, false, true)
        .build();
    assert_eq!(s.turn().stage, Stage::Build);
    assert!(s.legal_actions().contains(&town(2, 0)));
    assert!(s.legal_actions().contains(&city(0, 1)));
}

/// 7.21, R-7: a new town stands two or three hexes from one of the builder's towns or
/// cities, never next to one, and on land.
#[test]
fn rule_7_21_town_two_or_three_hexes_from_an_own_town() {
    let mut s = base((-2, 0)).build();
    assert!(s.legal_actions().contains(&town(0, 0)), "two hexes away");
    assert!(s.legal_actions().contains(&town(1, 0)), "three hexes away");
    assert_eq!(refused(&s, town(-1, 0)), ("town_adjacent", "7.21"));
    assert_eq!(refused(&s, town(-2, 0)), ("town_there", "7.21"));
    assert_eq!(refused(&s, town(2, 0)), ("too_far", "7.21"));
    let mut water = base((-2, 0)).terrain(h(0, 0), Terrain::Water).build();
    assert_eq!(refused(&water, town(0, 0)), ("not_land", "7.21"));
    // Across water counts (7.21): (1,0) is reached over the water at (0,0).
    act(&mut water, town(1, 0));

    let events = act(&mut s, town(1, 0));
    assert_eq!(
        events,
        vec![
            Event::TownBuilt {
                seat: Seat(0),
                hex: h(1, 0)
            },
            gained(0, UnitKind::Infantry),
            move_phase()
        ]
    );
    assert_eq!(
        s.town(h(1, 0)),
        Some(Town {
            owner: Seat(0),
            city: false,
            capital_of: None,
            metropolis: None,
        })
    );
    assert_eq!(s.turn().built, Some(h(1, 0)));
    assert_eq!(s.player(Seat(0)).reserve.infantry, 1);
}

/// 7.21 "For Example", R-7: a hex three away that someone else revealed cannot take a
/// town while no contiguous 2–3 hex path of revealed hexes joins it to the builder's
/// town; face-down hexes cannot be built on either.
#[test]
fn rule_7_21_for_example_needs_a_contiguous_revealed_path() {
    // Along a straight line the only three-step path from (-2,0) to (1,0) runs through
    // (-1,0) and (0,0); (0,0) is face down.
    let s = base((-2, 0)).face_down(h(0, 0), Terrain::Plains).build();
    assert_eq!(s.terrain(h(1, 0)), Some(Terrain::Plains));
    assert_eq!(refused(&s, town(1, 0)), ("too_far", "7.21"));
    assert_eq!(refused(&s, town(0, 0)), ("not_explored", "7.21"));
    // Once (0,0) is revealed, the same hex is fine.
    let s = base((-2, 0)).build();
    assert!(s.legal_actions().contains(&town(1, 0)));
}

/// 7.21: no town next to any town or city, the other players' included.
#[test]
fn rule_7_21_no_town_next_to_an_enemy_town() {
    let s = base((-2, 0)).town(h(1, -1), 1, false, false).build();
    assert_eq!(refused(&s, town(0, 0)), ("town_adjacent", "7.21"));
    assert!(s.legal_actions().contains(&town(0, 1)));
}

/// 7.22: no town on a hex holding another player's unit; his own units, or enemy units
/// next door, do not stop it.
#[test]
fn rule_7_22_not_on_a_hex_with_an_enemy_unit() {
    let mut s = base((-2, 0))
        .unit(1, 1, UnitKind::Infantry, h(0, 0))
        .unit(2, 0, UnitKind::Infantry, h(0, 1))
        .build();
    assert_eq!(refused(&s, town(0, 0)), ("enemy_units", "7.22"));
    let events = act(&mut s, town(0, 1));
    assert_eq!(
        events[0],
        Event::TownBuilt {
            seat: Seat(0),
            hex: h(0, 1)
        }
    );
}

/// 7.23: a town of the builder's becomes a city, keeping its capital marker; a city or
/// another player's town cannot be upgraded.
#[test]
fn rule_7_23_upgrade_a_town_into_a_city() {
    let mut s = base((0, 0))
        .town(h(-2, 0), 0, true, false)
        .town(h(0, 3), 1, false, false)
        .build();
    assert_eq!(refused(&s, city(-2, 0)), ("already_city", "7.23"));
    assert_eq!(refused(&s, city(0, 3)), ("not_your_town", "7.23"));
    assert_eq!(refused(&s, city(1, 0)), ("not_your_town", "7.23"));
    let events = act(&mut s, city(0, 0));
    assert_eq!(
        events,
        vec![
            Event::CityBuilt {
                seat: Seat(0),
                hex: h(0, 0)
            },
            gained(0, UnitKind::Infantry),
            move_phase()
        ]
    );
    assert_eq!(
        s.town(h(0, 0)),
        Some(Town {
            owner: Seat(0),
            city: true,
            capital_of: Some(Seat(0)),
            metropolis: None,
        })
    );
}

/// 7.3: a new town reveals the face-down hexes next to it (and nothing further away);
/// each is a chance draw from the tiles left.
#[test]
fn rule_7_3_a_new_town_reveals_its_neighbours() {
    let mut s = base((0, 0))
        .face_down(h(3, 0), Terrain::Forest)
        .face_down(h(2, 1), Terrain::Water)
        .face_down(h(2, -2), Terrain::Mountain)
        .build();
    let events = act(&mut s, town(2, 0));
    assert_eq!(
        events,
        vec![
            Event::TownBuilt {
                seat: Seat(0),
                hex: h(2, 0)
            },
            gained(0, UnitKind::Infantry),
            move_phase()
        ]
    );
    assert_eq!(s.pending_reveals(), &[h(3, 0), h(2, 1)]);
    assert_eq!(s.to_move(), ToMove::Chance);
    assert_eq!(
        s.legal_actions(),
        vec![
            Action::Reveal {
                hex: h(3, 0),
                terrain: Terrain::Forest
            },
            Action::Reveal {
                hex: h(3, 0),
                terrain: Terrain::Mountain
            },
            Action::Reveal {
                hex: h(3, 0),
                terrain: Terrain::Water
            },
        ]
    );
    let events = play(
        &mut s,
        &[
            Action::Reveal {
                hex: h(3, 0),
                terrain: Terrain::Forest,
            },
            Action::Reveal {
                hex: h(2, 1),
                terrain: Terrain::Water,
            },
        ],
    );
    assert_eq!(
        events,
        vec![
            Event::Revealed {
                hex: h(3, 0),
                terrain: Terrain::Forest
            },
            Event::Revealed {
                hex: h(2, 1),
                terrain: Terrain::Water
            },
        ]
    );
    assert_eq!(
        s.terrain(h(2, -2)),
        None,
        "two hexes from the town stays face down"
    );
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    assert_eq!(s.turn().stage, Stage::Move);
}

/// 7.3: a new city reveals every face-down hex two hexes away (not three).
#[test]
fn rule_7_3_a_new_city_reveals_the_ring_two_away() {
    let mut s = base((0, 0))
        .face_down(h(2, 0), Terrain::Grassland)
        .face_down(h(-2, 0), Terrain::Mountain)
        .face_down(h(3, 0), Terrain::Water)
        .build();
    let events = act(&mut s, city(0, 0));
    assert_eq!(
        events,
        vec![
            Event::CityBuilt {
                seat: Seat(0),
                hex: h(0, 0)
            },
            gained(0, UnitKind::Infantry),
            move_phase()
        ]
    );
    assert_eq!(s.pending_reveals(), &[h(2, 0), h(-2, 0)]);
}

/// The unit a city on `terrain` adds (7.4, 8.2), with the reserve afterwards.
fn city_gain(terrain: Terrain) -> (Vec<Event>, Reserve) {
    let mut s = base((0, 0)).terrain(h(0, 0), terrain).build();
    let events = act(&mut s, city(0, 0));
    (events, s.player(Seat(0)).reserve)
}

/// 7.4, 8.1: building a town adds one infantry to the reserve.
#[test]
fn rule_8_1_a_town_gives_an_infantry() {
    let mut s = base((0, 0)).terrain(h(2, 0), Terrain::Mountain).build();
    let events = act(&mut s, town(2, 0));
    assert_eq!(events[1], gained(0, UnitKind::Infantry));
    assert_eq!(
        s.player(Seat(0)).reserve,
        Reserve {
            infantry: 1,
            ..Reserve::default()
        }
    );
}

/// 7.4, 8.2: a plains city adds a second infantry.
#[test]
fn rule_8_2_plains_city_gives_an_infantry() {
    let (events, reserve) = city_gain(Terrain::Plains);
    assert_eq!(events[1], gained(0, UnitKind::Infantry));
    assert_eq!(
        reserve,
        Reserve {
            infantry: 1,
            ..Reserve::default()
        }
    );
}

/// 7.4, 8.2: a grassland city adds a cavalry.
#[test]
fn rule_8_2_grassland_city_gives_a_cavalry() {
    let (events, reserve) = city_gain(Terrain::Grassland);
    assert_eq!(events[1], gained(0, UnitKind::Cavalry));
    assert_eq!(
        reserve,
        Reserve {
            cavalry: 1,
            ..Reserve::default()
        }
    );
}

/// 7.4, 8.2: a mountain city adds an artillery.
#[test]
fn rule_8_2_mountain_city_gives_an_artillery() {
    let (events, reserve) = city_gain(Terrain::Mountain);
    assert_eq!(events[1], gained(0, UnitKind::Artillery));
    assert_eq!(
        reserve,
        Reserve {
            artillery: 1,
            ..Reserve::default()
        }
    );
}

/// 7.4, 8.2: a forest city adds a frigate.
#[test]
fn rule_8_2_forest_city_gives_a_frigate() {
    let (events, reserve) = city_gain(Terrain::Forest);
    assert_eq!(events[1], gained(0, UnitKind::Frigate));
    assert_eq!(
        reserve,
        Reserve {
            frigate: 1,
            ..Reserve::default()
        }
    );
}

/// 7.2: one town or one upgrade per turn: after a build the movement phase has begun
/// and no second build is possible.
#[test]
fn rule_7_2_one_build_per_turn() {
    let mut s = base((0, 0)).build();
    act(&mut s, town(2, 0));
    assert_eq!(s.turn().stage, Stage::Move);
    assert_eq!(refused(&s, town(-2, 0)), ("wrong_phase", "6.0"));
    assert_eq!(refused(&s, city(0, 0)), ("wrong_phase", "6.0"));
}

/// 7.22 (last paragraph): a player may choose not to build; ending the phase goes
/// straight to movement with nothing built or gained.
#[test]
fn rule_7_22_the_player_may_skip_building() {
    let mut s = base((0, 0)).build();
    let towns = s.towns().count();
    let events = act(&mut s, Action::EndPhase);
    assert_eq!(events, vec![move_phase()]);
    assert_eq!(s.turn().stage, Stage::Move);
    assert_eq!(s.towns().count(), towns);
    assert_eq!(s.player(Seat(0)).reserve, Reserve::default());
    assert_eq!(s.turn().built, None);
}
