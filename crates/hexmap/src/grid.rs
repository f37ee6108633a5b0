//! Dense per-hex storage addressed by a board's index.

use std::ops::{Index, IndexMut};

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::coord::Hex;

/// One value per hex of a board, stored densely by the board's index
/// ([`Board::index`]).
///
/// It is a plain `Vec<T>` wrapper and does not remember its board: lookups by [`Hex`]
/// take the board ([`get_hex`](Grid::get_hex)), or go through [`Board::index`] by hand.
/// Serialised as a plain array.
///
/// ```
/// use hexmap::{Board, Grid, Hex, HexagonBoard};
///
/// let board = HexagonBoard::new(2);
/// let mut height = Grid::from_board(&board, 0u8);
/// let i = board.index(Hex::new(1, 0)).unwrap();
/// height[i] = 3;
/// assert_eq!(height.get_hex(&board, Hex::new(1, 0)), Some(&3));
/// assert_eq!(height.get_hex(&board, Hex::new(5, 0)), None);
/// assert_eq!(height.iter().map(|&h| u32::from(h)).sum::<u32>(), 3);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Grid<T> {
    cells: Vec<T>,
}

impl<T> Grid<T> {
    /// `len` copies of `fill`.
    pub fn new(len: usize, fill: T) -> Grid<T>
    where
        T: Clone,
    {
        Grid {
            cells: vec![fill; len],
        }
    }

    /// One copy of `fill` per hex of `board`.
    pub fn from_board<B: Board + ?Sized>(board: &B, fill: T) -> Grid<T>
    where
        T: Clone,
    {
        Grid::new(board.len(), fill)
    }

    /// `f(hex)` for each hex of `board`, in index order.
    pub fn from_board_fn<B: Board + ?Sized>(board: &B, f: impl FnMut(Hex) -> T) -> Grid<T> {
        Grid {
            cells: (0..board.len())
                .filter_map(|i| board.hex_at(i))
                .map(f)
                .collect(),
        }
    }

    /// Wraps `cells` (one per index).
    pub fn from_vec(cells: Vec<T>) -> Grid<T> {
        Grid { cells }
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether there are no cells.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The cell at `index`, if in range.
    #[inline]
    pub fn get(&self, index: usize) -> Option<&T> {
        self.cells.get(index)
    }

    /// The cell at `index` mutably, if in range.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        self.cells.get_mut(index)
    }

    /// The cell of `hex` on `board`; `None` when `hex` is off the board (or the grid is
    /// shorter than the board).
    #[inline]
    pub fn get_hex<B: Board + ?Sized>(&self, board: &B, hex: Hex) -> Option<&T> {
        self.cells.get(board.index(hex)?)
    }

    /// The cell of `hex` on `board` mutably; `None` when `hex` is off the board.
    pub fn get_hex_mut<B: Board + ?Sized>(&mut self, board: &B, hex: Hex) -> Option<&mut T> {
        self.cells.get_mut(board.index(hex)?)
    }

    /// The cells in index order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.cells.iter()
    }

    /// The cells in index order, mutably.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.cells.iter_mut()
    }

    /// `(hex, cell)` pairs in index order, pairing cell `i` with `board.hex_at(i)`.
    pub fn iter_hexes<'a, B: Board + ?Sized>(
        &'a self,
        board: &'a B,
    ) -> impl Iterator<Item = (Hex, &'a T)> + 'a {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, cell)| Some((board.hex_at(i)?, cell)))
    }

    /// The cells as a slice.
    pub fn as_slice(&self) -> &[T] {
        &self.cells
    }

    /// The cells as a mutable slice.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.cells
    }

    /// The cells as a `Vec`.
    pub fn into_vec(self) -> Vec<T> {
        self.cells
    }

    /// A grid of `f(cell)` for each cell.
    pub fn map<U>(&self, f: impl FnMut(&T) -> U) -> Grid<U> {
        Grid {
            cells: self.cells.iter().map(f).collect(),
        }
    }
}

impl<T> Index<usize> for Grid<T> {
    type Output = T;

    /// # Panics
    ///
    /// If `index >= len()`.
    fn index(&self, index: usize) -> &T {
        &self.cells[index]
    }
}

impl<T> IndexMut<usize> for Grid<T> {
    fn index_mut(&mut self, index: usize) -> &mut T {
        &mut self.cells[index]
    }
}

impl<T> From<Vec<T>> for Grid<T> {
    fn from(cells: Vec<T>) -> Grid<T> {
        Grid { cells }
    }
}

impl<T> FromIterator<T> for Grid<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Grid<T> {
        Grid {
            cells: iter.into_iter().collect(),
        }
    }
}

impl<T> IntoIterator for Grid<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.cells.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a Grid<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.cells.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut Grid<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.cells.iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{HexagonBoard, OffsetBoard, OffsetLayout};

    #[test]
    fn construction_and_access() {
        let mut g = Grid::new(3, 'a');
        assert_eq!(g.len(), 3);
        assert!(!g.is_empty());
        g[1] = 'b';
        *g.get_mut(2).unwrap() = 'c';
        assert_eq!(g.get(1), Some(&'b'));
        assert_eq!(g.get(3), None);
        assert_eq!(g.as_slice(), ['a', 'b', 'c']);
        assert_eq!(g.iter().collect::<String>(), "abc");
        for c in &mut g {
            *c = c.to_ascii_uppercase();
        }
        assert_eq!((&g).into_iter().collect::<String>(), "ABC");
        assert_eq!(g.map(|c| *c as u32)[0], 65);
        g.iter_mut().for_each(|c| *c = 'z');
        g.as_mut_slice()[0] = 'y';
        assert_eq!(g.clone().into_vec(), ['y', 'z', 'z']);
        assert_eq!(g.into_iter().count(), 3);
        assert!(Grid::<u8>::default().is_empty());
        assert_eq!(Grid::from(vec![1, 2]), Grid::from_vec(vec![1, 2]));
        assert_eq!((0..4).collect::<Grid<i32>>().len(), 4);
    }

    #[test]
    #[should_panic(expected = "index out of bounds")]
    fn index_out_of_range_panics() {
        let g = Grid::new(2, 0);
        let _ = g[2];
    }

    #[test]
    fn by_hex() {
        let board = OffsetBoard::new(3, 2, OffsetLayout::OddQ);
        let mut g = Grid::from_board_fn(&board, |h| h.q * 10 + h.r);
        assert_eq!(g.len(), 6);
        assert_eq!(g.get_hex(&board, Hex::new(2, -1)), Some(&19));
        *g.get_hex_mut(&board, Hex::new(2, -1)).unwrap() = 0;
        assert_eq!(g[2], 0);
        assert_eq!(g.get_hex_mut(&board, Hex::new(9, 9)), None);
        let pairs: Vec<(Hex, i32)> = g.iter_hexes(&board).map(|(h, &v)| (h, v)).collect();
        assert_eq!(pairs[0], (Hex::new(0, 0), 0));
        assert_eq!(pairs[1], (Hex::new(1, 0), 10));
        assert_eq!(pairs[3], (Hex::new(0, 1), 1));
        let hexagon = HexagonBoard::new(4);
        assert_eq!(Grid::from_board(&hexagon, ()).len(), 37);
    }

    #[test]
    fn serde_as_plain_array() {
        let g = Grid::from_vec(vec![1u8, 2, 3]);
        let json = serde_json::to_string(&g).unwrap();
        assert_eq!(json, "[1,2,3]");
        assert_eq!(serde_json::from_str::<Grid<u8>>(&json).unwrap(), g);
    }
}
