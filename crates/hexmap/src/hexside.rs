//! Hexsides: the edge shared by two adjacent hexes (rivers, roads across it, zones of
//! control along it).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::coord::Hex;
use crate::direction::Direction;

/// The edge between two adjacent hexes, in one canonical form.
///
/// Of the two hexes, the one stored is the **smaller in reading order** (the upper one,
/// or the left one in the same row), together with the direction from it to the other,
/// which is therefore always `E`, `SE` or `SW`. So each hexside has exactly one value,
/// and hexsides compare by that hex and then `E < SE < SW`.
///
/// Serialised as `[[q, r], "dir"]` (the stored hex and direction); deserialising also
/// accepts the other three directions and canonicalises.
///
/// ```
/// use hexmap::{Direction, Hex, Hexside};
///
/// let a = Hex::new(0, 0);
/// let b = Hex::new(0, -1); // north-west of a
/// let side = Hexside::between(a, b).unwrap();
/// assert_eq!(side, Hexside::new(a, Direction::NW));
/// assert_eq!(side.hex(), b);
/// assert_eq!(side.direction(), Direction::SE);
/// assert_eq!(side.hexes(), (b, a));
/// assert_eq!(Hexside::between(a, Hex::new(2, 0)), None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hexside {
    hex: Hex,
    direction: Direction,
}

impl Hexside {
    /// The side of `hex` facing `direction`.
    pub fn new(hex: Hex, direction: Direction) -> Hexside {
        match direction {
            Direction::E | Direction::SE | Direction::SW => Hexside { hex, direction },
            Direction::W | Direction::NW | Direction::NE => Hexside {
                hex: hex.neighbor(direction),
                direction: direction.opposite(),
            },
        }
    }

    /// The side shared by `a` and `b`, or `None` unless they are adjacent.
    pub fn between(a: Hex, b: Hex) -> Option<Hexside> {
        a.direction_to(b).map(|d| Hexside::new(a, d))
    }

    /// The six sides of `hex`, in [`Direction::ALL`] order.
    pub fn around(hex: Hex) -> [Hexside; 6] {
        Direction::ALL.map(|d| Hexside::new(hex, d))
    }

    /// The stored hex: the smaller of the two in reading order.
    pub const fn hex(self) -> Hex {
        self.hex
    }

    /// The direction from [`hex`](Hexside::hex) across the side: `E`, `SE` or `SW`.
    pub const fn direction(self) -> Direction {
        self.direction
    }

    /// The two hexes, smaller (in reading order) first.
    pub fn hexes(self) -> (Hex, Hex) {
        (self.hex, self.hex.neighbor(self.direction))
    }

    /// Whether `hex` is one of the two hexes.
    pub fn touches(self, hex: Hex) -> bool {
        let (a, b) = self.hexes();
        hex == a || hex == b
    }

    /// The hex across the side from `hex`, or `None` if `hex` is not one of the two.
    pub fn other(self, hex: Hex) -> Option<Hex> {
        let (a, b) = self.hexes();
        if hex == a {
            Some(b)
        } else if hex == b {
            Some(a)
        } else {
            None
        }
    }
}

impl fmt::Display for Hexside {
    /// The two hexes, e.g. `0,-1|0,0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = self.hexes();
        write!(f, "{a}|{b}")
    }
}

impl Serialize for Hexside {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (self.hex, self.direction).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Hexside {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (hex, direction) = <(Hex, Direction)>::deserialize(deserializer)?;
        Ok(Hexside::new(hex, direction))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(q: i32, r: i32) -> Hex {
        Hex::new(q, r)
    }

    #[test]
    fn canonical_form() {
        let c = h(1, 1);
        for d in Direction::ALL {
            let side = Hexside::new(c, d);
            assert_eq!(side, Hexside::new(c.neighbor(d), d.opposite()));
            assert!(matches!(
                side.direction(),
                Direction::E | Direction::SE | Direction::SW
            ));
            let (a, b) = side.hexes();
            assert!(a < b);
            assert!(side.touches(c));
            assert!(side.touches(c.neighbor(d)));
            assert_eq!(side.other(c), Some(c.neighbor(d)));
            assert_eq!(side.other(c.neighbor(d)), Some(c));
        }
        assert_eq!(
            Hexside::new(h(0, 0), Direction::W).hexes(),
            (h(-1, 0), h(0, 0))
        );
        assert_eq!(
            Hexside::new(h(0, 0), Direction::NE).hexes(),
            (h(1, -1), h(0, 0))
        );
        assert_eq!(
            Hexside::new(h(0, 0), Direction::NE).direction(),
            Direction::SW
        );
        assert_eq!(Hexside::new(h(0, 0), Direction::E).other(h(5, 5)), None);
        assert!(!Hexside::new(h(0, 0), Direction::E).touches(h(0, 1)));
    }

    #[test]
    fn between() {
        assert_eq!(
            Hexside::between(h(2, 3), h(2, 4)),
            Some(Hexside::new(h(2, 3), Direction::SE))
        );
        assert_eq!(
            Hexside::between(h(2, 4), h(2, 3)),
            Hexside::between(h(2, 3), h(2, 4))
        );
        assert_eq!(Hexside::between(h(2, 3), h(2, 3)), None);
        assert_eq!(Hexside::between(h(2, 3), h(3, 4)), None);
    }

    #[test]
    fn around_and_order() {
        let sides = Hexside::around(h(0, 0));
        let mut unique = sides.to_vec();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 6);
        // The sides shared with the three upper/left neighbours sort first.
        assert_eq!(unique[0], Hexside::new(h(0, -1), Direction::SE));
        assert_eq!(unique[1], Hexside::new(h(1, -1), Direction::SW));
        assert_eq!(unique[2], Hexside::new(h(-1, 0), Direction::E));
        assert_eq!(unique[3], Hexside::new(h(0, 0), Direction::E));
        assert_eq!(unique[4], Hexside::new(h(0, 0), Direction::SE));
        assert_eq!(unique[5], Hexside::new(h(0, 0), Direction::SW));
    }

    #[test]
    fn display_and_serde() {
        let side = Hexside::new(h(0, 0), Direction::NW);
        assert_eq!(side.to_string(), "0,-1|0,0");
        let json = serde_json::to_string(&side).unwrap();
        assert_eq!(json, r#"[[0,-1],"se"]"#);
        assert_eq!(serde_json::from_str::<Hexside>(&json).unwrap(), side);
        assert_eq!(
            serde_json::from_str::<Hexside>(r#"[[0,0],"nw"]"#).unwrap(),
            side
        );
    }
}
