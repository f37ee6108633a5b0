//! Expansion, Optional Quicker Game Setup: a face-up map (as 15.2), each player's
//! capital as usual (4.0), then the players in turn build a town or upgrade a town to a
//! city, one build per turn, until no one can or will build any more; then each in turn
//! places the units his towns and cities support by the reserve placement rules; then
//! the first player is drawn and the game begins (H-28).

use engine::Seat;

use crate::event::Event;
use crate::legal;
use crate::rules::{opening, sequence};
use crate::state::{Stage, Viktory};

/// Whether the quicker setup is in force.
pub fn on(s: &Viktory) -> bool {
    s.rules.quicker_game_setup
}

/// Every capital stands: the building rounds begin with the first player.
pub fn begin(s: &mut Viktory, ev: &mut Vec<Event>) {
    s.turn.setup_passes = 0;
    let first = s.turn.first;
    match next_live(s, first, true) {
        Some(seat) => start(s, seat, Stage::SetupBuild, ev),
        None => crate::rules::victory::finish(s, vec![], "no player could found a capital", ev),
    }
}

/// The first live seat from `from` on (`from` itself included when `inclusive`).
fn next_live(s: &Viktory, from: Seat, inclusive: bool) -> Option<Seat> {
    let n = s.rules.players;
    let skip = u8::from(!inclusive);
    (skip..n + skip)
        .map(|k| Seat((from.0 + k) % n))
        .find(|p| !s.players[p.index()].eliminated)
}

fn start(s: &mut Viktory, seat: Seat, stage: Stage, ev: &mut Vec<Event>) {
    s.turn.active = seat;
    s.turn.build_actions_used = 0;
    s.turn.built = None;
    s.turn.placed.clear();
    s.turn.can_build = true;
    ev.push(Event::TurnStarted { seat, turn: 0 });
    sequence::enter(s, stage, ev);
}

/// A setup build was made: the next player builds.
pub fn built(s: &mut Viktory, ev: &mut Vec<Event>) {
    s.turn.setup_passes = 0;
    next_builder(s, ev);
}

/// The player builds nothing this round.
pub fn pass(s: &mut Viktory, ev: &mut Vec<Event>) {
    s.turn.setup_passes = s.turn.setup_passes.saturating_add(1);
    next_builder(s, ev);
}

fn next_builder(s: &mut Viktory, ev: &mut Vec<Event>) {
    let live = s.live_seats().count();
    if usize::from(s.turn.setup_passes) >= live {
        // No one builds any more: placement, from the first player on.
        let first = s.turn.first;
        if let Some(seat) = next_live(s, first, true) {
            start(s, seat, Stage::SetupPlace, ev);
        }
        return;
    }
    if let Some(seat) = next_live(s, s.turn.active, false) {
        start(s, seat, Stage::SetupBuild, ev);
    }
}

/// The player has placed his units: the next one places, or the first player of the
/// game is drawn.
pub fn placed(s: &mut Viktory, ev: &mut Vec<Event>) {
    let first = s.turn.first;
    match next_live(s, s.turn.active, false) {
        Some(seat) if seat != next_live(s, first, true).unwrap_or(first) => {
            start(s, seat, Stage::SetupPlace, ev);
        }
        _ => {
            s.turn.placed.clear();
            s.turn.stage = Stage::FirstPlayer;
        }
    }
}

/// Whether the setup is complete and the draw for the first player starts the game.
pub fn finished(s: &Viktory) -> bool {
    on(s) && s.turn.stage == Stage::FirstPlayer && s.turn.openings_done >= s.rules.players
}

/// The first player of the game is drawn after the setup: turn 1 begins.
pub fn start_game(s: &mut Viktory, first: Seat, ev: &mut Vec<Event>) {
    s.turn.first = first;
    s.turn.number = 1;
    ev.push(Event::FirstPlayer { seat: first });
    match next_live(s, first, true) {
        Some(seat) => sequence::start_turn(s, seat, ev),
        None => crate::rules::victory::finish(s, vec![], "no player is left", ev),
    }
}

/// Runs the setup on where nothing can be done: a player who cannot build passes.
pub fn advance(s: &mut Viktory, ev: &mut Vec<Event>) -> bool {
    match s.turn.stage {
        Stage::SetupBuild if !legal::any_build(s) => {
            pass(s, ev);
            true
        }
        _ => false,
    }
}

/// Who may be drawn to play first after the setup (as 4.0; the centre player with 7
/// or 8 players, R-5).
pub fn first_player_candidates(s: &Viktory) -> Vec<Seat> {
    opening::first_player_candidates(s)
        .into_iter()
        .filter(|p| !s.players[p.index()].eliminated)
        .collect()
}
