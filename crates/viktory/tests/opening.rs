//! Scenario tests for 4.0 Starting the Game: the first player is drawn, each player in
//! turn reveals his start group and founds his capital on one of its land hexes
//! (R-6 when they are all water), and then turn 1 begins with the first player.
//!
//! These start from a real new game (`new_setup`), not from `Pos`, and script every
//! chance action.

mod common;

use common::*;
use engine::{Game, NewGame, Seat, ToMove};
use hexmap::Hex;
use viktory::board::Terrain;
use viktory::state::{Stage, Town};
use viktory::{Action, Event, Reserve, UnitId, UnitKind, Viktory};

/// A classic game for `players` players, before anything has happened.
fn new_game(players: u8) -> Viktory {
    let setup = Viktory::new_setup(&NewGame {
        preset: Some("classic".into()),
        options: serde_json::Map::new(),
        players: Some(players),
    })
    .expect("classic setup");
    Viktory::from_setup(&setup).expect("valid setup")
}

/// Reveals the waiting hexes, which must come in exactly this order.
fn reveal(s: &mut Viktory, tiles: &[(Hex, Terrain)]) -> Vec<Event> {
    tiles
        .iter()
        .flat_map(|&(hex, terrain)| act(s, Action::Reveal { hex, terrain }))
        .collect()
}

/// Reveals every waiting hex as land (plains while the bank has plains, then the next land).
fn reveal_all_land(s: &mut Viktory) -> Vec<Event> {
    let mut events = Vec::new();
    while let Some(&hex) = s.pending_reveals().first() {
        let terrain = [
            Terrain::Plains,
            Terrain::Grassland,
            Terrain::Forest,
            Terrain::Mountain,
        ]
        .into_iter()
        .find(|&t| s.bank().get(t) > 0)
        .expect("land left in the bank");
        events.extend(act(s, Action::Reveal { hex, terrain }));
    }
    events
}

fn found(q: i32, r: i32) -> Action {
    Action::FoundCapital { hex: h(q, r) }
}

fn started(seat: u8, turn: u16) -> Event {
    Event::TurnStarted {
        seat: Seat(seat),
        turn,
    }
}

/// Seat 1's start group on the side-5 board.
const SEAT1_GROUP: [Hex; 3] = [h(-2, 3), h(-3, 3), h(-3, 2)];
/// Seat 0's start group on the side-5 board.
const SEAT0_GROUP: [Hex; 3] = [h(2, -3), h(3, -3), h(3, -2)];

/// 4.0 step 1: the first player is a chance draw, every seat equally likely; the drawn
/// player's opening starts at once with his start group waiting to be revealed.
#[test]
fn rule_4_0_first_player_is_drawn() {
    let mut s = new_game(2);
    assert_eq!(s.turn().stage, Stage::FirstPlayer);
    assert_eq!(s.to_move(), ToMove::Chance);
    let draw = |p| Action::FirstPlayer { seat: Seat(p) };
    assert_eq!(s.legal_actions(), vec![draw(0), draw(1)]);
    assert_eq!(s.chance_outcomes(), vec![(draw(0), 1), (draw(1), 1)]);

    let events = act(&mut s, draw(1));
    assert_eq!(
        events,
        vec![Event::FirstPlayer { seat: Seat(1) }, started(1, 0)]
    );
    assert_eq!(s.turn().first, Seat(1));
    assert_eq!(s.turn().active, Seat(1));
    assert_eq!(s.turn().stage, Stage::Opening);
    assert_eq!(s.turn().number, 0);
    // with two players on side 5 the groups are three hexes inside opposite corners.
    assert_eq!(s.pending_reveals(), &SEAT1_GROUP);
    assert_eq!(s.to_move(), ToMove::Chance);
    // Each tile is drawn from the face-down bank, weighted by what is left.
    let bank = s.bank();
    assert_eq!(
        (
            bank.plains,
            bank.grassland,
            bank.forest,
            bank.mountain,
            bank.water
        ),
        (7, 7, 7, 7, 9)
    );
    assert_eq!(
        s.chance_outcomes(),
        vec![
            (
                Action::Reveal {
                    hex: h(-2, 3),
                    terrain: Terrain::Plains
                },
                7
            ),
            (
                Action::Reveal {
                    hex: h(-2, 3),
                    terrain: Terrain::Grassland
                },
                7
            ),
            (
                Action::Reveal {
                    hex: h(-2, 3),
                    terrain: Terrain::Forest
                },
                7
            ),
            (
                Action::Reveal {
                    hex: h(-2, 3),
                    terrain: Terrain::Mountain
                },
                7
            ),
            (
                Action::Reveal {
                    hex: h(-2, 3),
                    terrain: Terrain::Water
                },
                9
            ),
        ]
    );
}

/// 4.0 step 2: the capital goes on one of the revealed start hexes, and only a land one.
#[test]
fn rule_4_0_capital_only_on_a_land_start_hex() {
    let mut s = new_game(2);
    act(&mut s, Action::FirstPlayer { seat: Seat(1) });
    let events = reveal(
        &mut s,
        &[
            (h(-2, 3), Terrain::Water),
            (h(-3, 3), Terrain::Forest),
            (h(-3, 2), Terrain::Plains),
        ],
    );
    assert_eq!(
        events,
        vec![
            Event::Revealed {
                hex: h(-2, 3),
                terrain: Terrain::Water
            },
            Event::Revealed {
                hex: h(-3, 3),
                terrain: Terrain::Forest
            },
            Event::Revealed {
                hex: h(-3, 2),
                terrain: Terrain::Plains
            },
        ]
    );
    assert_eq!(s.to_move(), ToMove::Seat(Seat(1)));
    assert_eq!(s.legal_actions(), vec![found(-3, 2), found(-3, 3)]);
    // The water start hex cannot hold it, nor any hex outside the start group.
    assert_eq!(refused(&s, found(-2, 3)), ("not_land", "4.0"));
    assert_eq!(refused(&s, found(-2, 2)), ("not_start_hex", "4.0"));
    assert_eq!(refused(&s, found(2, -3)), ("not_start_hex", "4.0"));
}

/// 4.0 steps 3–4: the capital gives an infantry to the reserve, which goes straight onto
/// the capital; the new town reveals its neighbours (7.3), and the next player's opening
/// follows clockwise (here it wraps from seat 1 to seat 0).
#[test]
fn rule_4_0_capital_infantry_goes_to_the_reserve_then_onto_the_capital() {
    let mut s = new_game(2);
    act(&mut s, Action::FirstPlayer { seat: Seat(1) });
    reveal(
        &mut s,
        &[
            (h(-2, 3), Terrain::Water),
            (h(-3, 3), Terrain::Forest),
            (h(-3, 2), Terrain::Plains),
        ],
    );
    let events = act(&mut s, found(-3, 2));
    assert_eq!(
        events,
        vec![
            Event::CapitalFounded {
                seat: Seat(1),
                hex: h(-3, 2)
            },
            Event::UnitGained {
                seat: Seat(1),
                kind: UnitKind::Infantry
            },
            Event::UnitPlaced {
                seat: Seat(1),
                unit: UnitId(0),
                kind: UnitKind::Infantry,
                hex: h(-3, 2),
            },
        ]
    );
    assert_eq!(
        s.town(h(-3, 2)),
        Some(Town {
            owner: Seat(1),
            city: false,
            capital_of: Some(Seat(1)),
            metropolis: None,
        })
    );
    assert_eq!(ids_at(&s, h(-3, 2)), vec![0]);
    assert_eq!(s.player(Seat(1)).reserve, Reserve::default());
    // First the capital's face-down neighbours are revealed (7.3); only then does seat 0's
    // opening begin, with his start group.
    assert_eq!(s.turn().active, Seat(1));
    assert_eq!(s.pending_reveals(), &[h(-2, 1), h(-2, 2), h(-3, 1)]);
    let events = reveal(
        &mut s,
        &[
            (h(-2, 1), Terrain::Plains),
            (h(-2, 2), Terrain::Plains),
            (h(-3, 1), Terrain::Plains),
        ],
    );
    assert_eq!(events.last(), Some(&started(0, 0)));
    assert_eq!(s.turn().active, Seat(0));
    assert_eq!(s.turn().stage, Stage::Opening);
    assert_eq!(s.pending_reveals(), SEAT0_GROUP.as_slice());
}

/// 4.0 steps 5–6: every player opens in clockwise order, then the first player conducts
/// the first real player turn (game turn 1) with his capital in hand.
#[test]
fn rule_4_0_openings_then_turn_1_for_the_first_player() {
    let mut s = new_game(2);
    act(&mut s, Action::FirstPlayer { seat: Seat(1) });
    reveal(
        &mut s,
        &[
            (h(-2, 3), Terrain::Water),
            (h(-3, 3), Terrain::Forest),
            (h(-3, 2), Terrain::Plains),
        ],
    );
    act(&mut s, found(-3, 2));
    reveal(
        &mut s,
        &[
            (h(-2, 1), Terrain::Plains),
            (h(-2, 2), Terrain::Plains),
            (h(-3, 1), Terrain::Plains),
            (h(2, -3), Terrain::Grassland),
            (h(3, -3), Terrain::Mountain),
            (h(3, -2), Terrain::Water),
        ],
    );
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    assert_eq!(s.legal_actions(), vec![found(2, -3), found(3, -3)]);
    let events = act(&mut s, found(3, -3));
    assert_eq!(
        events,
        vec![
            Event::CapitalFounded {
                seat: Seat(0),
                hex: h(3, -3)
            },
            Event::UnitGained {
                seat: Seat(0),
                kind: UnitKind::Infantry
            },
            Event::UnitPlaced {
                seat: Seat(0),
                unit: UnitId(1),
                kind: UnitKind::Infantry,
                hex: h(3, -3),
            },
        ]
    );
    // The mountain capital's one face-down neighbour is revealed, then seat 1's turn 1
    // runs on to his building phase: he holds his capital, so he may build (7.1); no
    // revealed land lies 2–3 hexes from it yet, so upgrading it is his only build.
    assert_eq!(s.pending_reveals(), &[h(2, -2)]);
    let events = reveal(&mut s, &[(h(2, -2), Terrain::Plains)]);
    assert_eq!(
        events,
        vec![
            Event::Revealed {
                hex: h(2, -2),
                terrain: Terrain::Plains
            },
            started(1, 1),
            Event::PhaseStarted {
                stage: Stage::Build
            },
        ]
    );
    assert_eq!(s.turn().number, 1);
    assert_eq!(s.turn().active, Seat(1));
    assert_eq!(s.turn().stage, Stage::Build);
    assert!(s.turn().can_build);
    assert_eq!(s.to_move(), ToMove::Seat(Seat(1)));
    assert_eq!(
        s.legal_actions(),
        vec![Action::BuildCity { hex: h(-3, 2) }, Action::EndPhase]
    );
    assert!(s.holds_capital(Seat(0)) && s.holds_capital(Seat(1)));
    assert_eq!(ids_at(&s, h(3, -3)), vec![1]);
}

/// 4.0 steps 1, 5, 6: play passes clockwise from the drawn first player, for the openings
/// and for turn 1 (three players: 1, 2, 0, then 1 again).
#[test]
fn rule_4_0_openings_pass_clockwise_from_the_first_player() {
    let mut s = new_game(3);
    let mut events = act(&mut s, Action::FirstPlayer { seat: Seat(1) });
    for _ in 0..3 {
        events.extend(reveal_all_land(&mut s));
        let first = s.legal_actions()[0];
        assert!(matches!(first, Action::FoundCapital { .. }));
        events.extend(act(&mut s, first));
    }
    events.extend(reveal_all_land(&mut s));
    let turns: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e, Event::TurnStarted { .. }))
        .collect();
    assert_eq!(
        turns,
        vec![
            &started(1, 0),
            &started(2, 0),
            &started(0, 0),
            &started(1, 1)
        ]
    );
    let founders: Vec<Seat> = events
        .iter()
        .filter_map(|e| match e {
            Event::CapitalFounded { seat, .. } => Some(*seat),
            _ => None,
        })
        .collect();
    assert_eq!(founders, vec![Seat(1), Seat(2), Seat(0)]);
    assert_eq!(s.turn().active, Seat(1));
    assert_eq!(s.turn().number, 1);
}

/// R-6 (4.0 step 2): when the three start hexes are all water, every face-down hex next
/// to them is revealed and the capital may go on any land hex among them.
#[test]
fn rule_4_0_r6_all_water_start_widens_the_choice() {
    let mut s = new_game(2);
    act(&mut s, Action::FirstPlayer { seat: Seat(0) });
    let events = reveal(
        &mut s,
        &[
            (h(2, -3), Terrain::Water),
            (h(3, -3), Terrain::Water),
            (h(3, -2), Terrain::Water),
        ],
    );
    assert_eq!(events.len(), 3);
    // Still no decision: the five interior neighbours of the group wait to be revealed.
    assert_eq!(s.to_move(), ToMove::Chance);
    assert_eq!(
        s.pending_reveals(),
        &[h(1, -3), h(1, -2), h(2, -2), h(2, -1), h(3, -1)]
    );
    reveal(
        &mut s,
        &[
            (h(1, -3), Terrain::Water),
            (h(1, -2), Terrain::Grassland),
            (h(2, -2), Terrain::Water),
            (h(2, -1), Terrain::Mountain),
            (h(3, -1), Terrain::Water),
        ],
    );
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    assert_eq!(s.legal_actions(), vec![found(1, -2), found(2, -1)]);
    assert_eq!(refused(&s, found(3, -3)), ("not_land", "4.0"));
    assert_eq!(refused(&s, found(1, -1)), ("not_start_hex", "4.0"));
    let events = act(&mut s, found(2, -1));
    assert_eq!(
        events[0],
        Event::CapitalFounded {
            seat: Seat(0),
            hex: h(2, -1)
        }
    );
}

/// R-6 (4.0 step 2, "continue until"): if the widened ring is all water too, the next
/// ring of face-down neighbours is revealed, and so on until there is land.
#[test]
fn rule_4_0_r6_widens_again_until_land_is_found() {
    let mut s = new_game(2);
    act(&mut s, Action::FirstPlayer { seat: Seat(0) });
    let water = |hexes: &[Hex]| {
        hexes
            .iter()
            .map(|&x| (x, Terrain::Water))
            .collect::<Vec<_>>()
    };
    reveal(&mut s, &water(&SEAT0_GROUP));
    let ring1 = [h(1, -3), h(1, -2), h(2, -2), h(2, -1), h(3, -1)];
    reveal(&mut s, &water(&ring1));
    assert_eq!(s.to_move(), ToMove::Chance);
    assert_eq!(
        s.pending_reveals(),
        &[
            h(0, -3),
            h(0, -2),
            h(0, -1),
            h(1, -1),
            h(1, 0),
            h(2, 0),
            h(3, 0)
        ]
    );
    reveal(
        &mut s,
        &[
            (h(0, -3), Terrain::Water),
            (h(0, -2), Terrain::Forest),
            (h(0, -1), Terrain::Plains),
            (h(1, -1), Terrain::Plains),
            (h(1, 0), Terrain::Grassland),
            (h(2, 0), Terrain::Mountain),
            (h(3, 0), Terrain::Plains),
        ],
    );
    assert_eq!(s.to_move(), ToMove::Seat(Seat(0)));
    assert_eq!(
        s.legal_actions(),
        vec![
            found(0, -2),
            found(0, -1),
            found(1, -1),
            found(1, 0),
            found(2, 0),
            found(3, 0)
        ]
    );
}
