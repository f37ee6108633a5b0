//! Rule 11.0: reinforcements: placement on railroads (11.1), the reinforcement boxes
//! (11.2), arriving chits (11.1.2), lost reinforcements (11.1.3).

use std::collections::VecDeque;

use hexmap::{Grid, Hex};

use crate::derived::Derived;
use crate::error::{RuleError, refuse};
use crate::event::Event;
use crate::rules::zoc::ZoneOfControl;
use crate::rules::{hq, pocket, stacking};
use crate::scenario::Start;
use crate::state::{Avl, Chit, Location, Phase, PieceId};
use crate::unit::Side;

/// Rule 11.1.1: the railroad hexes that trace a continuous railroad route to a friendly
/// supply source, unblocked by enemy units (HQs included) and enemy ZOCs (friendly units
/// do not negate them here); not the Stalingrad Pocket while it exists (13.0). Routes
/// start at supply sources that are railroad hexes (H-114).
pub fn rail_net(s: &Avl, side: Side) -> Grid<bool> {
    let map = s.map();
    let zoc = ZoneOfControl::of(s, side.enemy());
    let pocket = pocket::exists(s);
    // The side of the first piece (in id order) on each hex: `Avl::occupant`.
    let mut occupant: Grid<Option<Side>> = Grid::from_board(&map.board, None);
    for p in s.pieces_on_map() {
        if let Some(i) = s.hex_of(p).and_then(|h| map.index(h)) {
            occupant[i].get_or_insert(s.side(p));
        }
    }
    let open = |i: usize| {
        let info = &map.info[i];
        let closed = info.water || zoc.contains_index(i) || (pocket && info.pocket);
        !closed && occupant[i].is_none_or(|o| o == side)
    };
    let mut out = Grid::from_board(&map.board, false);
    let mut queue = VecDeque::new();
    for &src in map.sources(side) {
        if let Some(i) = map.index(src)
            && map.rail_hex(src)
            && open(i)
        {
            out[i] = true;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        for (d, n) in map.linked(i) {
            if !out[n] && map.sides[i][d].railroad && open(n) {
                out[n] = true;
                queue.push_back(n);
            }
        }
    }
    out
}

/// Rule 11.1: pieces of `side` waiting to be placed this turn.
pub fn waiting(s: &Avl, side: Side) -> Vec<PieceId> {
    s.piece_ids().filter(|&p| is_waiting(s, side, p)).collect()
}

/// Rule 11.1: whether `p` is a piece of `side` waiting to be placed this turn.
fn is_waiting(s: &Avl, side: Side, p: PieceId) -> bool {
    s.side(p) == side && matches!(s.location(p), Location::Arriving(t) if t <= s.turn().0)
}

/// Rule 11.1.1: whether `p` may be placed on the map hex `h`, given its side's
/// railroad net.
fn placeable(s: &Avl, p: PieceId, net: &Grid<bool>, h: Hex) -> bool {
    net[s.map().board_index(h)] && placeable_on_net(s, p, h)
}

/// Rules 11.1.1, 5.0.4: whether `p` may be placed on `h`, a hex of its side's railroad
/// net: within the stacking limit and not with the enemy.
fn placeable_on_net(s: &Avl, p: PieceId, h: Hex) -> bool {
    stacking::can_stop(s, p, h) && s.occupant(h).is_none_or(|o| o == s.side(p))
}

/// The hexes of a railroad net, sorted.
pub(crate) fn net_hexes(s: &Avl, net: &Grid<bool>) -> Vec<Hex> {
    let map = s.map();
    map.links
        .sorted
        .iter()
        .map(|&i| i as usize)
        .filter(|&i| net[i])
        .map(|i| map.hex_at(i))
        .collect()
}

/// Rule 11.1.1: where `p` may be placed.
pub fn places(s: &Avl, p: PieceId) -> Vec<Hex> {
    places_in(&Derived::new(s), p)
}

/// [`places`], with the railroad net of `d`.
pub fn places_in(d: &Derived<'_>, p: PieceId) -> Vec<Hex> {
    let s = d.state();
    // The railroad net's hexes only (not every hex of the map), sorted once.
    d.rail_hexes(s.side(p))
        .iter()
        .copied()
        .filter(|&h| placeable_on_net(s, p, h))
        .collect()
}

/// Rule 11.1.3: whether `p` may be placed anywhere (whether [`places_in`] lists a hex).
fn has_place(d: &Derived<'_>, p: PieceId) -> bool {
    let s = d.state();
    let map = s.map();
    // In any order: the net's hexes as they come.
    d.rail_net(s.side(p))
        .iter()
        .enumerate()
        .any(|(i, &on)| on && placeable_on_net(s, p, map.hex_at(i)))
}

/// Rule 11.1: check placing `p` on `to`.
pub fn check_place(s: &Avl, p: PieceId, to: Hex) -> Result<(), RuleError> {
    check_place_in(&Derived::new(s), p, to)
}

/// [`check_place`], with the railroad net of `d`.
pub fn check_place_in(d: &Derived<'_>, p: PieceId, to: Hex) -> Result<(), RuleError> {
    let s = d.state();
    let Phase::Reinforcement(side) = s.pos.phase else {
        return refuse(
            "wrong_phase",
            "4.3",
            "reinforcements are placed in the Reinforcement Segment",
        );
    };
    if usize::from(p.0) >= s.piece_count() || !is_waiting(s, side, p) {
        return refuse(
            "not_arriving",
            "11.1",
            "that piece is not a reinforcement due now",
        );
    }
    // One hex to judge: no need to list every place (the legal actions do that).
    let on_map = hexmap::Board::contains(&s.map().board, to);
    if !on_map || !placeable(s, p, d.rail_net(side), to) {
        return refuse(
            "not_rail_hex",
            "11.1.1",
            "reinforcements go on railroad hexes with a railroad route to a friendly supply source, free of enemy units and ZOCs",
        );
    }
    Ok(())
}

/// Rule 11.1: place `p` on `to` (taking an enemy Victory City there, 11.1.1); an Axis
/// HQ's chit joins the Axis pool (11.1.2).
pub fn apply_place(s: &mut Avl, p: PieceId, to: Hex, ev: &mut Vec<Event>) {
    s.set_location(p, Location::Map(to));
    ev.push(Event::Placed { piece: p, to });
    hq::entered(s, p, to, ev);
    if s.is_hq(p) && s.side(p) == Side::Axis {
        arrive_chit(s, Chit::Hq(p), ev);
    }
}

fn arrive_chit(s: &mut Avl, c: Chit, ev: &mut Vec<Event>) {
    let pools = &s.pos;
    let known = pools
        .inactive
        .iter()
        .chain(pools.played.iter())
        .flatten()
        .chain(&pools.cup)
        .any(|&x| x == c);
    if !known {
        s.pos.inactive[0].push(c);
        s.pos.inactive[0].sort();
        ev.push(Event::ChitArrived { chit: c });
    }
}

/// Rule 7.2.2, 11.1.2, 15.0.2: Manstein chits due on this turn join the Axis pool.
pub fn manstein_arrivals(s: &mut Avl, ev: &mut Vec<Event>) {
    let turn = s.turn().0;
    let due: Vec<u8> = s
        .rules()
        .scenario
        .manstein_turns
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t == turn)
        .map(|(i, _)| i as u8)
        .collect();
    for i in due {
        arrive_chit(s, Chit::Manstein(i), ev);
    }
}

/// Rule 11.2.1: at the start of the Reinforcement Segment, units due in a box enter it;
/// an Axis HQ's chit comes with it. Manstein chits arrive too (unless 15.0.2 brought
/// them earlier).
pub fn begin_segment(s: &mut Avl, side: Side, ev: &mut Vec<Event>) {
    for p in waiting(s, side) {
        if let Start::Arrives {
            in_box: Some(b), ..
        } = s.start_of(p)
        {
            s.set_location(p, Location::Box(b));
            ev.push(Event::EnteredBox { piece: p });
            if s.is_hq(p) && side == Side::Axis {
                arrive_chit(s, Chit::Hq(p), ev);
            }
        }
    }
    if side == Side::Axis && !s.options().early_manstein {
        manstein_arrivals(s, ev);
    }
}

/// Rule 11.1.3, H-111: reinforcements with nowhere to go are eliminated (a HQ is removed
/// with its chit). Returns whether any piece can still be placed.
pub fn drop_unplaceable(s: &mut Avl, side: Side, ev: &mut Vec<Event>) -> bool {
    let waiting = waiting(s, side);
    // The waiting pieces are off the map: dropping one changes no other's places, so
    // one railroad net serves them all.
    let stuck: Vec<bool> = {
        let d = Derived::new(s);
        waiting.iter().map(|&p| !has_place(&d, p)).collect()
    };
    let mut any = false;
    for (p, stuck) in waiting.into_iter().zip(stuck) {
        if stuck {
            drop_piece(s, p, ev);
        } else {
            any = true;
        }
    }
    any
}

/// Rule 11.1.3, H-111: a waiting piece with no place is lost: a HQ is removed with its
/// chit, a unit is eliminated ([`drop_unplaceable`]).
fn drop_piece(s: &mut Avl, p: PieceId, ev: &mut Vec<Event>) {
    if s.is_hq(p) {
        s.set_location(p, Location::Removed);
        crate::rules::command::remove_chit(s, p);
        ev.push(Event::HqRemoved { hq: p });
    } else {
        s.set_location(p, Location::Eliminated);
        ev.push(Event::ReinforcementLost { piece: p });
    }
}

#[cfg(test)]
pub(crate) mod reference {
    //! The railroad net, the places of reinforcements and their dropping as first
    //! written, to compare with.

    use std::collections::VecDeque;

    use hexmap::{Grid, Hex};

    use super::{drop_piece, placeable, waiting};
    use crate::event::Event;
    use crate::rules::{pocket, zoc};
    use crate::state::{Avl, PieceId};
    use crate::unit::Side;

    /// [`super::rail_net`] walking hexes and hexsides by `Hex`.
    pub(crate) fn rail_net(s: &Avl, side: Side) -> Grid<bool> {
        let map = s.map();
        let zoc = zoc::reference::of(s, side.enemy());
        let open = |h: Hex| {
            map.is_land(h)
                && !zoc.contains(h)
                && !pocket::closed(s, h)
                && s.occupant(h).is_none_or(|o| o == side)
        };
        let mut out = Grid::from_board(&map.board, false);
        let mut queue = VecDeque::new();
        for &src in map.sources(side) {
            if map.rail_hex(src) && open(src) {
                out[map.board_index(src)] = true;
                queue.push_back(src);
            }
        }
        while let Some(h) = queue.pop_front() {
            for (_, n) in map.neighbors(h) {
                let i = map.board_index(n);
                if !out[i] && map.side(h, n).railroad && open(n) {
                    out[i] = true;
                    queue.push_back(n);
                }
            }
        }
        out
    }

    /// [`super::places`]: every hex of the net, kept if placeable.
    pub(crate) fn places(s: &Avl, p: PieceId) -> Vec<Hex> {
        let net = rail_net(s, s.side(p));
        let mut out: Vec<Hex> = net
            .iter_hexes(&s.map().board)
            .filter(|&(h, &on)| on && placeable(s, p, &net, h))
            .map(|(h, _)| h)
            .collect();
        out.sort_unstable();
        out
    }

    /// [`super::drop_unplaceable`], the places of each piece found again.
    pub(crate) fn drop_unplaceable(s: &mut Avl, side: Side, ev: &mut Vec<Event>) -> bool {
        let mut any = false;
        for p in waiting(s, side) {
            if places(s, p).is_empty() {
                drop_piece(s, p, ev);
            } else {
                any = true;
            }
        }
        any
    }
}
