//! Marks on the hexes of a board, kept on a square of axial coordinates padded around
//! it (issue 28): a hex's neighbours and the rings beyond are fixed steps of the
//! square's index, so marking around a hex costs no board lookup, and each row of the
//! board is a run of the square. The town sites of 7.21 mark crowded and near hexes on
//! it ([`crate::legal`]); Dark sight, a bit per seat, is kept on bit planes instead
//! ([`crate::planes`]), which grow by a ring with a few shifts a row.

use hexmap::{Hex, HexagonBoard};

/// The rings [`Marks`] can mark around a hex at most.
const MAX_PAD: u32 = 3;

/// The axial offsets of the hexes one, two and three away, ring after ring: worked out
/// once, by the compiler, not on every [`Marks::new`] (issue 28).
const RINGS: [[i32; 2]; 36] = rings();

/// [`RINGS`]: each offset within three of the origin, by its distance from it.
const fn rings() -> [[i32; 2]; 36] {
    let mut out = [[0; 2]; 36];
    let mut filled = 0;
    let mut ring = 1;
    while ring <= 3 {
        let mut q: i32 = -3;
        while q <= 3 {
            let mut r: i32 = -3;
            while r <= 3 {
                let (dq, dr, ds) = (q.abs(), r.abs(), (q + r).abs());
                let far = if dq > dr { dq } else { dr };
                if (if far > ds { far } else { ds }) == ring {
                    out[filled] = [q, r];
                    filled += 1;
                }
                r += 1;
            }
            q += 1;
        }
        ring += 1;
    }
    assert!(filled == 36, "3 rings of 6, 12 and 18 hexes");
    out
}

/// Bits per hex of a board, on a square padded by `pad` hexes around it, row by row.
/// Marks off the board fall into the padding and are dropped by [`Marks::to_grid`].
#[derive(Clone)]
pub(crate) struct Marks {
    radius: i32,
    pad: u32,
    /// The board's radius and the padding: the square's half-width.
    reach: i32,
    width: i32,
    /// Per slot, the bits marked there.
    pub(crate) bits: Vec<u8>,
    /// Index steps to the hexes one, two and three away, ring after ring (as far as the
    /// padding goes).
    steps: [isize; 36],
}

impl Marks {
    /// No marks, for `board`, able to mark up to `pad` rings (at most 3) around a hex.
    pub(crate) fn new(board: HexagonBoard, pad: u32) -> Marks {
        let pad = pad.min(MAX_PAD);
        let radius = radius_of(board);
        let reach = radius + i32::try_from(pad).expect("at most 3");
        let width = 2 * reach + 1;
        let mut steps = [0isize; 36];
        // The rings beyond the padding stay 0 (`around` never reads them).
        let count = usize::try_from(3 * pad * (pad + 1)).expect("at most 36");
        for (step, [q, r]) in steps.iter_mut().zip(RINGS).take(count) {
            *step = (r * width + q) as isize;
        }
        Marks {
            radius,
            pad,
            reach,
            width,
            bits: vec![0; usize::try_from(width * width).expect("positive")],
            steps,
        }
    }

    /// The slot of `hex` when it lies within the padded square.
    #[inline]
    fn slot(&self, hex: Hex) -> Option<usize> {
        let (q, r) = (
            hex.q.checked_add(self.reach)?,
            hex.r.checked_add(self.reach)?,
        );
        let side = 0..self.width;
        (side.contains(&q) && side.contains(&r))
            .then(|| usize::try_from(r * self.width + q).expect("in the square"))
    }

    /// Marks `hex` (nothing when it lies off the padded square).
    #[inline]
    pub(crate) fn mark(&mut self, hex: Hex, m: u8) {
        if let Some(i) = self.slot(hex) {
            self.bits[i] |= m;
        }
    }

    /// Marks `hex` and the hexes up to `rings` away; `rings` is at most the padding
    /// (beyond it, the steps left at 0 mark the centre again).
    #[inline]
    pub(crate) fn around(&mut self, hex: Hex, rings: u32, m: u8) {
        debug_assert!(rings <= self.pad);
        let rings = rings.min(MAX_PAD);
        let on_board = hex.q.abs() <= self.radius
            && hex.r.abs() <= self.radius
            && (hex.q + hex.r).abs() <= self.radius;
        let Some(centre) = self.slot(hex).filter(|_| on_board) else {
            // Not from a valid position; marked hex by hex all the same.
            for h in hex.range_iter(rings) {
                self.mark(h, m);
            }
            return;
        };
        if rings == 1 {
            // The hex and its six neighbours (most of Dark sight's marks): fixed steps
            // of the square's index, one row up and down, without the ring table.
            let w = usize::try_from(self.width).expect("positive");
            for i in [
                centre - w,
                centre + 1 - w,
                centre - 1,
                centre,
                centre + 1,
                centre + w - 1,
                centre + w,
            ] {
                self.bits[i] |= m;
            }
            return;
        }
        let count = usize::try_from(3 * rings * (rings + 1)).expect("at most 36");
        self.bits[centre] |= m;
        for &step in &self.steps[..count] {
            // Within the square: the centre is on the board and steps go `pad` out.
            self.bits[centre.wrapping_add_signed(step)] |= m;
        }
    }

    /// The marks of `board`'s rows, in the board's index order (from the top, each row
    /// west to east): each row's first index, its westmost hex, and its hexes' bits.
    pub(crate) fn rows(
        &self,
        board: HexagonBoard,
    ) -> impl Iterator<Item = (usize, Hex, &[u8])> + '_ {
        debug_assert_eq!(self.radius, radius_of(board));
        board
            .range_runs(Hex::ORIGIN, board.radius())
            .map(move |(first, west, len)| {
                let from = self.slot(west).expect("on the board");
                (first, west, &self.bits[from..from + len])
            })
    }

    /// The marks of the board's hexes, in the board's index order (the tests read them
    /// so). With `explored` (independent exploration), a bit stays only where it is also
    /// set in `explored`, or on the perimeter.
    #[cfg(test)]
    pub(crate) fn to_grid(
        &self,
        board: HexagonBoard,
        explored: Option<&hexmap::Grid<u8>>,
    ) -> hexmap::Grid<u8> {
        let mut cells = Vec::with_capacity(hexmap::Board::len(&board));
        for (first, west, row) in self.rows(board) {
            cells.extend_from_slice(row);
            // A row's end hexes are on the perimeter, and the top and bottom rows whole.
            if let Some(explored) = explored
                && west.r.abs() < self.radius
            {
                let inner = &mut cells[first + 1..first + row.len() - 1];
                for (b, e) in inner.iter_mut().zip(&explored.as_slice()[first + 1..]) {
                    *b &= e;
                }
            }
        }
        hexmap::Grid::from_vec(cells)
    }
}

/// The radius of `board`, as the square counts it.
fn radius_of(board: HexagonBoard) -> i32 {
    i32::try_from(board.radius()).expect("a VIKTORY board is small")
}

#[cfg(test)]
mod tests {
    use super::*;
    use hexmap::Board;

    /// The padded square marks exactly the hexes (on the board) within the rings asked
    /// of each centre that marking through the board's own index does, for boards of
    /// every side up to 9, every padding, centres on and (in a setup that could never
    /// load) off the board.
    #[test]
    fn marks_agree_with_the_board() {
        for side in 1..=9 {
            let board = HexagonBoard::new(side);
            let radius = i32::try_from(board.radius()).expect("small");
            let far = radius + 4;
            for pad in 1..=MAX_PAD {
                for (n, centre) in (-far..=far)
                    .flat_map(|q| (-far..=far).map(move |r| Hex::new(q, r)))
                    .enumerate()
                {
                    let rings = (n as u32) % (pad + 1);
                    let mut marks = Marks::new(board, pad);
                    marks.around(centre, rings, 0b101);
                    let mut plain = hexmap::Grid::from_board(&board, 0u8);
                    for h in centre.range(rings) {
                        if let Some(b) = plain.get_hex_mut(&board, h) {
                            *b |= 0b101;
                        }
                    }
                    assert_eq!(
                        marks.to_grid(board, None),
                        plain,
                        "side {side}, pad {pad}, {centre}, {rings} rings"
                    );
                    assert_eq!(marks.to_grid(board, None).len(), board.len());
                }
            }
        }
    }
}
