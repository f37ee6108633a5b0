//! Rule 6.0: zones of control.

use hexmap::{Grid, Hex};

use crate::state::Avl;
use crate::unit::Side;

/// Rule 6.0.1: the hexes in the Zone of Control of `side`'s combat units: the six hexes
/// around each, but not water hexes and not across impassable hexsides (across major
/// rivers, yes). HQs exert none; overlapping ZOCs are one (6.0.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZoneOfControl {
    grid: Grid<bool>,
    board: hexmap::OffsetBoard,
}

impl ZoneOfControl {
    /// The ZOC exerted by `side`'s combat units on the map.
    pub fn of(s: &Avl, side: Side) -> ZoneOfControl {
        let map = s.map();
        let mut grid = Grid::from_board(&map.board, false);
        for p in s.piece_ids() {
            if s.is_hq(p) || s.side(p) != side {
                continue;
            }
            let Some(i) = s.hex_of(p).and_then(|h| map.index(h)) else {
                continue;
            };
            for (d, n) in map.linked(i) {
                if !map.info[n].water && !map.sides[i][d].impassable {
                    grid[n] = true;
                }
            }
        }
        ZoneOfControl {
            grid,
            board: map.board,
        }
    }

    /// Whether the hex with dense index `i` (of the map's board) is in this zone.
    pub fn contains_index(&self, i: usize) -> bool {
        self.grid.get(i).copied().unwrap_or(false)
    }

    /// Whether `hex` is in this zone.
    pub fn contains(&self, hex: Hex) -> bool {
        self.grid
            .get_hex(&self.board, hex)
            .copied()
            .unwrap_or(false)
    }
}

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
            grid,
            board: map.board,
        }
    }
}
