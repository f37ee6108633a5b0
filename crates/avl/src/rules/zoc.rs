//! Rule 6.0: zones of control.

use std::sync::Arc;

use hexmap::{Board, Grid, Hex};

use crate::map::ways_out;
use crate::state::{Avl, Rules};
use crate::unit::Side;

/// Rule 6.0.1: the hexes in the Zone of Control of `side`'s combat units: the six hexes
/// around each, but not water hexes and not across impassable hexsides (across major
/// rivers, yes). HQs exert none; overlapping ZOCs are one (6.0.3).
///
/// Two equal zones compare equal whichever way they were found ([`ZoneOfControl::of`]
/// or [`ZoneOfControl::around`]).
#[derive(Clone, Debug)]
pub struct ZoneOfControl {
    zone: Zone,
}

/// How a [`ZoneOfControl`] knows its hexes.
#[derive(Clone, Debug)]
enum Zone {
    /// Every hex of the map, marked: for many questions about one position.
    Marked {
        grid: Grid<bool>,
        board: hexmap::OffsetBoard,
    },
    /// The hexes of the units that exert it, sorted, each hex judged when asked: for a
    /// few questions (one action's check or effect).
    Around { rules: Arc<Rules>, units: Vec<Hex> },
}

impl ZoneOfControl {
    /// The ZOC exerted by `side`'s combat units on the map, every hex marked at once.
    pub fn of(s: &Avl, side: Side) -> ZoneOfControl {
        let map = s.map();
        let mut grid = Grid::from_board(&map.board, false);
        for p in s.pieces_on_map() {
            if s.is_hq(p) || s.side(p) != side {
                continue;
            }
            let Some(i) = s.hex_of(p).and_then(|h| map.index(h)) else {
                continue;
            };
            for n in ways_out(&map.links, i, map.links.zoc[i]) {
                grid[n] = true;
            }
        }
        ZoneOfControl {
            zone: Zone::Marked {
                grid,
                board: map.board,
            },
        }
    }

    /// [`ZoneOfControl::of`], finding only the units that exert it: each hex asked
    /// about is judged then, from the units around it. Cheaper for a few questions.
    pub fn around(s: &Avl, side: Side) -> ZoneOfControl {
        // In hex order already.
        let mut units: Vec<Hex> = s
            .pieces_on_map()
            .filter(|&p| !s.is_hq(p) && s.side(p) == side)
            .filter_map(|p| s.hex_of(p))
            .collect();
        units.dedup();
        ZoneOfControl {
            zone: Zone::Around {
                rules: Arc::clone(s.shared_rules()),
                units,
            },
        }
    }

    /// Whether the hex with dense index `i` (of the map's board) is in this zone.
    pub fn contains_index(&self, i: usize) -> bool {
        match &self.zone {
            Zone::Marked { grid, .. } => grid.get(i).copied().unwrap_or(false),
            Zone::Around { rules, .. } => rules
                .data
                .map
                .board
                .hex_at(i)
                .is_some_and(|h| self.contains(h)),
        }
    }

    /// Whether `hex` is in this zone.
    pub fn contains(&self, hex: Hex) -> bool {
        match &self.zone {
            Zone::Marked { grid, board } => grid.get_hex(board, hex).copied().unwrap_or(false),
            Zone::Around { rules, units } => {
                // What `of` marks from a unit's hex `u`: its land neighbours, not
                // across impassable hexsides.
                let map = &rules.data.map;
                map.is_land(hex)
                    && hex
                        .neighbors()
                        .into_iter()
                        .any(|u| units.binary_search(&u).is_ok() && !map.side(u, hex).impassable)
            }
        }
    }

    /// The number of hexes of the map.
    fn len(&self) -> usize {
        match &self.zone {
            Zone::Marked { grid, .. } => grid.len(),
            Zone::Around { rules, .. } => rules.data.map.info.len(),
        }
    }
}

impl PartialEq for ZoneOfControl {
    fn eq(&self, other: &ZoneOfControl) -> bool {
        self.len() == other.len()
            && (0..self.len()).all(|i| self.contains_index(i) == other.contains_index(i))
    }
}

impl Eq for ZoneOfControl {}

#[cfg(test)]
pub(crate) mod reference {
    //! The zones of control as first written (hex by hex), to compare with.

    use hexmap::Grid;

    use super::ZoneOfControl;
    use crate::state::Avl;
    use crate::unit::Side;

    /// [`ZoneOfControl::of`] walking hexes and hexsides by `Hex`.
    pub(crate) fn of(s: &Avl, side: Side) -> ZoneOfControl {
        let map = s.map();
        let mut grid = Grid::from_board(&map.board, false);
        for p in s.piece_ids() {
            if s.is_hq(p) || s.side(p) != side {
                continue;
            }
            let Some(h) = s.hex_of(p) else { continue };
            for (_, n) in map.neighbors(h) {
                if map.is_land(n)
                    && !map.side(h, n).impassable
                    && let Some(c) = grid.get_hex_mut(&map.board, n)
                {
                    *c = true;
                }
            }
        }
        ZoneOfControl {
            zone: super::Zone::Marked {
                grid,
                board: map.board,
            },
        }
    }
}
