//! Sets of hexes as bit planes, one per seat (issue 28): a hex is a bit of its row's
//! word, so a set grows by a ring around every hex in it (a dilation) with a few shifts
//! a row, not seven writes a hex. Dark sight is kept on them ([`crate::rules::fog`]):
//! each seat's units and towns see one ring, its cities and capital two.
//!
//! A plane is the square of axial coordinates `q, r` in `-reach..=reach`, with `reach`
//! the board's radius plus [`PAD`]: row `r + reach`, bit `q + reach`. The hex at `q, r`
//! has its neighbours at `q ± 1` in its own row, `q, q + 1` in the row above (`r - 1`)
//! and `q - 1, q` in the row below (`r + 1`).

use hexmap::{Board, Grid, Hex, HexagonBoard};

/// The rings kept around the board: a hex two rings off the board is still in a plane,
/// so two dilations give exactly [`Hex::range`]`(2)` of a hex on the board.
const PAD: i32 = 2;

/// The most rows (and bits a row) a plane has: a board of radius up to 29.
pub(crate) const MAX_WIDTH: usize = 64;

/// One set of hexes per seat, for one board: the planes side by side in one buffer, so
/// that copying or comparing them all is one pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Planes {
    /// The board's radius plus [`PAD`].
    reach: i32,
    /// Rows a plane (`2 * reach + 1`), as many as bits a row.
    width: usize,
    /// Plane `i` is `rows[i * width..][..width]`; its row `r + reach` holds bit
    /// `q + reach` for the hex at `q, r`.
    rows: Vec<u64>,
}

impl Planes {
    /// `seats` empty planes for `board`.
    ///
    /// # Panics
    /// If the board is too big for a row to fit a word (a radius over 29).
    pub(crate) fn new(board: HexagonBoard, seats: usize) -> Planes {
        let reach = i32::try_from(board.radius()).expect("a VIKTORY board is small") + PAD;
        let width = usize::try_from(2 * reach + 1).expect("positive");
        assert!(
            width <= MAX_WIDTH,
            "a row of {width} hexes does not fit a word"
        );
        Planes {
            reach,
            width,
            rows: vec![0; width * seats],
        }
    }

    /// Whether these are `seats` planes for `board`.
    pub(crate) fn fits(&self, board: HexagonBoard, seats: usize) -> bool {
        i64::from(self.reach) == i64::from(board.radius()) + i64::from(PAD)
            && self.rows.len() == self.width * seats
    }

    /// Rows a plane.
    pub(crate) fn width(&self) -> usize {
        self.width
    }

    /// Plane `i`'s rows, to read.
    pub(crate) fn rows_of(&self, i: usize) -> &[u64] {
        &self.rows[i * self.width..][..self.width]
    }

    /// Seat `i`'s plane, to change.
    pub(crate) fn plane_mut(&mut self, i: usize) -> Plane<'_> {
        let width = self.width;
        Plane {
            reach: self.reach,
            rows: &mut self.rows[i * width..][..width],
        }
    }

    /// The row of each plane holding `hex`'s row (its axial `hex.r`), and `hex`'s bit in
    /// it: for building a plane a word at a time. The hex must be on the board (or
    /// within [`PAD`] of it).
    pub(crate) fn place(&self, hex: Hex) -> (usize, u64) {
        let row = usize::try_from(hex.r + self.reach).expect("on the plane");
        let q = u32::try_from(hex.q + self.reach).expect("on the plane");
        debug_assert!(row < self.width && (q as usize) < self.width);
        (row, 1 << q)
    }

    /// Adds to plane `i` the hexes of row `row` (as [`Planes::place`] gives it) whose
    /// bits are set in `word`.
    pub(crate) fn add_to_row(&mut self, i: usize, row: usize, word: u64) {
        self.rows[i * self.width + row] |= word;
    }

    /// Fills every plane: each holds every hex.
    pub(crate) fn fill(&mut self) {
        let full = row_mask(self.width);
        self.rows.fill(full);
    }

    /// The grid of `board` with, per hex, bit `i` set when the hex is in plane `i`, cut
    /// (independent exploration) by `explored`: a hex on the board's perimeter (known
    /// water) is kept, any other only where `explored` has the bit too.
    pub(crate) fn to_grid(&self, board: HexagonBoard, explored: Option<&Grid<u8>>) -> Grid<u8> {
        debug_assert!(i64::from(self.reach) == i64::from(board.radius()) + i64::from(PAD));
        let radius = self.reach - PAD;
        let mut cells = vec![0u8; board.len()];
        let explored = explored.map(Grid::as_slice);
        // The board's rows from the top (`r = -radius`), each a run of its cells.
        let mut first = 0;
        for r in -radius..=radius {
            let (west, east) = ((-radius).max(-radius - r), radius.min(radius - r));
            let len = usize::try_from(east - west + 1).expect("a row has hexes");
            let shift = u32::try_from(west + self.reach).expect("on the plane");
            let row = usize::try_from(r + self.reach).expect("on the plane");
            let run = &mut cells[first..first + len];
            for (i, plane) in self.rows.chunks_exact(self.width).enumerate() {
                let m = 1u8 << i;
                let mut bits = (plane[row] >> shift) & row_mask(len);
                while bits != 0 {
                    run[bits.trailing_zeros() as usize] |= m;
                    bits &= bits - 1;
                }
            }
            // The perimeter: the top and bottom rows, and each row's two ends.
            if let Some(explored) = explored
                && r.abs() < radius
                && len > 2
            {
                let inner = &mut run[1..len - 1];
                for (b, e) in inner.iter_mut().zip(&explored[first + 1..]) {
                    *b &= e;
                }
            }
            first += len;
        }
        Grid::from_vec(cells)
    }
}

/// One seat's plane (or room to work in, on [`Plane::scratch`]), borrowed to change.
pub(crate) struct Plane<'a> {
    /// As [`Planes::reach`].
    reach: i32,
    /// Its rows.
    rows: &'a mut [u64],
}

impl<'a> Plane<'a> {
    /// An empty plane like `like`'s on `buffer` (at least [`MAX_WIDTH`] words): room to
    /// work in, with no allocation.
    pub(crate) fn scratch(like: &Planes, buffer: &'a mut [u64; MAX_WIDTH]) -> Plane<'a> {
        let rows = &mut buffer[..like.width()];
        rows.fill(0);
        Plane {
            reach: like.reach,
            rows,
        }
    }

    /// Empties the set.
    pub(crate) fn clear(&mut self) {
        self.rows.fill(0);
    }

    /// Adds `hex`; a hex off the plane is not added.
    #[inline]
    pub(crate) fn insert(&mut self, hex: Hex) {
        let (Some(q), Some(r)) = (hex.q.checked_add(self.reach), hex.r.checked_add(self.reach))
        else {
            return;
        };
        let width = self.rows.len();
        if let (Ok(q), Ok(r)) = (usize::try_from(q), usize::try_from(r))
            && q < width
            && r < width
        {
            self.rows[r] |= 1 << q;
        }
    }

    /// Whether the set holds `hex`.
    pub(crate) fn holds(&self, hex: Hex) -> bool {
        holds(self.rows, self.reach, hex)
    }

    /// Its rows, to read.
    pub(crate) fn rows(&self) -> &[u64] {
        self.rows
    }

    /// Its rows, to change one by one.
    pub(crate) fn rows_mut(&mut self) -> &mut [u64] {
        self.rows
    }

    /// Adds every hex next to a hex of the set (one ring around each).
    pub(crate) fn dilate(&mut self) {
        let mask = row_mask(self.rows.len());
        // Row by row from the top, keeping the row above as it was before this pass.
        // Bit q here is set by bits q ± 1 of this row, q and q + 1 of the row above
        // (whose hex q has neighbours q - 1 and q here), and q - 1 and q of the row below
        // (whose hex q has neighbours q and q + 1 here).
        let mut above = 0;
        for i in 0..self.rows.len() {
            let row = self.rows[i];
            let below = self.rows.get(i + 1).copied().unwrap_or(0);
            self.rows[i] =
                (row | row << 1 | row >> 1 | above | above >> 1 | below | below << 1) & mask;
            above = row;
        }
    }

    /// Adds every hex of `other` (a plane of the same board).
    pub(crate) fn union(&mut self, other: &Plane<'_>) {
        debug_assert_eq!(self.reach, other.reach);
        self.union_rows(other.rows);
    }

    /// Adds every hex of the plane whose rows are `rows` (of the same board:
    /// [`Planes::rows_of`]).
    pub(crate) fn union_rows(&mut self, rows: &[u64]) {
        debug_assert_eq!(self.rows.len(), rows.len());
        for (a, b) in self.rows.iter_mut().zip(rows) {
            *a |= b;
        }
    }
}

/// Whether the plane of `rows` (`reach` as [`Planes::reach`]) holds `hex`.
fn holds(rows: &[u64], reach: i32, hex: Hex) -> bool {
    let (Some(q), Some(r)) = (hex.q.checked_add(reach), hex.r.checked_add(reach)) else {
        return false;
    };
    match (usize::try_from(q), usize::try_from(r)) {
        (Ok(q), Ok(r)) if q < rows.len() => rows.get(r).is_some_and(|row| row >> q & 1 != 0),
        _ => false,
    }
}

/// The low `width` bits set.
fn row_mask(width: usize) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dilating once and twice gives exactly the hexes one and two rings around, from
    /// every hex of boards of every size, and the grid shows the board's hexes in the
    /// plane, in the board's order.
    #[test]
    fn dilations_are_the_rings_around() {
        for side in 1..=9 {
            let board = HexagonBoard::new(side);
            for centre in Hex::ORIGIN.range(board.radius()) {
                let mut planes = Planes::new(board, 2);
                planes.plane_mut(1).insert(centre);
                for rings in 0..=2u32 {
                    let mut plain = Grid::from_board(&board, 0u8);
                    for h in centre.range(rings) {
                        if let Some(b) = plain.get_hex_mut(&board, h) {
                            *b = 0b10;
                        }
                    }
                    assert_eq!(
                        planes.to_grid(board, None),
                        plain,
                        "side {side}, {centre}, {rings} rings"
                    );
                    planes.plane_mut(1).dilate();
                }
            }
        }
    }

    /// The grid has each seat's bit where its plane holds the hex, cut by what the seat
    /// explored except on the perimeter (known water).
    #[test]
    fn the_grid_is_each_seat_s_plane_cut_by_its_exploration() {
        for side in 1..=7 {
            let board = HexagonBoard::new(side);
            let hexes: Vec<Hex> = Hex::ORIGIN.range(board.radius());
            // Seat 0 sees every third hex, seat 1 every hex; each explored every other.
            let mut planes = Planes::new(board, 2);
            planes.fill();
            planes.plane_mut(0).clear();
            for (n, &h) in hexes.iter().enumerate() {
                if n % 3 == 0 {
                    planes.plane_mut(0).insert(h);
                }
            }
            let mut explored = Grid::from_board(&board, 0u8);
            for (n, &h) in hexes.iter().enumerate() {
                if n % 2 == 0 {
                    *explored.get_hex_mut(&board, h).expect("on the board") = 0b11;
                }
            }
            let grid = planes.to_grid(board, Some(&explored));
            for (n, &h) in hexes.iter().enumerate() {
                let i = board.index(h).expect("on the board");
                let kept = |b: u8| {
                    if board.is_perimeter(h) || explored.as_slice()[i] != 0 {
                        b
                    } else {
                        0
                    }
                };
                let want = kept(u8::from(n % 3 == 0)) | kept(0b10);
                assert_eq!(grid.get_hex(&board, h), Some(&want), "side {side}, {h}");
            }
        }
    }

    /// A scratch plane unions into a seat's like one of its own.
    #[test]
    fn a_scratch_plane_unions_in() {
        let board = HexagonBoard::new(4);
        let mut planes = Planes::new(board, 1);
        let mut buffer = [u64::MAX; MAX_WIDTH];
        let mut far = Plane::scratch(&planes, &mut buffer);
        far.insert(Hex::new(1, -2));
        far.dilate();
        planes.plane_mut(0).union(&far);
        let grid = planes.to_grid(board, None);
        for h in Hex::ORIGIN.range(board.radius()) {
            let want = u8::from(h.distance(Hex::new(1, -2)) <= 1);
            assert_eq!(grid.get_hex(&board, h), Some(&want), "{h}");
        }
    }
}
