//! A full A Victory Lost state from one seat's view.
//!
//! The rules have no fog: every seat sees the map, every unit and HQ, the victory
//! points, both Played Command Chit Pools (7.2.1: played chits lie face up) and a
//! Manstein chit just drawn. What a seat does not see are the other side's chits: its
//! Inactive Command Chit Pool, its chits in the cup (7.1.3), and, for the Axis player,
//! the Soviet chits noted one turn ahead (15.0.2). The view keeps their number and
//! shows each as [`Chit::Hidden`]. They are sampled so that the state gives the same
//! view:
//!
//! - **Soviet chits, seen by the Axis**: STAVKA is in the Played pool when it shows
//!   there; otherwise it is in the cup (7.1.2: it goes in every turn), or in the pool
//!   during the Preparation Phase (3.0). The other hidden chits are the Soviet player's
//!   secret choice (3.0): drawn uniformly, without repeats, from the Soviet HQ chits
//!   that are not in the Played pool and whose HQ has not left the game with its chit
//!   (11.3, 12.6); a random part of them goes in the cup. Noted chits (15.0.2) are
//!   drawn from the Soviet chits of the sampled state.
//! - **Axis chits, seen by the Soviet player**: which chits the Axis player has is
//!   public (3.0: the chits of his HQs on the map at the start; 11.1.2, 11.2.1: those of
//!   HQs that arrived, and the Manstein chits on their turns), only their split between
//!   pool and cup is hidden: the chits not in the Played pool are split at random.
//!
//! The state is validated ([`Avl::from_rules`]); a position the game reached but its
//! validation refuses is used unchecked ([`Avl::from_rules_unchecked`]).
//!
//! The view does not remember chits seen earlier (a Soviet chit played on an earlier
//! turn is back, face down, in the pool), so neither does the sampling. It needs the
//! rules the view carries ([`View::rules`]); a view without them (read back from
//! JSON) gives `None`, as does a spectator's view.

use std::sync::Arc;

use avl::scenario::Start;
use avl::state::{Position, Rules};
use avl::{Avl, Chit, Location, Phase, PieceId, Side, View};
use engine::GameRng;

/// A state the view's seat cannot tell from the true one, its hidden chits sampled.
pub fn determinize(view: &View, rng: &mut GameRng) -> Option<Avl> {
    let rules = view.rules()?;
    let me = view.seat.and_then(Side::of_seat)?;
    let other = me.enemy();
    let mut pos = view.position.clone();
    let hidden_pool = take_hidden(&mut pos.inactive[other.index()]);
    let hidden_cup = take_hidden(&mut pos.cup);
    let hidden_noted = take_hidden(&mut pos.noted);
    let (pool, cup) = match other {
        Side::Soviet => soviet_chits(rules, &pos, hidden_pool, hidden_cup, rng)?,
        Side::Axis => axis_chits(rules, &pos, hidden_pool, hidden_cup, rng)?,
    };
    pos.inactive[other.index()].extend(pool);
    pos.inactive[other.index()].sort();
    pos.cup.extend(cup);
    pos.cup.sort();
    if hidden_noted > 0 {
        let mut known: Vec<Chit> = pos.inactive[1]
            .iter()
            .chain(&pos.played[1])
            .chain(&pos.cup)
            .copied()
            .filter(|&c| c != Chit::Stavka && chit_side(rules, c) == Some(Side::Soviet))
            .filter(|c| !pos.noted.contains(c))
            .collect();
        known.sort();
        known.dedup();
        pos.noted.extend(pick(&mut known, hidden_noted, rng)?);
        pos.noted.sort();
    }
    // The position comes from a state the game reached; if the rules crate's own
    // validation refuses it (it can reach overstacked hexes after an advance, see
    // docs/ai.md), it is still the position the seat plays on.
    // A position of another scenario (a view read back with the wrong rules) is none.
    match Avl::from_rules(Arc::clone(rules), pos.clone()) {
        Ok(s) => Some(s),
        Err(_) => Avl::from_rules_unchecked(Arc::clone(rules), pos).ok(),
    }
}

/// Removes the hidden chits from a list; returns how many there were.
fn take_hidden(list: &mut Vec<Chit>) -> usize {
    let n = list.len();
    list.retain(|&c| c != Chit::Hidden);
    n - list.len()
}

/// `n` distinct items drawn uniformly from `from` (which is shuffled); `None` if there
/// are fewer.
fn pick(from: &mut [Chit], n: usize, rng: &mut GameRng) -> Option<Vec<Chit>> {
    if from.len() < n {
        return None;
    }
    rng.shuffle(from);
    Some(from[..n].to_vec())
}

/// The number of combat units: HQ ids follow them.
fn unit_count(rules: &Rules) -> usize {
    rules.data.units.len()
}

/// The side whose chit this is (the rules crate's `chit_side`, from the rules alone).
fn chit_side(rules: &Rules, chit: Chit) -> Option<Side> {
    match chit {
        Chit::Stavka => Some(Side::Soviet),
        Chit::Manstein(_) => Some(Side::Axis),
        Chit::Hq(p) => usize::from(p.0)
            .checked_sub(unit_count(rules))
            .and_then(|i| rules.data.hqs.get(i))
            .map(|h| h.nationality.side()),
        Chit::Hidden => None,
    }
}

/// The HQs of `side`, with their piece ids and scenario starts.
fn hqs(rules: &Rules, side: Side) -> impl Iterator<Item = (PieceId, Start)> + '_ {
    let n = unit_count(rules);
    rules
        .data
        .hqs
        .iter()
        .enumerate()
        .filter(move |(_, h)| h.nationality.side() == side)
        .map(move |(i, h)| (PieceId((n + i) as u16), h.start))
}

fn location(pos: &Position, p: PieceId) -> Option<Location> {
    pos.pieces.get(usize::from(p.0)).map(|x| x.location)
}

/// Whether a HQ being relocated (12.7) is waiting for its owner.
fn relocating(pos: &Position, p: PieceId) -> bool {
    pos.relocations.iter().any(|r| r.hq == p)
}

/// The Soviet hidden chits: `(pool, cup)`.
fn soviet_chits(
    rules: &Rules,
    pos: &Position,
    hidden_pool: usize,
    hidden_cup: usize,
    rng: &mut GameRng,
) -> Option<(Vec<Chit>, Vec<Chit>)> {
    let (mut need_pool, mut need_cup) = (hidden_pool, hidden_cup);
    let mut pool = Vec::new();
    let mut cup = Vec::new();
    if !pos.played[1].contains(&Chit::Stavka) {
        // Rule 7.1.2: STAVKA goes in the cup every turn; in the pool before that (3.0).
        if pos.phase != Phase::Preparation && need_cup > 0 {
            cup.push(Chit::Stavka);
            need_cup -= 1;
        } else if need_pool > 0 {
            pool.push(Chit::Stavka);
            need_pool -= 1;
        } else {
            return None;
        }
    }
    // Rule 3.0: the chosen chits, among the Soviet HQs' not seen and still in the game.
    let mut candidates: Vec<Chit> = hqs(rules, Side::Soviet)
        .filter(|&(p, _)| {
            let gone = location(pos, p) == Some(Location::Removed) && !relocating(pos, p);
            !gone && !pos.played[1].contains(&Chit::Hq(p))
        })
        .map(|(p, _)| Chit::Hq(p))
        .collect();
    let chosen = pick(&mut candidates, need_pool + need_cup, rng)?;
    cup.extend_from_slice(&chosen[..need_cup]);
    pool.extend_from_slice(&chosen[need_cup..]);
    Some((pool, cup))
}

/// Whether the Axis player holds this HQ's chit now (3.0, 11.1.2, 11.2.1, 12.7, 11.3).
fn axis_hq_chit(rules: &Rules, pos: &Position, p: PieceId, start: Start) -> bool {
    match location(pos, p) {
        Some(Location::Map(_) | Location::Box(_)) => true,
        Some(Location::Removed) => relocating(pos, p),
        // Waiting to arrive: scheduled (no chit yet), or received again after a
        // relocation that failed (H-111), which keeps the chit.
        Some(Location::Arriving(t)) => match start {
            Start::Hex(_) => true,
            Start::Arrives { turn, in_box } => {
                let late = rules.options.late_first_panzer && in_box.is_some();
                t > turn.saturating_add(u8::from(late))
            }
        },
        Some(Location::Eliminated) | None => false,
    }
}

/// Whether Manstein chit `i` has arrived (7.2.2, 11.1.2; 15.0.2 early).
fn manstein_arrived(rules: &Rules, pos: &Position, i: usize) -> bool {
    let Some(&t) = rules.scenario.manstein_turns.get(i) else {
        return false;
    };
    let turn = pos.turn.0;
    if t != turn {
        return t < turn;
    }
    if rules.options.early_manstein {
        pos.phase != Phase::Preparation
    } else {
        matches!(pos.phase, Phase::Reinforcement(_) | Phase::Over)
    }
}

/// The Axis hidden chits: `(pool, cup)`.
fn axis_chits(
    rules: &Rules,
    pos: &Position,
    hidden_pool: usize,
    hidden_cup: usize,
    rng: &mut GameRng,
) -> Option<(Vec<Chit>, Vec<Chit>)> {
    let seen = |c: Chit| pos.played[0].contains(&c) || pos.drawn == Some(c);
    let mut held: Vec<Chit> = hqs(rules, Side::Axis)
        .filter(|&(p, start)| axis_hq_chit(rules, pos, p, start))
        .map(|(p, _)| Chit::Hq(p))
        .chain(
            (0..rules.scenario.manstein_turns.len())
                .filter(|&i| manstein_arrived(rules, pos, i))
                .map(|i| Chit::Manstein(i as u8)),
        )
        .filter(|&c| !seen(c))
        .collect();
    let all = pick(&mut held, hidden_pool + hidden_cup, rng)?;
    Some((all[hidden_cup..].to_vec(), all[..hidden_cup].to_vec()))
}
