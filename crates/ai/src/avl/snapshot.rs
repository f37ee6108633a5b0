//! What the evaluation reads from a position, gathered once per evaluation: the pieces
//! on the map by hex, occupancy and zones of control (6.0), and both sides' supply
//! traces (10.1.2).

use std::cell::RefCell;
use std::rc::Rc;

use avl::rules::pocket;
use avl::{Avl, Location, PieceId, Side};
use hexmap::Board;

use super::topology::{self, NONE, Topology, Trace, piece_bit};

/// A piece on the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OnMap {
    /// Dense hex index.
    pub at: u32,
    /// The piece.
    pub id: PieceId,
    /// Its side.
    pub side: Side,
    /// A HQ (no ZOC, no combat).
    pub hq: bool,
}

/// The position as the evaluation reads it.
pub struct Snapshot {
    /// The map's tables.
    pub topo: Rc<Topology>,
    /// The pieces on the map, by hex index then id.
    pub pieces: Vec<OnMap>,
    /// Per piece id: its hex index, or [`NONE`] off the map.
    pub hex_of: Vec<u32>,
    /// Per hex: occupancy and ZOC bits ([`topology::AXIS_PIECE`] …).
    pub grid: Vec<u8>,
    /// Per side, per hex: a supply line can be traced from it now (10.1.2).
    pub traced: [Vec<bool>; 2],
    /// Per side: hexes traced.
    pub traced_count: [usize; 2],
    /// Rule 13.0: the Stalingrad Pocket is still closed.
    pub pocket_closed: bool,
}

impl Snapshot {
    /// Reads `s`.
    pub fn of(s: &Avl) -> Snapshot {
        let topo = topology::of(s);
        let board = &s.map().board;
        let mut pieces: Vec<OnMap> = s
            .piece_ids()
            .filter_map(|p| match s.location(p) {
                Location::Map(h) => board.index(h).map(|i| OnMap {
                    at: i as u32,
                    id: p,
                    side: s.side(p),
                    hq: s.is_hq(p),
                }),
                _ => None,
            })
            .collect();
        pieces.sort_by_key(|p| (p.at, p.id));
        let mut hex_of = vec![NONE; s.piece_count()];
        for p in &pieces {
            hex_of[usize::from(p.id.0)] = p.at;
        }
        let mut grid = vec![0u8; topo.len()];
        for p in &pieces {
            let i = p.at as usize;
            grid[i] |= piece_bit(p.side);
            if !p.hq {
                topo.mark_zoc(&mut grid, i, p.side);
            }
        }
        // Rule 13.0: the Pocket is closed or open as a whole; ask the rules crate.
        let closed = topo
            .pocket
            .iter()
            .position(|&p| p)
            .is_some_and(|i| pocket::closed(s, topo.hexes[i]));
        let (traced, traced_count) = traces(&topo, &grid, closed);
        Snapshot {
            topo,
            pieces,
            hex_of,
            grid,
            traced,
            traced_count,
            pocket_closed: closed,
        }
    }

    /// The pieces on hex index `at`.
    pub fn at(&self, at: u32) -> &[OnMap] {
        let lo = self.pieces.partition_point(|p| p.at < at);
        let hi = self.pieces[lo..].partition_point(|p| p.at == at) + lo;
        &self.pieces[lo..hi]
    }

    /// The combat units on hex index `at`.
    pub fn units_at(&self, at: u32) -> impl Iterator<Item = &OnMap> + '_ {
        self.at(at).iter().filter(|p| !p.hq)
    }

    /// Whether hex index `at` can trace a supply line of `side` now.
    pub fn supplied(&self, side: Side, at: u32) -> bool {
        self.traced[side.index()]
            .get(at as usize)
            .copied()
            .unwrap_or(false)
    }
}

/// Both sides' supply traces of a grid, as [`Snapshot::of`] keeps them.
struct Traces {
    topo: Rc<Topology>,
    pocket_closed: bool,
    grid: Vec<u8>,
    kept: [Trace; 2],
}

thread_local! {
    /// The last snapshot's traces on this thread. The bots score positions that differ
    /// by a move one after another (greedy's whole moves, a search's siblings), and a
    /// move opens and closes only a few hexes to supply lines: the last traces are
    /// updated where those hexes lead ([`Topology::retrace`]), not traced again.
    static LAST: RefCell<Option<Traces>> = const { RefCell::new(None) };
}

/// Both sides' supply traces over `grid` (10.1.2): the last snapshot's, updated
/// ([`Topology::retrace`]), or traced now on another map or when the Pocket opened.
fn traces(topo: &Rc<Topology>, grid: &[u8], closed: bool) -> ([Vec<bool>; 2], [usize; 2]) {
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        let kept = match last.as_mut() {
            Some(p) if Rc::ptr_eq(&p.topo, topo) && p.pocket_closed == closed => {
                for side in Side::BOTH {
                    let k = side.index();
                    topo.retrace(&p.grid, grid, side, closed, &mut p.kept[k]);
                }
                p
            }
            _ => {
                let mut kept: [Trace; 2] = Default::default();
                for side in Side::BOTH {
                    topo.trace_into(grid, side, closed, &mut kept[side.index()]);
                }
                last.insert(Traces {
                    topo: Rc::clone(topo),
                    pocket_closed: closed,
                    grid: Vec::new(),
                    kept,
                })
            }
        };
        kept.grid.clear();
        kept.grid.extend_from_slice(grid);
        (
            [
                kept.kept[0].reached().to_vec(),
                kept.kept[1].reached().to_vec(),
            ],
            [kept.kept[0].count(), kept.kept[1].count()],
        )
    })
}
