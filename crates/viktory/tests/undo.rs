//! Taking back a move (the server's undo): which actions a seat may take back.
//! Moves that teach the mover nothing and touch no one else can be taken back; dice,
//! reveals, battles, captures, the end of the turn and, with fog, anything that brings
//! a hex into sight make them final.

mod common;

use common::*;
use engine::{Game, Seat};
use viktory::board::Terrain;
use viktory::state::Stage;
use viktory::{Action, UnitKind, Viktory};

/// Applies `a` and says whether its seat could take it back.
fn try_undo(s: &mut Viktory, a: Action) -> bool {
    let before = s.clone();
    let events = act(s, a);
    s.undoable(&before, &a, &events)
}

/// Seat 0: capital at (-3,0), infantry 1 at (-2,1), cavalry 2 at (-2,0).
/// Seat 1: capital at (3,-3), infantry 3 at (0,1).
fn base(dark: bool) -> Viktory {
    Pos::new(2, Stage::Move)
        .rules(|r| r.dark = dark)
        .town(h(-3, 0), 0, false, true)
        .unit(1, 0, UnitKind::Infantry, h(-2, 1))
        .unit(2, 0, UnitKind::Cavalry, h(-2, 0))
        .town(h(3, -3), 1, false, true)
        .unit(3, 1, UnitKind::Infantry, h(0, 1))
        .build()
}

#[test]
fn a_plain_move_can_be_taken_back() {
    let mut s = base(false);
    assert!(try_undo(&mut s, mv(1, -1, 1)));
    // So can the next one, and the end of the movement phase (still seat 0's turn).
    assert!(try_undo(&mut s, mv(2, -1, 0)));
}

#[test]
fn a_move_into_an_unrevealed_hex_is_final() {
    let mut s = Pos::new(2, Stage::Move)
        .town(h(-3, 0), 0, false, true)
        .unit(1, 0, UnitKind::Infantry, h(-2, 1))
        .town(h(3, -3), 1, false, true)
        .face_down(h(0, 1), Terrain::Forest)
        .build();
    // The step comes next to a face-down tile: chance reveals it, so the move stands.
    assert!(!try_undo(&mut s, mv(1, -1, 1)));
}

#[test]
fn a_battle_is_final() {
    let mut s = base(false);
    // Stepping into the enemy's hex is still only a move; the battle is final.
    assert!(try_undo(&mut s, mv(1, -1, 1)));
    assert!(try_undo(&mut s, mv(1, 0, 1)));
    assert!(!try_undo(&mut s, Action::Fight { hex: h(0, 1) }));
}

#[test]
fn the_end_of_the_turn_is_final() {
    let mut s = base(false);
    let mut guard = 0;
    // End every phase of seat 0's turn; the last hands the turn over.
    while s.to_move() == engine::ToMove::Seat(Seat(0)) && guard < 10 {
        let before = s.clone();
        let events = act(&mut s, Action::EndPhase);
        let undoable = s.undoable(&before, &Action::EndPhase, &events);
        let still_mine = s.to_move() == engine::ToMove::Seat(Seat(0));
        assert_eq!(undoable, still_mine, "after {events:?}");
        guard += 1;
    }
    assert_ne!(s.to_move(), engine::ToMove::Seat(Seat(0)));
}

/// Dark: an action may be taken back exactly when no hex came into the mover's sight.
/// Stepping within the hexes it could already reach never does; a new town does.
#[test]
fn dark_an_action_that_brings_a_hex_into_sight_is_final() {
    let sight = |s: &Viktory| s.view(Some(Seat(0))).sight.expect("dark views list sight");
    let mut revealing = 0;
    let mut quiet = 0;
    for stage in [Stage::Move, Stage::Build] {
        let mut s = base(true);
        if stage == Stage::Build {
            s = Pos::new(2, Stage::Build)
                .rules(|r| r.dark = true)
                .town(h(-3, 0), 0, false, true)
                .unit(1, 0, UnitKind::Infantry, h(-2, 1))
                .town(h(3, -3), 1, false, true)
                .build();
        }
        for a in s.legal_actions() {
            let mut after = s.clone();
            let events = act(&mut after, a);
            let before_sight = sight(&s);
            let new_hex = sight(&after).iter().any(|h| !before_sight.contains(h));
            assert_eq!(after.undoable(&s, &a, &events), !new_hex, "{a:?}");
            if new_hex {
                revealing += 1;
            } else {
                quiet += 1;
            }
        }
    }
    assert!(revealing > 0, "some new town brings a hex into sight");
    assert!(quiet > 0, "some move brings none");
}
