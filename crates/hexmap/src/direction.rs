//! The six directions from a hex to its neighbours.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::coord::Hex;
use crate::error::ParseError;

/// One of the six directions from a hex to an adjacent hex.
///
/// The variants are in clockwise order on screen (y grows downward), starting
/// north-east, and are named for a pointy-top picture. Their axial `(q, r)` offsets:
///
/// | variant | index | offset |
/// |---------|-------|--------|
/// | `NE`    | 0     | (+1, −1) |
/// | `E`     | 1     | (+1, 0)  |
/// | `SE`    | 2     | (0, +1)  |
/// | `SW`    | 3     | (−1, +1) |
/// | `W`     | 4     | (−1, 0)  |
/// | `NW`    | 5     | (0, −1)  |
///
/// On a flat-top map (see [`Orientation`](crate::Orientation)) the same offsets are drawn
/// turned 30° clockwise: `NE` then points up-right at 30° above the horizontal, `E`
/// down-right, `SE` straight down, and so on. Clockwise order is the same in both
/// pictures, so rings, rotations and facings work unchanged.
///
/// Serialised and displayed as the lowercase name: `"ne"`, `"e"`, `"se"`, `"sw"`, `"w"`,
/// `"nw"`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// North-east, offset (+1, −1).
    NE,
    /// East, offset (+1, 0).
    E,
    /// South-east, offset (0, +1).
    SE,
    /// South-west, offset (−1, +1).
    SW,
    /// West, offset (−1, 0).
    W,
    /// North-west, offset (0, −1).
    NW,
}

impl Direction {
    /// All six directions in clockwise order starting north-east; `ALL[d.index()] == d`.
    pub const ALL: [Direction; 6] = [
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    /// The axial offset `(q, r)` of the neighbour in this direction.
    pub const fn offset(self) -> Hex {
        match self {
            Direction::NE => Hex::new(1, -1),
            Direction::E => Hex::new(1, 0),
            Direction::SE => Hex::new(0, 1),
            Direction::SW => Hex::new(-1, 1),
            Direction::W => Hex::new(-1, 0),
            Direction::NW => Hex::new(0, -1),
        }
    }

    /// The position of this direction in [`Direction::ALL`] (0 for `NE` … 5 for `NW`).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction at `index` in [`Direction::ALL`], taken modulo 6 so that
    /// `from_index(d.index() + n)` turns `d` clockwise by `n` sixths.
    pub const fn from_index(index: usize) -> Direction {
        Direction::ALL[index % 6]
    }

    /// The direction whose [`offset`](Direction::offset) is `offset`, if any.
    pub const fn from_offset(offset: Hex) -> Option<Direction> {
        match (offset.q, offset.r) {
            (1, -1) => Some(Direction::NE),
            (1, 0) => Some(Direction::E),
            (0, 1) => Some(Direction::SE),
            (-1, 1) => Some(Direction::SW),
            (-1, 0) => Some(Direction::W),
            (0, -1) => Some(Direction::NW),
            _ => None,
        }
    }

    /// The next direction clockwise (`NE` → `E`, …, `NW` → `NE`).
    #[must_use]
    pub const fn clockwise(self) -> Direction {
        Direction::from_index(self.index() + 1)
    }

    /// The next direction counter-clockwise (`NE` → `NW`, `E` → `NE`, …).
    #[must_use]
    pub const fn counter_clockwise(self) -> Direction {
        Direction::from_index(self.index() + 5)
    }

    /// This direction turned clockwise by `n` sixths of a turn.
    #[must_use]
    pub const fn rotated_cw(self, n: usize) -> Direction {
        Direction::from_index(self.index() + n % 6)
    }

    /// The reverse direction (`NE` ↔ `SW`, `E` ↔ `W`, `SE` ↔ `NW`).
    #[must_use]
    pub const fn opposite(self) -> Direction {
        Direction::from_index(self.index() + 3)
    }

    /// The lowercase name used by `Display` and serde: `"ne"`, `"e"`, ….
    pub const fn name(self) -> &'static str {
        match self {
            Direction::NE => "ne",
            Direction::E => "e",
            Direction::SE => "se",
            Direction::SW => "sw",
            Direction::W => "w",
            Direction::NW => "nw",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for Direction {
    type Err = ParseError;

    /// Parses the lowercase name (`"ne"`, `"e"`, …); upper case is accepted too.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Direction::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseError::new("direction", s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_is_in_index_order() {
        for (i, d) in Direction::ALL.into_iter().enumerate() {
            assert_eq!(d.index(), i);
            assert_eq!(Direction::from_index(i), d);
            assert_eq!(Direction::from_index(i + 6), d);
        }
    }

    #[test]
    fn offsets_match_the_table() {
        let offsets: Vec<(i32, i32)> = Direction::ALL
            .iter()
            .map(|d| (d.offset().q, d.offset().r))
            .collect();
        assert_eq!(
            offsets,
            [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
        );
        for d in Direction::ALL {
            assert_eq!(Direction::from_offset(d.offset()), Some(d));
        }
        assert_eq!(Direction::from_offset(Hex::new(1, 1)), None);
        assert_eq!(Direction::from_offset(Hex::ORIGIN), None);
    }

    #[test]
    fn turning() {
        assert_eq!(Direction::NE.clockwise(), Direction::E);
        assert_eq!(Direction::NW.clockwise(), Direction::NE);
        assert_eq!(Direction::NE.counter_clockwise(), Direction::NW);
        assert_eq!(Direction::SE.counter_clockwise(), Direction::E);
        assert_eq!(Direction::NE.opposite(), Direction::SW);
        assert_eq!(Direction::E.opposite(), Direction::W);
        assert_eq!(Direction::SE.opposite(), Direction::NW);
        assert_eq!(Direction::W.rotated_cw(2), Direction::NE);
        assert_eq!(Direction::W.rotated_cw(14), Direction::NE);
        for d in Direction::ALL {
            assert_eq!(d.clockwise().counter_clockwise(), d);
            assert_eq!(d.opposite().opposite(), d);
            assert_eq!(d.opposite().offset(), -d.offset());
            assert_eq!(d.rotated_cw(3), d.opposite());
        }
    }

    #[test]
    fn clockwise_matches_rotating_the_offset() {
        for d in Direction::ALL {
            assert_eq!(d.offset().rotate_cw(1), d.clockwise().offset());
        }
    }

    #[test]
    fn display_parse_and_serde() {
        let names: Vec<String> = Direction::ALL.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["ne", "e", "se", "sw", "w", "nw"]);
        for d in Direction::ALL {
            assert_eq!(d.to_string().parse::<Direction>(), Ok(d));
            let json = serde_json::to_string(&d).unwrap();
            assert_eq!(json, format!("\"{d}\""));
            assert_eq!(serde_json::from_str::<Direction>(&json).unwrap(), d);
        }
        assert_eq!("SW".parse::<Direction>(), Ok(Direction::SW));
        assert!("north".parse::<Direction>().is_err());
        assert!(serde_json::from_str::<Direction>("\"n\"").is_err());
    }
}
