//! Rules 3.0 (the Soviet chit choice), 7.0 (command: chit selection, draws, STAVKA and
//! Manstein, HQ activation, Command Range) and the Turn 1 Special Combat Segment (4.1.2).

use std::collections::VecDeque;

use hexmap::{Grid, Hex};

use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::state::{Activation, Avl, Chit, Location, Phase, PieceId};
use crate::unit::Side;

/// The side a chit belongs to.
pub fn chit_side(s: &Avl, chit: Chit) -> Option<Side> {
    match chit {
        Chit::Stavka => Some(Side::Soviet),
        Chit::Manstein(_) => Some(Side::Axis),
        Chit::Hq(p) if usize::from(p.0) < s.piece_count() && s.is_hq(p) => Some(s.side(p)),
        _ => None,
    }
}

/// Rule 3.0: the chits the Soviet player may still choose (HQ chits, reinforcements
/// included, not yet chosen).
pub fn choosable(s: &Avl) -> Vec<Chit> {
    s.piece_ids()
        .filter(|&p| s.is_hq(p) && s.side(p) == Side::Soviet)
        .map(Chit::Hq)
        .filter(|c| !s.pos.inactive[1].contains(c))
        .collect()
}

/// Rule 3.0: whether the Soviet player still has chits to choose.
pub fn choosing_done(s: &Avl) -> bool {
    let chosen = s.pos.inactive[1]
        .iter()
        .filter(|c| **c != Chit::Stavka)
        .count();
    chosen >= usize::from(s.rules().scenario.soviet_chosen_chits) || choosable(s).is_empty()
}

/// Rule 3.0: check a Soviet chit choice.
pub fn check_choose(s: &Avl, chit: Chit) -> Result<(), RuleError> {
    if !choosable(s).contains(&chit) {
        return refuse(
            "not_choosable",
            "3.0",
            "that is not a Soviet HQ chit still to choose",
        );
    }
    Ok(())
}

/// Rule 3.0: the Soviet player chooses a chit.
pub fn apply_choose(s: &mut Avl, chit: Chit, ev: &mut Vec<Event>) {
    s.pos.inactive[1].push(chit);
    s.pos.inactive[1].sort();
    ev.push(Event::ChitChosen { chit });
}

/// Rule 7.1.2: how many chits `side` puts in the cup from its pool this turn (besides
/// STAVKA), and how many the Soviet player notes for next turn (15.0.2).
fn quota(s: &Avl, side: Side) -> usize {
    let sc = &s.rules().scenario;
    match side {
        Side::Soviet if s.options().soviet_selects_ahead && s.turn().0 > 1 => 0,
        Side::Soviet => usize::from(sc.soviet_chits_per_turn),
        Side::Axis => usize::from(
            sc.axis_chits
                .get(usize::from(s.turn().0.saturating_sub(1)))
                .copied()
                .unwrap_or(0),
        ),
    }
}

fn in_cup(s: &Avl, side: Side) -> usize {
    s.pos
        .cup
        .iter()
        .filter(|&&c| c != Chit::Stavka && chit_side(s, c) == Some(side))
        .count()
}

/// What the selecting side is doing now: filling the cup, or (15.0.2) noting next
/// turn's Soviet chits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selecting {
    /// Putting chits in the cup.
    Cup,
    /// Noting chits for next turn.
    Notes,
    /// Done.
    Done,
}

/// Rule 7.1.2 (15.0.2, H-115): what `side` is selecting now.
pub fn selecting(s: &Avl, side: Side) -> Selecting {
    let pool = &s.pos.inactive[side.index()];
    let candidates = pool.iter().filter(|&&c| c != Chit::Stavka).count();
    if in_cup(s, side) < quota(s, side) && candidates > 0 {
        return Selecting::Cup;
    }
    if side == Side::Soviet
        && s.options().soviet_selects_ahead
        && s.turn().0 < s.rules().scenario.turns
        && s.pos.noted.len() < usize::from(s.rules().scenario.soviet_chits_per_turn)
        && !note_candidates(s).is_empty()
    {
        return Selecting::Notes;
    }
    Selecting::Done
}

fn note_candidates(s: &Avl) -> Vec<Chit> {
    let mut v: Vec<Chit> = s.pos.inactive[1]
        .iter()
        .chain(&s.pos.played[1])
        .chain(
            s.pos
                .cup
                .iter()
                .filter(|&&c| chit_side(s, c) == Some(Side::Soviet)),
        )
        .copied()
        .filter(|&c| c != Chit::Stavka && !s.pos.noted.contains(&c))
        .collect();
    v.sort();
    v
}

/// Rule 7.1.2: the chits `side` may select now.
pub fn selectable(s: &Avl, side: Side) -> Vec<Chit> {
    match selecting(s, side) {
        Selecting::Cup => s.pos.inactive[side.index()]
            .iter()
            .copied()
            .filter(|&c| c != Chit::Stavka)
            .collect(),
        Selecting::Notes => note_candidates(s),
        Selecting::Done => Vec::new(),
    }
}

/// H-110: whether the selection is forced (no more candidates than picks left): then it
/// is made without asking.
pub fn selection_forced(s: &Avl, side: Side) -> bool {
    match selecting(s, side) {
        Selecting::Cup => selectable(s, side).len() <= quota(s, side) - in_cup(s, side),
        Selecting::Notes => {
            note_candidates(s).len()
                <= usize::from(s.rules().scenario.soviet_chits_per_turn) - s.pos.noted.len()
        }
        Selecting::Done => true,
    }
}

/// Rule 7.1.2: check a chit selection.
pub fn check_select(s: &Avl, side: Side, chit: Chit) -> Result<(), RuleError> {
    if selectable(s, side).contains(&chit) {
        Ok(())
    } else {
        refuse(
            "not_selectable",
            "7.1.2",
            "that chit is not available to select now",
        )
    }
}

/// Rule 7.1.2: select a chit (into the cup, or onto the notes).
pub fn apply_select(s: &mut Avl, side: Side, chit: Chit, ev: &mut Vec<Event>) {
    match selecting(s, side) {
        Selecting::Cup => {
            s.pos.inactive[side.index()].retain(|&c| c != chit);
            s.pos.cup.push(chit);
            s.pos.cup.sort();
            ev.push(Event::ChitSelected { side, chit });
        }
        Selecting::Notes => {
            s.pos.noted.push(chit);
            s.pos.noted.sort();
            ev.push(Event::ChitNoted { chit });
        }
        Selecting::Done => {}
    }
}

/// Rule 7.1.1: at the start of the Command Chit Selection Phase the played chits go back
/// to the pool; STAVKA goes in the cup (7.1.2); with 15.0.2 the noted chits do too.
pub fn begin_selection(s: &mut Avl, ev: &mut Vec<Event>) {
    for i in 0..2 {
        let played = std::mem::take(&mut s.pos.played[i]);
        s.pos.inactive[i].extend(played);
        s.pos.inactive[i].sort();
    }
    let soviet = &mut s.pos.inactive[1];
    if let Some(i) = soviet.iter().position(|&c| c == Chit::Stavka) {
        soviet.remove(i);
        s.pos.cup.push(Chit::Stavka);
        ev.push(Event::ChitSelected {
            side: Side::Soviet,
            chit: Chit::Stavka,
        });
    }
    if s.options().soviet_selects_ahead && s.turn().0 > 1 {
        for c in std::mem::take(&mut s.pos.noted) {
            if let Some(i) = s.pos.inactive[1].iter().position(|&x| x == c) {
                s.pos.inactive[1].remove(i);
                s.pos.cup.push(c);
                ev.push(Event::ChitSelected {
                    side: Side::Soviet,
                    chit: c,
                });
            }
        }
    }
    s.pos.cup.sort();
}

/// Rule 7.3.3, 7.3.4: the hexes within a HQ's Command Range of `from`: counted in hexes,
/// never into water or across impassable hexsides, and stopping in the hex across an
/// unbridged major river. Supply, enemy units and ZOCs do not matter; the Stalingrad
/// Pocket does not block it (13.0).
pub fn command_range(s: &Avl, from: Hex, range: u8) -> Vec<Hex> {
    let map = s.map();
    let (_, reached) = in_range(s, from, range);
    let mut out: Vec<Hex> = reached.into_iter().map(|i| map.hex_at(i)).collect();
    out.sort_unstable();
    out
}

/// [`command_range`] as dense indices: each hex in range marked, and the list of them
/// (in no order).
fn in_range(s: &Avl, from: Hex, range: u8) -> (Grid<bool>, Vec<usize>) {
    let map = s.map();
    // A hex reached across an unbridged major river is a dead end; reached by land
    // (at the same or a later distance) it may extend further, so track both.
    let mut any: Grid<bool> = Grid::from_board(&map.board, false);
    let mut open: Grid<bool> = Grid::from_board(&map.board, false);
    let mut reached = Vec::new();
    let mut queue = VecDeque::new();
    if let Some(i) = map.index(from)
        && !map.info[i].water
    {
        any[i] = true;
        open[i] = true;
        reached.push(i);
        queue.push_back((i, 0u8));
    }
    while let Some((i, d)) = queue.pop_front() {
        if d >= range {
            continue;
        }
        for (dir, n) in map.linked(i) {
            let side = map.sides[i][dir];
            if side.impassable || map.info[n].water {
                continue;
            }
            if !any[n] {
                any[n] = true;
                reached.push(n);
            }
            if !side.unbridged_major() && !open[n] {
                open[n] = true;
                queue.push_back((n, d + 1));
            }
        }
    }
    (any, reached)
}

/// Rule 7.3.2, 7.3.5, 11.2.3: the combat units a HQ activates now: own-side units within
/// its Command Range of compatible nationality; a HQ in a reinforcement box activates
/// only the units in its box.
pub fn units_activated_by(s: &Avl, hq: PieceId) -> Vec<PieceId> {
    let Some(info) = s.hq_info(hq) else {
        return Vec::new();
    };
    let nat = info.nationality;
    let fits =
        |p: PieceId| !s.is_hq(p) && s.side(p) == s.side(hq) && nat.compatible(s.nationality(p));
    match s.location(hq) {
        Location::Map(h) => {
            let (range, _) = in_range(s, h, info.range);
            let map = s.map();
            s.piece_ids()
                .filter(|&p| {
                    fits(p)
                        && s.hex_of(p)
                            .and_then(|x| map.index(x))
                            .is_some_and(|i| range[i])
                })
                .collect()
        }
        Location::Box(b) => s
            .piece_ids()
            .filter(|&p| fits(p) && s.location(p) == Location::Box(b))
            .collect(),
        _ => Vec::new(),
    }
}

/// HQs that may be activated (on the map or in a reinforcement box).
pub fn activatable(s: &Avl, hq: PieceId) -> bool {
    s.is_hq(hq) && matches!(s.location(hq), Location::Map(_) | Location::Box(_))
}

/// Rule 7.2, 7.3: activate HQs and the combat units within their Command Range, then
/// start the Movement Segment (or the Combat Segment for the Special Combat Segment).
pub fn activate(
    s: &mut Avl,
    side: Side,
    hqs: Vec<PieceId>,
    chit: Option<Chit>,
    ev: &mut Vec<Event>,
) {
    let mut units: Vec<PieceId> = hqs.iter().flat_map(|&h| units_activated_by(s, h)).collect();
    units.sort();
    units.dedup();
    ev.push(Event::Activated {
        side,
        hqs: hqs.clone(),
        units: units.clone(),
    });
    let special = chit.is_none();
    s.pos.active = Some(side);
    s.pos.activation = Some(Activation {
        chit,
        hqs: if special { Vec::new() } else { hqs },
        units,
        ..Activation::default()
    });
    s.pos.phase = if special {
        Phase::Combat
    } else {
        Phase::Movement
    };
}

/// Rule 7.2.1: draw a chit from the cup; its owner becomes the active player.
pub fn apply_draw(s: &mut Avl, chit: Chit, ev: &mut Vec<Event>) {
    s.pos.cup.retain(|&c| c != chit);
    ev.push(Event::ChitDrawn { chit });
    play_chit(s, chit, ev);
}

/// Rule 7.2.2, H-109: the effect of a drawn (or, 15.0.2, designated) chit; the chit of a
/// HQ not in play activates nothing.
pub fn play_chit(s: &mut Avl, chit: Chit, ev: &mut Vec<Event>) {
    let Some(side) = chit_side(s, chit) else {
        return;
    };
    match chit {
        Chit::Manstein(_) => {
            s.pos.drawn = Some(chit);
            s.pos.phase = Phase::Manstein;
        }
        Chit::Stavka => {
            s.pos.manstein_must_play = false;
            s.pos.played[1].push(chit);
            let hqs: Vec<PieceId> = s
                .piece_ids()
                .filter(|&p| s.is_hq(p) && s.side(p) == Side::Soviet && activatable(s, p))
                .collect();
            activate(s, side, hqs, Some(chit), ev);
        }
        Chit::Hq(hq) => {
            s.pos.manstein_must_play = false;
            s.pos.played[side.index()].push(chit);
            let hqs = if activatable(s, hq) {
                vec![hq]
            } else {
                Vec::new()
            };
            activate(s, side, hqs, Some(chit), ev);
        }
        Chit::Hidden => {}
    }
}

/// Rule 7.2.2: the HQs a Manstein chit may activate.
pub fn manstein_choices(s: &Avl) -> Vec<PieceId> {
    s.piece_ids()
        .filter(|&p| s.is_hq(p) && s.side(p) == Side::Axis && activatable(s, p))
        .collect()
}

/// Rule 7.2.2: check rejecting the Manstein chit just drawn.
pub fn check_reject(s: &Avl) -> Result<(), RuleError> {
    if s.pos.manstein_must_play {
        return refuse(
            "manstein_again",
            "7.2.2",
            "a Manstein chit drawn right after a rejected one must be played",
        );
    }
    Ok(())
}

/// Rule 7.2.2: the Manstein chit goes back in the cup.
pub fn apply_reject(s: &mut Avl, ev: &mut Vec<Event>) {
    if let Some(c) = s.pos.drawn.take() {
        s.pos.cup.push(c);
        s.pos.cup.sort();
    }
    s.pos.manstein_must_play = true;
    s.pos.phase = Phase::Draw;
    ev.push(Event::MansteinRejected);
}

/// Rule 7.2.2: check the HQ named for a Manstein chit.
pub fn check_manstein_hq(s: &Avl, hq: PieceId) -> Result<(), RuleError> {
    if manstein_choices(s).contains(&hq) {
        Ok(())
    } else {
        refuse(
            "not_axis_hq",
            "7.2.2",
            "a Manstein chit activates one Axis HQ in play",
        )
    }
}

/// Rule 7.2.2: the Manstein chit activates this HQ.
pub fn apply_manstein_hq(s: &mut Avl, hq: Option<PieceId>, ev: &mut Vec<Event>) {
    let chit = s.pos.drawn.take();
    if let Some(c) = chit {
        s.pos.played[0].push(c);
    }
    s.pos.manstein_must_play = false;
    activate(s, Side::Axis, hq.into_iter().collect(), chit, ev);
}

/// Rule 4.1.2, H-113: check the Turn 1 Special Combat Segment's HQ (a Soviet HQ on the
/// map, or none).
pub fn check_special(s: &Avl, hq: Option<PieceId>) -> Result<(), RuleError> {
    match hq {
        None => Ok(()),
        Some(h)
            if usize::from(h.0) < s.piece_count()
                && s.is_hq(h)
                && s.side(h) == Side::Soviet
                && matches!(s.location(h), Location::Map(_)) =>
        {
            Ok(())
        }
        Some(_) => refuse(
            "not_soviet_hq",
            "4.1.2",
            "the Special Combat Segment uses one Soviet HQ on the map",
        ),
    }
}

/// Rule 15.0.2: check the Axis player's designated first chit.
pub fn check_first(s: &Avl, chit: Chit) -> Result<(), RuleError> {
    if chit_side(s, chit) == Some(Side::Axis) && s.pos.cup.contains(&chit) {
        Ok(())
    } else {
        refuse("not_in_cup", "15.0.2", "name one of your chits in the cup")
    }
}

/// Rule 11.3, 12.6: a HQ's chit leaves the game with it.
pub fn remove_chit(s: &mut Avl, hq: PieceId) {
    let c = Chit::Hq(hq);
    for v in s
        .pos
        .inactive
        .iter_mut()
        .chain(s.pos.played.iter_mut())
        .chain(std::iter::once(&mut s.pos.cup))
        .chain(std::iter::once(&mut s.pos.noted))
    {
        v.retain(|&x| x != c);
    }
}

#[cfg(test)]
pub(crate) mod reference {
    //! Command Range as first written (hex by hex), to compare with.

    use std::collections::VecDeque;

    use hexmap::{Grid, Hex};

    use crate::state::{Avl, Location, PieceId};

    /// [`super::command_range`] walking hexes and hexsides by `Hex`.
    pub(crate) fn command_range(s: &Avl, from: Hex, range: u8) -> Vec<Hex> {
        let map = s.map();
        let mut any: Grid<bool> = Grid::from_board(&map.board, false);
        let mut open: Grid<bool> = Grid::from_board(&map.board, false);
        let mut queue = VecDeque::new();
        if map.is_land(from) {
            any[map.board_index(from)] = true;
            open[map.board_index(from)] = true;
            queue.push_back((from, 0u8));
        }
        while let Some((h, d)) = queue.pop_front() {
            if d >= range {
                continue;
            }
            for (_, n) in map.neighbors(h) {
                let side = map.side(h, n);
                if side.impassable || !map.is_land(n) {
                    continue;
                }
                let i = map.board_index(n);
                any[i] = true;
                if !side.unbridged_major() && !open[i] {
                    open[i] = true;
                    queue.push_back((n, d + 1));
                }
            }
        }
        let mut out: Vec<Hex> = any
            .iter_hexes(&map.board)
            .filter(|(_, v)| **v)
            .map(|(h, _)| h)
            .collect();
        out.sort();
        out
    }

    /// [`super::units_activated_by`], finding units by a search of the sorted Command
    /// Range.
    pub(crate) fn units_activated_by(s: &Avl, hq: PieceId) -> Vec<PieceId> {
        let Some(info) = s.hq_info(hq) else {
            return Vec::new();
        };
        let nat = info.nationality;
        let fits =
            |p: PieceId| !s.is_hq(p) && s.side(p) == s.side(hq) && nat.compatible(s.nationality(p));
        match s.location(hq) {
            Location::Map(h) => {
                let range = command_range(s, h, info.range);
                s.piece_ids()
                    .filter(|&p| {
                        fits(p) && s.hex_of(p).is_some_and(|x| range.binary_search(&x).is_ok())
                    })
                    .collect()
            }
            Location::Box(b) => s
                .piece_ids()
                .filter(|&p| fits(p) && s.location(p) == Location::Box(b))
                .collect(),
            _ => Vec::new(),
        }
    }
}
