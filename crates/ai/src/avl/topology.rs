//! The map's fixed tables for the evaluation, and a fast supply-line trace.
//!
//! The evaluation traces both sides' supply lines (10.1.2) every time it scores a
//! position, hundreds of times per search iteration. The rules crate's trace
//! ([`avl::rules::supply::supplied`]) looks hexsides up by coordinates; on the 71×50
//! campaign map that costs about 0.3 ms per side. Here the map is flattened once per
//! game into dense tables (neighbours by index, the hexside features that stop a supply
//! line or a ZOC), cached per thread, and the trace runs over plain slices. A test
//! checks it against the rules crate's trace.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, Weak};

use avl::state::Rules;
use avl::{Avl, Side};
use hexmap::{Board, Direction, Hex};

/// No neighbour in this direction (off the map).
pub const NONE: u32 = u32::MAX;

/// A hexside that stops supply lines, ZOCs and Command Range: impassable (6.0.1, 10.1.2).
pub const IMPASSABLE: u8 = 1;
/// An unbridged major river hexside: stops supply lines (10.1.2), not ZOCs (6.0.1).
pub const UNBRIDGED_MAJOR: u8 = 2;
/// A railroad crosses the hexside (11.1.1).
pub const RAILROAD: u8 = 4;

/// Occupancy and ZOC bits per hex: an Axis piece, a Soviet piece, in an Axis ZOC, in a
/// Soviet ZOC.
pub const AXIS_PIECE: u8 = 1;
/// A Soviet piece is in the hex.
pub const SOVIET_PIECE: u8 = 2;
/// The hex is in the ZOC of an Axis combat unit (6.0.1).
pub const AXIS_ZOC: u8 = 4;
/// The hex is in the ZOC of a Soviet combat unit.
pub const SOVIET_ZOC: u8 = 8;

/// The side's piece bit.
pub const fn piece_bit(side: Side) -> u8 {
    match side {
        Side::Axis => AXIS_PIECE,
        Side::Soviet => SOVIET_PIECE,
    }
}

/// Rule 10.1.2: a supply line crosses a hexside that is neither impassable nor an
/// unbridged major river.
const fn supply_crosses(edge: u8) -> bool {
    edge & (IMPASSABLE | UNBRIDGED_MAJOR) == 0
}

/// The side's ZOC bit.
pub const fn zoc_bit(side: Side) -> u8 {
    match side {
        Side::Axis => AXIS_ZOC,
        Side::Soviet => SOVIET_ZOC,
    }
}

/// The number of steps between two hexes of a map ([`Hex::distance`]) in 32-bit
/// arithmetic, for the evaluation's inner loops. A map's coordinates are bounded by its
/// size, far inside `i32`, where this equals [`Hex::distance`]; it wraps rather than
/// panics on anything else.
#[inline]
pub fn distance(a: Hex, b: Hex) -> u32 {
    let dq = a.q.wrapping_sub(b.q);
    let dr = a.r.wrapping_sub(b.r);
    dq.unsigned_abs()
        .max(dr.unsigned_abs())
        .max(dq.wrapping_add(dr).unsigned_abs())
}

/// A flood from a side's supply sources ([`Topology::trace`], [`Topology::rail_net`]):
/// the hexes reached, how many, and how: each reached hex's parent, the hex next to it
/// it was reached from ([`NONE`] for a source). [`Topology::retrace`] updates a supply
/// trace from them when hexes open and close.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    reached: Vec<bool>,
    parent: Vec<u32>,
    /// The hexes still to spread from ([`Topology::spread`]'s queue): those reached
    /// since the trace was begun or last updated.
    order: Vec<u32>,
    /// Hexes reached.
    count: usize,
}

impl Trace {
    /// Per hex index: reached.
    pub fn reached(&self) -> &[bool] {
        &self.reached
    }

    /// The number of hexes reached.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Empties the trace for a map of `n` hexes, keeping parents if `parents`.
    fn reset(&mut self, n: usize, parents: bool) {
        self.reached.clear();
        self.reached.resize(n, false);
        // A parent is read only for a reached hex, and written when it is reached.
        if !parents {
            self.parent.clear();
        } else if self.parent.len() != n {
            self.parent = vec![NONE; n];
        }
        self.order.clear();
        self.count = 0;
    }

    /// Marks hex index `i` reached from `parent` (kept if the trace keeps parents).
    fn reach(&mut self, i: usize, parent: u32) {
        self.reached[i] = true;
        if let Some(p) = self.parent.get_mut(i) {
            *p = parent;
        }
        self.order.push(i as u32);
        self.count += 1;
    }

    /// Marks hex index `i`, reached, not reached.
    fn unreach(&mut self, i: usize) {
        self.reached[i] = false;
        self.count -= 1;
    }
}

/// The map flattened for the evaluation: every table is indexed by the board's dense
/// hex index.
#[derive(Debug)]
pub struct Topology {
    /// The hex at each index.
    pub hexes: Vec<Hex>,
    /// Neighbours in [`Direction::ALL`] order ([`NONE`] off the map).
    pub neighbors: Vec<[u32; 6]>,
    /// The twelve hexes two away ([`Hex::ring`] of radius 2; [`NONE`] off the map).
    pub ring2: Vec<[u32; 12]>,
    /// The hexside towards each neighbour: [`IMPASSABLE`], [`UNBRIDGED_MAJOR`],
    /// [`RAILROAD`] bits.
    pub edges: Vec<[u8; 6]>,
    /// A railroad hexside touches the hex (11.1.1).
    pub rail: Vec<bool>,
    /// Land (not water, 8.1.5).
    pub land: Vec<bool>,
    /// In the Stalingrad Pocket (13.0).
    pub pocket: Vec<bool>,
    /// The index of the Victory City there (14.0).
    pub city: Vec<Option<u8>>,
    /// Supply sources per side (2.1.2), Axis first.
    pub sources: [Vec<u32>; 2],
    /// Land hexes.
    pub land_count: usize,
}

impl Topology {
    /// Flattens the map of `rules`.
    pub fn new(rules: &Rules) -> Topology {
        let map = &rules.data.map;
        let n = map.board.len();
        let mut hexes = Vec::with_capacity(n);
        let mut neighbors = Vec::with_capacity(n);
        let mut ring2 = Vec::with_capacity(n);
        let mut edges = Vec::with_capacity(n);
        let mut land = Vec::with_capacity(n);
        let mut pocket = Vec::with_capacity(n);
        let mut city = Vec::with_capacity(n);
        let mut sources = [Vec::new(), Vec::new()];
        for i in 0..n {
            let hex = map.board.hex_at(i).unwrap_or(Hex::ORIGIN);
            hexes.push(hex);
            let info = map.at(hex).copied().unwrap_or_default();
            land.push(!info.water);
            pocket.push(info.pocket);
            city.push(info.city);
            if let Some(side) = info.source {
                sources[side.index()].push(i as u32);
            }
            let sides = map.sides.get(i).copied().unwrap_or_default();
            let mut nb = [NONE; 6];
            let mut ed = [0u8; 6];
            for d in Direction::ALL {
                if let Some(j) = map.board.index(hex.neighbor(d)) {
                    nb[d.index()] = j as u32;
                }
                let f = sides[d.index()];
                ed[d.index()] = if f.impassable { IMPASSABLE } else { 0 }
                    | if f.unbridged_major() {
                        UNBRIDGED_MAJOR
                    } else {
                        0
                    }
                    | if f.railroad { RAILROAD } else { 0 };
            }
            neighbors.push(nb);
            let mut r2 = [NONE; 12];
            for (slot, h) in r2.iter_mut().zip(hex.ring(2)) {
                if let Some(j) = map.board.index(h) {
                    *slot = j as u32;
                }
            }
            ring2.push(r2);
            edges.push(ed);
        }
        let land_count = land.iter().filter(|&&l| l).count();
        let rail = edges
            .iter()
            .map(|e| e.iter().any(|&b| b & RAILROAD != 0))
            .collect();
        Topology {
            hexes,
            neighbors,
            ring2,
            edges,
            rail,
            land,
            pocket,
            city,
            sources,
            land_count,
        }
    }

    /// Number of hexes on the board.
    pub fn len(&self) -> usize {
        self.hexes.len()
    }

    /// Whether the board is empty.
    pub fn is_empty(&self) -> bool {
        self.hexes.is_empty()
    }

    /// Rule 6.0.1: marks the ZOC of a `side` combat unit at index `at` in `grid`: the six
    /// hexes around it, not water, not across impassable hexsides.
    pub fn mark_zoc(&self, grid: &mut [u8], at: usize, side: Side) {
        let bit = zoc_bit(side);
        for (k, &j) in self.neighbors[at].iter().enumerate() {
            if j != NONE && self.land[j as usize] && self.edges[at][k] & IMPASSABLE == 0 {
                grid[j as usize] |= bit;
            }
        }
    }

    /// Rule 10.1.2: the hexes from which `side` can trace a supply line, as
    /// [`avl::rules::supply::supplied`] finds them: through no enemy-occupied hex, no
    /// enemy ZOC unless a friendly piece is there, no water, no impassable or unbridged
    /// major river hexside, no closed Pocket hex (`pocket_closed`, 13.0); from the
    /// side's sources that are usable themselves (H-114). `grid` holds the occupancy and
    /// ZOC bits; `out` is overwritten. Returns the number of hexes traced.
    pub fn trace(
        &self,
        grid: &[u8],
        side: Side,
        pocket_closed: bool,
        out: &mut Vec<bool>,
    ) -> usize {
        let open = |i| self.supply_open(grid[i], i, side, pocket_closed);
        self.flood_into(side, open, supply_crosses, out)
    }

    /// [`Topology::trace`] into `t`, with how each hex was reached
    /// ([`Topology::retrace`] reads it).
    pub fn trace_into(&self, grid: &[u8], side: Side, pocket_closed: bool, t: &mut Trace) {
        let open = |i| self.supply_open(grid[i], i, side, pocket_closed);
        self.flood(side, open, supply_crosses, t, true);
    }

    /// Rule 10.1.2: whether a supply line of `side` may enter hex index `i`, whose
    /// occupancy and ZOC bits are `g` ([`Topology::trace`]).
    fn supply_open(&self, g: u8, i: usize, side: Side, pocket_closed: bool) -> bool {
        let own = piece_bit(side);
        let enemy = piece_bit(side.enemy());
        let enemy_zoc = zoc_bit(side.enemy());
        self.land[i]
            && !(pocket_closed && self.pocket[i])
            && g & enemy == 0
            && (g & own != 0 || g & enemy_zoc == 0)
    }

    /// Makes `t`, `side`'s supply trace over `before` ([`Topology::trace_into`]), its
    /// trace over `grid` (both with `pocket_closed`) without tracing the whole map
    /// again: only the hexes whose openness to `side`'s supply lines changed are looked
    /// at. A hex that closed cuts off every hex whose line ran through it (its
    /// descendants in `t`, found from it through the neighbours whose parent it is);
    /// the hexes cut off and the hexes that opened are then reached
    /// again from the hexes still reached next to them, and the trace spreads on from
    /// there. The result is the hexes [`Topology::trace`] finds: a hex still reached
    /// keeps its line, which passes only hexes still open; and a line to any other hex
    /// leaves the hexes still reached through one cut off or opened (a hex next to a
    /// reached one, that was not reached itself, was closed).
    pub fn retrace(
        &self,
        before: &[u8],
        grid: &[u8],
        side: Side,
        pocket_closed: bool,
        t: &mut Trace,
    ) {
        let n = self.len();
        if before.len() != n || grid.len() != n || t.reached.len() != n || t.parent.len() != n {
            return self.trace_into(grid, side, pocket_closed, t);
        }
        let open = |i: usize| self.supply_open(grid[i], i, side, pocket_closed);
        // Hexes that may be reached now and were not: those that opened, then those cut
        // off.
        let mut again: Vec<u32> = Vec::new();
        let mut cut: Vec<u32> = Vec::new();
        for (i, was) in changes(before, grid) {
            let (was_open, now_open) = (self.supply_open(was, i, side, pocket_closed), open(i));
            if was_open && !now_open && t.reached[i] {
                t.unreach(i);
                cut.push(i as u32);
            } else if !was_open && now_open {
                again.push(i as u32);
            }
        }
        // A reached hex's parent is reached and next to it: the hexes cut off are those
        // reached whose parent was cut, and theirs in turn.
        while let Some(h) = cut.pop() {
            for &j in &self.neighbors[h as usize] {
                if j != NONE && t.reached[j as usize] && t.parent[j as usize] == h {
                    t.unreach(j as usize);
                    cut.push(j);
                    again.push(j);
                }
            }
        }
        t.order.clear();
        let head = 0;
        for &x in &again {
            let x = x as usize;
            if !t.reached[x]
                && open(x)
                && let Some(from) = self.reached_next_to(x, &t.reached)
            {
                t.reach(x, from);
            }
        }
        for &src in &self.sources[side.index()] {
            let i = src as usize;
            if !t.reached[i] && open(i) {
                t.reach(i, NONE);
            }
        }
        self.spread(open, supply_crosses, t, head);
    }

    /// A hex in `reached` from which a supply line may step into hex index `i` (across
    /// a hexside it crosses), if there is one.
    fn reached_next_to(&self, i: usize, reached: &[bool]) -> Option<u32> {
        self.neighbors[i].iter().copied().find(|&j| {
            j != NONE && reached[j as usize] && {
                let j = j as usize;
                self.neighbors[j]
                    .iter()
                    .zip(&self.edges[j])
                    .any(|(&n, &edge)| n != NONE && n as usize == i && supply_crosses(edge))
            }
        })
    }

    /// Rule 11.1.1: the railroad hexes where `side` may place reinforcements, as
    /// [`avl::rules::reinforcements::rail_net`] finds them: a continuous railroad route
    /// from one of its supply sources on a railroad, through no hex holding an enemy
    /// piece or in an enemy ZOC (friendly units do not negate it here), no closed Pocket
    /// hex (13.0). `grid` holds the occupancy and ZOC bits; `out` is overwritten.
    pub fn rail_net(&self, grid: &[u8], side: Side, pocket_closed: bool, out: &mut Vec<bool>) {
        let blocked = piece_bit(side.enemy()) | zoc_bit(side.enemy());
        // Routes run along railroad hexsides, so every hex reached is a railroad hex;
        // asking it of each hex makes a source off the railroad start nothing (H-114).
        let open = |i: usize| {
            self.rail[i]
                && self.land[i]
                && !(pocket_closed && self.pocket[i])
                && grid[i] & blocked == 0
        };
        self.flood_into(side, open, |edge| edge & RAILROAD != 0, out);
    }

    /// [`Topology::flood`] without parents, into `out`'s buffer; returns the number of
    /// hexes reached.
    fn flood_into(
        &self,
        side: Side,
        open: impl Fn(usize) -> bool,
        crosses: impl Fn(u8) -> bool,
        out: &mut Vec<bool>,
    ) -> usize {
        let mut t = Trace {
            reached: std::mem::take(out),
            ..Trace::default()
        };
        self.flood(side, open, crosses, &mut t, false);
        let count = t.count();
        *out = t.reached;
        count
    }

    /// The hexes reached from `side`'s supply sources that are `open`, stepping into
    /// open hexes across hexsides whose feature bits `crosses` allows, into `t` (with
    /// each hex's parent if `parents`).
    fn flood(
        &self,
        side: Side,
        open: impl Fn(usize) -> bool,
        crosses: impl Fn(u8) -> bool,
        t: &mut Trace,
        parents: bool,
    ) {
        t.reset(self.len(), parents);
        for &src in &self.sources[side.index()] {
            let i = src as usize;
            if !t.reached[i] && open(i) {
                t.reach(i, NONE);
            }
        }
        self.spread(open, crosses, t, 0);
    }

    /// Spreads `t` from its hexes in order from `head` on, breadth first, into the
    /// `open` hexes not reached, across hexsides `crosses` allows.
    fn spread(
        &self,
        open: impl Fn(usize) -> bool,
        crosses: impl Fn(u8) -> bool,
        t: &mut Trace,
        mut head: usize,
    ) {
        while let Some(&h) = t.order.get(head) {
            head += 1;
            let h = h as usize;
            for (k, &j) in self.neighbors[h].iter().enumerate() {
                if j == NONE || !crosses(self.edges[h][k]) {
                    continue;
                }
                let j = j as usize;
                if !t.reached[j] && open(j) {
                    t.reach(j, h as u32);
                }
            }
        }
    }
}

/// The hexes whose bits differ between two grids of one map, by index, with their bits
/// in `before`: a move changes a few hexes of thousands, so the grids are compared
/// eight hexes at a time.
fn changes<'a>(before: &'a [u8], grid: &'a [u8]) -> impl Iterator<Item = (usize, u8)> + 'a {
    const WORD: usize = 8;
    let differ = |a: &[u8], b: &[u8]| match (<[u8; WORD]>::try_from(a), <[u8; WORD]>::try_from(b)) {
        (Ok(a), Ok(b)) => u64::from_ne_bytes(a) != u64::from_ne_bytes(b),
        _ => a != b,
    };
    (before.chunks(WORD).zip(grid.chunks(WORD)).enumerate())
        .filter(move |(_, (a, b))| differ(a, b))
        .flat_map(|(w, (a, b))| {
            (a.iter().zip(b.iter()).enumerate())
                .filter(|(_, (x, y))| x != y)
                .map(move |(k, (&x, _))| (w * WORD + k, x))
        })
}

thread_local! {
    /// The topologies of the last few games this thread evaluated, by their rules. A
    /// `Weak` keeps the rules' allocation, so its address cannot be reused by other
    /// rules while the entry lives.
    static CACHE: RefCell<Vec<(Weak<Rules>, Rc<Topology>)>> = const { RefCell::new(Vec::new()) };
}

/// Games remembered per thread.
const CACHE_SIZE: usize = 4;

/// The topology of `s`'s map, from this thread's cache or built now.
pub fn of(s: &Avl) -> Rc<Topology> {
    let rules: &Arc<Rules> = s.shared_rules();
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some(k) = cache
            .iter()
            .position(|(w, _)| std::ptr::eq(w.as_ptr(), Arc::as_ptr(rules)))
        {
            let entry = cache.remove(k);
            let topo = Rc::clone(&entry.1);
            cache.insert(0, entry);
            return topo;
        }
        let topo = Rc::new(Topology::new(rules));
        cache.insert(0, (Arc::downgrade(rules), Rc::clone(&topo)));
        cache.truncate(CACHE_SIZE);
        topo
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 32-bit distance is the map's: pairs of a sample of the hexes within 40 steps of the
    /// origin, and pairs far apart, agree with [`Hex::distance`].
    #[test]
    fn distance_agrees_with_the_hex_distance() {
        let hexes: Vec<Hex> = Hex::ORIGIN.range(40).into_iter().step_by(7).collect();
        let mut pairs = 0;
        for &a in &hexes {
            for &b in &hexes {
                assert_eq!(distance(a, b), a.distance(b), "{a:?} {b:?}");
                pairs += 1;
            }
        }
        let far = [Hex::new(1 << 20, -(1 << 19)), Hex::new(-(1 << 20), 3)];
        for a in far {
            for b in far.iter().chain(&hexes) {
                assert_eq!(distance(a, *b), a.distance(*b), "{a:?} {b:?}");
            }
        }
        assert!(pairs > 10_000, "{pairs} pairs");
    }
}
