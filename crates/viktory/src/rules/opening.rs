//! 4.0 Starting the Game: the first player, and each player's first turn that builds
//! his capital.

use engine::Seat;
use hexmap::{Board, Hex};

use crate::board::start_groups;
use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::rules::{building, exploration, reserve, sequence};
use crate::state::{SecondTown, Stage, Viktory};
use crate::unit::UnitKind;

/// Who may be drawn to play first: anyone (4.0 step 1), except that with 7 or 8 players
/// the centre player, seat 0, goes first (Expansion, R-5: the draw decided who sits in
/// the centre, which the seating already fixed).
pub fn first_player_candidates(s: &Viktory) -> Vec<Seat> {
    if s.rules.players >= 7 {
        vec![Seat(0)]
    } else {
        (0..s.rules.players).map(Seat).collect()
    }
}

/// Rule 4.0 step 1: the first player is drawn; play passes clockwise.
pub fn apply_first_player(s: &mut Viktory, seat: Seat, ev: &mut Vec<Event>) {
    s.turn.first = seat;
    ev.push(Event::FirstPlayer { seat });
    begin(s, seat, ev);
}

/// Rule 4.0 step 2: `seat` reveals his start group.
fn begin(s: &mut Viktory, seat: Seat, ev: &mut Vec<Event>) {
    let groups = start_groups(s.rules.side(), s.rules.players, s.rules.start_group);
    let group = groups[seat.index()].clone();
    s.turn.active = seat;
    s.turn.stage = Stage::Opening;
    s.turn.number = 0;
    s.turn.capital_candidates.clone_from(&group);
    ev.push(Event::TurnStarted { seat, turn: 0 });
    exploration::queue(s, group, ev);
}

/// Whether `hex` may hold `seat`'s capital: a revealed land hex among the candidates,
/// free of units, not adjacent to any town or city (7.21).
pub fn check_capital(s: &Viktory, hex: Hex) -> Result<(), RuleError> {
    if !s.turn.capital_candidates.contains(&hex) {
        return refuse(
            "not_start_hex",
            "4.0",
            format!("{hex} is not one of the revealed starting hexes"),
        );
    }
    if !s.terrain(hex).is_some_and(crate::board::Terrain::is_land) {
        return refuse(
            "not_land",
            "4.0",
            format!("the capital must be on land; {hex} is not"),
        );
    }
    if s.town(hex).is_some() || hex.neighbors().iter().any(|&n| s.town(n).is_some()) {
        return refuse(
            "town_adjacent",
            "7.21",
            format!("{hex} is next to a town or city"),
        );
    }
    if s.units_at(hex).next().is_some() {
        return refuse("occupied", "7.22", format!("{hex} holds units"));
    }
    Ok(())
}

/// Rule 4.0 steps 2–4: the capital town, its infantry to the reserve and from there to
/// the capital; then the next player's opening, or the first real turn.
pub fn apply_capital(s: &mut Viktory, hex: Hex, ev: &mut Vec<Event>) {
    let seat = s.turn.active;
    building::found_town(s, hex, true, ev);
    reserve::put_on_map(s, seat, UnitKind::Infantry, hex, ev);
    // The next player's opening waits until the capital's neighbours are revealed.
    s.turn.capital_candidates.clear();
    // Online rules: a second town, except for the first player with 2–6 players.
    let first_with_few = s.rules.players <= 6 && seat == s.turn.first;
    if s.rules.opening_second_town && !first_with_few {
        s.turn.second_town = Some(SecondTown::Build);
    }
}

/// The capital of the player now opening.
fn capital(s: &Viktory) -> Option<Hex> {
    let seat = s.turn.active;
    s.towns()
        .find(|(_, t)| t.capital_of == Some(seat) && t.owner == seat)
        .map(|(h, _)| h)
}

/// Online rules: may the opening player build his second town at `hex` (2 or 3 hexes
/// from his capital, by the usual site rules, 7.21, 7.22)?
pub fn check_second_town(s: &Viktory, hex: Hex) -> Result<(), RuleError> {
    if s.turn.second_town != Some(SecondTown::Build) {
        return refuse(
            "no_second_town",
            "online",
            "no second town can be built now",
        );
    }
    let cap = capital(s).ok_or_else(|| {
        crate::error::RuleError::new("no_capital", "online", "the capital is not founded")
    })?;
    building::check_site(s, hex, None)?;
    if !crate::rules::movement::short_path(cap, hex, |x| s.revealed(x)) {
        return refuse(
            "too_far",
            "online",
            format!("{hex} is not two or three explored hexes from the capital"),
        );
    }
    Ok(())
}

/// Builds the second town; its infantry waits for placement.
pub fn apply_second_town(s: &mut Viktory, hex: Hex, ev: &mut Vec<Event>) {
    building::found_town(s, hex, false, ev);
    s.turn.second_town = Some(SecondTown::Place);
}

/// Online rules: the second town's infantry goes into it or into the capital.
pub fn check_second_infantry(
    s: &Viktory,
    kind: UnitKind,
    town: Hex,
    to: Hex,
) -> Result<(), RuleError> {
    let own = s.town(town).is_some_and(|t| t.owner == s.turn.active);
    if s.turn.second_town != Some(SecondTown::Place)
        || kind != UnitKind::Infantry
        || to != town
        || !own
        || !infantry_in_reserve(s)
    {
        return refuse(
            "not_placeable",
            "online",
            "the infantry goes into the new town or the capital",
        );
    }
    Ok(())
}

/// The opening player's reserve holds the infantry his second town gave (a hand-made
/// position may have given it away).
fn infantry_in_reserve(s: &Viktory) -> bool {
    s.players[s.turn.active.index()].reserve.infantry > 0
}

/// Places it; the opening goes on.
pub fn apply_second_infantry(s: &mut Viktory, town: Hex, ev: &mut Vec<Event>) {
    let seat = s.turn.active;
    reserve::put_on_map(s, seat, UnitKind::Infantry, town, ev);
    s.turn.second_town = None;
}

/// Online rules: the player builds no second town.
pub fn skip_second_town(s: &mut Viktory) {
    s.turn.second_town = None;
}

fn next_opening(s: &mut Viktory, ev: &mut Vec<Event>) {
    s.turn.openings_done = s.turn.openings_done.saturating_add(1);
    let n = s.rules.players;
    if s.turn.openings_done >= n && crate::rules::quick_setup::on(s) {
        crate::rules::quick_setup::begin(s, ev);
    } else if s.turn.openings_done >= n {
        s.turn.number = 1;
        let first = s.turn.first;
        match (0..n)
            .map(|k| Seat((first.0 + k) % n))
            .find(|p| !s.players[p.index()].eliminated)
        {
            Some(seat) => sequence::start_turn(s, seat, ev),
            None => crate::rules::victory::finish(s, vec![], "no player could found a capital", ev),
        }
    } else {
        let next = Seat((s.turn.active.0 + 1) % n);
        begin(s, next, ev);
    }
}

/// After the reveals: wait for the capital choice, or reveal the hexes around
/// the candidates and widen the choice until a land hex is found.
pub fn advance(s: &mut Viktory, ev: &mut Vec<Event>) -> bool {
    if s.turn.capital_candidates.is_empty() {
        match s.turn.second_town {
            // Online rules: the second town's choices come first (if any site exists).
            Some(SecondTown::Place) if infantry_in_reserve(s) => return false,
            Some(SecondTown::Place) => {
                s.turn.second_town = None;
                return true;
            }
            Some(SecondTown::Build) => {
                let cap = capital(s);
                let any = cap.is_some_and(|c| {
                    c.range(3)
                        .into_iter()
                        .any(|h| check_second_town(s, h).is_ok())
                });
                if any {
                    return false;
                }
                s.turn.second_town = None;
                return true;
            }
            None => {}
        }
        // The capital stands and its neighbours are revealed.
        next_opening(s, ev);
        return true;
    }
    if s.turn
        .capital_candidates
        .iter()
        .any(|&h| check_capital(s, h).is_ok())
    {
        return false;
    }
    let mut frontier: Vec<Hex> = s
        .turn
        .capital_candidates
        .iter()
        .flat_map(|h| h.neighbors())
        .filter(|&h| {
            s.board.contains(h)
                && !s.board.is_perimeter(h)
                && !s.turn.capital_candidates.contains(&h)
        })
        .collect();
    frontier.sort();
    frontier.dedup();
    if frontier.is_empty() {
        // No land can ever be found (a custom bank without land): the player cannot
        // found a capital and is out (R-18, H-8), so the game always goes on.
        let seat = s.turn.active;
        s.players[seat.index()].eliminated = true;
        ev.push(Event::Eliminated { seat });
        s.turn.capital_candidates.clear();
        next_opening(s, ev);
        return true;
    }
    s.turn.capital_candidates.extend(frontier.iter().copied());
    s.turn.capital_candidates.sort();
    exploration::queue(s, frontier, ev);
    true
}
