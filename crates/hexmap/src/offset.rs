//! Rectangular boards in offset coordinates, with the `XXYY` hex numbers printed on
//! wargame maps.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::board::Board;
use crate::coord::Hex;
use crate::error::ParseError;
use crate::orientation::Orientation;

/// Which lines of a rectangular hex map are shifted by half a hex (redblobgames'
/// naming).
///
/// "Odd"/"even" refer to the **zero-based** column or row index, as in redblobgames'
/// guide: with the 1-based numbers printed on a map, `OddQ` shifts the printed columns
/// 02, 04, 06 … and `EvenQ` shifts 01, 03, 05 ….
///
/// * `OddQ`, `EvenQ`: vertical columns, drawn flat-top; the shifted columns sit half a hex
///   *lower*. `OddQ` is the usual wargame map, where hex 0201 is lower than 0101 and 0301.
/// * `OddR`, `EvenR`: horizontal rows, drawn pointy-top; the shifted rows sit half a hex
///   to the *right*.
///
/// In every layout hex `0101` (column 1, row 1) is axial `(0, 0)`. Axial coordinates do
/// not depend on the orientation, so all of this crate's geometry works the same on
/// every layout; only the picture differs (see [`Orientation`]).
///
/// Serialised as `"odd-q"`, `"even-q"`, `"odd-r"`, `"even-r"`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OffsetLayout {
    /// Columns; zero-based odd columns (printed 02, 04, …) shifted down. Flat-top.
    OddQ,
    /// Columns; zero-based even columns (printed 01, 03, …) shifted down. Flat-top.
    EvenQ,
    /// Rows; zero-based odd rows (printed 02, 04, …) shifted right. Pointy-top.
    OddR,
    /// Rows; zero-based even rows (printed 01, 03, …) shifted right. Pointy-top.
    EvenR,
}

impl OffsetLayout {
    /// The four layouts.
    pub const ALL: [OffsetLayout; 4] = [
        OffsetLayout::OddQ,
        OffsetLayout::EvenQ,
        OffsetLayout::OddR,
        OffsetLayout::EvenR,
    ];

    /// How maps in this layout are drawn: flat-top for the column ("q") layouts,
    /// pointy-top for the row ("r") layouts.
    pub const fn orientation(self) -> Orientation {
        match self {
            OffsetLayout::OddQ | OffsetLayout::EvenQ => Orientation::FlatTop,
            OffsetLayout::OddR | OffsetLayout::EvenR => Orientation::PointyTop,
        }
    }

    /// Zero-based offset `(col, row)` to axial `(q, r)`. `>> 1` is floor division by 2.
    fn to_axial(self, col: i64, row: i64) -> (i64, i64) {
        match self {
            OffsetLayout::OddQ => (col, row - (col >> 1)),
            OffsetLayout::EvenQ => (col, row - ((col + 1) >> 1)),
            OffsetLayout::OddR => (col - (row >> 1), row),
            OffsetLayout::EvenR => (col - ((row + 1) >> 1), row),
        }
    }

    /// Axial `(q, r)` to zero-based offset `(col, row)`.
    fn to_offset(self, q: i64, r: i64) -> (i64, i64) {
        match self {
            OffsetLayout::OddQ => (q, r + (q >> 1)),
            OffsetLayout::EvenQ => (q, r + ((q + 1) >> 1)),
            OffsetLayout::OddR => (q + (r >> 1), r),
            OffsetLayout::EvenR => (q + ((r + 1) >> 1), r),
        }
    }
}

/// A wargame hex number `XXYY`: column `XX` then row `YY`, both 1-based, e.g. `1203` is
/// column 12, row 3.
///
/// The row takes two decimal digits (`column · 100 + row`), so columns of 100 or more
/// simply make the number longer (`10203` is column 102, row 3). Boards with 100 or more
/// rows give rows more digits; [`OffsetBoard::number`] and [`OffsetBoard::hex_of`] know
/// the width, while [`HexNumber::new`], [`column`](HexNumber::column) and
/// [`row`](HexNumber::row) assume the usual two.
///
/// Displayed zero-padded to at least four digits (`0101`); parsed from 1 to 9 ASCII
/// digits; serialised as the plain integer.
///
/// ```
/// use hexmap::HexNumber;
///
/// let n: HexNumber = "0305".parse().unwrap();
/// assert_eq!(n, HexNumber(305));
/// assert_eq!((n.column(), n.row()), (3, 5));
/// assert_eq!(n.to_string(), "0305");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HexNumber(pub u32);

impl HexNumber {
    /// The number of column `column`, row `row` with two row digits.
    ///
    /// # Panics
    ///
    /// If `row` is 100 or more, or the number does not fit in a `u32`.
    pub const fn new(column: u32, row: u32) -> HexNumber {
        assert!(row < 100, "HexNumber::new takes rows below 100");
        match column.checked_mul(100) {
            Some(c) => HexNumber(c + row),
            None => panic!("HexNumber overflows u32"),
        }
    }

    /// The integer value, e.g. `1203`.
    pub const fn get(self) -> u32 {
        self.0
    }

    /// The column, assuming two row digits (`XX` of `XXYY`).
    pub const fn column(self) -> u32 {
        self.0 / 100
    }

    /// The row, assuming two row digits (`YY` of `XXYY`).
    pub const fn row(self) -> u32 {
        self.0 % 100
    }

    /// Parses 1 to 9 ASCII decimal digits, leading zeros allowed: `"1203"`, `"0101"`.
    pub fn parse(text: &str) -> Result<HexNumber, ParseError> {
        let ok = (1..=9).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit());
        if !ok {
            return Err(ParseError::new("hex number", text));
        }
        text.parse()
            .map(HexNumber)
            .map_err(|_| ParseError::new("hex number", text))
    }
}

impl fmt::Display for HexNumber {
    /// Zero-padded to four digits: `0101`, `1203`, `10203`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}", self.0)
    }
}

impl FromStr for HexNumber {
    type Err = ParseError;

    /// Same as [`HexNumber::parse`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        HexNumber::parse(s)
    }
}

/// A rectangular board of `columns × rows` hexes in an [`OffsetLayout`], numbered the
/// way wargame maps are (`XXYY`, 1-based).
///
/// Hex `0101` is axial `(0, 0)`. The dense index is row-major over the offset grid:
/// `(row − 1) · columns + (column − 1)`, so index 0 is `0101`, index 1 is `0201`, and
/// index `columns` is `0102`. For the row layouts (`OddR`, `EvenR`) that is also
/// [`Hex`]'s reading order; for the column layouts the rows zigzag, so it is not.
///
/// Serialised as `{"columns": C, "rows": R, "layout": "odd-q"}`.
///
/// ```
/// use hexmap::{Board, Hex, HexNumber, OffsetBoard, OffsetLayout};
///
/// let map = OffsetBoard::new(12, 10, OffsetLayout::OddQ);
/// assert_eq!(map.len(), 120);
/// let h = map.hex_of(HexNumber(1203)).unwrap();
/// assert_eq!(h, Hex::new(11, -3));
/// assert_eq!(map.number(h), Some(HexNumber(1203)));
/// assert_eq!(map.to_offset(h), Some((12, 3)));
/// assert_eq!(map.number(Hex::new(1, 0)).unwrap().to_string(), "0201");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OffsetBoard {
    columns: u32,
    rows: u32,
    layout: OffsetLayout,
}

impl OffsetBoard {
    /// The largest number of columns or rows accepted.
    pub const MAX_DIMENSION: u32 = 9999;

    /// A board of `columns × rows` hexes. Either may be 0 (an empty board).
    ///
    /// # Panics
    ///
    /// If `columns` or `rows` exceeds [`MAX_DIMENSION`](OffsetBoard::MAX_DIMENSION); use
    /// [`try_new`](OffsetBoard::try_new) for sizes from outside.
    pub const fn new(columns: u32, rows: u32, layout: OffsetLayout) -> OffsetBoard {
        match OffsetBoard::try_new(columns, rows, layout) {
            Some(board) => board,
            None => panic!("OffsetBoard dimensions must not exceed MAX_DIMENSION"),
        }
    }

    /// A board of `columns × rows` hexes, or `None` if either exceeds
    /// [`MAX_DIMENSION`](OffsetBoard::MAX_DIMENSION).
    pub const fn try_new(columns: u32, rows: u32, layout: OffsetLayout) -> Option<OffsetBoard> {
        if columns > OffsetBoard::MAX_DIMENSION || rows > OffsetBoard::MAX_DIMENSION {
            None
        } else {
            Some(OffsetBoard {
                columns,
                rows,
                layout,
            })
        }
    }

    /// The number of columns.
    pub const fn columns(self) -> u32 {
        self.columns
    }

    /// The number of rows.
    pub const fn rows(self) -> u32 {
        self.rows
    }

    /// The layout.
    pub const fn layout(self) -> OffsetLayout {
        self.layout
    }

    /// How the board is drawn: [`OffsetLayout::orientation`].
    pub const fn orientation(self) -> Orientation {
        self.layout.orientation()
    }

    /// The hex at 1-based `column`, `row`, or `None` when off the board.
    pub fn to_hex(self, column: u32, row: u32) -> Option<Hex> {
        if column == 0 || row == 0 || column > self.columns || row > self.rows {
            return None;
        }
        let (q, r) = self
            .layout
            .to_axial(i64::from(column - 1), i64::from(row - 1));
        Some(Hex::new(q as i32, r as i32))
    }

    /// The 1-based `(column, row)` of `hex`, or `None` when off the board.
    pub fn to_offset(self, hex: Hex) -> Option<(u32, u32)> {
        let (col, row) = self.layout.to_offset(i64::from(hex.q), i64::from(hex.r));
        let col = u32::try_from(col).ok()?;
        let row = u32::try_from(row).ok()?;
        (col < self.columns && row < self.rows).then_some((col + 1, row + 1))
    }

    /// How many decimal digits the row takes in this board's hex numbers: 2, or more when
    /// the board has 100 rows or more.
    pub const fn row_digits(self) -> u32 {
        let mut digits = 2;
        while 10u32.pow(digits) <= self.rows {
            digits += 1;
        }
        digits
    }

    /// The hex number of `hex` (`column · 10^row_digits + row`), or `None` when off the
    /// board.
    pub fn number(self, hex: Hex) -> Option<HexNumber> {
        let (col, row) = self.to_offset(hex)?;
        Some(HexNumber(col * 10u32.pow(self.row_digits()) + row))
    }

    /// The hex with number `number`, or `None` when it names no hex of this board.
    pub fn hex_of(self, number: HexNumber) -> Option<Hex> {
        let base = 10u32.pow(self.row_digits());
        self.to_hex(number.0 / base, number.0 % base)
    }

    /// The hex number of `hex` as printed on the map: the column padded to two digits and
    /// the row to [`row_digits`](OffsetBoard::row_digits) (for boards under 100 rows this
    /// is the [`HexNumber`]'s `Display`); `None` when off the board.
    pub fn label(self, hex: Hex) -> Option<String> {
        let (col, row) = self.to_offset(hex)?;
        Some(format!(
            "{col:02}{row:0width$}",
            width = self.row_digits() as usize
        ))
    }
}

impl Board for OffsetBoard {
    fn len(&self) -> usize {
        self.columns as usize * self.rows as usize
    }

    fn index(&self, hex: Hex) -> Option<usize> {
        let (col, row) = self.to_offset(hex)?;
        Some((row - 1) as usize * self.columns as usize + (col - 1) as usize)
    }

    fn hex_at(&self, index: usize) -> Option<Hex> {
        if index >= self.len() {
            return None;
        }
        let columns = self.columns as usize;
        self.to_hex((index % columns) as u32 + 1, (index / columns) as u32 + 1)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct OffsetBoardRepr {
    columns: u32,
    rows: u32,
    layout: OffsetLayout,
}

impl Serialize for OffsetBoard {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        OffsetBoardRepr {
            columns: self.columns,
            rows: self.rows,
            layout: self.layout,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for OffsetBoard {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let r = OffsetBoardRepr::deserialize(deserializer)?;
        OffsetBoard::try_new(r.columns, r.rows, r.layout).ok_or_else(|| {
            serde::de::Error::custom(format_args!(
                "offset board {}x{} exceeds {} columns or rows",
                r.columns,
                r.rows,
                OffsetBoard::MAX_DIMENSION
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Direction;

    fn h(q: i32, r: i32) -> Hex {
        Hex::new(q, r)
    }

    #[test]
    fn layouts_place_the_first_hexes() {
        // (column, row) 1-based -> axial, for columns/rows 1..=3.
        let odd_q = OffsetBoard::new(3, 3, OffsetLayout::OddQ);
        assert_eq!(odd_q.to_hex(1, 1), Some(h(0, 0)));
        assert_eq!(odd_q.to_hex(2, 1), Some(h(1, 0)));
        assert_eq!(odd_q.to_hex(3, 1), Some(h(2, -1)));
        assert_eq!(odd_q.to_hex(1, 2), Some(h(0, 1)));
        assert_eq!(odd_q.to_hex(3, 3), Some(h(2, 1)));

        let even_q = OffsetBoard::new(3, 3, OffsetLayout::EvenQ);
        assert_eq!(even_q.to_hex(1, 1), Some(h(0, 0)));
        assert_eq!(even_q.to_hex(2, 1), Some(h(1, -1)));
        assert_eq!(even_q.to_hex(3, 1), Some(h(2, -1)));
        assert_eq!(even_q.to_hex(3, 3), Some(h(2, 1)));

        let odd_r = OffsetBoard::new(3, 3, OffsetLayout::OddR);
        assert_eq!(odd_r.to_hex(1, 2), Some(h(0, 1)));
        assert_eq!(odd_r.to_hex(1, 3), Some(h(-1, 2)));
        assert_eq!(odd_r.to_hex(3, 3), Some(h(1, 2)));

        let even_r = OffsetBoard::new(3, 3, OffsetLayout::EvenR);
        assert_eq!(even_r.to_hex(1, 2), Some(h(-1, 1)));
        assert_eq!(even_r.to_hex(1, 3), Some(h(-1, 2)));
        assert_eq!(even_r.to_hex(2, 2), Some(h(0, 1)));
    }

    #[test]
    fn shifted_lines_sit_between_their_neighbours() {
        // OddQ: 0201 is below-right of 0101 (its SE-ish neighbour on a flat-top map) and
        // below-left of 0301.
        let map = OffsetBoard::new(3, 2, OffsetLayout::OddQ);
        let a = map.to_hex(1, 1).unwrap();
        let b = map.to_hex(2, 1).unwrap();
        let c = map.to_hex(3, 1).unwrap();
        assert_eq!(a.direction_to(b), Some(Direction::E));
        assert_eq!(c.direction_to(b), Some(Direction::SW));
        let (_, ya) = map.orientation().to_pixel(a, 1.0);
        let (_, yb) = map.orientation().to_pixel(b, 1.0);
        assert!(yb > ya);
        // OddR: 0102 is below-right of 0101.
        let map = OffsetBoard::new(2, 2, OffsetLayout::OddR);
        let a = map.to_hex(1, 1).unwrap();
        let below = map.to_hex(1, 2).unwrap();
        assert_eq!(a.direction_to(below), Some(Direction::SE));
        let (xa, _) = map.orientation().to_pixel(a, 1.0);
        let (xb, _) = map.orientation().to_pixel(below, 1.0);
        assert!(xb > xa);
    }

    #[test]
    fn off_board() {
        let map = OffsetBoard::new(4, 3, OffsetLayout::EvenR);
        assert_eq!(map.to_hex(0, 1), None);
        assert_eq!(map.to_hex(1, 0), None);
        assert_eq!(map.to_hex(5, 1), None);
        assert_eq!(map.to_hex(1, 4), None);
        assert_eq!(map.to_offset(h(-1, 0)), None);
        assert_eq!(map.to_offset(h(0, -1)), None);
        assert_eq!(map.to_offset(h(i32::MAX, i32::MIN)), None);
        assert!(!map.contains(h(i32::MIN, i32::MAX)));
        assert_eq!(map.number(h(10, 10)), None);
        assert_eq!(map.hex_of(HexNumber(501)), None);
        assert_eq!(map.hex_of(HexNumber(104)), None);
        assert_eq!(map.hex_of(HexNumber(100)), None);
    }

    #[test]
    fn xxyy_round_trips() {
        for layout in OffsetLayout::ALL {
            let map = OffsetBoard::new(22, 17, layout);
            for col in 1..=22 {
                for row in 1..=17 {
                    let hex = map.to_hex(col, row).unwrap();
                    assert_eq!(map.to_offset(hex), Some((col, row)));
                    let n = map.number(hex).unwrap();
                    assert_eq!(n, HexNumber::new(col, row));
                    assert_eq!((n.column(), n.row()), (col, row));
                    assert_eq!(map.hex_of(n), Some(hex));
                    let text = n.to_string();
                    assert_eq!(text, format!("{col:02}{row:02}"));
                    assert_eq!(map.label(hex), Some(text.clone()));
                    assert_eq!(text.parse::<HexNumber>(), Ok(n));
                }
            }
        }
    }

    #[test]
    fn wide_and_tall_boards() {
        let wide = OffsetBoard::new(120, 10, OffsetLayout::OddQ);
        assert_eq!(wide.row_digits(), 2);
        let hex = wide.to_hex(102, 3).unwrap();
        assert_eq!(wide.number(hex), Some(HexNumber(10203)));
        assert_eq!(wide.label(hex).unwrap(), "10203");
        assert_eq!(HexNumber(10203).to_string(), "10203");

        let tall = OffsetBoard::new(10, 150, OffsetLayout::OddR);
        assert_eq!(tall.row_digits(), 3);
        let hex = tall.to_hex(7, 123).unwrap();
        assert_eq!(tall.number(hex), Some(HexNumber(7123)));
        assert_eq!(tall.hex_of(HexNumber(7123)), Some(hex));
        let low = tall.to_hex(1, 5).unwrap();
        assert_eq!(tall.number(low), Some(HexNumber(1005)));
        assert_eq!(tall.label(low).unwrap(), "01005");
        assert_eq!(tall.hex_of(HexNumber::parse("01005").unwrap()), Some(low));
        assert_eq!(OffsetBoard::new(1, 100, OffsetLayout::OddR).row_digits(), 3);
        assert_eq!(OffsetBoard::new(1, 99, OffsetLayout::OddR).row_digits(), 2);
        assert_eq!(
            OffsetBoard::new(1, 9999, OffsetLayout::OddR).row_digits(),
            4
        );
    }

    #[test]
    fn board_index_is_row_major() {
        let map = OffsetBoard::new(4, 3, OffsetLayout::OddQ);
        assert_eq!(map.len(), 12);
        assert_eq!(map.hex_at(0), map.to_hex(1, 1));
        assert_eq!(map.hex_at(1), map.to_hex(2, 1));
        assert_eq!(map.hex_at(4), map.to_hex(1, 2));
        assert_eq!(map.hex_at(11), map.to_hex(4, 3));
        assert_eq!(map.hex_at(12), None);
        for (i, hex) in map.hexes().enumerate() {
            assert_eq!(map.index(hex), Some(i));
        }
        // Row layouts: row-major is reading order.
        let rows = OffsetBoard::new(5, 4, OffsetLayout::EvenR);
        let hexes: Vec<Hex> = rows.hexes().collect();
        assert!(hexes.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn empty_and_oversized() {
        let empty = OffsetBoard::new(0, 5, OffsetLayout::OddQ);
        assert!(empty.is_empty());
        assert_eq!(empty.hex_at(0), None);
        assert_eq!(empty.index(Hex::ORIGIN), None);
        assert_eq!(empty.hexes().count(), 0);
        assert_eq!(OffsetBoard::try_new(10_000, 1, OffsetLayout::OddQ), None);
        let max = OffsetBoard::new(9999, 9999, OffsetLayout::EvenQ);
        let last = max.to_hex(9999, 9999).unwrap();
        assert_eq!(max.number(last), Some(HexNumber(99_999_999)));
        assert_eq!(max.hex_of(HexNumber(99_999_999)), Some(last));
    }

    #[test]
    fn hex_number_parsing() {
        assert_eq!(HexNumber::parse("1203"), Ok(HexNumber(1203)));
        assert_eq!(HexNumber::parse("0101"), Ok(HexNumber(101)));
        assert_eq!(HexNumber::parse("7"), Ok(HexNumber(7)));
        assert!(HexNumber::parse("").is_err());
        assert!(HexNumber::parse("12a3").is_err());
        assert!(HexNumber::parse("+123").is_err());
        assert!(HexNumber::parse("1234567890").is_err());
        assert_eq!(HexNumber(101).to_string(), "0101");
        assert_eq!(HexNumber(101).get(), 101);
        assert_eq!(HexNumber::new(12, 3), HexNumber(1203));
    }

    #[test]
    fn serde() {
        let map = OffsetBoard::new(12, 10, OffsetLayout::EvenR);
        let json = serde_json::to_string(&map).unwrap();
        assert_eq!(json, r#"{"columns":12,"rows":10,"layout":"even-r"}"#);
        assert_eq!(serde_json::from_str::<OffsetBoard>(&json).unwrap(), map);
        assert!(
            serde_json::from_str::<OffsetBoard>(r#"{"columns":10000,"rows":1,"layout":"odd-q"}"#)
                .is_err()
        );
        assert_eq!(serde_json::to_string(&HexNumber(101)).unwrap(), "101");
        assert_eq!(
            serde_json::from_str::<HexNumber>("1203").unwrap(),
            HexNumber(1203)
        );
    }
}
