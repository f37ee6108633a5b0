//! The [`Board`] trait (a finite set of hexes with a dense index) and the hexagon-shaped
//! board.

use std::iter::FusedIterator;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::coord::Hex;

/// A finite set of hexes, each with a dense index `0..len()`.
///
/// Implementations answer [`index`](Board::index) and [`hex_at`](Board::hex_at) in O(1),
/// and the two are inverse: `hex_at(i) == Some(h)` exactly when `index(h) == Some(i)`.
/// Per-hex data lives in a [`Grid`](crate::Grid) addressed by that index. Each
/// implementation documents its index order; [`HexagonBoard`] uses reading order
/// ([`Hex`]'s `Ord`).
///
/// The trait is dyn-compatible; [`hexes`](Board::hexes) needs a sized board, and
/// [`Hexes::new`] does the same for a `&dyn Board`.
pub trait Board {
    /// The number of hexes on the board.
    fn len(&self) -> usize;

    /// The dense index of `hex`, or `None` when it is off the board. Safe for any
    /// coordinates, however large.
    fn index(&self, hex: Hex) -> Option<usize>;

    /// The hex with dense index `index`, or `None` when `index >= len()`.
    fn hex_at(&self, index: usize) -> Option<Hex>;

    /// Whether `hex` is on the board. Safe for any coordinates, however large.
    fn contains(&self, hex: Hex) -> bool {
        self.index(hex).is_some()
    }

    /// Whether the board has no hexes.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every hex on the board, in index order.
    fn hexes(&self) -> Hexes<'_, Self>
    where
        Self: Sized,
    {
        Hexes::new(self)
    }

    /// The neighbours of `hex` that are on the board, in
    /// [`Direction::ALL`](crate::Direction::ALL) order.
    fn neighbors(&self, hex: Hex) -> Vec<Hex> {
        hex.neighbors()
            .into_iter()
            .filter(|&n| self.contains(n))
            .collect()
    }
}

impl<B: Board + ?Sized> Board for &B {
    fn len(&self) -> usize {
        (**self).len()
    }
    fn index(&self, hex: Hex) -> Option<usize> {
        (**self).index(hex)
    }
    fn hex_at(&self, index: usize) -> Option<Hex> {
        (**self).hex_at(index)
    }
    fn contains(&self, hex: Hex) -> bool {
        (**self).contains(hex)
    }
    fn is_empty(&self) -> bool {
        (**self).is_empty()
    }
    fn neighbors(&self, hex: Hex) -> Vec<Hex> {
        (**self).neighbors(hex)
    }
}

/// Iterator over the hexes of a board in index order; see [`Board::hexes`].
#[derive(Debug)]
pub struct Hexes<'a, B: ?Sized> {
    board: &'a B,
    front: usize,
    back: usize,
}

impl<'a, B: Board + ?Sized> Hexes<'a, B> {
    /// Iterates over every hex of `board` in index order (works for `&dyn Board` too).
    pub fn new(board: &'a B) -> Hexes<'a, B> {
        Hexes {
            board,
            front: 0,
            back: board.len(),
        }
    }
}

impl<B: ?Sized> Clone for Hexes<'_, B> {
    fn clone(&self) -> Self {
        Hexes {
            board: self.board,
            front: self.front,
            back: self.back,
        }
    }
}

impl<B: Board + ?Sized> Iterator for Hexes<'_, B> {
    type Item = Hex;

    fn next(&mut self) -> Option<Hex> {
        if self.front == self.back {
            return None;
        }
        let hex = self.board.hex_at(self.front);
        self.front += 1;
        hex
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl<B: Board + ?Sized> DoubleEndedIterator for Hexes<'_, B> {
    fn next_back(&mut self) -> Option<Hex> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        self.board.hex_at(self.back)
    }
}

impl<B: Board + ?Sized> ExactSizeIterator for Hexes<'_, B> {}

impl<B: Board + ?Sized> FusedIterator for Hexes<'_, B> {}

/// A hexagon-shaped board centred on the origin, with `side` hexes along each edge.
///
/// Side `S` means radius `S − 1` and `3·S·(S−1) + 1` hexes: side 5 has 61, 6 has 91,
/// 7 has 127, 8 has 169. The dense index is reading order (by `r`, then `q`), computed
/// in O(1) from the start of each row.
///
/// Serialised as `{"side": S}`; deserialising checks `1 <= S <= MAX_SIDE`.
///
/// ```
/// use hexmap::{Board, Hex, HexagonBoard};
///
/// let board = HexagonBoard::new(5);
/// assert_eq!(board.len(), 61);
/// assert_eq!(board.radius(), 4);
/// assert_eq!(board.hex_at(0), Some(Hex::new(0, -4)));
/// assert_eq!(board.index(Hex::ORIGIN), Some(30));
/// assert!(board.is_perimeter(Hex::new(4, -2)));
/// assert!(!board.contains(Hex::new(5, 0)));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct HexagonBoard {
    side: u32,
}

impl HexagonBoard {
    /// The largest side accepted (a board of about 300 million hexes).
    pub const MAX_SIDE: u32 = 10_000;

    /// The hexagon board with `side` hexes along each edge.
    ///
    /// # Panics
    ///
    /// If `side` is 0 or greater than [`MAX_SIDE`](HexagonBoard::MAX_SIDE); use
    /// [`try_new`](HexagonBoard::try_new) for sizes from outside.
    pub const fn new(side: u32) -> HexagonBoard {
        match HexagonBoard::try_new(side) {
            Some(board) => board,
            None => panic!("HexagonBoard side must be between 1 and MAX_SIDE"),
        }
    }

    /// The hexagon board with `side` hexes along each edge, or `None` if `side` is 0 or
    /// greater than [`MAX_SIDE`](HexagonBoard::MAX_SIDE).
    pub const fn try_new(side: u32) -> Option<HexagonBoard> {
        if side == 0 || side > HexagonBoard::MAX_SIDE {
            None
        } else {
            Some(HexagonBoard { side })
        }
    }

    /// Hexes along each edge.
    pub const fn side(self) -> u32 {
        self.side
    }

    /// The distance from the centre to the edge hexes: `side − 1`.
    pub const fn radius(self) -> u32 {
        self.side - 1
    }

    /// Whether `hex` is on the outer ring (on the board, at distance `radius` from the
    /// centre). On a side-1 board the single hex is the perimeter.
    pub fn is_perimeter(self, hex: Hex) -> bool {
        Hex::ORIGIN.distance(hex) == self.radius()
    }

    /// The outer ring, in [`Hex::ring`] order.
    pub fn perimeter(self) -> Vec<Hex> {
        Hex::ORIGIN.ring(self.radius())
    }

    /// The hexes within `radius` of `centre` that are on the board, as runs of
    /// consecutive indexes, row by row from the top: each run's first index, its first
    /// (westmost) hex, and its length. A run's `k`-th hex is `k` east of its first, at
    /// index `first + k`. With the origin and [`radius`](HexagonBoard::radius), the
    /// whole board in index order. Safe for any centre and radius.
    ///
    /// ```
    /// use hexmap::{Hex, HexagonBoard};
    ///
    /// let board = HexagonBoard::new(3); // 19 hexes, rows of 3, 4, 5, 4, 3
    /// let runs: Vec<_> = board.range_runs(Hex::new(2, 0), 1).collect();
    /// assert_eq!(
    ///     runs,
    ///     [(6, Hex::new(2, -1), 1), (10, Hex::new(1, 0), 2), (15, Hex::new(1, 1), 1)]
    /// );
    /// let whole: usize = board.range_runs(Hex::ORIGIN, board.radius()).map(|r| r.2).sum();
    /// assert_eq!(whole, 19);
    /// ```
    #[inline]
    pub fn range_runs(self, centre: Hex, radius: u32) -> RangeRuns {
        let big = i64::from(self.radius());
        let n = i64::from(radius);
        let (cq, cr) = (i64::from(centre.q), i64::from(centre.r));
        RangeRuns {
            board: self,
            big,
            n,
            cq,
            cr,
            row: (cr - n).max(-big),
            last: (cr + n).min(big),
        }
    }

    /// Index of the first hex of row `i` (0-based from the top) for `i <= radius + 1`.
    fn row_start(self, i: u64) -> u64 {
        let b = 2 * u64::from(self.radius()) + 1;
        i * (i + b) / 2
    }
}

impl Board for HexagonBoard {
    fn len(&self) -> usize {
        Hex::range_count(self.radius())
    }

    #[inline]
    fn contains(&self, hex: Hex) -> bool {
        Hex::ORIGIN.distance(hex) <= self.radius()
    }

    #[inline]
    fn index(&self, hex: Hex) -> Option<usize> {
        // Hot path of every per-hex lookup: plain i64 arithmetic, no recursion.
        let radius = i64::from(self.radius());
        let (q, r) = (i64::from(hex.q), i64::from(hex.r));
        // Each of q, r and q + r within -radius..=radius: one unsigned comparison each
        // (a value below -radius wraps to a large one).
        let span = 2 * radius as u64;
        let within = |x: i64| (x + radius) as u64 <= span;
        if !(within(q) && within(r) && within(q + r)) {
            return None;
        }
        let b = 2 * radius + 1;
        // In the upper half (r <= 0) row i starts at i(i + b)/2 and its first hex has
        // q = -r - radius; the lower half mirrors the upper half through the centre.
        // i(i + b) is even and not negative, so the halving is a shift.
        let upper = |q: i64, r: i64| {
            let row = r + radius;
            ((row * (row + b)) >> 1) + q + r + radius
        };
        let index = if r <= 0 {
            upper(q, r)
        } else {
            let len = 3 * radius * (radius + 1) + 1;
            len - 1 - upper(-q, -r)
        };
        usize::try_from(index).ok()
    }

    fn hex_at(&self, index: usize) -> Option<Hex> {
        let len = self.len();
        if index >= len {
            return None;
        }
        let radius = u64::from(self.radius());
        let idx = index as u64;
        if idx >= self.row_start(radius + 1) {
            return self.hex_at(len - 1 - index).map(|h| -h);
        }
        // Largest row i with row_start(i) <= idx: i² + b·i <= 2·idx  ⇔  2i + b <= √(b² + 8·idx).
        let b = 2 * radius + 1;
        let row = ((b * b + 8 * idx).isqrt() - b) / 2;
        let r = row as i64 - radius as i64;
        let q = (idx - self.row_start(row)) as i64 - r - radius as i64;
        Some(Hex::new(q as i32, r as i32))
    }
}

/// The runs of [`HexagonBoard::range_runs`]: each run's first index, first hex and
/// length, row by row from the top.
#[derive(Clone, Debug)]
pub struct RangeRuns {
    board: HexagonBoard,
    /// The board's radius.
    big: i64,
    /// The range's radius and centre.
    n: i64,
    cq: i64,
    cr: i64,
    /// The next row to give, and the last.
    row: i64,
    last: i64,
}

impl Iterator for RangeRuns {
    type Item = (usize, Hex, usize);

    #[inline]
    fn next(&mut self) -> Option<(usize, Hex, usize)> {
        let (big, n) = (self.big, self.n);
        while self.row <= self.last {
            let r = self.row;
            self.row += 1;
            let dr = r - self.cr;
            // The range's row, cut to the board's: q and q + r within the radius.
            let west = (self.cq + (-n).max(-dr - n)).max((-big).max(-r - big));
            let east = (self.cq + n.min(n - dr)).min(big.min(big - r));
            if west > east {
                continue;
            }
            // Both on the board, whose radius is at most MAX_SIDE: exact in an i32.
            let first = Hex::new(west as i32, r as i32);
            return Some((self.board.index(first)?, first, (east - west + 1) as usize));
        }
        None
    }
}

impl FusedIterator for RangeRuns {}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HexagonBoardRepr {
    side: u32,
}

impl Serialize for HexagonBoard {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        HexagonBoardRepr { side: self.side }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for HexagonBoard {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let repr = HexagonBoardRepr::deserialize(deserializer)?;
        HexagonBoard::try_new(repr.side).ok_or_else(|| {
            serde::de::Error::custom(format_args!(
                "hexagon board side {} is not between 1 and {}",
                repr.side,
                HexagonBoard::MAX_SIDE
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `range_runs` lists exactly the hexes of `Hex::range` on the board, in index
    /// order, each run's indexes consecutive; for centres on, near and far off the board.
    #[test]
    fn range_runs_are_the_range_on_the_board() {
        for side in 1..=8 {
            let board = HexagonBoard::new(side);
            let big = i32::try_from(board.radius()).unwrap();
            for q in -big - 4..=big + 4 {
                for r in -big - 4..=big + 4 {
                    let centre = Hex::new(q, r);
                    for radius in 0..=(board.radius() + 3) {
                        let mut want: Vec<(usize, Hex)> = centre
                            .range(radius)
                            .into_iter()
                            .filter_map(|h| Some((board.index(h)?, h)))
                            .collect();
                        want.sort();
                        let got: Vec<(usize, Hex)> = board
                            .range_runs(centre, radius)
                            .flat_map(|(first, hex, len)| {
                                (0..len).map(move |k| (first + k, hex + Hex::new(k as i32, 0)))
                            })
                            .collect();
                        assert_eq!(got, want, "side {side}, {centre}, radius {radius}");
                    }
                }
            }
        }
        let far = Hex::new(i32::MAX, i32::MIN);
        assert_eq!(HexagonBoard::new(5).range_runs(far, u32::MAX).count(), 9);
        assert_eq!(HexagonBoard::new(5).range_runs(far, 3).count(), 0);
    }

    #[test]
    fn sizes() {
        let sizes: Vec<usize> = (1..=8).map(|s| HexagonBoard::new(s).len()).collect();
        assert_eq!(sizes, [1, 7, 19, 37, 61, 91, 127, 169]);
        assert_eq!(HexagonBoard::new(8).radius(), 7);
        assert_eq!(HexagonBoard::new(8).side(), 8);
        assert!(!HexagonBoard::new(1).is_empty());
        assert_eq!(HexagonBoard::try_new(0), None);
        assert_eq!(HexagonBoard::try_new(HexagonBoard::MAX_SIDE + 1), None);
        assert!(HexagonBoard::try_new(HexagonBoard::MAX_SIDE).is_some());
    }

    #[test]
    #[should_panic(expected = "side")]
    fn side_zero_panics() {
        let _ = HexagonBoard::new(0);
    }

    #[test]
    fn index_is_reading_order() {
        let board = HexagonBoard::new(3);
        let hexes: Vec<Hex> = board.hexes().collect();
        assert_eq!(hexes, Hex::ORIGIN.range(2));
        assert_eq!(hexes[0], Hex::new(0, -2));
        assert_eq!(hexes[2], Hex::new(2, -2));
        assert_eq!(hexes[3], Hex::new(-1, -1));
        assert_eq!(hexes[9], Hex::ORIGIN);
        assert_eq!(hexes[18], Hex::new(0, 2));
        for (i, &h) in hexes.iter().enumerate() {
            assert_eq!(board.index(h), Some(i));
            assert_eq!(board.hex_at(i), Some(h));
        }
        assert_eq!(board.hex_at(19), None);
        assert_eq!(board.index(Hex::new(3, 0)), None);
        assert_eq!(board.index(Hex::new(i32::MAX, i32::MIN)), None);
        assert!(!board.contains(Hex::new(i32::MIN, i32::MIN)));
        // Off the board by each of the three bounds, on either side.
        for off in [(-3, 0), (3, -1), (0, -3), (0, 3), (2, 1), (-2, -1)] {
            assert_eq!(board.index(Hex::new(off.0, off.1)), None, "{off:?}");
        }
        for extreme in [i32::MIN, i32::MAX] {
            assert_eq!(board.index(Hex::new(extreme, 0)), None);
            assert_eq!(board.index(Hex::new(0, extreme)), None);
            assert_eq!(board.index(Hex::new(extreme, extreme)), None);
        }
        let max = HexagonBoard::new(HexagonBoard::MAX_SIDE);
        assert_eq!(max.index(Hex::new(i32::MIN, i32::MIN)), None);
        assert_eq!(max.index(Hex::new(i32::MAX, i32::MIN)), None);
    }

    #[test]
    fn large_board_round_trips() {
        let board = HexagonBoard::new(40);
        assert_eq!(board.hexes().collect::<Vec<_>>(), Hex::ORIGIN.range(39));
        let max = HexagonBoard::new(HexagonBoard::MAX_SIDE);
        let last = max.len() - 1;
        assert_eq!(max.hex_at(last), Some(Hex::new(0, 9999)));
        assert_eq!(max.index(Hex::new(0, 9999)), Some(last));
        assert_eq!(max.index(Hex::new(9999, -9999)), Some(9999));
    }

    #[test]
    fn perimeter() {
        let board = HexagonBoard::new(5);
        assert!(board.is_perimeter(Hex::new(4, 0)));
        assert!(board.is_perimeter(Hex::new(-2, -2)));
        assert!(!board.is_perimeter(Hex::new(3, 0)));
        assert!(!board.is_perimeter(Hex::new(5, 0)));
        assert_eq!(board.perimeter().len(), 24);
        assert!(HexagonBoard::new(1).is_perimeter(Hex::ORIGIN));
        assert_eq!(HexagonBoard::new(1).perimeter(), [Hex::ORIGIN]);
    }

    #[test]
    fn iteration_and_neighbours() {
        let board = HexagonBoard::new(2);
        let it = board.hexes();
        assert_eq!(it.len(), 7);
        assert_eq!(
            board.hexes().rev().collect::<Vec<_>>(),
            [
                Hex::new(0, 1),
                Hex::new(-1, 1),
                Hex::new(1, 0),
                Hex::new(0, 0),
                Hex::new(-1, 0),
                Hex::new(1, -1),
                Hex::new(0, -1),
            ]
        );
        assert_eq!(
            board.neighbors(Hex::new(1, 0)),
            [Hex::new(0, 1), Hex::new(0, 0), Hex::new(1, -1)]
        );
        let dynamic: &dyn Board = &board;
        assert_eq!(Hexes::new(dynamic).count(), 7);
        assert_eq!(dynamic.neighbors(Hex::ORIGIN).len(), 6);
        let by_ref = &board;
        assert_eq!(<&HexagonBoard as Board>::hexes(&by_ref).count(), 7);
        assert_eq!(
            <&HexagonBoard as Board>::index(&by_ref, Hex::ORIGIN),
            Some(3)
        );
    }

    #[test]
    fn serde() {
        let board = HexagonBoard::new(6);
        let json = serde_json::to_string(&board).unwrap();
        assert_eq!(json, r#"{"side":6}"#);
        assert_eq!(serde_json::from_str::<HexagonBoard>(&json).unwrap(), board);
        assert!(serde_json::from_str::<HexagonBoard>(r#"{"side":0}"#).is_err());
        assert!(serde_json::from_str::<HexagonBoard>(r#"{"side":3,"x":1}"#).is_err());
    }
}
