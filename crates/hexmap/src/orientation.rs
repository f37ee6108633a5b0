//! How axial coordinates are drawn: pointy-top or flat-top.

use serde::{Deserialize, Serialize};

use crate::coord::Hex;

/// How a map draws its hexes. Axial coordinates, distances, directions and rotations
/// are the same for both; only the picture differs.
///
/// The flat-top picture is the pointy-top one turned 30° clockwise, so a [`Direction`]
/// keeps its clockwise position but its compass name is off by 30° (on a flat-top map
/// `NE` points up-right at 30° above the horizontal, `E` down-right, `SE` straight down,
/// `SW` down-left, `W` up-left, `NW` straight up).
///
/// [`HexagonBoard`](crate::HexagonBoard)s are drawn pointy-top; an
/// [`OffsetBoard`](crate::OffsetBoard) is drawn as its
/// [`OffsetLayout::orientation`](crate::OffsetLayout::orientation) says (flat-top for the
/// column-shifted "q" layouts, pointy-top for the row-shifted "r" layouts).
///
/// [`Direction`]: crate::Direction
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Orientation {
    /// Hexes with a corner at the top; rows are horizontal (`r` is the row).
    PointyTop,
    /// Hexes with a flat edge at the top; columns are vertical (`q` is the column).
    FlatTop,
}

impl Orientation {
    /// The screen position (x right, y down) of the centre of `hex`, relative to the
    /// centre of the origin hex, for hexes whose centre-to-corner distance is `size`.
    ///
    /// ```
    /// use hexmap::{Hex, Orientation};
    ///
    /// let (x, y) = Orientation::FlatTop.to_pixel(Hex::new(2, -1), 10.0);
    /// assert_eq!((x, y), (30.0, 0.0));
    /// ```
    pub fn to_pixel(self, hex: Hex, size: f64) -> (f64, f64) {
        let sqrt3 = 3f64.sqrt();
        let (q, r) = (f64::from(hex.q), f64::from(hex.r));
        match self {
            Orientation::PointyTop => (size * sqrt3 * (q + r / 2.0), size * 1.5 * r),
            Orientation::FlatTop => (size * 1.5 * q, size * sqrt3 * (r + q / 2.0)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Direction;

    fn approx(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9
    }

    #[test]
    fn pixels() {
        let s3 = 3f64.sqrt();
        let p = Orientation::PointyTop;
        assert!(approx(p.to_pixel(Hex::ORIGIN, 1.0), (0.0, 0.0)));
        assert!(approx(p.to_pixel(Hex::new(1, 0), 1.0), (s3, 0.0)));
        assert!(approx(p.to_pixel(Hex::new(1, -1), 1.0), (s3 / 2.0, -1.5)));
        let f = Orientation::FlatTop;
        assert!(approx(f.to_pixel(Hex::new(0, 1), 2.0), (0.0, 2.0 * s3)));
        assert!(approx(f.to_pixel(Hex::new(1, 0), 1.0), (1.5, s3 / 2.0)));
    }

    #[test]
    fn flat_top_turns_directions_30_degrees_clockwise() {
        for d in Direction::ALL {
            let (px, py) = Orientation::PointyTop.to_pixel(d.offset(), 1.0);
            let (fx, fy) = Orientation::FlatTop.to_pixel(d.offset(), 1.0);
            let turn = fy.atan2(fx) - py.atan2(px);
            let turn = turn.rem_euclid(std::f64::consts::TAU);
            assert!((turn - std::f64::consts::FRAC_PI_6).abs() < 1e-9, "{d}");
        }
    }

    #[test]
    fn serde_names() {
        assert_eq!(
            serde_json::to_string(&Orientation::FlatTop).unwrap(),
            "\"flat-top\""
        );
    }
}
