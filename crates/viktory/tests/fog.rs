//! Online rules, Dark and Independent exploration: each option on, and the classic
//! behaviour with it off.

mod common;

use common::*;
use engine::{Game, Seat, ToMove};
use hexmap::Hex;
use viktory::board::Terrain;
use viktory::state::{Stage, Town, TownSetup};
use viktory::{Action, Event, UnitKind, Viktory};

/// Seat 0: capital at (-3,0), infantry 1 at (-2,1). Seat 1: capital at (3,-3).
fn base(stage: Stage, dark: bool) -> Pos {
    Pos::new(2, stage)
        .rules(|r| r.dark = dark)
        .town(h(-3, 0), 0, false, true)
        .unit(1, 0, UnitKind::Infantry, h(-2, 1))
        .town(h(3, -3), 1, false, true)
}

fn unit_ids(s: &Viktory, seat: u8) -> Vec<u16> {
    s.view(Some(Seat(seat)))
        .position
        .units
        .iter()
        .map(|u| u.id.0)
        .collect()
}

/// Dark: out of turn a seat sees one hex around its units and towns and two around its
/// capital and cities; enemy units elsewhere are not in its view. Without Dark it sees
/// every unit.
#[test]
fn online_dark_sight_around_own_units_towns_and_cities() {
    for dark in [true, false] {
        let s = base(Stage::Move, dark)
            .unit(2, 0, UnitKind::Infantry, h(2, -1)) // 2 from seat 1's capital
            .unit(3, 0, UnitKind::Infantry, h(0, 0)) // 3 from it
            .unit(4, 1, UnitKind::Infantry, h(1, 1))
            .unit(5, 0, UnitKind::Infantry, h(0, 2)) // next to unit 4
            .build();
        let seen = unit_ids(&s, 1);
        if dark {
            assert_eq!(seen, vec![2, 4, 5]);
            let view = s.view(Some(Seat(1)));
            let sight = view.sight.expect("dark views list the hexes in sight");
            assert!(sight.contains(&h(1, -1)) && !sight.contains(&h(-1, 0)));
        } else {
            assert_eq!(seen, vec![1, 2, 3, 4, 5]);
            assert!(s.view(Some(Seat(1))).sight.is_none());
        }
    }
}

/// Dark: on its own turn, while it can still move, a seat also sees every hex its units
/// can move to and one beyond; in the placement phase it no longer does.
#[test]
fn online_dark_sight_of_the_moving_player() {
    let pos = |stage| {
        base(stage, true)
            .unit(6, 1, UnitKind::Infantry, h(1, 0)) // 3 from infantry 1
            .unit(7, 1, UnitKind::Infantry, h(2, -2)) // 4 from it
    };
    assert_eq!(unit_ids(&pos(Stage::Move).build(), 0), vec![1, 6]);
    assert_eq!(unit_ids(&pos(Stage::Place).build(), 0), vec![1]);
    // Slow terrain ends a move: behind a forest the sight is shorter.
    let s = pos(Stage::Move)
        .terrain(h(-1, 1), Terrain::Forest)
        .terrain(h(-1, 0), Terrain::Forest)
        .terrain(h(-2, 0), Terrain::Mountain)
        .terrain(h(-1, 2), Terrain::Mountain)
        .build();
    assert_eq!(unit_ids(&s, 0), vec![1]);
}

/// Dark: enemy towns out of sight are shown as last seen; what comes into sight is
/// shown as it is.
#[test]
fn online_dark_remembers_enemy_towns_as_last_seen() {
    let remembered = |hex: Hex| TownSetup {
        hex,
        town: Town {
            owner: Seat(1),
            city: false,
            capital_of: None,
            metropolis: None,
        },
    };
    let mut p = base(Stage::Move, true).town(h(2, -1), 1, true, false);
    p.setup.remembered = vec![vec![remembered(h(2, -1)), remembered(h(0, -2))], vec![]];
    let s = p.build();
    let towns = s.view(Some(Seat(0))).position.towns;
    let at = |hex| towns.iter().find(|t| t.hex == hex).map(|t| t.town);
    // (2,-1) is 4 hexes from infantry 1: still remembered as a town, not the city it is.
    assert_eq!(at(h(2, -1)).map(|t| t.city), Some(false));
    // (0,-2) is within the infantry's sight this turn: no town there after all.
    assert_eq!(at(h(0, -2)), None);
    // Seat 1's capital was never seen by seat 0.
    assert_eq!(at(h(3, -3)), None);
    // The memory is state: it survives a save and load.
    let again = Viktory::from_setup(&s.to_setup()).unwrap();
    assert_eq!(again.view(Some(Seat(0))), s.view(Some(Seat(0))));
}

/// Dark: a seat hears of moves only where it can see them; a unit coming into sight
/// from the dark "appears", one leaving "vanishes".
#[test]
fn online_dark_filters_events() {
    let mut s = base(Stage::Move, true)
        .unit(8, 1, UnitKind::Infantry, h(1, -1))
        .build();
    let events = act(&mut s, mv(1, -1, 1));
    let moved = events
        .iter()
        .find(|e| matches!(e, Event::Moved { .. }))
        .unwrap();
    assert_eq!(s.event_for(moved, Some(Seat(0))), Some(moved.clone()));
    assert_eq!(s.event_for(moved, Some(Seat(1))), None);
    assert_eq!(s.event_for(moved, None), None);
    let events = act(&mut s, mv(1, 0, 0));
    let moved = events
        .iter()
        .find(|e| matches!(e, Event::Moved { .. }))
        .unwrap();
    assert_eq!(
        s.event_for(moved, Some(Seat(1))),
        Some(Event::Appeared {
            unit: viktory::UnitId(1),
            hex: h(0, 0)
        })
    );
    // Without Dark everyone hears of every move.
    let mut s = base(Stage::Move, false).build();
    let events = act(&mut s, mv(1, -1, 1));
    assert!(
        events
            .iter()
            .all(|e| s.event_for(e, Some(Seat(1))).as_ref() == Some(e))
    );
}

/// Dark (H-24): a town is built only where its builder sees, and the building rules count
/// only what he sees or remembers: a hidden enemy town next to the site does not stop
/// him. Without Dark the hidden town is a neighbour like any other.
#[test]
fn online_dark_building_by_what_the_builder_sees() {
    let pos = |dark| {
        base(Stage::Build, dark)
            .rules(|r| r.build_after_moving = true)
            .town(h(0, -2), 1, false, false)
            .build()
    };
    let s = pos(true);
    assert_eq!(
        refused(&s, Action::BuildTown { hex: h(0, 0) }),
        ("not_in_sight", "Dark")
    );
    let mut s2 = s.clone();
    act(&mut s2, Action::BuildTown { hex: h(-1, -1) });
    assert_eq!(s2.town(h(-1, -1)).map(|t| t.owner), Some(Seat(0)));
    let again = Viktory::from_setup(&s2.to_setup()).unwrap();
    assert_eq!(again, s2);
    assert_eq!(
        refused(&pos(false), Action::BuildTown { hex: h(-1, -1) }),
        ("town_adjacent", "7.21")
    );
}

/// Dark: a unit bombards only a hex its player sees.
#[test]
fn online_dark_bombard_only_what_you_see() {
    let pos = |spotter: bool| {
        let mut p = base(Stage::Move, true)
            .unit(9, 0, UnitKind::Artillery, h(-2, 2))
            .unit(10, 1, UnitKind::Infantry, h(2, -1));
        if spotter {
            p = p.unit(11, 0, UnitKind::Infantry, h(3, -1));
        }
        let mut s = p.build();
        // The artillery moves two hexes and has no movement left to see further with.
        play(&mut s, &[mv(9, -1, 1), mv(9, 0, 0)]);
        act(&mut s, mv(1, -2, 0));
        s
    };
    let bombard = Action::Bombard {
        unit: viktory::UnitId(9),
        target: h(2, -1),
    };
    assert_eq!(refused(&pos(false), bombard), ("not_in_sight", "Dark"));
    assert!(pos(true).check(&bombard).is_ok());
}

/// Dark: other players' reserves and empire points are not shown.
#[test]
fn online_dark_hides_reserves_and_scores() {
    for dark in [true, false] {
        let s = base(Stage::Move, dark)
            .reserve(1, UnitKind::Infantry, 1)
            .build();
        let view = s.view(Some(Seat(0)));
        assert_eq!(view.scores[0], Some(1));
        assert_eq!(view.scores[1], (!dark).then_some(1));
        assert_eq!(
            view.position.players[1].reserve.get(UnitKind::Infantry),
            u8::from(!dark)
        );
    }
}

/// Dark: two positions that differ only where seat 0 cannot see give it byte-identical
/// views and legal actions.
#[test]
fn online_dark_view_stability() {
    let pos = |hex: Hex| {
        base(Stage::Move, true)
            .unit(12, 1, UnitKind::Cavalry, hex)
            .build()
    };
    let (a, b) = (pos(h(2, -2)), pos(h(3, -2)));
    assert_ne!(a, b);
    assert_eq!(
        serde_json::to_string(&a.view(Some(Seat(0)))).unwrap(),
        serde_json::to_string(&b.view(Some(Seat(0)))).unwrap()
    );
    assert_eq!(a.legal_actions(), b.legal_actions());
    assert_ne!(a.view(Some(Seat(1))), b.view(Some(Seat(1))));
}

/// The hexes within `r` of `center`, interior only.
fn around(center: Hex, r: u32) -> Vec<Hex> {
    center
        .spiral(r)
        .into_iter()
        .filter(|h| h.distance(Hex::new(0, 0)) <= 3)
        .collect()
}

/// Independent exploration (H-23): a seat sees only the tiles it explored, and no units
/// on the others; reaching a tile someone else laid explores it at once, with no draw.
#[test]
fn online_independent_exploration() {
    let mut p = base(Stage::Move, false)
        .rules(|r| r.independent_exploration = true)
        .unit(13, 1, UnitKind::Infantry, h(1, 1));
    let mut mine: Vec<Hex> = around(h(-3, 0), 1);
    mine.extend(around(h(-2, 1), 1));
    mine.sort();
    mine.dedup();
    let mut theirs = around(h(3, -3), 1);
    theirs.extend(around(h(1, 1), 1));
    theirs.sort();
    theirs.dedup();
    p.setup.explored = vec![mine.clone(), theirs];
    let mut s = p.build();
    let view = s.view(Some(Seat(0)));
    assert_eq!(view.position.tiles.len(), mine.len());
    assert_eq!(unit_ids(&s, 0), vec![1]);
    assert_eq!(s.view(None).position.tiles.len(), 0);
    let events = act(&mut s, mv(1, -1, 1));
    let explored: Vec<Hex> = events
        .iter()
        .filter_map(|e| match e {
            Event::Explored { seat, hex, .. } if *seat == Seat(0) => Some(*hex),
            _ => None,
        })
        .collect();
    assert_eq!(explored, vec![h(0, 0), h(0, 1), h(-1, 2)]);
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)), "no tile is drawn");
    assert_eq!(s.view(Some(Seat(0))).position.tiles.len(), mine.len() + 3);
    // Seat 1 hears nothing of it; its unit at (1,1) is now on a tile seat 0 explored.
    assert!(
        events.iter().all(
            |e| !matches!(e, Event::Explored { .. }) || s.event_for(e, Some(Seat(1))).is_none()
        )
    );
    assert_eq!(unit_ids(&s, 0), vec![1]);
    act(&mut s, mv(1, 0, 1));
    assert_eq!(unit_ids(&s, 0), vec![1, 13]);
    // A tile seat 0 has not explored can change without seat 0 telling the difference.
    let mut changed = s.to_setup();
    let far = changed
        .tiles
        .iter_mut()
        .find(|t| t.hex == h(3, -1))
        .unwrap();
    far.terrain = Terrain::Mountain;
    let b = Viktory::from_setup(&changed).unwrap();
    assert_ne!(b, s);
    assert_eq!(b.view(Some(Seat(0))), s.view(Some(Seat(0))));
    assert_eq!(b.legal_actions(), s.legal_actions());
}
