//! Rule 10.0: supply.

use hexmap::Grid;

use crate::event::Event;
use crate::map::ways_out;
use crate::rules::{pocket, zoc::ZoneOfControl};
use crate::state::{Avl, Location, Supply};
use crate::unit::Side;

/// Rule 10.1.2: the hexes from which `side` can trace a supply line to one of its supply
/// sources: through no enemy-occupied hex, no enemy ZOC unless the hex holds a friendly
/// combat unit or HQ, no unbridged major river or impassable hexside, no water, and
/// (13.0) no Stalingrad Pocket hex while it exists. A source held by the enemy or in an
/// enemy ZOC without a friendly unit supplies nothing (H-114).
pub fn supplied(s: &Avl, side: Side) -> Grid<bool> {
    let map = s.map();
    let zoc = ZoneOfControl::of(s, side.enemy());
    let pocket = pocket::exists(s);
    // The side of the last piece (in id order) on each hex.
    let mut occupant: Grid<Option<Side>> = Grid::from_board(&map.board, None);
    for p in s.pieces_on_map() {
        if let Some(i) = s.hex_of(p).and_then(|h| map.index(h)) {
            occupant[i] = Some(s.side(p));
        }
    }
    let usable = |i: usize| {
        let info = &map.info[i];
        let closed = info.water || (pocket && info.pocket);
        !closed
            && match occupant[i] {
                Some(o) if o != side => false,
                Some(_) => true,
                None => !zoc.contains_index(i),
            }
    };
    let mut out = Grid::from_board(&map.board, false);
    // The hexes reached whose neighbours are still to be tried (in any order: the
    // hexes reached are the same).
    let mut todo = Vec::new();
    for &src in map.sources(side) {
        if let Some(i) = map.index(src)
            && usable(i)
        {
            out[i] = true;
            todo.push(i);
        }
    }
    while let Some(i) = todo.pop() {
        for n in ways_out(&map.links, i, map.links.supply[i]) {
            if !out[n] && usable(n) {
                out[n] = true;
                todo.push(n);
            }
        }
    }
    out
}

/// Rule 10.1: the Supply Phase: both sides' markers are updated at once (10.1.3), then
/// every HQ with an Out of Supply marker is queued for relocation (10.3, 12.5).
pub fn supply_phase(s: &mut Avl, ev: &mut Vec<Event>) {
    let grids = [supplied(s, Side::Axis), supplied(s, Side::Soviet)];
    for p in s.piece_ids() {
        let Location::Map(h) = s.location(p) else {
            continue;
        };
        let ok = grids[s.side(p).index()][s.map().board_index(h)];
        let old = s.piece(p).supply;
        let new = match (ok, old) {
            (true, _) => Supply::InSupply,
            (false, Supply::InSupply) => Supply::OutOfSupply,
            (false, _) => Supply::Isolated,
        };
        if new != old {
            s.piece_mut(p).supply = new;
            ev.push(Event::SupplyChanged {
                piece: p,
                supply: new,
            });
        }
    }
    for p in s.piece_ids() {
        if s.is_hq(p)
            && s.piece(p).supply != Supply::InSupply
            && let Location::Map(h) = s.location(p)
        {
            crate::rules::hq::start_relocation(s, p, h);
        }
    }
}

#[cfg(test)]
pub(crate) mod reference {
    //! The supply lines as first written (hex by hex), to compare with.

    use std::collections::VecDeque;

    use hexmap::{Grid, Hex};

    use crate::rules::{pocket, zoc};
    use crate::state::Avl;
    use crate::unit::Side;

    /// [`super::supplied`] walking hexes and hexsides by `Hex`.
    pub(crate) fn supplied(s: &Avl, side: Side) -> Grid<bool> {
        let map = s.map();
        let zoc = zoc::reference::of(s, side.enemy());
        let mut occupant: Grid<Option<Side>> = Grid::from_board(&map.board, None);
        for p in s.piece_ids() {
            if let Some(h) = s.hex_of(p)
                && let Some(c) = occupant.get_hex_mut(&map.board, h)
            {
                *c = Some(s.side(p));
            }
        }
        let usable = |h: Hex| {
            map.is_land(h)
                && !pocket::closed(s, h)
                && match occupant.get_hex(&map.board, h).copied().flatten() {
                    Some(o) if o != side => false,
                    Some(_) => true,
                    None => !zoc.contains(h),
                }
        };
        let mut out = Grid::from_board(&map.board, false);
        let mut queue = VecDeque::new();
        for &src in map.sources(side) {
            if usable(src) {
                out[map.board_index(src)] = true;
                queue.push_back(src);
            }
        }
        while let Some(h) = queue.pop_front() {
            for (_, n) in map.neighbors(h) {
                let side_f = map.side(h, n);
                if side_f.impassable || side_f.unbridged_major() {
                    continue;
                }
                let i = map.board_index(n);
                if !out[i] && usable(n) {
                    out[i] = true;
                    queue.push_back(n);
                }
            }
        }
        out
    }
}
