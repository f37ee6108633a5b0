//! 5.0 How to Win: standard conquest (5.1), shorter conquest (5.3), race for dominance
//! (5.4), the doomsday clock (5.5), and the turn limit.

use engine::{Outcome, Seat};

use crate::event::Event;
use crate::rules::Victory;
use crate::state::Viktory;

/// Ends the game.
pub fn finish(s: &mut Viktory, winners: Vec<Seat>, reason: &str, ev: &mut Vec<Event>) {
    let scores = (0..s.rules.players)
        .map(|p| i64::from(s.score(Seat(p))))
        .collect();
    let outcome = Outcome {
        winners,
        scores,
        reason: reason.to_owned(),
    };
    ev.push(Event::GameOver {
        outcome: outcome.clone(),
    });
    s.outcome = Some(outcome);
}

/// Rule 5.3 scoring: the seats with the largest empire among `seats`.
fn largest_empires(s: &Viktory, seats: impl Iterator<Item = Seat>) -> Vec<Seat> {
    let scored: Vec<(Seat, u16)> = seats.map(|p| (p, s.score(p))).collect();
    let best = scored.iter().map(|&(_, v)| v).max().unwrap_or(0);
    scored
        .into_iter()
        .filter(|&(_, v)| v == best)
        .map(|(p, _)| p)
        .collect()
}

/// After a capture is settled: standard conquest (5.1; the last player left always
/// wins) and shorter conquest (5.3).
pub fn after_capture(s: &mut Viktory, loser: Seat, capital_taken: bool, ev: &mut Vec<Event>) {
    let live: Vec<Seat> = s.live_seats().collect();
    if live.len() == 1 {
        finish(s, live, "conquest", ev);
        return;
    }
    if alliance_won(s, ev) {
        return;
    }
    if capital_taken && s.rules.victory.contains(&Victory::ShorterConquest) {
        let winners = largest_empires(s, live.into_iter().filter(|&p| p != loser));
        finish(s, winners, "a capital fell", ev);
    }
}

/// 15.66, 5.2: with subjugation no one is eliminated by losing his capital, so conquest
/// (5.1 or 5.2) is won when every other player still in the game is one's Vassal.
/// Expansion, Optional Subjugation Victory Condition: the first player to have made
/// Vassals of two different players without losing his own capital in between wins.
fn alliance_won(s: &mut Viktory, ev: &mut Vec<Event>) -> bool {
    if !s.rules.subjugation {
        return false;
    }
    let live: Vec<Seat> = s.live_seats().collect();
    let conquest = s.rules.victory.contains(&Victory::StandardConquest)
        || s.rules.victory.contains(&Victory::SubjugationConquest);
    if conquest
        && let Some(&ruler) = live.iter().find(|&&r| {
            live.iter()
                .all(|&p| p == r || s.players[p.index()].ruler == Some(r))
        })
    {
        finish(s, vec![ruler], "subjugation conquest", ev);
        return true;
    }
    if s.rules.victory.contains(&Victory::TwoVassals) {
        let active = s.turn.active;
        let n = s.rules.players;
        if let Some(p) = (0..n)
            .map(|k| Seat((active.0 + k) % n))
            .find(|p| s.players[p.index()].subjugated.count_ones() >= 2)
        {
            finish(s, vec![p], "two vassals", ev);
            return true;
        }
    }
    false
}

/// Rule 5.4: at the start of his turn, a player whose empire is worth the race points
/// wins.
pub fn race_won(s: &mut Viktory, seat: Seat, ev: &mut Vec<Event>) -> bool {
    if s.rules.victory.contains(&Victory::RaceForDominance) && s.score(seat) >= s.rules.race_points
    {
        finish(s, vec![seat], "race for dominance", ev);
        return true;
    }
    false
}

/// Rule 5.5: the active player rolls for his capital at the start of his turn once the
/// clock runs, until his coin is placed.
pub fn doomsday_roll_due(s: &Viktory) -> bool {
    s.doomsday
        && s.rules.victory.contains(&Victory::DoomsdayClock)
        && !s.turn.doomsday_rolled
        && !s.players[s.turn.active.index()].doomsday_marked
}

/// Rule 5.5: the doomsday die. A 1 marks the roller's capital; when every capital is
/// marked the empires are scored. An eliminated player's capital counts as marked
/// (ruling H-1, docs/rulings.md), so the clock cannot stall.
pub fn doomsday_roll(s: &mut Viktory, value: u8, ev: &mut Vec<Event>) {
    let seat = s.turn.active;
    s.turn.doomsday_rolled = true;
    ev.push(Event::DieRolled {
        seat,
        purpose: crate::event::DiePurpose::Doomsday,
        value,
    });
    if value != 1 {
        return;
    }
    s.players[seat.index()].doomsday_marked = true;
    ev.push(Event::DoomsdayMarked { seat });
    let all = (0..s.rules.players).all(|p| {
        let pl = &s.players[usize::from(p)];
        pl.doomsday_marked || pl.eliminated
    });
    if all {
        let winners = largest_empires(s, s.live_seats().collect::<Vec<_>>().into_iter());
        finish(s, winners, "doomsday", ev);
    }
}

/// after `max_turns` game turns the empires are scored; ties share the win.
pub fn turn_limit_reached(s: &mut Viktory, ev: &mut Vec<Event>) -> bool {
    match s.rules.max_turns {
        Some(m) if s.turn.number > m => {
            let winners = largest_empires(s, s.live_seats().collect::<Vec<_>>().into_iter());
            finish(s, winners, "turn limit", ev);
            true
        }
        _ => false,
    }
}

/// Expansion, Optional Quicker Victory Condition: the points a player's empire is worth
/// for it: 1 per town, 2 per city, 3 per Metropolis, and 2 more per enemy capital held.
/// With subjugation, 2 per current Vassal instead (his capital was handed back).
pub fn quick_points(s: &Viktory, seat: Seat) -> u16 {
    let capitals = s
        .towns()
        .filter(|(_, t)| t.owner == seat && t.capital_of.is_some_and(|c| c != seat))
        .count();
    let vassals = s
        .players
        .iter()
        .filter(|p| s.rules.subjugation && p.ruler == Some(seat))
        .count();
    s.score(seat) + 2 * (capitals + vassals) as u16
}

/// The points that win (the rulebook's table by player count, unless set).
/// With Metropolises the table's numbers are one higher.
pub fn quick_target(s: &Viktory) -> u16 {
    s.rules.quick_victory_points.unwrap_or(
        match s.rules.players {
            2 | 6 => 16,
            3 => 17,
            4 | 5 => 18,
            7 => 14,
            _ => 13,
        } + u16::from(s.rules.metropolis),
    )
}

/// The first player (the active one first, then in seat order) who holds his capital and
/// reaches the points wins at once.
pub fn quick_won(s: &mut Viktory, ev: &mut Vec<Event>) -> bool {
    if !s.rules.victory.contains(&Victory::QuickerVictory) {
        return false;
    }
    let n = s.rules.players;
    let target = quick_target(s);
    let active = s.turn.active;
    let winner = (0..n).map(|k| Seat((active.0 + k) % n)).find(|&p| {
        !s.players[p.index()].eliminated && s.holds_capital(p) && quick_points(s, p) >= target
    });
    match winner {
        Some(p) => {
            finish(s, vec![p], "quicker victory", ev);
            true
        }
        None => false,
    }
}
